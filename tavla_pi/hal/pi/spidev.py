"""The Linux spidev interface: ``SPI_IOC_MESSAGE`` with an array of transfers, in ctypes.

One ``SPI_IOC_MESSAGE(N)`` ioctl on ``/dev/spidevB.C`` runs N transfers as one
SPI message; ``cs_change`` on a transfer deselects the chip after it and
selects it again before the next, so one ioctl carries N MCP3208
conversions.  No library is needed: ``fcntl.ioctl`` and ``ctypes``.

Kernel facts this module relies on (Linux ``include/uapi/linux/spi/spidev.h``
and ``drivers/spi/spidev.c``, ``drivers/spi/spi.c``):

- ``struct spi_ioc_transfer`` is 32 bytes, the same for 32- and 64-bit
  user space (:class:`SpiIocTransfer`).
- ``SPI_IOC_MESSAGE(N)`` is ``_IOW('k', 0, char[N * 32])``; the size field
  has 14 bits, so one ioctl carries at most 511 transfers.
- spidev copies a message through two bounce buffers of ``bufsiz`` bytes
  (module parameter, default 4096) and, since Linux 5.9 ("spi: spidev: Align
  buffers for DMA"), rounds every transfer up to ``ARCH_KMALLOC_MINALIGN``
  in each: a larger message fails with EMSGSIZE.
- ``cs_change`` on the last transfer of a message means "leave the chip
  selected" (a hint for the next message), so it is set on every transfer
  but the last.
- On success the ioctl returns the bytes transferred.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tavla_pi.errors import HardwareError


class SpiIocTransfer(ctypes.Structure):
    """``struct spi_ioc_transfer`` of ``linux/spi/spidev.h``: one transfer of a message."""

    _fields_ = [
        ("tx_buf", ctypes.c_uint64),      # user address of the bytes to send (0: zeros)
        ("rx_buf", ctypes.c_uint64),      # user address for the bytes received (0: dropped)
        ("len", ctypes.c_uint32),         # bytes, in each direction
        ("speed_hz", ctypes.c_uint32),    # 0: the device's max_speed_hz
        ("delay_usecs", ctypes.c_uint16),  # wait after the transfer, before cs_change
        ("bits_per_word", ctypes.c_uint8),  # 0: the device's (8)
        ("cs_change", ctypes.c_uint8),    # deselect the chip before the next transfer
        ("tx_nbits", ctypes.c_uint8),     # 0/1: single wire
        ("rx_nbits", ctypes.c_uint8),
        ("word_delay_usecs", ctypes.c_uint8),
        ("pad", ctypes.c_uint8),
    ]


TransferArray = ctypes.Array[SpiIocTransfer]
SpiMessage = Callable[[int, TransferArray], int]
"""The one seam to the kernel: run ``SPI_IOC_MESSAGE`` on an fd; the bytes transferred."""

IOC_WRITE = 1
"""``_IOC_WRITE`` of ``asm-generic/ioctl.h`` (ARM, arm64 and x86 use the generic layout)."""
IOC_SIZEBITS = 14
SPI_IOC_MAGIC = ord("k")
MAX_TRANSFERS = ((1 << IOC_SIZEBITS) - 1) // ctypes.sizeof(SpiIocTransfer)
"""511: the most transfers whose size fits the ioctl number's size field."""
DEFAULT_BUFSIZ = 4096
"""spidev's ``bufsiz`` module parameter unless the kernel command line changes it."""
BUFSIZ_PATH = Path("/sys/module/spidev/parameters/bufsiz")
KMALLOC_ALIGN = 128
"""The most ``ARCH_KMALLOC_MINALIGN`` can be (arm64's ``ARCH_DMA_MINALIGN``; 32-bit
ARM's is 64 or 32): spidev's room for one transfer, assumed as large as it gets."""
SPI_HZ = 1_000_000
"""The MCP3208's clock limit at 2.7 V (2 MHz at 5 V): safe on the 3.3 V sensor rail."""


