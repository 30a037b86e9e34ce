"""``fillomino crosscheck``: run independent backends on many puzzles and flag any disagreement.

The CNF and CP-SAT encodings share no modelling code, so an answer both give is checked twice.
Exit 0 all agree, 1 some puzzle got different answers (named) or some file could not be read (listed as
unparsable while the others run on, as certify does), 3 some were left undecided by the budget, 2 unusable
options or no readable puzzle at all.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

from ..puzzle import FillominoError, Puzzle, is_solution, plural
from .common import (
    add_engine_options,
    add_json,
    add_quiet,
    add_workers,
    engine_kwargs,
    print_json,
    workers_from,
)

EXIT_DISAGREE = 1
EXIT_UNDECIDED = 3

EPILOG = """examples:
  fillomino crosscheck corpus/
  fillomino crosscheck a.txt b.txt --budget 30s --json
  fillomino crosscheck corpus/ --backends cnf,cpsat --max-size 12

Folders are searched for *.txt and *.json puzzle files. Both backends answer the uniqueness question
with the same --max-size and --budget; they agree when their verdicts are equal (and, when unique, so
are their solutions) and every solution they show obeys the rules. A verdict of 'unknown' (budget
ran out) cannot be compared: the puzzle counts as undecided. A file that cannot be read is listed as
unparsable and the others run on. Exit: 0 all agree, 1 a disagreement (the puzzle is named) or an
unparsable file, 3 some undecided, 2 unusable options or no readable puzzle."""


@dataclass
class Record:
    """One puzzle's verdicts and whether they agree (None: some backend gave 'unknown')."""

    name: str
    puzzle: Puzzle
    verdicts: dict = field(default_factory=dict)
    agree: bool | None = None
    reason: str = ""

    def to_json(self) -> dict:
        return {
            "puzzle": self.name,
            "shape": self.puzzle.shape,
            "agree": self.agree,
            "reason": self.reason,
            "verdicts": {name: v.to_json() for name, v in self.verdicts.items()},
        }


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "crosscheck",
        help="run the CNF and CP-SAT backends on many puzzles and flag any disagreement",
        description="Answer 'unique, multiple or none?' with independent backends on every puzzle given and "
        "compare. Exit 0 all agree, 1 a disagreement or an unparsable file, 3 some undecided (budget), "
        "2 unusable options or no readable puzzle.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", metavar="PATH", nargs="+", help="puzzle files or folders (searched for *.txt, *.json)")
    p.add_argument(
        "--backends", default="cnf,cpsat", metavar="A,B", help="comma-separated backends (default: cnf,cpsat)"
    )
    p.add_argument("--threads", type=int, default=1, help="worker threads for cpsat (default: 1)")
    add_workers(p)
    add_quiet(p)
    add_engine_options(p, backend=False)
    add_json(p)
    p.set_defaults(run=run)


def parse_backends(text: str) -> list[str]:
    """``"cnf,cpsat"`` -> ["cnf", "cpsat"]; at least two different known backends."""
    from ..solvers import BACKENDS

    names = [t.strip() for t in text.split(",") if t.strip()]
    unknown = [t for t in names if t not in BACKENDS]
    if unknown:
        raise FillominoError(f"unknown backend {unknown[0]!r} in --backends: choose from {', '.join(BACKENDS)}")
    if len(set(names)) < 2:
        raise FillominoError(f"--backends needs at least two different backends to compare, got {text!r}")
    return list(dict.fromkeys(names))


def load_all(paths: list[str], max_size: int | None) -> tuple[list[tuple[str, Puzzle]], list[dict]]:
    """Every puzzle named, read before any solving, and the files that could not be used with why.

    As in certify, one bad file is reported and the others run on; only when no file is usable is the
    run refused (the first file's error, exit 2).
    """
    from ..formats import iter_puzzle_files, read_puzzle

    puzzles, unparsable, errors = [], [], []
    for path in iter_puzzle_files(paths):
        try:
            puzzle = read_puzzle(str(path))
            if max_size is not None and any(v > max_size for v in puzzle.clues):
                raise FillominoError(f"{path}: clue {max(puzzle.clues)} is larger than --max-size {max_size}")
        except FillominoError as exc:
            errors.append(exc)
            unparsable.append({"puzzle": str(path), "reason": str(exc).removeprefix(f"{path}: ")})
            continue
        puzzles.append((str(path), puzzle))
    if not puzzles:
        if errors:
            raise errors[0]
        raise FillominoError(f"no puzzle files (*.txt, *.json) in {', '.join(paths)}")
    return puzzles, unparsable


def compare(puzzle: Puzzle, verdicts: dict) -> tuple[bool | None, str]:
    """(agree?, why not): statuses equal, unique solutions equal, every shown solution valid; None if unknown."""
    for name, v in verdicts.items():
        for grid in v.solutions:
            if not is_solution(puzzle, grid):
                return False, f"{name} shows an answer that breaks the rules"
    decided = {name: v for name, v in verdicts.items() if v.status.value != "unknown"}
    statuses = {v.status.value for v in decided.values()}
    if len(statuses) > 1:
        return False, ", ".join(f"{name} says {v.status.value}" for name, v in decided.items())
    if statuses == {"unique"} and len({tuple(v.solutions[0]) for v in decided.values()}) > 1:
        return False, "both say unique but with different solutions"
    if len(decided) < len(verdicts):
        return None, ", ".join(f"{name} ran out of budget" for name in verdicts if name not in decided)
    return True, ""


