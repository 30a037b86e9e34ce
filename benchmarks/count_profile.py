"""Where the region search spends its time on the clued boards of benchmarks/count_clued.py.

For each board named, one region search (pictures or cuts) runs until it finishes or its wall-clock
budget passes, and the script prints what it visited: CPU seconds, parts counted and the share of them
dead (count 0), the CPU seconds spent in parts with no clue left (the clue-free pockets the clue regions
leave) and how many of those there were, how many distinct cell sets the clue-free cache entries have
(the rest of each key is the sizes its cells may not take), how many keys would remain if clue-free
parts were cached by their shape moved to the top-left corner, how many times a part with clues was asked for
and how often the cache answered, its keys against their distinct cell sets and against the keys left once each
mark is cut to the cells a region of its size could hold (the rest merge), and the CNF checks made, refuted and
skipped because another open part was still pending. Nothing is written: the figures go into the
analysis under the count_clued table by hand. ``--walks N`` adds Knuth's random-walk estimate of each
count (an estimate, printed as one, to tell which side of a target a board is on; never a count).
``--frontier`` instead times the frontier sweep (``fillomino.frontier``) against the region search the same way
(alternated, ``--repeat`` times, each under ``--seconds`` CPU seconds), with the sweep's peak of states.
``--against COMMIT`` instead times the region search of that commit (its whole fillomino package, loaded by
benchmarks/older.py) against this one's, alternated in one process, ``--repeat`` times each, each under a budget
of ``--seconds`` CPU seconds, and prints CPU seconds and counts side by side.
``--time METHOD`` prints each board's count and CPU seconds by the region search, the frontier sweep or the transfer
matrix; with ``--trees PURE,COMPILED`` it runs that in each tree (say a copy of one commit as it is and one with its
counters compiled by mypyc) in child processes, alternated, ``--repeat`` times, and prints them side by side with
their ratio (each child runs this script with ``--tree DIR``, which imports that tree's fillomino; for a board
that does not finish, each tree's parts counted, dead and regions laid in the budget are printed as its progress).
``--bound S`` prints a lower bound on each count from S CPU seconds of partial counts (parts counted exactly under
``--leaf`` seconds each, the rest laid one level down; a bound, to tell a board past a target, never a count).
The default profile wraps the search's methods, so it needs the pure build (a compiled class cannot
be patched); the CPU budgets go through the counters' ``timer`` option and work on either.
Besides the table's boards, ``janko-NNN -K@S`` names an external puzzle with the K clues of
``random.Random(100 * S + K).sample`` removed (``janko-007 -0@0``: all its clues), and ``RxC keep P @S`` a random
picture of ``random.Random(S)`` keeping each of its numbers with probability P (``6x6 keep 0.25 @4``).

    python benchmarks/count_profile.py --seconds 20 "8x8 keep 0.35 #1" "janko-008 -2:cuts"
    python benchmarks/count_profile.py --seconds 0 --walks 1000 "janko-015 -2"
    python benchmarks/count_profile.py --against 16cb309 --seconds 60 "8x8 keep 0.45 #2" "janko-007 -1@2"
    python benchmarks/count_profile.py --time regions --trees /tmp/pure,/tmp/compiled --seconds 60 "janko-015 -2"
    python benchmarks/count_profile.py --tree /tmp/compiled --seconds 0 --bound 60 "janko-007 -12"
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# --tree DIR: import that tree's fillomino (a compiled copy, an older commit) under this script
sys.path.insert(0, sys.argv[sys.argv.index("--tree") + 1] if "--tree" in sys.argv[:-1] else str(ROOT))
importlib.import_module("fillomino")  # before count_clued, which puts this script's tree on the path too
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from count_clued import drafts, random_boards, random_picture  # noqa: E402  (beside this script)
from older import module_at  # noqa: E402

from fillomino.grid import bit_ball, bit_components, bit_spread, set_bits  # noqa: E402
from fillomino.puzzle import Puzzle  # noqa: E402
from fillomino.regions import SAT_CELLS, Lists, Part, RegionSearch, RegionTimeout, _deep_recursion  # noqa: E402


def shifted(key: tuple[int, tuple[tuple[int, int], ...]], cols: int) -> tuple:
    """A clue-free part's key moved to the top-left corner (its count depends on its shape alone)."""
    mask, marks = key
    cells = list(set_bits(mask))
    by = min(c // cols for c in cells) * cols + min(c % cols for c in cells)
    return mask >> by, tuple((k, m >> by) for k, m in marks)


def room(search: RegionSearch, comp: int, k: int) -> int:
    """The cells of a clued part ``comp`` that a region of ``k`` cells could hold (an over-estimate): within k - 1 steps
    of a clue k through cells clued k or not at all, or in a run of at least k unclued cells next to no clue k. A mark
    (size k on a cell) outside it changes no count."""
    rows, cols, clued = search.rows, search.cols, search.clued
    mine = search.clue_is[k] & comp
    out = bit_ball(mine, comp & ~(clued ^ mine), k - 1, rows, cols) if mine else 0
    free = comp & ~clued & ~bit_spread(mine, rows, cols)
    for run in bit_components(free, rows, cols):
        if run.bit_count() >= k:
            out |= run
    return out


def profile(name: str, puzzle: Puzzle, cuts: bool, seconds: float) -> str:
    search = RegionSearch(puzzle, cuts=cuts, deadline=time.monotonic() + seconds)
    inner = search._count
    state = {"depth": 0, "free_cpu": 0.0, "free_roots": 0}
    asked: Counter[str] = Counter()

    def count(part, lists, others, pending, step=None):  # type: ignore[no-untyped-def]
        if part[0] & search.clued:
            asked["clued"] += 1
            asked["clued hits"] += part in search.cache
        if state["depth"] or part[0] & search.clued or part in search.cache:
            return inner(part, lists, others, pending, step)
        state["depth"] += 1
        start = time.process_time()
        try:
            return inner(part, lists, others, pending, step)
        finally:
            state["depth"] -= 1
            state["free_cpu"] += time.process_time() - start
            state["free_roots"] += 1

    ask = search._ask_sat

    def ask_sat(part, pending):  # type: ignore[no-untyped-def]
        if part[0].bit_count() >= SAT_CELLS:
            asked["pending" if pending else "asked"] += 1
        return ask(part, pending)

    search._count = count  # type: ignore[method-assign]
    search._ask_sat = ask_sat  # type: ignore[method-assign]
    start = time.process_time()
    try:
        got = str(search.count())
    except RegionTimeout:
        got = f">{seconds:.0f}s"
    cpu = time.process_time() - start
    free = [key for key in search.cache if not key[0] & search.clued]
    clued = [key for key in search.cache if key[0] & search.clued]
    # the clued keys again with their marks cut to the cells a region of that size could hold: how many would merge
    kept = {(mask, tuple((k, m & room(search, mask, k)) for k, m in marks if m & room(search, mask, k)))
            for mask, marks in clued}
    return (f"{name} {'cuts' if cuts else 'pictures'}: {got}, {cpu:.2f} CPU s, {search.parts_counted} parts "
            f"({search.parts_dead} dead), clue-free {state['free_cpu']:.2f} CPU s in {state['free_roots']} pockets, "
            f"{len(free)} clue-free keys over {len({k[0] for k in free})} cell sets "
            f"({len({shifted(k, search.cols) for k in free})} moved to the corner), clued parts {asked['clued']} "
            f"asked {asked['clued hits']} from the cache, {len(clued)} clued keys over {len({k[0] for k in clued})} "
            f"cell sets ({len(kept)} without marks no region could meet), CNF {search.sat_calls} checks "
            f"{search.sat_refuted} refuted, {asked['pending']} big parts not asked (another part pending)")


def sample(search: RegionSearch, part: Part, lists: Lists | None, rng: random.Random) -> int:
    """One random walk down the search tree: Knuth's unbiased estimate of the part's count (0 at a dead end)."""
    choices, valid = search._choices(part, lists)
    if not choices:
        return 0
    region, size = rng.choice(choices)
    found = search._children(part, region, size, valid)
    if found is None:
        return 0
    ways = len(choices)
    for child in found[0]:
        ways *= sample(search, child, found[1], rng)
        if not ways:
            return 0
    return ways


def estimate(puzzle: Puzzle, cuts: bool, walks: int, seed: int) -> tuple[float, float]:
    """The mean of ``walks`` random-walk estimates of the count and its standard error (an estimate, never a count:
    it says which side of the issue's 10^12 target a board is likely on)."""
    search = RegionSearch(puzzle, cuts=cuts)
    rng = random.Random(seed)
    full = (1 << search.n) - 1
    values = []
    with _deep_recursion(search.n):
        for _ in range(walks):
            parts = search._parts(full, {})
            ways = 1 if parts is not None else 0
            for part in parts or []:
                ways *= sample(search, part, None, rng)
            values.append(ways)
    mean = statistics.fmean(values)
    return mean, statistics.stdev(values) / math.sqrt(walks) if walks > 1 else 0.0


def bound(puzzle: Puzzle, cuts: bool, seconds: float, leaf: float) -> tuple[int, bool, int]:
    """(a lower bound on the count, whether it is the count, parts counted exactly) from ``seconds`` CPU seconds of
    the region search: a part is counted exactly under a budget of ``leaf`` seconds, or else its regions are laid
    one level down and each child product bounded the same way (the product of lower bounds of non-negative
    factors, their sum over the regions); once the time is spent the parts left count 0. A bound, never a guess."""
    timer, until = cpu_timer(seconds)
    search = RegionSearch(puzzle, cuts=cuts, timer=timer)
    exact_parts = [0]

    def part_bound(part: Part, lists: Lists | None, others: int) -> tuple[int, bool]:
        now = time.process_time()
        if now > until:
            return 0, False
        search.deadline = min(now + leaf, until)
        search.tainted = False
        try:
            # every other open part counts as pending: a CNF refutation here then only lowers this bound
            got = search._count(part, lists, others, others)
            exact_parts[0] += 1
            return got, True
        except RegionTimeout:
            search.tainted = False
        search.deadline = None
        choices, prop = search._choices(part, lists)
        total, exact = 0, True
        for region, size in choices:
            found = search._children(part, region, size, prop)
            if found is None:
                continue
            parts, below = found
            mark = size if region & search.clued else -size
            union = 0
            for p in parts:
                union |= p[0]
            ways, known = 1, True
            for p in parts:
                for c in set_bits(region):
                    search.label[c] = mark  # the CNF checks below read the laid cells' sizes here
                got, done = part_bound(p, below, others | (union & ~p[0]))
                ways *= got
                known = known and done
                if not got:
                    break
            if ways or known:
                total += ways
            exact = exact and known
        return total, exact

    with _deep_recursion(search.n):
        parts = search._parts((1 << search.n) - 1, {})
        lower, exact = (1, True) if parts is not None else (0, True)
        union = 0
        for p in parts or []:
            union |= p[0]
        for p in parts or []:
            got, done = part_bound(p, None, union & ~p[0])
            lower *= got
            exact = exact and done
    return lower, exact, exact_parts[0]


def draft(name: str) -> Puzzle | None:
    """``janko-NNN -K@S``: the external puzzle with the K clues of ``random.Random(100 * S + K)`` removed;
    ``RxC keep P @S``: a random picture of ``random.Random(S)`` keeping each number with probability P."""
    from conftest import EXTERNAL

    from fillomino.formats import parse_puzzle

    if " keep " in name and " @" in name:
        shape, _, rest = name.partition(" keep ")
        keep, _, seed = rest.partition(" @")
        rows, _, cols = shape.partition("x")
        rng = random.Random(int(seed))
        picture = random_picture(int(rows), int(cols), rng)
        return Puzzle(int(rows), int(cols), tuple(v if rng.random() < float(keep) else 0 for v in picture))
    stem, _, rest = name.partition(" -")
    removed, _, seed = rest.partition("@")
    path = EXTERNAL / f"{stem}.txt"
    if not seed or not path.is_file():
        return None
    puzzle = parse_puzzle(path.read_text())
    clued = [i for i, v in enumerate(puzzle.clues) if v]
    k = int(removed)
    gone = set(random.Random(100 * int(seed) + k).sample(clued, k))
    return Puzzle(puzzle.rows, puzzle.cols, tuple(0 if i in gone else v for i, v in enumerate(puzzle.clues)))


def cpu_timer(seconds: float) -> tuple[Callable[[], float], float]:
    """(timer, deadline) for a counter's ``timer`` option: a CPU-time budget of ``seconds`` (the machine is shared: a
    wall-clock budget would measure the other jobs), the clock read every 64th call (the counters read it often)."""
    start = time.process_time()
    calls = 0

    def timer() -> float:
        nonlocal calls
        calls += 1
        return time.process_time() if calls % 64 == 0 else start

    return timer, start + seconds


def budgeted(build: Callable[[Callable[[], float], float], Any], timeout: type[Exception],
             seconds: float) -> tuple[str, float]:
    """(count or ``>Ns``, CPU seconds) of ``build(timer, deadline).count()`` under a CPU-time budget."""
    start = time.process_time()
    timer, deadline = cpu_timer(seconds)
    try:
        got = str(build(timer, deadline).count())
    except timeout:
        got = f">{seconds:.0f}s"
    return got, time.process_time() - start


PROGRESS: dict[str, int] = {}
"""The last region search's tallies (parts counted, dead, live regions laid), for ``--time regions``."""


def timed(module, puzzle: Puzzle, cuts: bool, seconds: float) -> tuple[str, float]:  # type: ignore[no-untyped-def]
    """(count or ``>Ns``, CPU seconds) of one region search of ``module`` under a CPU-time budget."""

    def build(timer: Callable[[], float], deadline: float) -> Any:
        try:
            search = module.RegionSearch(puzzle, cuts=cuts, deadline=deadline, timer=timer)
            made.append(search)
            return search
        except TypeError:  # a commit before the timer option: its clock check replaced
            search = module.RegionSearch(puzzle, cuts=cuts)

            def tick() -> None:
                if timer() > deadline:
                    raise module.RegionTimeout

            search._tick = tick
            return search

    made: list[Any] = []
    got = budgeted(build, module.RegionTimeout, seconds)
    PROGRESS.clear()
    if made:
        PROGRESS.update(parts=made[0].parts_counted, dead=made[0].parts_dead, laid=getattr(made[0], "laid", -1))
    return got


def compare(commit: str, boards: list[tuple[str, Puzzle, bool]], seconds: float, repeat: int) -> None:
    """Each board by ``commit``'s region search and by this one, alternated, best CPU time of ``repeat``."""
    import fillomino.regions as now

    before = module_at(commit, "regions")
    totals = [0.0, 0.0]
    print(f"| board | kind | count | {commit} CPU s | now CPU s |")
    print("|---|---|---:|---:|---:|")
    for name, puzzle, cuts in boards:
        best = [math.inf, math.inf]
        got = ["", ""]
        for _ in range(repeat):
            for i, module in enumerate((before, now)):
                got[i], cpu = timed(module, puzzle, cuts, seconds)
                best[i] = min(best[i], cpu)
        counts = got[1] if got[0] == got[1] else f"{got[0]} / {got[1]}"
        if got[0].isdigit() and got[1].isdigit() and got[0] != got[1]:
            raise SystemExit(f"DISAGREE {name}: {got}")
        for i in (0, 1):
            totals[i] += best[i]
        print(f"| {name} | {'cuts' if cuts else 'pictures'} | {counts} | {best[0]:.2f} | {best[1]:.2f} |", flush=True)
    print(f"| total | | | {totals[0]:.2f} | {totals[1]:.2f} |")


def timed_frontier(puzzle: Puzzle, cuts: bool, seconds: float) -> tuple[str, float, int]:
    """(count or ``>Ns``, CPU seconds, peak states) of one frontier sweep under a CPU-time budget."""
    from fillomino.frontier import FrontierCount, FrontierTimeout

    made: list[FrontierCount] = []

    def build(timer: Callable[[], float], deadline: float) -> FrontierCount:
        made.append(FrontierCount(puzzle, cuts=cuts, deadline=deadline, timer=timer))
        return made[-1]

    got, cpu = budgeted(build, FrontierTimeout, seconds)
    return got, cpu, made[-1].peak if made else 0


def compare_frontier(boards: list[tuple[str, Puzzle, bool]], seconds: float, repeat: int) -> None:
    """Each board by the region search and by the frontier sweep, alternated, best CPU time of ``repeat``."""
    import fillomino.regions as now

    totals = [0.0, 0.0]
    print("| board | kind | count | regions CPU s | frontier CPU s | frontier peak states |")
    print("|---|---|---:|---:|---:|---:|")
    for name, puzzle, cuts in boards:
        best = [math.inf, math.inf]
        got = ["", ""]
        peak = 0
        for _ in range(repeat):
            got[0], cpu = timed(now, puzzle, cuts, seconds)
            best[0] = min(best[0], cpu)
            got[1], cpu, peak = timed_frontier(puzzle, cuts, seconds)
            best[1] = min(best[1], cpu)
        if got[0].isdigit() and got[1].isdigit() and got[0] != got[1]:
            raise SystemExit(f"DISAGREE {name}: {got}")
        counts = got[1] if got[0] == got[1] else f"{got[0]} / {got[1]}"
        for i in (0, 1):
            totals[i] += best[i]
        print(f"| {name} | {'cuts' if cuts else 'pictures'} | {counts} | {best[0]:.2f} | {best[1]:.2f} | {peak} |",
              flush=True)
    print(f"| total | | | {totals[0]:.2f} | {totals[1]:.2f} | |")


class _Spent(Exception):
    """The transfer matrix's CPU budget ran out."""


def time_one(method: str, puzzle: Puzzle, cuts: bool, seconds: float) -> tuple[str, float]:
    """(count or ``>Ns``, CPU seconds) of one count by ``method`` (regions, frontier or transfer) under a CPU budget."""
    if method == "regions":
        import fillomino.regions as now

        return timed(now, puzzle, cuts, seconds)
    if method == "frontier":
        got, cpu, _peak = timed_frontier(puzzle, cuts, seconds)
        return got, cpu
    from fillomino.transfer import count_cuts, count_pictures

    start = time.process_time()

    def step(done: int, total: int) -> None:
        if time.process_time() - start > seconds:
            raise _Spent

    try:
        got = str((count_cuts if cuts else count_pictures)(puzzle, progress=step))
    except _Spent:
        got = f">{seconds:.0f}s"
    return got, time.process_time() - start


def compare_trees(trees: list[str], method: str, names: list[str], seconds: float, repeat: int) -> None:
    """Each board by ``method`` in each tree (its own fillomino, pure or compiled), one child process a run,
    alternated, best CPU time of ``repeat``; the ratio is the first tree's time over each other's."""
    import subprocess

    kinds = []
    for tree in trees:
        probe = subprocess.run([sys.executable, "-c", "import fillomino.regions as m, fillomino.grid as g, "
                                "fillomino.frontier as f, fillomino.transfer as t; "
                                "print(' '.join('so' if x.__file__.endswith('.so') else 'py' for x in (m, g, f, t)))"],
                               cwd=tree, capture_output=True, text=True, check=True, env={"PYTHONPATH": tree})
        kinds.append(probe.stdout.strip())
    print(f"{method}, trees: " + "; ".join(f"{t} (regions grid frontier transfer: {k})" for t, k in zip(trees, kinds)))
    print("| board | kind | count | " + " | ".join(f"CPU s ({k.split()[0]})" for k in kinds) + " | ratio |")
    print("|---|---|---:|" + "---:|" * len(trees) + "---:|")
    totals = [0.0] * len(trees)
    for wanted in names:
        best = [math.inf] * len(trees)
        got = [""] * len(trees)
        tallies = [""] * len(trees)
        for _ in range(repeat):
            for i, tree in enumerate(trees):
                run = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--tree", tree, "--time", method,
                                      "--seconds", str(seconds), wanted], cwd=tree, capture_output=True, text=True,
                                     check=True, env={"PATH": "/usr/bin:/bin"})
                words = run.stdout.split(": ", 1)[1].split()
                got[i], cpu = words[:2]
                if float(cpu) < best[i]:
                    best[i] = float(cpu)
                    tallies[i] = " ".join(words[2:])
        if len({g for g in got if g.isdigit()}) > 1:
            raise SystemExit(f"DISAGREE {wanted}: {got}")
        for i in range(len(trees)):
            totals[i] += best[i]
        name, _, kind = wanted.partition(":")
        counts = got[0] if len(set(got)) == 1 else " / ".join(got)
        print(f"| {name} | {kind or 'pictures'} | {counts} | " + " | ".join(f"{b:.2f}" for b in best) +
              f" | {best[0] / max(best[-1], 1e-9):.1f} |", flush=True)
        if method == "regions" and not all(g.isdigit() for g in got):
            print("  (unfinished, the best run's tallies: " + "; ".join(tallies) + ")", flush=True)
    print("| total | | | " + " | ".join(f"{t:.2f}" for t in totals) + f" | {totals[0] / max(totals[-1], 1e-9):.1f} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boards", nargs="+", help="board names as in the count_clued table; ':cuts' for cuts")
    ap.add_argument("--seconds", type=float, default=20.0, help="wall-clock budget per board (default 20)")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--walks", type=int, default=0, help="also estimate each count by this many random walks")
    ap.add_argument("--bound", type=float, default=0, metavar="SECONDS",
                    help="also a lower bound on each count from this many CPU seconds of partial counts")
    ap.add_argument("--leaf", type=float, default=1.0, help="with --bound: CPU seconds a part is counted exactly "
                    "before its regions are laid one level down (default 1)")
    ap.add_argument("--against", metavar="COMMIT", help="time that commit's region search against this one's")
    ap.add_argument("--repeat", type=int, default=1, help="with --against: runs of each, best CPU time kept")
    ap.add_argument("--frontier", action="store_true", help="time the frontier sweep against the region search")
    ap.add_argument("--time", choices=["regions", "frontier", "transfer"],
                    help="print each board's count and CPU seconds by this method, one line each")
    ap.add_argument("--tree", metavar="DIR", help="import fillomino from this tree instead of this script's (read "
                    "before the imports; --trees runs its children so)")
    ap.add_argument("--trees", metavar="DIR,DIR", help="with --time: run it in each tree (say a pure and a compiled "
                    "copy of one commit) in child processes, alternated, and tabulate the CPU seconds side by side")
    args = ap.parse_args()
    if args.time and args.trees:
        compare_trees(args.trees.split(","), args.time, args.boards, args.seconds, args.repeat)
        return 0
    known = {name: Puzzle(r, c, clues) for name, r, c, clues in random_boards(args.seed, 4) + drafts(args.seed, 3,
                                                                                                    [2, 6, 12])}
    for wanted in args.boards:
        name = wanted.partition(":")[0]
        if name not in known:
            found = draft(name)
            if found is None:
                print(f"no board named {name!r}", file=sys.stderr)
                return 2
            known[name] = found
    boards = [(w.partition(":")[0], known[w.partition(":")[0]], w.endswith(":cuts")) for w in args.boards]
    if args.time:
        for name, puzzle, cuts in boards:
            got, cpu = time_one(args.time, puzzle, cuts, args.seconds)
            tally = " ".join(f"{k}={v}" for k, v in PROGRESS.items()) if args.time == "regions" else ""
            print(f"{name} {'cuts' if cuts else 'pictures'}: {got} {cpu:.3f} {tally}".rstrip(), flush=True)
        return 0
    if args.frontier:
        compare_frontier(boards, args.seconds, args.repeat)
        return 0
    if args.against:
        compare(args.against, boards, args.seconds, args.repeat)
        return 0
    for wanted in args.boards:
        name, _, kind = wanted.partition(":")
        if args.seconds > 0:
            print(profile(name, known[name], kind == "cuts", args.seconds), flush=True)
        if args.bound:
            start = time.process_time()
            lower, exact, parts = bound(known[name], kind == "cuts", args.bound, args.leaf)
            print(f"{name} {kind or 'pictures'}: {'exactly' if exact else 'at least'} {lower} ({lower:.3g}; "
                  f"{parts} parts counted exactly, {time.process_time() - start:.1f} CPU s)", flush=True)
        if args.walks:
            start = time.process_time()
            mean, error = estimate(known[name], kind == "cuts", args.walks, args.seed)
            print(f"{name} {kind or 'pictures'}: about {mean:.3g} (standard error {error:.2g}, {args.walks} walks, "
                  f"{time.process_time() - start:.1f} CPU s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
