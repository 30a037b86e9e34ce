"""The CP-SAT backend: solve, prove uniqueness by blocking labellings, enumerate, explain "none".

Uses the flow model of ``fillomino.encode.cpsat``. One worker by default (complete and repeatable);
a budget is shared by every CP-SAT call one question makes, and running out gives "unknown".
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Any

from ..encode.cpsat import LabelModel, block_labelling, build_model, read_labels
from ..puzzle import Grid, Puzzle, cell_rc, to_grid
from . import BudgetExhausted
from .base import Budget, Status, Verdict, differing_cells

NAME = "cpsat"
PARAMETERS = {
    "max_presolve_iterations": 1,
    "cp_model_probing_level": 0,
    "use_sat_inprocessing": False,
}
"""Measured on the external corpus: a light presolve pays, SAT inprocessing (vivification) costs more
than it saves."""
STRATEGIES = ({"linearization_level": 0}, {"linearization_level": 2})
"""Without the LP most puzzles go fastest; a few need the flow's LP relaxation (janko-496: 72 conflicts
with it, over 600000 without). One worker alternates them in growing slices of deterministic time."""
FIRST_SLICE = 0.5
"""Deterministic-time units (about a second of work): most 10x10 puzzles settle in the first slice."""
SLICE_GROWTH = 4


class _Allowance:
    """What is left of one question's budget across several CP-SAT calls."""

    def __init__(self, budget: Budget) -> None:
        self.deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        self.conflicts = budget.conflicts

    def exhausted(self) -> bool:
        late = self.deadline is not None and time.perf_counter() >= self.deadline
        return late or (self.conflicts is not None and self.conflicts <= 0)

    def configure(self, solver: Any, threads: int, strategy: dict, time_slice: float | None) -> None:
        from ortools.sat.python import cp_model

        if self.exhausted():
            raise BudgetExhausted("budget ran out before CP-SAT settled the question")
        solver.parameters.num_workers = max(1, threads)
        for name, value in {**PARAMETERS, **strategy}.items():
            setattr(solver.parameters, name, value)
        # Follow the model's label strategy (smallest label first) before the solver's own choices: the
        # default alone wanders into huge labels on open boards (66 s for a 4x4 with two clues).
        solver.parameters.search_branching = cp_model.PARTIAL_FIXED_SEARCH
        if self.deadline is not None:
            solver.parameters.max_time_in_seconds = self.deadline - time.perf_counter()
        if self.conflicts is not None:
            solver.parameters.max_number_of_conflicts = self.conflicts
        if time_slice is not None:
            solver.parameters.max_deterministic_time = time_slice

    def charge(self, solver: Any) -> None:
        if self.conflicts is not None:
            self.conflicts -= max(1, solver.num_conflicts)


def _search(lm: LabelModel, allowance: _Allowance, threads: int, assumptions: Sequence[Any] = ()) -> tuple[bool, Any]:
    """Run CP-SAT until it settles the question: (feasible?, the solver), else BudgetExhausted.

    With several workers CP-SAT runs its own portfolio in one call. With one it alternates STRATEGIES
    in slices of deterministic time that grow by SLICE_GROWTH, so the total stays within a small factor
    of the better strategy, and runs are repeatable.
    """
    from ortools.sat.python import cp_model

    lm.model.clear_assumptions()
    if assumptions:
        lm.model.add_assumptions(list(assumptions))
    time_slice = None if threads > 1 else FIRST_SLICE
    while True:
        for strategy in STRATEGIES[:1] if threads > 1 else STRATEGIES:
            solver = cp_model.CpSolver()
            allowance.configure(solver, threads, strategy, time_slice)
            solver.parameters.fix_variables_to_their_hinted_value = lm.fix_hints
            status = solver.solve(lm.model)
            allowance.charge(solver)
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE):
                return status != cp_model.INFEASIBLE, solver
            if status != cp_model.UNKNOWN:
                raise RuntimeError(f"CP-SAT rejected the model: {solver.status_name(status)}")
            if time_slice is None or allowance.exhausted():
                raise BudgetExhausted("budget ran out before CP-SAT settled the question")
        time_slice *= SLICE_GROWTH


def _run(lm: LabelModel, allowance: _Allowance, threads: int) -> list[int] | None:
    """Labels of one picture, or None when the model is infeasible. Raises BudgetExhausted."""
    feasible, solver = _search(lm, allowance, threads)
    return read_labels(solver, lm) if feasible else None


