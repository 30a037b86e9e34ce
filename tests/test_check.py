"""check_answer and ``fillomino check``: each rule named with its number and cells, exit 0 / 1 / 2."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fillomino.check import Violation, check_answer
from fillomino.cli import main
from fillomino.formats import read_answer, read_puzzle
from fillomino.puzzle import UNMARKED, FillominoError, Puzzle, is_solution

SEED = read_puzzle("fillomino:3x3:a2b234b")  # . 2 . / . 2 3 / 4 . .
SOLVED = ((4, 2, 3), (4, 2, 3), (4, 4, 3))


def test_the_seed_solution_has_no_violations():
    assert check_answer(SEED, SOLVED) == []


def test_r1_names_the_number_and_the_cells_of_a_wrong_sized_group():
    # right column 3 3 4: the 3-group has 2 cells, the 4-group joins (2,2) to the 4s and has 5 cells
    answer = ((4, 2, 3), (4, 2, 3), (4, 4, 4))
    found = check_answer(SEED, answer)
    assert Violation("R1", 3, [(0, 2), (1, 2)]) in found
    assert Violation("R1", 4, [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]) in found
    assert {v.rule for v in found} == {"R1"}


def test_r2_reports_empty_cells_and_unmarked_cells_without_a_clue():
    answer = ((4, 2, 3), (4, 2, 3), (4, 0, UNMARKED))
    r2 = [v for v in check_answer(SEED, answer) if v.rule == "R2"]
    assert [v.cells for v in r2] == [[(2, 1)], [(2, 2)]]
    assert all(v.number is None for v in r2)


def test_unmarked_printed_cells_count_as_their_clue():
    answer = ((4, UNMARKED, 3), (4, UNMARKED, UNMARKED), (UNMARKED, 4, 3))
    assert check_answer(SEED, answer) == []


def test_r3_names_the_clue_and_its_cell():
    answer = ((4, 2, 3), (4, 2, 3), (1, 4, 3))  # the printed 4 at row 3, column 1 became 1
    r3 = [v for v in check_answer(SEED, answer) if v.rule == "R3"]
    assert r3 == [Violation("R3", 1, [(2, 0)], 4)]
    assert r3[0].to_json() == {"rule": "R3", "number": 1, "cells": [[2, 0]], "clue": 4}


def test_to_json_of_r1_has_rule_number_and_cells():
    assert Violation("R1", 3, [(0, 2), (1, 2)]).to_json() == {"rule": "R1", "number": 3, "cells": [[0, 2], [1, 2]]}


def test_describe_is_one_based():
    assert "r1c3, r2c3" in Violation("R1", 3, [(0, 2), (1, 2)]).describe()


def test_answer_of_another_shape_is_refused():
    with pytest.raises(FillominoError, match="3x3"):
        check_answer(SEED, ((1, 1), (1, 1)))


@st.composite
def boards(draw):
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    values = draw(st.lists(st.integers(-1, 4), min_size=rows * cols, max_size=rows * cols))
    clues = [v if draw(st.booleans()) and v > 0 else 0 for v in values]
    clues = [min(c, rows * cols) for c in clues]
    answer = tuple(tuple(values[i : i + cols]) for i in range(0, rows * cols, cols))
    return Puzzle(rows, cols, tuple(clues)), answer


@settings(max_examples=300, deadline=None)
@given(boards())
def test_no_violation_exactly_when_the_model_calls_it_a_solution(board):
    puzzle, answer = board
    finished = [
        [(puzzle.clue(r, c) if v == UNMARKED else v) for c, v in enumerate(row)] for r, row in enumerate(answer)
    ]
    assert (check_answer(puzzle, answer) == []) == is_solution(puzzle, finished)


# ---------------------------------------------------------------- the CLI


def test_cli_valid_answer_exits_0(capsys):
    assert main(["check", "fillomino:3x3:a2b234b", "423/423/443"]) == 0
    assert "valid" in capsys.readouterr().out


def test_cli_wrong_answer_exits_1_and_names_the_rule(capsys):
    assert main(["check", "fillomino:3x3:a2b234b", "423/423/444"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("invalid")
    assert "R1" in out


def test_cli_json_uses_zero_based_cells(capsys):
    assert main(["check", "fillomino:3x3:a2b234b", "423/423/143", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] is False
    assert {"rule": "R3", "number": 1, "cells": [[2, 0]], "clue": 4} in data["violations"]


def test_cli_checks_the_stored_solution_when_no_answer_is_given(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("genre: fillomino\ngrid:\n.2.\n.23\n4..\nsolution:\n423\n423\n443\n")
    assert main(["check", str(path)]) == 0
    assert main(["check", "fillomino:3x3:a2b234b"]) == 2
    assert "no solution" in capsys.readouterr().err


def test_cli_answer_from_a_file_with_a_solution_block(tmp_path):
    path = tmp_path / "answer.txt"
    path.write_text("solution:\n423\n423\n443\n")
    assert read_answer(str(path), SEED) == SOLVED
    assert main(["check", "fillomino:3x3:a2b234b", str(path)]) == 0


def test_cli_convert_round_trips_the_seed_example(capsys):
    assert main(["convert", "fillomino:3x3:a2b234b", "--to", "text"]) == 0
    text = capsys.readouterr().out
    assert text == "genre: fillomino\ngrid:\n.2.\n.23\n4..\n"
    assert main(["convert", text, "--to", "id"]) == 0
    assert capsys.readouterr().out == "fillomino:3x3:a2b234b\n"
    assert main(["convert", "fillomino:3x3:a2b234b", "--to", "url", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["output"] == "https://puzz.link/p?fillomino/3/3/g2h234h"


@pytest.mark.parametrize("command", ["convert", "check"])
def test_help_has_an_example(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "fillomino:3x3:a2b234b" in capsys.readouterr().out
