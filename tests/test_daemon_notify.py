"""sd_notify: READY, STATUS, WATCHDOG and STOPPING reach a datagram socket as systemd reads them."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavla_pi.clock import VirtualClock
from tavla_pi.daemon.notify import Notifier


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify")
    sock.bind(path)
    sock.settimeout(1)
    yield sock, path
    sock.close()


def received(sock: socket.socket) -> list[str]:
    sock.settimeout(0.0)  # non-blocking
    out = []
    try:
        while True:
            out.append(sock.recv(4096).decode())
    except BlockingIOError:
        return out
    finally:
        sock.settimeout(None)  # blocking


def test_messages_reach_the_socket(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    notifier = Notifier(path)
    assert notifier.enabled
    notifier.ready("listening")
    notifier.status("white to roll")
    notifier.stopping()
    assert received(sock) == [f"READY=1\nSTATUS=listening\nMAINPID={os.getpid()}",
                              "STATUS=white to roll", "STOPPING=1\nSTATUS=stopping"]
    notifier.close()
    notifier.close()
    notifier.status("after close")
    assert received(sock) == []


def test_watchdog_every_half_interval(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    clock = VirtualClock()
    notifier = Notifier(path, watchdog_usec=10_000_000, clock=clock)
    sent = []
    for _ in range(1000):  # 20 s of scans at 50 Hz
        notifier.watchdog()
        sent += received(sock)
        clock.advance(20)
    assert sent == ["WATCHDOG=1"] * 4  # at 0, 5, 10 and 15 s: twice per interval


def test_abstract_socket_names(tmp_path: Path) -> None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = f"tavla-test-{os.getpid()}"
    sock.bind("\0" + name)
    try:
        Notifier("@" + name).status("abstract")
        assert sock.recv(100) == b"STATUS=abstract"
    finally:
        sock.close()


def test_no_socket_means_no_messages_and_no_errors(tmp_path: Path) -> None:
    silent = Notifier(None)
    assert not silent.enabled
    silent.ready("x")
    silent.watchdog()
    gone = Notifier(str(tmp_path / "nobody-listens"))
    gone.ready("systemd went away")  # errors are swallowed


def test_environment(monkeypatch: pytest.MonkeyPatch, listener: tuple[socket.socket, str]) -> None:
    _, path = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "4000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    notifier = Notifier.from_environment()
    assert notifier.enabled and notifier.watchdog_ms == 4000
    monkeypatch.setenv("WATCHDOG_PID", "1")  # meant for another process
    assert Notifier.from_environment().watchdog_ms == 0
    monkeypatch.delenv("NOTIFY_SOCKET")
    assert not Notifier.from_environment().enabled


def test_a_full_socket_never_blocks(listener: tuple[socket.socket, str]) -> None:
    _, path = listener
    notifier = Notifier(path)
    for _ in range(10_000):  # nobody reads: the socket's buffer fills, messages are dropped
        notifier.status("x" * 200)
