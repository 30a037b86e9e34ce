"""Independent brute-force Fillomino counter: lays whole regions, states the no-touching rule out loud.

It shares no code with ``fillomino`` on purpose: it is the third voice every solver and counter
is checked against. Boards are row-major, clues 0 = none. Fast enough for ~4x4 empty boards and
5x5 boards with clues; correctness comes first.

- a *picture* is a labelling in which every maximal connected run of equal numbers has as many
  cells as its number (equivalently: a cut whose touching regions all differ in size);
- a *cut* is a partition into connected regions, each labelled by its size, keeping the clues
  (touching regions of equal size allowed), given as region ids numbered 1.. in row-major order
  of each region's first cell.
"""

from __future__ import annotations

from functools import cache


def _neighbours(rows: int, cols: int) -> list[list[int]]:
    out = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        nb = []
        if r > 0:
            nb.append(i - cols)
        if c > 0:
            nb.append(i - 1)
        if c < cols - 1:
            nb.append(i + 1)
        if r < rows - 1:
            nb.append(i + cols)
        out.append(nb)
    return out


def _connected_sets(root: int, free: list[bool], nbrs: list[list[int]], clues: list[int], cap: int):
    """Every connected set of free cells containing ``root`` (each once) whose clues fit its size.

    Include/exclude branching on the frontier: each connected set is the leaf reached by deciding
    its frontier cells in or out, so it is produced exactly once. Yields (cells, required size or 0).
    """
    cells = [root]
    in_set = {root}
    excluded: set[int] = set()
    required = clues[root]

    def grow(frontier: list[int], required: int):
        limit = min(required, cap) if required else cap
        if not frontier or len(cells) >= limit:
            if not required or len(cells) == required:
                yield list(cells), required
            return
        v, rest = frontier[0], frontier[1:]
        clue = clues[v]
        if not (clue and required and clue != required) and not (clue and clue <= len(cells)):
            # include v
            cells.append(v)
            in_set.add(v)
            added = [u for u in nbrs[v] if free[u] and u not in in_set and u not in excluded and u not in rest]
            yield from grow(rest + added, required or clue)
            cells.pop()
            in_set.discard(v)
        # exclude v
        excluded.add(v)
        yield from grow(rest, required)
        excluded.discard(v)

    start = [u for u in nbrs[root] if free[u]]
    yield from grow(start, required)


def _walk(rows: int, cols: int, clues, max_size: int | None, pictures: bool):
    """Lay regions one at a time on the first unassigned cell; yield (labels, region ids)."""
    n = rows * cols
    clues = list(clues)
    if len(clues) != n:
        raise ValueError(f"{rows}x{cols} board needs {n} clues, got {len(clues)}")
    cap = n if max_size is None else min(n, max_size)
    nbrs = _neighbours(rows, cols)
    labels = [0] * n
    region = [0] * n
    free = [True] * n

    def place(next_id: int):
        try:
            root = free.index(True)
        except ValueError:
            yield tuple(labels), tuple(region)
            return
        for cells, _ in _connected_sets(root, free, nbrs, clues, cap):
            size = len(cells)
            if pictures and any(labels[u] == size for v in cells for u in nbrs[v] if not free[u]):
                continue  # rule 3: touches a finished region of the same size
            for v in cells:
                free[v] = False
                labels[v] = size
                region[v] = next_id
            yield from place(next_id + 1)
            for v in cells:
                free[v] = True
                labels[v] = 0
                region[v] = 0

    yield from place(1)


def pictures(rows: int, cols: int, clues, max_size: int | None = None) -> list[tuple[int, ...]]:
    """Every solution (row-major labels) of the board; regions at most ``max_size`` cells if given."""
    return [labels for labels, _ in _walk(rows, cols, clues, max_size, pictures=True)]


def cuts(rows: int, cols: int, clues, max_size: int | None = None) -> list[tuple[int, ...]]:
    """Every cut as row-major region ids (1.. in order of each region's first cell)."""
    return [region for _, region in _walk(rows, cols, clues, max_size, pictures=False)]


def count_pictures(rows: int, cols: int, clues=None, max_size: int | None = None) -> int:
    clues = clues if clues is not None else [0] * (rows * cols)
    return sum(1 for _ in _walk(rows, cols, clues, max_size, pictures=True))


def count_cuts(rows: int, cols: int, clues=None, max_size: int | None = None) -> int:
    clues = clues if clues is not None else [0] * (rows * cols)
    return sum(1 for _ in _walk(rows, cols, clues, max_size, pictures=False))


def possible_values(rows: int, cols: int, clues, max_size: int | None = None) -> list[set[int]]:
    """For each cell, the labels it takes in some picture (empty sets when there is none)."""
    out: list[set[int]] = [set() for _ in range(rows * cols)]
    for labels, _ in _walk(rows, cols, clues, max_size, pictures=True):
        for i, v in enumerate(labels):
            out[i].add(v)
    return out


def carlitz(n: int) -> int:
    """Compositions of n with no two equal adjacent parts: the pictures of a 1 x n board."""

    @cache
    def ending_with(total: int, last: int) -> int:
        if total == last:
            return 1
        return sum(ending_with(total - last, p) for p in range(1, total - last + 1) if p != last)

    return sum(ending_with(n, p) for p in range(1, n + 1))
