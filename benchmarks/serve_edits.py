"""How soon the workbench (`fillomino serve`) has the verdict and the loose cells after each edit of a 10x10.

Starts ``fillomino serve`` from this working tree on a free loopback port and plays the setter of the
browser test (tests/test_serve_browser.py) on each puzzle through its JSON API, asking the verdict and
the loose cells of each edit at once as the page does: take a clue out (every ``--step``-th clue; one
that was not needed is put straight back), try the solution's value on the first cell that became
loose, take it back, put the first clue back. The server answers as it answers the page: a grid seen
before from its settled answers, the loose cells of a grid with added clues narrowed from a settled one.

"CPU" is what the worker process spent on one panel (``cpu_ms`` of the answer; none for a settled
answer). "Shown after" is what an idle machine with two cores would take, the two panels running side
by side and the page showing both once it has both: the loose cells' CPU, or the verdict's when it is
unique or none and comes first (that settles the loose cells); 0 for settled answers. The page adds
some 20 ms of round trip. "Budget spent" counts edits whose verdict or loose cells ran out of the
server's 10 s budget ("unknown" on the page). "Server wall" is the time the server took to answer
both, on this machine at its load. ``--all-removals`` also takes each clue of each puzzle out once,
on its own and put back: every "take out a clue" edit there is, not just the test's, in a shuffled
order (the same for every run), since a setter picks a clue where the server works in reading order.

``--think T [T ...]`` is the setter's pause before taking a clue out (looking at the grid with every
clue in, after its answers), one fresh server (and one table) per value in the same run: while the page
waits, the server works ahead on the removal of each clue of the grid on screen (``fillomino.serve.ahead``).
The other edits follow their answers at once. The pause is counted in CPU seconds of
the background workers, not wall seconds: on an idle two-core machine each of them (two at most) has a
core to itself while the setter thinks, so the pause lasts until one of them has spent T CPU seconds
since it began, which is T seconds of thinking there; on a busy one the wall time is the load's.
A pause ends early when there is nothing left to work on. The background workers run at the lowest
priority, so next to a long run with a higher one they would get no CPU at all: the benchmark sets them
back to a normal priority (as root; else they stay low) so that they get their share. ``--think 0`` (the default)
is today's behaviour, with the background still on; ``--no-ahead`` switches it off.
"Cached" counts edits whose verdict and loose cells were both settled before the edit (or the verdict
was, unique or none); "ahead" the edits answered by a background question still in flight.

    python benchmarks/serve_edits.py [FILE ...] [--puzzles 10] [--step 5] [--all-removals] [--think 0 5 15]
        [--no-ahead] [--server-root DIR]
    python benchmarks/serve_edits.py [FILE ...] --ahead-cost
    python benchmarks/serve_edits.py --keep-or-kill 3

``--ahead-cost`` measures only what working ahead costs: for each puzzle, a fresh server is shown the
grid and the background's CPU (from worker start to every removal settled) is printed. ``--keep-or-kill``
measures whether a background question in flight slows the page's own (see ``keep_or_kill``).

``--server-root DIR`` serves another source tree (say ``git archive`` of the commit to compare with) under
this benchmark, so two versions run the same edits in one session.

FILE defaults to janko.at 10x10 #007 (the test's puzzle) and the first ``--puzzles`` unique 10x10
puzzles of ../shared/corpus-external/INDEX.tsv. Prints Markdown tables and the load average.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the working tree, not an installed copy

from benchmarks.stats import percentile  # noqa: E402
from fillomino.formats import read_puzzle, write_id  # noqa: E402
from fillomino.puzzle import Puzzle, cell_name  # noqa: E402
from fillomino.serve.ahead import process_cpu  # noqa: E402
from fillomino.serve.workers import FIRST_PANELS  # noqa: E402
from fillomino.solvers import solve  # noqa: E402
from tests.test_serve_support import ahead_state, post, running_server  # noqa: E402

EXTERNAL = ROOT.parent / "shared" / "corpus-external"
DEFAULT_PUZZLE = "janko-007.txt"


class Page:
    """One page of the workbench: each edit asks the verdict and the loose cells at once."""

    _clients = itertools.count(1)

    def __init__(self, base: str, pool: ThreadPoolExecutor, think: float = 0.0) -> None:
        self.base, self.pool, self.think = base, pool, think
        self.client = f"bench-{os.getpid()}-{next(self._clients)}"
        self.seq = 0
        self.pauses = self.capped = 0

    def ahead(self) -> dict:
        return ahead_state(self.base, boost=True)  # see the module's text: its share of the CPU, not none

    def pause(self) -> None:
        """The setter thinks: until a background worker has spent ``think`` CPU seconds, or there is nothing left.

        Each background worker has a core of an idle two-core machine while the page is idle, so the pause
        lasts as long as the most CPU any one of them has spent since it began (a server with one background
        worker: that worker's CPU)."""
        if self.think <= 0:
            return
        self.pauses += 1
        state, wall = self.ahead(), time.monotonic()
        start = {pid: process_cpu(pid) for pid in state.get("pids", [state.get("pid")]) if pid}
        while time.monotonic() - wall < max(120.0, 60 * self.think):
            state = self.ahead()
            pids = [pid for pid in state.get("pids", [state.get("pid")]) if pid]
            spent = max((process_cpu(pid) - start.setdefault(pid, 0.0) for pid in pids), default=0.0)
            if state["idle"] or spent >= self.think:
                return
            time.sleep(0.05)
        self.capped += 1

    def edit(self, puzzle: Puzzle) -> dict:
        self.seq += 1
        body = {"puzzle": write_id(puzzle), "client": self.client, "seq": self.seq}
        asked = {name: self.pool.submit(post, self.base, f"/api/panel/{name}", body) for name in FIRST_PANELS}
        answers = {}
        for name, future in asked.items():
            status, answer = future.result()
            if status != 200:
                raise SystemExit(f"the server refused {write_id(puzzle)}: {answer}")
            answers[name] = answer
        verdict, loose = answers["verdict"], answers["loose"]
        v_ms = None if verdict.get("cached") else verdict["cpu_ms"]
        l_ms = None if loose.get("cached") else loose["cpu_ms"]
        v_time, l_time = v_ms or 0.0, l_ms or 0.0
        decided = verdict["status"] in ("unique", "none")
        shown = min(v_time, l_time) if decided else l_time
        cached = bool(verdict.get("cached")) and (decided or bool(loose.get("cached")))
        ahead = bool(verdict.get("ahead") or loose.get("ahead"))
        return {"verdict": verdict, "loose": loose, "verdict_ms": v_ms, "loose_ms": l_ms, "shown": shown,
                "wall": max(verdict["ms"], loose["ms"]), "cached": cached, "ahead": ahead}


def with_clue(puzzle: Puzzle, cell: int, value: int) -> Puzzle:
    return puzzle.with_clues([value if i == cell else v for i, v in enumerate(puzzle.clues)])


def setter(page: Page, puzzle: Puzzle, step: int, name: str = "") -> list[tuple[str, dict]]:
    """The browser test's edits on one puzzle, each with its kind (and where: the clue taken out, the clue tried)."""
    page.edit(puzzle)  # the pasted puzzle: not an edit
    solution = [v for row in (puzzle.solution or solve(puzzle)) for v in row]
    out: list[tuple[str, dict]] = []
    tried = 0
    for cell in puzzle.clue_cells()[::step]:
        if tried == 3:
            break
        page.pause()
        out_one = with_clue(puzzle, cell, 0)
        e = page.edit(out_one)
        e["where"] = without = f"{name} without {cell_name(*divmod(cell, puzzle.cols))}"
        if e["verdict"]["status"] == "unique":
            out.append(("take out a clue that was not needed", e))
            out.append(("put a clue back (settled)", page.edit(puzzle)))
            continue
        out.append(("take out a needed clue", e))
        tried += 1
        loose = e["loose"].get("loose") or []
        if not loose:
            continue
        r, c, _ = loose[0]
        at = r * puzzle.cols + c
        tried_clue = page.edit(with_clue(out_one, at, solution[at]))
        tried_clue["where"] = f"{without}, {solution[at]} tried at {cell_name(r, c)}"
        out.append(("try a clue on a loose cell", tried_clue))
        out.append(("take it back, put the first clue back", page.edit(out_one)))
        out.append(("take it back, put the first clue back", page.edit(puzzle)))
    return out


def removals(page: Page, puzzle: Puzzle, name: str = "") -> list[tuple[str, dict]]:
    """Each clue taken out on its own and put back, in a shuffled order (none of these grids has a settled
    answer to start from unless it was worked out ahead)."""
    out = []
    page.edit(puzzle)
    cells = puzzle.clue_cells()
    random.Random(write_id(puzzle)).shuffle(cells)
    for cell in cells:
        page.pause()
        e = page.edit(with_clue(puzzle, cell, 0))
        e["where"] = f"{name} without {cell_name(*divmod(cell, puzzle.cols))}"
        kind = "needed" if e["verdict"]["status"] != "unique" else "not needed"
        out.append((f"take out a {kind} clue", e))
        page.edit(puzzle)  # put back: settled
    return out


def work_ahead(base: str, pool: ThreadPoolExecutor, puzzle: Puzzle) -> tuple[float, int, float]:
    """The background's CPU seconds and questions to work out every removal of a grid seen for the first time,
    and the wall seconds it took here."""
    Page(base, pool).edit(puzzle)
    grid, wall = write_id(puzzle), time.monotonic()
    while True:
        state = ahead_state(base, boost=True)
        if state["grid"] == grid and state["idle"]:
            return state["cpu"], state["answered"], time.monotonic() - wall
        time.sleep(0.05)


def keep_or_kill(rounds: int) -> None:
    """Whether a background question in flight slows the foreground: two workers at normal priority (the page's
    verdict and loose cells) ask the loose cells of janko.at #016 without r9c2 (seconds of CPU), with and without
    a third at the background's priority asking the same; the CPU each got over the foreground's window."""
    source = read_puzzle(str(EXTERNAL / "janko-016.txt"))
    hard = write_id(with_clue(source, 8 * source.cols + 1, 0))
    env = dict(os.environ, PYTHONPATH=str(ROOT))

    def start(low: bool) -> subprocess.Popen:
        argv = [sys.executable, "-m", "fillomino.serve.worker", *(["--low-priority"] if low else [])]
        return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                                start_new_session=True)

    def ask(worker: subprocess.Popen, puzzle: str) -> None:
        worker.stdin.write(json.dumps({"panel": "loose", "puzzle": puzzle, "seconds": 600}) + "\n")  # type: ignore
        worker.stdin.flush()  # type: ignore[union-attr]

    for rnd in range(rounds):
        for background in (False, True):
            workers = [start(False), start(False)] + ([start(True)] if background else [])
            for w in workers:  # loaded and answering before the clock starts
                ask(w, "fillomino:1x1:1")
                w.stdout.readline()  # type: ignore[union-attr]
            before = [process_cpu(w.pid) for w in workers]
            for w in workers[::-1]:
                ask(w, hard)
            wall = time.monotonic()
            for w in workers[:2]:
                w.stdout.readline()  # type: ignore[union-attr]
            wall = time.monotonic() - wall
            used = [process_cpu(w.pid) - b for w, b in zip(workers, before)]
            print(f"round {rnd}, background {'on' if background else 'off'}: foreground wall {wall:.1f} s, CPU "
                  f"{used[0]:.2f} + {used[1]:.2f} s; background CPU {used[2] if background else 0:.2f} s; "
                  f"load average {os.getloadavg()[0]:.1f}", flush=True)
            for w in workers:
                w.kill()
                w.wait()


