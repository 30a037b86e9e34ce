"""Puzzle generator: a random answer, then clues carved away, at a requested level or down to a minimal set.

``level="minimal"``: clues go while the CNF engine proves the answer is still the only one; every puzzle
is unique and, unless ``min_clues`` stopped the carving early, no clue (or symmetry orbit of clues) can be
removed without losing that. ``level="easy"`` ... ``"expert"``: clues go while the logical rater, with
only the techniques up to that level, still solves the puzzle (the rater decides; above easy, a removal that
leaves a second solution, which it could not solve, is refused by a quick CNF question instead); the finished
puzzle is proved unique by the CNF engine, rated again with every technique and kept only when it rates
at that level (the rater's depth rule included), else clues go back and a new order is tried, then a
new answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from .clock import Work
from .grid import component, distances, neighbour_table
from .partition import Stream, default_weights, random_answer, size_table
from .puzzle import FillominoError, Grid, Puzzle, flatten, groups, is_solution, validate_shape
from .solvers.base import Budget, Status

if TYPE_CHECKING:  # the CNF engine imports pysat, which only carving needs
    from .logic import Rating, Trials
    from .solvers.cnf import UniquenessOracle

GENERATOR_VERSION = "12"
"""Bumped whenever the same seed and options would give a different puzzle.

1: the first answer grower.
2: answers take the most hemmed-in free cell first and mend clashes with detach moves
   (docs/benchmarks.md, Generator, compares the two).
3: levels (easy, medium, hard, expert by the logical rater; the default is medium), and default size
   weights that go on past 9 when --max-size is above 9. ``--level minimal`` makes exactly version 2's
   puzzles (same answers, same carving) with version 3's headers.
4: the rater's must_share (medium) and cut_area (expert): a levelled puzzle may rate, and so be carved,
   differently (5x5 expert seeds 1 and 4 of 0-4 changed). ``--level minimal`` makes exactly version 3's puzzles.
5: the rater's room_count and pocket_exit (medium), and removals answered by clue sets known solved or stuck: 36 of
   the corpus's 114 levelled puzzles changed. ``--level minimal`` makes exactly version 4's puzzles.
6: the rater's chain (hard): a forcing chain of easy steps refutes a hypothesis, so some puzzles rate hard
   that rated expert. ``--level minimal`` makes exactly version 5's puzzles.
7: a rating's default work budget grows with the grid (RATING_WORK_PER_CELL) above 100 cells, where it
   had shrunk: levelled puzzles of more than 100 cells may change. ``--level minimal`` makes exactly version 6's
   puzzles.
8: the rater's way_through walls a group off from every group of its size too far to share a region with
   ('apart'), not only from one a cell away: some puzzles rate lower, so levelled puzzles may change; and on grids
   of more than 1024 cells the top-level look-ahead tries first the hypotheses near what changed since their trial
   broke no rule (LOOKAHEAD_STALE_BIG), which may find another refutation first. ``--level minimal`` makes exactly
   version 7's puzzles.
9: grids of up to 64 cells get 3 removal orders per answer instead of 24 (then FEW_ORDERS), and a level gives up after
   MAX_ORDERS orders over all answers: small levelled puzzles may change; and the look-ahead order of version 8's
   big grids from 257 cells up (LOOKAHEAD_STALE_BIG), so levelled puzzles of 17x17 and more may change. ``--level
   minimal`` makes exactly version 8's puzzles.
10: grids of 50 to 64 cells (8x8) get 1 removal order per answer instead of 3 (ORDERS_BY_CELLS): levelled puzzles
   of those sizes may change. ``--level minimal`` makes exactly version 9's puzzles.
11: on grids of more than 256 cells the top-level hard look-ahead screens its hypotheses with the easy techniques
   first (SCREENED) and tries the fresh ones nearest what changed first: it may find another refutation first, so
   levelled puzzles of 17x17 and more may change. ``--level minimal`` makes exactly version 10's puzzles.
12: expert puzzles of up to 36 cells draw bigger regions by default (SMALL_EXPERT_WEIGHTS): levelled expert puzzles
   of 5x5 and 6x6 (and other shapes of up to 36 cells) change. ``--level minimal`` makes exactly version 11's puzzles.
"""

STREAM_KEY = "2"
"""The version part of every seed's random stream: kept at 2 so that --level minimal reproduces version 2."""

LEVELS = ("minimal", "easy", "medium", "hard", "expert")
"""What ``level`` may ask: the rater's four levels, or the fewest clues the exact engine allows."""

RATED_LEVELS = LEVELS[1:]

DEFAULT_LEVEL = "medium"
"""A setter asking for "a puzzle" expects one a person solves by reasoning, without guessing or long
look-ahead, that is neither trivial nor a trial: medium (see docs/usage/generate.md)."""

SYMMETRIES = ("none", "rot180", "rot90", "mirror")

MAX_ATTEMPTS = 200
"""Answers tried per minimal puzzle before the request (--max-clues) is declared out of reach; a request that
succeeds within fewer answers makes the same puzzle whatever this is."""

ORDERS_PER_ANSWER = 24
"""Removal orders tried on one answer (clues put back between them) before a new answer is drawn, on grids bigger
than ORDERS_BY_CELLS covers: there most answers carve to expert in time (10x10: 28 of 29 within 24 orders)."""

ORDERS_BY_CELLS: tuple[tuple[int, int], ...] = ((49, 3), (64, 1))
"""(most cells, removal orders per answer) for small grids, the first row that holds the grid. Few small answers
carve to expert at all (5x5: 73 of 1,500 within 24 orders), and their later orders mostly fail again: a fresh
answer is the cheaper bet (CPU per expert found, 3 orders against 24: 5x5 x0.8, 6x6 x0.58, 7x7 x0.69, 8x8 x0.73;
per hard one x0.77-0.94). At 8x8 even the second and third orders cost more than they find: generated with 1
order against 3, expert seeds 0-59, CPU median x0.80 and sum x0.83 (7x7 x0.94 and x1.01: it keeps 3)."""

