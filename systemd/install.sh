#!/bin/sh
# tavla-pi: install the daemon as a systemd service on a Raspberry Pi.
#
#   sudo make install            (or: sudo systemd/install.sh)
#   make install DRY_RUN=1       (or: systemd/install.sh --dry-run): print every step, change nothing
#   make install DRY_RUN=1 PI_MODEL=pi3   the plan for another model (pi3: Zero 2 W and 3,
#                                pi4: 4 and 400, pi5: 5 and 500, or a model string)
#   PINOUT=FILE                  the pin map to plan for (default: the one [board] pinout
#                                of /etc/tavla-pi/config.toml names, else hardware/pinout.toml)
#
# Steps: GNU Backgammon for the computer opponent (apt, from the distribution);
# a venv in $PREFIX (default /opt/tavla-pi) with tavla-pi and the Pi's
# hardware libraries, and beside it the README and docs/; the tavla-pi user
# in the gpio, spi and audio groups (systemd-sysusers); the unit, and the PWM
# drop-in only when the pin map opts in to [leds] driver = "pwm" (root: the
# default SPI1 and PIO drivers need none); /etc/tavla-pi/config.toml from
# config.example.toml if there is none; the
# udev rules and the boot configuration (firmware/install.py); then the service
# is enabled and (re)started. Safe to run again after `git pull`.
set -eu

PREFIX=${PREFIX:-/opt/tavla-pi}
PYTHON=${PYTHON:-python3}
HERE=$(cd "$(dirname "$0")/.." && pwd)
CONFIG=/etc/tavla-pi/config.toml
DRY=0
case "${1:-}" in
  --dry-run) DRY=1 ;;
  "") ;;
  *) echo "usage: $0 [--dry-run]" >&2; exit 2 ;;
esac

say() { echo "tavla-pi install: $*"; }
run() {
  echo "+ $*"
  if [ "$DRY" = 0 ]; then "$@"; fi
}
fail() { echo "tavla-pi install: $*" >&2; exit 2; }

# -- what this machine is ---------------------------------------------------------
MODEL=${PI_MODEL:-$(tr -d '\0' 2>/dev/null < /proc/device-tree/model || true)}
case "$MODEL" in
  pi3|pi4|pi5|"Raspberry Pi"*) ;;
  *)
    [ "$DRY" = 1 ] || fail "this is not a Raspberry Pi (${MODEL:-no /proc/device-tree/model}); on a desktop run: make sim"
    say "not a Raspberry Pi: showing the plan for a Pi 4 (PI_MODEL=pi3|pi4|pi5 for another)"
    MODEL=pi4 ;;
esac
if [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
  fail "run as root: sudo make install"
fi
$PYTHON -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || fail "tavla-pi needs Python 3.11 or newer ($($PYTHON --version 2>&1))"
# The pin map the service will read decides the boot configuration and whether the
# unit runs as root; firmware/install.py reads it and the model once for both.
if [ -n "${PINOUT:-}" ]; then
  set -- --pinout "$PINOUT"
elif [ -r "$CONFIG" ]; then
  set -- --service-config "$CONFIG"
else
  [ ! -e "$CONFIG" ] || say "cannot read $CONFIG as $(id -un): the plan assumes the shipped pin map"
  set --
fi
PLAN=$("$PYTHON" "$HERE/firmware/install.py" --resolve --model "$MODEL" "$@") || exit 2
FAMILY=${PLAN%% *}; PLAN=${PLAN#* }
LEDS=${PLAN%% *}; PINOUT=${PLAN#* }
EXTRA=$([ "$FAMILY" = pi5 ] && echo pi5 || echo pi)
say "model: $MODEL ($FAMILY), LED driver: $LEDS (pin map $PINOUT), prefix: $PREFIX"

# -- the computer opponent -------------------------------------------------------------
# gnubg from the distribution (Debian and Raspberry Pi OS build it for arm64 and armhf).
# Without it two players still play: a failure here is said, not fatal.
run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gnubg \
  || say "could not install gnubg: the computer opponent is not offered until it is (apt install gnubg)"

# -- the board's voice ([speech]) ------------------------------------------------------
# eSpeak NG and ALSA's aplay; without them the board is silent and says so in its log.
run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends espeak-ng \
  alsa-utils || say "could not install espeak-ng and alsa-utils: the board cannot speak until they are"

# -- the program ---------------------------------------------------------------------
run "$PYTHON" -m venv "$PREFIX"
run "$PREFIX/bin/pip" install --quiet --upgrade pip
run "$PREFIX/bin/pip" install --quiet "$HERE[$EXTRA]"
run install -m 0644 "$HERE/README.md" "$PREFIX/README.md"
run cp -R "$HERE/docs" "$PREFIX/"   # the pages the README links: docs/OPERATING.md, ...

# -- the user ------------------------------------------------------------------------
run install -D -m 0644 "$HERE/systemd/tavla-pi.sysusers.conf" "/usr/lib/sysusers.d/tavla-pi.conf"
run systemd-sysusers "/usr/lib/sysusers.d/tavla-pi.conf"

# -- the unit ------------------------------------------------------------------------
UNIT_DIR="/etc/systemd/system"
UNIT=$(mktemp)
trap 'rm -f "$UNIT"' EXIT
sed "s#/opt/tavla-pi/#$PREFIX/#g" "$HERE/systemd/tavla-pi.service" > "$UNIT"
say "the unit: systemd/tavla-pi.service with ExecStart under $PREFIX"
run install -D -m 0644 "$UNIT" "$UNIT_DIR/tavla-pi.service"
if [ "$LEDS" = pwm ]; then  # the opt-in: "auto" is SPI1 (Pi 0-4) or PIO (Pi 5), no root
  say "the pin map opts in to the PWM LED driver, which maps /dev/mem: the service runs"
  say "as root (pwm-root.conf); wire the LEDs to SPI1 (GPIO 20, [leds] driver = \"auto\")"
  say "to run it unprivileged (hardware/README.md)"
  run install -D -m 0644 "$HERE/systemd/pwm-root.conf" "$UNIT_DIR/tavla-pi.service.d/pwm-root.conf"
else
  run rm -f "$UNIT_DIR/tavla-pi.service.d/pwm-root.conf"
fi

# -- the config ----------------------------------------------------------------------
if [ -e "/etc/tavla-pi/config.toml" ]; then
  say "keeping /etc/tavla-pi/config.toml"
else
  run install -d -m 0755 "/etc/tavla-pi"
  run install -m 0640 -g tavla-pi "$HERE/config.example.toml" "/etc/tavla-pi/config.toml"
fi

# -- devices and boot configuration ----------------------------------------------------
if [ "$DRY" = 1 ] && [ ! -e /boot/firmware/config.txt ] && [ ! -e /boot/config.txt ]; then
  say "(no config.txt here: firmware/install.py would run on the Pi)"
  echo "+ $PYTHON $HERE/firmware/install.py --model $FAMILY --pinout $PINOUT"
elif [ "$DRY" = 1 ]; then
  run "$PYTHON" "$HERE/firmware/install.py" --model "$FAMILY" --pinout "$PINOUT" --dry-run
else
  run "$PYTHON" "$HERE/firmware/install.py" --model "$FAMILY" --pinout "$PINOUT"
fi
run udevadm control --reload
run udevadm trigger

# -- start ---------------------------------------------------------------------------
run systemctl daemon-reload
run systemctl enable tavla-pi.service
run systemctl restart tavla-pi.service
say "done. Logs: journalctl -u tavla-pi -f. Reboot once if the boot configuration changed."
