"""The ``pi`` backend: the real board through gpiozero and the Adafruit NeoPixel drivers.

gpiozero's core is imported here; pin factories (RPi.GPIO, lgpio) and the
Adafruit/Blinka libraries are imported only inside the functions that open
real hardware.
"""
