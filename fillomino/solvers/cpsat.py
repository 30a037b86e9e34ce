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
    "linearization_level": 0,
    "max_presolve_iterations": 1,
    "cp_model_probing_level": 0,
    "use_sat_inprocessing": False,
}
"""Measured on the external corpus: the eager shape clauses beat the LP relaxation, and a light presolve pays."""


class _Allowance:
    """What is left of one question's budget across several CP-SAT calls."""

    def __init__(self, budget: Budget) -> None:
        self.deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        self.conflicts = budget.conflicts

    def configure(self, solver: Any, threads: int) -> None:
        solver.parameters.num_workers = max(1, threads)
        for name, value in PARAMETERS.items():
            setattr(solver.parameters, name, value)
        if self.deadline is not None:
            left = self.deadline - time.perf_counter()
            if left <= 0:
                raise BudgetExhausted("time budget ran out")
            solver.parameters.max_time_in_seconds = left
        if self.conflicts is not None:
            if self.conflicts <= 0:
                raise BudgetExhausted("conflict budget ran out")
            solver.parameters.max_number_of_conflicts = self.conflicts

    def charge(self, solver: Any) -> None:
        if self.conflicts is not None:
            self.conflicts -= max(1, solver.num_conflicts)


def _search(lm: LabelModel, allowance: _Allowance, threads: int, assumptions: Sequence[Any] = ()) -> tuple[bool, Any]:
    """Run CP-SAT once: (feasible?, the solver) when it settled the question, else BudgetExhausted."""
    from ortools.sat.python import cp_model

    lm.model.clear_assumptions()
    if assumptions:
        lm.model.add_assumptions(list(assumptions))
    solver = cp_model.CpSolver()
    allowance.configure(solver, threads)
    status = solver.solve(lm.model)
    allowance.charge(solver)
    if status == cp_model.UNKNOWN:
        raise BudgetExhausted("budget ran out before CP-SAT settled the question")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE):
        raise RuntimeError(f"CP-SAT rejected the model: {solver.status_name(status)}")
    return status != cp_model.INFEASIBLE, solver


def _run(lm: LabelModel, allowance: _Allowance, threads: int) -> list[int] | None:
    """Labels of one picture, or None when the model is infeasible. Raises BudgetExhausted."""
    feasible, solver = _search(lm, allowance, threads)
    return read_labels(solver, lm) if feasible else None


def solve(puzzle: Puzzle, *, max_size: int | None, budget: Budget, threads: int = 1) -> Grid | None:
    """One picture, or None when there is none. Raises BudgetExhausted when the budget runs out."""
    labels = _run(build_model(puzzle, max_size), _Allowance(budget), threads)
    return None if labels is None else to_grid(labels, puzzle.cols)


def uniqueness(puzzle: Puzzle, *, max_size: int | None, budget: Budget, threads: int = 1) -> Verdict:
    """UNIQUE (its solution), MULTIPLE (two solutions, where they differ), NONE (minimal clue conflict), UNKNOWN."""
    start = time.perf_counter()
    allowance = _Allowance(budget)
    verdict = Verdict(Status.UNKNOWN, max_size=max_size, backend=NAME)
    try:
        lm = build_model(puzzle, max_size)
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
