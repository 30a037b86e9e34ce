"""Rate puzzles with the logical solver: time per size (median, p95, max) and levels per source and size.

    python benchmarks/rate.py                         # corpus/ and ../shared/corpus-external, 10 s budget each
    python benchmarks/rate.py --only 10x10 20x20 --budget 5
    python benchmarks/rate.py --write docs/benchmarks.md --results rate-results.jsonl

``--write`` replaces the section "Logical rater" at the end of the file (or appends it). ``--results``
keeps one JSON line per puzzle (file, source, shape, level, state, score, seconds, open cells), which
``--from-results`` reads back to rewrite the tables without rating again.

    python benchmarks/rate.py --only 10x10 20x20 --budget 1 --lookahead full flat easy short --results la.jsonl

``--lookahead`` rates with these look-ahead presets (fillomino.logic.LOOKAHEADS; default full); with more than
one, each puzzle is rated with each in turn and the output is a table of each against the first (solved, CPU
median and p95, levels that change), for docs/benchmarks.md's "Cheaper look-ahead" subsection.

    python benchmarks/rate.py --only 10x10 --budget 10 --witness-check --variants --random 300

``--witness-check`` rates each puzzle without and then with the witness (``rate(..., witness=False/True)``: the
look-ahead skipping the hypotheses a known solution satisfies), checks the two ratings are the same step for
step (exit 1 if any differ), and prints a table of CPU time without and with, side by side. ``--variants``
adds, per puzzle, one with three clues dropped (often ambiguous) and one with a clue changed (often no
solution, seeded); ``--random N`` adds N random boards up to 6x6 (group "random 6x6") and N up to 8x8 with
clues kept from a random answer (group "random-answer 8x8": always a solution, often several).

    python benchmarks/rate.py --only 10x10 20x20 --budget 1 --baseline 16cb309

``--baseline REV`` rates each puzzle (and, with ``--variants`` and ``--random N``, the same extra boards as
``--witness-check``) with the rater of commit REV (its ``fillomino`` package, from ``git archive``, imported
under another name) and with the working tree's, alternated puzzle by puzzle and in alternating order in one
process, so that both see the same load; it checks the two ratings are the same step for step (exit 1 if any
differ) and prints a table of CPU time before and after: per source and shape, all sources per shape, and
per source and shape the puzzles both sides solve at easy or medium and at hard or expert (by the level
before). ``--repeat K`` rates each puzzle K times each way (alternated) and keeps the least CPU time of each:
on a shared machine the least is the steadiest figure.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.older import module_at  # noqa: E402
from benchmarks.stats import percentile  # noqa: E402
from fillomino.formats import read_puzzle  # noqa: E402
from fillomino.logic import LOOKAHEADS, rate  # noqa: E402
from fillomino.logic.rating import level_of  # noqa: E402
from fillomino.partition import Stream, random_answer  # noqa: E402
from fillomino.puzzle import Puzzle, flatten  # noqa: E402

EXTERNAL = ROOT.parent / "shared" / "corpus-external"
HEADING = "## Logical rater (fillomino rate)"
LEVEL_ORDER = ("easy", "medium", "hard", "expert", "unrated")
UNHEADED = ("corpus/05x05/5x5-s1.txt", "corpus/10x10/10x10-s1.txt")
"""Files tests/test_certify.py certifies as files without a level: header (no rater job): they keep none."""
PUBLISHED = {"简单": "easy", "困难": "hard", "极难": "very hard"}


def source_of(path: Path) -> str:
    if EXTERNAL in path.parents:
        return re.split(r"[-_]", path.name, maxsplit=1)[0]
    return "corpus"


def files(args: argparse.Namespace) -> list[Path]:
    out = [] if args.no_corpus else sorted((ROOT / "corpus").glob("*/*.txt"))
    if not args.no_external and EXTERNAL.is_dir():
        out += sorted(EXTERNAL.glob("*.txt"))
    out += [Path(p).resolve() for p in args.extra]
    return out


def rate_all(paths: list[Path], args: argparse.Namespace) -> list[dict]:
    rows = []
    for k, path in enumerate(paths, 1):
        puzzle = read_puzzle(str(path))
        if args.only and puzzle.shape not in args.only:
            continue
        for lookahead in args.lookahead:
            r = rate(puzzle, budget=args.budget, lookahead=lookahead)
            published = next((PUBLISHED[w] for _, note in puzzle.metadata if _ == "note"
                              for w in PUBLISHED if f"difficulty {w}" in note), None)
            row = {"file": str(path.relative_to(ROOT) if ROOT in path.parents else path.name), "name": path.name,
                   "source": source_of(path), "shape": puzzle.shape, "level": r.level, "state": r.state,
                   "score": r.score, "seconds": round(r.seconds, 4), "open": r.open_cells, "steps": len(r.steps),
                   "published": published, "counts": r.counts, "used_level": r.used_level, "lookahead": lookahead}
            rows.append(row)
            print(f"[{k}/{len(paths)}] {row['file']} {row['shape']} {lookahead} {row['level']} {row['state']} "
                  f"{row['seconds']:.3f}s", file=sys.stderr, flush=True)
    return rows


def fmt_s(x: float) -> str:
    return f"{x * 1000:.1f} ms" if x < 1 else f"{x:.2f} s"


def area(shape: str) -> tuple[int, int]:
    a, b = shape.split("x")
    return int(a) * int(b), int(a)


def timing_table(rows: list[dict], budget: float | None) -> list[str]:
    by: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by[r["shape"]].append(r)
    out = ["| shape | puzzles | median | p95 | max | solved | budget ran out |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for shape in sorted(by, key=area):
        rs = by[shape]
        t = [r["seconds"] for r in rs]
        out.append(f"| {shape} | {len(rs)} | {fmt_s(percentile(t, 0.5))} | {fmt_s(percentile(t, 0.95))} | "
                   f"{fmt_s(max(t))} | {sum(r['state'] == 'solved' for r in rs)} | "
                   f"{sum(r['state'] == 'budget' for r in rs)} |")
    return out


def targets_table(rows: list[dict]) -> list[str]:
    """The issue's speed targets next to what was measured."""
    def pick(pred) -> list[float]:
        return [r["seconds"] for r in rows if pred(r)]

    out = ["| target | puzzles | median | p95 | max | solved | median of solved | goal |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for label, pred, goal in (
        ("10x10, corpus/", lambda r: r["shape"] == "10x10" and r["source"] == "corpus", "median <= 15 ms"),
        ("10x10, all sources", lambda r: r["shape"] == "10x10", "median <= 15 ms"),
        ("20x20, all sources", lambda r: r["shape"] == "20x20", "median <= 100 ms"),
        ("janko-330 (50x64)", lambda r: r["name"] == "janko-330.txt", "<= 5 s"),
    ):
        t = pick(pred)
        solved = pick(lambda r, pred=pred: pred(r) and r["state"] == "solved")
        if t:
            out.append(f"| {label} | {len(t)} | {fmt_s(percentile(t, 0.5))} | {fmt_s(percentile(t, 0.95))} | "
                       f"{fmt_s(max(t))} | {len(solved)} | {fmt_s(percentile(solved, 0.5)) if solved else '-'} | "
                       f"{goal} |")
    return out


