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
on its own: every "take out a clue" edit there is, not just the test's.

    python benchmarks/serve_edits.py [FILE ...] [--puzzles 10] [--step 5] [--all-removals]

FILE defaults to janko.at 10x10 #007 (the test's puzzle) and the first ``--puzzles`` unique 10x10
puzzles of ../shared/corpus-external/INDEX.tsv. Prints Markdown tables and the load average.
"""

from __future__ import annotations

import argparse
import itertools
import os
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
from fillomino.puzzle import Puzzle  # noqa: E402
from fillomino.solvers import solve  # noqa: E402
from tests.test_serve_support import post, running_server  # noqa: E402

EXTERNAL = ROOT.parent / "shared" / "corpus-external"
DEFAULT_PUZZLE = "janko-007.txt"
FIRST_PANELS = ("verdict", "loose")


class Page:
    """One page of the workbench: each edit asks the verdict and the loose cells at once."""

    _clients = itertools.count(1)

    def __init__(self, base: str, pool: ThreadPoolExecutor) -> None:
        self.base, self.pool = base, pool
        self.client = f"bench-{os.getpid()}-{next(self._clients)}"
        self.seq = 0

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
        shown = min(v_time, l_time) if verdict["status"] in ("unique", "none") else l_time
        return {"verdict": verdict, "loose": loose, "verdict_ms": v_ms, "loose_ms": l_ms, "shown": shown,
                "wall": max(verdict["ms"], loose["ms"])}


def with_clue(puzzle: Puzzle, cell: int, value: int) -> Puzzle:
    return puzzle.with_clues([value if i == cell else v for i, v in enumerate(puzzle.clues)])


def setter(page: Page, puzzle: Puzzle, step: int) -> list[tuple[str, dict]]:
    """The browser test's edits on one puzzle, each with its kind."""
    page.edit(puzzle)  # the pasted puzzle: not an edit
    solution = [v for row in (puzzle.solution or solve(puzzle)) for v in row]
    out: list[tuple[str, dict]] = []
    tried = 0
    for cell in puzzle.clue_cells()[::step]:
        if tried == 3:
            break
        out_one = with_clue(puzzle, cell, 0)
        e = page.edit(out_one)
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
        out.append(("try a clue on a loose cell", page.edit(with_clue(out_one, at, solution[at]))))
        out.append(("take it back, put the first clue back", page.edit(out_one)))
        out.append(("take it back, put the first clue back", page.edit(puzzle)))
    return out


def removals(page: Page, puzzle: Puzzle) -> list[tuple[str, dict]]:
    """Each clue taken out on its own (none of these grids has a settled answer to start from)."""
    out = []
    for cell in puzzle.clue_cells():
        e = page.edit(with_clue(puzzle, cell, 0))
        kind = "needed" if e["verdict"]["status"] != "unique" else "not needed"
        out.append((f"take out a {kind} clue", e))
    return out


def figures(values: list[float]) -> str:
    if not values:
        return " |  | "
    return f"{statistics.median(values):.0f} | {percentile(values, 0.95):.0f} | {max(values):.0f}"


def table(rows: list[tuple[str, dict]], title: str) -> None:
    kinds = list(dict.fromkeys(kind for kind, _ in rows))
    print(f"\n{title}\n")
    print("| edit | n | shown after: median | p95 | max | within 300 ms | budget spent | verdict CPU: median | p95 "
          "| max | loose cells CPU: median | p95 | max | server wall: median | max |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for kind in [*kinds, "every edit"]:
        es = [e for k, e in rows if k == kind or kind == "every edit"]
        shown = [e["shown"] for e in es]
        within = sum(1 for s in shown if s <= 300)
        spent = sum(1 for e in es if "unknown" in (e["verdict"]["status"], e["loose"]["status"]))
        verdict = [e["verdict_ms"] for e in es if e["verdict_ms"] is not None]
        loose = [e["loose_ms"] for e in es if e["loose_ms"] is not None]
        wall = sorted(e["wall"] for e in es)
        print(f"| {kind} | {len(es)} | {figures(shown)} | {within}/{len(es)} | {spent} | {figures(verdict)} "
              f"| {figures(loose)} | {statistics.median(wall):.0f} | {wall[-1]:.0f} |")


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
    args = ap.parse_args()
    files = [Path(f) for f in args.files] or default_files(args.puzzles)
    if not files:
        sys.exit("no puzzles: pass files, or put the external corpus at ../shared/corpus-external")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    start, load = time.perf_counter(), os.getloadavg()[0]
    scripted: list[tuple[str, dict]] = []
    each: list[tuple[str, dict]] = []
    with running_server() as base, ThreadPoolExecutor(len(FIRST_PANELS)) as pool:
        for path in files:
            puzzle = read_puzzle(str(path))
            scripted += setter(Page(base, pool), puzzle, args.step)
            if args.all_removals:
                each += removals(Page(base, pool), puzzle)
            print(f"{path.name}: done ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    print(f"{len(files)} puzzles ({', '.join(p.stem for p in files)}); commit {commit.stdout.strip()}; "
          f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; "
          f"{time.perf_counter() - start:.0f} s")
    table(scripted, "The browser test's setter (ms):")
    if args.all_removals:
        table(each, "Each clue taken out on its own (ms):")


if __name__ == "__main__":
    main()