SMALL_EXPERT_WEIGHTS = (1, 1, 2, 3, 4, 5, 6, 6, 6)
"""Default target weights of sizes 1-9 for expert on grids of up to SMALL_EXPERT_CELLS cells, in place of
partition.DEFAULT_WEIGHTS: bigger regions, fewer of them. On so small a grid few answers carve to expert at all, and
fewer the more regions they have (5x5, the default weights: 4.7% of the answers of 4 regions, 0.8% of 5, none of 7
or more); answers with fewer, bigger regions reach expert about twice as often for the CPU. From 7x7 up they do
not pay (7x7 expert CPU sum x1.39, 8x8 x1.07, 10x10 x1.86)."""

SMALL_EXPERT_CELLS = 36
"""Largest grid (cells) whose expert puzzles draw SMALL_EXPERT_WEIGHTS by default (6x6)."""

MAX_ORDERS = MAX_ATTEMPTS * ORDERS_PER_ANSWER
"""Removal orders tried per levelled puzzle, over all its answers, before the level (with --max-clues) is declared
out of reach."""

PUT_BACK = 0.1
"""Share of the removed orbits (at least 2) put back into the best clue set before the next order."""

STUCK_GRIDS = 8
"""Grids of stuck ratings kept per answer to start later ratings from: the useful ones are a failed chunk's, asked
about its halves right after."""

STUCK_SOLVES = 16
"""Stuck solves kept per answer to carry on at a higher phase (see ``_Attempt.carry_on``): most are carried on
within a few ratings of getting stuck."""

CARRIED_PHASES = 2
"""Solves stuck at the first CARRIED_PHASES phases (easy and medium, which have no look-ahead) are kept to carry on:
a look-ahead would run once more on the stuck grid, its checks not known to the budget (see ``CARRY_ON_CHECKS``)."""

CARRY_ON_CHECKS = 2
"""Budget checks a stuck solve carried on makes that a fresh solve at the higher phase does not: the stuck run's
last (before it ended stuck) and the new run's first (before its first pass); tests/test_generate_levels.py checks
that the two then end with the same budget left."""

PROVED_KEPT = 8
"""Clue sets proved unique kept per answer: the sets asked about that hold one are mostly the halves of a failed
chunk, asked right after it."""

KNOWN_KEPT = 32
"""Clue sets kept per answer, by phase, as known solved and known stuck (``_LevelCarver._bounds``): a later order starts
from the best set so far with a few orbits put back, so its removals of those orbits hold a set known solved."""

FILTER_CONFLICTS = 10_000
"""Conflicts one CNF shortcut question may spend while carving to a level before the rater is asked instead."""

TRIALS_CELLS = 64
"""Largest grid (cells) whose generation keeps its ratings' look-ahead trials (logic.Trials): up to 8x8 a trial grid
often comes back whole (5x5-8x8 expert CPU sums x0.88-0.96, hard about even); from 10x10 up it rarely does and the
bookkeeping costs as much as the hits save or more (12x12 expert x0.94-1.13, 15x15 hard x1.09)."""

RATING_WORK = 20_000
RATING_WORK_CELLS = 2_000_000
RATING_WORK_PER_CELL = 400
"""Default budget of one rating, in the rater's own checks (a clock.Work): the larger of RATING_WORK +
RATING_WORK_CELLS // cells and RATING_WORK_PER_CELL * cells (the latter from 100 cells up, where the two meet). A
rating that runs out counts as "not solved at this level" (the clue stays). Counted in checks, not time, so that
where a rating stops, and so the puzzle, is the same on every machine. The checks a rating needs grow with the grid
(a full rating of a 10x10 expert puzzle 13,000-35,000, of a 15x15 one about 28,000), so a budget that did not grow
refused nearly every expert removal on big grids: 15x15 expert seeds 0 and 1 took over 30 CPU minutes at 28,888
checks (seed 0: every one of its first 51 expert-phase ratings ran out), and 9 minutes and 19 s at 80,000
(docs/benchmarks.md, gen19)."""


@dataclass
class Generated:
    """One generated puzzle with its answer and how making it went."""

    puzzle: Puzzle
    solution: Grid
    seed: int
    clues: int
    seconds: float
    attempts: int
    """Answers drawn (the last one gave the puzzle)."""
    checks: int = 0
    """Uniqueness questions the engine answered (questions settled by a known alternative are not counted); for a
    level, the shortcut questions asked while carving and the final proof."""
    level: str = "minimal"
    """The level asked for; a rated puzzle rates exactly at it."""
    score: int | None = None
    """The rater's score with every technique (None for ``minimal``, which is not rated)."""
    ratings: int = 0
    """Ratings made while carving (each one logical solve), the final ones included."""
    orders: int = 0
    """Removal orders tried, over every answer."""
    rating_timeouts: int = 0
    """Ratings that ran out of their budget and counted as not solved (with a CPU ``rating_budget``, anything but
    0 means the puzzle depended on the machine's speed; with the default work budget it never does)."""