def spi_ioc_message(count: int) -> int:
    """The ioctl number ``SPI_IOC_MESSAGE(count)``."""
    if not 1 <= count <= MAX_TRANSFERS:
        raise ValueError(f"one SPI message carries 1..{MAX_TRANSFERS} transfers, not {count}")
    size = count * ctypes.sizeof(SpiIocTransfer)
    return IOC_WRITE << 30 | size << 16 | SPI_IOC_MAGIC << 8


def kernel_message(fd: int, transfers: TransferArray) -> int:
    """``SPI_IOC_MESSAGE(len(transfers))`` on ``fd``, through the kernel."""
    return int(fcntl.ioctl(fd, spi_ioc_message(len(transfers)), transfers))


def read_bufsiz(path: Path = BUFSIZ_PATH) -> int:
    """spidev's ``bufsiz`` as the loaded module reports it; the default when unreadable."""
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return DEFAULT_BUFSIZ


def message_sizes(lengths: Sequence[int], bufsiz: int) -> list[int]:
    """How many transfers (of these byte lengths, in order) go in each message.

    A message takes each transfer rounded up to :data:`KMALLOC_ALIGN` bytes of
    spidev's ``bufsiz`` and at most :data:`MAX_TRANSFERS` transfers.
    """
    sizes: list[int] = []
    used = count = 0
    for length in lengths:
        room = -(-length // KMALLOC_ALIGN) * KMALLOC_ALIGN
        if room > bufsiz:
            raise ValueError(f"a {length}-byte transfer does not fit spidev's {bufsiz} bytes")
        if count and (used + room > bufsiz or count == MAX_TRANSFERS):
            sizes.append(count)
            used = count = 0
        used += room
        count += 1
    if count:
        sizes.append(count)
    return sizes


@dataclass(frozen=True, slots=True)
class SpidevAccess:
    """Where the spidev nodes are and how a message reaches them (tests hand in a model)."""

    dev_dir: Path = Path("/dev")
    message: SpiMessage = kernel_message
    bufsiz: int | None = None
    """spidev's bounce-buffer size; None: as the loaded module says (:func:`read_bufsiz`)."""
    speed_hz: int = SPI_HZ

    def message_bytes(self) -> int:
        """The bufsiz messages must keep under."""
        return read_bufsiz() if self.bufsiz is None else self.bufsiz


KERNEL_SPIDEV = SpidevAccess()
"""The real ``/dev/spidevB.C`` nodes and the kernel's ioctl."""


class Spidev:
    """One ``/dev/spidevB.C``, open for ``SPI_IOC_MESSAGE``.

    Opening fails with :class:`HardwareError` naming the node.  A context
    manager; ``close()`` is safe twice.
    """

    def __init__(self, port: int, device: int, access: SpidevAccess = KERNEL_SPIDEV) -> None:
        self.path = access.dev_dir / f"spidev{port}.{device}"
        self._message = access.message
        try:
            self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CLOEXEC)
        except OSError as err:
            raise HardwareError(f"cannot open {self.path}: {err.strerror or err}") from None

    def transfer(self, transfers: TransferArray, expected: int) -> None:
        """Run one message; HardwareError naming the node unless all ``expected`` bytes moved."""
        if self._fd is None:
            raise HardwareError(f"{self.path} is closed")
        try:
            done = self._message(self._fd, transfers)
        except OSError as err:
            raise HardwareError(f"SPI message on {self.path} failed: "
                                f"{err.strerror or err}") from err
        if done != expected:
            raise HardwareError(f"short SPI message on {self.path}: {done} of {expected} bytes")

    def close(self) -> None:
        """Close the node; idempotent."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    @property
    def closed(self) -> bool:
        """True once ``close()`` has run."""
        return self._fd is None

    def __enter__(self) -> Spidev:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Spidev {self.path}{' closed' if self.closed else ''}>"
