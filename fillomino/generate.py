"""Puzzle generator: a random answer, then clues carved away while the CNF engine proves uniqueness.

Every puzzle it returns has exactly one solution (proved by the incremental
``fillomino.solvers.cnf.UniquenessOracle``, with no size promise) and, unless ``min_clues``
stopped the carving early, no clue (or symmetry orbit of clues) can be removed without losing that.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .grid import distances, neighbour_table
from .partition import DEFAULT_WEIGHTS, Stream, random_answer, size_table
from .puzzle import FillominoError, Grid, Puzzle, flatten, groups, is_solution, validate_shape
from .solvers.base import Budget, Status

GENERATOR_VERSION = "2"
"""Bumped whenever the same seed and options would give a different puzzle.

1: the first answer grower.
2: answers take the most hemmed-in free cell first and mend clashes with detach moves
   (docs/benchmarks.md, Generator, compares the two).
"""

SYMMETRIES = ("none", "rot180", "rot90", "mirror")

MAX_ATTEMPTS = 50
"""Answers tried per puzzle before --max-clues is declared out of reach."""


@dataclass
class Generated:
    """One generated puzzle with its answer and how making it went."""

    puzzle: Puzzle
    solution: Grid
    seed: int
    clues: int
    seconds: float
    attempts: int
    checks: int = 0
    """Uniqueness questions the engine answered (questions settled by a known alternative are not counted)."""


def generate(
    rows: int,
    cols: int,
    seed: int,
    *,
    max_size: int = 9,
    size_weights: Sequence[float] | None = None,
    symmetry: str = "none",
    clue_every_region: bool = False,
    min_clues: int | None = None,
    max_clues: int | None = None,
    budget: Budget | None = None,
    threads: int = 1,
    carving: Carving | None = None,
) -> Generated:
    """A unique puzzle from ``seed``: the same version, seed and options give the same puzzle anywhere.

    ``max_size`` caps region sizes (and is itself capped by the grid), ``size_weights[k-1]`` is how
    often size k is drawn as a growth target. ``symmetry`` makes the clue pattern symmetric (clues
    are removed a whole orbit at a time). ``clue_every_region`` keeps a clue in every region.
    Carving stops once ``min_clues`` clues are left; an answer that ends with more than
    ``max_clues`` is dropped for the next one (up to MAX_ATTEMPTS). ``budget`` (a solvers.Budget)
    limits each uniqueness question; if one runs out, BudgetExhausted is raised rather than guessed.
    ``threads`` > 1 lets hard questions race differently tuned solvers in that many processes: faster
    on big grids, and the same puzzle (every answer is exact, whoever gives it). ``carving`` splits
    the questions between engines differently (A/B runs, tests); it too changes only the time.
    """
    validate_shape(rows, cols)
    if threads < 1:
        raise FillominoError(f"threads must be at least 1, got {threads}")
    cap = min(max_size, rows * cols)
    size_table(cap, size_weights)  # refuse bad weights before any work
    orbits = symmetry_orbits(rows, cols, symmetry)
    _check_clue_limits(rows * cols, min_clues, max_clues)
    start = time.perf_counter()
    checks = 0
    for attempt in range(1, MAX_ATTEMPTS + 1):
        rng = Stream(f"fillomino-generate|{GENERATOR_VERSION}|{rows}x{cols}|{seed}|{attempt}")
        answer = random_answer(rows, cols, rng, cap, size_weights)
        kept, calls = carve(answer, rng, orbits, clue_every_region=clue_every_region, min_clues=min_clues,
                            budget=budget, threads=threads, carving=carving)
        checks += calls
        if max_clues is None or len(kept) <= max_clues:
            values = flatten(answer)
            clues = [0] * (rows * cols)
            for c in kept:
                clues[c] = values[c]
            metadata = (
                ("generator", f"fillomino-generate {GENERATOR_VERSION}"),
                ("seed", str(seed)),
                ("size", f"{rows}x{cols}"),
                ("options", describe_options(cap, size_weights, symmetry, clue_every_region, min_clues, max_clues)),
                ("clues", str(len(kept))),
            )
            puzzle = Puzzle(rows, cols, tuple(clues), answer, metadata)
            return Generated(puzzle, answer, seed, len(kept), time.perf_counter() - start, attempt, checks)
    raise FillominoError(
        f"no {rows}x{cols} puzzle with at most {max_clues} clues came of seed {seed} in {MAX_ATTEMPTS} answers; "
        "raise --max-clues or try another seed"
    )


def describe_options(
    max_size: int,
    size_weights: Sequence[float] | None,
    symmetry: str,
    clue_every_region: bool,
    min_clues: int | None,
    max_clues: int | None,
) -> str:
    """The options as the command-line flags that reproduce them (with --size and --seed)."""
    weights = DEFAULT_WEIGHTS if size_weights is None else size_weights
    parts = [f"--max-size {max_size}", "--size-weights " + ",".join(f"{w:g}" for w in weights),
             f"--symmetry {symmetry}"]
    if clue_every_region:
        parts.append("--clue-every-region")
    if min_clues is not None:
        parts.append(f"--min-clues {min_clues}")
    if max_clues is not None:
        parts.append(f"--max-clues {max_clues}")
    return " ".join(parts)


def _check_clue_limits(cells: int, min_clues: int | None, max_clues: int | None) -> None:
    if min_clues is not None and not 0 <= min_clues <= cells:
        raise FillominoError(f"--min-clues must be between 0 and {cells} for this grid, got {min_clues}")
    if max_clues is not None and not 0 <= max_clues <= cells:
        raise FillominoError(f"--max-clues must be between 0 and {cells} for this grid, got {max_clues}")
    if min_clues is not None and max_clues is not None and min_clues > max_clues:
        raise FillominoError(f"--min-clues {min_clues} is more than --max-clues {max_clues}")


def symmetry_orbits(rows: int, cols: int, symmetry: str) -> list[list[int]]:
    """Cells grouped into the orbits of the clue pattern's symmetry, each sorted, ordered by first cell.

    rot180 turns the grid half way, rot90 a quarter (square grids only), mirror reflects it
    left to right.
    """
    if symmetry not in SYMMETRIES:
        raise FillominoError(f"unknown symmetry {symmetry!r}: choose one of {', '.join(SYMMETRIES)}")
    if symmetry == "rot90" and rows != cols:
        raise FillominoError(f"--symmetry rot90 needs a square grid, not {rows}x{cols}; use rot180 or mirror")

    def images(r: int, c: int) -> list[tuple[int, int]]:
        if symmetry == "rot180":
            return [(r, c), (rows - 1 - r, cols - 1 - c)]
        if symmetry == "mirror":
            return [(r, c), (r, cols - 1 - c)]
        if symmetry == "rot90":
            n = rows - 1
            return [(r, c), (c, n - r), (n - r, n - c), (n - c, r)]
        return [(r, c)]

    seen: set[int] = set()
    orbits = []
    for i in range(rows * cols):
        if i not in seen:
            orbit = sorted({r * cols + c for r, c in images(*divmod(i, cols))})
            seen.update(orbit)
            orbits.append(orbit)
    return orbits


def carve(
    answer: Grid,
    rng: Stream,
    orbits: list[list[int]],
    *,
    clue_every_region: bool = False,
    min_clues: int | None = None,
    budget: Budget | None = None,
    threads: int = 1,
    carving: Carving | None = None,
) -> tuple[list[int], int]:
    """The clue cells left after carving ``answer`` (every cell a clue at first), and the engine calls.

    Orbits are tried once each in a seeded shuffled order; an orbit is removed when the clues left
    still admit only ``answer``. Returns the sorted kept cells and the number of oracle questions.

    Why the result is minimal: the clue set only shrinks, and an orbit O was kept because clues
    K' \\ O admitted another solution, where K' is the clue set at that moment. The final set K is
    a subset of K', so K \\ O has fewer clues than K' \\ O and admits that other solution too. So
    removing any kept orbit (with symmetry: any whole orbit, not a single cell of it) breaks
    uniqueness. Orbits skipped because of ``clue_every_region`` or ``min_clues`` are exempt.
    """
    from .solvers import Budget
    from .solvers.cnf import UniquenessOracle, fresh_ways

    budget = budget or Budget()
    carving = carving or Carving()
    limit = carving.oracle_conflicts
    quick = Budget(budget.seconds, min(limit, budget.conflicts or limit))
    oracle = UniquenessOracle(answer, budget=quick)
    ways = carving.fresh_ways if carving.fresh_ways is not None else fresh_ways(threads)
    try:
        carver = _Carver(answer, oracle, clue_every_region, min_clues, budget, ways)
        carver.run(rng.shuffle([list(o) for o in orbits]))
        return sorted(carver.kept), carver.calls
    finally:
        close = getattr(oracle, "close", None)
        if close is not None:
            close()


@dataclass(frozen=True)
class Carving:
    """How carving questions are split between the engines. Every answer is exact either way, so the
    puzzle never depends on these settings, only the time does."""

    oracle_conflicts: int = 10_000
    """Conflicts the incremental oracle may spend on one question before a fresh CNF model (clues pinned
    as units, see UniquenessOracle.check_fresh) settles it instead: the long-lived oracle's conflicts
    grow costly on big grids."""
    fresh_ways: tuple[tuple[str, int | None], ...] | None = None
    """How fresh models are run (see solvers.cnf.Way); None: as ``threads`` says (``fresh_ways``)."""


LOCAL_RADIUS = 5
"""Cells within this many steps of a removed clue may change in the quick local question."""

LOCAL_LIMIT = 4
"""Removals of at most this many cells ask the local question first (larger ones are mostly unique)."""


class _Carver:
    """The greedy carving pass, asked in chunks and pruned by alternative solutions already seen.

    Chunks: if removing a whole run of orbits keeps the answer unique, the one-by-one pass would
    have removed each of them (more clues never admit more solutions), so one question settles the
    run; otherwise the run is halved. The result is exactly the one-by-one pass's, in fewer questions.

    Known alternatives: each "multiple" reply brings a solution A. A removal is known to fail,
    without asking, when A agrees with the answer on every clue that would remain, i.e. when the
    kept cells where A differs all lie in the removal. ``live[a]`` holds those cells for each A.
    """

    def __init__(
        self,
        answer: Grid,
        oracle,
        clue_every_region: bool,
        min_clues: int | None,
        budget: Budget | None = None,
        ways: Sequence[tuple[str, int | None]] | None = None,
    ) -> None:
        self.values = flatten(answer)
        self.budget = budget
        self.ways = ways
        rows, cols = len(answer), len(answer[0])
        self.oracle = oracle
        self.shape = Puzzle.empty(rows, cols)
        self.kept = set(range(rows * cols))
        self.min_clues = min_clues or 0
        self.region_of: list[int] | None = None
        self.region_clues: list[int] = []
        if clue_every_region:
            self.region_of = [0] * (rows * cols)
            for r, cells in enumerate(groups(self.values, rows, cols)):
                for c in cells:
                    self.region_of[c] = r
                self.region_clues.append(len(cells))
        self.live: list[set[int]] = []
        self.alts_at: dict[int, list[int]] = {}
        self.all_cells = frozenset(range(rows * cols))
        nbrs = neighbour_table(rows, cols)
        self.window = [frozenset(distances(c, nbrs, within=LOCAL_RADIUS)) for c in range(rows * cols)]
        self.local_limit = LOCAL_LIMIT
        self.calls = self.known = self.local_hits = self.fresh = 0

    def run(self, order: list[list[int]]) -> None:
        chunk = 4
        i = 0
        while i < len(order):
            run = order[i : i + chunk]
            i += len(run)
            whole = self._process(run)
            chunk = min(chunk * 2, 64) if whole else max(1, chunk // 2)

    def _process(self, run: list[list[int]]) -> bool:
        """Carve ``run`` as the one-by-one pass would; True when it went in one question."""
        removal = {c for orbit in run for c in orbit if c in self.kept}
        if removal and self._allowed(removal) and self._unique_without(removal):
            self._accept(removal)
            return True
        if len(run) > 1:
            half = len(run) // 2
            self._process(run[:half])
            self._process(run[half:])
        return False

    def _allowed(self, removal: set[int]) -> bool:
        """Whether the removal keeps --min-clues and (with --clue-every-region) a clue in every region."""
        if len(self.kept) - len(removal) < self.min_clues:
            return False
        if self.region_of is not None:
            lost: dict[int, int] = {}
            for c in removal:
                r = self.region_of[c]
                lost[r] = lost.get(r, 0) + 1
            if any(self.region_clues[r] == n for r, n in lost.items()):
                return False
        return True

    def _unique_without(self, removal: set[int]) -> bool:
        for c in removal:
            for a in self.alts_at.get(c, ()):
                if self.live[a] <= removal:
                    self.known += 1
                    return False  # alternative a fits every clue that would remain
        remaining = self.kept - removal
        if len(removal) <= self.local_limit:
            # Look for another solution near the removal first: every cell outside a small window
            # is held at the answer, so the question is small. A solution found is a real one
            # (MULTIPLE is proved); "unique" here proves nothing, so the full question follows.
            window = {w for c in removal for w in self.window[c]}
            held = remaining | (self.all_cells - window)
            if self._ask(held, removal, local=True) is False:
                self.local_hits += 1
                return False
        return bool(self._ask(remaining, removal))

    def _ask(self, held: set[int], removal: set[int], local: bool = False) -> bool | None:
        """Whether the clues at ``held`` admit only the answer; None when a local question was too hard.

        The incremental oracle answers first; a question it cannot settle in ``Carving.oracle_conflicts`` goes to
        a fresh CNF model (a local one is dropped instead: the full question follows anyway).
        """
        from .solvers import BudgetExhausted

        self.calls += 1
        # the kept clues admit only the answer, so any other solution differs on the removal
        status, other = self.oracle.check(sorted(held), must_differ=sorted(removal))
        if status == Status.UNKNOWN and local:
            return None
        if status == Status.UNKNOWN:
            self.fresh += 1
            status, other = self._fresh(held, removal)
        if status == Status.UNIQUE:
            return True
        if status == Status.MULTIPLE and other is not None:
            self._remember(flatten(other), removal)
            return False
        raise BudgetExhausted(
            "the budget ran out on a uniqueness question while carving clues; the puzzle was not finished "
            "(give a larger --budget or none)"
        )

    def _fresh(self, held: set[int], removal: set[int]) -> tuple[Status, Grid | None]:
        """The question asked of a new CNF model with the held clues pinned (exact, no size promise)."""
        return self.oracle.check_fresh(sorted(held), must_differ=sorted(removal), budget=self.budget,
                                       ways=self.ways)

    def _remember(self, other: Iterable[int], removal: set[int]) -> None:
        other = list(other)
        diff = {c for c, (v, w) in enumerate(zip(self.values, other, strict=True)) if v != w and c in self.kept}
        if not diff or not diff <= removal or not is_solution(self.shape, other):
            raise FillominoError("internal error: the engine's other solution is not a solution of the kept clues")
        a = len(self.live)
        self.live.append(diff)
        for c in diff:
            self.alts_at.setdefault(c, []).append(a)

    def _accept(self, removal: set[int]) -> None:
        self.kept -= removal
        for c in removal:
            for a in self.alts_at.pop(c, ()):
                self.live[a].discard(c)
            if self.region_of is not None:
                self.region_clues[self.region_of[c]] -= 1
