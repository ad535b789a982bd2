"""Give memory freed by Python back to the operating system.

Building a segmenter's lexicon matcher at load time creates and drops
short-lived Python objects by the hundred thousand (the words, their normalised keys, a row
per key). glibc's allocator keeps such freed heap pages for reuse rather than
returning them, so the process's resident memory stays that much higher for
as long as the pipeline lives, and the weights loaded next stack their own
transient on top (the peak of ``spacy.load``). ``malloc_trim(0)`` returns
them. The segmenter also calls it between the windows of a long text
(segmenter/windowed_inference.py): each window's arrays, freed, would otherwise stay
in the heap, and the next window's land beside them. Written here because
no library wraps it; elsewhere (macOS, Windows, musl) this does nothing.
"""
import ctypes
import ctypes.util
from functools import lru_cache
from typing import Optional


@lru_cache(maxsize=1)
def _glibc_malloc_trim() -> Optional[ctypes._CFuncPtr]:
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # no C library found, or not glibc
        return None


def release_freed_memory() -> bool:
    """Return freed heap pages to the operating system (glibc's malloc_trim).

    RETURNS whether glibc released any memory (False where it is not glibc).
    """
    trim = _glibc_malloc_trim()
    return bool(trim(0)) if trim is not None else False
