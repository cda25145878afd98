"""Batched MCP3208 reads through SPI_IOC_MESSAGE, against the kernel's side modelled on MockFactory.

The seam is ``SpidevAccess.message(fd, transfers)``: the ioctl itself.  The
tests hand in ``SpidevModel.message``, which reads the transfer array as the
kernel lays it out and clocks every byte through the same MCP3208 models
that answer gpiozero's per-call SPI.
"""

from __future__ import annotations

import ctypes
import errno
import logging
import os
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from tavla_pi.cli.diag import DiagSession
from tavla_pi.decode import Calibration, Decoder
from tavla_pi.errors import HardwareError, TavlaError
from tavla_pi.hal.pi import open_pi_backend
from tavla_pi.hal.pi.adcs import mcp3208_command
from tavla_pi.hal.pi.sensors import PiSensorGrid, PowerPolicy
from tavla_pi.hal.pi.spidev import (
    MAX_TRANSFERS,
    Spidev,
    SpidevAccess,
    SpiIocTransfer,
    message_sizes,
    spi_ioc_message,
)
from tavla_pi.hardware.pinmap import PinMap, SensorSite
from tavla_pi.rules.color import Color
from tavla_pi.testing.hal_models import (
    TRANSFER_LAYOUT,
    HallField,
    ModelledBoard,
    RecordingWriter,
    SpidevModel,
    board_sites,
    reference_pinmap,
)


class Rig:
    """A modelled board, its spidev nodes in ``dev_dir``, and grids opened on them."""

    def __init__(self, pinmap: PinMap, dev_dir: Path, *, bufsiz: int = 4096,
                 **faults: object) -> None:
        self.pinmap = pinmap
        self.factory = MockFactory()
        self.field = HallField(board_sites())
        self.board = ModelledBoard(pinmap, self.factory, self.field, **faults)  # type: ignore[arg-type]
        self.kernel = SpidevModel(pinmap, self.factory, dev_dir, bufsiz=bufsiz)

    def grid(self, spi: SpidevAccess | None = None, *,
             power: PowerPolicy = PowerPolicy.ALWAYS_ON) -> PiSensorGrid:
        return PiSensorGrid(self.pinmap, pin_factory=self.factory, power=power,
                            delay=lambda us: None, spi=spi)

    def batched(self, power: PowerPolicy = PowerPolicy.ALWAYS_ON) -> PiSensorGrid:
        return self.grid(self.kernel.access(), power=power)

    def lay_some_checkers(self) -> None:
        for site, color in [(SensorSite("24", 0), Color.WHITE), (SensorSite("1", 0), Color.BLACK),
                            (SensorSite("13", 5), Color.BLACK), (SensorSite("7", 2), Color.WHITE),
                            (SensorSite("bar", 0, Color.WHITE), Color.WHITE),
                            (SensorSite("bar", 3, Color.BLACK), Color.BLACK)]:
            self.field.lay(site, color)


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(reference_pinmap(), tmp_path)
    yield r
    r.board.close()


# --- the kernel's layout ----------------------------------------------------------------------

def test_the_transfer_struct_packs_as_linux_spidev_h_lays_it_out() -> None:
    assert ctypes.sizeof(SpiIocTransfer) == 32 == TRANSFER_LAYOUT.size
    offsets = {name: getattr(SpiIocTransfer, name).offset for name, *_ in SpiIocTransfer._fields_}
    assert offsets == {"tx_buf": 0, "rx_buf": 8, "len": 16, "speed_hz": 20, "delay_usecs": 24,
                       "bits_per_word": 26, "cs_change": 27, "tx_nbits": 28, "rx_nbits": 29,
                       "word_delay_usecs": 30, "pad": 31}
    values = (0x1122334455667788, 0x99AABBCCDDEEFF00, 3, 1_000_000, 7, 8, 1, 1, 1, 2, 0)
    transfer = SpiIocTransfer(*values)
    assert bytes(transfer) == struct.pack("=QQIIHBBBBBB", *values)


def test_the_ioctl_number_encodes_the_array_size() -> None:
    assert spi_ioc_message(1) == 0x40206B00  # _IOW('k', 0, char[32])
    assert spi_ioc_message(8) == 0x41006B00
    assert spi_ioc_message(MAX_TRANSFERS) >> 16 & 0x3FFF == 511 * 32
    for bad in (0, MAX_TRANSFERS + 1):
        with pytest.raises(ValueError, match=r"1\.\.511 transfers"):
            spi_ioc_message(bad)


