"""The logical solver: apply the gentlest technique that makes progress, until solved, stuck or a rule breaks."""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..clock import Work, past, spent
from .candidates import Board, Contradiction, bit, values_of
from .steps import LEVELS, LogicStep
from .techniques import LADDER, Context, Lookahead, Trials, dirty_of, lookahead_of

if TYPE_CHECKING:  # rating.py imports this module
    from .rating import Rating

YOUNG_OBJECTS = 50_000
"""The cyclic GC's first threshold while a top-level solve runs (see _Collections)."""


class _Collections:
    """Fewer passes of the cyclic GC while top-level solves run, the caller's thresholds put back when the last one
    ends: the ladder makes and drops hundreds of thousands of short-lived lists, sets and tuples, none in a reference
    cycle, and with the default threshold (700) the collector walks them over and over (3-7% of the CPU time of a
    rating or a generation, docs/benchmarks.md). A caller that has turned collection off (threshold 0) keeps it off."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.depth = 0
        self.saved: tuple[int, int, int] | None = None
        """The caller's thresholds, while ours are set."""

    def enter(self) -> None:
        with self.lock:
            if self.depth == 0:
                saved = gc.get_threshold()
                if 0 < saved[0] < YOUNG_OBJECTS:
                    self.saved = saved
                    gc.set_threshold(YOUNG_OBJECTS, saved[1], saved[2])
            self.depth += 1

    def leave(self) -> None:
        with self.lock:
            self.depth -= 1
            if self.depth == 0 and self.saved is not None:
                if gc.get_threshold()[0] == YOUNG_OBJECTS:  # unless the caller set thresholds of its own meanwhile
                    gc.set_threshold(*self.saved)
                self.saved = None


_COLLECTIONS = _Collections()


class FewerCollections:
    """The solver's raised GC threshold held across many top-level solves in a row (``with FewerCollections():``):
    between solves the caller's threshold would come back while the last solve's young objects still count, so
    the collector would walk them once after every solve (a generator carving a big grid makes hundreds)."""

    def __enter__(self) -> None:
        _COLLECTIONS.enter()

    def __exit__(self, *exc: object) -> None:
        _COLLECTIONS.leave()


@dataclass
class Run:
    """A solver run: the steps in order, grouped into passes (one technique application each), and how it ended:
    "solved" (one value in every cell, every group its size), "stuck", "contradiction", "budget" or "fixed"
    (stopped once the cells of ``until_fixed`` were fixed; see solve)."""

    board: Board
    steps: list[LogicStep] = field(default_factory=list)
    passes: list[str] = field(default_factory=list)
    state: str = "stuck"

    def __init__(self, board: Board, steps: list[LogicStep] | None = None, passes: list[str] | None = None,
                 state: str = "stuck") -> None:
        # written out: compiled, the __init__ dataclass generates would run interpreted (one a solve, look-ahead
        # trials included)
        self.board = board
        self.steps = [] if steps is None else steps
        self.passes = [] if passes is None else passes
        self.state = state

    def __reduce__(self) -> tuple:
        # compiled, a class with its own __init__ is rebuilt by calling it: pickle and copy get its arguments
        return (Run, (self.board, self.steps, self.passes, self.state))


def _contradiction_step(b: Board, technique: str, level: str, exc: Contradiction) -> LogicStep:
    cell = exc.cell
    return LogicStep(technique, level, [cell], f"{exc.sentence}: no solution is left",
                     {cell: values_of(b.cand[cell])}, {}, contradiction=True)


def _apply(b: Board, step: LogicStep) -> bool:
    """Apply a step; whether it left a cell without candidates."""
    empty = False
    for c, v in step.place.items():
        b.cand[c] &= bit(v)
        b.log.append(c)
        empty = empty or not b.cand[c]
    for c, vs in step.removes.items():
        mask = step.masks.get(c, 0)
        if not mask:
            for v in vs:
                mask |= 1 << v
        b.cand[c] &= ~mask
        b.log.append(c)
        empty = empty or not b.cand[c]
    b.changed([*step.place, *step.removes])
    return empty


