"""The CP-SAT backend: solve, prove uniqueness by blocking labellings, enumerate, explain "none".

Uses the flow model of ``fillomino.encode.cpsat``. One worker by default (complete and repeatable);
a budget is shared by every CP-SAT call one question makes, and running out gives "unknown".
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Any

from ..clock import Clock
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
"""A light presolve pays on the external corpus; SAT inprocessing (vivification) costs more than it saves."""
SMALLEST_LABEL_FIRST = {"search_branching": "PARTIAL_FIXED_SEARCH", "linearization_level": 0}
OWN_BRANCHING = {"search_branching": "AUTOMATIC_SEARCH", "linearization_level": 0}
WITH_LP = {"search_branching": "PARTIAL_FIXED_SEARCH", "linearization_level": 2}
SEARCH_SCHEDULE = ((SMALLEST_LABEL_FIRST, 1.0), (OWN_BRANCHING, 1.0), (WITH_LP, 0.5))
"""Looking for a picture: open boards need the model's smallest-label-first strategy (CP-SAT's own
branching wanders into huge labels), hard sparse puzzles need CP-SAT's own branching, and a few need
the flow's LP relaxation; alternating keeps the total within a small factor of the best one
(figures: docs/benchmarks.md, "Figures behind the shipped settings")."""
PROVING_SCHEDULE = ((OWN_BRANCHING, 1.0), (WITH_LP, 0.5))
"""Proving no other picture (the first one blocked and hinted): CP-SAT's own branching is several times
faster than smallest-label-first, the hint keeps it near the first picture on open boards, and some
proofs need the LP instead. Every slice restarts the proof, which is the price of alternating."""
FIRST_SLICE = 0.5
"""Deterministic-time units (about a second of work) for a schedule's share 1.0: most 10x10 puzzles
settle in the first slice. Each slice is a fresh solve, so big models get longer slices (see _first_slice)."""
SLICE_GROWTH = 4
CONSTRAINTS_PER_SLICE = 100_000
"""Loading and presolving a model costs about the same per fresh solve whatever the slice, so the
first slice grows with the model: FIRST_SLICE per this many constraints."""


def _check(clock: Clock) -> None:
    """Raise BudgetExhausted once the clock is spent (between solves, and while building a model)."""
    if clock.spent():
        raise BudgetExhausted("budget ran out before CP-SAT settled the question")


def _configure(solver: Any, clock: Clock, threads: int, strategy: dict, time_slice: float | None) -> None:
    """One CP-SAT call's parameters: the schedule's strategy and what is left of the clock."""
    from ortools.sat.python import cp_model

    _check(clock)
    solver.parameters.num_workers = max(1, threads)
    for name, value in {**PARAMETERS, **strategy}.items():
        setattr(solver.parameters, name, getattr(cp_model, value) if name == "search_branching" else value)
    left = clock.seconds_left()
    if left is not None:
        solver.parameters.max_time_in_seconds = left
    if clock.conflicts is not None:
        solver.parameters.max_number_of_conflicts = clock.conflicts
    if time_slice is not None:
        solver.parameters.max_deterministic_time = time_slice


def _search(
    lm: LabelModel, clock: Clock, threads: int, assumptions: Sequence[Any] = (), proving: bool = False
) -> tuple[bool, Any]:
    """Run CP-SAT until it settles the question: (feasible?, the solver), else BudgetExhausted.

    With several workers CP-SAT runs its own portfolio in one call (first strategy of the schedule).
    With one it takes the strategies of the schedule (PROVING_SCHEDULE when ``proving``, for a model
    that is expected to have no picture left, else SEARCH_SCHEDULE) in turn, each for its share of a slice
    of deterministic time that grows by SLICE_GROWTH, so the total stays within a small factor of the
    best strategy, and runs are repeatable.
    """
    from ortools.sat.python import cp_model

    lm.model.clear_assumptions()
    if assumptions:
        lm.model.add_assumptions(list(assumptions))
    schedule = PROVING_SCHEDULE if proving else SEARCH_SCHEDULE
    time_slice = None if threads > 1 or len(schedule) == 1 else _first_slice(lm)
    while True:
        for strategy, share in schedule[:1] if threads > 1 else schedule:
            solver = cp_model.CpSolver()
            _configure(solver, clock, threads, strategy, None if time_slice is None else time_slice * share)
            solver.parameters.fix_variables_to_their_hinted_value = lm.fix_hints
            status = solver.solve(lm.model)
            clock.charge(max(1, solver.num_conflicts))
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE):
                return status != cp_model.INFEASIBLE, solver
            if status != cp_model.UNKNOWN:
                raise RuntimeError(f"CP-SAT rejected the model: {solver.status_name(status)}")
            if time_slice is None or clock.spent():
                raise BudgetExhausted("budget ran out before CP-SAT settled the question")
        time_slice *= SLICE_GROWTH


def _first_slice(lm: LabelModel) -> float:
    """FIRST_SLICE, longer for models so big that a fresh solve's set-up would dominate a short slice."""
    return FIRST_SLICE * max(1.0, len(lm.model.proto.constraints) / CONSTRAINTS_PER_SLICE)