def level_table(rows: list[dict]) -> list[str]:
    groups: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for r in rows:
        groups[(r["source"], r["shape"])][r["level"]] += 1
    out = ["| source | shape | puzzles | " + " | ".join(LEVEL_ORDER) + " |",
           "| --- | --- | --- | " + " | ".join("---" for _ in LEVEL_ORDER) + " |"]
    for (source, shape), c in sorted(groups.items(), key=lambda kv: (kv[0][0] != "corpus", kv[0][0], area(kv[0][1]))):
        cells = " | ".join(str(c[lv] or "") for lv in LEVEL_ORDER)
        out.append(f"| {source} | {shape} | {sum(c.values())} | {cells} |")
    total = Counter(r["level"] for r in rows)
    out.append(f"| all | | {len(rows)} | " + " | ".join(str(total[lv]) for lv in LEVEL_ORDER) + " |")
    return out


def state_lines(rows: list[dict]) -> list[str]:
    """Per source: how many the ladder solves, and why the rest are unrated."""
    by: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        by[r["source"]][r["state"]] += 1
    out = []
    for source, c in sorted(by.items(), key=lambda kv: (kv[0] != "corpus", -sum(kv[1].values()))):
        n = sum(c.values())
        out.append(f"- {source}: {c['solved']} of {n} solved by logic ({100 * c['solved'] / n:.0f}%); "
                   f"stuck {c['stuck']}, budget ran out {c['budget']}, contradiction {c['contradiction']}")
    return out


