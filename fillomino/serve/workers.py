"""Worker processes that compute panels off the server's event loop, and can be killed mid-question.

A question is handed to an idle worker (a warm process with the solvers loaded); when its answer is
no longer wanted (a newer edit, a closed page) the task awaiting it is cancelled and the worker is
killed, so an abandoned search never keeps a core busy. ``warm`` idle workers are kept ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from pathlib import Path

from ..puzzle import FillominoError

PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
"""The folder holding this ``fillomino`` package, so workers import the same code as the server."""


READY = 2
"""Idle workers started soon after one was used or killed: the page's first two panels need them."""

FIRST_PANELS = frozenset({"verdict", "loose"})
"""The panels the page asks first after each edit (and waits on): no worker starts while one of them runs, since
starting one costs a core about 0.15 s, which it would take from them on a two-core machine."""


class Worker:
    """One ``python -m fillomino.serve.worker`` process and its pipes."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, low_priority: bool = False) -> Worker:
        """A new worker; ``low_priority``: one that gives way to every other process (working ahead)."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_ROOT, env.get("PYTHONPATH")) if p)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "fillomino.serve.worker", *(["--low-priority"] if low_priority else []),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env,
            start_new_session=True,  # its own process group: a kill also ends what it started (a Ganak count)
            limit=64 * 1024 * 1024,  # one answer is one line: a big board's pictures are long
        )
        return cls(process)

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    async def ask(self, request: dict) -> dict:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write((json.dumps(request) + "\n").encode())
        await self.process.stdin.drain()
        line = await self.process.stdout.readline()
        if not line:
            raise FillominoError("the analysis worker stopped unexpectedly")
        return json.loads(line)

    def kill(self) -> None:
        """End the worker and every process it started."""
        if self.alive:  # once reaped, its group id may belong to someone else
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)


class Pool:
    """Idle workers kept warm; ``run`` borrows one, and kills it when cancelled."""

    def __init__(self, warm: int = 4) -> None:
        self.warm = warm
        self.idle: list[Worker] = []
        self.busy: set[Worker] = set()
        self.closed = False
        self.first_running = 0
        """Questions of FIRST_PANELS being answered now."""
        self._tasks: set[asyncio.Task] = set()

    async def _start_one(self) -> None:
        worker = await Worker.start()
        if self.closed:
            worker.kill()
        else:
            self.idle.append(worker)

    def top_up(self) -> None:
        """Start workers in the background: none while a first panel is being answered, then ``READY`` idle ones
        (the next edit's first panels), the rest up to ``warm`` only while no question runs, so starting them never
        slows an answer."""
        if self.first_running:
            return
        want = self.warm if not self.busy else min(self.warm, READY)
        while not self.closed and len(self.idle) + len(self._tasks) < want:
            task = asyncio.get_running_loop().create_task(self._start_one())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def run(self, request: dict) -> dict:
        """The answer of one worker to ``request``; cancelling the caller kills that worker."""
        while self.idle and not self.idle[-1].alive:
            self.idle.pop()
        worker = self.idle.pop() if self.idle else await Worker.start()
        first = request.get("panel") in FIRST_PANELS
        self.first_running += first
        self.busy.add(worker)
        self.top_up()
        try:
            answer = await worker.ask(request)
        except BaseException:
            worker.kill()
            self._off_duty(worker, first)
            self.top_up()
            raise
        self._off_duty(worker, first)
        if not self.closed and worker.alive and len(self.idle) < self.warm:
            self.idle.append(worker)
        else:
            worker.kill()
        self.top_up()
        return answer

    def _off_duty(self, worker: Worker, first: bool) -> None:
        self.busy.discard(worker)
        self.first_running -= first

    async def close(self) -> None:
        self.closed = True
        for task in list(self._tasks):
            task.cancel()
        workers = [*self.idle, *self.busy]
        self.idle.clear()
        self.busy.clear()
        for worker in workers:
            worker.kill()
        for worker in workers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(worker.process.wait(), 5)
