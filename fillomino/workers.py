"""Run many independent jobs (a puzzle to certify, a seed to generate) here, on local processes, or on a cluster.

One interface for the three: :func:`run_jobs` takes a picklable function and its jobs, sends them out in
chunks (the costliest first, so no process waits alone on a big puzzle at the end; small jobs grouped so
that a 10 ms puzzle does not pay a task's overhead), and hands each result back in this process as its
chunk finishes. On a Dask cluster (``Workers(scheduler="tcp://host:port")``, the ``cluster`` extra) a
chunk whose worker dies is run again elsewhere; results are handed back once per job either way.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .puzzle import FillominoError

J = TypeVar("J")
R = TypeVar("R")

CHUNKS_PER_WORKER = 8
"""About this many chunks per worker, so the last chunks are small enough to balance the tail."""
SOLO_SHARE = 8
"""A job costing at least this fraction (1/8) of a chunk travels alone: grouping pays only for small jobs, and
big ones grouped would run one after another on one worker while the others finish and wait."""


@dataclass(frozen=True)
class Workers:
    """Where jobs run: ``count`` local processes (1: this process), or the Dask scheduler at ``scheduler``."""

    count: int = 1
    scheduler: str | None = None

    def __post_init__(self) -> None:
        if self.count < 1:
            raise FillominoError(f"--workers must be at least 1, got {self.count}")
        if self.scheduler is not None and "://" not in self.scheduler:
            raise FillominoError(f"--scheduler {self.scheduler!r} is not an address like tcp://127.0.0.1:8786")

    @classmethod
    def local(cls, count: int | None = None) -> Workers:
        """``count`` local processes, every core by default."""
        return cls(count or os.cpu_count() or 1)

    def describe(self) -> str:
        if self.scheduler:
            return f"the Dask cluster at {self.scheduler}"
        return "1 process" if self.count == 1 else f"{self.count} processes"


def chunks(costs: Sequence[float], parts: int) -> list[list[int]]:
    """Job indices grouped into chunks: costliest first, each chunk about ``total / parts`` in cost.

    A job costing an eighth of that or more is a chunk of its own (SOLO_SHARE); the order inside and across
    chunks is costliest first.
    """
    order = sorted(range(len(costs)), key=lambda i: (-costs[i], i))
    target = sum(costs) / max(parts, 1)
    out: list[list[int]] = []
    current: list[int] = []
    spent = 0.0
    for i in order:
        if costs[i] * SOLO_SHARE >= target:
            out.append([i])  # the costliest come first, so nothing is half-grouped yet
            continue
        current.append(i)
        spent += costs[i]
        if spent >= target:
            out.append(current)
            current, spent = [], 0.0
    if current:
        out.append(current)
    return out


def _run_chunk(fn: Callable[[Any], Any], jobs: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    return [(i, fn(job)) for i, job in jobs]


def run_jobs(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    workers: Workers,
    *,
    cost: Callable[[J], float] | None = None,
) -> Iterator[tuple[int, R]]:
    """``(index, fn(job))`` for every job, in the order chunks finish; each index exactly once.

    ``fn`` and the jobs must be picklable (a module-level function) unless everything runs in this
    process. ``cost`` estimates a job's work (default: equal); it orders and groups the jobs.
    """
    if not jobs:
        return
    costs = [float(cost(job)) if cost else 1.0 for job in jobs]
    if workers.scheduler is None and (workers.count == 1 or len(jobs) == 1):
        for i in sorted(range(len(jobs)), key=lambda i: (-costs[i], i)):
            yield i, fn(jobs[i])
    elif workers.scheduler is None:
        yield from _on_processes(fn, jobs, costs, workers.count)
    else:
        yield from _on_cluster(fn, jobs, costs, workers.scheduler)


def in_order(results: Iterable[tuple[int, R]],
             on_finish: Callable[[int, R], None] | None = None) -> Iterator[tuple[int, R]]:
    """The ``(index, result)`` pairs of :func:`run_jobs` in index order, each as soon as every earlier one
    is in, so output follows the input's order; ``on_finish`` sees each pair the moment it arrives (a
    progress bar)."""
    waiting: dict[int, R] = {}
    ready = 0
    for i, result in results:
        if on_finish is not None:
            on_finish(i, result)
        waiting[i] = result
        while ready in waiting:
            yield ready, waiting.pop(ready)
            ready += 1


def _payloads(jobs: Sequence[Any], costs: Sequence[float], width: int) -> list[list[tuple[int, Any]]]:
    return [[(i, jobs[i]) for i in group] for group in chunks(costs, width * CHUNKS_PER_WORKER)]


def _on_processes(fn: Callable, jobs: Sequence[Any], costs: Sequence[float], count: int) -> Iterator[tuple[int, Any]]:
    from concurrent.futures import ProcessPoolExecutor, as_completed

    payloads = _payloads(jobs, costs, count)
    with ProcessPoolExecutor(max_workers=min(count, len(payloads))) as pool:
        futures = [pool.submit(_run_chunk, fn, payload) for payload in payloads]
        try:
            for future in as_completed(futures):
                yield from future.result()
        except BaseException:
            # A chunk already running would otherwise hold the exit (the pool's own exit waits for it) for as long
            # as its jobs take; Python 3.11 has no public call to stop a worker, hence the private table, read
            # before shutdown clears it.
            running = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in running:
                process.terminate()
            raise


def _on_cluster(fn: Callable, jobs: Sequence[Any], costs: Sequence[float], address: str) -> Iterator[tuple[int, Any]]:
    try:
        from distributed import Client, as_completed
    except ModuleNotFoundError:
        raise FillominoError("--scheduler needs Dask: pip install 'fillomino[cluster]'") from None
    try:
        client = Client(address, timeout="20s", set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise FillominoError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        payloads = _payloads(jobs, costs, max(sum(client.nthreads().values()), 1))
        # Costliest chunks get the highest priority; the scheduler reruns a chunk whose worker died.
        futures = [client.submit(_run_chunk, fn, payload, pure=False, retries=2, priority=len(payloads) - k)
                   for k, payload in enumerate(payloads)]
        for future in as_completed(futures, loop=client.loop):
            yield from future.result()
    finally:
        client.close()
