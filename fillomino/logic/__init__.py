"""A logical solver and difficulty rater: the human ladder of techniques over candidate grids.

``rate(puzzle) -> Rating``, ``hint(puzzle, marks=None) -> LogicStep | None`` and ``check_level(puzzle)``
(certify's check of a ``level:`` header). Every step can be written in the audit STEPS format and
judged by ``fillomino.audit`` against the exact solutions.
"""

from __future__ import annotations

from .candidates import Board
from .rating import DEPTH, Rating, check_level, hint, rate
from .steps import LEVELS, LogicStep
from .techniques import LADDER, LOOKAHEADS, Lookahead

__all__ = ["DEPTH", "LADDER", "LEVELS", "LOOKAHEADS", "Board", "LogicStep", "Lookahead", "Rating", "check_level",
           "hint", "rate"]
