"""``fillomino generate``: unique puzzles at a level from a seed, one or a batch, to stdout or one file each."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..interrupts import is_interrupt
from ..puzzle import FillominoError, Puzzle, plural
from .common import add_quiet, add_workers, print_json, workers_from

FORMATS = ("text", "json", "id", "url")
LEVELS = ("minimal", "easy", "medium", "hard", "expert")
DEFAULT_LEVEL = "medium"
"""fillomino.generate's LEVELS and DEFAULT_LEVEL (a test keeps them equal), named here so that the CLI's start
does not import the generator."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "generate",
        help="make unique puzzles at a difficulty level (proved unique by the CNF engine) from a seed",
        description="Grow a random answer, then remove clues while the logical rater, with the techniques up to "
        "--level, still solves the puzzle; the result is proved unique by the CNF engine and kept only when "
        "the rater with every technique rates it at that level. --level minimal removes clues instead while the "
        "CNF engine proves the puzzle still has exactly one solution (fewest clues, solvable by logic or not). "
        "The same version, seed and options always give the same puzzle.",
        epilog="Example: fillomino generate --size 10x10 --seed 7 --level hard --symmetry rot180",
    )
    p.add_argument("--size", default="10x10", metavar="RxC", help="grid shape, e.g. 10x10 or 8x12 (default: 10x10)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the first puzzle (default: 0)")
    p.add_argument("--level", choices=LEVELS, default=DEFAULT_LEVEL,
                   help=f"difficulty by the logical rater (fillomino rate), or minimal: the fewest clues the exact "
                   f"engine allows, not rated (default: {DEFAULT_LEVEL}, solvable by reasoning without look-ahead)")
    p.add_argument("--count", type=int, default=1, metavar="N", help="make N puzzles, seeds S, S+1, ... (default: 1)")
    p.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    p.add_argument("--json", action="store_true",
                   help="one JSON line per puzzle: puzzle, solution, id, seed, clues, level, score, seconds")
    p.add_argument("--out", metavar="DIR",
                   help="write one file per puzzle, DIR/<level>-<RxC>-s<seed>.txt (.json); DIR/<RxC>-s<seed>.txt "
                   "with --level minimal")
    p.add_argument("--force", action="store_true", help="with --out: overwrite files that already exist")
    p.add_argument("--max-size", type=int, default=9, metavar="K",
                   help="largest region in the answer (default: 9, capped by the grid)")
    p.add_argument("--size-weights", metavar="W1,W2,...",
                   help="how often sizes 1, 2, ... are drawn as region targets (default: 1,3,5,6,6,5,3,2,1, and for "
                   "expert on grids of up to 36 cells 1,1,2,3,4,5,6,6,6; then 1 for each size from 10 up to "
                   "--max-size; a shorter list than --max-size draws no target above its length: those sizes "
                   "weigh 0 and come only of merges)")
    p.add_argument("--symmetry", choices=("none", "rot180", "rot90", "mirror"), default="none",
                   help="symmetry of the clue pattern: clues are removed a whole orbit at a time (default: none)")
    p.add_argument("--clue-every-region", action="store_true",
                   help="keep at least one clue in every region (default: regions may be left without one)")
    p.add_argument("--min-clues", type=int, metavar="N", help="stop removing clues once N are left")
    p.add_argument("--max-clues", type=int, metavar="N",
                   help="drop clue sets of more than N clues (another removal order, then another answer)")
    p.add_argument("--rating-budget", type=float, metavar="SECONDS",
                   help="CPU seconds of one rating while carving to a level; one that runs out counts as not "
                   "solved, so the puzzle then depends on the machine's speed (default: a budget counted in the "
                   "rater's own checks: 40,000 at 10x10, more below it, 400 a cell above it; the same on every "
                   "machine)")
    p.add_argument("--budget", metavar="LIMIT",
                   help="limit for each uniqueness question ('5s' or '100000c'); running out exits 3")
    p.add_argument("--race", "--threads", type=int, default=1, metavar="N", dest="threads",
                   help="local processes (not threads) racing differently tuned CNF solvers on each hard uniqueness "
                   "question of one puzzle: faster on big grids, the same puzzle (default: 1). --threads is the "
                   "old name; it is not the CP-SAT worker threads of solve/unique. --workers, as in certify, "
                   "runs whole puzzles of a --count batch in N processes")
    p.add_argument("--no-timing", action="store_true",
                   help="leave the seconds line out of text/JSON files, so reruns are byte-identical")
    p.add_argument("--no-solution", action="store_true", help="leave the solution out of text/JSON output")
    add_workers(p)
    add_quiet(p)
    p.set_defaults(run=run)


