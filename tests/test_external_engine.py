"""The CNF engine on every external puzzle (904 files by other people and tools): `solve` gives a valid
answer, and `unique` agrees with the file's `status:` and stored solution.

- `unique`: the engine proves uniqueness and returns exactly the stored solution;
- `multiple`: the engine gives two different valid solutions;
- `published` (uniqueness expected, never proved): the engine's verdict is pinned here; every one was
  proved unique and equal to its published solution, and an ambiguous one would be a finding listed in
  AMBIGUOUS_PUBLISHED and docs/benchmarks.md;
- `unknown`: whatever the engine finds is checked (valid answers, the stored solution when unique).

A wrong verdict fails. A spent budget is "unknown", never a pass: it skips with the file's name. About
a minute of CPU for the whole corpus (see docs/benchmarks.md); the folder's absence skips everything.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import external_files

from fillomino.formats import read_puzzle
from fillomino.puzzle import is_solution
from fillomino.solvers import Budget, BudgetExhausted, Status, solve, uniqueness

BUDGET = Budget(seconds=120)
"""Wall seconds per question: every puzzle needs under 10 s of CPU, so this only guards against a hang
on a heavily shared machine."""

AMBIGUOUS_PUBLISHED: set[str] = set()
"""Published puzzles the engine found to have several solutions (findings; none so far)."""

FILES = external_files()


def file_params() -> list:
    if not FILES:
        return [pytest.param(None, id="corpus-absent")]
    return [pytest.param(p, id=p.name) for p in FILES]


@pytest.mark.long  # CI certifies the same files by their status headers (.ci/run) in a third of the time
@pytest.mark.parametrize("path", file_params())
def test_engine_agrees_with_the_stored_status_and_solution(path: Path | None) -> None:
    if path is None:
        pytest.skip("../shared/corpus-external is not present")
    puzzle = read_puzzle(str(path))
    stored = puzzle.meta("status")
    if puzzle.solution is not None:
        assert is_solution(puzzle, puzzle.solution), "the stored solution itself is wrong"
        try:
            answer = solve(puzzle, budget=BUDGET)
        except BudgetExhausted:
            pytest.skip(f"{path.name}: solve ran out of its {BUDGET.seconds} s budget (unknown)")
        assert answer is not None and is_solution(puzzle, answer)

    verdict = uniqueness(puzzle, budget=BUDGET)
    if verdict.status is Status.UNKNOWN:
        pytest.skip(f"{path.name}: unique ran out of its {BUDGET.seconds} s budget (unknown)")
    if verdict.status is Status.UNIQUE:
        assert len(verdict.solutions) == 1 and is_solution(puzzle, verdict.solutions[0])
        if puzzle.solution is not None:
            assert verdict.solutions[0] == puzzle.solution
    if verdict.status is Status.MULTIPLE:
        first, second = verdict.solutions
        assert first != second and is_solution(puzzle, first) and is_solution(puzzle, second)
    if verdict.status is Status.NONE:
        assert puzzle.solution is None, "the engine says no solution, yet one is stored"

    if stored == "unique":
        assert verdict.status is Status.UNIQUE
    elif stored == "multiple":
        assert verdict.status is Status.MULTIPLE
    elif stored == "published":
        expected = Status.MULTIPLE if path.name in AMBIGUOUS_PUBLISHED else Status.UNIQUE
        assert verdict.status is expected


def test_the_corpus_has_every_status_the_test_distinguishes(external_corpus: list[Path]) -> None:
    """The per-file test above covers all 904 files, and each of its branches is met."""
    statuses = {read_puzzle(str(p)).meta("status") for p in external_corpus}
    assert len(external_corpus) == 904
    assert statuses == {"unique", "multiple", "published", "unknown"}
    assert AMBIGUOUS_PUBLISHED <= {p.name for p in external_corpus}
