"""Summary figures shared by the benchmark scripts."""

from __future__ import annotations


def percentile(values: list[float], q: float) -> float:
    """The value at fraction ``q`` (0..1) of the sorted values (the largest for q near 1)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
