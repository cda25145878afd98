"""No lockout: ``/api/state`` answers while event streams churn and slow clients dribble.

Starts ``tavla-pi run --backend sim`` on a free loopback port and, for
``--seconds`` (default 60), runs in a second process 200 event-stream clients
that connect, read a little and hang up, over and over, and 50 slow clients
that send a request head one byte every 100 ms and never finish it; this
process meanwhile asks for ``GET /api/state`` every 20 ms, each time on a new
connection, and times each answer in full.  Aim: p99 under 200 ms, no request
failed, the daemon still running.  Everything is on 127.0.0.1 and every loop
ends at the deadline.  Run: ``python bench/http_load.py [--seconds 60]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
STREAMS = 200
SLOW = 50
PROBE_EVERY_S = 0.02
PAGE_RETRY_S = (0.25, 2.0)
"""The page's wait before it reconnects its event stream: first, and at most."""
AIM_P99_MS = 200.0
TIMEOUT_S = 5.0
STATE = f"GET /api/state HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode()
EVENTS = f"GET /api/events?leds=1 HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
"""What the page asks for: the events and the LED frames."""
SLOW_HEAD = f"GET /api/state HTTP/1.1\r\nHost: {HOST}\r\nX-Dribble: ".encode() + b"x" * 4000


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def start_daemon(folder: Path, port: int) -> subprocess.Popen[bytes]:
    """The daemon on the simulated board, answering on ``port`` (waited for, 30 s at most)."""
    (folder / "config.toml").write_text("")
    proc = subprocess.Popen(
        [sys.executable, "-m", "tavla_pi", "run", "--backend", "sim", "--config",
         str(folder / "config.toml"), "--state-dir", str(folder / "state"),
         "--http", f"{HOST}:{port}"],
        env={**os.environ, "NOTIFY_SOCKET": ""}, stdout=subprocess.DEVNULL,
        stderr=(folder / "daemon.log").open("wb"))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the daemon exited: {(folder / 'daemon.log').read_text()}")
        with contextlib.suppress(OSError):
            socket.create_connection((HOST, port), timeout=1).close()
            return proc
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("the daemon did not answer within 30 s")


# -- the load, in its own process -------------------------------------------------------

async def stream_client(port: int, deadline: float, tally: Counter[str]) -> None:
    """Follow the event stream for a moment, hang up, come back, as the page does when
    it is reloaded (and as it retries: after 250 ms, doubling to 2 s while refused)."""
    rng = random.Random()
    loop = asyncio.get_running_loop()
    backoff = PAGE_RETRY_S[0]
    while loop.time() < deadline:
        served = await follow_once(port, rng.uniform(0.2, 2.0), tally)
        backoff = PAGE_RETRY_S[0] if served else min(2 * backoff, PAGE_RETRY_S[1])
        await asyncio.sleep(backoff)


async def follow_once(port: int, hold_s: float, tally: Counter[str]) -> bool:
    """One visit of the event stream; True if it was served."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port),
                                                TIMEOUT_S)
    except (OSError, TimeoutError):
        tally["stream connect failed"] += 1
        return False
    try:
        writer.write(EVENTS)
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT_S)
        status = head.split(b" ", 2)[1].decode()
        tally[f"stream {status}"] += 1
        if status != "200":
            return False
        loop = asyncio.get_running_loop()
        end = loop.time() + hold_s
        with contextlib.suppress(TimeoutError):
            while await asyncio.wait_for(reader.read(65536), max(0.0, end - loop.time())):
                pass  # the events, the heartbeats (and LED frames): read and dropped
        return True
    except (OSError, TimeoutError, asyncio.IncompleteReadError, IndexError) as exc:
        tally[f"stream {type(exc).__name__}"] += 1
        return False
    finally:
        writer.close()


async def slow_client(port: int, deadline: float, tally: Counter[str],
                      cut_after: list[float]) -> None:
    """Dribble a request head a byte at a time until the server cuts the connection."""
    loop = asyncio.get_running_loop()
    while loop.time() < deadline:
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port),
                                                    TIMEOUT_S)
        except (OSError, TimeoutError):
            tally["slow connect failed"] += 1
            await asyncio.sleep(0.05)
            continue
        began = loop.time()
        try:
            for byte in SLOW_HEAD:
                if loop.time() >= deadline or reader.at_eof():
                    break
                writer.write(bytes([byte]))
                await writer.drain()
                with contextlib.suppress(TimeoutError):
                    if await asyncio.wait_for(reader.read(4096), 0.1) == b"":
                        break
        except OSError:
            pass
        finally:
            writer.close()
        if loop.time() < deadline:
            tally["slow cut"] += 1
            cut_after.append(loop.time() - began)


async def load(port: int, seconds: float, streams: int, slow: int) -> dict[str, Any]:
    """Every stream and slow client until ``seconds`` have passed; what they saw."""
    tally: Counter[str] = Counter()
    cut_after: list[float] = []
    deadline = asyncio.get_running_loop().time() + seconds
    await asyncio.gather(*[stream_client(port, deadline, tally) for _ in range(streams)],
                         *[slow_client(port, deadline, tally, cut_after) for _ in range(slow)])
    return {"tally": dict(tally), "cut_after": cut_after, "load_cpu": time.process_time()}


def load_process(port: int, seconds: float, streams: int, slow: int, out: Any) -> None:
    """The load generator's process: runs :func:`load` and sends back its result."""
    out.send(asyncio.run(load(port, seconds, streams, slow)))
    out.close()


