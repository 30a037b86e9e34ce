"""Certify puzzle files: parse, check the stored solution, prove uniqueness with one or both engines.

Each puzzle gets a ``Record`` (outcome passed / failed / unknown / finding, with its problems), so CI
can fail on any wrong file and a report can show why. Files are only read, never written.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .check import check_answer
from .interrupts import is_interrupt
from .puzzle import FillominoError, Grid, Puzzle, cell_name
from .solvers.base import Budget, Status, Verdict, differing_cells
from .workers import Workers, run_jobs

STATUSES = ("unique", "published", "multiple", "unknown")
"""Values of an external file's ``status:`` header that --expect-status understands."""

PASSED, FAILED, UNKNOWN, FINDING = "passed", "failed", "unknown", "finding"
OUTCOMES = (PASSED, FAILED, UNKNOWN, FINDING)


@dataclass(frozen=True)
class CertifyOptions:
    """What to prove about every puzzle.

    ``budget`` limits each engine's uniqueness proof, and (with ``minimal``) all the clue questions
    together; running out leaves the puzzle unknown. ``expect_status`` judges each file against its
    ``status:`` header instead of requiring every puzzle to be unique.
    """

    backends: tuple[str, ...] = ("cnf",)
    minimal: bool = False
    rate: bool = False
    """Rate every puzzle with the logical rater too (files with a ``level:`` header are rated anyway)."""
    expect_status: bool = False
    budget: Budget = field(default_factory=Budget)


@dataclass
class EngineResult:
    """One engine's verdict on one puzzle and the wall-clock seconds it took (model building included)."""

    backend: str
    status: str
    seconds: float


@dataclass
class Record:
    """Everything certify found about one file; ``puzzle`` and ``solutions`` feed the pictures.

    ``seconds`` is wall-clock time, ``cpu_seconds`` the CPU time of the process that certified it
    (the fairer number on a shared machine)."""

    file: str
    hash: str = ""
    """The file's content hash: what --resume knows a finished puzzle by."""
    size: str = "?"
    clues: int | None = None
    expected: str | None = None
    verdict: str = ""
    outcome: str = FAILED
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    engines: list[EngineResult] = field(default_factory=list)
    level: str | None = None
    """The logical rater's level, when the puzzle was rated."""
    problems: list[str] = field(default_factory=list)
    unknowns: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    puzzle: Puzzle | None = None
    solutions: list[Grid] = field(default_factory=list)

    def fails(self, expect_status: bool) -> bool:
        """Whether this record makes the run fail: any problem, or (unless --expect-status) an unknown."""
        return self.outcome == FAILED or (self.outcome == UNKNOWN and not expect_status)

    def to_json(self) -> dict:
        out: dict = {
            "file": self.file,
            "hash": self.hash,
            "size": self.size,
            "clues": self.clues,
            "expected": self.expected,
            "verdict": self.verdict,
            "outcome": self.outcome,
            "seconds": round(self.seconds, 4),
            "cpu_seconds": round(self.cpu_seconds, 4),
            "engines": {e.backend: {"status": e.status, "seconds": round(e.seconds, 4)} for e in self.engines},
            "level": self.level,
            "problems": self.problems,
            "unknowns": self.unknowns,
            "findings": self.findings,
            "notes": self.notes,
        }
        if len(self.solutions) == 2:
            out["solutions"] = [[list(row) for row in g] for g in self.solutions]
        return out

    @classmethod
    def from_json(cls, data: dict, puzzle: Puzzle | None = None) -> Record:
        """A record read back from ``to_json`` (a --results line); ``puzzle`` re-attaches the parsed file."""
        record = cls(file=data["file"], hash=data.get("hash", ""), size=data.get("size", "?"),
                     clues=data.get("clues"), expected=data.get("expected"), verdict=data.get("verdict", ""),
                     outcome=data.get("outcome", FAILED), seconds=data.get("seconds", 0.0),
                     cpu_seconds=data.get("cpu_seconds", 0.0), puzzle=puzzle, level=data.get("level"))
        record.engines = [EngineResult(b, e["status"], e["seconds"]) for b, e in data.get("engines", {}).items()]
        for name in ("problems", "unknowns", "findings", "notes"):
            setattr(record, name, list(data.get(name, [])))
        record.solutions = [tuple(tuple(row) for row in g) for g in data.get("solutions", [])]
        return record


