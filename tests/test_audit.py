"""`audit` judges a logical solver's steps exactly: a removal is sound when no solution has the value there,
a placement when every solution has it. Truth here comes from the brute force, not from the engine."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fillomino import audit as audit_module
from fillomino.audit import Step, audit, parse_steps
from fillomino.cli import main
from fillomino.formats import read_puzzle
from fillomino.puzzle import FillominoError, Puzzle, is_solution
from fillomino.solvers import BudgetExhausted
from tests import bruteforce
from tests.conftest import external_files

SEED = Puzzle.from_grid([[0, 2, 0], [0, 2, 3], [4, 0, 0]])  # unique: 4 2 3 / 4 2 3 / 4 4 3
SEED_ID = "fillomino:3x3:a2b234b"
LINE_1X3 = Puzzle.empty(1, 3)  # solutions 1 2 2, 2 2 1, 3 3 3


def remove(r: int, c: int, *values: int, technique: str = "t") -> dict:
    return {"technique": technique, "cell": [r, c], "remove": list(values)}


def place(r: int, c: int, value: int, technique: str = "t") -> dict:
    return {"technique": technique, "cell": [r, c], "place": value}


def log(*steps: dict) -> str:
    return "".join(json.dumps(s) + "\n" for s in steps)


def sound_log(puzzle: Puzzle) -> list[dict]:
    """Every cell: remove each value no solution has there, then place it when only one is left (brute force)."""
    truth = bruteforce.possible_values(puzzle.rows, puzzle.cols, list(puzzle.clues))
    steps = []
    for i, values in enumerate(truth):
        r, c = divmod(i, puzzle.cols)
        gone = [v for v in range(1, puzzle.size + 1) if v not in values]
        if gone and not puzzle.clues[i]:
            steps.append(remove(r, c, *gone, technique="impossible"))
        if len(values) == 1 and not puzzle.clues[i]:
            steps.append(place(r, c, next(iter(values)), technique="single"))
    return steps


def judge(puzzle: Puzzle, steps: list[dict], **kwargs):
    return audit(puzzle, parse_steps(log(*steps), puzzle), **kwargs)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---- the Done-when claims ------------------------------------------------------------------------
def test_a_log_of_sound_steps_passes_and_solves_a_unique_puzzle():
    result = judge(SEED, sound_log(SEED))
    assert result.sound and len(result.judgements) == 10  # 5 open cells: a removal and a placement each
    assert result.end.verdict == "solved and unique" and result.end.matches


def test_a_deliberately_unsound_removal_is_caught_at_that_step():
    # xcsp24-5-0 (5x5, several solutions) when present, else the empty 1x3
    path = next((p for p in external_files() if p.name == "xcsp24-5-0_5x5.txt"), None)
    puzzle = read_puzzle(str(path)) if path else LINE_1X3
    steps = sound_log(puzzle)
    truth = bruteforce.possible_values(puzzle.rows, puzzle.cols, list(puzzle.clues))
    loose = next(i for i, values in enumerate(truth) if len(values) > 1)
    r, c = divmod(loose, puzzle.cols)
    value = max(truth[loose])
    at = min(3, len(steps))  # the 4th step, or the last one of a shorter log
    steps.insert(at, remove(r, c, value, technique="too_big"))  # some solution has `value` there
    result = judge(puzzle, steps)
    assert not result.sound
    bad = result.unsound
    assert len(bad) == 1 and bad[0].index == at + 1 and bad[0].step.line == at + 1
    assert bad[0].values == sorted(truth[loose])
    witness = bad[0].witness
    assert witness is not None and is_solution(puzzle, witness) and witness[r][c] == value
    assert result.tally()["too_big"] == {"steps": 1, "sound": 0, "unsound": 1}
    assert result.tally()["impossible"]["unsound"] == 0


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 3), cols=st.integers(1, 4), data=st.data())
def test_random_steps_are_judged_as_the_brute_force_says(rows, cols, data):
    n = rows * cols
    clues = [data.draw(st.sampled_from([0, 0, 1, 2, 3])) if n >= 3 else 0 for _ in range(n)]
    puzzle = Puzzle(rows, cols, tuple(clues))
    truth = bruteforce.possible_values(rows, cols, clues)
    cell = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    values = st.lists(st.integers(1, n + 1), min_size=1, max_size=3)
    raw = data.draw(st.lists(st.tuples(cell, st.booleans(), values), min_size=1, max_size=6))
    steps = [place(r, c, vs[0]) if is_place else remove(r, c, *vs) for (r, c), is_place, vs in raw]
    result = judge(puzzle, steps)
    for j, ((r, c), is_place, vs) in zip(result.judgements, raw):
        here = truth[r * cols + c]
        expected = here <= {vs[0]} if is_place else not (here & set(vs))
        assert j.sound == expected, (j.step, here)
        if not j.sound:
            assert is_solution(puzzle, j.witness)


# ---- candidate domains ---------------------------------------------------------------------------
def test_base_candidates_make_steps_relative_to_them():
    # with the first cell 1 or 2, 3 3 3 is gone: the middle cell is 2 in every remaining solution
    steps = [remove(0, 1, 3), place(0, 1, 2)]
    assert not judge(LINE_1X3, steps).sound
    result = judge(LINE_1X3, steps, candidates=[[[1, 2], None, None]])
    assert result.sound and result.possible.cells == [[{1, 2}, {2}, {1, 2}]]


def test_a_step_whose_candidate_grid_lost_a_solution_value_is_unsound():
    # before step 2 the rater's grid has dropped 3 from the last cell, which 3 3 3 uses
    steps = [remove(0, 0, 4), {**place(0, 1, 2), "candidates": [[None, None, [1, 2]]]}]
    result = judge(LINE_1X3, steps)
    bad = result.unsound
    assert [j.index for j in bad] == [2]
    assert "lacks 3 at r1c3" in bad[0].reason
    assert bad[0].witness == ((3, 3, 3),)


# ---- end states ----------------------------------------------------------------------------------
def test_an_empty_log_on_a_unique_puzzle_is_stuck_although_unique():
    result = judge(SEED, [])
    assert result.sound and result.end.state == "stuck" and not result.end.matches
    assert result.end.verdict == "stuck although unique (5 cells open)"


def test_a_log_stuck_on_an_ambiguous_puzzle_matches_the_engine():
    result = judge(LINE_1X3, [remove(0, 1, 1)])
    assert result.sound and result.end.engine == "multiple" and result.end.matches


def test_a_contradiction_on_a_puzzle_without_solution_is_sound_and_matches():
    puzzle = Puzzle.from_grid([[1, 1], [0, 0]])
    result = judge(puzzle, [remove(1, 0, 1, 2, 3, 4)])
    assert result.sound and result.end.state == "contradiction" and result.end.engine == "none"
    assert result.end.matches


def test_an_unsound_placement_solving_the_puzzle_wrongly_is_said_so():
    steps = [place(0, 0, 1), place(0, 1, 2), place(0, 2, 2)]
    result = judge(LINE_1X3, steps)
    assert [j.sound for j in result.judgements] == [False, False, False]
    assert result.end.verdict == "solved although the puzzle has several solutions"


# ---- the step format -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "line, message",
    [
        ("{oops", "not JSON"),
        ("[1, 2]", "a step is a JSON object"),
        ('{"cell": [0, 0], "place": 1}', '"technique" must be'),
        ('{"technique": "t", "cell": [0], "place": 1}', '"cell" must be [row, column]'),
        ('{"technique": "t", "cell": [0, true], "place": 1}', '"cell" must be [row, column]'),
        ('{"technique": "t", "cell": [1, 0], "place": 1}', "outside the 1x3 grid"),
        ('{"technique": "t", "cell": [0, 0]}', 'exactly one of "remove"'),
        ('{"technique": "t", "cell": [0, 0], "place": 1, "remove": [2]}', 'exactly one of "remove"'),
        ('{"technique": "t", "cell": [0, 0], "remove": []}', '"remove" must be a non-empty list'),
        ('{"technique": "t", "cell": [0, 0], "remove": [0]}', '"remove" must be a non-empty list'),
        ('{"technique": "t", "cell": [0, 0], "place": "2"}', '"place" must be a positive'),
        ('{"technique": "t", "cell": [0, 0], "place": 1, "why": "x"}', "unknown field(s) why"),
        ('{"technique": "t", "cell": [0, 0], "place": 1, "candidates": [[1]]}', "row 1 must have 3 cells"),
    ],
)
def test_a_malformed_line_is_refused_with_its_number(line, message):
    text = log(place(0, 0, 1)) + "\n" + line + "\n"  # the blank line 2 is skipped, the bad one is line 3
    with pytest.raises(FillominoError, match="STEPS line 3: ") as info:
        parse_steps(text, LINE_1X3)
    assert message in str(info.value)


def test_parsed_steps_keep_their_lines():
    steps = parse_steps("\n" + log(remove(0, 2, 3, 1)) + log(place(0, 1, 2)), LINE_1X3)
    assert steps == [Step(2, "t", (0, 2), [3, 1]), Step(3, "t", (0, 1), None, 2)]


# ---- the command line ----------------------------------------------------------------------------
def test_cli_sound_log_exits_0_with_a_tally(capsys, tmp_path):
    steps = tmp_path / "steps.jsonl"
    steps.write_text(log(*sound_log(SEED)))
    code, out, _ = run(capsys, "audit", SEED_ID, str(steps), "--no-color")
    assert code == 0
    assert out.startswith("sound: 10 steps, 10 sound, 0 unsound")
    assert "impossible" in out and "single" in out
    assert "end state: solved and unique [matches the engine: unique]" in out


def test_cli_unsound_log_exits_1_naming_the_first_step_and_all_with_all(capsys, tmp_path):
    steps = tmp_path / "steps.jsonl"
    steps.write_text(log(remove(0, 0, 1), remove(0, 0, 4, technique="too_big"), place(0, 2, 2)))
    code, out, _ = run(capsys, "audit", SEED_ID, str(steps), "--no-color")
    assert code == 1
    assert out.startswith("UNSOUND: 3 steps, 1 sound, 2 unsound")
    assert "first unsound step 2 (line 2): too_big at r1c1 removes 4: a solution has 4 there" in out
    assert "step 3" not in out
    code, out, _ = run(capsys, "audit", SEED_ID, str(steps), "--all", "--no-color")
    assert code == 1 and "unsound step 2 (line 2)" in out and "unsound step 3 (line 3)" in out
    code, out, _ = run(capsys, "audit", SEED_ID, str(steps), "--all", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["sound"] is False and doc["unsound_steps"] == 2
    assert doc["first_unsound"]["step"] == 2 and doc["first_unsound"]["witness"] == [[4, 2, 3], [4, 2, 3], [4, 4, 3]]
    assert [j["step"] for j in doc["unsound"]] == [2, 3]
    assert doc["techniques"] == {"t": {"steps": 2, "sound": 1, "unsound": 1},
                                 "too_big": {"steps": 1, "sound": 0, "unsound": 1}}
    assert doc["end"]["engine"] == "unique" and doc["end"]["state"] == "stuck"


def test_cli_reads_steps_from_stdin_and_candidates_inline(capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(log(remove(0, 1, 3))))
    code, out, _ = run(capsys, "audit", "fillomino:1x3:c", "-", "--candidates", "[[[1, 2], null, null]]", "--json")
    assert code == 0 and json.loads(out)["sound"] is True


def test_cli_malformed_steps_exit_2_naming_the_line(capsys, tmp_path):
    steps = tmp_path / "steps.jsonl"
    steps.write_text(log(place(0, 0, 4)) + '{"technique": "t", "cell": [5, 5], "place": 1}\n')
    code, out, err = run(capsys, "audit", SEED_ID, str(steps))
    assert code == 2 and out == ""
    assert "STEPS line 2" in err and "outside the 3x3 grid" in err
    code, _, err = run(capsys, "audit", SEED_ID, str(tmp_path / "none.jsonl"))
    assert code == 2 and "no such file" in err
    code, _, err = run(capsys, "audit", "-", "-")
    assert code == 2 and "stdin" in err


def test_cli_spent_budget_exits_3(capsys, monkeypatch, tmp_path):
    def spent(*args, **kwargs):
        raise BudgetExhausted("spent")

    monkeypatch.setattr(audit_module, "audit", spent)
    steps = tmp_path / "steps.jsonl"
    steps.write_text(log(place(0, 0, 4)))
    code, out, _ = run(capsys, "audit", SEED_ID, str(steps))
    assert code == 3 and out.startswith("unknown")
