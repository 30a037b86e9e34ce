"""CP-SAT model of exact Fillomino: size labels, equal-label edges, and a single-commodity flow per region.

Independent of the CNF encoding on purpose, so each checks the other. Per cell ``i``: a label ``x[i]``;
per edge: ``same[e]`` <=> equal labels (so regions are exactly the maximal equal-label groups); per
region one root, its smallest-index cell (``rid[i]`` = the root's index, ``rid[i] <= i``), which emits
``label - 1`` units of Gavish-Graves flow along ``same`` edges while every other cell absorbs one unit,
so every group has as many cells as its label. Each picture has exactly one labelling; callers
enumerate and block on labels only (flows are free auxiliaries). Redundant clauses (small shapes,
clue regions, label counts) only speed up the search: each holds in every picture.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..grid import component_sizes, distances, neighbours
from ..puzzle import Puzzle

SMALL_LABELS = 12
"""Labels up to this (or the largest clue) get a literal each; larger ones share one "large" literal
and stay integer, which keeps big boards with wide-open areas small without losing any picture."""
SHAPE_CELLS = 6
"""Connected sets up to this many cells get eager clauses: joined => label >= size, walled off => = size.
Enough to settle long thin boards; only sets whose cells can share a label count, which keeps the clause
count down on clued boards."""


@dataclass
class LabelModel:
    """A built CP-SAT model and the handles callers need: labels, value literals, clue assumptions."""

    model: Any
    puzzle: Puzzle
    labels: list[Any]
    value_literals: list[dict[int, Any]]
    domains: list[list[int]]
    clue_literals: dict[int, Any] = field(default_factory=dict)
    """cell -> literal "this cell shows its clue", present only when clues are assumptions."""
    fix_hints: bool = False
    """Whether a solve must keep the hinted labels (checking a candidate picture)."""


def label_domains(puzzle: Puzzle, max_size: int | None, clue_cells: Sequence[int] | None = None) -> list[list[int]]:
    """Labels each cell can take in some picture, pruned by two necessary conditions on its v-region.

    A v-region is connected and made of unclued or v-clued cells. Either it holds a v-clue ``c``, and
    then every cell of it lies within v-1 steps of ``c`` through such cells; or it holds no v-clue, and
    then it lies in unclued cells not touching a v-clue (it would merge with it) and that area has at
    least v cells around the cell. A label failing both is in no picture, so no picture is lost.

    Only clues at ``clue_cells`` (default: all) count; the other cells are treated as unclued.
    """
    n = puzzle.size
    cap = min(max_size or n, n)
    enforced = set(range(n) if clue_cells is None else clue_cells)
    clue = [puzzle.clues[i] if i in enforced else 0 for i in range(n)]
    nbrs = neighbours(puzzle.rows, puzzle.cols)
    free = component_sizes([v == 0 for v in clue], nbrs)
    allowed_labels: list[set[int]] = [set(range(1, min(cap, free[i]) + 1)) if not clue[i] else set() for i in range(n)]
    for v in sorted(set(clue) - {0}):
        for i in range(n):
            allowed_labels[i].discard(v)
        if v > cap:
            continue
        for i in clueless_room(clue, nbrs, v):
            allowed_labels[i].add(v)
        allowed = [c in (0, v) for c in clue]
        for c in (i for i in range(n) if clue[i] == v):
            for i in distances(c, nbrs, within=v - 1, through=allowed):
                allowed_labels[i].add(v)
    return [sorted(allowed_labels[i]) if not clue[i] else [clue[i]] for i in range(n)]


def clueless_room(clue: Sequence[int], nbrs: list[list[int]], v: int) -> set[int]:
    """Cells that a v-region holding no v-clue could cover: unclued, not touching a v-clue, in an area of
    at least v such cells."""
    apart = [c == 0 and all(clue[t] != v for t in nbrs[i]) for i, c in enumerate(clue)]
    size = component_sizes(apart, nbrs)
    return {i for i in range(len(clue)) if apart[i] and size[i] >= v}


def build_model(
    puzzle: Puzzle,
    max_size: int | None = None,
    *,
    clue_cells: Sequence[int] | None = None,
    assume_clues: bool = False,
    check: Callable[[], None] | None = None,
) -> LabelModel:
    """The CP-SAT model of ``puzzle`` (labels capped at ``max_size`` when given).

    Only the clues at ``clue_cells`` (default: all) are imposed. With ``assume_clues`` they are not fixed
    but tied to literals in ``clue_literals`` for use as assumptions; the domains then ignore the clues,
    so dropping an assumption is exactly dropping that clue. ``check`` is called between the parts of
    the build and may raise to stop it (a budget: big clues on a big board take seconds to encode).
    """
    from ortools.sat.python import cp_model

    n = puzzle.size
    clued = [i for i in (range(n) if clue_cells is None else clue_cells) if puzzle.clues[i]]
    domains = label_domains(puzzle, max_size, clue_cells=[] if assume_clues else clued)
    top = max([SMALL_LABELS, *puzzle.clues])
    if not all(domains):
        model = cp_model.CpModel()
        model.add_bool_or([])  # some cell can take no label at all: no picture
        return LabelModel(model, puzzle, [], [], domains)
    check = check or (lambda: None)
    m = _Builder(cp_model.CpModel(), puzzle, domains, top)
    for part in (m.labels, m.same_region_edges, m.roots_and_flow):
        check()
        part()
    check()
    m.small_shape_clauses(SHAPE_CELLS)
    if not assume_clues:
        for c in clued:
            check()
            m.clue_region(c, puzzle.clues[c])
        m.link_clue_regions()
        m.labels_need_a_clue_region(clued)
    m.label_counts()
    m.model.add_decision_strategy(m.x, cp_model.CHOOSE_MIN_DOMAIN_SIZE, cp_model.SELECT_MIN_VALUE)
    clue_literals = {}
    if assume_clues:
        clue_literals = {i: m.lit[i][puzzle.clues[i]] for i in clued}
    else:
        for i in clued:
            m.model.add(m.lit[i][puzzle.clues[i]] == 1)
    return LabelModel(m.model, puzzle, m.x, m.lit, domains, clue_literals)


class _Builder:
    """Adds the model's parts in order; holds the variables they share."""

    def __init__(self, model: Any, puzzle: Puzzle, domains: list[list[int]], top: int) -> None:
        self.model = model
        self.puzzle = puzzle
        self.domains = domains
        self.top = top
        self.n = puzzle.size
        self.nbrs = neighbours(puzzle.rows, puzzle.cols)
        self.edges = [(i, j) for i in range(self.n) for j in self.nbrs[i] if i < j]
        self.members: dict[int, dict[int, Any]] = {}

    def labels(self) -> None:
        """x[i] = sum(v * lit[i][v]) + big[i]; exactly one of the small-label literals and large[i]."""
        from ortools.sat.python import cp_model

        model = self.model
        self.x, self.lit, self.large, self.big = [], [], [], []
        for i, dom in enumerate(self.domains):
            lits = {v: model.new_bool_var(f"x{i}={v}") for v in dom if v <= self.top}
            bigs = [v for v in dom if v > self.top]
            x = model.new_int_var_from_domain(cp_model.Domain.from_values(dom), f"x{i}")
            large = big = None
            if bigs:
                large = model.new_bool_var(f"x{i}>{self.top}")
                big = model.new_int_var_from_domain(cp_model.Domain.from_values([0, *bigs]), f"big{i}")
                model.add(big >= self.top + 1).only_enforce_if(large)
                model.add(big == 0).only_enforce_if(~large)
            model.add_exactly_one([*lits.values(), *([large] if bigs else [])])
            model.add(x == sum(v * b for v, b in lits.items()) + (big if bigs else 0))
            self.x.append(x)
            self.lit.append(lits)
            self.large.append(large)
            self.big.append(big)

    def same_region_edges(self) -> None:
        """same[i, j] <=> x[i] == x[j] on every edge: regions are exactly the equal-label groups."""
        model, lit, large = self.model, self.lit, self.large
        self.same: dict[tuple[int, int], Any] = {}
        for i, j in self.edges:
            s = model.new_bool_var(f"same{i}_{j}")
            self.same[i, j] = self.same[j, i] = s
            if not (set(self.domains[i]) & set(self.domains[j])) - {1}:
                model.add(s == 0)  # only 1 in common, and two touching 1s are never one region
            for a, b in ((i, j), (j, i)):
                for v, bv in lit[a].items():
                    if v not in lit[b]:
                        model.add_implication(bv, ~s)
                    else:
                        model.add_bool_or([~s, ~bv, lit[b][v]])
                        if a < b:
                            model.add_bool_or([~bv, ~lit[b][v], s])
                if large[a] is not None and large[b] is None:
                    model.add_implication(large[a], ~s)
            if large[i] is not None and large[j] is not None:
                model.add_bool_or([~s, ~large[i], large[j]])
                model.add_bool_or([~s, ~large[j], large[i]])
                model.add(self.x[i] == self.x[j]).only_enforce_if([s, large[i]])
                model.add(self.x[i] != self.x[j]).only_enforce_if([~s, large[i], large[j]])

    def roots_and_flow(self) -> None:
        """One root per region (its smallest cell), emitting label-1 units of flow that the others absorb."""
        model, n, cols, same = self.model, self.n, self.puzzle.cols, self.same
        root = self.root = [model.new_bool_var(f"root{i}") for i in range(n)]
        rid = []
        for i in range(n):
            lowest_row = max(0, i // cols - (self.domains[i][-1] - 1))  # the root is at most label-1 rows up
            rid.append(model.new_int_var(lowest_row * cols if i else 0, i, f"rid{i}"))
            model.add(rid[i] == i).only_enforce_if(root[i])
            if i:
                model.add(rid[i] <= i - 1).only_enforce_if(~root[i])
            else:
                model.add(root[0] == 1)
        for i, j in self.edges:
            model.add(rid[i] == rid[j]).only_enforce_if(same[i, j])

        # Plain linear flow constraints (no enforcement literals), so an LP relaxation sees all of them.
        inflow: list[list[Any]] = [[] for _ in range(n)]
        outflow: list[list[Any]] = [[] for _ in range(n)]
        for i, j in self.edges:
            cap = min(self.domains[i][-1], self.domains[j][-1]) - 1
            if cap < 1:
                continue
            for a, b in ((i, j), (j, i)):
                f = model.new_int_var(0, cap, f"f{a}_{b}")
                model.add(f <= cap * same[a, b])
                model.add(f <= cap * (1 - root[b]))
                model.add(f <= self.x[a] - 1)
                outflow[a].append(f)
                inflow[b].append(f)
        self.root_label: list[dict[int, Any]] = []
        for i in range(n):
            # root_label[i][v]: i is the root of a v-region; emitted = x[i] at a root, 0 elsewhere
            rl = {}
            for v, b in self.lit[i].items():
                rl[v] = model.new_bool_var(f"root{i}={v}")
                model.add_bool_and([b, root[i]]).only_enforce_if(rl[v])
                model.add_bool_or([~b, ~root[i], rl[v]])
            emitted = sum(v * r for v, r in rl.items())
            parts = list(rl.values())
            if self.large[i] is not None:
                top_big = self.domains[i][-1]
                rl_large = model.new_bool_var(f"root{i}>{self.top}")
                model.add_bool_and([self.large[i], root[i]]).only_enforce_if(rl_large)
                model.add_bool_or([~self.large[i], ~root[i], rl_large])
                e = model.new_int_var(0, top_big, f"emit{i}")
                model.add(e <= top_big * rl_large)
                model.add(e <= self.big[i])
                model.add(e >= self.big[i] - top_big * (1 - rl_large))
                emitted += e
                parts.append(rl_large)
            model.add(sum(parts) == root[i])
            model.add(sum(outflow[i]) - sum(inflow[i]) == emitted - 1)
            self.root_label.append(rl)

    def small_shape_clauses(self, limit: int) -> None:
        """For each connected set S of up to ``limit`` cells: if S's cells are joined, the label is at least
        |S|; if they are also walled off, S is a whole region, so the label is |S|."""
        same, lit = self.same, self.lit
        for cells, tree, boundary in joinable_shapes(self.nbrs, self.domains, limit):
            size, anchor = len(cells), cells[0]
            joined = [~same[e] for e in tree]
            exact = [lit[anchor][size]] if size in lit[anchor] else []
            self.model.add_bool_or(joined + [same[e] for e in boundary] + exact)
            for v, b in lit[anchor].items():
                if v < size:
                    self.model.add_bool_or(joined + [~b])

    def clue_region(self, c: int, w: int) -> None:
        """The region of clue cell c (label w), grown in layers: near[d][i] <=> i is in it within d steps of c.

        Every cell of a w-region is within w-1 steps of c inside it, so the last layer is the whole region:
        closed under same-region edges and exactly w cells. A cell no layer can reach is out, so a region
        walled in too early fails at once (the "room" argument a solver needs for large clues).
        """
        model, same, nbrs, lit = self.model, self.same, self.nbrs, self.lit
        dist = distances(c, nbrs, within=w - 1, through=[w in lit[i] for i in range(self.n)])
        layer = {c: model.new_constant(1)}
        for d in range(1, w):
            nxt = {}
            for i in (i for i, k in dist.items() if k <= d):
                if i in layer and i == c:
                    nxt[i] = layer[i]
                    continue
                b = nxt[i] = model.new_bool_var(f"near{c}:{i}@{d}")
                model.add_implication(b, lit[i][w])
                # reached at d: already at d-1, or next to a cell reached at d-1 (equal labels: one region)
                model.add_bool_or([~b] + [layer[j] for j in [i, *nbrs[i]] if j in layer])
                if i in layer:
                    model.add_implication(layer[i], b)
                for j in nbrs[i]:
                    if j in layer:
                        model.add_bool_or([~layer[j], ~same[i, j], b])
            layer = nxt
        member = layer
        for i, m in member.items():
            for j in nbrs[i]:
                if j in member:
                    model.add_bool_or([~m, ~same[i, j], member[j]])
                elif w in lit[j]:
                    model.add_implication(m, ~same[i, j])
        model.add(sum(member.values()) == w)
        self.members[c] = member

    def labels_need_a_clue_region(self, clued: list[int]) -> None:
        """A cell labelled w where no clueless w-region fits is in the region of some w-clue."""
        clue = [0] * self.n
        for c in clued:
            clue[c] = self.puzzle.clues[c]
        for w in sorted(set(clue) - {0}):
            room = clueless_room(clue, self.nbrs, w)
            for i in range(self.n):
                if clue[i] or i in room or w not in self.lit[i]:
                    continue
                owners = [m[i] for c, m in self.members.items() if clue[c] == w and i in m]
                self.model.add_bool_or([~self.lit[i][w], *owners])

    def link_clue_regions(self) -> None:
        """Two clue cells in one region have the same member set (ties their separate layer structures)."""
        clues = self.puzzle.clues
        for c, mc in self.members.items():
            for d, md in self.members.items():
                if c < d and clues[c] == clues[d] and d in mc:
                    self.model.add(mc[d] == md[c])
                    for i in mc.keys() | md.keys():
                        if i in mc and i in md:
                            self.model.add_bool_or([~mc[d], ~mc[i], md[i]])
                            self.model.add_bool_or([~mc[d], ~md[i], mc[i]])
                        else:
                            self.model.add_bool_or([~mc[d], ~(mc[i] if i in mc else md[i])])

    def label_counts(self) -> None:
        """Cells labelled v = v * roots labelled v; cells around: 1s have no same-region neighbour, others do."""
        model, same, lit = self.model, self.same, self.lit
        for v in range(1, self.top + 1):
            holders = [lit[i][v] for i in range(self.n) if v in lit[i]]
            roots = [self.root_label[i][v] for i in range(self.n) if v in lit[i]]
            if holders:
                model.add(sum(holders) == v * sum(roots))
        for i in range(self.n):
            around = [same[i, j] for j in self.nbrs[i]]
            for j in self.nbrs[i]:
                if j < i:
                    model.add_implication(self.root[i], ~same[i, j])
            if 1 in lit[i]:
                for s in around:
                    model.add_implication(lit[i][1], ~s)
                model.add_implication(lit[i][1], self.root[i])
            model.add_bool_or(around + ([lit[i][1]] if 1 in lit[i] else []))
            if 2 in lit[i]:
                model.add(sum(around) == 1).only_enforce_if(lit[i][2])


def joinable_shapes(
    nbrs: list[list[int]], domains: list[list[int]], limit: int
) -> list[tuple[list[int], list[tuple[int, int]], list[tuple[int, int]]]]:
    """Every connected set of up to ``limit`` cells whose cells share a label of at least 2, once each:
    (cells with the smallest first, a spanning tree of its edges, its boundary edges). The other sets can
    never be one region, so their clauses would hold trivially; skipping them keeps clued boards small."""
    out = []
    seen: set[frozenset[int]] = set()
    shared = [frozenset(v for v in d if v >= 2) for d in domains]

    def grow(cells: list[int], tree: list[tuple[int, int]], common: frozenset[int]) -> None:
        key = frozenset(cells)
        if key in seen:
            return
        seen.add(key)
        boundary = [(c, t) for c in cells for t in nbrs[c] if t not in key]
        out.append((list(cells), list(tree), boundary))
        if len(cells) == limit:
            return
        for c, t in boundary:
            if t > cells[0] and (joint := common & shared[t]):
                cells.append(t)
                tree.append((c, t))
                grow(cells, tree, joint)
                cells.pop()
                tree.pop()

    for start in range(len(nbrs)):
        grow([start], [], shared[start])
    return out


def block_labelling(lm: LabelModel, labels: Sequence[int]) -> None:
    """Forbid exactly this labelling (one picture), so the next solve finds another or proves none is left."""
    differs = []
    for i, v in enumerate(labels):
        if v in lm.value_literals[i]:
            differs.append(~lm.value_literals[i][v])
        else:
            d = lm.model.new_bool_var(f"x{i}!={v}")
            lm.model.add(lm.labels[i] != v).only_enforce_if(d)
            differs.append(d)
    lm.model.add_bool_or(differs)


def read_labels(solver: Any, lm: LabelModel) -> list[int]:
    """The labelling of the last solution, row-major."""
    return [int(solver.value(x)) for x in lm.labels]
