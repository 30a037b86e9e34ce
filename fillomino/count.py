"""Exact solution counting: pictures (solutions) or cuts (partitions into regions, rule 3 dropped).

Five exact methods: the region-laying search with cached parts (``fillomino.regions``), a
frontier sweep laying clued regions whole and counting the pockets they leave (``fillomino.frontier``), a
transfer-matrix dynamic program (``fillomino.transfer``), blocking-clause enumeration on the CNF
engine, and the Ganak model counter on the complete static CNF of ``fillomino.encode.counting``.
``method="auto"`` chooses by the board alone (never by the clock), so a board always gets the same
method: the transfer matrix for a clue-free board at most ``TRANSFER_MAX_WIDTH`` wide, the region
search for everything else. A limit or a budget that stops the count early gives a lower bound
(``status="lower_bound"``) or nothing (``status="unknown"``), never an estimate.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .grid import find_root
from .puzzle import FillominoError, Grid, Puzzle, plural, to_grid, validate_max_size

if TYPE_CHECKING:
    from .memory import MemoryGuard
    from .solvers import Budget

METHODS = ("auto", "regions", "frontier", "enumerate", "transfer", "ganak")
TRANSFER_MAX_WIDTH = 6
"""auto: a clue-free board whose narrow side has at most this many cells goes to the transfer matrix."""
STUCK_PARTS = 500
"""auto: once the region search has counted this many parts and nine in ten were dead ends, the clues
need the propagation of the CNF engine: count by enumeration there instead. Parts, not seconds, so the
same board always takes the same way."""
GANAK_MISSING = "the ganak counting method needs pyganak: pip install 'fillomino[count]' (or pip install pyganak)"

Progress = Callable[[str], None]


@dataclass
class CountResult:
    """How many solutions; ``exact=False`` means "at least ``count``" (a limit, budget or interrupt stopped it)."""

    count: int
    exact: bool
    cuts: bool
    max_size: int | None
    method: str
    seconds: float
    interrupted: bool = False
    trims: int = 0
    """How many times the region search trimmed its caches at the memory limit (the count is the same; it took
    longer)."""
    out_of_memory: bool = False
    """Stopped because the count took a quarter more memory than its limit (``fillomino.memory.STOP_SHARE``)."""

    @property
    def status(self) -> str:
        """``exact``; ``lower_bound`` (stopped early with ``count`` found); ``unknown`` (stopped with nothing)."""
        if self.exact:
            return "exact"
        return "lower_bound" if self.count else "unknown"

    def to_json(self) -> dict:
        return {
            "count": self.count,
            "exact": self.exact,
            "status": self.status,
            "interrupted": self.interrupted,
            "cuts": self.cuts,
            "max_size": self.max_size,
            "method": self.method,
            "seconds": round(self.seconds, 6),
            "cache_trims": self.trims,
            "out_of_memory": self.out_of_memory,
        }

    def describe(self) -> str:
        """One line: ``exactly 445 solutions`` / ``at least 1000 cuts`` plus the assumption made."""
        what = "cut" if self.cuts else "solution"
        if self.status == "unknown":
            text = f"unknown number of {what}s (none counted)"
        else:
            text = f"{'exactly' if self.exact else 'at least'} {plural(self.count, what)}"
        if self.max_size is not None:
            text += f" with regions of at most {plural(self.max_size, 'cell')}"
        return text


class CountInterrupted(KeyboardInterrupt):
    """Ctrl-C during a count; ``result`` holds what was counted so far (a lower bound)."""

    def __init__(self, result: CountResult) -> None:
        super().__init__(result.describe())
        self.result = result


def ganak_available() -> bool:
    return importlib.util.find_spec("pyganak") is not None


def _validate(puzzle: Puzzle, limit: int | None, max_size: int | None, method: str) -> None:
    if method not in METHODS:
        raise FillominoError(f"unknown counting method {method!r}: choose one of {', '.join(METHODS)}")
    if limit is not None and limit < 1:
        raise FillominoError(f"--limit must be at least 1, got {limit}")
    validate_max_size(puzzle, max_size)


def count(
    puzzle: Puzzle,
    *,
    cuts: bool = False,
    limit: int | None = None,
    max_size: int | None = None,
    method: str = "auto",
    budget: Budget | None = None,
    progress: Progress | None = None,
    bar: bool = False,
    stuck_after: int = STUCK_PARTS,
    memory: int | None | Literal["auto"] | MemoryGuard = "auto",
) -> CountResult:
    """Count the pictures (or ``cuts``) of ``puzzle`` exactly, or up to ``limit`` ("at least N").

    ``budget`` is a ``fillomino.solvers.Budget`` (its time limit is used); when it runs out, the
    result is the lower bound counted so far with ``exact=False`` (``status`` says whether anything
    was counted). ``progress`` receives one-line status messages; ``bar`` shows a
    ``fillomino.progress.Progress`` bar on stderr when it is a terminal. Ctrl-C raises
    ``CountInterrupted`` with the bound so far. ``auto``'s region search hands over to enumeration once
    it has counted ``stuck_after`` parts, nine in ten of them dead ends. ``memory``: the bytes the count may take
    (beyond what the process held when it started) before the region search trims its caches (the count stays
    exact; ``trims`` in the result says how often); "auto" is
    ``fillomino.memory.default_limit()``, half the machine, None no limit, or a ``MemoryGuard`` of one's own. A
    count that still grows to a quarter past the limit stops there, ``out_of_memory`` (nothing counted or a
    lower bound, as a spent budget).
    """
    from .memory import OutOfMemory
    from .progress import Progress as Bar

    _validate(puzzle, limit, max_size, method)
    with Bar(None, "counting", unit="branch", enabled=None if bar else False) as display:
        run = _Run(puzzle, cuts, limit, max_size, budget, progress, display, stuck_after, memory)
        try:
            return run.go(method)
        except OutOfMemory:  # from any method: what it found so far, as a spent budget gives
            return run.result(run.found, False, run.method, out_of_memory=True)
        except KeyboardInterrupt:
            stopped = run.result(run.found, False, run.method)
            stopped.interrupted = True
            raise CountInterrupted(stopped) from None


def auto_method(puzzle: Puzzle, limit: int | None = None) -> str:
    """The method ``auto`` uses on this board: decided by the board alone, the same on every run."""
    if limit is None and not any(puzzle.clues) and min(puzzle.rows, puzzle.cols) <= TRANSFER_MAX_WIDTH:
        return "transfer"
    return "regions"  # which hands over to "enumerate" when it meets mostly dead ends (STUCK_PARTS)


class _Run:
    """One count: the shared clock, budget and the lower bound found so far."""

    def __init__(self, puzzle, cuts, limit, max_size, budget, progress, display, stuck_after=STUCK_PARTS,
                 memory: int | None | Literal["auto"] | MemoryGuard = "auto") -> None:
        from .clock import Clock
        from .memory import make_guard

        self.memory = make_guard(memory)

        self.puzzle, self.cuts, self.limit, self.max_size = puzzle, cuts, limit, max_size
        self.clock = Clock.after(getattr(budget, "seconds", None))
        self.display = display
        told = progress or (lambda _text: None)

        def say(text: str) -> None:
            told(text)
            display.note(text)

        self.progress = say
        self.start = time.monotonic()
        self.found = 0
        self.method = "enumerate"
        self.stuck_after = stuck_after

    def left(self) -> float | None:
        left = self.clock.seconds_left()
        return None if left is None else max(0.0, left)

    def result(self, n: int, exact: bool, method: str, out_of_memory: bool = False) -> CountResult:
        if self.limit is not None and n >= self.limit and not (exact and n == self.limit):
            n, exact = self.limit, False
        trims = 0 if self.memory is None else self.memory.trims
        return CountResult(n, exact, self.cuts, self.max_size, method, time.monotonic() - self.start, trims=trims,
                           out_of_memory=out_of_memory)

    def deadline(self) -> float | None:
        return self.clock.end

    def go(self, method: str) -> CountResult:
        chosen = method == "auto"
        if chosen:
            method = auto_method(self.puzzle, self.limit)
        if method == "enumerate" or (method == "transfer" and self.limit is not None):
            return self.enumerate(self.limit)
        if method == "transfer":
            return self.transfer()
        if method == "ganak":
            return self.ganak()
        if method == "frontier" and self.limit is None:
            return self.frontier()
        if not chosen:
            return self.regions()
        from .regions import RegionsStuck

        try:
            return self.regions(stuck_after=self.stuck_after)
        except RegionsStuck:
            self.progress("region search stuck in dead ends; enumerating on the CNF engine")
            return self.enumerate(self.limit)

    def regions(self, stuck_after: int | None = None) -> CountResult:
        """The region-laying search: counts, or lists up to the limit when there is one."""
        from .regions import RegionSearch, RegionTimeout

        self.method, self.found = "regions", 0
        search = RegionSearch(self.puzzle, cuts=self.cuts, max_size=self.max_size, deadline=self.deadline(),
                              stuck_after=stuck_after, memory=self.memory)
        if self.limit is not None:
            try:
                for _ in search.solutions(stuck_after):
                    self.found += 1
                    self.display.advance()
                    if self.found >= self.limit:
                        return self.result(self.found, False, "regions")
            except RegionTimeout:
                return self.result(self.found, False, "regions")
            return self.result(self.found, True, "regions")

        def step(done: int, total: int) -> None:
            self.display.advance()
            self.display.note(f"regions: first region {done}/{total}")

        try:
            n = search.count(step)
        except RegionTimeout:
            return self.result(0, False, "regions")
        except RecursionError:
            raise FillominoError("board too large for the region search: try --method enumerate") from None
        return self.result(n, True, "regions")

    def frontier(self) -> CountResult:
        """The frontier sweep (no listing: with a limit, ``go`` lists by the region search instead)."""
        from .frontier import FrontierCount, FrontierTimeout
        from .regions import RegionTimeout

        self.method, self.found = "frontier", 0
        try:
            sweep = FrontierCount(self.puzzle, cuts=self.cuts, max_size=self.max_size, deadline=self.deadline(),
                                  memory=self.memory)

            def step(done: int, total: int) -> None:
                self.display.advance()
                self.display.note(f"frontier: cell {done}/{total}, {sweep.peak} states at most")

            n = sweep.count(step)
        except (FrontierTimeout, RegionTimeout):
            return self.result(0, False, "frontier")
        return self.result(n, True, "frontier")

    def enumerate(self, stop: int | None) -> CountResult:
        """Count solutions one by one; stops after ``stop`` of them or at the deadline (then exact=False)."""
        self.method, self.found = "enumerate", 0
        deadline = self.clock.end
        last = time.monotonic()
        it = iter_solutions(self.puzzle, cuts=self.cuts, max_size=self.max_size, deadline=deadline,
                            memory=self.memory)
        try:
            for _ in it:
                self.found += 1
                if stop is not None and self.found >= stop:
                    return self.result(self.found, False, "enumerate")
                now = time.monotonic()
                if deadline is not None and now > deadline:
                    return self.result(self.found, False, "enumerate")
                if now - last > 0.2:
                    last = now
                    self.progress(f"enumerating: {self.found} so far")
        except OutOfTime:
            return self.result(self.found, False, "enumerate")
        finally:
            close = getattr(it, "close", None)
            if close:
                close()
        return self.result(self.found, True, "enumerate")

    def transfer(self) -> CountResult:
        from .transfer import TransferLimits, count_cuts, count_pictures

        self.method = "transfer"
        counter = count_cuts if self.cuts else count_pictures
        limits = TransferLimits(seconds=self.left(), memory=self.memory)

        def step(done: int, total: int) -> None:
            self.display.advance()
            self.progress(f"transfer matrix: cell {done}/{total}")

        try:
            n = counter(self.puzzle, self.max_size, limits, step)
        except TimeoutError:
            return self.result(self.found, False, "transfer")
        return self.result(n, True, "transfer")

    def ganak(self) -> CountResult:
        if not ganak_available():
            raise FillominoError(GANAK_MISSING)
        from .encode.counting import build

        self.method = "ganak"
        cnf = build(self.puzzle, cuts=self.cuts, max_size=self.max_size, style="order")
        self.progress(f"ganak: counting models of {cnf.num_vars} variables, {len(cnf.clauses)} clauses")
        n = ganak_count(cnf.clauses, cnf.num_vars, cnf.projection, self.left(), self.memory)
        if n is None:
            return self.result(self.found, False, "ganak")
        return self.result(n, True, "ganak")


_GANAK_CHILD = """
import os, sys, threading, time
parent = int(sys.argv[1])
if sys.platform.startswith("linux"):
    import ctypes, signal
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the parent
if os.getppid() != parent:
    os._exit(1)  # the parent died before the line above took effect

