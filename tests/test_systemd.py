"""The service files: systemd accepts the unit, the user is created as promised, the installer's
dry run shows every step and changes nothing."""

from __future__ import annotations

import configparser
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from programs import needs

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "tavla-pi.service"
DROP_IN = ROOT / "systemd" / "pwm-root.conf"
SYSUSERS = ROOT / "systemd" / "tavla-pi.sysusers.conf"
INSTALL = ROOT / "systemd" / "install.sh"
TAVLA = Path(sys.executable).with_name("tavla-pi")

needs_analyze = needs("systemd-analyze")


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(UNIT)
    return parser


def verify(tmp_path: Path, text: str,
           drop_in: str | None = None) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` on ``text``, its ExecStart pointed at this venv's tavla-pi
    (verify insists the program exists; /opt/tavla-pi is where `make install` puts it)."""
    path = tmp_path / "tavla-pi.service"
    path.write_text(text.replace("/opt/tavla-pi/bin/tavla-pi", str(TAVLA)))
    if drop_in is not None:
        (tmp_path / "tavla-pi.service.d").mkdir(exist_ok=True)
        (tmp_path / "tavla-pi.service.d" / "pwm-root.conf").write_text(drop_in)
    return subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True,
                          text=True, timeout=60, check=False,
                          env={**os.environ, "SYSTEMD_LOG_COLOR": "0"})


@needs_analyze
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    assert TAVLA.exists()
    done = verify(tmp_path, UNIT.read_text())
    assert (done.returncode, done.stderr) == (0, "")


@needs_analyze
def test_systemd_accepts_the_unit_with_the_pwm_drop_in(tmp_path: Path) -> None:
    done = verify(tmp_path, UNIT.read_text(), DROP_IN.read_text())
    assert (done.returncode, done.stderr) == (0, "")


@needs_analyze
@pytest.mark.parametrize(("change", "complaint"), [
    (("Type=notify", "Type=notifyy"), "Failed to parse service type"),
    (("NoNewPrivileges=yes", "NoNewPrivilegs=yes"), "Unknown key"),
])
def test_the_check_catches_a_broken_unit(tmp_path: Path, change: tuple[str, str],
                                         complaint: str) -> None:
    done = verify(tmp_path, UNIT.read_text().replace(*change))
    assert complaint in done.stderr


def test_the_unit_promises() -> None:
    service = unit()["Service"]
    assert service["Type"] == "notify"
    assert service["NotifyAccess"] == "main"
    assert service["WatchdogSec"] == "10s"
    assert service["Restart"] == "on-failure"
    assert service["ExecStart"] == "/opt/tavla-pi/bin/tavla-pi run"
    assert service["StateDirectory"] == service["ConfigurationDirectory"] == "tavla-pi"
    assert service["User"] == "tavla-pi"
    assert service["SupplementaryGroups"].split() == ["gpio", "spi", "audio"]
    assert int(service["TimeoutStopSec"].rstrip("s")) <= 5
    # lgpio (Pi 5) writes its FIFOs into the working directory: one it may write
    assert (service["RuntimeDirectory"], service["WorkingDirectory"]) == ("tavla-pi",
                                                                          "/run/tavla-pi")
    assert (service["NoNewPrivileges"], service["ProtectSystem"]) == ("yes", "strict")
    assert service["CapabilityBoundingSet"] == ""
    for cut, why in [("PrivateDevices", "its private /dev holds none of the board's devices"),
                     ("ProcSubset", "gpiozero and Blinka read the model under /proc"),
                     ("PrivateUsers", "the gpio, spi and audio groups would not map")]:
        assert cut not in service, f"{cut}: {why}"
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


def settings_of(path: Path, section: str = "Service") -> list[tuple[str, str]]:
    """Every ``Key=Value`` of a unit file's section in order, repeated keys kept."""
    pairs: list[tuple[str, str]] = []
    current = ""
    for line in path.read_text().splitlines():
        if line.startswith("["):
            current = line.strip("[]")
        elif current == section and "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            pairs.append((key, value))
    return pairs


def test_the_unit_opens_only_the_devices_of_the_pin_map() -> None:
    """SPI (the ADCs, the SPI1 LEDs), GPIO (RPi.GPIO's gpiomem, lgpio's gpiochip), the
    Pi 5's PIO and the sound devices; the drivers behind each group load first, as
    systemd resolves the groups when the service starts."""
    service = settings_of(UNIT)
    assert ("DevicePolicy", "closed") in service
    assert [v for k, v in service if k == "DeviceAllow"] == [
        "char-spi rw", "char-*gpiomem* rw", "char-gpiochip rw", "char-rp1-pio rw",
        "char-alsa rw"]
    assert ("ProtectClock", "yes") in service and ("ProtectProc", "invisible") in service
    wants = [v for k, v in settings_of(UNIT, "Unit") if k == "Wants"]
    after = [v for k, v in settings_of(UNIT, "Unit") if k == "After"]
    modules = {w.removeprefix("modprobe@").removesuffix(".service")
               for line in wants for w in line.split()}
    assert modules == {"spidev", "rpi_gpiomem", "bcm2835_gpiomem", "rp1_pio", "snd"}
    assert {w for line in wants for w in line.split()} <= {a for line in after
                                                            for a in line.split()}


def test_the_sandbox_leaves_gnubg_what_it_needs() -> None:
    """gnubg runs as the daemon's child: its preferences go into the state directory
    (``gnubg -s``, the only place the sandbox lets it write), niced (setpriority must
    stay allowed), with no home."""
    service = unit()["Service"]
    assert (service["ProtectHome"], service["ProtectSystem"]) == ("yes", "strict")
    assert service["SystemCallFilter"] == "@system-service"  # holds @resources: setpriority
    assert "ReadWritePaths" not in service  # the state directory is all it may write
    for limit in ("Nice", "CPUSchedulingPolicy", "MemoryMax", "TasksMax"):
        assert limit not in service, f"{limit} would apply to the scan loop too"
    assert "gnubg -s /var/lib/tavla-pi/gnubg" in UNIT.read_text()


def test_the_drop_in_runs_the_pwm_driver_as_root() -> None:
    """rpi_ws281x maps /dev/mem (root, CAP_SYS_RAWIO) and asks the firmware for DMA
    memory through /dev/vcio: the two devices the drop-in adds to the unit's list."""
    assert settings_of(DROP_IN) == [("User", "root"), ("Group", "root"),
                                    ("SupplementaryGroups", ""),
                                    ("CapabilityBoundingSet", "CAP_SYS_RAWIO"),
                                    ("DeviceAllow", "/dev/mem rw"),
                                    ("DeviceAllow", "/dev/vcio rw")]


@needs("systemd-sysusers")
def test_sysusers_makes_the_user_in_the_gpio_spi_and_audio_groups(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    subprocess.run(["systemd-sysusers", f"--root={tmp_path}", str(SYSUSERS)],
                   capture_output=True, check=True, timeout=60)
    users = {line.split(":")[0]: line.split(":") for line in
             (tmp_path / "etc" / "passwd").read_text().splitlines()}
    assert users["tavla-pi"][5:] == ["/var/lib/tavla-pi", "/usr/sbin/nologin"]
    groups = {line.split(":")[0]: line.split(":")[3] for line in
              (tmp_path / "etc" / "group").read_text().splitlines()}
    assert groups["gpio"] == groups["spi"] == groups["audio"] == "tavla-pi"


def dry_run(*command: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PREFIX": "/nonexistent/tavla-pi-prefix"}
    return subprocess.run(list(command), capture_output=True, text=True, timeout=120,
                          check=False, cwd=ROOT, env=env)


def test_the_install_dry_run_shows_every_step_and_changes_nothing() -> None:
    done = dry_run("sh", str(INSTALL), "--dry-run")
    assert done.returncode == 0, done.stderr
    steps = [line[2:] for line in done.stdout.splitlines() if line.startswith("+ ")]
    text = "\n".join(steps)
    assert "-m venv /nonexistent/tavla-pi-prefix" in text
    assert "apt-get install -y --no-install-recommends gnubg" in text
    assert "apt-get install -y --no-install-recommends espeak-ng alsa-utils" in text
    assert f"/nonexistent/tavla-pi-prefix/bin/pip install --quiet {ROOT}[pi" in text
    assert "/usr/lib/sysusers.d/tavla-pi.conf" in text and "systemd-sysusers" in text
    assert "/etc/systemd/system/tavla-pi.service" in text
    assert f"cp -R {ROOT}/docs /nonexistent/tavla-pi-prefix/" in text  # the README's links
    assert "firmware/install.py" in text
    assert "udevadm control --reload" in text
    assert "systemctl enable tavla-pi.service" in text
    assert "config.example.toml /etc/tavla-pi/config.toml" in text or \
        "keeping /etc/tavla-pi/config.toml" in done.stdout
    assert not Path("/nonexistent/tavla-pi-prefix").exists()


def test_make_install_dry_run() -> None:
    done = dry_run("make", "--no-print-directory", "install", "DRY_RUN=1")
    assert done.returncode == 0, done.stderr
    assert "+ systemctl restart tavla-pi.service" in done.stdout
    assert not Path("/nonexistent/tavla-pi-prefix").exists()


REFERENCE_PIS = [("Raspberry Pi Zero 2 W Rev 1.0", "pi3", "spi"),
                 ("Raspberry Pi 3 Model B Plus Rev 1.3", "pi3", "spi"),
                 ("Raspberry Pi 4 Model B Rev 1.5", "pi4", "spi"),
                 ("Raspberry Pi 400 Rev 1.0", "pi4", "spi"),
                 ("Raspberry Pi 5 Model B Rev 1.0", "pi5", "pio")]
"""Each reference model as /proc/device-tree/model names it, its family, its LED driver."""
DROP_IN_PATH = "/etc/systemd/system/tavla-pi.service.d/pwm-root.conf"
PWM_LEDS = ('driver = "auto"\nspi_port = 1\npin = 20\n', 'driver = "pwm"\npin = 18\n')
"""The reference pin map's [leds] lines, and the PWM opt-in of hardware/README.md."""


def make_install_plan(*settings: str) -> subprocess.CompletedProcess[str]:
    """``make install DRY_RUN=1`` with these make variables (``PI_MODEL=...``)."""
    return dry_run("make", "--no-print-directory", "install", "DRY_RUN=1", *settings)


def installed(plan: subprocess.CompletedProcess[str]) -> dict[str, str]:
    """What the plan installs with ``install -D``: the target and where it comes from."""
    steps = [line.split() for line in plan.stdout.splitlines()
             if line.startswith("+ install -D -m 0644 ")]
    return {step[-1]: step[-2] for step in steps}


def pwm_pinout(tmp_path: Path) -> Path:
    """The reference pin map with the LEDs on PWM, GPIO 18: the opt-in that needs root."""
    path = tmp_path / "pinout.toml"
    reference = (ROOT / "hardware" / "pinout.toml").read_text()
    assert reference.count(PWM_LEDS[0]) == 1
    path.write_text(reference.replace(*PWM_LEDS))
    return path


@pytest.mark.parametrize(("model", "family", "driver"), REFERENCE_PIS)
def test_make_install_puts_no_root_drop_in_on_any_reference_pi(
        model: str, family: str, driver: str) -> None:
    plan = make_install_plan(f"PI_MODEL={model}")
    assert plan.returncode == 0, plan.stderr
    assert f"model: {model} ({family}), LED driver: {driver}" in plan.stdout
    assert "/etc/systemd/system/tavla-pi.service" in installed(plan)
    assert DROP_IN_PATH not in installed(plan)
    assert f"+ rm -f {DROP_IN_PATH}" in plan.stdout, "a drop-in from before is taken away"
    assert "as root" not in plan.stdout
    pinout = ROOT / "hardware" / "pinout.toml"
    assert f"firmware/install.py --model {family} --pinout {pinout}" in plan.stdout


def test_make_install_puts_the_drop_in_for_the_pwm_opt_in(tmp_path: Path) -> None:
    pinout = pwm_pinout(tmp_path)
    plan = make_install_plan("PI_MODEL=Raspberry Pi 4 Model B Rev 1.5", f"PINOUT={pinout}")
    assert plan.returncode == 0, plan.stderr
    assert "LED driver: pwm" in plan.stdout and "as root (pwm-root.conf)" in plan.stdout
    assert installed(plan)[DROP_IN_PATH] == str(DROP_IN)
    assert f"firmware/install.py --model pi4 --pinout {pinout}" in plan.stdout


@pytest.mark.parametrize(("model", "complaint"), [
    ("Raspberry Pi 5 Model B Rev 1.0", "LED driver 'pwm' does not work on pi5"),
    ("Raspberry Pi 2 Model B Rev 1.1", "unsupported model"),
])
def test_make_install_refuses_what_cannot_work_before_any_step(
        tmp_path: Path, model: str, complaint: str) -> None:
    plan = make_install_plan(f"PI_MODEL={model}", f"PINOUT={pwm_pinout(tmp_path)}")
    assert plan.returncode == 2
    assert complaint in plan.stderr
    assert not [line for line in plan.stdout.splitlines() if line.startswith("+ ")]


def test_install_refuses_a_desktop_and_bad_usage() -> None:
    if Path("/proc/device-tree/model").exists():
        pytest.skip("this is a Raspberry Pi")
    done = dry_run("sh", str(INSTALL))
    assert done.returncode == 2
    assert "this is not a Raspberry Pi" in done.stderr and "make sim" in done.stderr
    assert dry_run("sh", str(INSTALL), "--bogus").returncode == 2


MAX_EXPOSURE = 2.5
"""The most ``systemd-analyze security`` may score the installed unit (0 tight, 10 open)."""


def exposure(tmp_path: Path, plan: subprocess.CompletedProcess[str]) -> float:
    """``systemd-analyze security`` of the unit with the drop-ins the plan installs."""
    unit_dir = "/etc/systemd/system/"
    path = tmp_path / "tavla-pi.service"
    path.write_text(UNIT.read_text())  # the plan's copy differs in ExecStart's prefix only
    for target, source in installed(plan).items():
        if target.startswith(unit_dir + "tavla-pi.service.d/"):
            drop_in = tmp_path / target.removeprefix(unit_dir)
            drop_in.parent.mkdir(exist_ok=True)
            drop_in.write_text(Path(source).read_text())
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", str(path)],
                          capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "SYSTEMD_LOG_COLOR": "0"})
    assert done.returncode == 0, done.stderr
    [score] = re.findall(r"Overall exposure level for tavla-pi.service: (\d+\.\d+)",
                         done.stdout)
    return float(score)


@needs_analyze
@pytest.mark.parametrize(("model", "family", "driver"), REFERENCE_PIS)
def test_the_unit_make_install_leaves_scores_at_most_2_5(
        tmp_path: Path, model: str, family: str, driver: str) -> None:
    plan = make_install_plan(f"PI_MODEL={model}")
    assert f"({family}), LED driver: {driver}" in plan.stdout
    assert exposure(tmp_path, plan) <= MAX_EXPOSURE


@needs_analyze
def test_the_pwm_opt_in_scores_worse_but_at_most_2_5(tmp_path: Path) -> None:
    opt_in = make_install_plan("PI_MODEL=pi3", f"PINOUT={pwm_pinout(tmp_path)}")
    assert DROP_IN_PATH in installed(opt_in)
    reference = make_install_plan("PI_MODEL=pi3")
    (tmp_path / "pwm").mkdir()
    (tmp_path / "spi").mkdir()
    assert exposure(tmp_path / "spi", reference) < exposure(tmp_path / "pwm", opt_in)
    assert exposure(tmp_path / "pwm", opt_in) <= MAX_EXPOSURE
