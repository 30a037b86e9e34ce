"""The region-laying counter against the brute force and the other methods; auto's promises; the CLI's exits.

tests/bruteforce.py shares no code with fillomino: it is the referee for every count and list here.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bruteforce import count_cuts, count_pictures, cuts, pictures
from hypothesis import given, settings
from hypothesis import strategies as st

from fillomino.cli import main
from fillomino.count import auto_method, count, iter_solutions
from fillomino.puzzle import Puzzle
from fillomino.regions import RegionSearch, RegionTimeout, count_regions, iter_regions
from fillomino.transfer import count_cuts as transfer_cuts
from fillomino.transfer import count_pictures as transfer_pictures

ROOT = Path(__file__).resolve().parents[1]


def flat(grid) -> tuple[int, ...]:
    return tuple(v for row in grid for v in row)


@st.composite
def clued_boards(draw, max_cells: int = 16, most: int = 7):
    """Small boards (either orientation) with random clues, some impossible, and sometimes a --max-size."""
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, max(1, min(5, max_cells // rows))))
    n = rows * cols
    density = draw(st.sampled_from([0.0, 0.2, 0.4, 0.7]))
    clues = [draw(st.integers(1, min(n, most))) if draw(st.floats(0, 1)) < density else 0 for _ in range(n)]
    cap = draw(st.sampled_from([None, None, 2, 3, 5]))
    if cap is not None and any(c > cap for c in clues):
        cap = None
    return Puzzle(rows, cols, tuple(clues)), cap


@settings(max_examples=250, deadline=None)
@given(clued_boards(12))
def test_region_counts_and_lists_are_the_brute_force_ones(case):
    board, cap = case
    r, c, clues = board.rows, board.cols, list(board.clues)
    assert count_regions(board, max_size=cap) == count_pictures(r, c, clues, cap)
    assert count_regions(board, cuts=True, max_size=cap) == count_cuts(r, c, clues, cap)
    assert sorted(flat(g) for g in iter_regions(board, max_size=cap)) == sorted(pictures(r, c, clues, cap))
    assert sorted(flat(g) for g in iter_regions(board, cuts=True, max_size=cap)) == sorted(cuts(r, c, clues, cap))


@settings(max_examples=120, deadline=None)
@given(clued_boards(16))
def test_region_search_and_transfer_matrix_agree(case):
    board, cap = case
    assert count_regions(board, max_size=cap) == transfer_pictures(board, cap)
    assert count_regions(board, cuts=True, max_size=cap) == transfer_cuts(board, cap)


@pytest.mark.parametrize("shape", [(1, 7), (7, 1), (2, 5), (5, 2), (3, 4), (4, 3)], ids=str)
def test_region_search_on_empty_boards_and_their_transposes(shape):
    rows, cols = shape
    board = Puzzle.empty(rows, cols)
    assert count_regions(board) == count_pictures(rows, cols)
    assert count_regions(board, cuts=True) == count_cuts(rows, cols)
    assert count_regions(board, max_size=3) == count_pictures(rows, cols, max_size=3)


# a 5x6 board with three 9s, five 8s, a 5 and a 2 (the kind issue 21 found the old counter stuck on);
# tests/bruteforce.py counts 15978 pictures in about 27 s, too slow to run here
NINES_AND_EIGHTS = Puzzle(5, 6, (
    9, 0, 0, 0, 0, 0,
    9, 0, 0, 0, 9, 0,
    2, 0, 0, 5, 0, 0,
    0, 0, 8, 0, 0, 8,
    0, 0, 8, 0, 8, 8,
))


def test_nines_and_eights_board_has_the_brute_force_count():
    assert count_regions(NINES_AND_EIGHTS) == 15978


def test_wide_boards_are_searched_transposed_and_listed_the_right_way_round():
    board = Puzzle(2, 4, (0, 0, 0, 3, 0, 0, 0, 0))
    search = RegionSearch(board)
    assert search.flip
    assert sorted(flat(g) for g in search.solutions()) == sorted(pictures(2, 4, list(board.clues)))


def test_deadline_raises_instead_of_guessing():
    with pytest.raises(RegionTimeout):
        count_regions(Puzzle(5, 5, (0,) * 24 + (2,)), deadline=time.monotonic() - 1)


def test_the_deadline_is_read_on_the_timer_given():
    # a CPU-time budget (benchmarks/count_profile.py): the deadline is on the timer's scale, not time.monotonic's
    reads = []

    def timer() -> float:
        reads.append(1)
        return float(len(reads))

    search = RegionSearch(Puzzle(5, 5, (0,) * 24 + (2,)), deadline=50.0, timer=timer)
    with pytest.raises(RegionTimeout):
        search.count()
    assert len(reads) == 51
    assert count_regions(Puzzle(2, 2, (0,) * 4), deadline=time.monotonic() + 60) == 5


def test_a_big_board_stops_at_its_budget_not_a_thousand_calls_later():
    # On a 30x30 one call can cost most of a second (a CNF check): the clock was read every 1024 calls.
    from fillomino.formats import read_puzzle
    from fillomino.solvers import Budget

    stored = read_puzzle(str(ROOT / "corpus" / "30x30" / "30x30-s2.txt"))
    puzzle = Puzzle(stored.rows, stored.cols, stored.clues)
    start = time.monotonic()
    result = count(puzzle, budget=Budget(seconds=1.0))
    assert result.status in ("unknown", "lower_bound") and not result.exact
    assert time.monotonic() - start < 15  # was over 30 s


def test_count_refuses_a_conflict_budget_it_could_not_keep(capsys):
    assert main(["count", "fillomino:3x3:aaaaaaaa3", "--budget", "1000c"]) == 2
    assert "counts time, not conflicts" in capsys.readouterr().err


def test_auto_chooses_by_the_board_alone():
    assert auto_method(Puzzle.empty(4, 4)) == "transfer"
    assert auto_method(Puzzle.empty(7, 7)) == "regions"
    assert auto_method(Puzzle(3, 3, (0, 2, 0, 0, 2, 3, 4, 0, 0))) == "regions"
    assert auto_method(Puzzle.empty(4, 4), limit=10) == "regions"
    first = count(NINES_AND_EIGHTS)
    assert first.method == "regions" and first.status == "exact"
    assert count(NINES_AND_EIGHTS).count == first.count


def test_region_method_lists_up_to_a_limit():
    result = count(Puzzle.empty(3, 3), limit=10, method="regions")
    assert (result.count, result.exact, result.status) == (10, False, "lower_bound")
    listed = list(iter_solutions(Puzzle.empty(2, 3), method="regions"))
    assert sorted(flat(g) for g in listed) == sorted(pictures(2, 3, [0] * 6))


def test_spent_budget_is_unknown_and_exits_3(capsys):
    class Spent:
        seconds = 0.0

    result = count(Puzzle(6, 6, (0,) * 35 + (3,)), budget=Spent())
    assert (result.exact, result.status, result.count) == (False, "unknown", 0)
    assert result.describe().startswith("unknown number of solutions")
    assert main(["count", "fillomino:6x6:" + "a" * 35 + "3", "--budget", "0.001s", "--json"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert (out["status"], out["exact"], out["interrupted"]) == ("unknown", False, False)


def test_cli_names_the_method_and_lists_with_the_region_search(capsys):
    assert main(["count", "fillomino:3x3:a2b234b", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["count"], out["method"], out["status"]) == (1, "regions", "exact")
    assert main(["count", "--empty", "2x2", "--list", "--method", "regions"]) == 0
    blocks = capsys.readouterr().out.strip().split("\n\n")
    assert len(blocks) == 6 and blocks[-1].startswith("exactly 5 solutions")


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to find the child")
def test_ganak_child_dies_when_count_is_killed_with_sigkill():
    pytest.importorskip("pyganak")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    parent = subprocess.Popen([sys.executable, "-m", "fillomino", "count", "--empty", "4x4", "--method", "ganak"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kids: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while not kids and time.monotonic() < deadline and parent.poll() is None:
            time.sleep(0.1)
            kids = _children(parent.pid)
        assert kids, "the ganak child never started"
        time.sleep(0.5)  # let the child arm its parent-death signal
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 5
        while any(_alive(k) for k in kids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(k) for k in kids)
    finally:
        if parent.poll() is None:
            parent.kill()
        for k in kids:
            if _alive(k):
                os.kill(k, signal.SIGKILL)


def test_progress_bar_only_on_a_terminal(capsys, monkeypatch):
    board = Puzzle(3, 4, (0, 0, 3, 0, 0, 0, 0, 0, 2, 0, 0, 0))
    assert count(board, bar=True).count == count_pictures(3, 4, list(board.clues))
    assert capsys.readouterr().err == ""  # stderr is not a terminal under pytest
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert count(board, bar=True).count == count_pictures(3, 4, list(board.clues))
    assert "counting" in capsys.readouterr().err
    assert count(board).count  # the library shows no bar unless asked
    assert capsys.readouterr().err == ""


def test_auto_hands_a_dead_end_search_to_the_cnf_engine():
    # no solution: every part the search counts is dead (the 2s' regions touch; (2, 0, 2) is cut before any part
    # is counted, its two 2s needing four cells)
    board = Puzzle(1, 4, (2, 0, 0, 2))
    result = count(board, stuck_after=1)
    assert (result.count, result.exact, result.method) == (0, True, "enumerate")
    assert count(board, method="regions", stuck_after=1).method == "regions"  # asked for by name: no hand-over
    alive = Puzzle(3, 4, (0, 0, 3, 0, 0, 0, 0, 0, 2, 0, 0, 0))
    assert count(alive, stuck_after=1).method == "regions"  # live parts: the search keeps going


# --- the pruning: bit-set clue lists, the cover rule and the CNF refutation of dead parts -------------------


@settings(max_examples=150, deadline=None)
@given(clued_boards(12, most=5))
def test_pruned_search_with_the_cnf_check_on_every_part_is_the_brute_force(case):
    board, cap = case
    r, c, clues = board.rows, board.cols, list(board.clues)
    for sat_cells in (1, None):  # the CNF check on every picture part, and never
        assert RegionSearch(board, max_size=cap, sat_cells=sat_cells).count() == count_pictures(r, c, clues, cap)
        assert RegionSearch(board, cuts=True, max_size=cap, sat_cells=sat_cells).count() == \
            count_cuts(r, c, clues, cap)


@st.composite
def dense_boards(draw):
    """5x4 to 5x5 boards with many small clues: dead branches everywhere, the pruning's own ground."""
    rows, cols = 5, draw(st.integers(4, 5))
    clues = tuple(draw(st.integers(1, 5)) if draw(st.floats(0, 1)) < 0.45 else 0 for _ in range(rows * cols))
    cap = draw(st.sampled_from([None, None, 5]))
    return Puzzle(rows, cols, clues), cap


