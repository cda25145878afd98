#!/usr/bin/env python3
"""Set up a Raspberry Pi's boot configuration and device permissions for tavla-pi.

Merges the lines of ``firmware/config/<family>-<leds>.txt`` into the Pi's
``config.txt`` as one marked block (replaced in place on later runs, so a
second run changes nothing), after a timestamped backup, and installs the udev
rules ``firmware/99-tavla-pi.rules``.  ``--dry-run`` prints the diff and
changes nothing; ``--remove`` takes the block out again.  Reboot afterwards.

The model comes from ``/proc/device-tree/model`` (or ``--model``), the LED
driver from ``hardware/pinout.toml`` (or ``--pinout``, or the ``[board] pinout``
that ``--service-config`` names, or ``--leds``).  ``--resolve`` only prints the
family, the LED driver and the pin map it read (``pi4 spi /path/pinout.toml``):
systemd/install.sh decides by it whether the service needs root.  Standard
library only, Python 3.9 or newer (3.11 to read TOML): it runs before tavla-pi
is installed.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
PINOUT = HERE.parent / "hardware" / "pinout.toml"
RULES = HERE / "99-tavla-pi.rules"
BEGIN = "# >>> tavla-pi: managed by firmware/install.py, do not edit inside >>>"
END = "# <<< tavla-pi <<<"
DISABLED = "#tavla-pi: "
CONFLICTS = {"dtparam=audio=off": ("dtparam=audio=on",)}
"""Active lines elsewhere in config.txt that a block line contradicts."""
FAMILIES = {"Zero 2": "pi3", "3": "pi3", "4": "pi4", "400": "pi4", "5": "pi5", "500": "pi5"}
AUTO_LEDS = {"pi3": "spi", "pi4": "spi", "pi5": "pio"}
"""What ``[leds] driver = "auto"`` means per family: SPI1 or PIO, never root's PWM."""
MODEL = re.compile(r"Raspberry Pi (?:Compute Module )?(Zero 2|\d+)\b")


class SetupError(Exception):
    """Bad usage or input: one line for stderr, exit status 2."""


def family_of(model: str) -> str:
    """``pi3`` (Zero 2 W, 3), ``pi4`` (4, 400) or ``pi5`` (5, 500) from a model string."""
    text = model.strip().strip("\0").strip()
    if text in AUTO_LEDS:
        return text
    match = MODEL.match(text)
    if match is None or match[1] not in FAMILIES:
        raise SetupError(f"unsupported model {text!r}: tavla-pi needs a Raspberry Pi "
                         "Zero 2 W, 3, 4 or 5 (or give --model pi3|pi4|pi5)")
    return FAMILIES[match[1]]


def read_model(root: Path) -> str:
    """The model string the kernel reports."""
    path = root / "proc/device-tree/model"
    try:
        return path.read_bytes().decode("ascii", "replace")
    except OSError as exc:
        raise SetupError(f"{path}: cannot read the Pi model ({exc.strerror}); "
                         "give --model pi3|pi4|pi5") from exc


def leds_from_pinout(pinout: Path) -> str:
    """The ``[leds] driver`` of a pinout file (``auto``, ``pwm``, ``spi`` or ``pio``)."""
    try:
        import tomllib
    except ImportError as exc:  # Python before 3.11, e.g. Raspberry Pi OS Bullseye
        raise SetupError("reading the pinout needs Python 3.11 or newer; give --leds") from exc
    try:
        data = tomllib.loads(pinout.read_text(encoding="utf-8"))
        driver = data["leds"]["driver"]
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
        raise SetupError(f"{pinout}: cannot read [leds] driver ({exc}); give --leds") from exc
    if driver not in ("auto", "pwm", "spi", "pio"):
        raise SetupError(f"{pinout}: [leds] driver: unknown driver {driver!r}")
    return str(driver)