def generate(
    rows: int,
    cols: int,
    seed: int,
    *,
    level: str = DEFAULT_LEVEL,
    max_size: int = 9,
    size_weights: Sequence[float] | None = None,
    symmetry: str = "none",
    clue_every_region: bool = False,
    min_clues: int | None = None,
    max_clues: int | None = None,
    budget: Budget | None = None,
    threads: int = 1,
    carving: Carving | None = None,
    rating_budget: float | None = None,
    rating_work: int | None = None,
) -> Generated:
    """A unique puzzle from ``seed``: the same version, seed and options give the same puzzle anywhere.

    ``level``: one of LEVELS (see the module docstring). ``max_size`` caps region sizes (and is itself
    capped by the grid), ``size_weights[k-1]`` is how often size k is drawn as a growth target (default:
    ``level_weights``: bigger regions for expert on small grids). ``symmetry`` makes the clue pattern symmetric
    (clues are removed a whole orbit at a time). ``clue_every_region`` keeps a clue in every region. Carving stops once
    ``min_clues`` clues are left; a clue set with more than ``max_clues`` is not kept (the next order or
    answer is tried, up to MAX_ATTEMPTS answers, or for a level MAX_ORDERS removal orders). ``budget`` (a
    solvers.Budget) limits each uniqueness question; if one runs out, BudgetExhausted is raised rather than
    guessed. ``threads`` > 1 lets hard uniqueness questions race differently tuned CNF solvers in that many
    processes: faster on big grids, and the same puzzle (every answer is exact, whoever gives it). ``carving``
    splits the minimal level's questions between engines differently (A/B runs, tests); it too changes only the
    time. ``rating_budget``: CPU seconds of one rating, which makes the puzzle depend on the machine's speed
    wherever a rating runs out (default None: a work budget, the same everywhere). ``rating_work``: that work
    budget in the rater's checks (default ``default_rating_work(cells)``).
    """
    validate_shape(rows, cols)
    if level not in LEVELS:
        raise FillominoError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    if threads < 1:
        raise FillominoError(f"threads must be at least 1, got {threads}")
    if rating_work is not None and rating_work < 1:
        raise FillominoError(f"rating_work must be at least 1, got {rating_work}")
    cap = min(max_size, rows * cols)
    if size_weights is None:
        size_weights = level_weights(level, rows * cols, cap)
    size_table(cap, size_weights)  # refuse bad weights before any work
    orbits = symmetry_orbits(rows, cols, symmetry)
    _check_clue_limits(rows * cols, min_clues, max_clues)
    start = time.perf_counter()
    checks = 0
    made = _Made()
    trials = _trials() if level != "minimal" and rows * cols <= TRIALS_CELLS else None
    per_answer = orders_per_answer(rows * cols)
    answers = MAX_ATTEMPTS if level == "minimal" else MAX_ORDERS // per_answer
    for attempt in range(1, answers + 1):
        rng = Stream(f"fillomino-generate|{STREAM_KEY}|{rows}x{cols}|{seed}|{attempt}")
        answer = random_answer(rows, cols, rng, cap, size_weights)
        if level == "minimal":
            kept, calls = carve(answer, rng, orbits, clue_every_region=clue_every_region, min_clues=min_clues,
                                budget=budget, threads=threads, carving=carving)
            checks += calls
            found = kept if max_clues is None or len(kept) <= max_clues else None
            rating = None
        else:
            carver = _LevelCarver(answer, orbits, level, clue_every_region, min_clues, max_clues, rating_budget,
                                  rating_work, trials)
            try:
                found, rating = carver.run(rng)
                made.add(carver)
                if found is not None:
                    checks += 1
                    _prove_unique(answer, found, budget, threads, carver.oracle)
            finally:
                carver.close()
        if found is not None:
            values = flatten(answer)
            clues = [0] * (rows * cols)
            for c in found:
                clues[c] = values[c]
            metadata = [
                ("generator", f"fillomino-generate {GENERATOR_VERSION}"),
                ("seed", str(seed)),
                ("size", f"{rows}x{cols}"),
                ("options", describe_options(cap, size_weights, symmetry, clue_every_region, min_clues, max_clues,
                                             level)),
                ("clues", str(len(found))),
            ]
            if rating is not None:
                metadata += [("level", rating.level), ("score", str(rating.score))]
            puzzle = Puzzle(rows, cols, tuple(clues), answer, tuple(metadata))
            return Generated(puzzle, answer, seed, len(found), time.perf_counter() - start, attempt,
                             checks + made.checks, level, None if rating is None else rating.score, made.ratings,
                             made.orders, made.timeouts)
    if level == "minimal":
        raise FillominoError(
            f"no {rows}x{cols} puzzle with at most {_clues(max_clues)} came of seed {seed} in {MAX_ATTEMPTS} "
            "answers; raise --max-clues or try another seed"
        )
    limit = "" if max_clues is None else f" with at most {_clues(max_clues)}"
    raise FillominoError(
        f"no {level} {rows}x{cols} puzzle{limit} came of seed {seed} in {answers} answers "
        f"({per_answer} removal orders each); try another level, size or seed"
    )


def level_weights(level: str, cells: int, max_size: int) -> tuple[float, ...]:
    """The size weights a puzzle of ``level`` on a grid of ``cells`` draws when none are given: SMALL_EXPERT_WEIGHTS
    for expert up to SMALL_EXPERT_CELLS cells, else partition.default_weights, each extended past 9 to
    ``max_size``."""
    if level == "expert" and cells <= SMALL_EXPERT_CELLS:
        return default_weights(max_size, SMALL_EXPERT_WEIGHTS)
    return default_weights(max_size)


def orders_per_answer(cells: int) -> int:
    """Removal orders one answer of a grid of ``cells`` cells gets before a new answer is drawn."""
    return next((orders for most, orders in ORDERS_BY_CELLS if cells <= most), ORDERS_PER_ANSWER)


