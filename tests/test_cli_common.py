"""The options every command shares behave alike: budget syntax, --threads said when ignored, --plain notes,
stdin read as a file is, URLs refused with trailing junk (issue 23)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fillomino.cli import main
from fillomino.puzzle import FillominoError
from fillomino.solvers import Budget

PUZZLE = "fillomino:3x3:a2b234b"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "text, seconds, conflicts",
    [("5", 5.0, None), ("5s", 5.0, None), ("2.5", 2.5, None), ("5m", 300.0, None), ("1h", 3600.0, None),
     (" 10S ", 10.0, None), ("100000c", None, 100000), (None, None, None)],
)
def test_budget_syntax(text, seconds, conflicts):
    assert Budget.parse(text) == Budget(seconds, conflicts)


@pytest.mark.parametrize(
    "text",
    ["", "inf", "infs", "nan", "-1s", "0", "0s", "-5", "5x", "c", "1.5c", "-3c", "99999999999999999999999999s",
     "1e400", "99999999999999999999999c"],
)
def test_budget_refuses_what_no_clock_can_hold(text):
    with pytest.raises(FillominoError, match="budget"):
        Budget.parse(text)


@pytest.mark.parametrize("command", ["unique", "solve", "count", "ambiguity", "rate"])
@pytest.mark.parametrize("budget", ["inf", "-1s", "", "99999999999999999999999999s"])
def test_every_command_refuses_a_bad_budget_with_one_line(capsys, command, budget):
    code, out, err = run(capsys, command, PUZZLE, "--budget", budget)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "budget" in err and "Traceback" not in err


def test_minutes_budget_is_accepted(capsys):
    code, out, _ = run(capsys, "unique", PUZZLE, "--budget", "5m", "--json")
    assert code == 0 and json.loads(out)["status"] == "unique"


def test_threads_with_cnf_is_said_to_be_ignored(capsys):
    code, _, err = run(capsys, "unique", PUZZLE, "--threads", "4")
    assert code == 0 and "--threads 4 is ignored by the cnf backend" in err
    code, _, err = run(capsys, "unique", PUZZLE, "--threads", "2", "--backend", "cpsat")
    assert code == 0 and "ignored" not in err
    code, _, err = run(capsys, "render", "fillomino:3x3:a2b23ab", "--diff", "--threads", "2", "--json")
    assert code == 0 and "--threads 2 is ignored by the cnf backend" in err
    assert run(capsys, "render", "fillomino:3x3:a2b23ab", "--diff", "--threads", "0")[0] == 2


def test_solve_plain_prints_digit_rows_only_and_the_note_on_stderr(capsys):
    code, out, err = run(capsys, "solve", PUZZLE, "--plain", "--max-size", "9")
    assert code == 0
    assert out.split() == ["423", "423", "443"]
    assert "--max-size 9" in err


def test_solve_json_names_seconds_and_backend(capsys):
    code, out, _ = run(capsys, "solve", PUZZLE, "--json", "--backend", "cpsat")
    doc = json.loads(out)
    assert code == 0 and doc["backend"] == "cpsat" and doc["seconds"] >= 0 and doc["status"] == "solved"


def test_url_with_trailing_junk_is_refused_like_an_id(capsys):
    code, _, err = run(capsys, "unique", "https://puzz.link/p?fillomino/3/3/g2h234h999999")
    assert code == 2 and "already filled" in err
    code, _, err = run(capsys, "unique", "fillomino:3x3:a2b234b99")
    assert code == 2 and "already filled" in err
    assert run(capsys, "unique", "https://puzz.link/p?fillomino/3/3/g2h234h")[0] == 0


def test_binary_stdin_gets_the_files_message(tmp_path):
    data = b"ab\x80\x08*zz"
    path = tmp_path / "binary.bin"
    path.write_bytes(data)
    cmd = [sys.executable, "-m", "fillomino", "unique"]
    root = Path(__file__).resolve().parent.parent  # this checkout's fillomino, not an installed one
    by_file = subprocess.run([*cmd, str(path)], capture_output=True, timeout=60, cwd=root)
    by_stdin = subprocess.run([*cmd, "-"], input=data, capture_output=True, timeout=60, cwd=root)
    assert by_file.returncode == by_stdin.returncode == 2
    assert by_file.stderr.decode().replace(str(path), "<stdin>") == by_stdin.stderr.decode()
    assert b"not a UTF-8 text file (byte 2)" in by_stdin.stderr


@pytest.mark.parametrize("newline", [b"\r\n", b"\r"])
def test_stdin_and_a_file_read_windows_and_old_mac_line_endings_alike(tmp_path, newline):
    data = b"\xef\xbb\xbf" + newline.join([b"3 . .", b". . .", b"1 . 3"]) + newline  # with a byte-order mark
    path = tmp_path / "puzzle.txt"
    path.write_bytes(data)
    cmd = [sys.executable, "-m", "fillomino", "convert", "--to", "id"]
    root = Path(__file__).resolve().parent.parent
    by_file = subprocess.run([*cmd, str(path)], capture_output=True, timeout=60, cwd=root)
    by_stdin = subprocess.run([*cmd, "-"], input=data, capture_output=True, timeout=60, cwd=root)
    assert by_file.returncode == by_stdin.returncode == 0, by_file.stderr + by_stdin.stderr
    assert by_file.stdout == by_stdin.stdout == subprocess.run(
        [*cmd, "-"], input=data.replace(newline, b"\n")[3:], capture_output=True, timeout=60, cwd=root).stdout


@pytest.mark.parametrize(
    "argv",
    [
        ["render", PUZZLE, "-o", "{missing}/x.svg"],
        ["rate", PUZZLE, "--steps", "{missing}/steps.txt"],
        ["generate", "--size", "3x3", "--seed", "1", "--out", "{missing}/batch"],
        ["certify", "{puzzle}", "--workers", "1", "--junit", "{missing}/x.xml"],
        ["certify", "{puzzle}", "--workers", "1", "--html", "{missing}/x.html"],
        ["certify", "{puzzle}", "--workers", "1", "--results", "{missing}/x.jsonl"],
    ],
)
def test_an_output_in_a_missing_folder_is_refused_the_same_way_before_any_work(tmp_path, capsys, argv):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("2.\n..\n")
    missing = tmp_path / "nodir"
    argv = [a.format(missing=missing, puzzle=puzzle) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert f"the folder {str(missing)!r} does not exist" in err and err.count("\n") == 1
    assert not missing.exists()


def test_rate_steps_refuses_an_existing_file_before_rating(tmp_path, capsys):
    steps = tmp_path / "steps.txt"
    steps.write_text("mine\n")
    code, out, err = run(capsys, "rate", PUZZLE, "--steps", str(steps))
    assert code == 2 and out == "" and "--force" in err
    assert steps.read_text() == "mine\n"


def _documented_shapes() -> dict[str, tuple[set[str] | None, list[list[str]]]]:
    """docs/usage/cli.md's JSON table: command -> (allowed statuses or None for open, fields (alternatives))."""
    import re
    from pathlib import Path

    text = (Path(__file__).parent.parent / "docs" / "usage" / "cli.md").read_text(encoding="utf-8")
    shapes = {}
    for line in text.split("## JSON", 1)[1].split("\n## ", 1)[0].splitlines():  # the JSON section only
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        command = cells[0].strip("`")
        statuses = None if ("..." in cells[1] or "the " in cells[1]) else set(re.findall(r"`(\w+)`", cells[1]))
        fields = []
        for part in re.split(r",\s*(?![^()]*\))", cells[2]):
            names = re.findall(r"`([a-z_]+)`", part.split("(")[0])
            if names:
                fields.append(names)
        shapes[command] = (statuses, fields)
    return shapes


