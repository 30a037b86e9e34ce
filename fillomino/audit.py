"""Judge a logical solver's step log against the exact possible values of every cell.

A removal is sound when no solution has that value there; a placement is sound when every
solution has it. One exact ``possible`` computation answers every step, and the solutions it met
are the witnesses. The step format is documented in docs/usage/ambiguity.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .possible import Allowed, Possible, explore, parse_candidates
from .puzzle import FillominoError, Grid, Puzzle, cell_name, to_grid
from .solvers import Budget


@dataclass
class Step:
    """One line of the log: remove values from a cell, or place a value in it (0-based row, col)."""

    line: int
    technique: str
    cell: tuple[int, int]
    remove: list[int] | None = None
    place: int | None = None
    candidates: Allowed | None = None
    """The solver's candidate grid before the step (row-major), when the log gives it."""

    def action(self) -> str:
        if self.place is not None:
            return f"places {self.place}"
        return "removes " + ", ".join(map(str, self.remove or []))

    def to_json(self) -> dict:
        out: dict = {"technique": self.technique, "cell": list(self.cell)}
        if self.place is not None:
            out["place"] = self.place
        else:
            out["remove"] = list(self.remove or [])
        return out


@dataclass
class Judgement:
    """The verdict on one step; for an unsound one, why, and a solution that shows it."""

    index: int
    step: Step
    sound: bool
    reason: str = ""
    values: list[int] = field(default_factory=list)
    """The values the cell takes across the solutions (within the base candidates)."""
    witness: Grid | None = None

    def to_json(self) -> dict:
        return {
            "step": self.index,
            "line": self.step.line,
            **self.step.to_json(),
            "sound": self.sound,
            "reason": self.reason,
            "solution_values": self.values,
            "witness": None if self.witness is None else [list(row) for row in self.witness],
        }


@dataclass
class EndState:
    """The replayed log's final candidates against the engine's verdict."""

    state: str
    """"solved" (one value everywhere), "stuck" (cells left open) or "contradiction" (a cell has no value left)."""
    engine: str
    """"unique", "multiple" or "none": what the puzzle really has."""
    open_cells: int
    verdict: str
    matches: bool

    def to_json(self) -> dict:
        return {"state": self.state, "engine": self.engine, "open_cells": self.open_cells,
                "verdict": self.verdict, "matches": self.matches}


@dataclass
class Audit:
    judgements: list[Judgement]
    end: EndState
    possible: Possible

    @property
    def unsound(self) -> list[Judgement]:
        return [j for j in self.judgements if not j.sound]

    @property
    def sound(self) -> bool:
        return not self.unsound

    def tally(self) -> dict[str, dict[str, int]]:
        """Per technique (in order of first use): steps, sound, unsound."""
        out: dict[str, dict[str, int]] = {}
        for j in self.judgements:
            t = out.setdefault(j.step.technique, {"steps": 0, "sound": 0, "unsound": 0})
            t["steps"] += 1
            t["sound" if j.sound else "unsound"] += 1
        return out

    def to_json(self, every: bool = False) -> dict:
        bad = self.unsound
        return {
            "sound": self.sound,
            "steps": len(self.judgements),
            "unsound_steps": len(bad),
            "first_unsound": bad[0].to_json() if bad else None,
            "unsound": [j.to_json() for j in (bad if every else bad[:1])],
            "techniques": self.tally(),
            "end": self.end.to_json(),
            "solutions_seen": self.possible.solutions_seen,
            "max_size": self.possible.max_size,
        }


# ---- reading the log ---------------------------------------------------------------------------
def parse_steps(text: str, puzzle: Puzzle) -> list[Step]:
    """JSON lines, one step each (blank lines skipped); errors name the line."""
    steps = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            steps.append(_parse_step(raw, number, puzzle))
        except FillominoError as exc:
            raise FillominoError(f"STEPS line {number}: {exc}") from None
    return steps


