"""The CNF and CP-SAT backends agree, and ``fillomino crosscheck`` reports agreement and disagreement.

The external corpus part covers every puzzle of at most 81 cells (9x9 and smaller) whose clues are at
most 12 (114 of 116: it leaves out janko-266 and noqx-url_9x9, clues up to 15 and 19, which CP-SAT needs
30-60 s for) and every 40th 10x10 puzzle (10 of 376): about a minute on an idle machine.
`python benchmarks/backends.py` runs the whole corpus.
"""

from __future__ import annotations

import importlib.util
import json
import random
from dataclasses import replace

import pytest
from bruteforce import count_pictures
from conftest import external_files

from fillomino.cli import main
from fillomino.commands.crosscheck import check_one, compare
from fillomino.formats import read_puzzle, write_text
from fillomino.puzzle import Puzzle
from fillomino.solvers import Budget, Status, Verdict

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("fillomino.solvers.cnf") is None, reason="the CNF backend is not built yet"
)

BACKENDS = ["cnf", "cpsat"]
SEED = "fillomino:3x3:a2b234b"


def corpus_sample() -> list:
    files = []
    ten_by_ten = 0
    for path in external_files():
        puzzle = read_puzzle(str(path))
        if puzzle.size <= 81:
            if max(puzzle.clues) <= 12:
                files.append(path)
        elif puzzle.shape == "10x10":
            if ten_by_ten % 40 == 0:
                files.append(path)
            ten_by_ten += 1
    return files


@pytest.mark.long  # 77 CPU s; CI's CP-SAT second opinion certifies the corpus up to 12x12 instead
@pytest.mark.parametrize("part", range(4))
def test_backends_agree_on_the_small_external_puzzles(external_corpus, part):
    """Every fourth puzzle of the sample per part, so that parallel test workers can share them."""
    sample = corpus_sample()
    assert len(sample) >= 100
    disagreements = []
    for path in sample[part::4]:
        record = check_one(str(path), read_puzzle(str(path)), BACKENDS, budget=Budget(seconds=60))
        if record.agree is not True:
            disagreements.append((path.name, record.reason))
    assert disagreements == []


def random_board(rng: random.Random) -> Puzzle:
    rows, cols = rng.randint(1, 4), rng.randint(1, 4)
    n = rows * cols
    density = rng.choice([0.2, 0.4, 0.6])
    clues = [rng.randint(1, min(n, 6)) if rng.random() < density else 0 for _ in range(n)]
    return Puzzle(rows, cols, tuple(clues))


@pytest.mark.parametrize("part", range(4))
def test_backends_and_the_brute_force_agree_on_2000_random_small_boards(part):
    """Three voices: CNF, CP-SAT and the brute force (which shares no code with either) give one verdict.

    Four parts of 500 boards each, so that parallel test workers can share them.
    """
    rng = random.Random(20261129 + part)
    seen = {status: 0 for status in Status}
    for _ in range(500):
        puzzle = random_board(rng)
        max_size = rng.choice([None, None, None, 3, 5])
        if max_size is not None and any(v > max_size for v in puzzle.clues):
            max_size = None
        record = check_one("random", puzzle, BACKENDS, max_size=max_size)
        assert record.agree is True, (puzzle, max_size, record.reason)
        answers = count_pictures(puzzle.rows, puzzle.cols, puzzle.clues, max_size)
        expected = {0: Status.NONE, 1: Status.UNIQUE}.get(answers, Status.MULTIPLE)
        assert record.verdicts["cnf"].status is expected, (puzzle, max_size, answers)
        seen[expected] += 1
    # the sample exercises every decided verdict, not just one kind
    assert min(seen[Status.UNIQUE], seen[Status.MULTIPLE], seen[Status.NONE]) >= 25, seen


def _verdict(status: Status, *solutions) -> Verdict:
    return Verdict(status, solutions=list(solutions), backend="test")


def test_compare_needs_equal_status_and_the_same_unique_solution():
    puzzle = read_puzzle(SEED)
    right = ((4, 2, 3), (4, 2, 3), (4, 4, 3))
    assert compare(puzzle, {"a": _verdict(Status.UNIQUE, right), "b": _verdict(Status.UNIQUE, right)}) == (True, "")
    agree, reason = compare(puzzle, {"a": _verdict(Status.UNIQUE, right), "b": _verdict(Status.MULTIPLE)})
    assert agree is False and "a says unique" in reason and "b says multiple" in reason
    wrong = ((4, 2, 3), (4, 2, 3), (4, 4, 4))
    agree, reason = compare(puzzle, {"a": _verdict(Status.UNIQUE, right), "b": _verdict(Status.UNIQUE, wrong)})
    assert agree is False and "breaks the rules" in reason
    agree, _ = compare(puzzle, {"a": _verdict(Status.UNIQUE, right), "b": _verdict(Status.UNKNOWN)})
    assert agree is None


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "seed.txt").write_text(write_text(read_puzzle(SEED)))
    (tmp_path / "open.txt").write_text(write_text(Puzzle.empty(2, 2)))
    (tmp_path / "clash.txt").write_text(write_text(Puzzle.from_grid([[1, 1], [0, 0]])))
    return tmp_path