def published_table(rows: list[dict]) -> list[str]:
    pub = [r for r in rows if r.get("published")]
    if not pub:
        return []
    out = ["| puzzle | shape | published | our level | score | state |", "| --- | --- | --- | --- | --- | --- |"]
    for r in sorted(pub, key=lambda r: r["name"]):
        out.append(f"| {r['name']} | {r['shape']} | {r['published']} | {r['level']} | {r['score']} | {r['state']} |")
    return out


def section(rows: list[dict], args: argparse.Namespace) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    cmd = "python benchmarks/rate.py " + " ".join(args.argv)
    lines = [HEADING, "",
             f"Measured with `{cmd.strip()}` at commit {commit} on {time.strftime('%Y-%m-%d')}, one process on a "
             f"2-core machine shared with other work; budget {args.budget} s per puzzle (a puzzle whose budget runs "
             "out is unrated, state budget, and its time is the budget). Seconds are CPU seconds of "
             "`fillomino.logic.rate` (reading the file excluded; the budget is CPU time too, so that figures "
             "do not depend on how busy the shared machine was).", "",
             "### Speed targets", "", *targets_table(rows), "",
             "### Time per shape", "", *timing_table(rows, args.budget), "",
             "### Levels per source and shape", "",
             "unrated: the techniques stall (state stuck), a rule breaks (no solution) or the budget runs out.", "",
             *level_table(rows), "", *state_lines(rows), ""]
    pub = published_table(rows)
    if pub:
        lines += ["### Published difficulty (penpuz daily database) next to our level", "", *pub, ""]
    return "\n".join(lines)


