"""Summary figures shared by the benchmark scripts."""

from __future__ import annotations

import os


def percentile(values: list[float], q: float) -> float:
    """The value at fraction ``q`` (0..1) of the sorted values (the largest for q near 1)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (say the racers of generate --threads)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system
