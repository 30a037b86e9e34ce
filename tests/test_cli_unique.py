"""`fillomino solve` and `fillomino unique` from the command line: verdicts, evidence, exit codes."""

from __future__ import annotations

import json

from fillomino.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_unique_puzzle_exits_0_with_its_answer(capsys):
    code, out, _ = run(capsys, "unique", "fillomino:3x3:a2b234b", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["status"] == "unique"
    assert doc["solutions"] == [[[4, 2, 3], [4, 2, 3], [4, 4, 3]]]
    assert doc["max_size"] is None and doc["seconds"] >= 0


def test_ambiguous_puzzle_exits_1_with_two_answers_and_where_they_differ(capsys):
    code, out, _ = run(capsys, "unique", "fillomino:3x3:a2b23ab", "--json")
    assert code == 1
    doc = json.loads(out)
    a, b = doc["solutions"]
    assert doc["status"] == "multiple" and a != b
    assert doc["differ"] == [[r, c] for r in range(3) for c in range(3) if a[r][c] != b[r][c]]


def test_contradiction_exits_1_and_names_the_clues(capsys):
    code, out, _ = run(capsys, "unique", "fillomino:2x2:11b")
    assert code == 1
    assert "none" in out and "r1c1" in out and "r1c2" in out


def test_budget_that_runs_out_exits_3(capsys):
    # a microsecond is spent before the first solver call: the verdict must be unknown, not a guess
    code, out, _ = run(capsys, "unique", "fillomino:9x9:z-81zzb", "--budget", "0.000001s", "--json")
    assert json.loads(out)["status"] == "unknown"
    assert code == 3


def test_max_size_is_reported(capsys):
    code, out, _ = run(capsys, "unique", "fillomino:3x3:a2b234b", "--max-size", "4")
    assert code == 0 and "--max-size 4" in out


def test_clue_above_max_size_is_unusable_input(capsys):
    code, _, err = run(capsys, "unique", "fillomino:3x3:a2b234b", "--max-size", "3")
    assert code == 2 and "max-size" in err and len(err.strip().splitlines()) == 1


def test_bad_budget_is_unusable_input(capsys):
    code, _, err = run(capsys, "unique", "fillomino:3x3:a2b234b", "--budget", "soon")
    assert code == 2 and "budget" in err


def test_solve_prints_the_answer_rows(capsys):
    code, out, _ = run(capsys, "solve", "fillomino:3x3:a2b234b", "--plain")
    assert code == 0 and out.split() == ["423", "423", "443"]


def test_solve_without_answer_exits_1(capsys):
    code, out, _ = run(capsys, "solve", "fillomino:2x2:11b", "--json")
    assert code == 1 and json.loads(out)["status"] == "none"


def test_plain_board_has_no_colour_when_not_a_terminal(capsys):
    code, out, _ = run(capsys, "solve", "fillomino:3x3:a2b234b")
    assert code == 0 and "\x1b[" not in out and "┃" in out


def test_stored_solution_is_only_a_starting_point(capsys, tmp_path):
    # CP-SAT starts from a file's stored solution; a wrong one must not change the verdict
    right = tmp_path / "right.txt"
    right.write_text("genre: fillomino\ngrid:\n.2.\n.23\n4..\nsolution:\n423\n423\n443\n")
    code, out, _ = run(capsys, "unique", str(right), "--backend", "cpsat", "--json")
    assert code == 0 and json.loads(out)["solutions"] == [[[4, 2, 3], [4, 2, 3], [4, 4, 3]]]

    wrong = tmp_path / "wrong.txt"  # ambiguous clues, and a stored "solution" that breaks the rules
    wrong.write_text("genre: fillomino\ngrid:\n.2.\n.23\n...\nsolution:\n123\n233\n111\n")
    code, out, _ = run(capsys, "unique", str(wrong), "--backend", "cpsat", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["status"] == "multiple"
    assert [[1, 2, 3], [2, 3, 3], [1, 1, 1]] not in doc["solutions"]
