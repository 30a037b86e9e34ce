"""A difficulty rating from a logical solve: level, score, technique counts, the steps."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast

from ..clock import Work
from ..puzzle import FillominoError, Puzzle, flatten, is_solution
from .candidates import Board
from .solver import Solve, deadline_of, solve
from .steps import LEVELS, LogicStep
from .techniques import LADDER, Lookahead, Trials, lookahead_of

RATED = ("easy", "medium", "hard", "expert")
DEPTH = {"easy": 0, "medium": 3, "hard": 2, "expert": 2}
"""Steps of its own level a puzzle must need to be rated at that level, so a medium is not an easy with
one medium step, nor a hard a medium with one look-ahead, nor an expert a hard with one long look-ahead
(fewer, and it rates at the next level down that has enough)."""
WEIGHT = {"bookkeeping": 0, "easy": 1, "medium": 3, "hard": 12, "expert": 40}
"""Score per step by level: orders puzzles within a level (more and harder steps, higher score)."""
TECHNIQUE_LEVEL = {t.name: t.level for t in LADDER}


@dataclass
class Rating:
    """How a person would solve a puzzle with the ladder. ``level`` is easy/medium/hard/expert when the
    techniques solve it, else "unrated"; ``state`` tells why: "solved", "stuck" (cells left open: the
    techniques stall, or the puzzle has several solutions), "contradiction" (a rule breaks: no solution)
    or "budget" (time ran out)."""

    level: str
    state: str
    score: int
    counts: dict[str, int]
    steps: list[LogicStep]
    open_cells: int
    seconds: float
    rows: int
    cols: int
    hardest: LogicStep | None = None
    used_level: str | None = None
    """The hardest level of any step (the level before the depth rule)."""
    final: list[list[list[int]]] = field(default_factory=list, repr=False)

    @property
    def solved(self) -> bool:
        return self.state == "solved"

    @property
    def contradiction(self) -> bool:
        return self.state == "contradiction"

    def audit_lines(self) -> str:
        """The whole step log in the audit STEPS format."""
        return "".join(s.audit_lines(self.cols) for s in self.steps)

    def to_json(self, steps: bool = False) -> dict:
        out = {
            "level": self.level,
            "state": self.state,
            "solved": self.solved,
            "score": self.score,
            "counts": self.counts,
            "open_cells": self.open_cells,
            "seconds": round(self.seconds, 6),
            "used_level": self.used_level,
            "hardest": None if self.hardest is None else self.hardest.to_json(self.cols),
            "step_count": len(self.steps),
        }
        if steps:
            out["steps"] = [s.to_json(self.cols) for s in self.steps]
        return out


def _budget_seconds(budget: object) -> float | None:
    if budget is None:
        return None
    if isinstance(budget, (int, float)):
        return float(budget)
    return getattr(budget, "seconds", None)


def level_of(counts: dict[str, int]) -> tuple[str, str | None]:
    """(level after the depth rule, hardest level used) from technique counts."""
    per_level = dict.fromkeys(LEVELS, 0)
    for name, n in counts.items():
        per_level[TECHNIQUE_LEVEL[name]] += n
    used = next((lv for lv in reversed(RATED) if per_level[lv]), None)
    if used is None:
        return "easy", None
    for lv in reversed(RATED):
        if per_level[lv] >= max(DEPTH[lv], 1) or lv == "easy":
            return lv, used
    return "easy", used


class Witness:
    """One solution of ``puzzle`` (row-major) for the look-ahead to skip the hypotheses it satisfies, worked out
    the first time it is asked for: ``given`` or the puzzle's stored solution when is_solution accepts it, else
    the CNF engine's, within the CPU time left before ``deadline`` (a time.process_time() value). None when the
    clues admit no solution or the time runs out: then nothing is skipped."""

    def __init__(self, puzzle: Puzzle, given: Sequence[Sequence[int]] | Sequence[int] | None = None,
                 deadline: float | None = None, *, engine: bool = True) -> None:
        self.puzzle = puzzle
        self.given = given
        self.deadline = deadline
        self.engine = engine
        """Whether to ask the CNF engine when neither ``given`` nor the stored solution is one."""
        self.asked = False
        self.values: list[int] | None = None

    def __call__(self) -> list[int] | None:
        if not self.asked:
            self.asked = True
            self.values = self._find()
        return self.values

    def _find(self) -> list[int] | None:
        puzzle = self.puzzle
        # read untyped: compiled, a typed read refuses a hand-built Puzzle whose solution is lists, not tuples
        stored: Sequence[Sequence[int]] | None = getattr(puzzle, "solution")  # noqa: B009
        for grid in (self.given, stored):
            if grid is not None and is_solution(puzzle, grid):
                if grid and isinstance(grid[0], (list, tuple)):
                    return flatten(cast("Sequence[Sequence[int]]", grid))
                return list(cast("Sequence[int]", grid))
        if not self.engine:
            return None
        # only ratings that look ahead pay for importing the engine
        from ..solvers import Budget
        from ..solvers import solve as engine_solve

        left = None if self.deadline is None else self.deadline - time.process_time()
        if left is not None and left <= 0:
            return None
        try:
            grid = engine_solve(puzzle, budget=Budget(seconds=left))
        except FillominoError:  # the budget ran out (or the engine refused the puzzle): rate without one
            return None
        return None if grid is None else flatten(grid)


def rate_board(board: Board, clues: tuple[int, ...] | list[int], rows: int, cols: int, *,
               budget: object = None, max_level: str = "expert", lookahead: str | Lookahead = "full",
               witness: Callable[[], list[int] | None] | None = None, trials: Trials | None = None) -> Rating:
    """Rate ``board`` (see rate). ``witness``: gives a solution of the puzzle (see solver.solve) or None."""
    start = time.process_time()
    deadline = deadline_of(budget if isinstance(budget, Work) else _budget_seconds(budget), start)
    if isinstance(witness, Witness) and witness.deadline is None and not isinstance(deadline, Work):
        witness.deadline = deadline
    run = solve(board, clues, max_level=max_level, deadline=deadline, lookahead=lookahead, witness=witness,
                trials=trials)
    return _rating(board, run.state, run.steps, time.process_time() - start, rows, cols)


def _rating(board: Board, state: str, steps: list[LogicStep], seconds: float, rows: int, cols: int) -> Rating:
    """The rating of a solve that ended in ``state`` on ``board`` with ``steps``: the one wording of level and score."""
    counts: dict[str, int] = {}
    for s in steps:
        counts[s.technique] = counts.get(s.technique, 0) + 1
    score = sum(WEIGHT[s.level] for s in steps)
    level, used = level_of(counts)
    if state != "solved":
        level = "unrated"
    top = max((LEVELS.index(s.level) for s in steps), default=0)
    hardest = next((s for s in steps if LEVELS.index(s.level) == top), None)
    if state == "contradiction":
        hardest = steps[-1] if steps else None
    return Rating(level, state, score, counts, steps, board.open_count(), seconds, rows, cols, hardest, used,
                  board.candidates_grid())


def rating_of(run: Solve) -> Rating:
    """The rating of a Solve as it stands (see Solve.finish, which carries it to its end first)."""
    return _rating(run.board, run.state, list(run.steps), run.seconds, run.rows, run.cols)


def rate(puzzle: Puzzle, *, budget: object = None, max_level: str = "expert",
         lookahead: str | Lookahead = "full", solution: Sequence[Sequence[int]] | Sequence[int] | None = None,
         witness: bool = True, trials: Trials | None = None) -> Rating:
    """Solve ``puzzle`` with the ladder and rate it. ``budget``: CPU seconds (or a solvers.Budget), or a
    clock.Work (units of the solver's own checks: it ends at the same step on every machine, and the engine's
    witness then has no time limit); when it runs out the rating is "unrated" with state "budget".
    ``seconds`` in the rating is CPU time too.
    ``max_level``: use only the techniques up to that level (a generator asking "can a person at this level
    solve it?"); a puzzle that needs more is "unrated" with state "stuck". ``lookahead``: what the look-ahead
    techniques run inside a hypothesis, a name of techniques.LOOKAHEADS ("full", the default, and cheaper ones
    measured in docs/benchmarks.md) or a Lookahead; a cheaper one is as sound but rates some puzzles harder.
    ``witness``: let the look-ahead skip the hypotheses a known solution satisfies (they can never break a
    rule, so the rating is the same, only sooner); the solution is ``solution`` (rows or row-major) or the
    puzzle's stored one when it is one, else the CNF engine's (its time counts against ``budget``). ``trials``:
    look-ahead trials already run (a techniques.Trials shared by many ratings; the same rating, only sooner)."""
    if max_level not in LEVELS:
        raise ValueError(f"max_level must be one of {', '.join(LEVELS)}, not {max_level!r}")
    lookahead = lookahead_of(lookahead)
    board = Board.from_puzzle(puzzle)
    return rate_board(board, puzzle.clues, puzzle.rows, puzzle.cols, budget=budget, max_level=max_level,
                      lookahead=lookahead, witness=Witness(puzzle, solution) if witness else None, trials=trials)


def hint(puzzle: Puzzle, marks: object = None, *, witness: bool = True) -> LogicStep | None:
    """The next step the ladder takes from the clues (and ``marks``, the user's candidate grid, when
    given), or None when no technique makes progress (or every cell is already decided). ``witness``: as
    in rate, but only the puzzle's stored solution (hint has no budget to spend on an engine call; a
    solution the marks rule out is not used)."""
    board = Board.from_puzzle(puzzle, marks)  # type: ignore[arg-type]
    empty = board.empty_cell()
    if empty is not None:
        name = board.name(empty)
        return LogicStep("region_complete", "bookkeeping", [empty],
                         f"{name} has no size left: the marks rule out every size there (or its clue)",
                         contradiction=True)
    # one step has no budget to charge an engine call to: only a stored solution serves as the witness
    run = solve(board, puzzle.clues, max_passes=1, witness=Witness(puzzle, engine=False) if witness else None)
    return run.steps[0] if run.steps else None


def refused_level_header(header: str) -> str | None:
    """One line when a ``level:`` header names no level (easy, medium, hard, expert or unrated), else None."""
    words = header.split()
    if not words or (words[0] not in RATED and words[0] != "unrated"):
        return f"level: header {header!r} is not one of easy, medium, hard, expert, unrated"
    return None


def level_mismatch(header: str | None, level: str, state: str) -> str | None:
    """None when a file's ``level:`` header (None: it has none) agrees with a rating's level and state, else
    one line saying what differs: the one wording of this check, for check_level and certify."""
    if header is None:
        return None
    refused = refused_level_header(header)
    if refused is not None:
        return refused
    said = header.split()[0]
    return None if said == level else f"level: the header says {said}, the rater says {level} ({state})"


def check_level(puzzle: Puzzle, *, budget: object = None) -> str | None:
    """None when the file's ``level:`` header matches the rating (or there is no header), else one line
    saying what differs (see level_mismatch); a header that names no level is refused before any rating."""
    want = puzzle.meta("level")
    if want is None or refused_level_header(want) is not None:
        return level_mismatch(want, "", "")
    got = rate(puzzle, budget=budget)
    return level_mismatch(want, got.level, got.state)
