"""certify: a clean corpus file passes; each way a file can be wrong (ambiguous, wrong stored solution,
unparsable, unsolvable, not minimal, wrong status) is named with the file and fails the run; reports are
well-formed; input files are never touched."""

from __future__ import annotations

import base64
import json
import shutil
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from fillomino import solvers
from fillomino.certify import FAILED, FINDING, PASSED, UNKNOWN, CertifyOptions, certify_file, certify_files
from fillomino.cli import main
from fillomino.formats import read_puzzle
from fillomino.solvers import Budget, Status, Verdict
from fillomino.workers import Workers

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
CLEAN = CORPUS / "05x05" / "5x5-s1.txt"
HARDER = CORPUS / "10x10" / "10x10-s1.txt"  # needs search, so a 1-conflict budget leaves it unknown

# A 2x2 board without clues has several solutions (all 4s; two 2-dominoes side by side or stacked; ...).
AMBIGUOUS = "genre: fillomino\nstatus: {status}\ngrid:\n..\n..\n"


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(["certify", "--jobs", "1", *map(str, argv)])
    return code, capsys.readouterr().out


def copy(tmp_path: Path, source: Path = CLEAN, name: str | None = None) -> Path:
    target = tmp_path / (name or source.name)
    shutil.copyfile(source, target)
    return target


def edit_grid(path: Path, change) -> None:
    """Rewrite the grid rows of a text puzzle file with ``change(rows) -> rows``."""
    lines = path.read_text().splitlines()
    start, end = lines.index("grid:") + 1, lines.index("solution:")
    rows = [list(row) for row in lines[start:end]]
    lines[start:end] = ["".join(row) for row in change(rows)]
    path.write_text("\n".join(lines) + "\n")


def test_the_clean_corpus_file_passes(capsys):
    code, out = run(capsys, CLEAN)
    assert code == 0
    assert "certify: 1 puzzle, 1 passed, 0 failed, 0 unknown; " in out and " s wall on 1 process, " in out
    assert "5x5" in out


def test_a_removed_clue_makes_it_ambiguous_and_certify_names_file_and_cells(tmp_path, capsys):
    path = copy(tmp_path)
    first = read_puzzle(str(CLEAN)).clue_cells()[0]
    r, c = divmod(first, 5)

    def drop(rows):
        rows[r][c] = "."
        return rows

    edit_grid(path, drop)
    code, out = run(capsys, path)
    assert code == 1
    assert f"{path}: ambiguous: cnf found two solutions differing in" in out
    assert "0 passed, 1 failed" in out


def test_a_wrong_stored_solution_fails(tmp_path, capsys):
    path = copy(tmp_path)
    lines = path.read_text().splitlines()
    k = lines.index("solution:") + 1
    row = lines[k]
    lines[k] = ("1" if row[0] != "1" else "2") + row[1:]  # one cell of the stored solution changed
    path.write_text("\n".join(lines) + "\n")
    code, out = run(capsys, path)
    assert code == 1
    assert f"{path}: stored solution: breaks the rules: R1" in out
    assert f"{path}: wrong stored solution: cnf proved the puzzle unique" in out


def test_an_unparsable_file_fails_with_the_reason(tmp_path, capsys):
    path = copy(tmp_path)
    edit_grid(path, lambda rows: rows[:-1] + [list("..x..")])
    code, out = run(capsys, path)
    assert code == 1
    assert f"{path}: unparsable: line" in out and "unknown character 'x'" in out


def test_an_unsolvable_clue_fails_with_the_conflicting_clues(tmp_path, capsys):
    path = copy(tmp_path)

    def two_ones(rows):  # two neighbouring 1s make a group of two holding 1: no solution
        rows[0][0] = rows[0][1] = "1"
        return rows

    edit_grid(path, two_ones)
    code, out = run(capsys, path)
    assert code == 1
    assert f"{path}: no solution (cnf): these clues already conflict: 1 at r1c1, 1 at r1c2" in out


def test_a_redundant_clue_fails_minimal_only(tmp_path, capsys):
    path = copy(tmp_path)
    puzzle = read_puzzle(str(CLEAN))
    free = next(i for i in range(puzzle.size) if not puzzle.clues[i])
    r, c = divmod(free, 5)

    def add_clue(rows):
        rows[r][c] = str(puzzle.solution[r][c])
        return rows

    edit_grid(path, add_clue)
    assert run(capsys, path)[0] == 0  # still unique: fine without --minimal
    code, out = run(capsys, path, "--minimal")
    assert code == 1
    assert f"{path}: not minimal: clue" in out
    assert run(capsys, CLEAN, "--minimal")[0] == 0


def test_a_budget_that_runs_out_is_unknown_exit_3_and_listed_not_failing_with_expect_status(tmp_path, capsys):
    code, out = run(capsys, HARDER, "--budget", "1c")
    assert code == 3
    assert f"{HARDER}: unknown: cnf: the budget (1 conflicts) ran out" in out
    path = tmp_path / "external.txt"
    path.write_text(HARDER.read_text().replace("genre: fillomino\n", "genre: fillomino\nstatus: published\n"))
    code, out = run(capsys, path, "--budget", "1c", "--expect-status")
    assert code == 0
    assert "left unknown by the budget (listed, not failures with --expect-status): 1" in out
    assert "0 failed, 1 unknown" in out