def test_a_stored_solution_is_only_a_starting_point_for_the_engines():
    """A right stored solution gives the same verdicts as none, one that breaks the rules changes no
    verdict, and one picture of an ambiguous board is only where CP-SAT starts: it still finds another."""
    seed = read_puzzle(SEED)
    right = ((4, 2, 3), (4, 2, 3), (4, 4, 3))
    wrong = ((4, 2, 3), (4, 2, 3), (4, 4, 4))
    for stored in (right, wrong):
        record = check_one("seed", replace(seed, solution=stored), BACKENDS)
        assert record.agree is True and record.verdicts["cpsat"].status is Status.UNIQUE
        assert all(v.solutions == [right] for v in record.verdicts.values())
    open_board = Puzzle(2, 2, (0, 0, 0, 0), solution=((1, 1), (1, 1)))  # not even a picture: 1s touch
    record = check_one("open", open_board, BACKENDS)
    assert record.agree is True and record.verdicts["cpsat"].status is Status.MULTIPLE
    picture = Puzzle(2, 2, (0, 0, 0, 0), solution=((4, 4), (4, 4)))  # one of its pictures
    record = check_one("open", picture, BACKENDS)
    assert record.agree is True and record.verdicts["cpsat"].status is Status.MULTIPLE
    assert ((4, 4), (4, 4)) in record.verdicts["cpsat"].solutions


def test_cli_prints_a_table_with_both_verdicts_and_exits_0(folder, capsys):
    assert main(["crosscheck", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["puzzle", "shape", "cnf", "s", "cpsat", "s", "check"]
    rows = {line.split()[0].rsplit("/", 1)[-1]: line.split() for line in out[1:4]}
    assert rows["seed.txt"][2] == rows["seed.txt"][4] == "unique" and rows["seed.txt"][-1] == "ok"
    assert rows["open.txt"][2] == rows["open.txt"][4] == "multiple"
    assert rows["clash.txt"][2] == rows["clash.txt"][4] == "none"
    assert out[4].startswith("3 puzzles: 3 agree, 0 disagree, 0 undecided")


def test_cli_json_has_a_record_per_puzzle_and_a_summary(folder, capsys):
    assert main(["crosscheck", str(folder / "seed.txt"), str(folder / "clash.txt"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["puzzle"].rsplit("/", 1)[-1] for r in data["puzzles"]] == ["seed.txt", "clash.txt"]
    seed = data["puzzles"][0]
    assert seed["agree"] is True and seed["shape"] == "3x3"
    assert seed["verdicts"]["cpsat"]["solutions"] == [[[4, 2, 3], [4, 2, 3], [4, 4, 3]]]
    assert data["summary"]["puzzles"] == 2 and data["summary"]["agree"] == 2
    assert data["summary"]["disagree"] == 0 and set(data["summary"]["seconds"]) == {"cnf", "cpsat"}


def test_cli_names_the_puzzle_and_exits_1_on_a_planted_disagreement(folder, capsys, monkeypatch):
    from fillomino.solvers import cpsat

    monkeypatch.setattr(cpsat, "uniqueness", lambda puzzle, **kw: Verdict(Status.MULTIPLE, backend="cpsat"))
    assert main(["crosscheck", str(folder / "seed.txt")]) == 1
    out = capsys.readouterr().out
    assert "DISAGREE" in out and "seed.txt: cnf says unique, cpsat says multiple" in out


def test_cli_exits_3_when_a_backend_runs_out_of_budget(folder, capsys, monkeypatch):
    from fillomino.solvers import cpsat

    monkeypatch.setattr(cpsat, "uniqueness", lambda puzzle, **kw: Verdict(Status.UNKNOWN, backend="cpsat"))
    assert main(["crosscheck", str(folder / "seed.txt"), "--json"]) == 3
    assert json.loads(capsys.readouterr().out)["summary"]["undecided"] == 1


@pytest.mark.parametrize(
    "extra",
    [["--backends", "cnf"], ["--backends", "cnf,sat4j"], ["--max-size", "2"], ["--threads", "0"]],
)
def test_cli_exits_2_on_unusable_options(folder, capsys, extra):
    assert main(["crosscheck", str(folder / "seed.txt"), *extra]) == 2
    assert capsys.readouterr().err.startswith("fillomino: error:")


def test_cli_lists_a_broken_file_as_unparsable_and_runs_the_others_on(folder, capsys):
    (folder / "broken.txt").write_text("grid:\n.2x\n")
    assert main(["crosscheck", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "broken.txt  UNPARSABLE:" in out and "unparsable" in out.splitlines()[-1]
    assert " ok" in out  # the good puzzles were still checked
    assert main(["crosscheck", str(folder), "--json"]) == 1
    summary = json.loads(capsys.readouterr().out)["summary"]
    assert [u["puzzle"] for u in summary["unparsable"]] == [str(folder / "broken.txt")]
    assert summary["agree"] == summary["puzzles"] >= 1


def test_cli_exits_2_when_no_file_is_readable(folder, capsys):
    (folder / "broken.txt").write_text("grid:\n.2x\n")
    assert main(["crosscheck", str(folder / "broken.txt")]) == 2
    captured = capsys.readouterr()
    assert "broken.txt" in captured.err and captured.out == ""
