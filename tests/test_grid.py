"""The grid module against plain definitions: components, reach and cut cells on random cell sets."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fillomino.grid import (
    boundary,
    component,
    component_sizes,
    components,
    connected,
    cut_cells,
    distances,
    group_of,
    groups,
    neighbours,
)


def _flood(start: int, cells: set[int], nbrs) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        c = todo.pop()
        for m in nbrs[c]:
            if m in cells and m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


boards = st.tuples(st.integers(1, 6), st.integers(1, 6)).flatmap(
    lambda rc: st.tuples(st.just(rc[0]), st.just(rc[1]),
                         st.lists(st.booleans(), min_size=rc[0] * rc[1], max_size=rc[0] * rc[1])))


def test_neighbours_of_a_corner_and_the_middle():
    nb = neighbours(3, 3)
    assert nb[0] == [1, 3] and nb[4] == [1, 3, 5, 7] and nb[8] == [5, 7]


@settings(max_examples=300, deadline=None)
@given(boards)
def test_components_partition_the_set_and_match_a_flood(board):
    rows, cols, member = board
    nbrs = neighbours(rows, cols)
    cells = {i for i, m in enumerate(member) if m}
    comps = components(member, nbrs)
    assert sorted(c for comp in comps for c in comp) == sorted(cells)
    sizes = component_sizes(member, nbrs)
    for comp in comps:
        assert set(comp) == _flood(comp[0], cells, nbrs)
        assert all(sizes[c] == len(comp) for c in comp)
        assert connected(comp, nbrs)
    assert components(cells, nbrs) == comps


@settings(max_examples=300, deadline=None)
@given(boards)
def test_cut_cells_are_exactly_the_cells_whose_removal_splits_their_piece(board):
    rows, cols, member = board
    nbrs = neighbours(rows, cols)
    cells = {i for i, m in enumerate(member) if m}
    want = set()
    for c in cells:
        piece = _flood(c, cells, nbrs) - {c}
        if piece and len(_flood(next(iter(piece)), piece, nbrs)) < len(piece):
            want.add(c)
    assert cut_cells(cells, nbrs) == want


@settings(max_examples=200, deadline=None)
@given(boards, st.integers(0, 35), st.integers(0, 8))
def test_distances_are_shortest_paths_through_the_set(board, start, within):
    rows, cols, member = board
    nbrs = neighbours(rows, cols)
    start %= rows * cols
    cells = {i for i, m in enumerate(member) if m}
    dist = distances(start, nbrs, through=cells)
    assert set(dist) == _flood(start, cells | {start}, nbrs)
    for c, d in dist.items():
        assert d == 0 if c == start else any(dist.get(m) == d - 1 for m in nbrs[c])
    bounded = distances(start, nbrs, through=member, within=within)
    assert bounded == {c: d for c, d in dist.items() if d <= within}
    limited = component(start, cells, nbrs, limit=3)
    assert len(limited) == min(3, len(dist)) and limited[0] == start
    for through in (member, cells):  # both loops: a bool list and a set
        for limit in (1, 3, 6):
            cut = distances(start, nbrs, through=through, within=within, limit=limit)
            assert len(cut) == min(limit, len(bounded))
            assert all(bounded[c] == d for c, d in cut.items())
            assert sorted(cut.values()) == sorted(bounded.values())[:len(cut)]  # breadth-first: the nearest first


def test_groups_and_boundary():
    values = [1, 2, 2, 3, 3, 3]
    gs = list(groups(values, 2, 3))
    assert sorted(map(sorted, gs)) == [[0], [1, 2], [3, 4, 5]]
    assert group_of(4, values, neighbours(2, 3)) == [4, 3, 5]
    assert sorted(boundary([1, 2], neighbours(2, 3))) == [0, 4, 5]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6), st.integers(1, 7), st.data())
def test_bit_mask_searches_match_the_list_searches(rows, cols, data):
    from fillomino.grid import bit_ball, bit_component, bit_components, bit_neighbours, bit_spread

    n = rows * cols
    cells = data.draw(st.sets(st.integers(0, n - 1)))
    nbrs = neighbours(rows, cols)
    mask = sum(1 << c for c in cells)
    assert bit_neighbours(rows, cols) == tuple(sum(1 << m for m in nb) for nb in nbrs)
    spread = set(cells) | set(boundary(cells, nbrs))
    assert bit_spread(mask, rows, cols) == sum(1 << c for c in spread)
    want = [sum(1 << c for c in comp) for comp in components(sorted(cells), nbrs)]
    assert bit_components(mask, rows, cols) == want
    if cells:
        start = min(cells)
        assert bit_component(1 << start, mask, rows, cols) == sum(1 << c for c in component(start, cells, nbrs))
        steps = data.draw(st.integers(0, 4))
        near = distances(start, nbrs, within=steps, through=cells)
        assert bit_ball(1 << start, mask, steps, rows, cols) == sum(1 << c for c in near)


def test_set_bits_lists_the_set_bits_lowest_first():
    from fillomino.grid import set_bits

    assert list(set_bits(0)) == []
    assert list(set_bits(0b101001)) == [0, 3, 5]
    assert list(set_bits(1 << 400 | 2)) == [1, 400]


def test_bit_mask_is_set_bits_the_other_way_round():
    from fillomino.grid import bit_mask, set_bits

    assert bit_mask([]) == 0
    assert bit_mask([5, 0, 3, 5]) == 0b101001
    assert list(set_bits(bit_mask([400, 1]))) == [1, 400]


def test_grow_carries_on_from_a_group_to_its_room_and_lists_what_it_read():
    from fillomino.grid import grow, neighbour_table

    values = [2, 2, 0,
              5, 1, 0,
              0, 5, 0]
    nbrs = neighbour_table(3, 3)
    found, seen, reads = [0], {0}, []
    assert not grow(found, seen, nbrs, lambda x: values[x] == 2, reads=reads)
    assert found == [0, 1] and seen == {0, 1} and set(reads) == {1, 2, 3, 4}
    # then its room through the zeros, stopping once it holds four cells
    assert grow(found, seen, nbrs, lambda x: values[x] == 0, limit=4, reads=reads)
    assert found[:2] == [0, 1] and len(found) == 4 and set(found[2:]) <= {2, 5, 8}
    assert not grow([4], {4}, nbrs, lambda x: values[x] == 9, limit=2)
    assert grow([4], {4}, nbrs, lambda x: False, limit=1)  # already holds the limit
