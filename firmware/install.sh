#!/bin/sh
# tavla-pi: set up the Pi's boot configuration and udev rules (see install.py --help).
# Usage: sudo firmware/install.sh [--dry-run] [--leds auto|pwm|spi|pio] [--remove] ...
exec python3 "$(dirname "$0")/install.py" "$@"