@settings(max_examples=40, deadline=None)
@given(dense_boards())
def test_pruned_search_agrees_with_the_transfer_matrix_on_bigger_dense_boards(case):
    board, cap = case
    assert RegionSearch(board, max_size=cap, sat_cells=1).count() == transfer_pictures(board, cap)
    assert RegionSearch(board, cuts=True, max_size=cap).count() == transfer_cuts(board, cap)


@settings(max_examples=30, deadline=None)
@given(dense_boards())
def test_cnf_checks_while_another_part_is_pending_keep_the_count_exact(case):
    board, cap = case
    expected = transfer_pictures(board, cap)
    for pending in (True, False):
        assert RegionSearch(board, max_size=cap, sat_cells=1, sat_pending=pending).count() == expected


def test_a_refutation_made_while_a_part_is_pending_taints_the_totals_above_it_not_the_count():
    # the CNF engine may blame a part for a dead pending one: the totals above go up uncached, and stay exact
    board = Puzzle(4, 5, (0, 0, 5, 0, 3, 0, 0, 0, 0, 3, 0, 0, 2, 0, 0, 0, 0, 0, 0, 3))
    search = RegionSearch(board, sat_cells=1)
    assert search.count() == count_pictures(4, 5, list(board.clues)) == 318
    assert search.sat_refuted_pending > 0 and search.parts_tainted > 0
    assert RegionSearch(board, sat_cells=1, sat_pending=False).count() == 318