def solve(puzzle: Puzzle, *, max_size: int | None, budget: Budget, threads: int = 1) -> Grid | None:
    """One picture, or None when there is none. Raises BudgetExhausted when the budget runs out."""
    labels = _run(build_model(puzzle, max_size), _Allowance(budget), threads)
    return None if labels is None else to_grid(labels, puzzle.cols)


def uniqueness(
    puzzle: Puzzle, *, max_size: int | None, budget: Budget, threads: int = 1, candidate: Grid | None = None
) -> Verdict:
    """UNIQUE (its solution), MULTIPLE (two solutions, where they differ), NONE (minimal clue conflict), UNKNOWN.

    ``candidate`` (say a file's stored solution) saves the search for a first picture, the slow half
    for CP-SAT: the model itself checks the candidate (labels fixed, flows found), and only if it is a
    picture is it taken as the first one. A candidate that is not is ignored, so the verdict never rests
    on it. (15x15 corpus puzzles: 11.7-41.4 CPU s without, 6.2-18.1 with.)
    """
    start = time.perf_counter()
    allowance = _Allowance(budget)
    verdict = Verdict(Status.UNKNOWN, max_size=max_size, backend=NAME)
    try:
        lm = build_model(puzzle, max_size)
        first = _checked(lm, candidate, allowance, threads) if candidate is not None else None
        if first is None:
            first = _run(lm, allowance, threads)
        if first is None:
            verdict.status = Status.NONE
            verdict.conflict = [cell_rc(i, puzzle.cols) for i in minimal_conflict(puzzle, max_size, allowance)]
        else:
            verdict.solutions = [to_grid(first, puzzle.cols)]
            block_labelling(lm, first)
            second = _run(lm, allowance, threads)
            if second is None:
                verdict.status = Status.UNIQUE
            else:
                verdict.status = Status.MULTIPLE
                verdict.solutions.append(to_grid(second, puzzle.cols))
                verdict.differ = differing_cells(*verdict.solutions)
    except BudgetExhausted:
        if verdict.status is not Status.NONE:
            verdict.status = Status.UNKNOWN
            verdict.solutions = []
    verdict.seconds = time.perf_counter() - start
    return verdict


def _checked(lm: LabelModel, candidate: Grid, allowance: _Allowance, threads: int) -> list[int] | None:
    """The candidate's labels if the model accepts them as a picture (every label fixed), else None."""
    labels = [v for row in candidate for v in row]
    if len(labels) != len(lm.labels) or any(v not in dom for v, dom in zip(labels, lm.domains, strict=True)):
        return None
    for x, v in zip(lm.labels, labels, strict=True):
        lm.model.add_hint(x, v)
    lm.fix_hints = True
    try:
        feasible, solver = _search(lm, allowance, threads)
    finally:
        lm.model.clear_hints()
        lm.fix_hints = False
    return read_labels(solver, lm) if feasible else None


def enumerate_solutions(puzzle: Puzzle, *, max_size: int | None, budget: Budget) -> Iterator[Grid]:
    """Every picture exactly once (blocking on labels). Raises BudgetExhausted if the budget runs out."""
    allowance = _Allowance(budget)
    lm = build_model(puzzle, max_size)
    while (labels := _run(lm, allowance, 1)) is not None:
        yield to_grid(labels, puzzle.cols)
        block_labelling(lm, labels)


def minimal_conflict(puzzle: Puzzle, max_size: int | None, allowance: _Allowance | None = None) -> list[int]:
    """A minimal set of clue cells with no picture, for a puzzle known to have none.

    First a core from CP-SAT assumptions on a model whose domains ignore the clues (so any subset of the
    assumptions is a faithful sub-puzzle), then deletion: drop each clue whose removal stays infeasible.
    If the budget runs out while shrinking, the conflicting (possibly not minimal) set found so far is kept.
    """
    allowance = allowance or _Allowance(Budget())
    conflict = puzzle.clue_cells()
    try:
        lm = build_model(puzzle, max_size, assume_clues=True)
        index_to_cell = {lit.index: cell for cell, lit in lm.clue_literals.items()}
        feasible, solver = _search(lm, allowance, 1, [lm.clue_literals[i] for i in conflict])
        if not feasible:
            core = solver.sufficient_assumptions_for_infeasibility()
            conflict = sorted(index_to_cell[k] for k in core if k in index_to_cell)
        for cell in list(conflict):
            trial = [i for i in conflict if i != cell]
            if _run(build_model(puzzle, max_size, clue_cells=trial), allowance, 1) is None:
                conflict = trial
    except BudgetExhausted:
        pass
    return conflict
