"""Exact counting: every method must give the brute force's number, and the CLI must say what it counted.

Pictures are solutions; cuts are partitions into connected regions labelled by size (rule 3 dropped).
The brute force (tests/bruteforce.py) shares no code with fillomino.
"""

from __future__ import annotations

import json

import pytest
from bruteforce import carlitz, count_cuts, count_pictures, cuts, pictures
from hypothesis import given, settings
from hypothesis import strategies as st

import fillomino.count as count_module
from fillomino.cli import main
from fillomino.count import CountInterrupted, count, iter_solutions
from fillomino.encode.counting import build
from fillomino.puzzle import FillominoError, Puzzle
from fillomino.transfer import TooManyStates, TransferLimits
from fillomino.transfer import count_cuts as transfer_cuts
from fillomino.transfer import count_pictures as transfer_pictures

SEED = Puzzle(3, 3, (0, 2, 0, 0, 2, 3, 4, 0, 0))  # fillomino:3x3:a2b234b, one solution 423/423/443
SMALL_SHAPES = [(r, c) for r in range(1, 4) for c in range(r, 5) if r * c <= 12]


def flat(grid) -> tuple[int, ...]:
    return tuple(v for row in grid for v in row)


# --- transfer matrix -------------------------------------------------------------------------


@pytest.mark.parametrize("shape", SMALL_SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_transfer_matches_brute_force_on_every_empty_board_up_to_3x4(shape):
    rows, cols = shape
    for board in (Puzzle.empty(rows, cols), Puzzle.empty(cols, rows)):
        assert transfer_pictures(board) == count_pictures(board.rows, board.cols)
        assert transfer_cuts(board) == count_cuts(board.rows, board.cols)
    for k in (1, 2, 4):
        assert transfer_pictures(Puzzle.empty(rows, cols), k) == count_pictures(rows, cols, max_size=k)
        assert transfer_cuts(Puzzle.empty(rows, cols), k) == count_cuts(rows, cols, max_size=k)


@pytest.mark.parametrize("n", range(1, 13))
def test_one_row_pictures_are_carlitz_compositions_and_cuts_are_powers_of_two(n):
    assert count(Puzzle.empty(1, n)).count == carlitz(n)
    assert count(Puzzle.empty(n, 1), method="transfer").count == carlitz(n)
    assert count(Puzzle.empty(1, n), cuts=True).count == 2 ** (n - 1)


@pytest.mark.slow
def test_known_empty_board_counts():
    assert transfer_pictures(Puzzle.empty(4, 4)) == 259728  # what tests/bruteforce.py counts (2.5 s)
    # the seed's ratio: by 4x4 the cuts count each picture 6.51 times over
    assert round(transfer_cuts(Puzzle.empty(4, 4)) / 259728, 2) == 6.51


# OEIS A145835, the compositions of the n x n grid graph (its partitions into connected pieces): the uncapped cuts
# of the empty board, a count no code here shares. a(6) = 2271230282824746 took 574 s and 7.4 GiB compiled (2026-12-05).
GRID_COMPOSITIONS = (1, 12, 1434, 1691690, 19719299768)


@pytest.mark.slow
def test_empty_square_cuts_are_the_published_grid_compositions():
    assert tuple(transfer_cuts(Puzzle.empty(n, n)) for n in range(1, 6)) == GRID_COMPOSITIONS


def clued_boards(max_cells: int):
    """Small boards with a few random clues (clue values up to 6, never above the cell count)."""

    @st.composite
    def board(draw):
        rows = draw(st.integers(1, 3))
        cols = draw(st.integers(1, max(1, min(4, max_cells // rows))))
        n = rows * cols
        clues = draw(st.lists(st.integers(0, min(n, 6)), min_size=n, max_size=n))
        clues = [c if draw(st.booleans()) else 0 for c in clues]
        cap = draw(st.sampled_from([None, None, 3, 5]))
        if cap is not None and any(c > cap for c in clues):
            cap = None
        return Puzzle(rows, cols, tuple(clues)), cap

    return board()


@settings(max_examples=300, deadline=None)
@given(clued_boards(12))
def test_transfer_matches_brute_force_on_random_clued_boards(case):
    board, cap = case
    r, c, clues = board.rows, board.cols, list(board.clues)
    assert transfer_pictures(board, cap) == count_pictures(r, c, clues, cap)
    assert transfer_cuts(board, cap) == count_cuts(r, c, clues, cap)


@pytest.mark.parametrize(
    "clues",
    [
        (0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),  # rows below the first read the same mirrored
        (2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1),  # they do not
        (0, 0, 0, 0, 0, 4, 4, 0, 0, 0, 0, 0),
    ],
)
def test_transfer_folds_mirror_images_only_when_the_rest_is_symmetric(clues):
    board = Puzzle(3, 4, clues)
    assert transfer_pictures(board) == count_pictures(3, 4, list(clues))
    assert transfer_cuts(board) == count_cuts(3, 4, list(clues))


def test_transfer_gives_up_cleanly_past_its_state_limit():
    with pytest.raises(TooManyStates):
        transfer_pictures(Puzzle.empty(4, 4), limits=TransferLimits(max_states=100))


# --- enumeration (the CNF engine) and the static counting CNF ----------------------------------


@settings(max_examples=150, deadline=None)
@given(clued_boards(9))
def test_enumeration_lists_exactly_the_brute_force_pictures_and_cuts(case):
    board, cap = case
    r, c, clues = board.rows, board.cols, list(board.clues)
    assert sorted(flat(g) for g in iter_solutions(board, max_size=cap)) == sorted(pictures(r, c, clues, cap))
    assert sorted(flat(g) for g in iter_solutions(board, cuts=True, max_size=cap)) == sorted(cuts(r, c, clues, cap))


@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (1, 5), (3, 3)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_static_counting_cnf_has_one_model_per_picture_and_per_cut(shape):
    """Enumerating the counting CNF on its projection gives exactly the brute force's sets."""
    rows, cols = shape
    board = Puzzle.empty(rows, cols)
    got = sorted(flat(g) for g in count_module._static_enumeration(board, False, None, None))
    assert got == sorted(pictures(rows, cols, [0] * (rows * cols)))
    got = sorted(flat(g) for g in count_module._static_enumeration(board, True, 3, None))
    assert got == sorted(cuts(rows, cols, [0] * (rows * cols), 3))


def test_static_enumeration_under_a_deadline_lists_everything_or_runs_out_with_no_thread_left():
    """One timer serves the whole listing: a distant deadline changes nothing, a spent one ends it at once, a
    deadline that passes while it lists ends it there, and no timer thread outlives the listing."""
    import threading
    import time

    # timers other tests in this process left running (a model's deadline not yet reached) are not this listing's
    before = {t for t in threading.enumerate() if isinstance(t, threading.Timer)}
    board = Puzzle.empty(3, 3)
    everything = sorted(flat(g) for g in count_module._static_enumeration(board, True, None, None))
    far = time.monotonic() + 3600
    assert sorted(flat(g) for g in count_module._static_enumeration(board, True, None, far)) == everything
    with pytest.raises(count_module.OutOfTime):
        next(count_module._static_enumeration(board, True, None, time.monotonic() - 1))
    listing = count_module._static_enumeration(Puzzle.empty(6, 6), True, None, time.monotonic() + 0.2)
    with pytest.raises(count_module.OutOfTime):
        for _ in listing:
            pass
    assert not [t for t in threading.enumerate() if isinstance(t, threading.Timer) and t not in before]


def test_static_counting_cnf_auxiliaries_are_all_defined():
    """Every model, auxiliaries included, is a different picture: 2x2 has 5 and the CNF exactly 5 models."""
    from pysat.solvers import Solver

    cnf = build(Puzzle.empty(2, 2), style="order")
    models = 0
    with Solver(name="glucose4", bootstrap_with=cnf.clauses) as s:
        while s.solve():
            models += 1
            s.add_clause([-lit for lit in s.get_model()])
    assert models == 5


@pytest.mark.parametrize("style", ["order", "onehot"])
def test_both_picture_encodings_count_like_the_brute_force(style):
    from pysat.solvers import Solver

    board = Puzzle(3, 3, (0, 0, 0, 0, 2, 0, 0, 0, 0))
    cnf = build(board, style=style, max_size=5)
    models = 0
    with Solver(name="glucose4", bootstrap_with=cnf.clauses) as s:
        while s.solve():
            models += 1
            model = s.get_model()
            s.add_clause([-v if model[v - 1] > 0 else v for v in cnf.projection])
    assert models == count_pictures(3, 3, list(board.clues), 5)


def test_count_methods_agree_where_they_all_finish():
    board = Puzzle(3, 4, (0, 0, 3, 0, 0, 0, 0, 0, 2, 0, 0, 0))
    want = count_pictures(3, 4, list(board.clues))
    assert count(board, method="enumerate").count == want
    assert count(board, method="transfer").count == want
    assert count(board).count == want


# --- ganak (a handful of calls: each costs seconds) --------------------------------------------


@pytest.mark.slow
def test_ganak_counts_pictures_and_cuts_like_the_brute_force():
    pytest.importorskip("pyganak")
    assert count(Puzzle.empty(3, 3), method="ganak").count == 445
    assert count(Puzzle.empty(3, 4), cuts=True, method="ganak").count == count_cuts(3, 4) == 27780
    board = Puzzle(3, 4, (0, 0, 3, 0, 0, 0, 0, 0, 2, 0, 0, 0))
    result = count(board, method="ganak", max_size=4)
    assert result.exact and result.method == "ganak"
    assert result.count == count_pictures(3, 4, list(board.clues), 4) == count(board, max_size=4).count


def test_ganak_missing_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(count_module, "ganak_available", lambda: False)
    with pytest.raises(FillominoError, match="pip install"):
        count(SEED, method="ganak")


# --- the library's promises ---------------------------------------------------------------------


def test_seed_puzzle_has_one_solution_and_result_says_exact():
    result = count(SEED)
    assert (result.count, result.exact, result.cuts, result.max_size) == (1, True, False, None)
    want = {"count", "exact", "status", "interrupted", "cuts", "max_size", "method", "seconds", "cache_trims",
            "out_of_memory"}
    assert set(result.to_json()) == want
    assert (result.to_json()["status"], result.to_json()["interrupted"]) == ("exact", False)


def test_limit_stops_and_reports_a_lower_bound():
    result = count(Puzzle.empty(3, 3), limit=10)
    assert (result.count, result.exact) == (10, False)
    assert result.describe().startswith("at least 10 ")
    assert count(SEED, limit=10).exact  # fewer than the limit: the count is exact


def test_exact_python_ints_beyond_float_precision():
    n = count(Puzzle.empty(2, 10)).count
    assert isinstance(n, int) and n == transfer_pictures(Puzzle.empty(10, 2))
    assert count(Puzzle.empty(1, 60), cuts=True).count == 2**59  # well past 2**53


def test_max_size_counts_only_small_regions():
    assert count(Puzzle.empty(3, 3), max_size=2).count == count_pictures(3, 3, max_size=2)
    with pytest.raises(FillominoError, match="larger than the assumed --max-size"):
        count(SEED, max_size=3)


def test_bad_requests_are_errors():
    with pytest.raises(FillominoError):
        count(SEED, limit=0)
    with pytest.raises(FillominoError):
        count(SEED, method="magic")


def test_budget_running_out_gives_a_lower_bound_not_a_guess():
    result = count(Puzzle(4, 5, (0,) * 19 + (1,)), method="enumerate", budget=_Budget(0.3))
    assert not result.exact


def test_ctrl_c_reports_what_was_counted(monkeypatch):
    def interrupted(*args, **kwargs):
        yield ((1,),)
        yield ((1,),)
        raise KeyboardInterrupt

    monkeypatch.setattr(count_module, "iter_solutions", interrupted)
    with pytest.raises(CountInterrupted) as stop:
        count(SEED, method="enumerate")
    assert (stop.value.result.count, stop.value.result.exact) == (2, False)


def test_pysat_ctrl_c_error_becomes_a_keyboard_interrupt():
    def solver_interrupted():
        yield ((1,),)
        raise RuntimeError("Caught keyboard interrupt")  # what pysat raises on SIGINT inside a solve

    with pytest.raises(KeyboardInterrupt):
        list(count_module._interruptible(solver_interrupted()))


class _Budget:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds


# --- the CLI -------------------------------------------------------------------------------------


def test_cli_counts_a_puzzle_and_an_empty_board(capsys):
    assert main(["count", "fillomino:3x3:a2b234b"]) == 0
    assert capsys.readouterr().out.startswith("exactly 1 solution ")
    assert main(["count", "--empty", "3x3", "--cuts", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["count"] == 1434 and out["exact"] and out["cuts"]


def test_cli_limit_and_max_size_say_what_was_assumed(capsys):
    assert main(["count", "--empty", "3x3", "--limit", "7"]) == 0
    assert capsys.readouterr().out.startswith("at least 7 solutions (stopped at --limit)")
    assert main(["count", "--empty", "3x3", "--max-size", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["max_size"] == 2 and out["count"] == count_pictures(3, 3, max_size=2)
    assert main(["count", "--empty", "3x3", "--max-size", "2"]) == 0
    assert "at most 2 cells" in capsys.readouterr().out


def test_cli_list_streams_grids_then_the_count(capsys):
    assert main(["count", "--empty", "1x3", "--list"]) == 0
    out = capsys.readouterr().out
    blocks = out.strip().split("\n\n")
    assert sorted(blocks[:-1]) == ["122", "221", "333"]
    assert blocks[-1].startswith("exactly 3 solutions")


def test_cli_list_json_lines(capsys):
    assert main(["count", "--empty", "1x3", "--list", "--json", "--cuts", "--limit", "2"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 3 and all("regions" in x and "labels" in x for x in lines[:2])
    assert lines[2]["count"] == 2 and lines[2]["exact"] is False


def test_cli_ctrl_c_prints_at_least_and_exits_130(capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        yield ((3, 3, 3),)
        raise KeyboardInterrupt

    monkeypatch.setattr(count_module, "iter_solutions", interrupted)
    assert main(["count", "--empty", "3x3", "--method", "enumerate"]) == 130
    assert capsys.readouterr().out.startswith("at least 1 solution (interrupted)")


@pytest.mark.parametrize(
    "argv",
    [
        ["count"],
        ["count", "fillomino:3x3:a2b234b", "--empty", "3x3"],
        ["count", "--empty", "3by3"],
        ["count", "--empty", "3x3", "--limit", "0"],
        ["count", "fillomino:3x3:a2b234b", "--max-size", "2"],
        ["count", "--empty", "3x3", "--list", "--method", "transfer"],
    ],
)
def test_cli_usage_errors_are_one_line_and_exit_2(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("fillomino: error:") and err.count("\n") == 1