def test_messages_are_split_under_spidevs_bufsiz() -> None:
    assert message_sizes([3] * 8, 4096) == [8]
    assert message_sizes([3] * 40, 4096) == [32, 8]  # each 3-byte transfer takes 128 bytes
    assert message_sizes([3] * 5, 256) == [2, 2, 1]
    assert message_sizes([3] * 600, 1 << 20) == [511, 89]
    with pytest.raises(ValueError, match="does not fit"):
        message_sizes([300], 256)


def test_the_command_bytes_are_gpiozeros() -> None:
    # gpiozero sends (0b11000 | channel) << 14 as three bytes for a single-ended read
    for channel in range(8):
        assert mcp3208_command(channel) == ((0b11000 | channel) << 14).to_bytes(3, "big")


# --- the kernel model is faithful -------------------------------------------------------------

def _message(rig: Rig, channels: list[int], cs_change: list[int]) -> tuple[bytes, int]:
    """Run one hand-built message on adc0 through the model; the answer and the byte count."""
    size = 3 * len(channels)
    tx = ctypes.create_string_buffer(b"".join(mcp3208_command(c) for c in channels), size)
    rx = ctypes.create_string_buffer(size)
    transfers = (SpiIocTransfer * len(channels))()
    for k, t in enumerate(transfers):
        t.tx_buf, t.rx_buf = ctypes.addressof(tx) + 3 * k, ctypes.addressof(rx) + 3 * k
        t.len, t.speed_hz, t.cs_change = 3, 1_000_000, cs_change[k]
    fd = os.open(rig.kernel.dev_dir / "spidev0.0", os.O_RDWR)
    try:
        count = rig.kernel.message(fd, transfers)
    finally:
        os.close(fd)
    return rx.raw, count


def test_without_cs_change_the_chip_never_starts_a_second_conversion(rig: Rig) -> None:
    rig.field.lay(SensorSite("1", 0), Color.WHITE)  # mux0 channel 0, adc0 CH0
    good, count = _message(rig, [0, 0], [1, 0])
    assert count == 6
    assert good[1:3] == good[4:6] != b"\x00\x00"
    bad, _ = _message(rig, [0, 0], [0, 0])
    assert bad[4:6] == b"\x00\x00"  # still clocking out the first answer's tail


def test_cs_change_on_the_last_transfer_leaves_the_chip_selected(rig: Rig) -> None:
    ce0 = rig.factory.pin(8)
    _message(rig, [0], [1])
    assert not ce0.state  # active low: still selected
    _message(rig, [0], [0])  # no new falling edge: this conversion never starts
    assert ce0.state


# --- the batched scan -------------------------------------------------------------------------

@pytest.mark.parametrize("shuffle_seed", [None, 11, 2024])
def test_the_batched_scan_reads_the_frame_the_per_call_scan_reads(
        tmp_path: Path, shuffle_seed: int | None) -> None:
    r = Rig(reference_pinmap(shuffle_seed=shuffle_seed), tmp_path)
    r.lay_some_checkers()
    with r.grid() as per_call:
        expected = per_call.scan()
    assert r.kernel.messages == []
    assert expected == r.board.expected_frame()
    with r.batched() as grid:
        assert grid.scan() == expected
        assert grid.scan() == expected
    assert r.board.conversions() == 3 * 152
    assert r.kernel.speeds == {1_000_000}
    r.board.close()


def test_a_reference_scan_is_32_ioctls_one_per_select_setting_and_chip(rig: Rig) -> None:
    with rig.batched() as grid:
        grid.scan()
        assert grid.spi_path.startswith("SPI batched: 32 SPI_IOC_MESSAGE ioctls a scan on ")
    names = [name for name, _ in rig.kernel.messages]
    assert names == ["spidev0.0", "spidev0.1"] * 16
    assert [n for _, n in rig.kernel.messages] == [8, 2] * 8 + [8, 1] * 8  # mux9: 8 spares
    assert sum(n for _, n in rig.kernel.messages) == 152


def test_a_small_bufsiz_splits_each_setting_into_more_messages(tmp_path: Path) -> None:
    r = Rig(reference_pinmap(shuffle_seed=3), tmp_path, bufsiz=3 * 128)
    r.lay_some_checkers()
    with r.batched() as grid:
        assert grid.scan() == r.board.expected_frame()
    assert max(n for _, n in r.kernel.messages) == 3
    assert sum(n for _, n in r.kernel.messages) == 152
    r.board.close()


def test_per_bank_power_is_one_conversion_per_ioctl(tmp_path: Path) -> None:
    r = Rig(reference_pinmap(power_pins=True, shuffle_seed=9), tmp_path)
    r.lay_some_checkers()
    with r.batched(power=PowerPolicy.PER_BANK) as grid:
        assert grid.scan() == r.board.expected_frame()
    assert len(r.kernel.messages) == 152
    r.board.close()


