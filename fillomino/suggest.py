"""Clues that make an ambiguous grid unique: fix one solution, add its values where other solutions differ.

Every step asks one incremental CNF model "is there a solution other than A with these clues?"
(A blocked once, the clues as assumptions). Greedy: each new clue is the cell that rules out the
most alternatives met so far; then every added clue that the others make redundant is dropped,
each drop verified by the same question. A few solutions are tried as A (the one kept decides how
many clues are needed); the fewest win. Finally an independent uniqueness proof confirms.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .clock import Clock
from .puzzle import FillominoError, Grid, Puzzle, to_grid, validate_max_size
from .solvers import Budget, BudgetExhausted, Status
from .solvers import cnf as cnf_backend
from .solvers.cnf import UniquenessOracle

POOL = 16
"""Alternatives gathered per step (more of them, better-informed choices; each costs one SAT question)."""
TRIES = 4
"""Solutions tried as the one to keep (which one is kept changes how many clues it needs)."""


@dataclass
class Suggestion:
    """The clues to add (row, col, value), the resulting status and puzzle, and what it cost."""

    clues: list[tuple[int, int, int]]
    status: str
    """"unique" (the clues make it so, verified), "none" (the grid has no solution, nothing to add)."""
    puzzle: Puzzle
    solution: Grid | None = None
    questions: int = 0
    seconds: float = 0.0
    max_size: int | None = None
    greedy: int = 0
    """How many clues the greedy pass added before redundant ones were dropped."""

    def to_json(self) -> dict:
        return {
            "clues": [list(t) for t in self.clues],
            "status": self.status,
            "solution": None if self.solution is None else [list(row) for row in self.solution],
            "questions": self.questions,
            "seconds": round(self.seconds, 6),
            "max_size": self.max_size,
        }


@dataclass
class _Alternatives:
    """"Another solution than A with clues at these cells?": the uniqueness oracle of A, gathering several."""

    oracle: UniquenessOracle
    seen: list[list[int]] = field(default_factory=list)

    def find(self, cells: set[int], many: int = 1) -> list[list[int]]:
        """Up to ``many`` different alternatives keeping A's values on ``cells`` ([] = A is the only one)."""
        found = self.oracle.others(sorted(cells), many=many, gather=True)
        if found is None:
            raise BudgetExhausted("the budget ran out before the suggested clues were settled")
        self.seen.extend(found)
        return found

    @property
    def questions(self) -> int:
        return self.oracle.solves


def suggest(
    puzzle: Puzzle, *, max_size: int | None = None, budget: Budget | None = None, tries: int = TRIES
) -> Suggestion:
    """As few clues as found (values of one solution) that leave that solution the only one.

    ``tries`` solutions are tried as the one to keep (the first found, then alternatives met on the
    way); the fewest clues win. Raises BudgetExhausted when the budget runs out; the result is
    always verified unique by an independent uniqueness proof."""
    validate_max_size(puzzle, max_size)
    if tries < 1:
        raise FillominoError(f"--tries must be at least 1, got {tries}")
    start = time.perf_counter()
    clock = Clock.of(budget or Budget())  # one clock for every question, the proof at the end included
    first = cnf_backend.solve(puzzle, max_size=max_size, clock=clock)
    if first is None:
        return Suggestion([], "none", puzzle, None, 0, time.perf_counter() - start, max_size)
    given = set(puzzle.clue_cells())
    bases = [[v for row in first for v in row]]
    best: tuple[list[int], list[int], int] | None = None  # (base, added, greedy)
    questions = 0
    for attempt in range(tries):
        if attempt >= len(bases):
            break
        values = bases[attempt]
        alts = _Alternatives(UniquenessOracle(to_grid(values, puzzle.cols), max_size=max_size, clock=clock))
        try:
            added = _greedy(alts, values, given)
            greedy = len(added)
            added = _drop_redundant(alts, given, added)
            questions += alts.questions
            bases.extend(alt for alt in alts.seen if alt not in bases)
        finally:
            alts.oracle.close()
        if best is None or len(added) < len(best[1]):
            best = (values, added, greedy)
        if not added:
            break
    assert best is not None
    values, added, greedy = best
    clues = list(puzzle.clues)
    for c in added:
        clues[c] = values[c]
    result = _completed(puzzle, clues, len(added))
    verdict = cnf_backend.uniqueness(result, max_size=max_size, clock=clock)
    if verdict.status == Status.UNKNOWN:
        raise BudgetExhausted("the budget ran out while verifying the suggested clues")
    solution = to_grid(values, puzzle.cols)
    if verdict.status != Status.UNIQUE or verdict.solutions[0] != solution:
        raise AssertionError(f"suggested clues failed the independent check: {verdict.status.value}")
    rc = [(c // puzzle.cols, c % puzzle.cols, values[c]) for c in sorted(added)]
    seconds = time.perf_counter() - start
    return Suggestion(rc, "unique", result, solution, questions + 2, seconds, max_size, greedy)


def _greedy(alts: _Alternatives, values: list[int], given: set[int]) -> list[int]:
    """Add A's value at the cell that rules out the most alternatives still alive, until none is left."""
    added: list[int] = []
    cells = set(given)
    while True:
        found = alts.find(cells, POOL)
        if not found:
            return added
        alive = [alt for alt in alts.seen if all(alt[c] == values[c] for c in cells)]
        options = [c for c in range(len(values)) if any(alt[c] != values[c] for alt in alive)]
        # most alternatives ruled out; ties: the larger value (a big region's clue tells more), then row-major
        best = max(options, key=lambda c: (sum(alt[c] != values[c] for alt in alive), values[c], -c))
        added.append(best)
        cells.add(best)


def _drop_redundant(alts: _Alternatives, given: set[int], added: list[int]) -> list[int]:
    """Drop each added clue (earliest first) that the others make unnecessary, each drop verified."""
    kept = list(added)
    for c in list(added):
        trial = [x for x in kept if x != c]
        if not alts.find(given | set(trial)):
            kept = trial
    return kept



def _completed(puzzle: Puzzle, clues: list[int], added: int) -> Puzzle:
    """The puzzle with the added clues; a stored status says unique now, and a note says why."""
    if not added:
        return puzzle
    meta = tuple((k, "unique" if k == "status" else v) for k, v in puzzle.metadata)
    note = ("note", f"{added} clue{'' if added == 1 else 's'} added by fillomino suggest")
    return Puzzle(puzzle.rows, puzzle.cols, tuple(clues), None, (*meta, note))