def _json_calls(tmp_path) -> dict[str, list[str]]:
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("genre: fillomino\ngrid:\n.2.\n.23\n4..\n")
    answer = tmp_path / "answer.txt"
    answer.write_text("423\n423\n443\n")
    steps = tmp_path / "steps.jsonl"
    assert main(["rate", PUZZLE, "--steps", str(steps)]) == 0
    ambiguous = "fillomino:3x3:a2b23ab"
    return {
        "convert": ["convert", PUZZLE],
        "check": ["check", PUZZLE, str(answer)],
        "solve": ["solve", PUZZLE],
        "solve --logic": ["solve", PUZZLE, "--logic"],
        "unique": ["unique", PUZZLE],
        "crosscheck": ["crosscheck", str(puzzle), "--workers", "1"],
        "count": ["count", ambiguous],
        "ambiguity": ["ambiguity", ambiguous],
        "suggest": ["suggest", ambiguous],
        "audit": ["audit", PUZZLE, str(steps)],
        "generate": ["generate", "--size", "3x3", "--seed", "1"],
        "certify": ["certify", str(puzzle), "--workers", "1"],
        "render": ["render", PUZZLE],
        "rate": ["rate", PUZZLE],
        "rate P Q": ["rate", PUZZLE, str(puzzle)],
        "hint": ["hint", PUZZLE],
    }


