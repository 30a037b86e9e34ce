"""One step of the logical solver and its audit STEPS lines (docs/usage/ambiguity.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

LEVELS = ("bookkeeping", "easy", "medium", "hard", "expert")
"""The ladder, gentlest first; a technique's level is one of these."""


@dataclass
class LogicStep:
    """A deduction: the technique, its level, the cells it touches (row-major indices), the sizes it
    removes per cell and the sizes it places per cell, and a sentence a person can follow."""

    technique: str
    level: str
    cells: list[int]
    sentence: str
    removes: dict[int, list[int]] = field(default_factory=dict)
    place: dict[int, int] = field(default_factory=dict)
    contradiction: bool = False
    """True when the step shows a broken rule (it empties a cell): the puzzle has no solution."""
    masks: dict[int, int] = field(default_factory=dict, repr=False, compare=False)
    """``removes`` as bitsets, when the technique had them (so the solver need not rebuild big ones)."""
    later: Callable[[], str] | None = field(default=None, repr=False, compare=False)
    """Inside a look-ahead's run, what works the sentence out when ``text()`` first asks (most are never read)."""

    def __init__(self, technique: str, level: str, cells: list[int], sentence: str,
                 removes: dict[int, list[int]] | None = None, place: dict[int, int] | None = None,
                 contradiction: bool = False, masks: dict[int, int] | None = None,
                 later: Callable[[], str] | None = None) -> None:
        # written out: compiled, the __init__ dataclass generates would run interpreted (a rating makes many steps)
        self.technique = technique
        self.level = level
        self.cells = cells
        self.sentence = sentence
        self.removes = {} if removes is None else removes
        self.place = {} if place is None else place
        self.contradiction = contradiction
        self.masks = {} if masks is None else masks
        self.later = later

    def __reduce__(self) -> tuple:
        # compiled, a class with its own __init__ is rebuilt by calling it: pickle (a worker pool's results) and
        # copy get its arguments
        return (LogicStep, (self.technique, self.level, self.cells, self.sentence, self.removes, self.place,
                            self.contradiction, self.masks, self.later))

    def text(self) -> str:
        """The sentence, worked out now if it was left for later."""
        if self.later is not None:
            self.sentence, self.later = self.later(), None
        return self.sentence

    def audit_steps(self, cols: int) -> list[dict]:
        """The step as audit STEPS objects: one removal or placement per cell."""
        out = []
        for c, v in self.place.items():
            out.append({"technique": self.technique, "cell": [c // cols, c % cols], "place": v})
        for c, vs in self.removes.items():
            if vs:
                out.append({"technique": self.technique, "cell": [c // cols, c % cols], "remove": sorted(vs)})
        return out

    def audit_lines(self, cols: int) -> str:
        """The JSON lines ``fillomino audit`` reads, newline-terminated."""
        return "".join(json.dumps(s) + "\n" for s in self.audit_steps(cols))

    def to_json(self, cols: int) -> dict:
        return {
            "technique": self.technique,
            "level": self.level,
            "cells": [[c // cols, c % cols] for c in self.cells],
            "sentence": self.sentence,
            "place": [[c // cols, c % cols, v] for c, v in self.place.items()],
            "removes": [[c // cols, c % cols, sorted(vs)] for c, vs in self.removes.items()],
            "contradiction": self.contradiction,
        }
