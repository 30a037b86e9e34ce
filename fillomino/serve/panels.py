"""The analysis panels of the workbench: each takes a puzzle and a budget and returns plain JSON.

Panels are independent, so a new one is one function here plus one entry in ``PANELS`` (and one
renderer in the page's script). They run inside a worker process (``fillomino.serve.worker``).
A budget that runs out gives ``{"status": "unknown"}``, never a partial answer.
"""

from __future__ import annotations

from collections.abc import Callable

from ..puzzle import Puzzle
from ..solvers import Budget, BudgetExhausted

COUNT_LIMIT = 10_000
"""Solutions counted one by one at most before the count says "at least"."""
SUGGEST_TRIES = 2
"""Solutions tried as the one to keep: fewer than the CLI's default, the page wants them soon."""


def verdict(puzzle: Puzzle, budget: Budget) -> dict:
    """Unique / multiple (two answers, where they differ, both drawn) / none (conflicting clues) / unknown."""
    from ..render import render_diff_svg, render_svg
    from ..solvers import Status, uniqueness

    result = uniqueness(puzzle, budget=budget)
    out = result.to_json()
    out.pop("backend", None)
    if result.status == Status.MULTIPLE:
        out["picture"] = render_diff_svg(puzzle, result.solutions[0], result.solutions[1], cell_size=24)
    elif result.status == Status.UNIQUE:
        out["picture"] = render_svg(puzzle, result.solutions[0], cell_size=24)
    return out


def loose(puzzle: Puzzle, budget: Budget, candidates: list | None = None) -> dict:
    """Every cell with more than one possible value (exact), each with the values the solutions met showed
    (``complete`` says whether those are all of them); ``cells`` has every cell's, a forced cell's exact.

    ``candidates`` (rows of value lists) are values known to cover every solution's, such as the
    possible values of the same grid with fewer clues: the search then asks only about those. Which cells
    are loose comes first, without the proofs that a loose cell has no further value (the ``values`` panel's)."""
    return _possible(puzzle, budget, candidates, loose_only=True)


def values(puzzle: Puzzle, budget: Budget, candidates: list | None = None) -> dict:
    """The loose cells with all their possible values (exact): the ``loose`` panel's answer completed.
    ``candidates`` as for ``loose``; the server adds the forced cells the loose panel settled."""
    return _possible(puzzle, budget, candidates, loose_only=False)


def _possible(puzzle: Puzzle, budget: Budget, candidates: list | None, *, loose_only: bool) -> dict:
    from ..possible import possible

    try:
        result = possible(puzzle, budget=budget, candidates=candidates, loose_only=loose_only)
    except BudgetExhausted:
        return {"status": "unknown"}
    if not result.solvable:
        return {"status": "none", "loose": [], "forced": 0, "complete": True}
    return {
        "status": "unique" if result.unique else "multiple",
        "loose": [[r, c, values] for r, c, values in result.loose_cells()],
        "forced": result.forced,
        "cells": [[sorted(v) for v in row] for row in result.cells],
        "complete": result.values_complete,
    }


def count(puzzle: Puzzle, budget: Budget) -> dict:
    """How many solutions: exactly, or at least N when the limit or the budget stops the count."""
    from ..count import count as count_solutions

    result = count_solutions(puzzle, limit=COUNT_LIMIT, budget=budget)
    status = {"exact": "exact", "lower_bound": "at least"}.get(result.status, "unknown")
    return {"status": status, "count": result.count, "text": result.describe()}


def suggest(puzzle: Puzzle, budget: Budget) -> dict:
    """Clues (row, col, value) that make the grid unique, verified; none needed when already unique."""
    from ..suggest import suggest as suggest_clues

    try:
        result = suggest_clues(puzzle, budget=budget, tries=SUGGEST_TRIES)
    except BudgetExhausted:
        return {"status": "unknown"}
    return {"status": result.status, "clues": [list(t) for t in result.clues]}


def level(puzzle: Puzzle, budget: Budget) -> dict:
    """How hard for a person: the rater's level and score, its hardest step, and the next step as a hint."""
    from ..logic import hint, rate

    rating = rate(puzzle, budget=budget)
    step = hint(puzzle)
    return {
        "status": rating.state,
        "level": rating.level,
        "score": rating.score,
        "open_cells": rating.open_cells,
        "hardest": None if rating.hardest is None else rating.hardest.sentence,
        "hint": None if step is None else step.sentence,
        "hint_cells": [] if step is None else [[c // puzzle.cols, c % puzzle.cols] for c in step.cells],
    }


PANELS: dict[str, Callable[[Puzzle, Budget], dict]] = {
    "verdict": verdict,
    "loose": loose,
    "values": values,
    "count": count,
    "suggest": suggest,
    "level": level,
}


CANDIDATE_PANELS = ("loose", "values")
"""The panels that take ``candidates``: values known to cover every solution's."""


def run_panel(name: str, puzzle: Puzzle, seconds: float, candidates: list | None = None) -> dict:
    """One panel's answer; an unknown verdict from any budget is ``{"status": "unknown"}``.
    ``candidates`` go to the loose cells' panels only (see ``loose``)."""
    extra = {"candidates": candidates} if candidates is not None and name in CANDIDATE_PANELS else {}
    try:
        return PANELS[name](puzzle, Budget(seconds=seconds), **extra)
    except BudgetExhausted:
        return {"status": "unknown"}