def test_every_command_json_has_the_envelope_and_its_documented_fields(tmp_path, capsys):
    shapes = _documented_shapes()
    calls = _json_calls(tmp_path)
    capsys.readouterr()
    assert set(shapes) == set(calls), "docs/usage/cli.md and this test name the same commands"
    for name, argv in calls.items():
        code, out, err = run(capsys, *argv, "--json")
        assert code in (0, 1), (name, err)
        doc = json.loads(out)
        assert isinstance(doc, dict), name
        statuses, fields = shapes[name]
        assert {"status", "seconds", "max_size"} <= set(doc), (name, sorted(doc))
        assert isinstance(doc["seconds"], (int, float)) and doc["seconds"] >= 0, name
        if statuses is not None:
            assert doc["status"] in statuses, (name, doc["status"])
        for alternatives in fields:
            assert any(f in doc for f in alternatives), (name, alternatives, sorted(doc))


def test_wording_says_each_thing_once_and_in_clean_english(tmp_path, capsys):
    huge = "genre: fillomino\ngrid:\n" + ("." * 201 + "\n") * 3
    for text in (huge, json.dumps({"grid": ["." * 201] * 3})):
        code, _, err = run(capsys, "unique", text)
        assert code == 2 and "grid 3x201 is too large" in err and "grid grid" not in err and "grid: grid" not in err
    code, _, err = run(capsys, "check", PUZZLE, str(tmp_path / "nofile.txt"))
    assert code == 2 and "(an answer is a file" in err
    code, _, err = run(capsys, "--bogus")
    assert code == 2 and err.startswith("fillomino: error: unrecognized arguments: --bogus")
    code, _, err = run(capsys, "unique", PUZZLE, "--backend", "x")
    assert code == 2 and err.startswith("fillomino: error: unique: argument --backend")


def test_counts_of_one_are_singular(tmp_path, capsys):
    steps = tmp_path / "steps.jsonl"
    assert main(["rate", PUZZLE, "--steps", str(steps)]) == 0
    steps.write_text(steps.read_text().splitlines()[0] + "\n")
    capsys.readouterr()
    code, out, _ = run(capsys, "audit", PUZZLE, str(steps))
    assert code == 0 and out.startswith("sound: 1 step, 1 sound")
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("genre: fillomino\ngrid:\n.2.\n.23\n4..\n")
    code, out, _ = run(capsys, "crosscheck", str(puzzle), "--workers", "1")
    assert code == 0 and "\n1 puzzle: 1 agree" in out


def test_check_names_cells_r1c1_in_text_and_0_based_in_json(tmp_path, capsys):
    answer = tmp_path / "answer.txt"
    answer.write_text("423\n423\n433\n")
    code, out, _ = run(capsys, "check", PUZZLE, str(answer))
    assert code == 1 and "r1c1, r2c1, r3c1" in out and "(1,1)" not in out
    code, out, _ = run(capsys, "check", PUZZLE, str(answer), "--json")
    assert code == 1 and json.loads(out)["violations"][0]["cells"] == [[0, 0], [1, 0], [2, 0]]