def certify_file(path: str | Path, options: CertifyOptions) -> Record:
    """Certify one puzzle file in this process. Never raises for a bad file or an engine failure: those are problems."""
    return certify_files([path], options, workers=Workers(1))[0]


def _outcome(record: Record) -> str:
    if record.problems:
        return FAILED
    if record.findings:
        return FINDING
    return UNKNOWN if record.unknowns else PASSED


def read_record(path: str | Path, options: CertifyOptions) -> Record:
    """Parse one file into a record; an unparsable file or a bad --expect-status header is already judged."""
    from .formats import read_puzzle

    record = Record(file=str(path))
    try:
        record.hash = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:32]
    except OSError:
        pass  # read_puzzle names the problem
    try:
        puzzle = read_puzzle(record.file)
    except FillominoError as exc:
        record.verdict = "unparsable"
        record.problems.append(f"unparsable: {str(exc).removeprefix(record.file + ': ')}")
        record.outcome = FAILED
        return record
    record.puzzle, record.size, record.clues = puzzle, puzzle.shape, len(puzzle.clue_cells())
    if options.expect_status:
        record.expected = (puzzle.meta("status") or "").strip().lower()
        if record.expected not in STATUSES:
            found = f"'status: {record.expected}'" if record.expected else "no status: header"
            record.problems.append(f"{found}; --expect-status needs one of {', '.join(STATUSES)}")
            record.outcome = FAILED
    return record


@dataclass
class EngineRun:
    """What one engine task sends back: its verdict (None when it failed), times and the minimality check."""

    backend: str
    verdict: Verdict | None
    error: str = ""
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    minimal: Record | None = None
    rating: dict | None = None
    """The rater's answer (backend "rater"): its level, state and hardest step."""


def run_engine(puzzle: Puzzle, backend: str, options: CertifyOptions) -> EngineRun:
    """One engine's uniqueness verdict on one puzzle (and, for CNF with ``minimal``, the clue check), timed.

    This is the unit of work certify spreads over processes: the engines of one big puzzle run side by side.
    """
    from .solvers import uniqueness

    start, cpu = time.perf_counter(), time.process_time()
    budget = options.budget
    run = EngineRun(backend, None)
    if backend == RATER:
        return _run_rater(puzzle, budget, run, start, cpu)
    try:
        run.verdict = uniqueness(puzzle, backend=backend, budget=Budget(budget.seconds, budget.conflicts),
                                 candidate=puzzle.solution)
        run.verdict.backend = run.verdict.backend or backend
        if options.minimal and backend == "cnf" and run.verdict.status is Status.UNIQUE:
            run.minimal = Record(file="")
            _check_minimal(run.minimal, puzzle, run.verdict.solutions[0], budget)
    except Exception as exc:  # one broken engine call must not end a whole CI run; it is reported
        if is_interrupt(exc):
            raise KeyboardInterrupt from None  # Ctrl-C is the user's, not a failure of this puzzle
        run.verdict, run.error = None, f"{type(exc).__name__}: {exc}"
    run.seconds, run.cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    return run


RATER = "rater"
"""The job name of the logical rater beside the engines."""


def _run_rater(puzzle: Puzzle, budget: Budget, run: EngineRun, start: float, cpu: float) -> EngineRun:
    from .logic import rate

    try:
        rating = rate(puzzle, budget=budget.seconds)
        hardest = rating.hardest.sentence if rating.hardest is not None else ""
        run.rating = {"level": rating.level, "state": rating.state, "open_cells": rating.open_cells,
                      "hardest": hardest}
    except Exception as exc:  # reported like an engine failure, never the end of the run
        if is_interrupt(exc):
            raise KeyboardInterrupt from None
        run.error = f"{type(exc).__name__}: {exc}"
    run.seconds, run.cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    return run


