"""The state directory's writes, through one small layer a test can replace.

Every byte the journal and the simulator's saved board write goes through a
:class:`Files`: ``write`` and ``fsync`` of an open descriptor.  :class:`OsFiles`
is the operating system's; a test's fake fails the way a full disk does, so
that what a failed write leaves behind can be checked without filling a disk.

The helpers here never follow a symbolic link (``O_NOFOLLOW``, ``O_EXCL``)
and leave nothing half-made behind when a write fails: the caller gets the
``OSError``.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Protocol


class Files(Protocol):
    """Writing and syncing open files (``os.write``, ``os.fsync``)."""

    def write(self, fd: int, data: bytes) -> int:
        """Write some of ``data`` to ``fd``; the number of bytes written."""
        ...

    def fsync(self, fd: int) -> None:
        """Make what was written to ``fd`` durable."""
        ...


class OsFiles:
    """The operating system's writes."""

    def write(self, fd: int, data: bytes) -> int:
        """``os.write``."""
        return os.write(fd, data)

    def fsync(self, fd: int) -> None:
        """``os.fsync``."""
        os.fsync(fd)


OS_FILES = OsFiles()

_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def write_all(files: Files, fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd`` (a write may take only part of it)."""
    view = memoryview(data)
    while view:
        written = files.write(fd, bytes(view))
        view = view[written:]


def create_file(files: Files, path: Path, data: bytes, mode: int = 0o644) -> None:
    """Create ``path`` (it must not exist, not even as a link) holding ``data``, synced,
    with the permissions ``mode`` (less what the umask takes)."""
    fd = os.open(path, _NEW, mode)
    try:
        write_all(files, fd, data)
        files.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise
    os.close(fd)


def replace_file(files: Files, path: Path, data: bytes, mode: int = 0o644) -> None:
    """Make ``path`` hold ``data`` with the permissions ``mode``, atomically and durably:
    a power cut or a failed write leaves the old file or the new one, never a mix.

    The data goes to ``<path>.tmp`` (a stale one is removed first), which is
    synced and renamed over ``path``; then the directory is synced.
    """
    temp = path.with_name(path.name + ".tmp")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temp)  # left by a power cut; unlink never follows a link
    create_file(files, temp, data, mode)
    try:
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    sync_dir(path.parent)


def sync_dir(path: Path) -> None:
    """fsync a directory, so a created or renamed entry survives a power cut."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