@pytest.mark.parametrize(
    "argv",
    [["count", "fillomino:3x3:a2b23ab"], ["rate", PUZZLE], ["ambiguity", "fillomino:3x3:a2b23ab"],
     ["generate", "--size", "3x3", "--seed", "1"]],
)
def test_every_command_with_a_progress_bar_takes_quiet(capsys, argv):
    code, out, err = run(capsys, *argv, "--quiet", "--json")
    assert code == 0 and json.loads(out)["status"] and err == ""


def test_suggest_says_its_clues_are_irreducible_not_proved_fewest(capsys):
    code, out, _ = run(capsys, "suggest", "fillomino:3x3:i", "--no-color")
    assert code == 0 and out.startswith("unique with ") and " more clues " in out.splitlines()[0]
    assert "the search is greedy" in out.splitlines()[1]
    n = int(out.split()[2])
    assert f"proved only to lie between 1 and {n}" in out.splitlines()[1]
    code, out, _ = run(capsys, "suggest", "fillomino:3x3:i", "--json")
    assert code == 0 and json.loads(out)["proved_fewest"] is False
    code, out, _ = run(capsys, "suggest", "fillomino:3x3:a2b23ab", "--json")
    assert code == 0 and len(json.loads(out)["clues"]) == 1 and json.loads(out)["proved_fewest"] is True


@pytest.fixture(scope="module")
def hard_puzzle(tmp_path_factory) -> Path:
    """A 30x30 without its solution block: no engine settles it within 100 conflicts."""
    source = Path(__file__).resolve().parent.parent / "corpus" / "30x30" / "30x30-s2.txt"
    if not source.exists():
        pytest.skip("corpus puzzle not present")
    path = tmp_path_factory.mktemp("hard") / "hard.txt"
    path.write_text(source.read_text().split("solution:")[0])
    return path


SPENT = {  # documented name -> the call after PUZZLE, and a budget no engine settles the 30x30 in
    "unique": ([], "100c"), "solve": ([], "100c"), "ambiguity": ([], "100c"), "suggest": ([], "100c"),
    "render": (["--diff"], "100c"), "certify": (["--workers", "1"], "100c"),
    "crosscheck": (["--workers", "1"], "0.5s"),  # CP-SAT's conflict count leaves out its presolve
    "rate": ([], "0.05"), "solve --logic": (["--logic"], "0.05"),
}


@pytest.mark.parametrize("name", sorted(SPENT))
def test_a_spent_budget_exits_3_with_the_documented_json(capsys, hard_puzzle, name):
    extra, budget = SPENT[name]
    statuses, fields = _documented_shapes()[name]
    code, out, err = run(capsys, name.split()[0], str(hard_puzzle), *extra, "--budget", budget, "--json")
    assert code == 3, err
    doc = json.loads(out)
    assert doc["status"] in ("unknown", "undecided", "budget") and "Traceback" not in err
    assert statuses is None or doc["status"] in statuses
    assert {"status", "seconds", "max_size"} <= set(doc)
    assert [f for f in fields if not any(x in doc for x in f)] == [], "the documented fields, null when unknown"


@pytest.mark.parametrize("argv", [["render", "--solution"], ["render", "--ambiguity"]])
def test_render_spent_budget_exits_3(capsys, hard_puzzle, argv):
    code, out, _ = run(capsys, argv[0], str(hard_puzzle), *argv[1:], "--budget", "100c", "--json")
    assert code == 3 and json.loads(out)["status"] == "unknown"


def test_render_says_the_size_cap_it_assumed(capsys, tmp_path):
    code, out, err = run(capsys, "render", "fillomino:3x3:a2b23ab", "--ambiguity", "--max-size", "4", "--no-color")
    assert code == 0 and "(assuming no region is larger than 4 cells: --max-size 4)" in err
