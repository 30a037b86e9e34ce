"""The frontier sweep (fillomino.frontier) against the brute force and the region search; its wiring into count.

tests/bruteforce.py shares no code with fillomino; the region search shares only the clues' region lists
(their building, not their use) and the pockets' counts with the sweep.
"""

from __future__ import annotations

import random
import time

import pytest
from bruteforce import count_cuts, count_pictures
from hypothesis import given, settings

from fillomino.cli import main
from fillomino.count import count
from fillomino.frontier import FrontierCount, FrontierTimeout, FrontierTooBig, count_frontier
from fillomino.partition import Stream, random_answer
from fillomino.puzzle import Puzzle
from fillomino.regions import count_regions
from tests.test_count_regions import clued_boards


@settings(max_examples=300, deadline=None)
@given(clued_boards(12))
def test_frontier_counts_are_the_brute_force_ones(case):
    board, cap = case
    r, c, clues = board.rows, board.cols, list(board.clues)
    assert count_frontier(board, max_size=cap) == count_pictures(r, c, clues, cap)
    assert count_frontier(board, cuts=True, max_size=cap) == count_cuts(r, c, clues, cap)


@settings(max_examples=300, deadline=None)
@given(clued_boards(12))
def test_frontier_without_cnf_checks_is_the_brute_force_count(case):
    board, cap = case
    want = count_pictures(board.rows, board.cols, list(board.clues), cap)
    assert FrontierCount(board, max_size=cap, sat=False).count() == want


def _picture_board(rows: int, cols: int, keep: float, seed: int) -> Puzzle:
    """A random picture's numbers, each kept with probability ``keep``: a board with at least one solution."""
    rng = random.Random(seed)
    labels = [v for row in random_answer(rows, cols, Stream(f"frontier|{seed}")) for v in row]
    return Puzzle(rows, cols, tuple(v if rng.random() < keep else 0 for v in labels))


@pytest.mark.parametrize("seed", range(40))
def test_frontier_and_region_search_agree_on_clued_boards(seed):
    rng = random.Random(seed)
    rows, cols = rng.choice([(4, 5), (5, 4), (5, 5), (4, 6), (6, 4), (6, 6)])
    board = _picture_board(rows, cols, rng.choice([0.55, 0.65, 0.75]), seed)
    cap = rng.choice([None, None, 6])
    if cap is not None and any(v > cap for v in board.clues):
        cap = None
    assert count_frontier(board, max_size=cap) == count_regions(board, max_size=cap)
    if seed % 4 == 0:
        assert count_frontier(board, cuts=True, max_size=cap) == count_regions(board, cuts=True, max_size=cap)


def test_count_takes_the_frontier_method_by_name():
    board = Puzzle(3, 3, (0, 2, 0, 0, 2, 3, 4, 0, 0))
    result = count(board, method="frontier")
    assert (result.method, result.status) == ("frontier", "exact")
    assert result.count == count_pictures(3, 3, list(board.clues))
    assert count(board, method="frontier", cuts=True).count == count_cuts(3, 3, list(board.clues))
    listed = count(board, method="frontier", limit=1)  # no listing in a sweep: the region search lists
    assert listed.method == "regions" and listed.count == 1


def test_spent_budget_is_unknown_not_a_guess():
    with pytest.raises(FrontierTimeout):
        count_frontier(Puzzle(6, 6, (0,) * 35 + (3,)), deadline=time.monotonic() - 1)

    # the deadline is read on the timer given (a CPU-time budget): an hour ahead of now, but past on this timer
    with pytest.raises(FrontierTimeout):
        FrontierCount(Puzzle(6, 6, (0,) * 35 + (3,)), deadline=time.monotonic() + 3600,
                      timer=lambda: time.monotonic() + 7200).count()

    class Spent:
        seconds = 0.0

    result = count(Puzzle(6, 6, (0,) * 35 + (3,)), method="frontier", budget=Spent())
    assert (result.status, result.exact, result.method) == ("unknown", False, "frontier")


def test_a_big_board_stops_at_its_budget_even_while_building_its_lists():
    from pathlib import Path

    from fillomino.formats import read_puzzle
    from fillomino.solvers import Budget

    stored = read_puzzle(str(Path(__file__).resolve().parents[1] / "corpus" / "30x30" / "30x30-s2.txt"))
    start = time.monotonic()
    result = count(Puzzle(stored.rows, stored.cols, stored.clues), method="frontier", budget=Budget(seconds=1.0))
    assert result.status == "unknown" and result.method == "frontier"
    assert time.monotonic() - start < 15


def test_too_many_states_raises():
    board = _picture_board(5, 5, 0.45, 36)
    assert FrontierCount(board).count() == count_regions(board)
    with pytest.raises(FrontierTooBig):
        FrontierCount(board, max_states=10).count()


def test_cli_counts_by_the_frontier(capsys):
    assert main(["count", "fillomino:3x3:aaaaaaaa3", "--method", "frontier"]) == 0
    assert "[frontier" in capsys.readouterr().out
