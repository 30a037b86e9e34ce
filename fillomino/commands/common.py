"""Options and helpers every subcommand shares, so they read and behave alike."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ..puzzle import FillominoError, Puzzle

INPUT_HELP = "a file path, '-' for stdin, or the puzzle itself (text, JSON, fillomino:RxC:... ID, puzz.link URL)"


def add_input(parser: argparse.ArgumentParser, name: str = "input", help: str = INPUT_HELP) -> None:
    parser.add_argument(name, metavar=name.upper(), help=help)


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")


def add_engine_options(parser: argparse.ArgumentParser, backend: bool = True) -> None:
    """--max-size, --budget and (optionally) --backend/--threads."""
    parser.add_argument(
        "--max-size",
        type=int,
        metavar="K",
        help="assume no region exceeds K cells (a promise that shrinks the model; outputs say it was assumed)",
    )
    parser.add_argument(
        "--budget", metavar="LIMIT", help="give up with 'unknown' after a time ('5s') or conflicts ('100000c')"
    )
    if backend:
        parser.add_argument("--backend", choices=("cnf", "cpsat"), default="cnf", help="engine (default: cnf)")
        parser.add_argument("--threads", type=int, default=1, help="worker threads for cpsat (default: 1)")


def seconds_budget(text: str | None) -> float | None:
    """A --budget for work that counts time only (the logical rater): seconds, or None for no limit."""
    from ..solvers import Budget

    budget = Budget.parse(text)
    if budget.conflicts is not None:
        raise FillominoError(f"--budget {text!r}: this work counts time, not conflicts: give a time like '5s'")
    return budget.seconds


def load_puzzle(source: str) -> Puzzle:
    """Read a puzzle from a path, '-', or inline text; errors are FillominoError with a location."""
    from ..formats import read_puzzle

    return read_puzzle(source)


# What every --json answer carries besides its own fields (docs/usage/cli.md): cli.main starts it per command.
_envelope: dict = {"started": None, "max_size": None}


def begin_command(args: argparse.Namespace) -> None:
    """Start the clock and note the --max-size of the command about to run, for the JSON envelope."""
    _envelope["started"] = time.perf_counter()
    _envelope["max_size"] = getattr(args, "max_size", None)


def envelope(obj: dict, status: str | None = None) -> dict:
    """``obj`` with the shared fields: ``status`` (given here when the command's own object has none),
    ``seconds`` (wall time of the command, unless it measured its own) and ``max_size`` (the cap assumed)."""
    started = _envelope["started"]
    out = dict(obj)
    if status is not None:
        out.setdefault("status", status)
    out.setdefault("seconds", round(time.perf_counter() - started, 6) if started is not None else 0.0)
    out.setdefault("max_size", _envelope["max_size"])
    return out


def print_json(obj: object, status: str | None = None) -> None:
    """One JSON document on stdout; objects (and lists of them) get the envelope."""
    if isinstance(obj, dict):
        obj = envelope(obj, status)
    elif isinstance(obj, list):
        obj = [envelope(o, status) if isinstance(o, dict) else o for o in obj]
    json.dump(obj, sys.stdout)
    sys.stdout.write("\n")


def engine_kwargs(args: argparse.Namespace, backend: bool = True) -> dict:
    """The keyword arguments of fillomino.solvers' functions from the parsed engine options."""
    from ..solvers import Budget

    kwargs: dict = {"max_size": args.max_size, "budget": Budget.parse(args.budget)}
    if backend:
        kwargs["backend"] = args.backend
        if args.threads < 1:
            from ..puzzle import FillominoError

            raise FillominoError(f"--threads must be at least 1, got {args.threads}")
        kwargs["threads"] = args.threads
        warn_threads_ignored(args.backend, args.threads)
    return kwargs


def warn_threads_ignored(backend: str, threads: int) -> None:
    """Say on stderr that --threads has no effect, rather than ignore it silently."""
    if backend == "cnf" and threads != 1:
        print(f"fillomino: note: --threads {threads} is ignored by the cnf backend (one thread); "
              "--backend cpsat uses them", file=sys.stderr)


def add_workers(parser: argparse.ArgumentParser) -> None:
    """--workers N (local processes, default every core) and --scheduler ADDRESS (a Dask cluster)."""
    parser.add_argument("--workers", "--jobs", type=int, default=None, metavar="N", dest="workers",
                        help="run the work in N local processes (default: every core)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run the work on the Dask cluster whose scheduler is at ADDRESS, e.g. tcp://10.0.0.5:8786 "
                        "(pip install 'fillomino[cluster]')")


def workers_from(args: argparse.Namespace):
    """The Workers the parsed --workers/--scheduler options ask for."""
    from ..workers import Workers

    if args.scheduler and args.workers is not None:
        raise FillominoError("--workers and --scheduler exclude each other: the cluster has its own workers")
    if args.scheduler:
        return Workers(scheduler=args.scheduler)
    if args.workers is not None and args.workers < 1:
        raise FillominoError(f"--workers must be at least 1, got {args.workers}")
    return Workers.local(args.workers)


def add_quiet(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bar (there is none when stderr is not a terminal either)")


def check_output(flag: str, name: str, force: bool, *, exists_ok: bool = False) -> Path:
    """Before any work: the one rule for every output file a command writes.

    Its folder must already exist (nothing is created on the user's behalf but the file itself), it is not a
    folder, and an existing file is only overwritten with --force (``exists_ok`` when the caller has its own
    rule for an existing file, as certify's --results with --resume).
    """
    path = Path(name)
    if path.is_dir():
        raise FillominoError(f"{flag} {name} is a folder, not a file")
    if path.exists() and not (force or exists_ok):
        raise FillominoError(f"{flag} {name} already exists: use --force to overwrite it")
    parent = path.parent
    if not parent.is_dir():
        raise FillominoError(f"{flag} {name}: the folder {str(parent)!r} does not exist (create it first)")
    return path


IMAGE_FORMATS = (".svg", ".png")


def check_image_output(flag: str, name: str, force: bool) -> str:
    """``check_output`` for a drawing: also its format, ".svg" or ".png", from the extension."""
    suffix = Path(name).suffix.lower()
    if suffix not in IMAGE_FORMATS:
        raise FillominoError(f"{flag} {name!r} must end in .svg or .png (got {suffix or 'no extension'!r})")
    check_output(flag, name, force)
    return suffix


def write_output(name: str | Path, data: str | bytes, force: bool) -> int:
    """Write an output file checked by ``check_output``: created exclusively unless ``force``, so a file that
    appeared meanwhile is still not overwritten. Returns the bytes written."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        with open(name, "wb" if force else "xb") as fh:
            fh.write(payload)
    except FileExistsError:
        raise FillominoError(f"{name} already exists: pass --force to overwrite it") from None
    except OSError as exc:
        raise FillominoError(f"cannot write {name}: {exc.strerror}") from None
    return len(payload)


def add_no_color(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-color", action="store_true", help="plain text boards, no ANSI colour")


def cap_note(max_size: int | None) -> str:
    """The line every output carries when a region-size cap was assumed."""
    return "" if max_size is None else f"(assuming no region is larger than {max_size} cells: --max-size {max_size})"