def _run(lm: LabelModel, clock: Clock, threads: int, proving: bool = False) -> list[int] | None:
    """Labels of one picture, or None when the model is infeasible. Raises BudgetExhausted."""
    feasible, solver = _search(lm, clock, threads, proving=proving)
    return read_labels(solver, lm) if feasible else None


def solve(puzzle: Puzzle, *, max_size: int | None, budget: Budget, threads: int = 1) -> Grid | None:
    """One picture, or None when there is none. Raises BudgetExhausted when the budget runs out."""
    clock = Clock.of(budget)
    labels = _run(build_model(puzzle, max_size, check=lambda: _check(clock)), clock, threads)
    return None if labels is None else to_grid(labels, puzzle.cols)


def uniqueness(
    puzzle: Puzzle, *, max_size: int | None, budget: Budget, threads: int = 1, candidate: Grid | None = None
) -> Verdict:
    """UNIQUE (its solution), MULTIPLE (two solutions, where they differ), NONE (minimal clue conflict), UNKNOWN.

    ``candidate`` (say a file's stored solution) saves the search for a first picture, the slow half
    for CP-SAT: the model itself checks the candidate (labels fixed, flows found), and only if it is a
    picture is it taken as the first one. A candidate that is not is ignored, so the verdict never rests
    on it.
    """
    start = time.perf_counter()
    clock = Clock.of(budget)
    verdict = Verdict(Status.UNKNOWN, max_size=max_size, backend=NAME)
    try:
        lm = build_model(puzzle, max_size, check=lambda: _check(clock))
        first = _checked(lm, candidate, clock, threads) if candidate is not None else None
        if first is None:
            first = _run(lm, clock, threads)
        if first is None:
            verdict.status = Status.NONE
            verdict.conflict = [cell_rc(i, puzzle.cols) for i in minimal_conflict(puzzle, max_size, clock)]
        else:
            verdict.solutions = [to_grid(first, puzzle.cols)]
            block_labelling(lm, first)
            for x, v in zip(lm.labels, first, strict=True):
                lm.model.add_hint(x, v)
            second = _run(lm, clock, threads, proving=True)
            lm.model.clear_hints()
            if second is None:
                verdict.status = Status.UNIQUE
            else:
                verdict.status = Status.MULTIPLE
                verdict.solutions.append(to_grid(second, puzzle.cols))
                verdict.differ = differing_cells(*verdict.solutions)
    except BudgetExhausted:
        verdict = Verdict(Status.UNKNOWN, max_size=max_size, backend=NAME)
    verdict.seconds = time.perf_counter() - start
    return verdict


def _checked(lm: LabelModel, candidate: Grid, clock: Clock, threads: int) -> list[int] | None:
    """The candidate's labels if the model accepts them as a picture (every label fixed), else None."""
    labels = [v for row in candidate for v in row]
    if len(labels) != len(lm.labels) or any(v not in dom for v, dom in zip(labels, lm.domains, strict=True)):
        return None
    for x, v in zip(lm.labels, labels, strict=True):
        lm.model.add_hint(x, v)
    lm.fix_hints = True
    try:
        feasible, solver = _search(lm, clock, threads)
    finally:
        lm.model.clear_hints()
        lm.fix_hints = False
    return read_labels(solver, lm) if feasible else None


def enumerate_solutions(puzzle: Puzzle, *, max_size: int | None, budget: Budget) -> Iterator[Grid]:
    """Every picture exactly once (blocking on labels). Raises BudgetExhausted if the budget runs out."""
    clock = Clock.of(budget)
    lm = build_model(puzzle, max_size, check=lambda: _check(clock))
    while (labels := _run(lm, clock, 1)) is not None:
        yield to_grid(labels, puzzle.cols)
        block_labelling(lm, labels)


def minimal_conflict(puzzle: Puzzle, max_size: int | None, clock: Clock | None = None) -> list[int]:
    """A minimal set of clue cells with no picture, for a puzzle known to have none.

    One model whose domains ignore the clues, each clue tied to an assumption literal (so any subset of
    the assumptions is a faithful sub-puzzle): first a core of all the clues, then deletion, dropping each
    clue whose removal stays infeasible and narrowing to that solve's core. Every trial is a solve of the
    same model, not a new model (building one cost more than solving it: 2000 random 4x4 boards spent
    two thirds of their CP-SAT time here). Raises BudgetExhausted when the clock runs out first: a set
    that may not be minimal is never given as one.
    """
    clock = clock or Clock()
    conflict = puzzle.clue_cells()
    lm = build_model(puzzle, max_size, assume_clues=True, check=lambda: _check(clock))
    index_to_cell = {lit.index: cell for cell, lit in lm.clue_literals.items()}

    def core_if_infeasible(cells: list[int]) -> list[int] | None:
        feasible, solver = _search(lm, clock, 1, [lm.clue_literals[i] for i in cells])
        if feasible:
            return None
        core = {index_to_cell[k] for k in solver.sufficient_assumptions_for_infeasibility() if k in index_to_cell}
        return [i for i in cells if i in core]

    core = core_if_infeasible(conflict)
    conflict = conflict if core is None else core
    for cell in list(conflict):
        if cell not in conflict:
            continue
        trial = [i for i in conflict if i != cell]
        smaller = core_if_infeasible(trial)
        if smaller is not None:
            conflict = smaller
    return conflict
