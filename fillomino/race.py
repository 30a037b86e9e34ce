"""Run the same exact question several ways at once, one forked process each, and keep the first answer.

Only for questions whose answer does not depend on who answers (an exact "unique or not"): the
winner changes the time, never the result. Where racing cannot work (no ``fork``: Windows; macOS, where
it is unsafe with threads; a daemonic pool worker) or one way is asked for, the first way runs in this
process instead.
"""

from __future__ import annotations

import multiprocessing
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import wait
from typing import Any, TypeVar

T = TypeVar("T")


def can_race() -> bool:
    """Whether this process can fork workers: a fork-safe platform (Linux), and not itself a daemonic
    worker (say of a multiprocessing pool), which may not have children."""
    return (
        "fork" in multiprocessing.get_all_start_methods()
        and sys.platform != "darwin"
        and not multiprocessing.current_process().daemon
    )


def first_answer(
    ways: Sequence[Callable[[], T]],
    settled: Callable[[T], bool] = lambda _: True,
    timeout: float | None = None,
    isolate: bool = False,
) -> T:
    """The first result of ``ways`` that is ``settled``; the other ways are stopped.

    A result that is not settled (say a budget ran out) is returned only when no way settles; a
    way that raises counts only if every way did, so one racer's crash or give-up never decides.
    After ``timeout`` seconds every racer is stopped: an unsettled result is returned if there is
    one, else TimeoutError is raised. One way runs in this process, and keeps to its own time limit,
    unless ``isolate`` (a way that cannot stop itself in time).
    """
    if not ways:
        raise ValueError("first_answer needs at least one way")
    if (len(ways) == 1 and not isolate) or not can_race():
        return ways[0]()
    ctx = multiprocessing.get_context("fork")
    workers: dict[Any, Any] = {}
    try:
        for k, way in enumerate(ways):
            here, there = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_serve, args=(way, there), name=f"fillomino-race-{k}", daemon=True)
            proc.start()
            there.close()
            workers[here] = (k, proc)
        failures: dict[int, str] = {}
        unsettled: dict[int, T] = {}
        end = None if timeout is None else time.monotonic() + timeout
        while workers:
            left = None if end is None else end - time.monotonic()
            ready = wait(list(workers), timeout=None if left is None else max(0.0, left))
            if not ready:
                break  # timed out: the finally clause stops the racers still running
            for conn in ready:
                k, proc = workers.pop(conn)
                try:
                    ok, value = conn.recv()
                except EOFError:
                    ok, value = False, None
                conn.close()
                proc.join()
                if value is None and not ok:
                    value = f"racer {k} died without an answer (exit code {proc.exitcode})"
                if ok and settled(value):
                    return value
                if ok:
                    unsettled[k] = value
                else:
                    failures[k] = value
        if unsettled:
            return unsettled[min(unsettled)]
        if workers:
            raise TimeoutError(f"no racer answered within {timeout} s")
        first = failures[min(failures)].strip().splitlines()[-1]  # the exception line of its traceback
        raise RuntimeError(f"every racer failed; the first with: {first}")
    finally:
        for conn, (_, proc) in workers.items():
            proc.kill()
            proc.join()
            conn.close()


def _serve(way: Callable[[], Any], conn: Any) -> None:
    try:
        result = (True, way())
    except BaseException:  # reported to the parent, which decides
        result = (False, traceback.format_exc())
    conn.send(result)
    conn.close()