def _judge_rating(record: Record, run: EngineRun, options: CertifyOptions) -> None:
    """The rater's level against the file's ``level:`` header, and its verdict against the engines'."""
    from .logic.rating import level_mismatch, refused_level_header

    record.seconds += run.seconds
    record.cpu_seconds += run.cpu_seconds
    if run.rating is None:
        record.problems.append(f"the rater failed: {run.error}")
        return
    rating = run.rating
    record.level = rating["level"]
    record.engines.append(EngineResult(RATER, f"{rating['level']} ({rating['state']})", run.seconds))
    header = record.puzzle.meta("level") if record.puzzle is not None else None
    mismatch = level_mismatch(header, rating["level"], rating["state"])
    if mismatch is not None and rating["state"] == "budget" and refused_level_header(header or "") is None:
        record.unknowns.append(f"level: the budget ran out before the rater confirmed '{(header or '').split()[0]}'")
    elif mismatch is not None:
        record.problems.append(mismatch)
    # A logical solve proves the answer unique, a contradiction proves there is none: the engines must agree.
    implied = {"solved": "unique", "contradiction": "none"}.get(rating["state"])
    if implied and record.verdict in ("unique", "multiple", "none") and record.verdict != implied:
        record.problems.append(f"the rater ended in '{rating['state']}' but the engines say {record.verdict}: "
                               "an unsound technique")


def judge(record: Record, runs: Sequence[EngineRun], options: CertifyOptions) -> Record:
    """Fill ``record`` from its engines' runs (in the order of ``options.backends``) and give its outcome."""
    puzzle = record.puzzle
    assert puzzle is not None
    want = "unique"
    if options.expect_status:
        want = {"published": "unique", "unknown": ""}.get(record.expected or "", record.expected or "")
    if puzzle.solution is not None:
        record.problems += [f"stored solution: {p}" for p in _rule_breaks(puzzle, puzzle.solution)]
    verdicts = []
    rated = [run for run in runs if run.backend == RATER]
    runs = [run for run in runs if run.backend != RATER]
    for run in runs:
        record.seconds += run.seconds
        record.cpu_seconds += run.cpu_seconds
        if run.verdict is None:
            record.engines.append(EngineResult(run.backend, "error", run.seconds))
            record.problems.append(f"{run.backend} engine failed: {run.error}")
            continue
        record.engines.append(EngineResult(run.backend, run.verdict.status.value, run.seconds))
        if run.verdict.status is Status.UNKNOWN:
            record.unknowns.append(
                f"{run.backend}: the budget ({_budget_text(options.budget)}) ran out before uniqueness was settled")
        verdicts.append(run.verdict)
    settled = [v for v in verdicts if v.status is not Status.UNKNOWN]
    statuses = sorted({v.status.value for v in settled})
    record.verdict = statuses[0] if len(statuses) == 1 else ("disagree" if statuses else "unknown")
    if len(statuses) > 1:
        record.problems.append("engines disagree: " + ", ".join(f"{v.backend} says {v.status.value}" for v in settled))
    for v in settled:
        _judge(record, puzzle, v, want)
    if record.expected == "unknown" and settled:
        record.notes.append(f"status unknown; the engines say {record.verdict}")
    minimal = next((run.minimal for run in runs if run.minimal is not None), None)
    if minimal is not None and not record.problems and not record.unknowns:
        record.problems += minimal.problems
        record.unknowns += minimal.unknowns
        record.engines += minimal.engines
    for run in rated:
        _judge_rating(record, run, options)
    record.outcome = _outcome(record)
    return record