def _verify(b: Board, clues: Sequence[int]) -> None:
    """On a grid without open cells: raise Contradiction when some group is not its size."""
    for g in b.groups():
        if len(g.cells) != g.value:
            word = "more" if len(g.cells) > g.value else "fewer"
            raise Contradiction(g.cells[0],
                                f"{b.describe_group(g, clues)} has {len(g.cells)} cells, {word} than {g.value}")


def solve(board: Board, clues: Sequence[int], *, max_level: str = "expert", max_passes: int | None = None,
          deadline: float | Work | None = None, nested: bool = False, lookahead: str | Lookahead = "full",
          incremental: bool = True, witness: Callable[[], list[int] | None] | None = None,
          until_fixed: Collection[int] | None = None, trials: Trials | None = None) -> Run:
    """Run the ladder (techniques up to ``max_level``) on ``board`` in place, for at most ``max_passes``
    technique applications and until ``deadline`` (a time.process_time() value: CPU time, so that a
    budget means the same on a busy machine; or a clock.Work, the same on every machine). ``lookahead``:
    what runs inside a hypothesis (a name of
    techniques.LOOKAHEADS or a Lookahead). ``incremental``: techniques look again only at what changed
    since they last found nothing (False: the whole grid every pass, in the look-ahead's runs too; the
    steps are the same either way, which tests/test_logic.py checks). ``witness``: gives a solution of the
    puzzle (row-major) or None; the look-ahead then skips the hypotheses that solution satisfies, which can
    never break a rule, so the steps are the same with or without it (tests/test_logic.py checks that too).
    ``until_fixed``: stop with state "fixed" after the first pass that leaves every one of these cells with one
    candidate; the board and steps are then those of the whole run so far, and solving the board again carries
    on with the very passes the whole run would make (see Solve). ``trials``: look-ahead trials already run
    (techniques.Trials, shared by the solves of one generation), whose outcomes are given again instead of running
    them, their Work charged: the same steps and budget left either way (tests/test_logic.py checks)."""
    if not nested:
        _COLLECTIONS.enter()
    try:
        return _solve(board, clues, max_level, max_passes, deadline, nested, lookahead, incremental, witness,
                      until_fixed, trials)
    finally:
        if not nested:
            _COLLECTIONS.leave()


def _solve(board: Board, clues: Sequence[int], max_level: str, max_passes: int | None, deadline: float | Work | None,
           nested: bool, lookahead: str | Lookahead, incremental: bool, witness: Callable[[], list[int] | None] | None,
           until_fixed: Collection[int] | None, trials: Trials | None) -> Run:
    """solve's ladder (solve itself sets the cyclic GC's threshold around a top-level run)."""
    top = LEVELS.index(max_level)
    ladder = [t for t in LADDER if LEVELS.index(t.level) <= top]
    ctx = Context(clues, solve, deadline, nested, lookahead=lookahead_of(lookahead), incremental=incremental,
                  witness=witness, trials=trials)
    run = Run(board)
    empty = board.empty_cell()
    if empty is not None:
        run.state = "contradiction"
        return run
    while True:
        if max_passes is not None and len(run.passes) >= max_passes:
            run.state = "stuck"
            return run
        late = past(deadline)
        if not board.any_open():
            try:
                _verify(board, clues)
            except Contradiction as exc:
                step = _contradiction_step(board, "region_complete", "bookkeeping", exc)
                _apply(board, step)
                run.steps.append(step)
                run.passes.append(step.technique)
                run.state = "contradiction"
                return run
            run.state = "solved"
            return run
        # after the solved check: a budget spent in the pass that fixed the last cell still ends "solved"
        if late:
            run.state = "budget"
            return run
        for t in ladder:
            ctx.dirty = None
            if incremental and not t.lookahead:
                ctx.dirty = dirty_of(board, t.name, deadline)
                if ctx.dirty is not None and not ctx.dirty:
                    continue  # nothing changed since it last found nothing
            try:
                found = t.apply(board, ctx)
            except Contradiction as exc:
                found = [_contradiction_step(board, t.name, t.level, exc)]
            if not found:
                if spent(deadline):
                    # a technique the budget cut short may have missed a step: a later one must not run instead
                    run.state = "budget"
                    return run
                if incremental and not t.lookahead and not past(deadline):
                    board.clean[t.name] = len(board.log)
                continue
            run.passes.append(t.name)
            for step in found:
                run.steps.append(step)
                if _apply(board, step):
                    step.contradiction = True
                    run.state = "contradiction"
                    return run
            if until_fixed is not None and all(not board.cand[c] & (board.cand[c] - 1) for c in until_fixed):
                run.state = "fixed"
                return run
            break
        else:
            # every technique ran to its end and found nothing; the check still costs its Work unit, as it always
            # has, so that Work budgets stop where they did
            past(deadline)
            run.state = "stuck"
            return run