def _parse_step(raw: str, number: int, puzzle: Puzzle) -> Step:
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise FillominoError(f"not JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise FillominoError('a step is a JSON object like {"technique": "t", "cell": [r, c], "remove": [v]}')
    technique = obj.get("technique")
    if not isinstance(technique, str) or not technique:
        raise FillominoError('"technique" must be a non-empty string')
    cell = obj.get("cell")
    if not (isinstance(cell, list) and len(cell) == 2 and all(_whole(x) for x in cell)):
        raise FillominoError('"cell" must be [row, column], 0-based whole numbers')
    r, c = cell
    if not (0 <= r < puzzle.rows and 0 <= c < puzzle.cols):
        raise FillominoError(f'"cell" {cell} is outside the {puzzle.shape} grid (0-based row and column)')
    has_remove, has_place = "remove" in obj, "place" in obj
    if has_remove == has_place:
        raise FillominoError('a step has exactly one of "remove" (a list of values) and "place" (a value)')
    remove = place = None
    if has_remove:
        remove = obj["remove"]
        if not (isinstance(remove, list) and remove and all(_whole(v) and v >= 1 for v in remove)):
            raise FillominoError('"remove" must be a non-empty list of positive whole numbers')
    else:
        place = obj["place"]
        if not (_whole(place) and place >= 1):
            raise FillominoError('"place" must be a positive whole number')
    candidates = None
    if obj.get("candidates") is not None:
        candidates = parse_candidates(puzzle, obj["candidates"])
    unknown = set(obj) - {"technique", "cell", "remove", "place", "candidates"}
    if unknown:
        raise FillominoError(f"unknown field(s) {', '.join(sorted(unknown))}")
    return Step(number, technique, (r, c), remove, place, candidates)


def _whole(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# ---- judging -----------------------------------------------------------------------------------
def audit(
    puzzle: Puzzle,
    steps: Sequence[Step],
    *,
    candidates: Sequence[Sequence[Iterable[int] | None]] | None = None,
    max_size: int | None = None,
    budget: Budget | None = None,
) -> Audit:
    """Judge every step against the solutions (within ``candidates``, the rater's starting domains,
    when given). Raises BudgetExhausted when the budget runs out before the truth is known."""
    base = parse_candidates(puzzle, candidates) if candidates is not None else None
    truth, values, solutions = explore(puzzle, max_size=max_size, budget=budget, allowed=base)
    judgements = [_judge(i, step, values, solutions, puzzle) for i, step in enumerate(steps, 1)]
    return Audit(judgements, _end_state(puzzle, steps, base, truth, values), truth)


def _judge(
    index: int, step: Step, truth: list[set[int]], solutions: list[tuple[int, ...]], puzzle: Puzzle
) -> Judgement:
    cols = puzzle.cols
    c = step.cell[0] * cols + step.cell[1]
    here = truth[c]
    values = sorted(here)

    def witness(ok) -> Grid | None:
        sol = next((s for s in solutions if ok(s[c])), None)
        return None if sol is None else to_grid(sol, cols)

    if step.candidates is not None:
        lost = [(i, sorted(truth[i] - step.candidates[i])) for i in range(puzzle.size)
                if step.candidates[i] is not None and truth[i] - step.candidates[i]]  # type: ignore[operator]
        if lost:
            i, gone = lost[0]
            more = f" (and {len(lost) - 1} more cells)" if len(lost) > 1 else ""
            at = cell_name(*divmod(i, cols))
            reason = (f"its candidate grid already lacks {', '.join(map(str, gone))} at {at}{more}, "
                      "which a solution uses: an earlier deduction the log does not show was unsound")
            bad = set(gone)
            return Judgement(index, step, False, reason, values,
                             _witness_at(solutions, i, bad, cols))
    if step.remove is not None:
        bad = here & set(step.remove)
        if bad:
            shown = ", ".join(map(str, sorted(bad)))
            return Judgement(index, step, False, f"a solution has {shown} there", values,
                             witness(lambda v: v in bad))
        return Judgement(index, step, True, "", values)
    other = here - {step.place}
    if other:
        shown = ", ".join(map(str, sorted(other)))
        return Judgement(index, step, False, f"a solution has {shown} there instead", values,
                         witness(lambda v: v != step.place))
    return Judgement(index, step, True, "", values)


def _witness_at(solutions: list[tuple[int, ...]], cell: int, bad: set[int], cols: int) -> Grid | None:
    sol = next((s for s in solutions if s[cell] in bad), None)
    return None if sol is None else to_grid(sol, cols)


def _end_state(puzzle: Puzzle, steps: Sequence[Step], base: Allowed | None, truth: Possible,
               values: list[set[int]]) -> EndState:
    """Replay the log from the base candidates (a clue is its own value); a step's candidate grid, when
    given, narrows the replay too (the rater's own unlogged deductions)."""
    n = puzzle.size
    domain: list[set[int] | None] = [None] * n  # None: every value 1..n
    removed: list[set[int]] = [set() for _ in range(n)]
    for c, clue in enumerate(puzzle.clues):
        if clue:
            domain[c] = {clue}
        elif base is not None and base[c] is not None:
            domain[c] = set(base[c])  # type: ignore[arg-type]

    def narrow(c: int, keep: set[int]) -> None:
        current = domain[c]
        domain[c] = {v for v in keep if v not in removed[c]} if current is None else current & keep

    for step in steps:
        if step.candidates is not None:
            for c, keep in enumerate(step.candidates):
                if keep is not None:
                    narrow(c, keep)
        c = step.cell[0] * puzzle.cols + step.cell[1]
        if step.place is not None:
            narrow(c, {step.place})
        else:
            removed[c].update(step.remove or [])
            if domain[c] is not None:
                domain[c] -= set(step.remove or [])  # type: ignore[operator]

    def size(c: int) -> int:
        d = domain[c]
        return n - len({v for v in removed[c] if v <= n}) if d is None else len(d)

    sizes = [size(c) for c in range(n)]
    engine = "none" if not truth.solvable else ("unique" if truth.unique else "multiple")
    open_cells = sum(1 for s in sizes if s > 1)
    if any(s == 0 for s in sizes):
        state = "contradiction"
    elif open_cells:
        state = "stuck"
    else:
        state = "solved"
    if state == "solved":
        answer = [next(iter(domain[c])) if domain[c] is not None else _only(removed[c], n) for c in range(n)]
        right = engine == "unique" and all(answer[c] in values[c] for c in range(n))
        verdict = ("solved and unique" if right else
                   "solved, but not to the unique solution" if engine == "unique" else
                   "solved although the puzzle has several solutions" if engine == "multiple" else
                   "solved although the puzzle has no solution")
        matches = right
    elif state == "stuck":
        verdict = {"unique": f"stuck although unique ({open_cells} cells open)",
                   "multiple": f"stuck: the puzzle has several solutions ({open_cells} cells open)",
                   "none": f"stuck: the puzzle has no solution ({open_cells} cells open)"}[engine]
        matches = engine == "multiple"
    else:
        verdict = ("contradiction: the puzzle has no solution" if engine == "none" else
                   f"contradiction although the puzzle has {'one solution' if engine == 'unique' else 'solutions'}")
        matches = engine == "none"
    return EndState(state, engine, open_cells, verdict, matches)


def _only(removed: set[int], n: int) -> int:
    return next(v for v in range(1, n + 1) if v not in removed)