def _judge(record: Record, puzzle: Puzzle, verdict: Verdict, want: str) -> None:
    """Compare one settled verdict with what the file should be (``want``: unique, multiple, or '' = anything)."""
    name = verdict.backend
    for k, grid in enumerate(verdict.solutions):  # the engine's evidence must hold up on its own
        record.problems += [f"{name}'s solution {k + 1} {p}" for p in _rule_breaks(puzzle, grid)]
    if verdict.status is Status.MULTIPLE and not record.solutions:
        record.solutions = list(verdict.solutions)
    if not want:
        return
    status = verdict.status
    if status is Status.UNIQUE and want == "unique":
        stored = puzzle.solution
        if stored is not None and verdict.solutions and verdict.solutions[0] != stored:
            cells = differing_cells(stored, verdict.solutions[0])
            record.problems.append(
                f"wrong stored solution: {name} proved the puzzle unique, and its solution differs from the stored "
                f"one in {len(cells)} cells: {_cells(cells)}"
            )
            record.solutions = [stored, verdict.solutions[0]]
    elif status is Status.MULTIPLE and want == "unique":
        what = f"{name} found two solutions differing in {len(verdict.differ)} cells: {_cells(verdict.differ)}"
        if record.expected in ("unique", "published") and len(verdict.solutions) == 2 and _all_valid(puzzle, verdict):
            record.findings.append(f"status {record.expected}, but ambiguous: {what} (both checked against the rules)")
        else:
            record.problems.append(f"ambiguous: {what}")
    elif status is Status.NONE:
        clues = ", ".join(f"{puzzle.clue(r, c)} at {cell_name(r, c)}" for r, c in verdict.conflict)
        record.problems.append(f"no solution ({name}): these clues already conflict: {clues}")
    elif status is Status.UNIQUE and want == "multiple":
        record.problems.append(f"status multiple, but {name} proved the puzzle unique")


def _check_minimal(record: Record, puzzle: Puzzle, solution: Grid, budget: Budget) -> None:
    """Every clue needed: with any one clue removed, the solution must stop being the only one."""
    from .solvers.cnf import UniquenessOracle

    start = time.perf_counter()
    deadline = None if budget.seconds is None else start + budget.seconds
    oracle = UniquenessOracle(solution, budget=Budget(budget.seconds, budget.conflicts))
    try:
        cells = puzzle.clue_cells()
        for k, cell in enumerate(cells):
            if deadline is not None:
                oracle.budget = Budget(max(deadline - time.perf_counter(), 1e-3), budget.conflicts)
            # the whole clue set is proved unique, so another solution must differ at this cell
            status, _ = oracle.check_near([c for c in cells if c != cell], cell)
            if status is Status.UNKNOWN:
                record.unknowns.append(
                    f"minimal: the budget ({_budget_text(budget)}) ran out after {k} of {len(cells)} clues"
                )
                break
            if status is Status.UNIQUE:
                r, c = divmod(cell, puzzle.cols)
                record.problems.append(f"not minimal: clue {puzzle.clues[cell]} at {cell_name(r, c)} is not needed "
                                       "(the puzzle stays unique without it)")
    finally:
        oracle.close()
    record.engines.append(EngineResult("minimal", "checked", time.perf_counter() - start))


def _rule_breaks(puzzle: Puzzle, grid: Grid) -> list[str]:
    """At most one line saying how ``grid`` breaks the rules (first violation and how many more), or []."""
    violations = check_answer(puzzle, grid)
    if not violations:
        return []
    more = f" (and {len(violations) - 1} more)" if len(violations) > 1 else ""
    return [f"breaks the rules: {violations[0].describe()}{more}"]


def _all_valid(puzzle: Puzzle, verdict: Verdict) -> bool:
    return all(not check_answer(puzzle, g) for g in verdict.solutions) and verdict.solutions[0] != verdict.solutions[1]


