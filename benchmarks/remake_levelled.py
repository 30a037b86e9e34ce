"""Make every levelled corpus file again with today's generator, each with its own header's command.

A rater change that moves a level changes the puzzles the generator carves at that level, so it comes
with a GENERATOR_VERSION bump and this remake (corpus/README.md keeps each version's record). Every
file named ``<level>-<RxC>-s<seed>.txt`` is remade by ``python -m fillomino generate --size RxC --seed
N <its options> --no-timing`` in a process of its own, from this checkout's root (so a compiled copy
remakes with its compiled modules: run the copy's own script, pointed at the corpus to write). The
minimal files' ``generator:`` line is moved to today's version too (``--level minimal`` makes the
same puzzles whatever the version, which tests/test_generate.py checks on a sample).

    python benchmarks/remake_levelled.py corpus --jobs 2             # report only
    python benchmarks/remake_levelled.py corpus --jobs 2 --write     # and write what changed
    python benchmarks/remake_levelled.py corpus --only 'expert-15x15-s[12]*' --timeout 3600 --write

One line per file as it ends (the biggest and hardest start first): unchanged, version (only the ``generator:``
line differs), score (the ``score:`` line too), clues (the puzzle differs), or failed/timeout, with the wall
seconds it took. Exit 1 when some file failed or timed out.
"""

from __future__ import annotations

import argparse
import fnmatch
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fillomino.formats import parse_text  # noqa: E402
from fillomino.generate import GENERATOR_VERSION, RATED_LEVELS  # noqa: E402
from fillomino.puzzle import Puzzle  # noqa: E402

REMADE_ANYWAY = ("generator", "score")
"""Header lines a remake may change while the puzzle and its level stay."""


def levelled_files(corpus: Path, only: list[str], skip: list[str]) -> list[Path]:
    files = sorted(p for p in corpus.glob("*/*.txt") if p.name.split("-")[0] in RATED_LEVELS)
    if only:
        files = [p for p in files if any(fnmatch.fnmatch(p.name, g) for g in only)]
    return [p for p in files if not any(fnmatch.fnmatch(p.name, g) for g in skip)]


def remake(path: Path, timeout: float) -> tuple[Path, str, float, str]:
    """The file's own generate command run again: (path, verdict, wall seconds, new text or error)."""
    old = path.read_text(encoding="utf-8")
    stored = parse_text(old, str(path))
    argv = [sys.executable, "-m", "fillomino", "generate", "--size", str(stored.meta("size")),
            "--seed", str(stored.meta("seed")), *str(stored.meta("options")).split(), "--no-timing"]
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return path, "timeout", time.perf_counter() - start, ""
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        return path, "failed", seconds, done.stderr.strip().splitlines()[-1:][0] if done.stderr.strip() else ""
    new = done.stdout
    if old == new:
        return path, "unchanged", seconds, new
    made = parse_text(new, "generate")
    if (made.clues, made.solution, _kept(made)) != (stored.clues, stored.solution, _kept(stored)):
        return path, "clues", seconds, new
    return path, "score" if made.meta("score") != stored.meta("score") else "version", seconds, new


def _kept(puzzle: Puzzle) -> list[tuple[str, str]]:
    return [(k, v) for k, v in puzzle.metadata if k not in REMADE_ANYWAY]


def bump_minimal(corpus: Path, version: str, write: bool) -> int:
    """The minimal files' generator line set to today's version: how many needed it."""
    changed = 0
    for path in sorted(corpus.glob("*/[0-9]*.txt")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        for i, line in enumerate(lines):
            wanted = f"generator: fillomino-generate {version}\n"
            if line.startswith("generator: fillomino-generate ") and line != wanted:
                lines[i] = wanted
                changed += 1
                if write:
                    path.write_text("".join(lines), encoding="utf-8")
                break
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path, nargs="?", default=ROOT / "corpus")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", action="append", default=[], help="file-name glob to remake (repeatable)")
    parser.add_argument("--skip", action="append", default=[], help="file-name glob to leave (repeatable)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="wall seconds per file")
    parser.add_argument("--write", action="store_true", help="write the remade files (and the minimal headers)")
    args = parser.parse_args(argv)
    corpus = args.corpus.resolve()
    files = levelled_files(corpus, args.only, args.skip)
    print(f"generator version {GENERATOR_VERSION} from {ROOT}: {len(files)} levelled files, {args.jobs} jobs",
          flush=True)
    tally: dict[str, int] = {}
    failed = False
    # the biggest and hardest first, so that the long ones do not start last
    files.sort(key=lambda p: (-int(p.parent.name[:2]), -RATED_LEVELS.index(p.name.split("-")[0]), p.name))
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(remake, p, args.timeout) for p in files]
        for future in as_completed(futures):
            path, verdict, seconds, text = future.result()
            tally[verdict] = tally.get(verdict, 0) + 1
            error = f" {text}" if verdict == "failed" else ""
            print(f"{path.parent.name}/{path.name}: {verdict} {seconds:.1f} s{error}", flush=True)
            if verdict in ("clues", "score", "version") and args.write:
                path.write_text(text, encoding="utf-8")
            failed = failed or verdict in ("failed", "timeout")
    if not args.only:
        print(f"minimal files with another generator line: {bump_minimal(corpus, GENERATOR_VERSION, args.write)}")
    print(", ".join(f"{k} {v}" for k, v in sorted(tally.items())))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
