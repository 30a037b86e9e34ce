"""`suggest` adds clues (one solution's values) until the grid is unique, and each result is proved unique
again here by independent means: the brute force on small boards, both engines on the external corpus."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fillomino import suggest as suggest_module
from fillomino.cli import main
from fillomino.formats import read_puzzle
from fillomino.puzzle import Puzzle, is_solution
from fillomino.solvers import BudgetExhausted, Status, uniqueness
from fillomino.suggest import suggest
from tests import bruteforce
from tests.conftest import external_files

SEED = Puzzle.from_grid([[0, 2, 0], [0, 2, 3], [4, 0, 0]])


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def check(puzzle: Puzzle, result, engines=("cnf",)) -> None:
    """The suggested clues are the solution's values on empty cells, the old clues stay, and it is unique."""
    assert result.status == "unique"
    assert is_solution(puzzle, result.solution)
    clues = list(puzzle.clues)
    for r, c, v in result.clues:
        i = r * puzzle.cols + c
        assert puzzle.clues[i] == 0 and v == result.solution[r][c]
        clues[i] = v
    assert result.puzzle.clues == tuple(clues)
    for engine in engines:
        verdict = uniqueness(result.puzzle, backend=engine)
        assert verdict.status == Status.UNIQUE and verdict.solutions[0] == result.solution, engine


def multiple_boards() -> list:
    return [p for p in external_files() if "\nstatus: multiple" in p.read_text(encoding="utf-8")]


def test_every_ambiguous_external_board_becomes_unique(external_corpus):
    boards = multiple_boards()
    assert len(boards) >= 16
    for path in boards:
        puzzle = read_puzzle(str(path))
        result = suggest(puzzle, tries=4 if puzzle.size <= 64 else 1)  # the 15x15: ~4 CPU s a try
        assert result.clues, path.name  # the corpus says it is ambiguous: at least one clue is needed
        # CP-SAT confirms too, independently of the CNF model (skipped on the 15x15 with 60-cell open areas)
        check(puzzle, result, ("cnf", "cpsat") if puzzle.size <= 64 else ("cnf",))
        assert result.puzzle.meta("status") == "unique", path.name


def test_trying_other_solutions_finds_fewer_clues():
    # xcsp24-5-0: three solutions differ in four cells; keeping the first one found takes two clues,
    # keeping the one with a 6 at r5c5 takes that single clue
    path = next((p for p in multiple_boards() if p.name == "xcsp24-5-0_5x5.txt"), None)
    if path is None:
        pytest.skip("../shared/corpus-external is not present")
    puzzle = read_puzzle(str(path))
    one, four = suggest(puzzle, tries=1), suggest(puzzle, tries=4)
    assert len(one.clues) == 2 and len(four.clues) == 1
    check(puzzle, four)


def test_no_added_clue_is_redundant():
    # the 4x4 with two clues needs several; dropping any one of them brings a second solution back
    path = next((p for p in multiple_boards() if p.name == "pycsp3models-08_4x4.txt"), None)
    if path is None:
        pytest.skip("../shared/corpus-external is not present")
    puzzle = read_puzzle(str(path))
    result = suggest(puzzle)
    assert len(result.clues) >= 2
    for r, c, _ in result.clues:
        clues = list(result.puzzle.clues)
        clues[r * puzzle.cols + c] = 0
        assert uniqueness(puzzle.with_clues(clues)).status == Status.MULTIPLE, (r, c)


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 4), cols=st.integers(1, 4), data=st.data())
def test_random_small_boards_are_made_unique_by_the_brute_forces_count(rows, cols, data):
    n = rows * cols
    clues = [data.draw(st.sampled_from([0, 0, 0, 1, 2, 3])) if n >= 3 else 0 for _ in range(n)]
    puzzle = Puzzle(rows, cols, tuple(clues))
    result = suggest(puzzle)
    if not bruteforce.pictures(rows, cols, clues):
        assert result.status == "none" and result.clues == []
        return
    assert bruteforce.count_pictures(rows, cols, list(result.puzzle.clues)) == 1
    check(puzzle, result)


def test_a_unique_puzzle_needs_no_clue_and_keeps_its_metadata():
    result = suggest(SEED)
    assert result.clues == [] and result.status == "unique" and result.puzzle == SEED


def test_the_empty_1x3_board_needs_one_clue():
    # solutions 1 2 2, 2 2 1, 3 3 3: one clue at either end settles it
    result = suggest(Puzzle.empty(1, 3))
    assert len(result.clues) == 1
    check(Puzzle.empty(1, 3), result)


def test_a_size_cap_is_respected():
    # 1x3 with regions of at most 2 cells: 1 2 2 or 2 2 1 (3 3 3 is assumed away)
    result = suggest(Puzzle.empty(1, 3), max_size=2)
    assert len(result.clues) == 1 and max(result.solution[0]) == 2
    assert bruteforce.count_pictures(1, 3, list(result.puzzle.clues), max_size=2) == 1


def test_cli_json_lists_the_clues_and_exits_0(capsys):
    code, out, _ = run(capsys, "suggest", "fillomino:1x3:c", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["status"] == "unique" and len(doc["clues"]) == 1
    r, c, v = doc["clues"][0]
    assert r == 0 and doc["solution"][0][c] == v


def test_cli_text_names_the_clues_and_plain_prints_a_puzzle(capsys):
    code, out, _ = run(capsys, "suggest", "fillomino:1x3:c", "--no-color")
    assert code == 0 and "unique with 1 more clue (verified" in out and "r1c" in out
    code, out, _ = run(capsys, "suggest", "fillomino:1x3:c", "--plain")
    assert code == 0 and "1 clue added by fillomino suggest" in out
    assert read_puzzle(out).clues != (0, 0, 0)


def test_cli_no_solution_exits_1(capsys):
    code, out, _ = run(capsys, "suggest", "fillomino:2x2:11b")
    assert code == 1 and "no solution" in out
    code, out, _ = run(capsys, "suggest", "fillomino:2x2:11b", "--json")
    assert code == 1 and json.loads(out)["status"] == "none"


def test_cli_spent_budget_exits_3(capsys, monkeypatch):
    def spent(*args, **kwargs):
        raise BudgetExhausted("spent")

    monkeypatch.setattr(suggest_module, "suggest", spent)
    code, out, _ = run(capsys, "suggest", "fillomino:1x3:c", "--json")
    assert code == 3 and json.loads(out)["status"] == "unknown"


def test_cli_unusable_input_exits_2(capsys):
    code, _, err = run(capsys, "suggest", "fillomino:1x3:c", "--budget", "soon")
    assert code == 2 and "budget" in err
    code, _, err = run(capsys, "suggest", "fillomino:1x3:c", "--tries", "0")
    assert code == 2 and "--tries must be at least 1" in err