@settings(max_examples=60, deadline=None)
@given(dense_boards())
def test_small_parts_shown_fillable_first_keep_the_count_exact(case):
    # sat_cells 4: parts under 4 cells are shown fillable before their siblings are counted, bigger ones checked
    board, cap = case
    expected = transfer_pictures(board, cap)
    for sat_cells in (4, 8):
        assert RegionSearch(board, max_size=cap, sat_cells=sat_cells).count() == expected


@settings(max_examples=100, deadline=None)
@given(clued_boards(12, most=5))
def test_small_parts_shown_fillable_first_are_the_brute_force_on_small_boards(case):
    board, cap = case
    r, c, clues = board.rows, board.cols, list(board.clues)
    assert RegionSearch(board, max_size=cap, sat_cells=3).count() == count_pictures(r, c, clues, cap)


def test_a_small_part_shown_fillable_is_not_pending_so_its_siblings_refutations_are_cached():
    # the board of the taint test: with the small parts shown fillable first, fewer refutations are blamed
    # on a pending part, and a dead small part ends the product before its siblings are counted
    board = Puzzle(4, 5, (0, 0, 5, 0, 3, 0, 0, 0, 0, 3, 0, 0, 2, 0, 0, 0, 0, 0, 0, 3))
    old = RegionSearch(board, sat_cells=1)
    new = RegionSearch(board, sat_cells=4)
    assert old.count() == new.count() == 318
    assert new.alive and new.sat_refuted_pending < old.sat_refuted_pending
    dead = Puzzle(3, 5, (2, 0, 0, 0, 0, 1, 1, 0, 0, 0, 2, 0, 0, 0, 0))  # (1, 0) and (2, 0): two touching 1s
    assert RegionSearch(dead, sat_cells=4).count() == count_pictures(3, 5, list(dead.clues)) == 0


