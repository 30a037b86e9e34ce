"""One API over several backends: ``solve``, ``uniqueness`` and ``enumerate_solutions``.

Each backend is one small module implementing ``base.Backend`` (``cnf`` on python-sat, ``cpsat`` on
OR-tools) imported only when it is used, so a CNF question never pays OR-tools' start-up.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import cast

from ..puzzle import FillominoError, Grid, Puzzle, validate_max_size
from .base import Backend, Budget, Status, Verdict, differing_cells

BACKENDS = ("cnf", "cpsat")
DEFAULT_BACKEND = "cnf"

__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "Backend",
    "Budget",
    "BudgetExhausted",
    "Status",
    "Verdict",
    "differing_cells",
    "enumerate_solutions",
    "get_backend",
    "solve",
    "uniqueness",
]


class BudgetExhausted(FillominoError):
    """A time or conflict budget ran out before the question was settled (the answer is unknown)."""


def get_backend(name: str) -> Backend:
    """The backend module by name; its solver package is imported now, not before."""
    if name not in BACKENDS:
        raise FillominoError(f"unknown backend {name!r}: choose one of {', '.join(BACKENDS)}")
    return cast(Backend, importlib.import_module(f"{__name__}.{name}"))


def solve(
    puzzle: Puzzle,
    *,
    backend: str = DEFAULT_BACKEND,
    max_size: int | None = None,
    budget: Budget | None = None,
    threads: int = 1,
) -> Grid | None:
    """One solution, or None when there is none. Raises BudgetExhausted when the budget runs out."""
    validate_max_size(puzzle, max_size)
    return get_backend(backend).solve(puzzle, max_size=max_size, budget=budget or Budget(), threads=threads)


def uniqueness(
    puzzle: Puzzle,
    *,
    backend: str = DEFAULT_BACKEND,
    max_size: int | None = None,
    budget: Budget | None = None,
    threads: int = 1,
    candidate: Grid | None = None,
) -> Verdict:
    """Unique, multiple (two solutions and where they differ), none (a minimal conflicting clue set) or unknown.

    ``candidate`` is a grid believed to be a solution (a file's stored one). A backend may check it in
    its own model and start from it instead of searching for a first solution; the verdict never
    depends on it being right. CP-SAT uses it (that search is its slow half); CNF finds its own.
    """
    validate_max_size(puzzle, max_size)
    return get_backend(backend).uniqueness(
        puzzle, max_size=max_size, budget=budget or Budget(), threads=threads, candidate=candidate
    )


def enumerate_solutions(
    puzzle: Puzzle,
    *,
    backend: str = DEFAULT_BACKEND,
    max_size: int | None = None,
    budget: Budget | None = None,
) -> Iterator[Grid]:
    """Every solution exactly once, as they are found (a generator; stop it early to cap the work)."""
    validate_max_size(puzzle, max_size)
    return get_backend(backend).enumerate_solutions(puzzle, max_size=max_size, budget=budget or Budget())
