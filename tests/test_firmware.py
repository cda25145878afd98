"""firmware/install.py against a temporary root: per-model lines, idempotence, backups."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
STOCK = "# stock Raspberry Pi OS\ndtparam=audio=on\ncamera_auto_detect=1\n\n[pi4]\narm_boost=1\n"
MODELS = {
    "pi3": "Raspberry Pi Zero 2 W Rev 1.0",
    "pi4": "Raspberry Pi 4 Model B Rev 1.4",
    "pi5": "Raspberry Pi 5 Model B Rev 1.0",
}


def load_installer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("install", FIRMWARE / "install.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


install = load_installer()


@pytest.fixture
def pi(tmp_path: Path) -> Path:
    """A fake root filesystem of a Pi 4 on Bookworm."""
    (tmp_path / "boot/firmware").mkdir(parents=True)
    (tmp_path / "boot/firmware/config.txt").write_text(STOCK)
    (tmp_path / "proc/device-tree").mkdir(parents=True)
    (tmp_path / "proc/device-tree/model").write_bytes(MODELS["pi4"].encode() + b"\0")
    return tmp_path


def run(root: Path, *args: str) -> int:
    status: int = install.main(["--root", str(root), *args])
    return status


def config(root: Path) -> str:
    return (root / "boot/firmware/config.txt").read_text()


def backups(root: Path) -> list[Path]:
    return sorted((root / "boot/firmware").glob("config.txt.tavla-pi-*.bak"))


def block(text: str) -> list[str]:
    lines = text.splitlines()
    return lines[lines.index(install.BEGIN) + 1:lines.index(install.END)]


def settings(lines: list[str]) -> list[str]:
    return [line for line in lines if line and not line.startswith("#")]


@pytest.mark.parametrize(("family", "leds", "expected"), [
    ("pi3", "auto", ["dtparam=spi=on", "dtoverlay=spi1-1cs", "core_freq=250"]),
    ("pi3", "pwm", ["dtparam=spi=on", "dtparam=audio=off"]),
    ("pi3", "spi", ["dtparam=spi=on", "dtoverlay=spi1-1cs", "core_freq=250"]),
    ("pi4", "auto", ["dtparam=spi=on", "dtoverlay=spi1-1cs", "core_freq=500", "core_freq_min=500"]),
    ("pi4", "pwm", ["dtparam=spi=on", "dtparam=audio=off"]),
    ("pi4", "spi", ["dtparam=spi=on", "dtoverlay=spi1-1cs", "core_freq=500", "core_freq_min=500"]),
    ("pi5", "auto", ["dtparam=spi=on"]),
    ("pi5", "spi", ["dtparam=spi=on", "dtoverlay=spi1-1cs"]),
])
def test_lines_per_model(pi: Path, family: str, leds: str, expected: list[str]) -> None:
    (pi / "proc/device-tree/model").write_text(MODELS[family] + "\0")
    assert run(pi, "--leds", leds) == 0
    lines = block(config(pi))
    assert lines[0] == "[all]", "the block must not inherit a conditional section"
    assert settings(lines) == ["[all]", *expected]


@pytest.mark.parametrize(("family", "leds"), [("pi5", "pwm"), ("pi4", "pio"), ("pi3", "pio")])
def test_driver_that_cannot_work(pi: Path, family: str, leds: str,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert run(pi, "--model", family, "--leds", leds) == 2
    assert f"does not work on {family}" in capsys.readouterr().err
    assert config(pi) == STOCK and not backups(pi)


def test_second_run_changes_nothing(pi: Path) -> None:
    assert run(pi) == 0
    first = config(pi)
    assert len(backups(pi)) == 1
    assert run(pi) == 0
    assert config(pi) == first
    assert len(backups(pi)) == 1, "no backup when nothing changes"


def test_backup_holds_the_original(pi: Path) -> None:
    assert run(pi) == 0
    [backup] = backups(pi)
    assert backup.read_text() == STOCK
    assert config(pi) != STOCK


def test_dry_run_changes_nothing(pi: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(pi, "--dry-run") == 0
    out = capsys.readouterr().out
    assert "+dtparam=spi=on" in out and "+dtoverlay=spi1-1cs" in out
    assert "-dtparam=audio=on" not in out, "the SPI1 default leaves analogue audio on"
    assert run(pi, "--leds", "pwm", "--dry-run") == 0
    out = capsys.readouterr().out
    assert "+dtparam=spi=on" in out and "-dtparam=audio=on" in out
    assert config(pi) == STOCK
    assert not backups(pi)
    assert not (pi / "etc").exists()


def test_conflicting_audio_line_is_disabled_and_restored(pi: Path) -> None:
    assert run(pi, "--leds", "pwm") == 0
    text = config(pi)
    assert "\ndtparam=audio=on\n" not in text and "#tavla-pi: dtparam=audio=on" in text
    assert run(pi, "--leds", "spi") == 0, "switching drivers"
    text = config(pi)
    assert "\ndtparam=audio=on\n" in text and text.count(install.BEGIN) == 1
    assert "dtoverlay=spi1-1cs" in text and "dtparam=audio=off" not in text


def test_remove_restores_the_original(pi: Path) -> None:
    assert run(pi) == 0
    assert run(pi, "--remove") == 0
    assert config(pi) == STOCK
    assert not (pi / "etc/udev/rules.d/99-tavla-pi.rules").exists()
    assert len(backups(pi)) == 2


def test_block_is_replaced_in_place(pi: Path) -> None:
    assert run(pi) == 0
    path = pi / "boot/firmware/config.txt"
    path.write_text(config(pi) + "[pi5]\nusb_max_current_enable=1\n")
    assert run(pi, "--leds", "spi") == 0
    assert config(pi).endswith(f"{install.END}\n[pi5]\nusb_max_current_enable=1\n")


def test_falls_back_to_old_boot_path(pi: Path) -> None:
    (pi / "boot/firmware/config.txt").unlink()
    (pi / "boot/config.txt").write_text(STOCK)
    assert run(pi) == 0
    assert "dtparam=spi=on" in (pi / "boot/config.txt").read_text()


def test_prefers_the_bookworm_path(pi: Path) -> None:
    (pi / "boot/config.txt").write_text("# moved to /boot/firmware/config.txt\n")
    assert run(pi) == 0
    assert (pi / "boot/config.txt").read_text() == "# moved to /boot/firmware/config.txt\n"
    assert "dtparam=spi=on" in config(pi)


def test_explicit_config_path(pi: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere.txt"
    other.write_text("")
    assert run(pi, "--config", str(other), "--no-udev") == 0
    assert settings(block(other.read_text())) == ["[all]", "dtparam=spi=on", "dtoverlay=spi1-1cs",
                                                  "core_freq=500", "core_freq_min=500"]
    assert config(pi) == STOCK
    assert not (pi / "etc").exists()


def test_no_config_anywhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "--model", "pi4") == 2
    assert "no config.txt" in capsys.readouterr().err


@pytest.mark.parametrize(("model", "family"), [
    ("Raspberry Pi Zero 2 W Rev 1.0\0", "pi3"),
    ("Raspberry Pi 3 Model B Plus Rev 1.3\0", "pi3"),
    ("Raspberry Pi 4 Model B Rev 1.5\0", "pi4"),
    ("Raspberry Pi 400 Rev 1.0\0", "pi4"),
    ("Raspberry Pi Compute Module 4 Rev 1.1\0", "pi4"),
    ("Raspberry Pi 5 Model B Rev 1.0\0", "pi5"),
    ("Raspberry Pi 500 Rev 1.0\0", "pi5"),
    ("pi5", "pi5"),
])
def test_model_detection(model: str, family: str) -> None:
    assert install.family_of(model) == family


@pytest.mark.parametrize("model", ["Raspberry Pi Zero W Rev 1.1", "Raspberry Pi 2 Model B Rev 1.1",
                                   "Raspberry Pi Model B Plus Rev 1.2", "Orange Pi 5", ""])
def test_unsupported_model(pi: Path, model: str, capsys: pytest.CaptureFixture[str]) -> None:
    (pi / "proc/device-tree/model").write_text(model + "\0")
    assert run(pi) == 2
    assert "unsupported model" in capsys.readouterr().err
    assert config(pi) == STOCK


def test_unreadable_model(pi: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (pi / "proc/device-tree/model").unlink()
    assert run(pi) == 2
    assert "give --model" in capsys.readouterr().err


REFERENCE_LEDS = 'driver = "auto"\nspi_port = 1\npin = 20\n'
"""The [leds] lines of hardware/pinout.toml that pick the driver."""


@pytest.mark.parametrize(("leds", "line"), [('driver = "spi"\nspi_port = 1\npin = 20\n',
                                             "dtoverlay=spi1-1cs"),
                                            ('driver = "pwm"\npin = 18\n', "dtparam=audio=off")])
def test_led_driver_comes_from_the_pinout(pi: Path, tmp_path: Path, leds: str,
                                          line: str) -> None:
    pinout = tmp_path / "pinout.toml"
    reference = (ROOT / "hardware/pinout.toml").read_text()
    assert reference.count(REFERENCE_LEDS) == 1
    pinout.write_text(reference.replace(REFERENCE_LEDS, leds))
    assert run(pi, "--pinout", str(pinout)) == 0
    assert line in block(config(pi))


def test_unreadable_pinout(pi: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(pi, "--pinout", str(tmp_path / "none.toml")) == 2
    assert "give --leds" in capsys.readouterr().err


def test_broken_block_is_left_alone(pi: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = STOCK + install.BEGIN + "\ndtparam=spi=on\n"
    (pi / "boot/firmware/config.txt").write_text(broken)
    assert run(pi) == 2
    assert "no end marker" in capsys.readouterr().err
    assert config(pi) == broken


def test_udev_rules_installed_once(pi: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(pi) == 0
    target = pi / "etc/udev/rules.d/99-tavla-pi.rules"
    assert target.read_text() == (FIRMWARE / "99-tavla-pi.rules").read_text()
    capsys.readouterr()
    assert run(pi) == 0
    assert "already up to date" in capsys.readouterr().out


def test_udev_rules_cover_every_device() -> None:
    rules = [line for line in (FIRMWARE / "99-tavla-pi.rules").read_text().splitlines()
             if line and not line.startswith("#")]
    for device, group in [("gpiomem*", "gpio"), ("gpiochip*", "gpio"), ("spidev*", "spi"),
                          ("pio*", "gpio")]:
        [rule] = [r for r in rules if f'KERNEL=="{device}"' in r]
        assert f'GROUP="{group}"' in rule and 'MODE="0660"' in rule


def test_shell_wrapper_runs_the_installer(pi: Path) -> None:
    result = subprocess.run(["sh", str(FIRMWARE / "install.sh"), "--root", str(pi),
                             "--dry-run"], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "+dtparam=spi=on" in result.stdout
    assert config(pi) == STOCK


def test_every_fragment_enables_spi0() -> None:
    fragments = sorted((FIRMWARE / "config").glob("*.txt"))
    assert [f.stem for f in fragments] == ["pi3-pwm", "pi3-spi", "pi4-pwm", "pi4-spi",
                                           "pi5-pio", "pi5-spi"]
    for fragment in fragments:
        assert "dtparam=spi=on" in fragment.read_text().splitlines()


def test_runs_as_a_script() -> None:
    result = subprocess.run([sys.executable, str(FIRMWARE / "install.py"), "--help"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0 and "--dry-run" in result.stdout


def test_resolve_prints_what_it_would_do_and_needs_no_pi(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "--resolve", "--model", "Raspberry Pi 3 Model B Rev 1.2") == 0
    assert capsys.readouterr().out == f"pi3 spi {install.PINOUT}\n"
    assert run(tmp_path, "--resolve", "--model", "pi5") == 0
    assert capsys.readouterr().out == f"pi5 pio {install.PINOUT}\n"
    assert list(tmp_path.iterdir()) == []


def test_the_service_config_names_the_pin_map(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A board that keeps its own pin map ([board] pinout, relative to the config) keeps the
    driver of that map: the installer plans root only for what the service will read."""
    (tmp_path / "etc").mkdir()
    pinout = tmp_path / "etc" / "rev-a.toml"
    pinout.write_text((ROOT / "hardware/pinout.toml").read_text()
                      .replace(REFERENCE_LEDS, 'driver = "pwm"\npin = 18\n'))
    service = tmp_path / "etc" / "config.toml"
    service.write_text('[board]\nbackend = "pi"\npinout = "rev-a.toml"\n')
    assert run(tmp_path, "--resolve", "--model", "pi4", "--service-config", str(service)) == 0
    assert capsys.readouterr().out == f"pi4 pwm {pinout}\n"
    service.write_text('[board]\nbackend = "pi"\n')
    assert run(tmp_path, "--resolve", "--model", "pi4", "--service-config", str(service)) == 0
    assert capsys.readouterr().out == f"pi4 spi {install.PINOUT}\n"


@pytest.mark.parametrize(("text", "complaint"), [
    ("[board\n", "cannot read [board] pinout"),
    ("[board]\npinout = 7\n", "[board] pinout: expected a path, got 7"),
])
def test_a_bad_service_config_is_named(tmp_path: Path, text: str, complaint: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    service = tmp_path / "config.toml"
    service.write_text(text)
    assert run(tmp_path, "--resolve", "--model", "pi4", "--service-config", str(service)) == 2
    err = capsys.readouterr().err
    assert str(service) in err and complaint in err