def test_expect_status_judges_each_file_by_its_header(tmp_path, capsys):
    (tmp_path / "multiple.txt").write_text(AMBIGUOUS.format(status="multiple"))
    (tmp_path / "unknown.txt").write_text(AMBIGUOUS.format(status="unknown"))
    unique = tmp_path / "unique.txt"
    unique.write_text(CLEAN.read_text().replace("genre: fillomino\n", "genre: fillomino\nstatus: unique\n"))
    code, out = run(capsys, tmp_path, "--expect-status")
    assert code == 0, out
    assert f"{tmp_path / 'unknown.txt'}: note: status unknown; the engines say multiple" in out
    said_multiple = tmp_path / "said-multiple.txt"
    said_multiple.write_text(unique.read_text().replace("status: unique", "status: multiple"))
    no_status = copy(tmp_path, name="no-status.txt")
    code, out = run(capsys, tmp_path, "--expect-status")
    assert code == 1
    assert f"{said_multiple}: status multiple, but cnf proved the puzzle unique" in out
    assert f"{no_status}: no status: header; --expect-status needs one of" in out


def test_a_published_puzzle_found_ambiguous_is_a_finding_with_both_solutions(tmp_path, capsys):
    path = tmp_path / "published.txt"
    path.write_text(AMBIGUOUS.format(status="published"))
    code, out = run(capsys, path, "--expect-status")
    assert code == 0  # the two solutions are checked against the rules: the engine is right, the label is not
    assert f"{path}: FINDING: status published, but ambiguous: cnf found two solutions" in out
    assert out.count("┏") == 2  # both boards, side by side
    record = certify_file(path, CertifyOptions(expect_status=True))
    assert record.outcome == FINDING and len(record.solutions) == 2
    assert run(capsys, path)[0] == 1  # without --expect-status an ambiguous puzzle is a failure


def test_engines_that_disagree_fail(monkeypatch):
    real = solvers.uniqueness

    def fake(puzzle, *, backend="cnf", **kwargs):
        verdict = real(puzzle, backend="cnf", **kwargs)
        if backend == "cpsat":  # a broken second engine that claims no solution
            return Verdict(Status.NONE, conflict=[(0, 0)], backend="cpsat")
        return verdict

    monkeypatch.setattr(solvers, "uniqueness", fake)
    record = certify_file(CLEAN, CertifyOptions(backends=("cnf", "cpsat")))
    assert record.outcome == FAILED
    assert record.verdict == "disagree"
    assert "engines disagree: cnf says unique, cpsat says none" in record.problems


@pytest.mark.slow
def test_both_engines_certify_a_small_corpus_file():
    record = certify_file(CLEAN, CertifyOptions(backends=("cnf", "cpsat"), budget=Budget(seconds=60)))
    assert record.outcome == PASSED, record.problems + record.unknowns
    assert [e.backend for e in record.engines] == ["cnf", "cpsat"]


def test_parallel_jobs_keep_the_files_order(tmp_path):
    names = [copy(tmp_path, CORPUS / "05x05" / f"5x5-s{k}.txt") for k in (1, 2, 3)]
    (tmp_path / "broken.txt").write_text("genre: fillomino\ngrid:\n1x\n")
    files = sorted(tmp_path.iterdir())
    records = certify_files(files, CertifyOptions(), workers=Workers(2))
    assert [r.file for r in records] == [str(f) for f in files]
    assert [r.outcome for r in records] == [FAILED if f.name == "broken.txt" else PASSED for f in files]
    assert {str(n) for n in names} < {r.file for r in records}


class _TagBalance(HTMLParser):
    """Fails on a closing tag that does not match the open one (void elements aside)."""

    VOID = {"meta", "img", "br", "hr", "link", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.images: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(dict(attrs)["src"])
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack.pop() == tag, f"unbalanced </{tag}>"


def test_reports_are_well_formed_and_inputs_are_never_modified(tmp_path, capsys):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    clean = copy(corpus)
    broken = copy(corpus, name="broken.txt")
    edit_grid(broken, lambda rows: [["."] * 5 for _ in rows])  # no clues at all: ambiguous
    ambiguous = corpus / "published.txt"
    ambiguous.write_text(AMBIGUOUS.format(status="published"))
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in corpus.iterdir()}
    junit, page = tmp_path / "certify.xml", tmp_path / "certify.html"
    code, out = run(capsys, corpus, "--minimal", "--json", "--junit", junit, "--html", page)
    assert code == 1
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in corpus.iterdir()} == before

    report = json.loads(out)
    assert report["summary"]["count"] == 3 and report["summary"]["failed"] == 2
    by_file = {r["file"]: r for r in report["puzzles"]}
    assert by_file[str(clean)]["outcome"] == PASSED
    assert by_file[str(clean)]["engines"]["cnf"]["status"] == "unique"
    assert by_file[str(broken)]["verdict"] == "multiple" and len(by_file[str(broken)]["solutions"]) == 2
    assert by_file[str(broken)]["problems"][0].startswith("ambiguous:")

    suites = ET.parse(junit).getroot()
    assert suites.get("tests") == "3" and suites.get("failures") == "2"
    failed = [case.get("name") for case in suites.iter("testcase") if case.find("failure") is not None]
    assert sorted(failed) == sorted([str(broken), str(ambiguous)])

    checker = _TagBalance()
    checker.feed(page.read_text())
    assert checker.stack == []
    assert len(checker.images) == 2  # one thumbnail per puzzle that did not pass
    for src in checker.images:
        assert src.startswith("data:image/svg+xml;base64,")
        ET.fromstring(base64.b64decode(src.split(",", 1)[1]))  # each thumbnail is a real SVG


