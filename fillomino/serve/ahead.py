"""Working ahead: while the setter looks at a grid, answer the edits most likely to come next.

Taking out a needed clue can cost the exact loose-cell search seconds of CPU, more than a page can wait.
Once a grid's own verdict and loose cells are settled, ``Ahead`` asks the verdict and the loose cells of
that grid with each clue taken out (reading order), one question at a time in one worker that gives way
to every other process, and hands each answer to the app, which caches a settled one exactly as it caches
a foreground answer: the removal the setter then makes is answered from the cache, the same exact answer
computed earlier. A newer settled grid replaces the queue, and the question in flight is killed unless it
is still wanted.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections import deque
from collections.abc import Callable

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


def removals(puzzle: Puzzle) -> list[Puzzle]:
    """The grid with each of its clues taken out on its own, in reading order."""
    return [puzzle.with_clues([0 if i == cell else v for i, v in enumerate(puzzle.clues)])
            for cell in puzzle.clue_cells()]


class Ahead:
    """One low-priority worker answering the removals of the newest settled grid, most recent grid only.

    ``ask(panel, puzzle)`` gives the question to send, or None when it is not needed (already settled, or
    settled by another answer); ``settle(panel, puzzle, question, answer)`` stores an answer the way a
    foreground one is stored (a budget-bound answer is not cached)."""

    def __init__(self, ask: Ask, settle: Settle) -> None:
        self.ask, self.settle = ask, settle
        self.target: str | None = None
        self.queue: deque[tuple[str, Puzzle]] = deque()
        self.wanted: set[tuple[str, str]] = set()
        self.current: tuple[str, str] | None = None
        self.answer: asyncio.Future | None = None
        self.worker: Worker | None = None
        self.task: asyncio.Task | None = None
        self.wake = asyncio.Event()
        self.closed = False
        self.idle = True
        """Nothing queued, nothing in flight."""
        self.answered = 0
        """Questions answered so far (settled or not): for tests and benchmarks."""
        self.spent = 0.0
        """CPU seconds of the workers already ended."""

    def look_at(self, puzzle: Puzzle) -> None:
        """The setter has ``puzzle``'s own answers: work on its removals instead of anything older."""
        pid = write_id(puzzle)
        if self.closed or pid == self.target:
            return
        self.target = pid
        self.queue = deque((name, grid) for grid in removals(puzzle) for name in PANELS)
        self.wanted = {(name, write_id(grid)) for name, grid in self.queue}
        if self.current is not None and self.current not in self.wanted:
            self._kill()
        self.idle = False
        self.wake.set()
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    def pending(self, key: tuple[str, str]) -> asyncio.Future | None:
        """The answer to ``key`` (panel, puzzle ID) when it is the question in flight, to race a foreground one."""
        return self.answer if key == self.current else None

    def cpu(self) -> float:
        """CPU seconds spent working ahead so far (on Linux; else 0): what a setter's pause lets it do."""
        return self.spent + (process_cpu(self.worker.process.pid) if self.worker is not None else 0.0)

    def _kill(self) -> None:
        if self.worker is not None:
            self.spent += process_cpu(self.worker.process.pid)
            self.worker.kill()
            self.worker = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while not self.closed:
            if not self.queue:
                self.idle = True
                self.wake.clear()
                await self.wake.wait()
                continue
            name, puzzle = self.queue.popleft()
            question = self.ask(name, puzzle)
            if question is None:
                continue
            if self.worker is None or not self.worker.alive:
                self.worker = await Worker.start(low_priority=True)
                if self.closed:
                    self._kill()
                    return
            key = (name, question["puzzle"])
            if key not in self.wanted:  # a newer grid came in while the worker started
                continue
            worker, self.current, self.answer = self.worker, key, loop.create_future()
            try:
                answer = await worker.ask(question)
            except (FillominoError, OSError, ValueError):  # killed for a newer grid (or it died): the next one
                if self.worker is worker:
                    self._kill()
                self.answer.cancel()
                continue
            finally:
                self.current = None
            self.answered += 1
            if "error" not in answer:
                self.settle(name, puzzle, question, answer)
            self.answer.set_result(answer)

    async def close(self) -> None:
        """Stop working ahead and end the worker (it leaves no process behind)."""
        self.closed = True
        worker = self.worker
        self._kill()
        self.wake.set()
        if self.task is not None:  # it ends on its own, so a worker it is starting is killed, not lost
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(self.task), 30)
            self.task.cancel()
        if worker is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(worker.process.wait(), 5)