def default_rating_work(cells: int) -> int:
    """The default work budget of one rating while carving a grid of ``cells`` cells (see RATING_WORK_PER_CELL)."""
    return max(RATING_WORK + RATING_WORK_CELLS // cells, RATING_WORK_PER_CELL * cells)


def _clues(n: int | None) -> str:
    return f"{n} clue" if n == 1 else f"{n} clues"


def _trials() -> Trials:
    """A fresh record of look-ahead trials for one generate call's ratings."""
    from .logic import Trials

    return Trials()


def describe_options(
    max_size: int,
    size_weights: Sequence[float],
    symmetry: str,
    clue_every_region: bool,
    min_clues: int | None,
    max_clues: int | None,
    level: str = DEFAULT_LEVEL,
) -> str:
    """The options as the command-line flags that reproduce them (with --size and --seed); ``size_weights`` are the
    weights drawn (``level_weights`` when none were given), which the default depends on the level and grid for."""
    parts = [f"--level {level}", f"--max-size {max_size}",
             "--size-weights " + ",".join(f"{w:g}" for w in size_weights),
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
        oracle.close()


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


class _ClueRules:
    """--min-clues and --clue-every-region: whether a removal from the kept clues keeps both."""

    def __init__(self, values: list[int], rows: int, cols: int, clue_every_region: bool,
                 min_clues: int | None) -> None:
        self.min_clues = min_clues or 0
        self.region_of: list[int] | None = None
        self.region_cells: list[list[int]] = []
        if clue_every_region:
            self.region_of = [0] * len(values)
            for r, cells in enumerate(groups(values, rows, cols)):
                for c in cells:
                    self.region_of[c] = r
                self.region_cells.append(cells)

    def allow(self, kept: set[int], removal: set[int]) -> bool:
        if len(kept) - len(removal) < self.min_clues:
            return False
        if self.region_of is not None:
            for r in {self.region_of[c] for c in removal}:
                if not any(c in kept and c not in removal for c in self.region_cells[r]):
                    return False
        return True


def _carve_in_chunks(order: list[list[int]], kept: set[int], removable: Callable[[set[int]], bool],
                     accept: Callable[[set[int]], None]) -> None:
    """The greedy pass over ``order`` (orbits of cells), asked in chunks: if a whole run of orbits may go
    (``removable``), the one-by-one pass would have removed each of them (more clues never make a puzzle
    harder to pin down), so one question settles the run; otherwise it is halved. ``accept`` removes what
    may go from ``kept``. The result is the one-by-one pass's, in fewer questions, wherever that holds: always for
    the CNF engine's uniqueness, almost always for the rater, which is not quite monotone in its clues
    (docs/benchmarks.md, "Generator by level", has a set it solves at hard that one more clue leaves stuck)."""
    def carve(run: list[list[int]]) -> bool:
        removal = {c for orbit in run for c in orbit if c in kept}
        if removal and removable(removal):
            accept(removal)
            return True
        if len(run) > 1:
            half = len(run) // 2
            carve(run[:half])
            carve(run[half:])
        return False

    chunk, i = 4, 0
    while i < len(order):
        run = order[i : i + chunk]
        i += len(run)
        chunk = min(chunk * 2, 64) if carve(run) else max(1, chunk // 2)


class _Carver:
    """The greedy carving pass for --level minimal, asked in chunks (``_carve_in_chunks``: a run of orbits
    goes when the answer stays unique without it) and pruned by alternative solutions already seen.

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
        self.rules = _ClueRules(self.values, rows, cols, clue_every_region, min_clues)
        self.live: list[set[int]] = []
        self.alts_at: dict[int, list[int]] = {}
        self.all_cells = frozenset(range(rows * cols))
        nbrs = neighbour_table(rows, cols)
        self.window = [frozenset(distances(c, nbrs, within=LOCAL_RADIUS)) for c in range(rows * cols)]
        self.local_limit = LOCAL_LIMIT
        self.calls = self.known = self.local_hits = self.fresh = 0

    def run(self, order: list[list[int]]) -> None:
        _carve_in_chunks(order, self.kept, lambda removal: self.rules.allow(self.kept, removal)
                         and self._unique_without(removal), self._accept)

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


def _prove_unique(answer: Grid, kept: list[int], budget: Budget | None, threads: int,
                  warm: UniquenessOracle | None = None) -> None:
    """The CNF engine's proof, independent of the rater, that the clues at ``kept`` admit only ``answer``: asked
    first of ``warm`` (a UniquenessOracle of this answer already built, with its own small budget), else of a
    fresh model."""
    from .solvers import BudgetExhausted
    from .solvers.cnf import UniquenessOracle, fresh_ways

    status = Status.UNKNOWN
    if warm is not None:
        status, _ = warm.check(kept)
    if status == Status.UNKNOWN:
        oracle = UniquenessOracle(answer)
        try:
            status, _ = oracle.check_fresh(kept, budget=budget or Budget(), ways=fresh_ways(threads))
        finally:
            oracle.close()
    if status == Status.UNKNOWN:
        raise BudgetExhausted("the budget ran out on the uniqueness proof of a finished puzzle (give a larger --budget "
                              "or none)")
    if status != Status.UNIQUE:
        raise FillominoError("internal error: the logical rater solved a puzzle that the CNF engine finds another "
                             "solution of")


class _Made:
    """Counts over every answer a levelled puzzle tried."""

    def __init__(self) -> None:
        self.ratings = self.orders = self.timeouts = self.checks = 0

    def add(self, carver: _LevelCarver) -> None:
        self.checks += carver.checks
        self.ratings += carver.ratings
        self.orders += carver.orders
        self.timeouts += carver.timeouts


class _LevelCarver:
    """Carving one answer to a level with the logical rater: phases, orders, clues put back.

    One order removes orbits (in chunks, ``_carve_in_chunks``) while the rater with the techniques up to a phase's
    level still solves the puzzle, one phase per level from easy up to the requested one: the cheap
    ratings remove most clues, and the costly ones (hard, expert look-ahead) are asked only about the
    clues the gentler levels could not spare. The result is then rated with every technique; if it is
    not at the level (too easy, or the depth rule not met), a few removed orbits go back into the best
    clue set so far and a new order starts.

    Shortcuts that change no answer: the rater is sound, so it never solves a puzzle with a second solution,
    and a removal that leaves one is refused without a rating: by another solution of this answer already known
    (it agrees with the answer on every clue that would remain: those found by earlier questions, and from the
    first question on every one that differs from the answer in two cells, ``swapped_solutions``, found without
    the engine), else, above easy (``ask``), by one incremental CNF question (clues as assumptions, far cheaper
    than a rating above easy), whose other solution is kept for the next questions. And the
    ladder takes the gentlest technique that makes progress, so a rating with the techniques up to some level
    that solves the puzzle made exactly the steps of the rating with every technique, and one that is stuck is
    stuck with fewer techniques too: each clue set's ratings are remembered (the orders of one answer often come
    back to the same sets) and answer the questions of every phase they settle, the final full rating included.
    A rating that asks whether a removal may go stops as soon as the removed cells are fixed, when the clues
    before the removal are known to be solved by the phase's techniques (``_Attempt``): the rest of the solve
    can only succeed; the last such rating of an order is finished when it turns out to be the order's end.
    The steps only take candidates away and their order does not change where they end, so the grid where a
    rating got stuck stands for its clues: a set holding those clues is rated from that grid with the set's
    other clues fixed (a rating at a phase no lower), and is stuck without a rating when they are all fixed
    there already (a grid stuck at a phase no lower). A rating of a clue set whose solve at easy or medium got stuck
    carries that solve on with the higher phase's techniques (``_Attempt.carry_on``): the steps of a fresh solve.
    A removal that leaves a superset of a set known solved at the phase, or a subset of one known stuck there, is
    answered without a rating (``_bounds``): a later order starts from the best set with orbits put back.
    """

    # What one answer's carving learns; ``_forget`` sets (and drops) it.
    rated: dict[frozenset[int], _Known]
    """What the ratings so far tell about each clue set asked about."""
    stuck_grids: list[_StuckGrid]
    """The last STUCK_GRIDS grids where a rating got stuck."""
    stuck_solves: dict[frozenset[int], _Attempt]
    """The last STUCK_SOLVES solves from the clues alone that got stuck below the top phase, by clue set: a rating
    of the same set at a higher phase carries one on instead of making its steps again."""
    solved_sets: list[tuple[int, frozenset[int]]]
    """The last KNOWN_KEPT (phase, clue set) found solved with the techniques up to that phase."""
    stuck_sets: list[tuple[int, frozenset[int]]]
    """The last KNOWN_KEPT (phase, clue set) found stuck with the techniques up to that phase."""
    proved: list[frozenset[int]]
    """The last PROVED_KEPT clue sets the CNF engine proved unique: a set holding one is unique too."""
    cut: dict[frozenset[int], list[tuple[int, _StuckGrid | None, frozenset[int]]]]
    """For each clue set, the solves of it that ran out of a work budget: (phase, the stuck grid it started from or
    None, the cells fixed when it ran out)."""
    last_solved: _Attempt | None
    """The last clue set found solvable: the end of the order when no removal follows, whose rating
    ``_full_rating`` then finishes from where the attempt stopped."""

    def __init__(self, answer: Grid, orbits: list[list[int]], level: str, clue_every_region: bool,
                 min_clues: int | None, max_clues: int | None, rating_budget: float | None,
                 rating_work: int | None = None, trials: Trials | None = None) -> None:
        self.answer = answer
        self.values = flatten(answer)
        self.rows, self.cols = len(answer), len(answer[0])
        self.orbits = orbits
        self.level = level
        self.phases = RATED_LEVELS[: RATED_LEVELS.index(level) + 1]
        self.rules = _ClueRules(self.values, self.rows, self.cols, clue_every_region, min_clues)
        self.max_clues = max_clues
        self.rating_budget = rating_budget
        self.rating_work = rating_work or default_rating_work(self.rows * self.cols)
        self.trials = trials
        """The look-ahead trials its ratings have run (shared by the answers of one generate call)."""
        self.ratings = self.orders = self.timeouts = 0
        self.checks = self.known = 0
        self.others: list[frozenset[int]] = []
        """For each other solution of some clue set seen so far: the cells where it differs from the answer."""
        self.ask = len(self.phases) > 1
        """Whether the CNF engine is asked about a removal before its rating. Not when carving to easy: most of its
        questions find the set unique and the rating follows anyway, and an easy rating of a set with another
        solution costs about what the question that refuses it does (5x5-7x7 easy: 0.86-0.96 of the CPU without
        them, the same puzzles); at higher levels the other solutions the questions find refuse, free, the
        removals of the later phases, whose ratings cost more (5x5-7x7 medium without the easy phase's
        questions: 1.02-1.14)."""
        self.oracle = None
        self._forget()
        self.kept_phase: int | None = None
        """The lowest phase (index in RATED_LEVELS) known to solve the clues kept so far in this order, or None."""

    def close(self) -> None:
        if self.oracle is not None:
            self.oracle.close()
            self.oracle = None

    def run(self, rng: Stream):
        """(sorted kept cells, the rating with every technique) of a puzzle at the level, or (None, None)."""
        from .logic import FewerCollections

        with FewerCollections():  # a rating after another, hundreds on a big grid
            try:
                return self._orders(rng)
            finally:
                self._forget()

    def _forget(self) -> None:
        """Empty the ratings' memos, solves and grids: at the start, and after the carving while the raised GC threshold
        still holds: freed then, they leave the collector's young count, instead of being walked (and, held by the
        carving's closures, freed) by the first collection after it (gcgen probe: 6x6 medium, 0.68 -> 0.15 ms a
        collection, one a puzzle)."""
        self.rated = {}
        self.stuck_grids = []
        self.stuck_solves = {}
        self.solved_sets = []
        self.stuck_sets = []
        self.proved = []
        self.last_solved = None
        self.cut = {}

    def _orders(self, rng: Stream):
        start = set(range(len(self.values)))
        best: tuple[tuple, set[int]] | None = None
        for _ in range(orders_per_answer(len(self.values))):
            self.orders += 1
            self.kept_phase = 0 if len(start) == len(self.values) else self._solved_phase(frozenset(start))
            kept = self._carve(set(start), rng.shuffle([list(o) for o in self.orbits]))
            fits = self.max_clues is None or len(kept) <= self.max_clues
            rating = self._full_rating(kept)
            if fits and rating.level == self.level:
                return sorted(kept), rating
            rank = (fits, RATED_LEVELS.index(rating.level) if rating.level in RATED_LEVELS else -1, rating.score,
                    -len(kept))
            if best is None or rank > best[0]:
                best = (rank, kept)
            removed = [o for o in self.orbits if not set(o) & best[1]]
            back = rng.shuffle(removed)[: max(2, round(PUT_BACK * len(removed)))]
            start = best[1] | {c for o in back for c in o}
        return None, None

    def _carve(self, kept: set[int], order: list[list[int]]) -> set[int]:
        for phase in self.phases:
            def removable(removal: set[int], phase: str = phase) -> bool:
                return self.rules.allow(kept, removal) and self._solves(kept, removal, phase)

            def accept(removal: set[int], top: int = RATED_LEVELS.index(phase)) -> None:
                kept.difference_update(removal)
                self.kept_phase = top

            _carve_in_chunks([o for o in order if set(o) <= kept], kept, accept=accept, removable=removable)
        return kept

    def _solved_phase(self, clues: frozenset[int]) -> int | None:
        """The lowest phase (index in RATED_LEVELS) known to solve the clues at ``clues`` (by their own ratings, or by
        a set known solved that they hold: a later order's start holds the best set), or None."""
        solved = [phase for phase, kept in self.solved_sets if kept <= clues]
        known = self.rated.get(clues)
        if known is not None and known.solved < len(RATED_LEVELS):
            solved.append(known.solved)
        return min(solved, default=None)

    def _full_rating(self, kept: set[int]):
        key = frozenset(kept)
        known = self.rated.setdefault(key, _Known())
        if known.rating is None:
            last = self.last_solved
            if last is not None and last.clues == key:
                known.take(last.finish())
            if known.rating is None or not known.rating.solved:  # not solved: the carver's assumption failed
                known.take(self._rate(kept, "expert"))
            self._note(key, known)
        return known.rating

    def _note(self, clues: frozenset[int], known: _Known) -> None:
        """Keep what the ratings so far tell about ``clues`` for the sets around it (``_bounds``)."""
        if known.solved < len(RATED_LEVELS):
            self.solved_sets.append((known.solved, clues))
            del self.solved_sets[:-KNOWN_KEPT]
        if known.stuck >= 0:
            self.stuck_sets.append((known.stuck, clues))
            del self.stuck_sets[:-KNOWN_KEPT]

    def _bounds(self, remaining: frozenset[int], top: int) -> bool | None:
        """Whether the techniques up to phase ``top`` solve the clues at ``remaining``, when a set kept in
        ``solved_sets`` or ``stuck_sets`` settles it, else None: more clues almost never make a puzzle harder (the
        assumption that carving in chunks, and stopping a rating once the removal is fixed, rest on; the ladder is not
        quite monotone, and 3 of 6,182 such answers were wrong over 5x5 expert seeds 0-9, which changes only the
        puzzle carved: the finished one is rated whole)."""
        if any(phase <= top and clues <= remaining for phase, clues in self.solved_sets):
            return True
        if any(phase >= top and remaining <= clues for phase, clues in self.stuck_sets):
            return False
        return None

    def _solves(self, kept: set[int], removal: set[int], phase: str) -> bool:
        """Whether the rater with the techniques up to ``phase`` solves the clues at ``kept`` without ``removal``
        (``kept`` itself has only the answer: the rater solved it, or it holds every clue)."""
        remaining = frozenset(kept - removal)
        top = RATED_LEVELS.index(phase)
        known = self.rated.get(remaining)
        if known is not None and (answer := known.answer(top)) is not None:
            return answer
        if (bound := self._bounds(remaining, top)) is not None:
            return bound  # no memo entry: the kept set answers again
        if self._has_other(remaining, removal):
            return False  # refused with no memo entry: most questions end here (5x5 expert: 12,900 of 14,500)
        if known is None:
            known = self.rated[remaining] = _Known()
        base = self._stuck_below(remaining, top)
        if base is not None and base.phase >= top and remaining - base.clues <= base.fixed:
            known.stuck = max(known.stuck, top)
            self._note(remaining, known)
            return False  # stuck the same way: the clues it adds to a stuck grid are fixed there already
        if self.orders > 1:
            base = None  # a solve carried on has no steps to rate the order's end: worth it only in one-order runs
        # stopping once the removal is fixed needs the clues before it solved by this phase's techniques
        early = self.kept_phase is not None and self.kept_phase <= top
        until = removal if early else None
        lower = self.stuck_solves.pop(remaining, None) if base is None else None
        if lower is not None and (until is None or not until <= lower.solve.fixed()):
            # a fresh solve at this phase would pass the lower one's stuck grid without stopping, then go on from it
            self.ratings += 1
            attempt = lower
            state = attempt.carry_on(phase, until)
        elif self._cut_before(remaining, top, base, until):
            self.timeouts += 1
            return False  # the very solve ran out of its budget before: it would again, at the same check
        else:
            self.ratings += 1
            attempt = _Attempt(self, remaining, phase, None if base is None else base.cand)
            state = attempt.run_until_fixed(until)
        if state == "budget":
            self.timeouts += 1
            if self.rating_budget is None:  # a CPU budget runs out where the machine's speed says: never the same
                self.cut.setdefault(remaining, []).append((top, base, attempt.solve.fixed()))
        elif state in ("solved", "fixed"):
            if base is None:
                known.learn(attempt, top)
                self.last_solved = attempt
            else:
                known.solved = min(known.solved, top)
                self.last_solved = None
            self._note(remaining, known)
        elif state == "stuck":
            known.stuck = max(known.stuck, top)
            self._note(remaining, known)
            # a copy: the solve's own grid changes if it is carried on at a higher phase
            self.stuck_grids.append(_StuckGrid(top, remaining, list(attempt.solve.candidates()),
                                               attempt.solve.fixed()))
            del self.stuck_grids[:-STUCK_GRIDS]
            if base is None and top < min(CARRIED_PHASES, len(self.phases) - 1):
                self.stuck_solves[remaining] = attempt
                while len(self.stuck_solves) > STUCK_SOLVES:
                    del self.stuck_solves[next(iter(self.stuck_solves))]
        return state in ("solved", "fixed")

    def _cut_before(self, clues: frozenset[int], top: int, base: _StuckGrid | None, until: set[int] | None) -> bool:
        """Whether a solve of ``clues`` with the techniques up to phase ``top`` or a lower one, from the same start
        (``base``, None: the clues alone, or a lower solve carried on, which makes a fresh solve's steps), ran out of
        its work budget before without ever fixing every cell of ``until``: a solve is deterministic (its look-ahead
        trials kept or not, its checks the same), so this one would make the same passes to the same check and run
        out there too (``until`` is checked after each pass, and a cell once fixed stays fixed, so none of those
        passes stopped it). A lower phase's run answers too: the ladder takes the gentlest technique that makes
        progress, so a higher phase's techniques run only on a grid where every lower one found nothing, where the
        lower run would have ended stuck, not run out; until then both runs make the same passes and checks. The
        chunks' halves and the later orders ask such sets again (7x7 hard, work 600: 81 of 144), and the expert
        phase asks the sets the hard phase could not rate (15x15 expert seed 0: 22 of its first 43 expert
        ratings)."""
        return any(phase <= top and start == base and (until is None or not until <= fixed)
                   for phase, start, fixed in self.cut.get(clues, ()))

    def _stuck_below(self, clues: frozenset[int], top: int) -> _StuckGrid | None:
        """Of the stuck grids kept whose clues are among ``clues``, the one with the most fixed cells that either
        was reached with techniques up to ``top`` or fewer (a start for a rating of ``clues`` at ``top``) or has
        every clue of ``clues`` fixed (``clues`` are then stuck there too), or None."""
        best = None
        for grid in self.stuck_grids:
            if grid.clues <= clues and (best is None or len(grid.fixed) > len(best.fixed)):
                if grid.phase <= top or clues - grid.clues <= grid.fixed:
                    best = grid
        return best

    def _has_other(self, remaining: set[int], removal: set[int]) -> bool:
        """Whether the clues at ``remaining`` are known to admit another solution than the answer."""
        if self.oracle is None:
            from .solvers.cnf import UniquenessOracle

            # a model of this shape kept from the answers before, with what their questions taught it
            self.oracle = UniquenessOracle(self.answer, budget=Budget(conflicts=FILTER_CONFLICTS), shared=True)
            # the other solutions next to the answer, found without the engine: a fifth of its questions go
            self.others.extend(swapped_solutions(self.values, self.rows, self.cols))
        if any(map(remaining.isdisjoint, self.others)):  # the loop in C: about 8 others a question
            self.known += 1
            return True
        if not self.ask or any(clues <= remaining for clues in self.proved):
            return False  # not asking (easy), or it holds a set proved unique (a failed chunk's, asked in halves)
        self.checks += 1
        # the clues before the removal admit only the answer, so another solution differs on the removal
        status, other = self.oracle.check(sorted(remaining), must_differ=sorted(removal))
        if status == Status.UNIQUE:
            self.proved.append(frozenset(remaining))
            del self.proved[:-PROVED_KEPT]
        if status != Status.MULTIPLE or other is None:
            return False  # unique, or too hard a question for a shortcut: the rater decides
        diff = frozenset(c for c, (v, w) in enumerate(zip(self.values, flatten(other), strict=True)) if v != w)
        if not diff or not diff.isdisjoint(remaining):
            raise FillominoError("internal error: the engine's other solution does not fit the clues it was asked")
        self.others.append(diff)
        return True

    def budget(self) -> float | Work:
        """The budget of one rating: the CPU seconds asked for, else a fresh work budget."""
        return Work(self.rating_work) if self.rating_budget is None else self.rating_budget

    def _rate(self, kept: set[int], max_level: str):
        from .logic import rate

        clues = tuple(v if c in kept else 0 for c, v in enumerate(self.values))
        # the answer solves every subset of its own clues: the look-ahead may skip what it satisfies
        rating = rate(Puzzle(self.rows, self.cols, clues), budget=self.budget(), max_level=max_level,
                      solution=self.answer, trials=self.trials)
        self.ratings += 1
        if rating.state == "budget":
            self.timeouts += 1
        return rating


def swapped_solutions(values: Sequence[int], rows: int, cols: int) -> list[frozenset[int]]:
    """Every other solution that differs from the solution ``values`` (row-major) in exactly two cells, as those
    two cells: two regions trading a cell (each gives one cell to the other and keeps its size), the only way two
    changed cells can make a solution."""
    nbrs = neighbour_table(rows, cols)
    region = [0] * len(values)
    cells: list[set[int]] = []
    for r, group in enumerate(groups(list(values), rows, cols)):
        for c in group:
            region[c] = r
        cells.append(set(group))
    touching = sorted({(min(region[a], region[b]), max(region[a], region[b]))
                       for a in range(len(values)) for b in nbrs[a] if values[a] != values[b]})

    def fits(cell: int, value: int, joins: int, leaves: int) -> bool:
        """Whether ``cell``, given ``value``, may join region ``joins`` as its cell ``leaves`` goes: it borders the
        rest of that region (unless it is the new region alone) and no cell of that size beyond; the rest of the
        region keeps its borders, where nothing else changed, so this and connection are all a trade needs."""
        inside = value == 1
        for n in nbrs[cell]:
            if region[n] == joins:
                inside = inside or n != leaves
            elif values[n] == value:
                return False
        return inside

    def connected(cell: int, value: int, joins: int, leaves: int) -> bool:
        if value <= 2:
            return True  # one cell, or two that fits() found side by side
        area = cells[joins] - {leaves} | {cell}
        return len(component(cell, area, nbrs)) == len(area)

    found = []
    for one, other in touching:
        x, y = values[next(iter(cells[one]))], values[next(iter(cells[other]))]
        # a cell can only change sides where it borders the other region (unless that region is its one cell)
        gives = [a for a in cells[one] if y == 1 or any(region[n] == other for n in nbrs[a])]
        takes = [b for b in cells[other] if x == 1 or any(region[n] == one for n in nbrs[b])]
        for a in gives:
            for b in takes:
                if fits(b, x, one, a) and fits(a, y, other, b) and connected(b, x, one, a) \
                        and connected(a, y, other, b):
                    found.append(frozenset((a, b)))
    return found


class _StuckGrid(NamedTuple):
    """Where a rating of the clues at ``clues`` with the techniques up to ``phase`` (an index in RATED_LEVELS)
    got stuck: the candidates, and the cells fixed among them."""

    phase: int
    clues: frozenset[int]
    cand: list[int]
    fixed: frozenset[int]


@dataclass
class _Known:
    """What the ratings of one clue set so far tell about it; phases and levels are indices in RATED_LEVELS.

    The ladder takes the gentlest technique that makes progress, so a solve with the techniques up to some
    phase takes the steps of the solve with every technique until that one's first step above the phase, and is
    stuck there: a step of a level above a phase among the first steps of a solve means stuck at that phase.
    """

    stuck: int = -1
    """The highest phase whose techniques were stuck on it (-1: none)."""
    solved: int = len(RATED_LEVELS)
    """The lowest phase whose techniques solved it (len(RATED_LEVELS): none yet)."""
    used: int = -1
    """The highest level of a step its solve takes, as far as one was followed (-1: no step above bookkeeping)."""
    rating: Rating | None = None
    """Its rating with every technique, once a solve of it was finished."""

    def answer(self, top: int) -> bool | None:
        """Whether the techniques up to phase ``top`` solve it, or None when that is not known."""
        if top <= self.stuck or top < self.used:
            return False
        if top >= self.solved:
            return True
        return None

    def learn(self, attempt: _Attempt, top: int) -> None:
        """An attempt with the techniques up to phase ``top`` solved it (or, stopped early, would have)."""
        self.solved = min(self.solved, top)
        steps = attempt.solve.steps
        self.used = max([self.used] + [RATED_LEVELS.index(s.level) for s in steps if s.level in RATED_LEVELS])
        if attempt.solve.state == "solved":
            self.take(attempt.finish())

    def take(self, rating: Rating) -> None:
        """Its rating with every technique (a logic.Rating)."""
        self.rating = rating
        if rating.solved:
            self.used = -1 if rating.used_level is None else RATED_LEVELS.index(rating.used_level)
            self.solved = min(self.solved, max(self.used, 0))  # the same steps with the techniques up to ``used``


class _Attempt:
    """One rating of a clue set with the techniques up to a phase (a logic.Solve), that can stop as soon as every
    removed cell is fixed (``run_until_fixed``) and be finished later (``finish``).

    Why stopping there is sound: the grid then has every clue of the set before the removal fixed (the removed
    cells at their answer, since every step is sound and the set has only the answer), so it holds no more
    candidates than that set's starting grid, which the same techniques solve; the ladder's steps only take
    candidates away, so they solve this grid too (the same assumption, more clues never harder, that carving in
    chunks rests on). ``start``: a grid to carry on from instead (a stuck grid of some of the clues, see
    ``_LevelCarver``): it ends solved or stuck as the whole rating does, but its steps are not the rating's.
    """

    def __init__(self, carver: _LevelCarver, clues: frozenset[int], phase: str, start: list[int] | None = None) -> None:
        from .logic import Solve

        values = carver.values
        self.clues = clues
        self.phase = phase
        self.given = tuple(v if c in clues else 0 for c, v in enumerate(values))
        # the answer solves every subset of its own clues: the look-ahead may skip what it satisfies
        self.solve = Solve(carver.rows, carver.cols, self.given, max_level=phase, budget=carver.budget(),
                           witness=lambda: values, start=start, trials=carver.trials)

    def run_until_fixed(self, removal: set[int] | None) -> str:
        """"fixed" once every cell of ``removal`` is fixed (None: carry on to the end), else how the solve ended:
        "solved", "stuck", "budget" or "contradiction"."""
        return self.solve.run(None if removal is None else sorted(removal))

    def carry_on(self, phase: str, until: set[int] | None) -> str:
        """Carry a solve that got stuck from the clues alone on with the techniques up to ``phase`` (a higher one),
        as ``run_until_fixed(until)``; ``until`` (None or cells) must not all be fixed on the stuck grid.

        Why the steps are those of a fresh solve at ``phase``: the ladder takes the gentlest technique that makes
        progress, so the fresh solve makes the stuck solve's very steps (``until`` not yet fixed after any of them,
        since candidates only shrink), then finds nothing with the lower techniques on the same grid and goes on
        with the higher ones, as this does (the lower ones, which have no look-ahead, are marked clean on that grid
        and passed over). A work budget gets back the CARRY_ON_CHECKS checks only the carried-on solve makes, so it
        runs out where the fresh solve's would."""
        self.phase = phase
        self.solve.max_level = phase
        if isinstance(self.solve.left, Work):
            self.solve.left.left += CARRY_ON_CHECKS
        return self.run_until_fixed(until)

    def finish(self) -> Rating:
        """The rating with every technique (a logic.Rating): the rest of the solve, with the phase's techniques
        (the ladder takes the gentlest technique first, so a solve that needs none above the phase makes the full
        rating's very steps)."""
        return self.solve.finish()