def _cells(cells: Sequence[tuple[int, int]], limit: int = 8) -> str:
    shown = ", ".join(cell_name(r, c) for r, c in cells[:limit])
    return shown + (f" and {len(cells) - limit} more" if len(cells) > limit else "")


def _budget_text(budget: Budget) -> str:
    parts = ([f"{budget.seconds:g} s"] if budget.seconds is not None else []) + (
        [f"{budget.conflicts} conflicts"] if budget.conflicts is not None else []
    )
    return ", ".join(parts) or "none"


@dataclass
class SizeSummary:
    """One row of the summary table: how the puzzles of one size (or ``all``) went."""

    size: str
    count: int = 0
    passed: int = 0
    failed: int = 0
    unknown: int = 0
    findings: int = 0
    median_seconds: float = 0.0
    max_seconds: float = 0.0

    def to_json(self) -> dict:
        out = dict(self.__dict__)
        out["median_seconds"], out["max_seconds"] = round(self.median_seconds, 4), round(self.max_seconds, 4)
        return out


def summarize(records: Sequence[Record]) -> list[SizeSummary]:
    """A row per size (smallest first, unparsable files last), then the ``all`` row."""
    import statistics

    by_size: dict[str, list[Record]] = {}
    for rec in records:
        by_size.setdefault(rec.size, []).append(rec)
    groups = [(s, by_size[s]) for s in sorted(by_size, key=_shape_key)]
    rows = []
    for size, recs in groups + [("all", list(records))]:
        times = [r.seconds for r in recs] or [0.0]
        outcomes = [r.outcome for r in recs]
        rows.append(SizeSummary(size, len(recs), outcomes.count(PASSED), outcomes.count(FAILED),
                                outcomes.count(UNKNOWN), outcomes.count(FINDING),
                                statistics.median(times), max(times)))
    return rows


def _shape_key(size: str) -> tuple[int, int, int]:
    """Smallest grid first; "?" (an unparsable file) last."""
    r, _, c = size.partition("x")
    if not (r.isdigit() and c.isdigit()):
        return (1 << 30, 0, 0)
    return int(r) * int(c), int(r), int(c)


def certify_files(
    files: Sequence[str | Path],
    options: CertifyOptions,
    *,
    workers: Workers | None = None,
    on_done: Callable[[Record], None] | None = None,
) -> list[Record]:
    """Certify ``files`` on ``workers`` (default: every core); records come back in the files' order."""
    return certify_records([read_record(f, options) for f in files], options, workers=workers, on_done=on_done)


def select(records: Sequence[Record], *, per_size: int | None = None, max_cells: int | None = None) -> list[Record]:
    """A sample of a corpus: at most ``per_size`` puzzles of each shape (the first in the given order) and
    none with more than ``max_cells`` cells. Unparsable files are always kept: they must fail."""
    taken: dict[str, int] = {}
    out = []
    for rec in records:
        if rec.puzzle is not None:
            if max_cells is not None and rec.puzzle.size > max_cells:
                continue
            if per_size is not None and taken.get(rec.size, 0) >= per_size:
                continue
            taken[rec.size] = taken.get(rec.size, 0) + 1
        out.append(rec)
    return out


def _engine_job(job: tuple[Puzzle, str, CertifyOptions]) -> EngineRun:
    return run_engine(*job)  # looked up when called, so a test can watch run_engine in this process


def _engine_cost(job: tuple[Puzzle, str, CertifyOptions]) -> float:
    """A rough guess of an engine run's work: the cells, CP-SAT's runs about ten times CNF's."""
    puzzle, backend, _ = job
    return puzzle.size * {"cpsat": 10.0, RATER: 2.0}.get(backend, 1.0)


def _jobs_of(record: Record, options: CertifyOptions) -> list[str]:
    """The engines (and the rater, when asked for or when the file has a ``level:`` header) of one puzzle."""
    if record.puzzle is None or record.problems:
        return []
    rater = options.rate or record.puzzle.meta("level") is not None
    return list(options.backends) + ([RATER] if rater else [])