def check_one(name: str, puzzle: Puzzle, backends: list[str], **engine: object) -> Record:
    """Ask every backend about one puzzle and compare.

    A stored solution is offered to each backend as a candidate, as ``unique`` and ``certify`` do: CP-SAT
    checks it in its own model and, if it is a picture there, skips its search for a first one (its slow
    half); the proof that there is no other stays its own, and CNF finds its own answer.
    """
    from ..solvers import uniqueness

    record = Record(name, puzzle)
    for backend in backends:
        record.verdicts[backend] = uniqueness(
            puzzle, backend=backend, candidate=puzzle.solution, **engine  # type: ignore[arg-type]
        )
    record.agree, record.reason = compare(puzzle, record.verdicts)
    return record


def _check_job(job: tuple) -> Record:
    name, puzzle, backends, engine = job
    return check_one(name, puzzle, backends, **engine)


def run(args: argparse.Namespace) -> int:
    backends = parse_backends(args.backends)
    engine = engine_kwargs(args, backend=False)
    if args.threads < 1:
        raise FillominoError(f"--threads must be at least 1, got {args.threads}")
    engine["threads"] = args.threads
    puzzles, unparsable = load_all(args.paths, args.max_size)
    from ..progress import Progress
    from ..workers import in_order, run_jobs

    workers = workers_from(args)
    table = _Table(backends, max(len(name) for name in [*(n for n, _ in puzzles), *(u["puzzle"] for u in unparsable)]),
                   quiet=args.json)
    records: list[Record] = []
    disagree = 0
    jobs = [(name, puzzle, backends, engine) for name, puzzle in puzzles]
    with Progress(len(puzzles), "crosschecking", unit="puzzle", quiet=args.quiet or len(puzzles) == 1) as bar:
        if not args.json:
            bar.write(table.header(), sys.stdout)
            for bad in unparsable:
                bar.write(table.unparsable(bad), sys.stdout)

        def arrived(_k: int, record: Record) -> None:
            nonlocal disagree
            disagree += record.agree is False
            bar.advance(disagree=disagree)

        # Rows are printed in the order the puzzles were given, whatever order the workers finish them in.
        for _k, record in in_order(run_jobs(_check_job, jobs, workers, cost=lambda job: job[1].size), arrived):
            records.append(record)
            if not args.json:
                bar.write(table.row(record), sys.stdout)
    summary = summarize(records, backends, args.max_size, unparsable)
    if args.json:
        status = "disagree" if summary["disagree"] else "unparsable" if unparsable else \
            "undecided" if summary["undecided"] else "agree"
        print_json({"puzzles": [r.to_json() for r in records], "summary": summary}, status=status)
    else:
        print(table.footer(records, summary))
    if summary["disagree"] or unparsable:
        return EXIT_DISAGREE
    return EXIT_UNDECIDED if summary["undecided"] else 0


def summarize(records: list[Record], backends: list[str], max_size: int | None,
              unparsable: list[dict] | None = None) -> dict:
    return {
        "puzzles": len(records),
        "agree": sum(r.agree is True for r in records),
        "disagree": sum(r.agree is False for r in records),
        "undecided": sum(r.agree is None for r in records),
        "disagreements": [{"puzzle": r.name, "reason": r.reason} for r in records if r.agree is False],
        "unparsable": list(unparsable or []),
        "seconds": {b: round(sum(r.verdicts[b].seconds for r in records), 3) for b in backends},
        "backends": backends,
        "max_size": max_size,
    }


class _Table:
    """Fixed-width rows: puzzle, shape, then verdict and seconds per backend, then the comparison."""

    def __init__(self, backends: list[str], name_width: int, quiet: bool) -> None:
        self.backends = backends
        self.width = min(max(name_width, 6), 60)
        self.quiet = quiet

    def _name(self, name: str) -> str:
        return name if len(name) <= self.width else "..." + name[-(self.width - 3) :]

    def header(self) -> str:
        cols = "".join(f"  {b:<8} {'s':>8}" for b in self.backends)
        return f"{'puzzle':<{self.width}}  {'shape':<7}{cols}  check"

    def row(self, r: Record) -> str:
        cols = "".join(f"  {v.status.value:<8} {v.seconds:8.3f}" for v in r.verdicts.values())
        check = {True: "ok", None: "undecided", False: "DISAGREE"}[r.agree]
        return f"{self._name(r.name):<{self.width}}  {r.puzzle.shape:<7}{cols}  {check}"

    def unparsable(self, bad: dict) -> str:
        return f"{self._name(bad['puzzle']):<{self.width}}  UNPARSABLE: {bad['reason']}"

    def footer(self, records: list[Record], summary: dict) -> str:
        seconds = ", ".join(f"{b} {s:.1f} s" for b, s in summary["seconds"].items())
        lines = [
            f"{plural(summary['puzzles'], 'puzzle')}: {summary['agree']} agree, {summary['disagree']} disagree, "
            f"{summary['undecided']} undecided (total {seconds})"
        ]
        if summary["unparsable"]:
            lines[0] += f"; {len(summary['unparsable'])} unparsable"
        lines += [f"DISAGREE {r.name}: {r.reason}" for r in records if r.agree is False]
        lines += [f"unparsable {u['puzzle']}: {u['reason']}" for u in summary["unparsable"]]
        lines += [f"undecided {r.name}: {r.reason}" for r in records if r.agree is None]
        if summary["max_size"] is not None:
            lines.append(f"(assuming no region is larger than {summary['max_size']} cells: --max-size)")
        return "\n".join(lines)