def watch():  # everywhere else: notice the parent is gone within half a second
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)

threading.Thread(target=watch, daemon=True).start()
import pyganak
lines = sys.stdin.read().split("\\n")
num_vars = int(lines[0])
c = pyganak.Counter()
c.new_vars(num_vars)
c.set_sampling_set([int(x) for x in lines[1].split()])
c.add_clauses([[int(x) for x in line.split()] for line in lines[2:] if line])
print(c.count())
"""


GANAK_POLL = 0.1
"""Seconds between two looks at the Ganak child's memory (and the clock) while it counts."""


def ganak_count(clauses: list[list[int]], num_vars: int, projection: list[int], seconds: float | None,
                memory: MemoryGuard | None = None) -> int | None:
    """The exact projected model count by Ganak in a child process (so a time limit can stop it); None on timeout.
    With ``memory``, the child is killed once it holds STOP_SHARE of the guard's limit, and
    fillomino.memory.OutOfMemory raised (where the child's memory can be read: Linux).

    The child dies with this process, ``kill -9`` included (parent-death signal on Linux, a watcher elsewhere)."""
    from .memory import OutOfMemory

    if not ganak_available():
        raise FillominoError(GANAK_MISSING)
    text = f"{num_vars}\n{' '.join(map(str, projection))}\n" + "\n".join(" ".join(map(str, c)) for c in clauses)
    child = subprocess.Popen(
        [sys.executable, "-c", _GANAK_CHILD, str(os.getpid())],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    end = None if seconds is None else time.monotonic() + seconds
    given: str | None = text
    try:
        while True:
            wait = GANAK_POLL if end is None else min(GANAK_POLL, end - time.monotonic())
            try:
                # a retried communicate() loses no output, and takes its input only the first time
                out, err = child.communicate(given, timeout=max(wait, 0.0))
                break
            except subprocess.TimeoutExpired:
                given = None
                if end is not None and time.monotonic() >= end:
                    return None
                if memory is not None and memory.child_exhausted(child.pid):
                    raise OutOfMemory from None
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    if child.returncode != 0 or not out.strip():
        raise FillominoError(f"ganak failed (exit {child.returncode}): {err.strip().splitlines()[-1:] or 'no output'}")
    return int(out.split()[-1])


class OutOfTime(Exception):
    """iter_solutions passed its deadline."""


def iter_solutions(
    puzzle: Puzzle,
    *,
    cuts: bool = False,
    max_size: int | None = None,
    deadline: float | None = None,
    method: str = "enumerate",
    memory: int | None | Literal["auto"] | MemoryGuard = "auto",
) -> Iterator[Grid]:
    """Every solution once, as found: label grids, or for ``cuts`` region-id grids (regions numbered
    1.. in row-major order of their first cell). Past ``deadline`` (time.monotonic()) it raises OutOfTime.

    ``method`` "enumerate" asks the CNF engine one solution at a time; "regions" walks the region-laying search,
    much faster on clued boards; "auto" walks it too, unless it meets mostly dead ends before its first solution
    (``STUCK_PARTS``, as ``count``): then it lists by enumeration. ``memory`` bounds the region search's caches
    as in ``count``; past it (or, enumerating, once the solver's blocking clauses take STOP_SHARE of it) the
    listing raises fillomino.memory.OutOfMemory."""
    _validate(puzzle, None, max_size, method)
    if method == "regions":
        yield from _region_listing(puzzle, cuts, max_size, deadline, memory=memory)
        return
    if method == "auto":
        from .regions import RegionsStuck

        try:
            yield from _region_listing(puzzle, cuts, max_size, deadline, STUCK_PARTS, memory)
            return
        except RegionsStuck:  # raised before the first solution only: nothing is listed twice
            pass
        yield from iter_solutions(puzzle, cuts=cuts, max_size=max_size, deadline=deadline, method="enumerate",
                                  memory=memory)
        return
    if method != "enumerate":
        raise FillominoError(f"listing solutions needs --method auto, regions or enumerate, not {method}")
    from .memory import make_guard
    from .solvers import Budget, BudgetExhausted, enumerate_solutions
    from .solvers import cnf as cnf_backend

    guard = make_guard(memory)
    seconds = None if deadline is None else max(0.001, deadline - time.monotonic())
    budget = Budget(seconds=seconds)
    if cuts:
        if "cuts" not in inspect.signature(cnf_backend.enumerate_solutions).parameters:
            # the CNF backend cannot list cuts: use the complete counting CNF instead
            yield from _bounded(_interruptible(_static_enumeration(puzzle, True, max_size, deadline)), guard)
            return
        solutions = cnf_backend.enumerate_solutions(puzzle, max_size=max_size, budget=budget, cuts=True)
    else:
        solutions = enumerate_solutions(puzzle, max_size=max_size, budget=budget)
    try:
        yield from _bounded(_interruptible(solutions), guard)
    except BudgetExhausted:
        raise OutOfTime from None


ENUMERATION_MEMORY_CHECK = 0.1
"""Seconds between two looks at the memory while enumerating (each solution adds a blocking clause)."""


def _bounded(solutions: Iterator[Grid], guard: MemoryGuard | None) -> Iterator[Grid]:
    """The solutions, until the process has taken STOP_SHARE of the guard's limit (then OutOfMemory): an
    enumeration's solver has no cache to trim, only the clauses that keep each solution from coming again."""
    from .memory import OutOfMemory

    if guard is None:
        yield from solutions
        return
    last = -ENUMERATION_MEMORY_CHECK  # the first solution is checked
    try:
        for solution in solutions:
            yield solution
            now = time.monotonic()
            if now - last >= ENUMERATION_MEMORY_CHECK:
                last = now
                if guard.exhausted():
                    raise OutOfMemory
    finally:
        close = getattr(solutions, "close", None)
        if close is not None:
            close()


def _region_listing(puzzle: Puzzle, cuts: bool, max_size: int | None, deadline: float | None,
                    stuck_after: int | None = None,
                    memory: int | None | Literal["auto"] | MemoryGuard = "auto") -> Iterator[Grid]:
    from .memory import make_guard
    from .regions import RegionSearch, RegionTimeout

    search = RegionSearch(puzzle, cuts=cuts, max_size=max_size, deadline=deadline, memory=make_guard(memory))
    try:
        yield from search.solutions(stuck_after)
    except RegionTimeout:
        raise OutOfTime from None


def _interruptible(solutions: Iterator[Grid]) -> Iterator[Grid]:
    """pysat turns Ctrl-C inside a solve into its own error: give it back as KeyboardInterrupt."""
    try:
        yield from solutions
    except Exception as exc:
        if "keyboard interrupt" in str(exc).lower():
            raise KeyboardInterrupt from None
        raise


def _static_enumeration(puzzle: Puzzle, cuts: bool, max_size: int | None, deadline: float | None) -> Iterator[Grid]:
    """Blocking-clause enumeration on the complete counting CNF (each model is one cut or picture)."""
    from pysat.solvers import Solver

    from .clock import alarm
    from .encode.counting import build

    cnf = build(puzzle, cuts=cuts, max_size=max_size, style="order")
    edges = list(cnf.same.items())
    with Solver(name="glucose4", bootstrap_with=cnf.clauses) as solver:
        # one timer for the whole listing, not a thread per call (a quarter of a millisecond each): once it has
        # fired, every later call returns at once
        timer = None if deadline is None else alarm(deadline, solver.interrupt)
        try:
            while True:
                if deadline is not None and time.monotonic() >= deadline:
                    raise OutOfTime
                ok = solver.solve_limited(expect_interrupt=timer is not None)
                if ok is None:
                    raise OutOfTime
                if not ok:
                    return
                model = solver.get_model()
                joined = [(i, k) for (i, k), v in edges if model[v - 1] > 0]
                regions = _regions(puzzle.size, joined)
                if cuts:
                    yield to_grid(regions, puzzle.cols)
                else:
                    yield to_grid(region_sizes(regions), puzzle.cols)
                solver.add_clause([-v if model[v - 1] > 0 else v for v in cnf.projection])
        finally:
            if timer is not None:
                timer.cancel()
                timer.join()  # before the solver is deleted: a late interrupt would reach freed memory


def _regions(n: int, joined: list[tuple[int, int]]) -> list[int]:
    """Region ids 1.. in row-major order of first cell, from the joined edges."""
    parent = list(range(n))
    for i, k in joined:
        parent[find_root(parent, i)] = find_root(parent, k)
    ids: dict[int, int] = {}
    return [ids.setdefault(find_root(parent, i), len(ids) + 1) for i in range(n)]


def region_sizes(regions: list[int]) -> list[int]:
    """Each cell's label in a cut: the size of its region."""
    sizes: dict[int, int] = {}
    for r in regions:
        sizes[r] = sizes.get(r, 0) + 1
    return [sizes[r] for r in regions]
