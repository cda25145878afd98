"""Test harness shipped with the package, as ``gpiozero.testing`` is: behavioural models
of the Pi's chips on gpiozero's MockFactory and the soak's scripted hand and judge.

Nothing in the product imports this package; tests, ``tools/`` and ``bench/`` do.
"""