def lookahead_table(rows: list[dict], names: list[str]) -> list[str]:
    """Each look-ahead preset against the first, per group of puzzles: solved, CPU time, and how the levels
    of the puzzles solved by both move (harder, easier: with the depth rule a missing refutation can do either)."""
    rank = {lv: k for k, lv in enumerate(LEVEL_ORDER)}
    by: dict[tuple[str, str], dict[str, dict[str, dict]]] = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        group = ("corpus/" if r["source"] == "corpus" else "external", r["shape"])
        by[group][r.get("lookahead", "full")][r["file"]] = r
    out = ["| puzzles | look-ahead | rated | solved | median | p95 | max | budget ran out | "
           "same level | harder | easier | newly solved | no longer solved |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for group in sorted(by, key=lambda g: (g[0] != "external", area(g[1]))):
        base = by[group].get(names[0], {})
        for name in names:
            rs = by[group].get(name, {})
            if not rs:
                continue
            t = [r["seconds"] for r in rs.values()]
            same = harder = easier = gained = lost = 0
            for f, r in rs.items():
                b = base.get(f)
                if b is None:
                    continue
                if r["state"] == "solved" and b["state"] == "solved":
                    d = rank[r["level"]] - rank[b["level"]]
                    same, harder, easier = same + (d == 0), harder + (d > 0), easier + (d < 0)
                gained += r["state"] == "solved" and b["state"] != "solved"
                lost += r["state"] != "solved" and b["state"] == "solved"
            solved = sum(r["state"] == "solved" for r in rs.values())
            moved = f"{same} | {harder} | {easier} | {gained} | {lost} |" if name != names[0] else "- | - | - | - | - |"
            out.append(f"| {group[0]} {group[1]} | {name} | {len(rs)} | {solved} | {fmt_s(percentile(t, 0.5))} | "
                       f"{fmt_s(percentile(t, 0.95))} | {fmt_s(max(t))} | "
                       f"{sum(r['state'] == 'budget' for r in rs.values())} | {moved}")
    return out


def level_moves(rows: list[dict], names: list[str]) -> list[str]:
    """Per preset, how the level of each puzzle moves from the first preset's (``hard -> expert: 12``)."""
    first = {r["file"]: r for r in rows if r.get("lookahead", "full") == names[0]}
    out = []
    for name in names[1:]:
        moves = Counter(f"{first[r['file']]['level']} -> {r['level']}" for r in rows if r.get("lookahead") == name
                        and r["file"] in first and first[r["file"]]["level"] != r["level"])
        if moves:
            out.append(f"- {name}: " + ", ".join(f"{m}: {n}" for m, n in moves.most_common()))
        else:
            out.append(f"- {name}: no level changes")
    return out


def write_levels(rows: list[dict]) -> int:
    """Put a ``level:`` header (before ``grid:``) into every corpus/ file whose rating did not depend on the
    budget (state solved or stuck: the same without a budget); returns how many files changed."""
    changed = 0
    for r in rows:
        if r["source"] != "corpus" or r["state"] not in ("solved", "stuck") or r["file"] in UNHEADED:
            continue
        path = ROOT / r["file"]
        text = path.read_text(encoding="utf-8")
        text = "\n".join(with_level(text.splitlines(), r["level"])) + "\n"
        if text != path.read_text(encoding="utf-8"):
            path.write_text(text, encoding="utf-8")
            changed += 1
    return changed


def with_level(lines: list[str], level: str) -> list[str]:
    """A file's lines with its ``level:`` header set: in place where it has one (a generated file's stays before its
    ``score:``, where ``generate`` writes it), else just before ``grid:``."""
    header = f"level: {level}"
    for i, line in enumerate(lines):
        if line.startswith("level:"):
            return lines[:i] + [header] + [ln for ln in lines[i + 1:] if not ln.startswith("level:")]
        if line == "grid:":
            return lines[:i] + [header] + lines[i:]
    raise ValueError("no grid: line")


def write(doc: Path, text: str) -> None:
    old = doc.read_text(encoding="utf-8") if doc.exists() else ""
    at = old.find(HEADING)
    head = old[:at].rstrip("\n") if at >= 0 else old.rstrip("\n")
    doc.write_text((head + "\n\n" if head else "") + text.rstrip("\n") + "\n", encoding="utf-8")


def _full(r) -> tuple:
    """Everything a rating says but its time."""
    return (r.level, r.state, r.score, r.counts, r.open_cells, r.used_level, r.final,
            [(s.technique, s.level, s.cells, s.sentence, s.removes, s.place, s.contradiction) for s in r.steps])


def witness_puzzles(args: argparse.Namespace) -> list[tuple[str, str, Puzzle]]:
    """(group, name, puzzle): the files, their variants and random boards (seeded: the same every run)."""
    out = []
    for path in files(args):
        puzzle = read_puzzle(str(path))
        if args.only and puzzle.shape not in args.only:
            continue
        name = str(path.relative_to(ROOT) if ROOT in path.parents else path.name)
        kind = "corpus/" if source_of(path) == "corpus" else "external"
        out.append((f"{kind} {puzzle.shape}", name, puzzle))
        if args.variants:
            rng = random.Random(name)
            clued = [c for c, v in enumerate(puzzle.clues) if v]
            drop = set(rng.sample(clued, min(3, len(clued))))
            out.append((f"clues dropped {puzzle.shape}", name + " -3",
                        Puzzle(puzzle.rows, puzzle.cols, tuple(0 if c in drop else v
                                                               for c, v in enumerate(puzzle.clues)))))
            c = rng.choice(clued)
            changed = list(puzzle.clues)
            changed[c] = changed[c] % min(9, puzzle.size) + 1
            out.append((f"clue changed {puzzle.shape}", name + " ~1", Puzzle(puzzle.rows, puzzle.cols, tuple(changed))))
    rng = random.Random("witness-check")
    for k in range(args.random):
        rows, cols = rng.randint(2, 6), rng.randint(2, 6)
        clues = [rng.choice([0] * 8 + [1, 2, 3, 4, 5, 6]) for _ in range(rows * cols)]
        out.append(("random 6x6", f"random-{k}", Puzzle(rows, cols, tuple(v if v <= rows * cols else 0
                                                                           for v in clues))))
        # and clues kept from a random answer: always a solution, often several
        rows, cols = rng.randint(4, 8), rng.randint(4, 8)
        answer = flatten(random_answer(rows, cols, Stream(f"witness-check|{k}")))
        keep = rng.uniform(0.3, 0.6)
        out.append(("random-answer 8x8", f"random-answer-{k}",
                    Puzzle(rows, cols, tuple(v if rng.random() < keep else 0 for v in answer))))
    return out


def witness_check(args: argparse.Namespace) -> int:
    return ab_check(args, lambda puzzle: rate(puzzle, budget=args.budget, witness=False),
                    lambda puzzle: rate(puzzle, budget=args.budget), "without", "with")


def baseline_check(args: argparse.Namespace) -> int:
    old_rate = module_at(args.baseline, "logic").rate
    return ab_check(args, lambda puzzle: old_rate(puzzle, budget=args.budget),
                    lambda puzzle: rate(puzzle, budget=args.budget), args.baseline, "now")


def ab_check(args: argparse.Namespace, before_rate, after_rate, before: str, after: str) -> int:
    """Rate every puzzle both ways, alternated (``--repeat K``: K times each, the fastest kept), and print the
    CPU table; exit status 1 when a rating settled on both sides differs anywhere (steps included)."""
    by: dict[str, list[tuple[float, float]]] = defaultdict(list)
    ran_out: Counter = Counter()
    differ: Counter = Counter()
    solved: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    names: list[str] = []
    puzzles = witness_puzzles(args)
    for k, (group, name, puzzle) in enumerate(puzzles, 1):
        lefts, rights = [], []
        for k2 in range(args.repeat):
            if (k + k2) % 2:
                lefts.append(before_rate(puzzle))
                rights.append(after_rate(puzzle))
            else:
                rights.append(after_rate(puzzle))
                lefts.append(before_rate(puzzle))
        left = min(lefts, key=lambda r: r.seconds)
        right = min(rights, key=lambda r: r.seconds)
        verdict = "same"
        if "budget" in (left.state, right.state):
            ran_out[group] += 1
            verdict = "not compared"
        elif _full(left) != _full(right):
            differ[group] += 1
            names.append(name)
            verdict = "DIFFER"
        by[group].append((left.seconds, right.seconds))
        solved[group][0] += left.solved
        solved[group][1] += right.solved
        kind, shape = group.rsplit(" ", 1)
        if kind in ("corpus/", "external"):
            # every source together, and the puzzles both sides solve by level: the look-ahead's and the ladder's cost
            more = [f"all sources {shape}"]
            if left.solved and right.solved:
                band = "easy or medium" if left.level in ("easy", "medium") else "hard or expert"
                more.append(f"{kind} solved at {band} {shape}")
            for extra in more:
                by[extra].append((left.seconds, right.seconds))
                solved[extra][0] += left.solved
                solved[extra][1] += right.solved
                if verdict == "DIFFER":
                    differ[extra] += 1
                elif verdict == "not compared":
                    ran_out[extra] += 1
        print(f"[{k}/{len(puzzles)}] {name} {left.level} {left.state} {left.seconds:.3f}s "
              f"{len(left.steps)} steps {left.open_cells} open -> {right.level} {right.state} "
              f"{right.seconds:.3f}s {len(right.steps)} steps {right.open_cells} open: {verdict}", file=sys.stderr,
              flush=True)
    out = [f"| puzzles | rated | compared | same | differ | budget ran out | median {before} | median {after} | "
           f"p95 {before} | p95 {after} | total {before} | total {after} | solved {before} | solved {after} |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for group in sorted(by, key=lambda g: (g.split()[0], area(g.split()[-1]))):
        pairs = by[group]
        a, b = [p[0] for p in pairs], [p[1] for p in pairs]
        n_diff = differ[group]
        compared = len(pairs) - ran_out[group]
        out.append(f"| {group} | {len(pairs)} | {compared} | {compared - n_diff} | {n_diff} | {ran_out[group]} | "
                   f"{fmt_s(percentile(a, 0.5))} | {fmt_s(percentile(b, 0.5))} | {fmt_s(percentile(a, 0.95))} | "
                   f"{fmt_s(percentile(b, 0.95))} | {fmt_s(sum(a))} | {fmt_s(sum(b))} | {solved[group][0]} | "
                   f"{solved[group][1]} |")
    print("\n".join(out))
    if names:
        print("ratings that differ: " + ", ".join(names))
    return 1 if names else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", type=float, default=10.0, help="CPU seconds per puzzle (default 10)")
    parser.add_argument("--only", nargs="*", default=[], metavar="RxC", help="rate only these shapes")
    parser.add_argument("--no-corpus", action="store_true", help="skip corpus/")
    parser.add_argument("--no-external", action="store_true", help="skip ../shared/corpus-external")
    parser.add_argument("--extra", nargs="*", default=[], help="more puzzle files")
    parser.add_argument("--results", help="write one JSON line per puzzle here")
    parser.add_argument("--from-results", nargs="+", help="read rows from --results files instead of rating")
    parser.add_argument("--write", help="replace the rater section at the end of this markdown file")
    parser.add_argument("--lookahead", nargs="+", default=["full"], choices=list(LOOKAHEADS),
                        help="look-ahead presets to rate with (default full); several: a table of each against the "
                        "first")
    parser.add_argument("--write-levels", action="store_true",
                        help="put level: headers into corpus/ files rated without running out of budget")
    parser.add_argument("--witness-check", action="store_true",
                        help="rate without and with the witness: same ratings, and CPU side by side")
    parser.add_argument("--variants", action="store_true",
                        help="with --witness-check or --baseline: also each puzzle with three clues dropped and with "
                        "one changed")
    parser.add_argument("--random", type=int, default=0, metavar="N",
                        help="with --witness-check or --baseline: also N random boards up to 6x6 and N up to 8x8")
    parser.add_argument("--repeat", type=int, default=1, metavar="K",
                        help="with --baseline or --witness-check: rate each puzzle K times each way, alternated, "
                             "and keep the least CPU")
    parser.add_argument("--baseline", metavar="REV",
                        help="rate with the rater of commit REV and with this one, alternated: same ratings, and CPU "
                        "side by side")
    args = parser.parse_args()
    args.argv = [a for a in sys.argv[1:]]
    if args.baseline:
        sys.exit(baseline_check(args))
    if args.witness_check:
        sys.exit(witness_check(args))
    compare = len(args.lookahead) > 1
    if compare and (args.write or args.write_levels):
        parser.error("--write and --write-levels take one --lookahead (the comparison table is printed)")
    if args.from_results:
        rows = [json.loads(line) for f in args.from_results for line in Path(f).read_text().splitlines()
                if line.strip()]
        rows = list({(row["file"], row.get("lookahead", "full")): row for row in rows}.values())  # the last rating
        for row in rows:  # the depth rule may have changed since: the level follows from the counts
            if row["state"] == "solved" and "counts" in row:
                row["level"] = level_of(row["counts"])[0]
    else:
        rows = rate_all(files(args), args)
    if args.results and not args.from_results:
        Path(args.results).write_text("".join(json.dumps(r) + "\n" for r in rows))
    if compare:
        print("\n".join([*lookahead_table(rows, args.lookahead), "", "Levels that move:", "",
                         *level_moves(rows, args.lookahead)]))
        return
    if args.write_levels:
        print(f"level: headers changed in {write_levels(rows)} corpus files", file=sys.stderr)
    text = section(rows, args)
    if args.write:
        write(Path(args.write), text)
    print(text)


if __name__ == "__main__":
    main()
