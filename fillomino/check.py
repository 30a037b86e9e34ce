"""Is an answer a solution? Lists every broken rule instance (R1 size, R2 numbered, R3 clue kept).

Follows the seed spec: a printed cell left unmarked counts as its clue; any other unmarked cell
becomes empty, which breaks R2.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .puzzle import UNMARKED, FillominoError, Grid, Puzzle, cell_name, groups

Cell = tuple[int, int]


@dataclass
class Violation:
    """One broken rule: R1 a group whose size is not its number, R2 a cell without a positive number,
    R3 a printed clue changed. ``cells`` are 0-based (row, column)."""

    rule: str
    number: int | None = None
    cells: list[Cell] = field(default_factory=list)
    clue: int | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"rule": self.rule, "number": self.number, "cells": [[r, c] for r, c in self.cells]}
        if self.rule == "R3":
            out["clue"] = self.clue
        return out

    def describe(self) -> str:
        """One line for people, cells named r1c4 (1-based) as in every text output."""
        where = ", ".join(cell_name(r, c) for r, c in self.cells)
        if self.rule == "R1":
            n = len(self.cells)
            return f"R1 region size: a group of {n} cell{'s' * (n != 1)} holds {self.number}: {where}"
        if self.rule == "R2":
            return f"R2 every cell numbered: cell {where} is empty or unmarked, not a positive number"
        return f"R3 printed numbers: clue {self.clue} at {where} was changed to {self.number}"


def finish(puzzle: Puzzle, answer: Grid) -> list[int]:
    """The answer row-major with unmarked cells resolved: a clue cell counts as its clue, others are empty."""
    if len(answer) != puzzle.rows or any(len(row) != puzzle.cols for row in answer):
        got = f"{len(answer)}x{len(answer[0]) if answer else 0}"
        raise FillominoError(f"answer is {got}, the puzzle is {puzzle.shape}")
    values = [v for row in answer for v in row]
    return [(clue if clue else 0) if v == UNMARKED else v for v, clue in zip(values, puzzle.clues, strict=True)]


def check_answer(puzzle: Puzzle, answer: Grid) -> list[Violation]:
    """Every violation of the answer, R1 then R2 then R3, each in row-major order; [] means solved."""
    values = finish(puzzle, answer)
    cols = puzzle.cols
    r1: list[Violation] = []
    for group in groups(values, puzzle.rows, cols):
        number = values[group[0]]
        if number > 0 and len(group) != number:
            r1.append(Violation("R1", number, [divmod(i, cols) for i in sorted(group)]))  # type: ignore[misc]
    r2 = [Violation("R2", None, [divmod(i, cols)]) for i, v in enumerate(values) if v < 1]  # type: ignore[list-item]
    r3 = [
        Violation("R3", v, [divmod(i, cols)], clue)  # type: ignore[list-item]
        for i, (v, clue) in enumerate(zip(values, puzzle.clues, strict=True))
        if clue and v != clue
    ]
    return r1 + r2 + r3
