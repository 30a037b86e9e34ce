"""Listing and limited counts under ``auto``: the region search hands over to enumeration when it meets mostly
dead ends before its first solution (counted in parts, so a board always takes the same way)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fillomino.count import STUCK_PARTS, count, iter_solutions
from fillomino.formats import read_puzzle
from fillomino.puzzle import Puzzle
from fillomino.regions import RegionSearch, RegionsStuck

ROOT = Path(__file__).resolve().parents[1]


def without_first_clue(name: str) -> Puzzle:
    full = read_puzzle(str(ROOT / "corpus" / "10x10" / f"{name}.txt"))
    first = full.clue_cells()[0]
    return full.with_clues([0 if i == first else v for i, v in enumerate(full.clues)])


def test_a_listing_lost_in_dead_ends_says_so_at_the_same_point_every_time() -> None:
    board = without_first_clue("10x10-s11")  # 430 solutions; the region search lists none in seconds
    tried = []
    for _ in range(2):
        search = RegionSearch(board)
        with pytest.raises(RegionsStuck):
            next(iter(search.solutions(STUCK_PARTS)))
        tried.append((search.parts_tried, search.parts_unfillable))
    assert tried[0] == tried[1] and tried[0][0] >= STUCK_PARTS and tried[0][1] * 10 > tried[0][0] * 9


def test_a_limited_count_and_a_listing_hand_over_to_enumeration_and_agree_with_it() -> None:
    board = without_first_clue("10x10-s11")
    limited = count(board, limit=10_000)
    assert (limited.status, limited.count, limited.method) == ("exact", 430, "enumerate")
    by_auto = {tuple(map(tuple, g)) for g in iter_solutions(board, method="auto")}
    by_cnf = {tuple(map(tuple, g)) for g in iter_solutions(board, method="enumerate")}
    assert len(by_auto) == 430 and by_auto == by_cnf


def test_a_listing_that_finds_a_solution_early_keeps_the_region_search() -> None:
    board = without_first_clue("10x10-s13")  # 69 solutions, the first after few dead ends
    limited = count(board, limit=10_000)
    assert (limited.status, limited.count, limited.method) == ("exact", 69, "regions")
    assert len(list(iter_solutions(board, method="auto"))) == 69
