"""Give the operating system back the memory that loading an index freed.

Reading a generation's stores allocates far more than it keeps (the JSON bytes, a second
copy of every string until chunks share their passage's, the ids read to check the passage
store). glibc keeps freed heap pages in the process, where later large allocations (the
model's weights, Chroma's HNSW, both mapped on their own) never reuse them: at 31 codes
~210 MB of the serving process's resident memory was such pages. ``malloc_trim(0)`` returns
them; elsewhere than glibc this does nothing."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc


@functools.cache
def _malloc_trim():
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to call
        return None


def release_freed_memory() -> bool:
    """Collect garbage, then hand freed heap pages back; True if the C library could."""
    gc.collect()
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
