"""The one budget clock: what is left of a time and conflict budget, shared by every solve it is given to.

A question (or a whole command) starts one clock from its budget and hands it to every solver call it
makes; each call stops at the clock's end and charges the conflicts it spent, so no part of a budget is
granted twice. A spent clock means the answer is unknown, never a guess.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


class BudgetLike(Protocol):
    seconds: float | None
    conflicts: int | None


@dataclass
class Clock:
    """A wall-clock end (``time.monotonic()``) and/or a conflict allowance; None means no limit."""

    end: float | None = None
    conflicts: int | None = None
    parent: Clock | None = field(default=None, repr=False, compare=False)
    """The clock this one was cut from (``share``): every conflict charged here is charged there too."""

    @classmethod
    def after(cls, seconds: float | None, conflicts: int | None = None) -> Clock:
        """A clock that ends ``seconds`` from now and allows ``conflicts`` conflicts."""
        return cls(None if seconds is None else time.monotonic() + seconds, conflicts)

    @classmethod
    def of(cls, budget: BudgetLike) -> Clock:
        """A clock started now from a budget (``solvers.Budget``)."""
        return cls.after(budget.seconds, budget.conflicts)

    @property
    def limited(self) -> bool:
        return self.end is not None or self.conflicts is not None

    def seconds_left(self) -> float | None:
        """Seconds until the end (may be negative), or None without a time limit."""
        return None if self.end is None else self.end - time.monotonic()

    def late(self) -> bool:
        return self.end is not None and time.monotonic() >= self.end

    def spent(self) -> bool:
        """Whether the time is over or the conflicts are used up."""
        return self.late() or (self.conflicts is not None and self.conflicts <= 0)

    def charge(self, conflicts: int) -> None:
        """Count conflicts a solver call spent against the allowance (and the allowances it was cut from)."""
        if self.conflicts is not None:
            self.conflicts -= conflicts
        if self.parent is not None:
            self.parent.charge(conflicts)

    def share(self, conflicts: int) -> Clock:
        """A clock for one question: this one's end, at most ``conflicts`` of its conflicts, and charging them
        here as it spends them. Spent alone, it means the question was long; the budget may have time left."""
        allowance = conflicts if self.conflicts is None else min(conflicts, self.conflicts)
        return Clock(self.end, allowance, parent=self)


@dataclass
class Work:
    """A budget counted in a deterministic search's own checkpoints instead of time: each ``late()`` is one
    unit. The search stops at the same point on every machine, so what it decides (a generator's puzzle)
    never depends on the machine's speed or load."""

    left: int

    def late(self) -> bool:
        """Spend one unit; whether the budget is now spent."""
        self.left -= 1
        return self.left < 0


def alarm(end: float, action: Callable[[], object]) -> threading.Timer:
    """A daemon timer, started now, that calls ``action`` at ``end`` (a ``time.monotonic()`` value): how a solver
    call is stopped at a clock's end (pysat's interrupt). Cancel and join it before what ``action`` touches is
    freed."""
    timer = threading.Timer(max(0.0, end - time.monotonic()), action)
    timer.daemon = True
    timer.start()
    return timer


CPUS = os.cpu_count() or 1024
"""The most CPU seconds the process can spend in a second of wall time (unknown: far more than any machine)."""

_gate: tuple[float, float] = (math.nan, 0.0)
"""(a CPU deadline, a ``time.perf_counter()`` value before which that deadline cannot have passed)."""


def past(deadline: float | Work | None) -> bool:
    """Whether a CPU deadline (a ``time.process_time()`` value) has passed or a Work budget is spent (this check
    counting as one unit); None never is.

    The process's CPU time, a system call (about 0.8 us; the rater asks hundreds of thousands of times), is
    read only once the wall clock (a few tens of ns) says the deadline could have passed: between two readings
    the CPU time grows by at most the wall time times the CPUs, so the answer is the same as reading it every
    time."""
    if deadline is None:
        return False
    if isinstance(deadline, Work):
        return deadline.late()
    global _gate
    wall = time.perf_counter()
    gate = _gate
    if gate[0] == deadline and wall < gate[1]:
        return False
    cpu = time.process_time()
    if cpu > deadline:
        return True
    _gate = (deadline, wall + (deadline - cpu) / CPUS)
    return False


def spent(deadline: float | Work | None) -> bool:
    """Whether the budget has already run out, without spending a Work unit: asking it must not move where a
    Work-budgeted search stops."""
    if isinstance(deadline, Work):
        return deadline.left < 0
    return past(deadline)