def test_a_cell_no_region_can_cover_ends_the_count():
    # the middle cell can be no 1 (two 1s beside it) and joins neither 1: no picture; a cut may make it a 1
    board = Puzzle(1, 3, (1, 0, 1))
    assert count_regions(board) == count_pictures(1, 3, [1, 0, 1]) == 0
    assert count_regions(board, cuts=True) == count_cuts(1, 3, [1, 0, 1]) == 1


def test_the_cnf_check_ends_a_real_puzzles_dead_branches(external_corpus):
    from fillomino.formats import parse_puzzle

    path = next((p for p in external_corpus if p.name == "janko-007.txt"), None)
    if path is None:
        pytest.skip("janko-007 is not in the external corpus")
    puzzle = parse_puzzle(path.read_text())
    search = RegionSearch(puzzle, deadline=time.monotonic() + 60)
    assert search.count() == 1
    assert search.sat_calls > 0


# --- clue-free pockets read from a table of their pictures' border sizes -----------------------------------


@st.composite
def sparse_boards(draw):
    """Boards of up to 4x4 with few clues (big clue-free pockets, the tables' ground), sometimes a --max-size."""
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    density = draw(st.sampled_from([0.0, 0.1, 0.2]))
    clues = tuple(draw(st.integers(1, min(6, rows * cols))) if draw(st.floats(0, 1)) < density else 0
                  for _ in range(rows * cols))
    cap = draw(st.sampled_from([None, None, 3, 6]))
    if cap is not None and any(c > cap for c in clues):
        cap = None
    return Puzzle(rows, cols, clues), cap


@settings(max_examples=60, deadline=None)
@given(sparse_boards())
def test_pockets_read_from_tables_agree_with_the_search_and_the_transfer_matrix(case):
    # pocket_rows 3 abandons most tables half-built, so both the table and the search fallback are crossed
    board, cap = case
    expected = RegionSearch(board, max_size=cap, pocket_cells=0).count()
    assert expected == transfer_pictures(board, cap)
    for cells, rows in ((6, 2_000), (16, 2_000), (16, 3)):
        assert RegionSearch(board, max_size=cap, pocket_cells=cells, pocket_rows=rows).count() == expected


