"""Reading input from outside with a size bound, never more than the bound in memory.

* ``read_lines(stream, max_bytes)``: the lines of a binary stream, each decoded on its
  own. The stream is read in chunks; a line longer than ``max_bytes`` is discarded as it
  streams past (its bytes are never held) and reported as too long, and a line that is
  not UTF-8 is reported with the position of its first bad byte. Every line, good or
  bad, comes out as one ``InputLine``, so a caller can answer each one.
* ``read_regular_file(path, max_bytes)``: the bytes of a regular file no larger than
  ``max_bytes``. A FIFO, a device (``/dev/zero``), a socket or a directory is refused
  at once, before it is opened for reading (opening a FIFO would wait for a writer).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

CHUNK_BYTES = 64 * 1024


class InputTooLarge(ValueError):
    """Input over its size limit."""


class NotARegularFile(ValueError):
    """A path that is a FIFO, a device, a socket or a directory."""


@dataclass(frozen=True)
class InputLine:
    """One line of a stream: its text, or why it has none."""

    number: int  # 1-based
    text: str | None
    error: str | None = None


def _decode(number: int, raw: bytes) -> InputLine:
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    try:
        return InputLine(number, raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return InputLine(number, None, f"the line is not valid UTF-8 (byte {exc.start + 1} is 0x{raw[exc.start]:02x})")


def read_lines(stream: BinaryIO, max_bytes: int, chunk_bytes: int = CHUNK_BYTES) -> Iterator[InputLine]:
    """Lines of ``stream`` (bytes), each at most ``max_bytes`` long (without its newline).

    Memory held: at most ``max_bytes + chunk_bytes``, whatever the input.
    """
    read = getattr(stream, "read1", None) or stream.read
    buf = bytearray()
    number = 1
    skipped = 0  # bytes of an over-long line discarded so far (0: not in one)
    while True:
        chunk = read(chunk_bytes)
        if not chunk:
            break
        start = 0
        while True:
            nl = chunk.find(b"\n", start)
            piece = chunk[start:] if nl < 0 else chunk[start:nl]
            if skipped:
                skipped += len(piece)
            elif len(buf) + len(piece) > max_bytes:
                skipped = len(buf) + len(piece)
                buf.clear()
            else:
                buf += piece
            if nl < 0:
                break
            if skipped:
                yield InputLine(number, None, f"the line is too long ({skipped:,} bytes; the limit is {max_bytes:,})")
            else:
                yield _decode(number, bytes(buf))
            buf.clear()
            skipped = 0
            number += 1
            start = nl + 1
    if skipped:
        yield InputLine(number, None, f"the line is too long ({skipped:,} bytes; the limit is {max_bytes:,})")
    elif buf:
        yield _decode(number, bytes(buf))


def check_regular_file(path: str | os.PathLike, max_bytes: int) -> int:
    """The file's size; raises FileNotFoundError, NotARegularFile or InputTooLarge."""
    p = Path(path)
    st = p.stat()  # follows symlinks: a link to /dev/zero is a device
    if not stat.S_ISREG(st.st_mode):
        kind = ("a directory" if stat.S_ISDIR(st.st_mode) else "a pipe (FIFO)" if stat.S_ISFIFO(st.st_mode)
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
        raise NotARegularFile(f"{p} is {kind}, not a regular file")
    if st.st_size > max_bytes:
        raise InputTooLarge(f"{p.name} is too large ({st.st_size:,} bytes; the limit is {max_bytes:,})")
    return st.st_size


def read_regular_file(path: str | os.PathLike, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``.

    Opened without blocking and checked again on the open descriptor, so a path swapped
    for a FIFO or a device after the first check is still refused.
    """
    check_regular_file(path, max_bytes)
    fd = os.open(os.fspath(path), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotARegularFile(f"{Path(path)} is not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(max_bytes + 1)
    finally:
        os.close(fd)
    if len(data) > max_bytes:  # grew while we read
        raise InputTooLarge(f"{Path(path).name} is too large (over {max_bytes:,} bytes)")
    return data


def read_stream(stream: BinaryIO, max_bytes: int, what: str = "the input") -> bytes:
    """At most ``max_bytes`` of a stream; InputTooLarge if there is more."""
    data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise InputTooLarge(f"{what} is too large (over {max_bytes:,} bytes)")
    return data