# --- errors and fallback ----------------------------------------------------------------------

def test_a_short_message_is_one_error_naming_the_node(rig: Rig) -> None:
    rig.kernel.short_by = 1
    with rig.batched() as grid, pytest.raises(HardwareError) as caught:
        grid.scan()
    node = rig.kernel.dev_dir / "spidev0.0"
    assert str(caught.value) == f"short SPI message on {node}: 23 of 24 bytes"


def test_a_failing_ioctl_is_one_error_naming_the_node(rig: Rig) -> None:
    rig.kernel.fail = OSError(errno.EIO, os.strerror(errno.EIO))
    with rig.batched() as grid, pytest.raises(HardwareError) as caught:
        grid.scan()
    assert isinstance(caught.value, TavlaError) and isinstance(caught.value, OSError)
    node = rig.kernel.dev_dir / "spidev0.0"
    assert str(caught.value) == f"SPI message on {node} failed: Input/output error"


def test_a_message_over_the_kernels_bufsiz_fails_with_emsgsize(tmp_path: Path) -> None:
    r = Rig(reference_pinmap(), tmp_path, bufsiz=256)
    lying = SpidevAccess(tmp_path, r.kernel.message, bufsiz=4096)  # believes the default
    with r.grid(lying) as grid, pytest.raises(HardwareError, match="Message too long"):
        grid.scan()
    r.board.close()


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_without_spidev_nodes_the_grid_reads_per_call_and_says_so_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    r = Rig(reference_pinmap(shuffle_seed=5), tmp_path)
    r.lay_some_checkers()
    (tmp_path / "spidev0.1").unlink()  # SPI0 CE1 missing: adc0's node opens, then is closed
    before = _open_fds()
    with caplog.at_level(logging.WARNING, "tavla_pi.hal.pi"), r.batched() as grid:
        assert grid.scan() == r.board.expected_frame()
        assert grid.spi_path == "SPI per call: one gpiozero MCP3208 call per conversion"
        assert _open_fds() == before
    assert r.kernel.messages == []
    assert [rec.getMessage() for rec in caplog.records] == [
        f"batched SPI unavailable (cannot open {tmp_path / 'spidev0.1'}: No such file or "
        "directory): reading the ADCs one call per conversion through gpiozero"]
    r.board.close()


def test_close_is_safe_twice_and_closes_the_nodes(rig: Rig) -> None:
    before = _open_fds()
    grid = rig.batched()
    assert _open_fds() == before + 2
    grid.close()
    grid.close()
    assert _open_fds() == before
    assert grid.spi_path == "closed"
    with pytest.raises(HardwareError, match="closed"):
        grid.scan()


# --- the backend and diag ---------------------------------------------------------------------

def test_the_backend_reads_batched_and_diag_says_so(rig: Rig) -> None:
    rig.lay_some_checkers()
    backend = open_pi_backend(rig.pinmap, pin_factory=rig.factory, pixel_writer=RecordingWriter(),
                              delay=lambda us: None, spi=rig.kernel.access())
    with backend:
        assert backend.detail.startswith("SPI batched: 32 SPI_IOC_MESSAGE ioctls a scan")
        assert backend.sensors.scan() == rig.board.expected_frame()
        session = DiagSession(backend, rig.pinmap,
                              Decoder(Calibration.datasheet(rig.pinmap), rig.pinmap))
        first = session.step(0).splitlines()[0]
    assert first.startswith("tavla-pi diag: frame 1, backend pi (SPI batched: 32 "
                            "SPI_IOC_MESSAGE ioctls a scan on ")
    with open_pi_backend(rig.pinmap, pin_factory=rig.factory, pixel_writer=RecordingWriter(),
                         delay=lambda us: None, spi=None) as per_call:
        assert per_call.detail == "SPI per call: one gpiozero MCP3208 call per conversion"


def test_the_real_ioctl_on_a_node_that_is_no_spidev_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "spidev0.0").touch()  # a regular file: the kernel answers ENOTTY
    transfers = (SpiIocTransfer * 1)()
    with Spidev(0, 0, SpidevAccess(tmp_path)) as node, pytest.raises(HardwareError) as caught:
        node.transfer(transfers, 3)
    assert str(caught.value) == (f"SPI message on {tmp_path / 'spidev0.0'} failed: "
                                 "Inappropriate ioctl for device")
    assert node.closed and repr(node) == f"<Spidev {tmp_path / 'spidev0.0'} closed>"
