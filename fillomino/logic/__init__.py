"""A logical solver and difficulty rater: the human ladder of techniques over candidate grids.

``rate(puzzle) -> Rating``, ``hint(puzzle, marks=None) -> LogicStep | None``, ``check_level(puzzle)``
(certify's check of a ``level:`` header) and ``Solve`` (a rating's solve that stops once some cells are fixed
and is finished later, from the clues or from a given candidate grid: the generator's carving). Every step can
be written in the audit STEPS format and judged by ``fillomino.audit`` against the exact solutions.
"""

from __future__ import annotations

from .candidates import Board
from .rating import DEPTH, Rating, check_level, hint, rate
from .solver import FewerCollections, Solve
from .steps import LEVELS, LogicStep
from .techniques import LADDER, LOOKAHEADS, Lookahead, Trials

__all__ = ["DEPTH", "LADDER", "LEVELS", "LOOKAHEADS", "Board", "FewerCollections", "LogicStep", "Lookahead", "Rating",
           "Solve", "Trials", "check_level", "hint", "rate"]
