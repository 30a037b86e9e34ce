"""Working ahead: while the setter looks at a grid, answer the edits most likely to come next.

Taking out a needed clue can cost the exact loose-cell search seconds of CPU, more than a page can wait.
Once a grid's own verdict and loose cells are settled, ``Ahead`` asks the verdict and the loose cells of
that grid with each clue taken out (reading order; back from taking clue x out, from the clue after x: a
setter going through the clues takes that one out next), in workers that give way to every other process, and
hands each answer to the app, which caches a settled one exactly as it caches a foreground answer: the
removal the setter then makes is answered from the cache, the same exact answer computed earlier.

A newer settled grid goes first; the last few grids' removals not yet answered stay queued after its own,
and a question in flight is killed only when none of them wants it: a setter who takes a clue out, tries
something and puts the clue back returns to the grid the background was working on, so its work is kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections import deque
from collections.abc import Callable, Iterable

from ..formats import write_id
from ..puzzle import FillominoError, Puzzle
from .workers import Worker

PANELS = ("verdict", "loose")
"""What the page waits for after an edit, so what is worked out ahead for each removal."""

Ask = Callable[[str, Puzzle], "dict | None"]
Settle = Callable[[str, Puzzle, dict, dict], None]


def process_cpu(pid: int) -> float:
    """CPU seconds a process has used (Linux ``/proc``; 0 where there is none)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


LANES = min(2, os.cpu_count() or 1)
"""Background workers (one per core, two at most): an idle two-core machine works twice as far ahead."""
HISTORY = 3
"""Grids whose removals stay queued: the newest and the two before it."""


def removals(puzzle: Puzzle) -> list[Puzzle]:
    """The grid with each of its clues taken out on its own, in reading order."""
    return [puzzle.with_clues([0 if i == cell else v for i, v in enumerate(puzzle.clues)])
            for cell in puzzle.clue_cells()]


def taken_out(puzzle: Puzzle, other: Puzzle) -> int | None:
    """The cell of the one clue of ``puzzle`` that ``other`` lacks when that is their only difference, else None."""
    if (puzzle.rows, puzzle.cols) != (other.rows, other.cols):
        return None
    differ = [c for c, (a, b) in enumerate(zip(puzzle.clues, other.clues)) if a != b]
    return differ[0] if len(differ) == 1 and other.clues[differ[0]] == 0 else None