@settings(max_examples=100, deadline=None)
@given(clued_boards(12, most=5))
def test_pockets_read_from_tables_are_the_brute_force_on_small_boards(case):
    board, cap = case
    r, c, clues = board.rows, board.cols, list(board.clues)
    for cells in (4, 12):
        assert RegionSearch(board, max_size=cap, pocket_cells=cells).count() == count_pictures(r, c, clues, cap)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 3), st.integers(2, 3), st.integers(0, 2**16), st.lists(st.tuples(st.integers(1, 9),
       st.integers(0, 2**16)), max_size=4), st.sampled_from([None, 2, 4]))
def test_a_pocket_table_answers_every_border_condition_like_a_search_of_it(rows, cols, pick, marks, cap):
    # a clue-free pocket with any sizes its border cells may not take (the marks a laid region leaves)
    from fillomino.grid import bit_components, bit_spread

    board = Puzzle(rows + 1, cols + 1, (0,) * ((rows + 1) * (cols + 1)))
    searched = RegionSearch(board, max_size=cap, pocket_cells=0)
    tabled = RegionSearch(board, max_size=cap, pocket_rows=10**9)
    full = (1 << searched.n) - 1
    mask = bit_components(pick & full, searched.rows, searched.cols)[0] if pick & full else 1
    border = mask & bit_spread(full & ~mask, searched.rows, searched.cols)
    merged: dict[int, int] = {}
    for k, cells in marks:
        if cells & border:
            merged[k] = merged.get(k, 0) | (cells & border)
    part = (mask, tuple(sorted(merged.items())))
    assert tabled._pocket(part) == searched._count(part, None, 0, 0)
    assert tabled._alive(part, None) == (searched._count(part, None, 0, 0) > 0)


def test_parts_whose_clues_need_more_cells_than_they_have_are_dead_before_any_search():
    search = RegionSearch(Puzzle(1, 3, (2, 0, 2)))  # two 2s two steps apart: two regions, four cells
    assert search.count() == 0 and search.parts_counted == 0
    near = RegionSearch(Puzzle(1, 4, (3, 0, 3, 0)))  # two 3s two steps apart may share a region
    assert not near._short(0b1111, 4)
    assert near.count() == count_pictures(1, 4, [3, 0, 3, 0]) == 1
    far = RegionSearch(Puzzle(1, 5, (3, 0, 0, 3, 0)), cuts=True)  # three steps apart: six cells needed
    assert far._short(0b11111, 5) and far.count() == count_cuts(1, 5, [3, 0, 0, 3, 0]) == 0
    mixed = RegionSearch(Puzzle(2, 3, (3, 0, 0, 0, 0, 4)))  # a 3 and a 4 in six cells: seven needed
    assert mixed._short(0b111111, 6) and mixed.count() == 0


def test_a_part_is_short_when_its_clues_of_one_size_outnumber_a_region_or_are_apart_around_other_clues():
    crowd = RegionSearch(Puzzle(2, 2, (3, 3, 3, 3)), cuts=True)  # four 3s: two regions of three, six cells
    assert crowd._short(0b1111, 4) and crowd.count() == count_cuts(2, 2, [3, 3, 3, 3]) == 0
    # the two 3s are two steps apart only through the 1, which no region of three holds: four steps around it
    around = RegionSearch(Puzzle(2, 3, (3, 1, 3, 0, 0, 0)), cuts=True)
    assert around._short(0b111111, 6)
    assert around.count() == count_cuts(2, 3, [3, 1, 3, 0, 0, 0]) == 0
    three = RegionSearch(Puzzle(2, 3, (3, 0, 3, 0, 0, 0)), cuts=True)  # an unclued cell between: one region
    assert not three._short(0b111111, 6)
    assert three.count() == count_cuts(2, 3, [3, 0, 3, 0, 0, 0])


@settings(max_examples=60, deadline=None)
@given(dense_boards(), st.booleans())
def test_every_cached_part_has_the_count_of_a_search_of_that_part_alone(case, cut):
    # the parts below get the lists as propagated above them: none of their counts may depend on a clue outside
    board, cap = case
    search = RegionSearch(board, cuts=cut, max_size=cap, sat_cells=None)
    search.count()
    for part, got in list(search.cache.items())[:60]:
        alone = RegionSearch(board, cuts=cut, max_size=cap, sat_cells=None)
        assert alone._count(part, None, 0, 0) == got, part
