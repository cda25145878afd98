"""Test harness shipped with the package, as ``gpiozero.testing`` is: behavioural models
of the Pi's chips on gpiozero's MockFactory, the soak's scripted hand and judge, and the
writer of the scenarios it dumps.

Nothing in the product imports this package; tests, ``tools/`` and ``bench/`` do.
"""
