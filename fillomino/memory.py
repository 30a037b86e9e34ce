"""How much memory the process holds, and a guard that tells a counter when to trim its caches.

The region search caches every part it counts; on a board with very many parts (a 10x10 draft with six
of its clues removed) the caches outgrow the machine in a quarter of an hour. A cache only saves
work, so dropping entries never changes a count: the guard says when, the counter decides what goes.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from .puzzle import FillominoError

CACHE_SHARE = 0.5
"""The default limit: this share of the machine's memory (or of the container's limit, when lower)."""

SPACING = 64
"""After a trim, the guard says "over" again only after this many more askings: the memory a trim frees goes
back to Python's allocator, not always to the system, so the resident size may not fall; the caches refill the
freed room first. Measured against the growth since the last trim instead, the resident size crept up by that
step at every trim (fragmentation) until the count stopped."""

STOP_SHARE = 1.25
"""A count stops (status unknown) once it has taken this share of the limit: past the point where the region
search trims its caches, what holds the memory is not a cache (the transfer matrix's and the frontier
sweep's states are the count itself)."""

_UNITS = {"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def _statm_bytes(process: str) -> int | None:
    """The resident memory of /proc/<process> ("self" or a pid) now; None where it cannot be read (not Linux)."""
    try:
        with open(f"/proc/{process}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def resident_bytes() -> int | None:
    """The process's resident memory now (Linux), else its peak so far; None where neither can be read."""
    now = _statm_bytes("self")
    if now is not None:
        return now
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KiB elsewhere


def child_resident_bytes(pid: int) -> int | None:
    """Another process's resident memory now (Linux: /proc); None where it cannot be read."""
    return _statm_bytes(str(pid))


def machine_bytes() -> int | None:
    """The memory this process may use: the machine's, or its container's limit when lower; None if unknown."""
    sizes = []
    try:
        sizes.append(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, OSError, ValueError):
        pass
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            text = Path(path).read_text().strip()
        except OSError:
            continue
        if text.isdigit():
            sizes.append(int(text))
    return min(sizes) if sizes else None


def default_limit() -> int | None:
    """CACHE_SHARE of machine_bytes(), or None (no guard) when the machine's memory is unknown."""
    total = machine_bytes()
    return None if total is None else int(total * CACHE_SHARE)


def parse_size(text: str) -> int | None:
    """'8G', '512M', '1.5G', '2000000' (bytes) -> bytes; 'none' -> None (no limit). Raises FillominoError."""
    cleaned = text.strip().upper()
    if cleaned in ("NONE", "OFF"):
        return None
    match = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)\s*([KMGT]?)(?:I?B)?", cleaned)
    if not match:
        raise FillominoError(f"--memory: expected a size such as 8G, 512M or none, got {text!r}")
    size = int(float(match.group(1)) * _UNITS[match.group(2)])
    if size < 1:
        raise FillominoError(f"--memory must be positive, got {text!r}")
    return size


CHECK_EVERY = 1024
"""A counter asks its guard once in this many of its steps (reading the resident size takes microseconds)."""


class OutOfMemory(Exception):
    """The process holds STOP_SHARE of the memory limit: the count stops, its answer unknown."""


class MemoryGuard:
    """Says when the process has taken more than ``limit`` bytes since the guard was made (what it held before
    is not the count's: a program may hold much else), at most once in SPACING askings. A counter asks it once
    in ``every`` steps (a power of two)."""

    def __init__(self, limit: int, every: int = CHECK_EVERY) -> None:
        if every < 1 or every & (every - 1):
            raise ValueError(f"every must be a power of two, got {every}")
        self.limit = limit
        self.every = every
        self.base = resident_bytes() or 0
        self.asked = 0
        self.quiet_until = 0
        self.trims = 0

    def taken(self) -> int | None:
        """Bytes the process holds beyond what it held when the guard was made; None where unknown."""
        held = resident_bytes()
        return None if held is None else held - self.base

    def over(self) -> bool:
        """Whether the caches should be trimmed now."""
        self.asked += 1
        if self.asked < self.quiet_until:
            return False
        taken = self.taken()
        return taken is not None and taken > self.limit

    def exhausted(self) -> bool:
        """Whether the process has taken STOP_SHARE of the limit (trimming caches has not held it down)."""
        taken = self.taken()
        return taken is not None and taken > self.limit * STOP_SHARE

    def child_exhausted(self, pid: int) -> bool:
        """Whether a child process doing the whole count (Ganak) holds STOP_SHARE of the limit: all it holds is
        the count's, and it has no cache this process could trim."""
        held = child_resident_bytes(pid)
        return held is not None and held > self.limit * STOP_SHARE

    def trimmed(self) -> None:
        """The caller trimmed: the next SPACING askings say no."""
        self.trims += 1
        self.quiet_until = self.asked + SPACING


def make_guard(memory: int | None | str | MemoryGuard) -> MemoryGuard | None:
    """A guard from a ``memory`` option: bytes, "auto" (default_limit()), None (no limit) or a guard as it is."""
    if isinstance(memory, MemoryGuard):
        return memory
    limit = default_limit() if memory == "auto" else memory
    if isinstance(limit, str):
        raise FillominoError(f"memory: expected bytes, 'auto' or None, got {limit!r}")
    return None if limit is None else MemoryGuard(limit)
