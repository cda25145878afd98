"""A disk that fills up, for fault injection through :class:`tavla_pi.events.files.Files`."""

from __future__ import annotations

import errno
import os


class FullDisk:
    """The operating system's writes, with ``room`` bytes left (None: no limit).

    A write beyond the room writes what fits, as a real disk does, and the
    next one fails with ENOSPC; ``fsync`` is the real one.
    """

    def __init__(self, room: int | None = None) -> None:
        self.room = room

    def write(self, fd: int, data: bytes) -> int:
        if self.room is None:
            return os.write(fd, data)
        if self.room <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written = os.write(fd, data[: self.room])
        self.room -= written
        return written

    def fsync(self, fd: int) -> None:
        os.fsync(fd)