def test_a_report_may_not_overwrite_an_input(tmp_path, capsys):
    path = copy(tmp_path)
    before = path.read_bytes()
    assert main(["certify", str(path), "--html", str(path)]) == 2
    assert "never overwrites its input" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_expectations_of_unknown_outcomes():
    record = certify_file(HARDER, CertifyOptions(budget=Budget(conflicts=1)))
    assert record.outcome == UNKNOWN
    assert record.fails(expect_status=False) and not record.fails(expect_status=True)


def test_a_sample_takes_the_first_puzzles_of_each_size_up_to_a_cell_count(tmp_path, capsys):
    for k in (1, 2, 3):
        copy(tmp_path, CORPUS / "05x05" / f"5x5-s{k}.txt")
        copy(tmp_path, CORPUS / "10x10" / f"10x10-s{k}.txt")
    (tmp_path / "broken.txt").write_text("genre: fillomino\ngrid:\n1x\n")
    main(["certify", "--jobs", "1", "--json", "--per-size", "2", "--max-cells", "25", str(tmp_path)])
    report = json.loads(capsys.readouterr().out)
    files = [Path(p["file"]).name for p in report["puzzles"]]
    assert files == ["5x5-s1.txt", "5x5-s2.txt", "broken.txt"]  # unparsable files are always kept: they fail
    assert report["summary"]["left_out"] == 4 and report["summary"]["workers"] == "1 process"
    assert report["summary"]["wall_seconds"] > 0 and report["summary"]["cpu_seconds"] > 0
    assert main(["certify", "--max-cells", "4", str(tmp_path / "5x5-s1.txt")]) == 2  # nothing left: unusable


def test_each_engine_of_a_puzzle_is_its_own_task_and_the_largest_go_first(monkeypatch):
    from fillomino import certify

    started: list[tuple[str, str]] = []
    real = certify.run_engine

    def spy(puzzle, backend, options):
        started.append((puzzle.shape, backend))
        return real(puzzle, backend, options)

    monkeypatch.setattr(certify, "run_engine", spy)
    files = [CLEAN, HARDER]
    records = certify_files(files, CertifyOptions(backends=("cnf", "cpsat")), workers=Workers(1))
    assert started == [("10x10", "cpsat"), ("5x5", "cpsat"), ("10x10", "cnf"), ("5x5", "cnf")]  # costliest first
    assert [r.file for r in records] == [str(f) for f in files]  # the report keeps the files' order
    assert all(r.outcome == PASSED and [e.backend for e in r.engines] == ["cnf", "cpsat"] for r in records)
    assert all(r.cpu_seconds > 0 for r in records)


def test_rate_records_levels_and_a_level_header_is_checked(tmp_path, capsys):
    from fillomino.logic import rate

    level = rate(read_puzzle(str(CLEAN))).level
    right = copy(tmp_path, name="right.txt")
    right.write_text(right.read_text().replace("grid:", f"level: {level}\ngrid:", 1))
    wrong = copy(tmp_path, name="wrong.txt")
    other = "expert" if level != "expert" else "easy"
    wrong.write_text(wrong.read_text().replace("grid:", f"level: {other}\ngrid:", 1))
    records = certify_files([right, wrong, CLEAN], CertifyOptions(), workers=Workers(1))
    assert [r.level for r in records] == [level, level, None]  # only headed files are rated without --rate
    assert records[0].outcome == PASSED and records[2].outcome == PASSED
    assert records[1].outcome == FAILED
    assert f"level: the header says {other}, the rater says {level}" in records[1].problems[0]
    assert main(["certify", "--workers", "1", "--rate", "--json", str(CLEAN)]) == 0
    assert json.loads(capsys.readouterr().out)["puzzles"][0]["level"] == level


def test_a_logical_solve_of_an_ambiguous_puzzle_is_an_unsound_rater(tmp_path, monkeypatch):
    import types

    import fillomino.logic

    path = tmp_path / "amb.txt"
    path.write_text(AMBIGUOUS.format(status="multiple"))
    fake = types.SimpleNamespace(level="easy", state="solved", open_cells=0, hardest=None)
    monkeypatch.setattr(fillomino.logic, "rate", lambda puzzle, budget=None: fake)
    record = certify_file(path, CertifyOptions(expect_status=True, rate=True))
    assert record.outcome == FAILED
    assert any("an unsound technique" in p for p in record.problems)
