"""Pins the brute-force counter (tests/bruteforce.py) that every other test trusts.

Its claims are checked against hand counts, closed forms and a second brute force written
here cell by cell, which has never heard of rule 3 (it labels every cell and flood-fills).
"""

from __future__ import annotations

import itertools
import random

import pytest
from bruteforce import carlitz, count_cuts, count_pictures, cuts, pictures, possible_values


def _groups(values, rows, cols):
    """Maximal connected runs of equal values, by flood fill."""
    seen = set()
    for start in range(rows * cols):
        if start in seen:
            continue
        seen.add(start)
        stack, group = [start], []
        while stack:
            i = stack.pop()
            group.append(i)
            r, c = divmod(i, cols)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                j = rr * cols + cc
                if 0 <= rr < rows and 0 <= cc < cols and j not in seen and values[j] == values[i]:
                    seen.add(j)
                    stack.append(j)
        yield group


def labelled_pictures(rows, cols, clues):
    """Label every cell 1..N, keep the labellings whose every run has its own size."""
    n = rows * cols
    out = []
    for values in itertools.product(range(1, n + 1), repeat=n):
        if any(c and v != c for v, c in zip(values, clues, strict=True)):
            continue
        if all(len(g) == values[g[0]] for g in _groups(values, rows, cols)):
            out.append(values)
    return sorted(out)


def _find(parent, x):
    while parent[x] != x:
        x = parent[x]
    return x


def edge_cuts(rows, cols, clues):
    """Partitions into connected regions, from every subset of kept edges (each partition once)."""
    n = rows * cols
    edges = [(i, i + 1) for i in range(n) if (i + 1) % cols] + [(i, i + cols) for i in range(n - cols)]
    found = set()
    for keep in itertools.product((False, True), repeat=len(edges)):
        parent = list(range(n))
        for (a, b), k in zip(edges, keep, strict=True):
            if k:
                parent[_find(parent, a)] = _find(parent, b)
        roots = [_find(parent, i) for i in range(n)]
        ids: dict[int, int] = {}
        region = tuple(ids.setdefault(r, len(ids) + 1) for r in roots)
        sizes = [region.count(region[i]) for i in range(n)]
        if all(not c or c == s for c, s in zip(clues, sizes, strict=True)):
            found.add(region)
    return sorted(found)


def test_tiny_boards_by_hand():
    assert count_pictures(1, 1) == 1  # "1"
    assert count_pictures(1, 2) == 1  # "22" (11 would be one run of two 1s)
    assert count_pictures(1, 3) == 3  # 333, 122, 221
    assert count_cuts(1, 3) == 4  # adds 1|1|1
    assert sorted(pictures(1, 3, [0, 0, 0])) == [(1, 2, 2), (2, 2, 1), (3, 3, 3)]


def test_seed_puzzle_has_exactly_its_printed_solution():
    # fillomino:3x3:a2b234b  =  . 2 . / . 2 3 / 4 . .
    assert pictures(3, 3, [0, 2, 0, 0, 2, 3, 4, 0, 0]) == [(4, 2, 3, 4, 2, 3, 4, 4, 3)]


@pytest.mark.parametrize("n", range(1, 11))
def test_one_row_pictures_are_carlitz_compositions(n):
    assert count_pictures(1, n) == carlitz(n)
    assert count_pictures(n, 1) == carlitz(n)


@pytest.mark.parametrize("n", range(1, 11))
def test_one_row_cuts_are_all_subsets_of_gaps(n):
    assert count_cuts(1, n) == 2 ** (n - 1)


def test_known_empty_board_counts():
    # 3x3 cuts: 1434 connected partitions of the 3x3 grid (OEIS A145835).
    assert count_cuts(3, 3) == 1434
    assert count_pictures(3, 3) == 445
    assert count_pictures(2, 2) == 5


@pytest.mark.parametrize("shape", [(1, 4), (2, 2), (2, 3), (3, 2), (1, 6), (1, 5)])
def test_agrees_with_cell_by_cell_labelling_on_empty_boards(shape):
    rows, cols = shape
    clues = [0] * (rows * cols)
    assert sorted(pictures(rows, cols, clues)) == labelled_pictures(rows, cols, clues)
    assert sorted(cuts(rows, cols, clues)) == edge_cuts(rows, cols, clues)


def test_agrees_with_cell_by_cell_labelling_on_random_clued_boards():
    rng = random.Random(5)
    for _ in range(40):
        rows, cols = rng.choice([(2, 2), (2, 3), (3, 2), (1, 5), (1, 6)])
        n = rows * cols
        clues = [rng.choice([0, 0, 0, 1, 2, 3, 4]) if rng.random() < 0.5 else 0 for _ in range(n)]
        clues = [c if c <= n else 0 for c in clues]
        assert sorted(pictures(rows, cols, clues)) == labelled_pictures(rows, cols, clues), (rows, cols, clues)
        assert sorted(cuts(rows, cols, clues)) == edge_cuts(rows, cols, clues), (rows, cols, clues)


def test_every_picture_is_a_cut_and_labels_read_back_the_regions():
    for rows, cols in [(2, 3), (3, 3)]:
        clues = [0] * (rows * cols)
        pics = pictures(rows, cols, clues)
        assert len(set(pics)) == len(pics)
        assert len(set(cuts(rows, cols, clues))) == count_cuts(rows, cols)
        assert len(pics) < count_cuts(rows, cols)


def test_max_size_drops_bigger_regions():
    assert count_pictures(1, 4, max_size=2) == 1  # only 1 22 1: 22 22 and 11 are single runs
    assert sorted(pictures(1, 4, [0] * 4, max_size=2)) == [(1, 2, 2, 1)]
    assert count_cuts(1, 4, max_size=1) == 1
    assert count_pictures(1, 3, [3, 0, 0], max_size=2) == 0  # a clue above the cap cannot be met
    assert count_cuts(1, 3, [0, 0, 3], max_size=2) == 0


def test_possible_values_is_the_union_over_pictures():
    assert possible_values(1, 3, [0, 0, 0]) == [{1, 2, 3}, {2, 3}, {1, 2, 3}]
    assert possible_values(1, 2, [1, 0]) == [set(), set()]