def pinout_of(service_config: Path) -> Path | None:
    """The pin map a tavla-pi config names in ``[board] pinout`` (None: the shipped one).

    A relative path is taken from the config's directory, as the daemon takes it.
    """
    try:
        import tomllib
    except ImportError as exc:  # Python before 3.11
        raise SetupError("reading the config needs Python 3.11 or newer; give --pinout") from exc
    try:
        board = tomllib.loads(service_config.read_text(encoding="utf-8")).get("board", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SetupError(f"{service_config}: cannot read [board] pinout ({exc}); "
                         "give --pinout") from exc
    value = board.get("pinout") if isinstance(board, dict) else None
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise SetupError(f"{service_config}: [board] pinout: expected a path, got {value!r}")
    return service_config.parent / value


def fragment(family: str, leds: str) -> list[str]:
    """The config.txt lines for this Pi family and LED driver."""
    driver = AUTO_LEDS[family] if leds == "auto" else leds
    path = HERE / "config" / f"{family}-{driver}.txt"
    if not path.is_file():
        choices = sorted(p.stem.split("-")[1] for p in (HERE / "config").glob(f"{family}-*.txt"))
        raise SetupError(f"LED driver {driver!r} does not work on {family}; "
                         f"use one of: {', '.join(choices)}")
    return path.read_text(encoding="utf-8").splitlines()


def find_config(root: Path) -> Path:
    """``/boot/firmware/config.txt`` (Bookworm on), else ``/boot/config.txt``."""
    for candidate in ("boot/firmware/config.txt", "boot/config.txt"):
        if (root / candidate).is_file():
            return root / candidate
    raise SetupError(f"no config.txt under {root / 'boot/firmware'} or {root / 'boot'}; "
                     "give --config")


def strip_block(lines: list[str]) -> tuple[list[str], int]:
    """The lines without the managed block (restoring what it disabled), and its position."""
    out: list[str] = []
    where, inside = -1, False
    for line in lines:
        if line == BEGIN:
            where, inside = len(out), True
        elif inside:
            inside = line != END
        else:
            out.append(line.removeprefix(DISABLED))
    if inside:
        raise SetupError(f"the tavla-pi block has no end marker {END!r}; fix it by hand")
    return out, where


def merge(text: str, block: list[str]) -> str:
    """``text`` with the managed block set to ``block`` (none when empty)."""
    lines, where = strip_block(text.splitlines())
    if not block:
        return "\n".join(lines) + "\n" if lines else ""
    contradicted = {old for line in block for old in CONFLICTS.get(line, ())}
    lines = [DISABLED + line if line.strip() in contradicted else line for line in lines]
    if where < 0:
        where = len(lines)
    managed = [BEGIN, "[all]", *block, END]
    return "\n".join([*lines[:where], *managed, *lines[where:]]) + "\n"


def backup_path(config: Path, now: datetime) -> Path:
    """A fresh name for the backup of ``config`` next to it."""
    stamp = now.strftime("%Y%m%d-%H%M%S")
    path = config.with_name(f"{config.name}.tavla-pi-{stamp}.bak")
    n = 1
    while path.exists():
        path = config.with_name(f"{config.name}.tavla-pi-{stamp}-{n}.bak")
        n += 1
    return path


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` so that a power cut leaves the old or the new file."""
    temp = path.with_name(path.name + ".tavla-pi-new")
    temp.write_text(text, encoding="utf-8")
    temp.replace(path)


def show_diff(old: str, new: str, name: str) -> None:
    """Print a unified diff of a change."""
    sys.stdout.writelines(difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), name, name + " (new)"))


def apply_config(config: Path, block: list[str], dry_run: bool) -> bool:
    """Merge ``block`` into ``config``; True when it changed (or would)."""
    old = config.read_text(encoding="utf-8")
    new = merge(old, block)
    if new == old:
        print(f"{config}: already up to date")
        return False
    show_diff(old, new, str(config))
    if dry_run:
        return True
    backup = backup_path(config, datetime.now())
    backup.write_text(old, encoding="utf-8")
    write_atomically(config, new)
    print(f"{config}: updated (backup {backup.name})")
    return True


def apply_rules(rules_dir: Path, remove: bool, dry_run: bool) -> bool:
    """Install (or remove) the udev rules; True when that changed something."""
    target = rules_dir / RULES.name
    wanted = None if remove else RULES.read_text(encoding="utf-8")
    current = target.read_text(encoding="utf-8") if target.is_file() else None
    if current == wanted:
        print(f"{target}: already up to date")
        return False
    print(f"{target}: {'remove' if remove else 'install'}{' (dry run)' if dry_run else ''}")
    if not dry_run:
        if wanted is None:
            target.unlink()
        else:
            rules_dir.mkdir(parents=True, exist_ok=True)
            write_atomically(target, wanted)
    return True


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="install.py", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--config", type=Path, help="config.txt to edit "
                        "(default: /boot/firmware/config.txt, else /boot/config.txt)")
    parser.add_argument("--model", help="pi3, pi4, pi5 or a model string "
                        "(default: from /proc/device-tree/model)")
    parser.add_argument("--leds", choices=("auto", "pwm", "spi", "pio"),
                        help="LED driver (default: [leds] driver of --pinout)")
    parser.add_argument("--pinout", type=Path, help=f"the pin map (default: the one "
                        f"--service-config names, else {PINOUT})")
    parser.add_argument("--service-config", type=Path, help="a tavla-pi config.toml whose "
                        "[board] pinout, if any, is the pin map")
    parser.add_argument("--resolve", action="store_true", help="print the family, the LED "
                        "driver and the pin map, change nothing")
    parser.add_argument("--rules-dir", type=Path, help="default: /etc/udev/rules.d")
    parser.add_argument("--no-udev", action="store_true", help="leave the udev rules alone")
    parser.add_argument("--remove", action="store_true", help="undo: take the block out")
    parser.add_argument("--dry-run", action="store_true", help="print the diff, change nothing")
    parser.add_argument("--root", type=Path, default=Path("/"), help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def resolve(args: argparse.Namespace) -> tuple[str, str, Path]:
    """The Pi family, the LED driver on it (``auto`` resolved) and the pin map read."""
    family = family_of(args.model or read_model(args.root))
    pinout = args.pinout or (args.service_config and pinout_of(args.service_config)) or PINOUT
    leds = args.leds or leds_from_pinout(pinout)
    fragment(family, leds)  # refuses a driver that cannot work on this family
    return family, AUTO_LEDS[family] if leds == "auto" else leds, pinout


def run(args: argparse.Namespace) -> None:
    """Do what the arguments ask; raises SetupError on bad input."""
    if args.resolve:
        print(*resolve(args))
        return
    config = args.config or find_config(args.root)
    if args.remove:
        block: list[str] = []
    else:
        family, leds, _ = resolve(args)
        block = fragment(family, leds)
        print(f"model {family}, LED driver {leds}")
    changed = apply_config(config, block, args.dry_run)
    if not args.no_udev:
        rules_dir = args.rules_dir or args.root / "etc/udev/rules.d"
        changed = apply_rules(rules_dir, args.remove, args.dry_run) or changed
    if changed and not args.dry_run:
        print("reboot to apply; the service user needs the groups gpio and spi "
              "(sudo usermod -aG gpio,spi USER)")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (0 done, 1 I/O failure, 2 bad input)."""
    args = parse_args(argv)
    try:
        run(args)
    except SetupError as exc:
        print(f"install.py: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"install.py: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
