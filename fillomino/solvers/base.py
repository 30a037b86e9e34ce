"""What every backend is and returns: the Backend protocol, a shared status and verdict, so callers
never care which engine ran."""

from __future__ import annotations

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

    @classmethod
    def parse(cls, text: str | None) -> Budget:
        """``"5s"``, ``"2.5"`` (seconds) or ``"100000c"`` (conflicts)."""
        from ..puzzle import FillominoError

        if not text:
            return cls()
        t = text.strip().lower()
        try:
            if t.endswith("c"):
                n = int(t[:-1])
                if n <= 0:
                    raise ValueError
                return cls(conflicts=n)
            s = float(t[:-1] if t.endswith("s") else t)
            if not s > 0:
                raise ValueError
            return cls(seconds=s)
        except ValueError:
            raise FillominoError(
                f"budget {text!r} is not a positive time like '5s' or conflict count like '100000c'"
            ) from None


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