def figures(values: list[float]) -> str:
    if not values:
        return " |  | "
    return f"{statistics.median(values):.0f} | {percentile(values, 0.95):.0f} | {max(values):.0f}"


def table(rows: list[tuple[str, dict]], title: str) -> None:
    kinds = list(dict.fromkeys(kind for kind, _ in rows))
    print(f"\n{title}\n")
    print("| edit | n | cached | ahead | shown after: median | p95 | max | within 300 ms | budget spent "
          "| verdict CPU: median | p95 | max | loose cells CPU: median | p95 | max | server wall: median | max |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
          "| ---: | ---: |")
    for kind in [*kinds, "every edit"]:
        es = [e for k, e in rows if k == kind or kind == "every edit"]
        shown = [e["shown"] for e in es]
        within = sum(1 for s in shown if s <= 300)
        spent = sum(1 for e in es if "unknown" in (e["verdict"]["status"], e["loose"]["status"]))
        verdict = [e["verdict_ms"] for e in es if e["verdict_ms"] is not None]
        loose = [e["loose_ms"] for e in es if e["loose_ms"] is not None]
        wall = sorted(e["wall"] for e in es)
        cached = sum(1 for e in es if e["cached"])
        ahead = sum(1 for e in es if e["ahead"])
        print(f"| {kind} | {len(es)} | {cached} | {ahead} | {figures(shown)} | {within}/{len(es)} | {spent} "
              f"| {figures(verdict)} | {figures(loose)} | {statistics.median(wall):.0f} | {wall[-1]:.0f} |")


