"""Fillomino: an exact SAT/CP-SAT engine to solve, prove uniqueness, count, generate and certify."""

from .puzzle import UNMARKED, FillominoError, Grid, Puzzle

__version__ = "0.1.0"

__all__ = ["UNMARKED", "FillominoError", "Grid", "Puzzle", "__version__"]
