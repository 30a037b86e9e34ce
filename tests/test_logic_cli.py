"""`fillomino rate`, `fillomino hint` and `fillomino solve --logic`: the CLI over fillomino.logic."""

from __future__ import annotations

import json

from fillomino.audit import audit, parse_steps
from fillomino.cli import main
from fillomino.puzzle import Puzzle

SEED_ID = "fillomino:3x3:a2b234b"
SEED = Puzzle.from_grid([[0, 2, 0], [0, 2, 3], [4, 0, 0]])


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rate_one_puzzle_explains_level_why_and_how_to_see_the_steps(capsys):
    code, out, _ = run(capsys, "rate", SEED_ID)
    assert code == 0
    assert out.startswith(f"{SEED_ID}: easy (score ")
    assert "why: the hardest step is" in out and "fillomino solve" in out and "--logic" in out
    assert "techniques:" in out


def test_rate_json_and_many_puzzles_table(capsys, tmp_path):
    code, out, _ = run(capsys, "rate", SEED_ID, "--json")
    data = json.loads(out)
    assert code == 0 and data["level"] == "easy" and data["solved"] and data["counts"]
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("genre: fillomino\ngrid:\n.2.\n.23\n4..\n")
    b.write_text("genre: fillomino\ngrid:\n...\n")
    code, out, _ = run(capsys, "rate", str(a), str(b))
    assert code == 1  # the empty 1x3 has several solutions: unrated
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["puzzle", "shape", "level"]
    assert "easy" in lines[1] and "unrated" in lines[2] and "stuck" in lines[2]
    assert lines[-1] == "levels: easy 1, unrated 1"


def test_rate_steps_file_is_an_audit_log_and_is_never_overwritten_silently(capsys, tmp_path):
    log = tmp_path / "steps.jsonl"
    code, out, _ = run(capsys, "rate", SEED_ID, "--steps", str(log))
    assert code == 0 and "step log written" in out
    assert audit(SEED, parse_steps(log.read_text(), SEED)).end.verdict == "solved and unique"
    code, _, err = run(capsys, "rate", SEED_ID, "--steps", str(log))
    assert code == 2 and "--force" in err and len(err.strip().splitlines()) == 1
    assert run(capsys, "rate", SEED_ID, "--steps", str(log), "--force")[0] == 0
    code, _, err = run(capsys, "rate", SEED_ID, SEED_ID, "--steps", str(log), "--force")
    assert code == 2 and "one PUZZLE" in err


def test_rate_contradiction_and_bad_input(capsys):
    code, out, _ = run(capsys, "rate", "fillomino:1x3:11a")
    assert code == 1 and "unrated" in out and "no solution" in out
    code, _, err = run(capsys, "rate", "no-such-file.txt")
    assert code == 2 and err.startswith("fillomino: error:")


def test_hint_prints_the_next_step_and_renders_its_cells(capsys, tmp_path):
    code, out, _ = run(capsys, "hint", SEED_ID, "--no-color")
    assert code == 0
    assert out.startswith("region_complete (bookkeeping): the 2 at r1c2 is complete")
    assert "cells: r1c1, r1c3, r2c1, r3c2" in out
    svg = tmp_path / "hint.svg"
    assert run(capsys, "hint", SEED_ID, "--render", str(svg))[0] == 0
    assert svg.read_text().count('class="highlight"') == 4
    code, _, err = run(capsys, "hint", SEED_ID, "--render", str(svg))
    assert code == 2 and "--force" in err
    code, _, err = run(capsys, "hint", SEED_ID, "--render", str(tmp_path / "nodir" / "h.svg"))
    assert code == 2 and "does not exist" in err  # the one output rule, checked before the work
    code, _, err = run(capsys, "hint", SEED_ID, "--render", str(tmp_path / "h.gif"))
    assert code == 2 and "must end in .svg or .png" in err


def test_hint_with_marks_and_json(capsys):
    marks = json.dumps([[4, 2, 3], [4, 2, 3], [4, None, 3]])
    code, out, _ = run(capsys, "hint", SEED_ID, "--marks", marks, "--json")
    data = json.loads(out)
    assert code == 0 and data["cells"] == [[2, 1]] and data["steps"]
    solved = json.dumps([[4, 2, 3], [4, 2, 3], [4, 4, 3]])
    code, out, _ = run(capsys, "hint", SEED_ID, "--marks", solved)
    assert code == 1 and out.startswith("no hint")


def test_solve_logic_prints_every_step_and_the_answer(capsys):
    code, out, _ = run(capsys, "solve", SEED_ID, "--logic", "--no-color")
    assert code == 0
    assert out.splitlines()[0].startswith("   1. [bookkeeping] region_complete")
    assert out.rstrip().splitlines()[-1].startswith("solved: level easy")
    code, out, _ = run(capsys, "solve", SEED_ID, "--logic", "--json")
    data = json.loads(out)
    assert data["solved"] and len(data["steps"]) == data["step_count"]
    code, out, _ = run(capsys, "solve", "fillomino:1x3:c", "--logic", "--no-color")
    assert code == 1 and "stuck" in out


def test_rate_json_for_several_puzzles_is_one_object_with_the_envelope(capsys, tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("genre: fillomino\ngrid:\n.2.\n.23\n4..\n")
    b.write_text("genre: fillomino\ngrid:\n...\n")
    code, out, _ = run(capsys, "rate", str(a), str(b), "--json")
    data = json.loads(out)
    assert code == 1 and isinstance(data, dict)  # not a bare list: a batch answers as certify and crosscheck do
    assert data["status"] == "unrated" and data["max_size"] is None and data["seconds"] >= 0
    assert [p["puzzle"] for p in data["puzzles"]] == [str(a), str(b)]
    assert [p["status"] for p in data["puzzles"]] == ["solved", "stuck"]
    assert data["summary"] == {"puzzles": 2, "rated": 1, "unrated": 1, "levels": {"easy": 1, "unrated": 1},
                               "states": {"solved": 1, "stuck": 1}}
    code, out, _ = run(capsys, "rate", str(a), str(a), "--json")
    assert code == 0 and json.loads(out)["status"] == "rated"