def default_files(count: int) -> list[Path]:
    files = [EXTERNAL / DEFAULT_PUZZLE]
    index = EXTERNAL / "INDEX.tsv"
    for line in index.read_text().splitlines()[1:] if index.exists() else []:
        name, rows, cols, _, _, status = line.split("\t")[:6]
        if len(files) > count:
            break
        if (rows, cols, status) == ("10", "10", "unique") and name != DEFAULT_PUZZLE:
            files.append(EXTERNAL / name)
    return [f for f in files if f.exists()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", metavar="FILE", help="puzzle files (default: see above)")
    ap.add_argument("--puzzles", type=int, default=10, help="unique 10x10s of the external corpus besides #007")
    ap.add_argument("--step", type=int, default=5, help="take out every STEP-th clue, as the browser test does")
    ap.add_argument("--all-removals", action="store_true", help="also take out each clue on its own")
    ap.add_argument("--think", type=float, nargs="+", default=[0.0], metavar="T",
                    help="the setter's pause before taking a clue out, in CPU seconds of the background (default 0)")
    ap.add_argument("--no-ahead", action="store_true", help="serve with --no-ahead (nothing worked out ahead)")
    ap.add_argument("--server-root", type=Path, default=ROOT, metavar="DIR",
                    help="serve from this source tree instead (e.g. a checkout of the commit to compare with)")
    ap.add_argument("--keep-or-kill", type=int, metavar="ROUNDS",
                    help="only: the CPU a background question in flight takes from the foreground (see keep_or_kill)")
    ap.add_argument("--ahead-cost", action="store_true",
                    help="only: what the background spends on every removal of each puzzle, with a fresh server each")
    args = ap.parse_args()
    if args.keep_or_kill:
        keep_or_kill(args.keep_or_kill)
        return
    files = [Path(f) for f in args.files] or default_files(args.puzzles)
    if not files:
        sys.exit("no puzzles: pass files, or put the external corpus at ../shared/corpus-external")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    start, load = time.perf_counter(), os.getloadavg()[0]
    print(f"{len(files)} puzzles ({', '.join(p.stem for p in files)}); commit {commit.stdout.strip()}, serving "
          f"{args.server_root}; "
          f"load average {load:.1f} at the start")
    if args.ahead_cost:
        print("\n| puzzle | clues | questions | background CPU (s) | wall here (s) |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for path in files:
            puzzle = read_puzzle(str(path))
            with running_server() as base, ThreadPoolExecutor(len(FIRST_PANELS)) as pool:
                cpu, asked, wall = work_ahead(base, pool, puzzle)
            print(f"| {path.stem} | {len(puzzle.clue_cells())} | {asked} | {cpu:.1f} | {wall:.0f} |", flush=True)
        return
    for think in args.think:
        scripted: list[tuple[str, dict]] = []
        each: list[tuple[str, dict]] = []
        pages: list[Page] = []
        server_args = ["--no-ahead"] if args.no_ahead else []
        with running_server(*server_args, root=args.server_root) as base, ThreadPoolExecutor(len(FIRST_PANELS)) as pool:
            for path in files:
                puzzle = read_puzzle(str(path))
                pages.append(Page(base, pool, think))
                scripted += setter(pages[-1], puzzle, args.step, path.stem)
                if args.all_removals:
                    pages.append(Page(base, pool, think))
                    each += removals(pages[-1], puzzle, path.stem)
                print(f"think {think:g}: {path.name}: done ({time.perf_counter() - start:.0f} s)", file=sys.stderr,
                      flush=True)
        pauses, capped = sum(p.pauses for p in pages), sum(p.capped for p in pages)
        print(f"\n### think {think:g} s{' (no ahead)' if args.no_ahead else ''}: {pauses} pauses "
              f"({capped} cut at their wall limit); load average {os.getloadavg()[0]:.1f}; "
              f"{time.perf_counter() - start:.0f} s so far")
        table(scripted, "The browser test's setter (ms):")
        print("\nThe setter's edits shown after more than 300 ms: " + over_300(scripted))
        if args.all_removals:
            table(each, "Each clue taken out on its own and put back (ms):")
            print("\nShown after more than 300 ms: " + over_300(each))
            print("The five slowest removals: " + slowest(each))


def over_300(rows: list[tuple[str, dict]]) -> str:
    """The edits shown after more than 300 ms, slowest first, each with where it was made."""
    slow = sorted((e for _, e in rows if e["shown"] > 300), key=lambda e: -e["shown"])
    unknown = " (unknown)"
    return ", ".join(f"{e.get('where', '?')} {e['shown']:.0f}{unknown if e['loose']['status'] == 'unknown' else ''}"
                     for e in slow) or "none"


def slowest(rows: list[tuple[str, dict]], count: int = 5) -> str:
    """The ``count`` edits shown after the longest, slowest first, each with where it was made and its two CPU
    times: the margin left below 300 ms when none is over it."""
    top = sorted((e for _, e in rows), key=lambda e: -e["shown"])[:count]
    return ", ".join(f"{e.get('where', '?')} {e['shown']:.0f} (verdict {e['verdict_ms'] or 0:.0f}, loose cells "
                     f"{e['loose_ms'] or 0:.0f})" for e in top)


if __name__ == "__main__":
    main()