# -- the measurement, in this process -----------------------------------------------------

def probe(port: int) -> tuple[float, str]:
    """One ``GET /api/state`` on a new connection: milliseconds to the whole answer, status."""
    began = time.perf_counter()
    try:
        with socket.create_connection((HOST, port), timeout=TIMEOUT_S) as sock:
            sock.sendall(STATE)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        status = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/1.1 ") else "empty"
    except OSError as exc:
        status = type(exc).__name__
    return (time.perf_counter() - began) * 1000, status


def measure(port: int, seconds: float) -> tuple[list[float], Counter[str]]:
    """Probe every :data:`PROBE_EVERY_S` until ``seconds`` have passed."""
    latencies: list[float] = []
    statuses: Counter[str] = Counter()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ms, status = probe(port)
        latencies.append(ms)
        statuses[status] += 1
        time.sleep(max(0.0, PROBE_EVERY_S - ms / 1000))
    return latencies, statuses


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def report(latencies: list[float], statuses: Counter[str], load_result: dict[str, Any],
           seconds: float, *, alive: bool) -> bool:
    """Print the figures; True when the aims are met."""
    p99 = percentile(latencies, 0.99)
    failed = sum(n for status, n in statuses.items() if status != "200")
    tally, cuts = load_result["tally"], load_result["cut_after"]
    print(f"/api/state: {len(latencies)} requests in {seconds:.0f} s: "
          f"p50 {percentile(latencies, 0.5):.1f} ms, p99 {p99:.1f} ms, "
          f"max {max(latencies):.1f} ms; {failed} not 200 {dict(statuses)}")
    print("event streams: " + ", ".join(f"{k}: {v}" for k, v in sorted(tally.items())
                                        if k.startswith("stream")))
    median_cut = statistics.median(cuts) if cuts else 0.0
    print(f"slow clients: {len(cuts)} cut by the server, a median {median_cut:.2f} s after "
          f"connecting; {tally.get('slow connect failed', 0)} could not connect")
    cpu = load_result.get("daemon_cpu", 0.0) / seconds
    print(f"daemon: {'still running' if alive else 'DIED'}, {cpu:.0%} of a core meanwhile "
          f"(the clients: {load_result.get('load_cpu', 0.0) / seconds:.0%})")
    ok = p99 < AIM_P99_MS and failed == 0 and alive
    print(f"{'PASS' if ok else 'FAIL'}: p99 {p99:.1f} ms (aim < {AIM_P99_MS:.0f} ms), "
          f"{failed} failed (aim 0)")
    return ok


def main(argv: list[str] | None = None) -> int:
    """Run the load test; exit status 0 when the aims are met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long (default 60)")
    parser.add_argument("--streams", type=int, default=STREAMS, help="event-stream clients")
    parser.add_argument("--slow", type=int, default=SLOW, help="slow clients")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        daemon = start_daemon(Path(folder), port)
        try:
            receive, send = multiprocessing.Pipe(duplex=False)
            loader = multiprocessing.Process(
                target=load_process, args=(port, args.seconds, args.streams, args.slow, send))
            loader.start()
            cpu0 = cpu_seconds(daemon.pid)
            time.sleep(min(1.0, args.seconds / 4))  # the clients get going first
            latencies, statuses = measure(port, args.seconds - min(1.0, args.seconds / 4))
            cpu = cpu_seconds(daemon.pid) - cpu0
            result = receive.recv() if receive.poll(args.seconds + 30) else {
                "tally": {"load process": "no result"}, "cut_after": []}
            loader.join(10)
            result["daemon_cpu"] = cpu
            alive = daemon.poll() is None
        finally:
            daemon.send_signal(signal.SIGTERM)
            try:
                daemon.wait(10)
            except subprocess.TimeoutExpired:
                daemon.kill()
    return 0 if report(latencies, statuses, result, args.seconds, alive=alive) else 1


if __name__ == "__main__":
    sys.exit(main())