def parse_shape(text: str) -> tuple[int, int]:
    """``"10x12"`` -> (10, 12); ``"8"`` -> (8, 8)."""
    t = text.strip().lower()
    rows, sep, cols = t.partition("x")
    try:
        r = int(rows)
        c = int(cols) if sep else r
    except ValueError:
        raise FillominoError(f"--size {text!r} is not a shape like 10x10 or 8x12") from None
    return r, c


def parse_weights(text: str | None) -> list[float] | None:
    """``"1,3,5"`` -> [1.0, 3.0, 5.0] (weights of sizes 1, 2, 3)."""
    if text is None:
        return None
    try:
        weights = [float(w) for w in text.split(",")]
    except ValueError:
        raise FillominoError(f"--size-weights {text!r} is not a comma-separated list of numbers like 1,3,5") from None
    if any(not (w >= 0 and w != float("inf")) for w in weights):
        raise FillominoError(f"--size-weights {text!r}: weights must be finite and non-negative")
    return weights


def target_path(out: Path, rows: int, cols: int, seed: int, fmt: str, level: str = "minimal") -> Path:
    """Where --out writes a puzzle: the name says level (not for minimal, as before levels) size and seed; a level
    first, so that a folder's sorted listing keeps the minimal puzzles first and each level together."""
    tag = "" if level == "minimal" else f"{level}-"
    return out / f"{tag}{rows}x{cols}-s{seed}.{'json' if fmt == 'json' else 'txt'}"


def run(args: argparse.Namespace) -> int:
    from ..progress import Progress
    from ..solvers import Budget, BudgetExhausted
    from ..workers import in_order, run_jobs

    global _interrupted
    _interrupted = False  # a Ctrl-C of an earlier run in this process (jobs run here with one worker)
    rows, cols = parse_shape(args.size)
    if args.count < 1:
        raise FillominoError(f"--count must be at least 1, got {args.count}")
    if args.threads < 1:
        raise FillominoError(f"--race (--threads) must be at least 1, got {args.threads}")
    if args.rating_budget is not None and not args.rating_budget > 0:
        raise FillominoError(f"--rating-budget must be a positive number of seconds, got {args.rating_budget}")
    options = dict(
        level=args.level,
        max_size=args.max_size,
        size_weights=parse_weights(args.size_weights),
        symmetry=args.symmetry,
        clue_every_region=args.clue_every_region,
        min_clues=args.min_clues,
        max_clues=args.max_clues,
        budget=Budget.parse(args.budget),
        threads=args.threads,
        rating_budget=args.rating_budget,
    )
    workers = workers_from(args)
    seeds = [args.seed + k for k in range(args.count)]
    out = Path(args.out) if args.out else None
    if out is not None:
        _prepare_out(out, [target_path(out, rows, cols, s, args.format, args.level) for s in seeds], args.force)
    done = 0
    try:
        # Puzzles are printed in seed order whatever order the workers finish them in.
        with Progress(len(seeds), "generating", unit="puzzle", quiet=args.quiet or args.count == 1) as bar:
            jobs = [(rows, cols, s, options) for s in seeds]
            for _k, made in in_order(run_jobs(_generate_job, jobs, workers), lambda _k, _made: bar.advance()):
                _emit(made, args, out, rows, cols, done)
                done += 1
    except BudgetExhausted:
        # A spent budget exits 3 in every command: the puzzle could not be proved unique in time.
        where = f" ({done} of {plural(len(seeds), 'puzzle')} written to {out})" if out is not None else ""
        print(f"fillomino: unknown: the budget ran out before a puzzle was proved unique{where}", file=sys.stderr)
        return 3
    except Exception as exc:
        if not is_interrupt(exc):
            raise
        interrupted = True
    except KeyboardInterrupt:
        interrupted = True
    else:
        interrupted = False
    if interrupted:
        where = f" written to {out}" if out is not None else ""
        print(f"fillomino: interrupted: {done} of {plural(len(seeds), 'puzzle')}{where}", file=sys.stderr)
        return 130
    return 0


