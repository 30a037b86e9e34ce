"""Summary figures shared by the benchmark scripts."""

from __future__ import annotations

import math
import os
from pathlib import Path


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile at fraction ``q`` (0..1): the smallest value with at least that fraction of
    the values at or below it (of 20 values, the 95th percentile is the 19th). Infinities sort last."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(round(q * len(ordered), 9)) - 1)]


def parse_seeds(text: str) -> list[int]:
    """Seeds from a list of numbers and ranges: "0-19", "3", "0,3,5-7"."""
    seeds: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds.extend(range(int(lo), int(hi or lo) + 1))
    return seeds


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (say the racers of generate --threads)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def write_section(path: Path, section: str, begin: str, end: str) -> None:
    """Put ``section`` (which starts with ``begin`` and ends with ``end``) in place of the text between those
    markers in ``path``, or at its end when they are not there yet; the rest of the file is kept."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if begin in text and end in text:
        before, rest = text.split(begin, 1)
        after = rest.split(end, 1)[1].lstrip("\n")
        text = before + section + ("\n" + after if after else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    path.write_text(text, encoding="utf-8")
