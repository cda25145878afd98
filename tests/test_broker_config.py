"""``tavla-pi broker-config``'s files, without a broker: Mosquitto's own hash format, the
ACL and listener it writes, safe modes, no password on stdout unless asked, a second run
that keeps the passwords, and bad input as one line naming the option.
(tests/test_broker_lockdown.py starts a real Mosquitto with these files.)"""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from tavla_pi.cli import main
from tavla_pi.remote.brokerconf import password_hash, password_matches, read_passwords

MOSQUITTO_PASSWD = ("$7$101$nPEVhTMytV9+BYFS$Ko45AjRJ2I9Sb03dkz9ryy6UE6VjYl7ZGzjP7bA5NyJj2IBTj"
                    "lYpS7mAgpLOFb673stcFinW1ja759wmnCmSgQ==")
"""What ``mosquitto_passwd -b -c FILE alice secret`` (Mosquitto 2.0.11) wrote for alice."""


def configure(out: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run ``broker-config --out OUT ARGS``, which must succeed; its stdout."""
    status = main(["broker-config", "--out", str(out), *args])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert captured.err == ""
    return captured.out


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def password(out: Path, name: str) -> str:
    return (out / "logins" / f"{name}.password").read_text().removesuffix("\n")


def test_the_hash_is_mosquitto_passwds_own() -> None:
    assert password_matches("secret", MOSQUITTO_PASSWD)
    assert not password_matches("Secret", MOSQUITTO_PASSWD)
    assert password_hash("secret", bytes.fromhex("9cf115853332b55f7e058152")) == MOSQUITTO_PASSWD
    made = password_hash("secret")
    assert made.startswith("$7$101$") and made != password_hash("secret")  # a salt each
    assert password_matches("secret", made)


def test_a_club_gets_a_login_per_board_an_acl_and_a_listener(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "club"
    said = configure(out, capsys, "--club", "kafe", "--board", "athens", "--board", "izmir",
                     "--page", "lobby", "--port", "8883", "--tls-cert", "/etc/ssl/club.pem",
                     "--tls-key", "/etc/ssl/club.key", "--broker-dir", "/etc/mosquitto/kafe")
    hashes = read_passwords(out / "broker" / "passwords")
    assert sorted(hashes) == ["athens", "izmir", "lobby"]
    for name in hashes:
        assert password_matches(password(out, name), hashes[name])
        assert password(out, name) not in said
        assert f"{name} " in said and str(out / "logins" / f"{name}.password") in said
        assert mode(out / "logins" / f"{name}.password") == 0o600
    assert len({password(out, name) for name in hashes}) == 3
    assert mode(out / "broker" / "passwords") == mode(out / "broker" / "acl") == 0o640
    assert mode(out / "logins") == 0o700
    acl = (out / "broker" / "acl").read_text()
    assert "\nuser athens\ntopic write tavla/kafe/athens/#\ntopic read tavla/kafe/#\n" in acl
    assert "\nuser lobby\ntopic read tavla/kafe/#\n" in acl
    assert acl.count("topic write") == 2
    conf = (out / "broker" / "tavla.conf").read_text().splitlines()
    for line in ("per_listener_settings false", "allow_anonymous false",
                 "password_file /etc/mosquitto/kafe/passwords",
                 "acl_file /etc/mosquitto/kafe/acl", "listener 8883",
                 "use_username_as_clientid true", "certfile /etc/ssl/club.pem",
                 "keyfile /etc/ssl/club.key"):
        assert line in conf


def test_passwords_show_only_when_asked(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    said = configure(tmp_path, capsys, "--board", "athens", "--show-passwords")
    assert password(tmp_path, "athens") in said
    acl = (tmp_path / "broker" / "acl").read_text()
    assert "topic write tavla/home/athens/#" in acl  # a family's boards: club home


def test_a_second_run_adds_logins_and_keeps_the_others_and_the_listener(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(tmp_path, capsys, "--club", "kafe", "--board", "athens", "--port", "1884")
    conf = tmp_path / "broker" / "tavla.conf"
    before = read_passwords(tmp_path / "broker" / "passwords")
    said = configure(tmp_path, capsys, "--board", "izmir", "--page", "lobby")
    after = read_passwords(tmp_path / "broker" / "passwords")
    assert after["athens"] == before["athens"] and sorted(after) == ["athens", "izmir", "lobby"]
    assert "athens" not in said and "'kafe'" in said  # the folder's club
    assert "listener 1884\n" in conf.read_text()
    configure(tmp_path, capsys, "--port", "1885")
    assert "listener 1885\n" in conf.read_text()
    assert read_passwords(tmp_path / "broker" / "passwords") == after


def test_removing_a_login_and_adding_it_again_gives_a_new_password(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(tmp_path, capsys, "--board", "athens", "--board", "izmir", "--page", "lobby")
    old = password(tmp_path, "athens")
    said = configure(tmp_path, capsys, "--remove", "athens", "--board", "athens",
                     "--remove", "lobby")
    hashes = read_passwords(tmp_path / "broker" / "passwords")
    assert sorted(hashes) == ["athens", "izmir"] and "lobby: removed" in said
    assert not password_matches(old, hashes["athens"])
    assert password_matches(password(tmp_path, "athens"), hashes["athens"])
    assert not (tmp_path / "logins" / "lobby.password").exists()
    assert "user lobby" not in (tmp_path / "broker" / "acl").read_text()


@pytest.mark.parametrize(("args", "expected"), [
    (["--board", "Athens"], "--board: 'Athens' is not a name of 1 to 32 lowercase letters"),
    (["--page", "the lobby"], "--page: 'the lobby' is not a name"),
    (["--club", "a/b", "--board", "x"], "--club: 'a/b' is not a name"),
    (["--board", "x", "--board", "x"], "--board x: given twice (--board x)"),
    (["--board", "x", "--page", "x"], "--page x: given twice (--board x)"),
    (["--remove", "x"], "--remove: 'x': no such login in the folder"),
    ([], "--board: no login: name at least one board (--board NAME)"),
    (["--board", "x", "--tls-cert", "/c.pem"], "--tls-key: TLS needs both"),
    (["--board", "x", "--tls-cert", "c.pem", "--tls-key", "/k"],
     "--tls-cert: 'c.pem' is not an absolute path without spaces"),
    (["--board", "x", "--broker-dir", "/etc/my dir"], "--broker-dir: '/etc/my dir' is not"),
    (["--board", "x", "--port", "0"], "--port: 0 is not 1..65535"),
    (["--board", "x", "--bind", "example.org"], "--bind: 'example.org' is not an IP address"),
])
def test_bad_input_is_one_line_naming_the_option_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
        expected: str) -> None:
    status = main(["broker-config", "--out", str(tmp_path / "out"), *args])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith(f"tavla-pi: {expected}") and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_a_second_run_refuses_what_the_folder_does_not_allow(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(tmp_path, capsys, "--club", "kafe", "--board", "athens")
    cases = [(["--club", "other", "--board", "x"], "--club: the folder holds the logins of "
                                                   "the club 'kafe', not 'other'"),
             (["--page", "athens"], "--page athens: in the folder already (--remove it too")]
    for args, expected in cases:
        assert main(["broker-config", "--out", str(tmp_path), *args]) == 2
        assert capsys.readouterr().err.startswith(f"tavla-pi: {expected}")
    passwords = tmp_path / "broker" / "passwords"
    passwords.write_text(passwords.read_text() + f"ghost:{password_hash('x')}\n")
    assert main(["broker-config", "--out", str(tmp_path), "--board", "x"]) == 2
    assert capsys.readouterr().err.startswith(f"tavla-pi: {passwords}: ghost: a login ")
    acl = tmp_path / "broker" / "acl"
    acl.write_text(acl.read_text() + "topic readwrite tavla/#\n")
    assert main(["broker-config", "--out", str(tmp_path), "--board", "x"]) == 2
    assert capsys.readouterr().err.startswith(
        f"tavla-pi: {acl}:7: not a line broker-config writes")


def test_a_folder_that_cannot_be_written_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "broker").write_text("a file where the folder goes")
    assert main(["broker-config", "--out", str(tmp_path), "--board", "x"]) == 2
    assert capsys.readouterr().err == f"tavla-pi: {tmp_path / 'broker'}: cannot write " \
                                      "(File exists)\n"
