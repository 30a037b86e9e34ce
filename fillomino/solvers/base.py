"""What every backend is and returns: the Backend protocol, a shared status and verdict, so callers
never care which engine ran."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from ..puzzle import Grid, Puzzle


class Status(StrEnum):
    """Outcome of a uniqueness question (also used by `solve` as sat / unsat / unknown)."""

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"
    UNKNOWN = "unknown"


@dataclass
class Verdict:
    """The answer to "how many solutions: none, one, or more?" with its evidence.

    - unique: ``solutions`` holds the one solution;
    - multiple: two different solutions and ``differ``, the (row, col) cells where they differ;
    - none: ``conflict``, a minimal set of clue cells (row, col) that already have no solution;
    - unknown: a budget ran out before the question was settled (no evidence: see Backend).
    """

    status: Status
    solutions: list[Grid] = field(default_factory=list)
    differ: list[tuple[int, int]] = field(default_factory=list)
    conflict: list[tuple[int, int]] = field(default_factory=list)
    max_size: int | None = None
    seconds: float = 0.0
    backend: str = ""

    def to_json(self) -> dict:
        """The CLI's ``--json`` shape."""
        return {
            "status": self.status.value,
            "solutions": [[list(row) for row in g] for g in self.solutions],
            "differ": [list(rc) for rc in self.differ],
            "conflict": [list(rc) for rc in self.conflict],
            "max_size": self.max_size,
            "seconds": round(self.seconds, 6),
            "backend": self.backend,
        }


@dataclass
class Budget:
    """Optional limits for one question. None means no limit."""

    seconds: float | None = None
    conflicts: int | None = None

    # Longer budgets reach no solver as a deadline: thread waits overflow near 2**33 s, and a year is no limit.
    MAX_SECONDS = 366 * 24 * 3600.0
    # Solvers keep conflict allowances in signed 64-bit counters.
    MAX_CONFLICTS = 2**62
    _UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0}

    @classmethod
    def parse(cls, text: str | None) -> Budget:
        """``"5s"``, ``"2.5"`` (seconds), ``"5m"``, ``"1h"`` or ``"100000c"`` (conflicts); None means no limit.

        Anything else (empty, ``inf``, ``nan``, zero, negative, longer than a year) is a FillominoError, so a
        budget never reaches a clock as an infinite or overflowing number.
        """
        from ..puzzle import FillominoError

        if text is None:
            return cls()
        t = text.strip().lower()
        bad = FillominoError(
            f"budget {text!r} is not a positive time like '30', '5s', '5m', '1h' or a conflict count like '100000c' "
            "(leave --budget out for no limit)"
        )
        if t.endswith("c"):
            if not re.fullmatch(r"\d+", t[:-1]):
                raise bad
            n = int(t[:-1])
            if n <= 0:
                raise bad
            if n > cls.MAX_CONFLICTS:
                raise FillominoError(f"budget {text!r} is more conflicts than a solver can count (at most 2^62)")
            return cls(conflicts=n)
        unit = cls._UNITS.get(t[-1:], None)
        number = t[:-1] if unit is not None else t
        if not re.fullmatch(r"(\d+\.?\d*|\.\d+)(e[+-]?\d+)?", number):
            raise bad  # refuses inf, nan, signs and '' before float() would accept them
        seconds = float(number) * (unit or 1.0)
        if not seconds > 0:
            raise bad
        if seconds > cls.MAX_SECONDS:
            raise FillominoError(f"budget {text!r} is longer than a year: leave --budget out for no limit")
        return cls(seconds=seconds)


class Backend(Protocol):
    """One backend module (``solvers/cnf.py``, ``solvers/cpsat.py``): three questions, one rule for budgets.

    ``max_size`` has been checked against the clues by the caller (``solvers.solve`` and friends).
    ``threads`` and ``candidate`` are offers a backend may decline: the answer never depends on them.
    A spent budget gives "unknown" and nothing else: ``uniqueness`` returns UNKNOWN with no solutions,
    no differing cells and no conflict (a conflict is only given once it is proved minimal), and
    ``solve`` and ``enumerate_solutions`` raise BudgetExhausted.
    """

    NAME: str

    def solve(self, puzzle: Puzzle, *, max_size: int | None, budget: Budget, threads: int = 1) -> Grid | None:
        """One solution, or None when there is none."""
        ...

    def uniqueness(
        self, puzzle: Puzzle, *, max_size: int | None, budget: Budget, threads: int = 1, candidate: Grid | None = None
    ) -> Verdict:
        """Unique, multiple, none or unknown, with the evidence (see Verdict)."""
        ...

    def enumerate_solutions(self, puzzle: Puzzle, *, max_size: int | None, budget: Budget) -> Iterator[Grid]:
        """Every solution exactly once, as found."""
        ...


def differing_cells(a: Grid, b: Grid) -> list[tuple[int, int]]:
    """The (row, col) cells where two answers differ."""
    return [(r, c) for r, (ra, rb) in enumerate(zip(a, b)) for c, (x, y) in enumerate(zip(ra, rb)) if x != y]