def certify_records(
    records: Sequence[Record],
    options: CertifyOptions,
    *,
    workers: Workers | None = None,
    on_done: Callable[[Record], None] | None = None,
) -> list[Record]:
    """Certify parsed ``records`` (from :func:`read_record`) on ``workers``; the same list comes back.

    The work is one job per puzzle and engine, the largest grids first (CP-SAT before CNF at a size), so
    the two engines of a big puzzle run side by side and no worker waits alone on a slow proof at the end;
    small jobs travel in chunks. ``on_done`` is called in this process as each record is complete.
    """
    workers = workers or Workers.local()
    records = list(records)
    # Which jobs each puzzle has is fixed before any runs: judging adds problems that would change it.
    names = [_jobs_of(rec, options) for rec in records]
    runs: list[dict[str, EngineRun]] = [{} for _ in records]
    tasks = [(i, backend) for i, jobs_of in enumerate(names) for backend in jobs_of]
    pending = {i: len(jobs_of) for i, jobs_of in enumerate(names) if jobs_of}
    for i, rec in enumerate(records):
        if i not in pending and on_done:
            on_done(rec)  # unparsable, or a header --expect-status refuses: judged already
    jobs = [(records[i].puzzle, backend, options) for i, backend in tasks]
    for k, run in run_jobs(_engine_job, jobs, workers, cost=_engine_cost):
        i = tasks[k][0]
        runs[i][run.backend] = run
        pending[i] -= 1
        if pending[i] == 0:
            judge(records[i], [runs[i][b] for b in names[i]], options)
            if on_done:
                on_done(records[i])
    return records


class ResultsLog:
    """``--results FILE.jsonl``: one JSON line per finished puzzle, flushed as it finishes, so a killed run
    loses only the puzzles in flight. With ``resume`` the puzzles already recorded under the same options
    (known by their content hash) are not certified again; a run's reports are built from this file.
    """

    def __init__(self, path: str | Path, options: CertifyOptions, *, resume: bool = False, force: bool = False):
        self.path = Path(path)
        self.options_key = json.dumps(_options_key(options), sort_keys=True)
        self.done: dict[str, dict] = {}
        if self.path.exists() and not (resume or force):
            raise FillominoError(f"{self.path} already exists: --resume to go on with it, --force to start it again")
        if self.path.is_dir():
            raise FillominoError(f"--results {self.path} is a folder, not a file")
        ends_open = False
        if resume and self.path.exists():
            text = self.path.read_text(encoding="utf-8", errors="replace")
            ends_open = bool(text) and not text.endswith("\n")
            for line in text.splitlines():
                try:
                    data = json.loads(line)
                except json.JSONDecodeError:
                    continue  # the line a killed run was writing
                if isinstance(data, dict) and data.get("options_key") == self.options_key and data.get("hash"):
                    self.done[data["hash"]] = data
        try:
            self.handle = open(self.path, "a" if resume else "w", encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            raise FillominoError(f"cannot write --results {self.path}: {exc.strerror or exc}") from None
        if ends_open:
            self.handle.write("\n")

    def recorded(self, record: Record) -> bool:
        return bool(record.hash) and record.hash in self.done

    def write(self, record: Record) -> None:
        data = record.to_json() | {"options_key": self.options_key}
        self.handle.write(json.dumps(data) + "\n")
        self.handle.flush()
        if record.hash:
            self.done[record.hash] = data

    def record_for(self, record: Record) -> Record:
        """The record this file holds for ``record``'s puzzle, with the parsed puzzle attached."""
        return Record.from_json(self.done[record.hash] | {"file": record.file}, record.puzzle)

    def close(self) -> None:
        self.handle.close()


def _options_key(options: CertifyOptions) -> dict:
    return {"backends": list(options.backends), "minimal": options.minimal, "expect_status": options.expect_status,
            "rate": options.rate, "budget": _budget_text(options.budget)}