_interrupted = False
"""Set in a worker process once Ctrl-C has reached it: its later jobs stop at once."""


def _generate_job(job: tuple) -> object:
    """One puzzle. After a Ctrl-C a pool's worker would still take the batch's next queued chunk and make every
    puzzle of it (minutes at a level) before the command could exit; so a worker, once interrupted, stops."""
    from ..generate import generate

    global _interrupted
    if _interrupted:
        raise KeyboardInterrupt
    rows, cols, seed, options = job
    try:
        return generate(rows, cols, seed, **options)
    except BaseException as exc:
        _interrupted = isinstance(exc, KeyboardInterrupt) or is_interrupt(exc)
        raise


def _emit(made, args: argparse.Namespace, out: Path | None, rows: int, cols: int, done: int) -> None:
    """Print (or write under --out) one finished puzzle, in the chosen format; ``done`` puzzles came before."""
    puzzle = _with_timing(made, args)
    text = _render(puzzle, args.format)
    if out is not None:
        path = target_path(out, rows, cols, made.seed, args.format, made.level)
        _write_file(path, text)
        if args.json:
            print_json(_record(made, puzzle, str(path)), status="unique")
        else:
            print(path)
    elif args.json:
        print_json(_record(made, puzzle, None), status="unique")
    else:
        if done and args.format in ("text", "json"):
            sys.stdout.write("\n" if args.format == "text" else "")
        sys.stdout.write(text)
    sys.stdout.flush()


def _with_timing(made, args: argparse.Namespace) -> Puzzle:
    puzzle = made.puzzle
    metadata = puzzle.metadata if args.no_timing else puzzle.metadata + (("seconds", f"{made.seconds:.3f}"),)
    solution = None if args.no_solution else puzzle.solution
    return Puzzle(puzzle.rows, puzzle.cols, puzzle.clues, solution, metadata)


def _render(puzzle: Puzzle, fmt: str) -> str:
    from ..formats import write_puzzle

    text = write_puzzle(puzzle, fmt)
    return text if text.endswith("\n") else text + "\n"


def _record(made, puzzle: Puzzle, path: str | None) -> dict:
    """The --json line: the clue grid (rows as lists, null for a blank, whatever the clue width), the solution,
    id and how it went. The JSON file format may write narrow rows as strings; a --json answer never does."""
    from ..formats import write_puzzle

    bare = Puzzle(puzzle.rows, puzzle.cols, puzzle.clues)
    record: dict[str, object] = {
        "puzzle": {"grid": [[v or None for v in row] for row in bare.clue_grid()]},
        "solution": [list(row) for row in made.solution],
        "id": write_puzzle(bare, "id").strip(),
        "seed": made.seed,
        "clues": made.clues,
        "seconds": round(made.seconds, 3),
        "size": bare.shape,
        "generator": made.puzzle.meta("generator"),
        "options": made.puzzle.meta("options"),
        "attempts": made.attempts,
        "level": made.level,
        "score": made.score,
        "ratings": made.ratings,
        "rating_timeouts": made.rating_timeouts,
    }
    if path is not None:
        record["file"] = path
    return record


def _prepare_out(out: Path, paths: list[Path], force: bool) -> None:
    """Make DIR (in a folder that exists: no parents made, as for every output) and refuse, before any work,
    to overwrite a file without --force."""
    if out.exists() and not out.is_dir():
        raise FillominoError(f"--out {out} is a file, not a directory")
    if not force:
        taken = [p for p in paths if p.exists()]
        if taken:
            more = f" (and {len(taken) - 1} more)" if len(taken) > 1 else ""
            raise FillominoError(f"{taken[0]} already exists{more}: use --force to overwrite, or another --seed")
    if not out.parent.is_dir():
        raise FillominoError(f"--out {out}: the folder {str(out.parent)!r} does not exist (create it first)")
    try:
        out.mkdir(exist_ok=True)
    except OSError as exc:
        raise FillominoError(f"cannot create --out directory {out}: {exc.strerror}") from None


def _write_file(path: Path, text: str) -> None:
    """Write whole or not at all (a temporary file renamed into place), so Ctrl-C leaves no half file."""
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise FillominoError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        if tmp.exists():
            tmp.unlink()
