"""Summary figures shared by the benchmark scripts."""

from __future__ import annotations

import math
import os


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile at fraction ``q`` (0..1): the smallest value with at least that fraction of
    the values at or below it (of 20 values, the 95th percentile is the 19th). Infinities sort last."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(round(q * len(ordered), 9)) - 1)]


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (say the racers of generate --threads)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system