def deadline_of(budget: float | Work | None, start: float) -> float | Work | None:
    """What solve watches for a budget: CPU seconds become the time.process_time() value they end at (counted
    from ``start``); a Work budget is watched as it is, and None is no limit."""
    if budget is None or isinstance(budget, Work):
        return budget
    return start + budget


class Solve:
    """A rating's solve that can stop as soon as some cells are fixed (``run(until_fixed=...)``) and be finished
    later (``finish``): what a generator needs to ask "does this clue set still solve?" and stop once the answer
    is known, yet rate the clue set in full when it turns out to be the one kept.

    Stopping and carrying on changes no step: a stopped run's board and steps are those of the whole run so far,
    and the ladder looks only at the board (and what it recorded there). ``clues``: the puzzle's clues, row-major
    (0: empty). ``start``: a candidate grid (row-major bitsets, bit v: size v) to start from instead of every
    size everywhere, the clues kept as given -- for instance the grid where a solve of fewer of these clues got
    stuck, which the steps of this solve only narrow further (its steps are then not the rating's).
    ``budget``: CPU seconds for all its runs together, or a clock.Work they share ("budget" once spent); the rest
    as in solve."""

    def __init__(self, rows: int, cols: int, clues: Sequence[int], *, max_level: str = "expert",
                 budget: float | Work | None = None, lookahead: str | Lookahead = "full",
                 witness: Callable[[], list[int] | None] | None = None, start: Sequence[int] | None = None,
                 trials: Trials | None = None) -> None:
        self.rows, self.cols = rows, cols
        self.clues = tuple(clues)
        self.max_level = max_level
        self.lookahead = lookahead
        self.witness = witness
        self.trials = trials
        self.left = budget
        """CPU seconds left for its runs, or the Work they share (None: no limit)."""
        if start is None:
            self.board = Board.from_clues(rows, cols, self.clues)
        else:
            self.board = Board(rows, cols, [m if not v else bit(v) for m, v in zip(start, self.clues, strict=True)])
        self.steps: list[LogicStep] = []
        self.state = "stuck"
        """How its last run ended (see Run)."""
        self.ended = False
        """Whether it has come to its end: a run made without stopping early."""
        self.seconds = 0.0
        """CPU seconds its runs took."""

    def candidates(self) -> list[int]:
        """The candidate grid now (row-major bitsets, the solve's own list: read it, do not change it)."""
        return self.board.cand

    def fixed(self) -> frozenset[int]:
        """The cells with one candidate left."""
        return frozenset(c for c, m in enumerate(self.board.cand) if not m & (m - 1))

    def run(self, until_fixed: Collection[int] | None = None) -> str:
        """Carry the solve on, until every cell of ``until_fixed`` is fixed ("fixed") or (None) to its end;
        how it ended: "fixed", "solved", "stuck", "budget" or "contradiction"."""
        start = time.process_time()
        deadline = deadline_of(self.left, start)
        try:
            run = solve(self.board, self.clues, max_level=self.max_level, deadline=deadline,
                        lookahead=self.lookahead, witness=self.witness, until_fixed=until_fixed, trials=self.trials)
        finally:
            spent = time.process_time() - start
            self.seconds += spent
            if self.left is not None and not isinstance(self.left, Work):
                self.left -= spent
        self.steps.extend(run.steps)
        self.state = run.state
        self.ended = run.state != "fixed"
        return run.state

    def finish(self) -> Rating:
        """The rating (a rating.Rating) of the whole solve: the rest of it run first, unless it has ended."""
        from .rating import rating_of

        if not self.ended:
            self.run()
        return rating_of(self)