class Ahead:
    """Low-priority workers (``lanes``) answering the removals of the newest settled grids, newest first.

    ``ask(panel, puzzle)`` gives the question to send, or None when it is not needed (already settled, or
    settled by another answer); ``settle(panel, puzzle, question, answer)`` stores an answer the way a
    foreground one is stored (a budget-bound answer is not cached)."""

    def __init__(self, ask: Ask, settle: Settle, lanes: int = LANES, history: int = HISTORY) -> None:
        self.ask, self.settle = ask, settle
        self.lanes, self.history = max(1, lanes), max(1, history)
        self.grids: list[tuple[str, Puzzle]] = []
        """The grids whose removals are wanted, newest first."""
        self.queue: deque[tuple[str, Puzzle]] = deque()
        self.wanted: set[tuple[str, str]] = set()
        self.flight: dict[tuple[str, str], asyncio.Future] = {}
        """The questions in flight (panel, puzzle ID) and their answers to come."""
        self.workers: list[Worker | None] = [None] * self.lanes
        self.asking: list[tuple[str, str] | None] = [None] * self.lanes
        self.busy = [False] * self.lanes
        """Lanes between taking a question off the queue and being done with it."""
        self.tasks: list[asyncio.Task] = []
        self.wake = asyncio.Event()
        self.closed = False
        self.answered = 0
        """Questions answered so far (settled or not): for tests and benchmarks."""
        self.spent = 0.0
        """CPU seconds of the workers already ended."""

    @property
    def target(self) -> str | None:
        """The newest grid whose removals are worked out."""
        return self.grids[0][0] if self.grids else None

    @property
    def idle(self) -> bool:
        """Nothing queued, nothing in flight."""
        return not self.queue and not self.flight and not any(self.busy)

    @property
    def worker(self) -> Worker | None:
        """A background worker alive now (the first lane's first), if any."""
        return next((w for w in self.workers if w is not None), None)

    def look_at(self, puzzle: Puzzle) -> None:
        """The setter has ``puzzle``'s own answers: work on its removals first, then on the grids seen before it."""
        pid = write_id(puzzle)
        if self.closed or pid == self.target:
            return
        first = self._likely_order(puzzle)
        self.grids = [(pid, puzzle), *[(g, p) for g, p in self.grids if g != pid]][: self.history]
        grids = [first, *(removals(p) for _, p in self.grids[1:])]
        questions = ((name, grid) for some in grids for grid in some for name in PANELS)
        self.queue = deque(_unique(questions))
        self.wanted = {(name, write_id(grid)) for name, grid in self.queue}
        for lane, key in enumerate(self.asking):
            if key is not None and key not in self.wanted:
                self._kill(lane)
        self.wake.set()
        if not self.tasks:
            loop = asyncio.get_running_loop()
            self.tasks = [loop.create_task(self._run(lane)) for lane in range(self.lanes)]

    def _likely_order(self, puzzle: Puzzle) -> list[Puzzle]:
        """``puzzle``'s removals, the likeliest next first: a setter back from taking clue x out (the newest grid
        seen with only x missing) who goes through the clues one by one takes out the clue after x next, so the
        removals start there (in reading order, round to the first)."""
        grids = removals(puzzle)
        for _, older in self.grids:
            gone = taken_out(puzzle, older)
            if gone is not None:
                at = puzzle.clue_cells().index(gone) + 1
                return grids[at:] + grids[:at]
        return grids

    def pending(self, key: tuple[str, str]) -> asyncio.Future | None:
        """The answer to ``key`` (panel, puzzle ID) when it is a question in flight, to race a foreground one."""
        return self.flight.get(key)

    def cpu(self) -> float:
        """CPU seconds spent working ahead so far (on Linux; else 0): what a setter's pause lets it do."""
        return self.spent + sum(process_cpu(w.process.pid) for w in self.workers if w is not None)

    def pids(self) -> list[int]:
        return [w.process.pid for w in self.workers if w is not None]

    def _kill(self, lane: int) -> None:
        worker = self.workers[lane]
        if worker is not None:
            self.spent += process_cpu(worker.process.pid)
            worker.kill()
            self.workers[lane] = None

    async def _run(self, lane: int) -> None:
        while not self.closed:
            if not self.queue:
                self.wake.clear()
                await self.wake.wait()
                continue
            self.busy[lane] = True
            try:
                await self._answer(lane, *self.queue.popleft())
            finally:
                self.busy[lane] = False

    async def _answer(self, lane: int, name: str, puzzle: Puzzle) -> None:
        """One question of the queue, unless it is settled already or another lane is on it."""
        question = self.ask(name, puzzle)
        if question is None:
            return
        key = (name, question["puzzle"])
        if key in self.flight:
            return
        worker = self.workers[lane]
        if worker is None or not worker.alive:
            worker = self.workers[lane] = await Worker.start(low_priority=True)
            if self.closed:
                self._kill(lane)
                return
        if key not in self.wanted or key in self.flight:  # a newer grid came in while the worker started
            return
        answer_to = self.flight[key] = asyncio.get_running_loop().create_future()
        self.asking[lane] = key
        try:
            answer = await worker.ask(question)
        except (FillominoError, OSError, ValueError):  # killed for a newer grid (or it died): the next one
            if self.workers[lane] is worker:
                self._kill(lane)
            answer_to.cancel()
            return
        finally:
            self.asking[lane] = None
            self.flight.pop(key, None)
        self.answered += 1
        if "error" not in answer:
            self.settle(name, puzzle, question, answer)
        answer_to.set_result(answer)

    async def close(self) -> None:
        """Stop working ahead and end the workers (they leave no process behind)."""
        self.closed = True
        workers = [w for w in self.workers if w is not None]
        for lane in range(self.lanes):
            self._kill(lane)
        self.wake.set()
        for task in self.tasks:  # each ends on its own, so a worker it is starting is killed, not lost
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(task), 30)
            task.cancel()
        for worker in workers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(worker.process.wait(), 5)


def _unique(questions: Iterable[tuple[str, Puzzle]]) -> list[tuple[str, Puzzle]]:
    """Each question once (the first time it comes), in order. A grid is its shape and clues: the kept grids
    may differ in shape, and a 2x3 and a 3x2 grid can have the same clue tuple."""
    seen: set[tuple[str, int, int, tuple[int, ...]]] = set()
    out = []
    for name, grid in questions:
        key = (name, grid.rows, grid.cols, grid.clues)
        if key not in seen:
            seen.add(key)
            out.append((name, grid))
    return out
