"""The memory guard: the region search trims its caches past a limit and still counts exactly.

The referee is tests/bruteforce.py (no code shared with fillomino); the guards below say "over" far more
often than a real one would, so that trims land in the middle of every kind of work (a part counted, a
pocket's table built, a listing walked).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from bruteforce import count_cuts, count_pictures, cuts, pictures
from hypothesis import given, settings
from hypothesis import strategies as st
from test_count_regions import clued_boards, dense_boards, flat

from fillomino.cli import main
from fillomino.count import count, iter_solutions
from fillomino.frontier import FrontierCount
from fillomino.memory import (
    SPACING,
    MemoryGuard,
    OutOfMemory,
    child_resident_bytes,
    default_limit,
    machine_bytes,
    parse_size,
    resident_bytes,
)
from fillomino.puzzle import FillominoError, Puzzle
from fillomino.regions import RegionSearch
from fillomino.transfer import count_pictures as transfer_pictures


class Pressed(MemoryGuard):
    """A guard asked at every step that says "over" once in ``period`` askings, and never stops the count."""

    def __init__(self, period: int = 1) -> None:
        super().__init__(1, every=1)
        self.period = period
        self.asked = 0

    def over(self) -> bool:
        self.asked += 1
        return self.asked % self.period == 0

    def exhausted(self) -> bool:
        return False


@settings(max_examples=100, deadline=None)
@given(clued_boards(12), st.sampled_from([1, 3, 17]))
def test_counts_and_lists_under_constant_trimming_are_the_brute_force_ones(case, period):
    board, cap = case
    r, c, clues = board.rows, board.cols, list(board.clues)
    for is_cuts, want in ((False, count_pictures(r, c, clues, cap)), (True, count_cuts(r, c, clues, cap))):
        search = RegionSearch(board, cuts=is_cuts, max_size=cap, memory=Pressed(period))
        assert search.count() == want
    # CNF checks on every part of 4 cells or more: a trim closes the model between them, the next builds it again
    search = RegionSearch(board, max_size=cap, memory=Pressed(period), sat_cells=4)
    assert search.count() == count_pictures(r, c, clues, cap)
    listed = RegionSearch(board, max_size=cap, memory=Pressed(period)).solutions()
    assert sorted(flat(g) for g in listed) == sorted(pictures(r, c, clues, cap))
    listed = RegionSearch(board, cuts=True, max_size=cap, memory=Pressed(period)).solutions()
    assert sorted(flat(g) for g in listed) == sorted(cuts(r, c, clues, cap))


@settings(max_examples=25, deadline=None)
@given(dense_boards(), st.sampled_from([2, 50]))
def test_trimming_keeps_bigger_counts_exact_and_trims_as_often_as_asked(case, period):
    board, cap = case
    guard = Pressed(period)
    search = RegionSearch(board, max_size=cap, memory=guard)
    assert search.count() == transfer_pictures(board, max_size=cap)
    assert search.trims == guard.trims == guard.asked // period


BOARD = Puzzle(5, 6, (8, 0, 5, 5, 5, 0, 8, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 8, 1, 7, 7, 0, 2))
"""16689 pictures, about 5,000 steps of the search."""

SMALL = Puzzle(5, 6, (0, 8, 0, 8, 7, 7, 0, 0, 8, 0, 7, 0, 3, 0, 8, 0, 0, 0, 0, 0, 0, 0, 4, 0, 7, 0, 0, 0, 4, 4))
"""448 pictures, about 3,000 steps."""


def test_a_trim_empties_half_of_every_cache_and_the_count_goes_on():
    board = BOARD
    plain = RegionSearch(board)
    want = plain.count()
    assert len(plain.cache) > 10
    guard = Pressed(200)
    pressed = RegionSearch(board, memory=guard)
    assert pressed.count() == want == 16689
    assert pressed.trims > 0
    assert len(pressed.cache) < len(plain.cache)


def test_the_frontier_sweep_counts_the_same_with_its_searches_trimmed():
    board = Puzzle(4, 5, (3, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 4, 0, 1, 0, 0, 0))
    want = count_pictures(4, 5, list(board.clues), None)
    guard = Pressed(5)
    assert FrontierCount(board, memory=guard).count() == want
    assert guard.trims > 0


class Full(Pressed):
    """A guard that says the count has taken far too much at once."""

    def exhausted(self) -> bool:
        return True


def test_count_reports_its_trims_and_stays_exact():
    board = SMALL
    free = count(board, method="regions", memory=None)
    tight = count(board, method="regions", memory=Pressed(50))
    assert tight.count == free.count == 448 and tight.exact and not tight.out_of_memory
    assert free.trims == 0 and tight.trims > 0
    assert tight.to_json()["cache_trims"] == tight.trims
    listed = list(iter_solutions(board, method="regions", memory=Pressed(50)))
    assert len(listed) == free.count


@pytest.mark.parametrize("method", ["regions", "frontier", "transfer", "auto"])
def test_a_count_past_its_memory_stops_unknown(method):
    board = Puzzle.empty(3, 4) if method in ("transfer", "auto") else SMALL
    result = count(board, method=method, memory=Full())
    assert (result.status, result.exact, result.out_of_memory) == ("unknown", False, True)
    assert result.method == ("transfer" if method == "auto" else method)
    assert result.to_json()["out_of_memory"] is True


@pytest.mark.parametrize("cuts", [False, True])
def test_an_enumeration_past_its_memory_stops_after_its_first_solution(cuts):
    result = count(SMALL, method="enumerate", cuts=cuts, memory=Full())
    assert (result.count, result.status, result.out_of_memory, result.method) == (1, "lower_bound", True, "enumerate")
    with pytest.raises(OutOfMemory):
        list(iter_solutions(SMALL, method="enumerate", cuts=cuts, memory=Full()))
    assert len(list(iter_solutions(SMALL, method="enumerate", memory=MemoryGuard(1 << 40)))) == 448


@pytest.mark.slow
def test_the_ganak_child_is_killed_at_the_limit_and_counts_under_it():
    pytest.importorskip("pyganak")
    if child_resident_bytes(os.getpid()) is None:
        pytest.skip("this platform does not tell another process's memory")
    result = count(Puzzle.empty(3, 4), method="ganak", memory=MemoryGuard(1))  # the bare interpreter is past it
    assert (result.status, result.exact, result.out_of_memory, result.method) == ("unknown", False, True, "ganak")
    roomy = count(Puzzle.empty(3, 3), method="ganak", memory=MemoryGuard(1 << 40))
    assert (roomy.count, roomy.exact, roomy.out_of_memory) == (445, True, False)


def test_a_real_guard_counts_what_was_taken_since_it_was_made():
    if resident_bytes() is None:
        pytest.skip("this platform does not tell a process's memory")
    guard = MemoryGuard(16 << 20)
    assert not guard.over() and not guard.exhausted()
    taken = b"\x01" * (64 << 20)  # written, so its pages are resident (zeroed ones may not be)
    assert guard.over() and guard.exhausted()
    guard.trimmed()
    assert not any(guard.over() for _ in range(SPACING - 1))  # the caches refill the room a trim freed first
    assert guard.over()
    assert not MemoryGuard(1 << 40).over()
    del taken


def test_the_default_limit_is_half_the_machine():
    total = machine_bytes()
    if total is None:
        pytest.skip("this platform does not tell its memory")
    assert default_limit() == total // 2 or abs(default_limit() - total / 2) < 1


@pytest.mark.parametrize(("text", "size"), [("8G", 8 << 30), ("512M", 512 << 20), ("1.5g", 3 << 29), ("2048", 2048),
                                            ("64KiB", 64 << 10), ("none", None), ("OFF", None), ("1 GB", 1 << 30)])
def test_sizes_parse(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "12q", "-1G", "0", "G", "1.2.3M"])
def test_bad_sizes_are_refused(text):
    with pytest.raises(FillominoError):
        parse_size(text)


def test_cli_memory_option(capsys, monkeypatch):
    assert main(["count", "fillomino:3x3:a2b234b", "--memory", "12q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--memory" in err
    import fillomino.memory

    monkeypatch.setattr(fillomino.memory, "make_guard", lambda memory: Pressed(50))
    assert main(["count", "--empty", "3x4", "--method", "regions", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["count"] == 6426 and out["status"] == "exact" and out["cache_trims"] > 0
    assert main(["count", "--empty", "3x4", "--method", "regions"]) == 0
    assert "caches trimmed" in capsys.readouterr().out


@pytest.mark.parametrize("extra", [["--method", "regions"], ["--list"], ["--method", "transfer"]])
def test_cli_out_of_memory_exits_3_and_says_why(extra):
    if resident_bytes() is None:
        pytest.skip("this platform does not tell a process's memory")
    proc = subprocess.run([sys.executable, "-m", "fillomino", "count", "--empty", "4x4", "--memory", "1", *extra],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 3, proc.stderr
    assert "memory limit reached" in proc.stdout and not proc.stderr.strip()
