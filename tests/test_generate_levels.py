"""The generator by level (issue 20): every puzzle is unique by the CNF engine, solved by the rater with only
the techniques up to its level, rated at exactly that level with every technique, and every step the rater
takes is sound by the audit; every option works with levels; the same seed and options give the same bytes.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from fillomino.cli import main
from fillomino.formats import write_puzzle
from fillomino.generate import (
    DEFAULT_LEVEL,
    LEVELS,
    SMALL_EXPERT_WEIGHTS,
    default_rating_work,
    generate,
    level_weights,
    orders_per_answer,
    symmetry_orbits,
)
from fillomino.logic import rate
from fillomino.partition import DEFAULT_WEIGHTS, Stream, default_weights, random_answer, size_table
from fillomino.puzzle import FillominoError, Puzzle, flatten, groups, is_solution
from fillomino.solvers import Status, uniqueness
from tests.test_logic import assert_sound

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def bare(puzzle: Puzzle) -> Puzzle:
    return Puzzle(puzzle.rows, puzzle.cols, puzzle.clues)


def assert_at_level(made, level: str) -> None:
    """The three checks of issue 20, plus what the puzzle's headers say."""
    puzzle = bare(made.puzzle)
    assert is_solution(puzzle, made.solution)
    verdict = uniqueness(puzzle)  # the CNF engine, independent of the rater
    assert verdict.status == Status.UNIQUE and verdict.solutions[0] == made.solution
    assert rate(puzzle, max_level=level).solved, f"seed {made.seed}: the {level} techniques do not solve it"
    rating = rate(puzzle)
    assert rating.level == level, f"seed {made.seed}: rated {rating.level}, asked {level}"
    assert_sound(puzzle, rating, engine=False)  # engine: checked just above
    assert made.level == level and made.score == rating.score
    assert made.puzzle.meta("level") == level and made.puzzle.meta("score") == str(rating.score)
    assert f"--level {level}" in made.puzzle.meta("options")
    assert made.rating_timeouts == 0


@pytest.mark.parametrize("n, level, seeds", [
    (5, "easy", range(3)), (6, "easy", range(2)), (7, "easy", range(2)),
    (5, "medium", range(2, 5)), (6, "medium", (0, 1)), (7, "medium", (2,)),
])
def test_easy_and_medium_puzzles_are_unique_solved_at_their_level_and_sound(n, level, seeds):
    for seed in seeds:
        assert_at_level(generate(n, n, seed, level=level), level)


def test_a_hard_puzzle_is_unique_solved_at_its_level_and_sound():
    assert_at_level(generate(5, 5, 2, level="hard"), "hard")


@pytest.mark.parametrize("n, seed, level, work, lower", [(9, 1, "hard", 600, False), (6, 1, "expert", 2000, True)])
def test_solves_cut_by_the_budget_before_are_cut_again(n, seed, level, work, lower, monkeypatch):
    """A question the carver answers from a solve that ran out of its work budget before (``_cut_before``) is
    answered as the solve itself would: run again from the same start, it runs out again (9x9 hard seed 1 with a
    tiny budget asks dozens of such sets again, in its 24 orders an answer). A solve at a lower phase answers for a
    higher one (6x6 expert seed 1: a set whose hard rating ran out, asked again at expert)."""
    import fillomino.generate as gen

    real = gen._LevelCarver._cut_before
    checked = []

    def cut_before(self, clues, top, base, until):
        answer = real(self, clues, top, base, until)
        if answer:
            same = any(phase == top and start == base for phase, start, _ in self.cut[clues])
            attempt = gen._Attempt(self, clues, gen.RATED_LEVELS[top], None if base is None else base.cand)
            checked.append((same, attempt.run_until_fixed(until)))
        return answer

    monkeypatch.setattr(gen._LevelCarver, "_cut_before", cut_before)
    generate(n, n, seed, level=level, rating_work=work)
    assert checked and {state for _, state in checked} == {"budget"}
    assert len(checked) > 10 or lower
    if lower:
        assert not all(same for same, _ in checked)


def test_the_default_rating_budget_grows_with_the_grid_past_10x10():
    """Up to 10x10 the default work budget is version 6's (so those puzzles stayed); from there it grows with the
    cells, since the checks a rating needs do (a 15x15 expert rating about 28,000, where the old budget was 28,888)."""
    assert [default_rating_work(n * n) for n in (5, 6, 10)] == [100_000, 75_555, 40_000]
    sizes = range(100, 64 * 64)
    assert all(default_rating_work(c + 1) >= default_rating_work(c) for c in sizes)
    assert default_rating_work(225) >= 80_000 and default_rating_work(900) >= 4 * default_rating_work(225)


def test_ratings_cut_by_the_work_budget_give_the_same_puzzle_every_time():
    """The default rating budget counts the rater's checks, not CPU time: a carving whose ratings run out
    (here a tiny budget) makes the same puzzle on every run and every machine, still unique at its level."""
    first = generate(6, 6, 0, level="hard", rating_work=600)
    second = generate(6, 6, 0, level="hard", rating_work=600)
    assert first.rating_timeouts > 0
    assert first.puzzle == second.puzzle and first.rating_timeouts == second.rating_timeouts
    assert_at_level(dataclasses.replace(first, rating_timeouts=0), "hard")
    with pytest.raises(FillominoError, match="rating_work"):
        generate(5, 5, 0, level="easy", rating_work=0)


@pytest.mark.parametrize("rows, cols, seed, level, work", [(5, 5, 1, "expert", None), (6, 6, 5, "expert", 3000)])
def test_the_trials_kept_across_a_generation_change_no_puzzle(rows, cols, seed, level, work, monkeypatch):
    """A generation's ratings share the look-ahead trials they have run (logic.Trials): some are given again, their
    Work charged, so the puzzle, its score, the ratings made and those cut by their budget are those of a
    generation that runs every trial."""
    import fillomino.generate as gen

    kept: list = []
    trials = gen._trials

    def counted():
        kept.append(trials())
        return kept[-1]

    monkeypatch.setattr(gen, "_trials", counted)
    with_trials = generate(rows, cols, seed, level=level, rating_work=work)
    assert kept and kept[0].hits > 0 and (work is None or with_trials.rating_timeouts > 0)
    monkeypatch.setattr(gen, "_trials", lambda: None)
    without = generate(rows, cols, seed, level=level, rating_work=work)
    assert (with_trials.puzzle, with_trials.score, with_trials.ratings, with_trials.rating_timeouts) == \
        (without.puzzle, without.score, without.ratings, without.rating_timeouts)


def test_only_small_grids_keep_their_look_ahead_trials(monkeypatch):
    """Trials are kept up to TRIALS_CELLS cells, where a trial grid often comes back; a bigger grid's ratings run
    every trial (the same puzzles either way)."""
    import fillomino.generate as gen

    made: list[int] = []
    trials = gen._trials

    def counted():
        made.append(1)
        return trials()

    monkeypatch.setattr(gen, "_trials", counted)
    generate(8, 8, 0, level="easy")
    assert made == [1]
    generate(9, 8, 0, level="easy")
    assert made == [1]


def test_removals_refused_for_a_second_solution_really_leave_one_and_the_rater_refuses_them(monkeypatch):
    """The carver's shortcut (a known other solution, or the warm CNF question) stands in for a rating: it may
    refuse only clue sets the rater could not solve, which a second solution guarantees."""
    from fillomino import generate as gen

    refused = []
    shortcut = gen._LevelCarver._has_other

    def checked(self, remaining, removal):
        known = shortcut(self, remaining, removal)
        if known:
            refused.append(Puzzle(self.rows, self.cols, tuple(v if c in remaining else 0
                                                              for c, v in enumerate(self.values))))
        return known

    monkeypatch.setattr(gen._LevelCarver, "_has_other", checked)
    made = generate(6, 6, 1, level="medium")
    assert made.checks > 1 and len(refused) > 10
    for puzzle in refused:
        assert uniqueness(puzzle).status == Status.MULTIPLE
        assert not rate(puzzle).solved
    assert_at_level(made, "medium")


def test_clue_sets_passed_as_holding_a_set_proved_unique_are_unique(monkeypatch):
    """A clue set that holds one the CNF engine proved unique goes to the rater without a question of its own: it
    must be unique (more clues never admit another solution)."""
    from fillomino import generate as gen

    passed = []
    shortcut = gen._LevelCarver._has_other

    def checked(self, remaining, removal):
        asked = self.checks
        other = shortcut(self, remaining, removal)
        if not other and self.checks == asked:
            passed.append(Puzzle(self.rows, self.cols, tuple(v if c in remaining else 0
                                                             for c, v in enumerate(self.values))))
        return other

    monkeypatch.setattr(gen._LevelCarver, "_has_other", checked)
    made = generate(7, 7, 3, level="medium")  # 6x6 seed 3's sets now mostly settled by a set known solved
    assert len(passed) > 10
    for puzzle in passed:
        assert uniqueness(puzzle).status == Status.UNIQUE
    assert_at_level(made, "medium")


def test_the_carving_holds_the_solvers_gc_threshold_between_ratings_and_puts_the_callers_back(monkeypatch):
    """Between two carving ratings the collector keeps the solver's raised threshold (else it walks the last
    rating's young objects after every one), and the caller's threshold comes back once the puzzle is made."""
    import gc

    from fillomino import generate as gen
    from fillomino.logic.solver import YOUNG_OBJECTS

    seen = []
    shortcut = gen._LevelCarver._has_other

    def watched(self, remaining, removal):
        seen.append(gc.get_threshold())
        return shortcut(self, remaining, removal)

    monkeypatch.setattr(gen._LevelCarver, "_has_other", watched)
    saved = gc.get_threshold()
    try:
        gc.set_threshold(700, 11, 12)
        generate(5, 5, 1, level="easy")
        assert gc.get_threshold() == (700, 11, 12)
    finally:
        gc.set_threshold(*saved)
    assert seen and set(seen) == {(YOUNG_OBJECTS, 11, 12)}


def test_the_carvings_memos_are_dropped_before_the_callers_gc_threshold_comes_back(monkeypatch):
    """The ratings' memos, solves and grids are freed while the solver's raised threshold holds (else the first
    collection after the carving walks them all, and frees them if the carving's closures hold them in a cycle)."""
    import gc

    from fillomino import generate as gen
    from fillomino.logic.solver import YOUNG_OBJECTS

    seen = []
    running = []  # _forget also sets the memos up in __init__, outside any carving
    forget, run = gen._LevelCarver._forget, gen._LevelCarver.run

    def watched_forget(self):
        if running:
            seen.append(gc.get_threshold()[0])
        forget(self)

    def watched_run(self, rng):
        running.append(self)
        try:
            got = run(self, rng)
        finally:
            running.pop()
        assert not self.rated and not self.stuck_solves and not self.stuck_grids and self.last_solved is None
        return got

    monkeypatch.setattr(gen._LevelCarver, "_forget", watched_forget)
    monkeypatch.setattr(gen._LevelCarver, "run", watched_run)
    assert_at_level(generate(5, 5, 1, level="medium"), "medium")
    assert seen and set(seen) == {YOUNG_OBJECTS}


def test_carving_to_easy_asks_the_cnf_engine_only_for_the_proof(monkeypatch):
    """Carving to easy rates each removal without a CNF question first (the swapped solutions still refuse theirs);
    the finished puzzle is still proved unique by the engine, and above easy the questions stay."""
    from fillomino.solvers import cnf

    asked = []
    check = cnf.UniquenessOracle.check

    def counted(self, *args, **kwargs):
        asked.append(args)
        return check(self, *args, **kwargs)

    monkeypatch.setattr(cnf.UniquenessOracle, "check", counted)
    for seed in range(3):
        asked.clear()
        made = generate(5, 5, seed, level="easy")
        assert made.checks == 1 and len(asked) == 1  # the proof of the answer kept
        assert_at_level(made, "easy")
    asked.clear()
    made = generate(5, 5, 0, level="medium")
    assert made.checks > 5 and len(asked) == made.checks


@pytest.mark.parametrize("rows, cols", [(4, 4), (3, 6), (5, 5)])
def test_swapped_solutions_are_every_other_solution_two_cells_away(rows, cols):
    """The carver's other solutions listed up front: each a solution, and none with two changed cells missed."""
    from itertools import combinations

    from fillomino.generate import swapped_solutions

    shape = Puzzle.empty(rows, cols)
    for seed in range(8):
        values = flatten(random_answer(rows, cols, Stream(f"swaps|{rows}x{cols}|{seed}"), min(9, rows * cols)))
        top = max(values) + 2  # a new value above the answer's largest would need a region that large
        brute = set()
        for a, b in combinations(range(rows * cols), 2):
            for x in range(1, top):
                for y in range(1, top):
                    grid = list(values)
                    grid[a], grid[b] = x, y
                    if x != values[a] and y != values[b] and is_solution(shape, grid):
                        brute.add(frozenset((a, b)))
        found = swapped_solutions(values, rows, cols)
        assert len(found) == len(set(found)) and set(found) == brute
    assert brute  # the last answer has some


def test_a_rating_up_to_a_level_is_the_full_one_or_stuck_as_the_carver_assumes():
    """The carver answers every phase's question about a clue set from one rating of it: with the techniques up to
    any level from the hardest one used it makes the full rating's very steps, below that it is stuck."""
    from fillomino.generate import RATED_LEVELS

    for made in (generate(5, 5, 2, level="hard"), generate(6, 6, 1, level="medium")):
        puzzle = bare(made.puzzle)
        full = rate(puzzle)
        assert full.solved and full.used_level in RATED_LEVELS
        for i, level in enumerate(RATED_LEVELS):
            capped = rate(puzzle, max_level=level)
            if i >= RATED_LEVELS.index(full.used_level):
                assert capped.audit_lines() == full.audit_lines() and capped.level == full.level
            else:
                assert capped.state == "stuck"


def test_a_rating_stopped_once_the_removal_is_fixed_is_one_the_whole_rating_solves(monkeypatch):
    """The carver stops a rating as soon as every removed cell is fixed, when the clues before the removal are known
    to be solved at that phase: each such early "solved" must be one the whole rating at that phase gives too."""
    from fillomino import generate as gen

    stopped = []
    run_until_fixed = gen._Attempt.run_until_fixed

    def checked(self, removal):
        state = run_until_fixed(self, removal)
        if removal is not None and state == "fixed":
            stopped.append((Puzzle(self.solve.rows, self.solve.cols, self.given), self.phase))
        return state

    monkeypatch.setattr(gen._Attempt, "run_until_fixed", checked)
    made = [generate(5, 5, 13, level="medium"), generate(6, 6, 1, level="hard"), generate(7, 7, 0, level="easy")]
    assert len(stopped) > 20
    for puzzle, phase in stopped:
        assert rate(puzzle, max_level=phase).solved
    for m in made:
        assert_at_level(m, m.level)


def test_every_answer_of_the_carver_is_the_whole_rating_s(monkeypatch):
    """Whatever shortcut gives it (remembered sets, a second solution, a rating stopped early, a stuck grid kept or
    carried on from), each "may this removal go?" of the carver is what a whole rating with the phase's
    techniques says."""
    from fillomino import generate as gen

    asked = []
    solves = gen._LevelCarver._solves

    def checked(self, kept, removal, phase):
        answer = solves(self, kept, removal, phase)
        clues = tuple(v if c in kept and c not in removal else 0 for c, v in enumerate(self.values))
        asked.append((Puzzle(self.rows, self.cols, clues), phase, answer))
        return answer

    monkeypatch.setattr(gen._LevelCarver, "_solves", checked)
    generate(5, 5, 13, level="medium")
    generate(7, 7, 1, level="medium")
    generate(5, 5, 2, level="hard")
    assert len(asked) > 100 and sum(a for _, _, a in asked) > 30
    for puzzle, phase, answer in asked:
        assert rate(puzzle, max_level=phase).solved == answer


def test_removals_settled_by_a_set_known_solved_or_stuck_are_the_whole_rating_s(monkeypatch):
    """A later order starts from the best set with orbits put back: its removals that leave a superset of a set
    known solved at the phase (or a subset of one known stuck) go without a rating, and such an answer is what a
    whole rating with the phase's techniques says but where the ladder is not monotone in the clues (the test
    below): under one in a hundred here (5x5 expert seeds 0-9: 3 of 6,182)."""
    from fillomino import generate as gen

    settled = []
    bounds = gen._LevelCarver._bounds

    def checked(self, remaining, top):
        answer = bounds(self, remaining, top)
        if answer is not None:
            clues = tuple(v if c in remaining else 0 for c, v in enumerate(self.values))
            settled.append((Puzzle(self.rows, self.cols, clues), gen.RATED_LEVELS[top], answer))
        return answer

    monkeypatch.setattr(gen._LevelCarver, "_bounds", checked)
    made = generate(5, 5, 0, level="expert")
    assert made.orders > 1 and len(settled) > 20 and 0 < sum(a for _, _, a in settled) < len(settled)
    wrong = [puzzle for puzzle, phase, answer in settled if rate(puzzle, max_level=phase).solved != answer]
    assert len(wrong) * 100 < len(settled)
    assert_at_level(made, "expert")


def test_more_clues_can_leave_the_ladder_stuck_where_fewer_do_not():
    """The ladder is not monotone in the clues, which the carver's shortcuts (``_bounds``, chunks, a rating stopped
    once the removal is fixed) take it to be: without the 4 at r3c5, room_count takes 4 from r1c5 (a region of 4
    there would be a new one, and the groups short of their size leave it no room), and the medium techniques
    solve the puzzle; with it, that region may be the 4's own, the step does not come, and they are stuck. Such an
    error only changes which puzzle is carved: the finished one is rated whole."""
    answer = [7, 6, 5, 5, 5, 7, 6, 6, 5, 5, 7, 6, 4, 4, 4, 7, 6, 6, 1, 4, 7, 7, 7, 2, 2]
    fewer = {0, 1, 2, 12, 18, 23}

    def puzzle(cells):
        return Puzzle(5, 5, tuple(v if c in cells else 0 for c, v in enumerate(answer)))

    assert rate(puzzle(fewer), max_level="medium").solved
    more = rate(puzzle(fewer | {14}), max_level="medium")
    assert more.state == "stuck" and more.open_cells == 14
    assert rate(puzzle(fewer | {14})).solved


def test_an_attempt_finished_later_is_the_whole_rating():
    """_Attempt.finish, the rest of a solve stopped early, gives the level, score, hardest level and state of rate()
    with the same techniques (solved or not)."""
    from fillomino import generate as gen
    from fillomino.generate import RATED_LEVELS

    made = generate(6, 6, 1, level="hard")
    values = flatten(made.solution)
    carver = gen._LevelCarver(made.solution, symmetry_orbits(6, 6, "none"), "hard", False, None, None, 10.0)
    clued = frozenset(c for c, v in enumerate(made.puzzle.clues) if v)
    for clues in (clued, clued | {c for c in range(36) if c % 4 == 0}, clued | {c for c in range(36) if c % 7 == 1}):
        stop = {min(c for c in range(36) if c not in clues)}
        for phase in RATED_LEVELS:
            attempt = gen._Attempt(carver, frozenset(clues), phase)
            attempt.run_until_fixed(stop)
            finished = attempt.finish()
            full = rate(Puzzle(6, 6, tuple(v if c in clues else 0 for c, v in enumerate(values))), max_level=phase)
            assert (finished.level, finished.score, finished.used_level, finished.state) == \
                (full.level, full.score, full.used_level, full.state)


def test_a_stuck_solve_carried_on_at_a_higher_phase_is_a_fresh_solve_there():
    """_Attempt.carry_on: a solve stuck at easy or medium, carried on with harder techniques, makes the steps of a
    fresh solve at that phase, ends or stops (once given cells are fixed) where it does, and has the same work
    budget left, so that a budget runs out at the same check (the budgets below end it at, and one check after,
    the fresh solve's last check; and midway)."""
    from fillomino import generate as gen
    from fillomino.generate import RATED_LEVELS

    def solve(carver, clues, phases, until):
        """(state, work left, steps) of a solve at phases[0] carried on at each next phase, ``until`` in the last."""
        attempt = gen._Attempt(carver, clues, phases[0])
        attempt.run_until_fixed(None if len(phases) > 1 else until)
        for i, phase in enumerate(phases[1:], 2):
            assert attempt.solve.state == "stuck"
            if until is not None and until <= attempt.solve.fixed():
                return None  # the fresh solve stops before this grid: the carver does not carry it on
            attempt.carry_on(phase, until if i == len(phases) else None)
        s = attempt.solve
        return s.state, s.left.left, "".join(step.audit_lines(carver.cols) for step in s.steps)

    carried = spent = 0
    for made in (generate(5, 5, 2, level="hard"), generate(6, 6, 1, level="hard"), generate(6, 6, 0, level="expert")):
        rows, cols = made.puzzle.rows, made.puzzle.cols
        clues = frozenset(c for c, v in enumerate(made.puzzle.clues) if v)
        open_cells = [c for c in range(rows * cols) if c not in clues]

        def carver(work, made=made):
            return gen._LevelCarver(made.solution, symmetry_orbits(made.puzzle.rows, made.puzzle.cols, "none"),
                                    made.level, False, None, None, None, work)

        stuck = [low for low in RATED_LEVELS[:2] if solve(carver(10**9), clues, [low], None)[0] == "stuck"]
        for top in RATED_LEVELS[1:]:
            chains = [[low, top] for low in stuck if RATED_LEVELS.index(low) < RATED_LEVELS.index(top)]
            if top != "medium" and len(stuck) == 2:
                chains.append(["easy", "medium", top])
            assert chains or top == "medium"
            used = 10**9 - solve(carver(10**9), clues, [top], None)[1]
            for work in (10**9, used, used - 1, used // 2):
                for until in (None, set(open_cells[-2:])):
                    fresh = solve(carver(work), clues, [top], until)
                    for chain in chains:
                        got = solve(carver(work), clues, chain, until)
                        assert got is None or got == fresh, (made.seed, chain, work, until)
                        carried += got is not None
                        spent += got is not None and got[0] == "budget"
    assert carried > 50 and spent > 10


def test_the_default_level_is_medium_in_the_library_and_the_cli():
    from fillomino.commands import generate as command

    assert DEFAULT_LEVEL == "medium"
    assert (command.LEVELS, command.DEFAULT_LEVEL) == (LEVELS, DEFAULT_LEVEL)  # the CLI names them, not imports


def test_levels_from_one_seed_share_the_answer_when_the_first_order_succeeds():
    easy, medium = generate(6, 6, 0, level="easy"), generate(6, 6, 0, level="medium")
    assert easy.solution == medium.solution == generate(6, 6, 0, level="minimal").solution
    assert easy.clues > medium.clues and easy.score < medium.score


# ---------------------------------------------------------------- options with levels


def test_symmetry_removes_whole_orbits_at_a_level():
    for symmetry in ("rot180", "mirror"):
        made = generate(6, 6, 1, level="easy", symmetry=symmetry)
        clued = set(made.puzzle.clue_cells())
        assert all(set(o) <= clued or not set(o) & clued for o in symmetry_orbits(6, 6, symmetry))
        assert_at_level(made, "easy")


def test_clue_every_region_at_a_level():
    made = generate(6, 6, 2, level="easy", clue_every_region=True)
    for region in groups(flatten(made.solution), 6, 6):
        assert any(made.puzzle.clues[c] for c in region)
    assert "--clue-every-region" in made.puzzle.meta("options")
    assert_at_level(made, "easy")


def test_min_and_max_clues_at_a_level():
    plain = generate(6, 6, 0, level="easy")
    rich = generate(6, 6, 0, level="easy", min_clues=plain.clues + 6)
    assert rich.clues == plain.clues + 6
    assert_at_level(rich, "easy")
    capped = generate(6, 6, 0, level="easy", max_clues=plain.clues - 2)
    assert capped.clues <= plain.clues - 2 and capped.orders > 1
    assert_at_level(capped, "easy")


def test_racing_processes_give_the_same_puzzle_at_a_level():
    one, two = generate(6, 6, 3, level="easy"), generate(6, 6, 3, level="easy", threads=2)
    assert (one.puzzle.clues, one.solution) == (two.puzzle.clues, two.solution)


def test_a_rare_level_is_still_found_past_fifty_answers():
    """Few 5x5 answers carve to expert once the ladder counts rooms and pockets: seed 5's is the 56th answer, past
    the 50 that were tried before (the request then failed)."""
    made = generate(5, 5, 5, level="expert")
    assert made.attempts > 50 and made.level == "expert"


def test_unknown_level_is_refused():
    with pytest.raises(FillominoError, match="unknown level"):
        generate(5, 5, 0, level="tricky")


# ---------------------------------------------------------------- reproducible, byte for byte


PINNED = {
    ("easy", 6, 0): "fillomino:6x6:a6c3a6a75a4a5a75a541b4f547b",
    # orders that start from clues put back, which the easy techniques need not solve: no early stop there
    ("medium", 5, 13): "fillomino:5x5:6a4d47b31a4b3f4",
    ("medium", 6, 11): "fillomino:6x6:b35a4i866c5c8a5f41",
}
"""Generator version 12 makes exactly these (a change needs GENERATOR_VERSION bumped)."""


def test_pinned_levelled_puzzles_never_change():
    for (level, n, seed), pid in PINNED.items():
        assert write_puzzle(generate(n, n, seed, level=level).puzzle, "id") == pid


def test_removal_orders_per_answer_by_grid_size():
    assert [orders_per_answer(n) for n in (9, 25, 36, 49, 50, 64, 65, 100, 900)] == [3, 3, 3, 3, 1, 1, 24, 24, 24]
    made = generate(8, 8, 9, level="hard")  # its first two answers fail: each had one order
    assert made.attempts == made.orders == 3


def test_same_bytes_in_a_fresh_process_at_each_level():
    argv = ["generate", "--size", "5x5", "--seed", "3", "--count", "2", "--no-timing", "--symmetry", "rot180"]
    for level in ("easy", "medium"):
        outputs = set()
        for hash_seed in ("1", "2"):
            done = subprocess.run([sys.executable, "-m", "fillomino", *argv, "--level", level], capture_output=True,
                                  text=True, check=True, env=dict(os.environ, PYTHONHASHSEED=hash_seed))
            outputs.add(done.stdout)
        assert len(outputs) == 1 and f"level: {level}\n" in outputs.pop()


def test_text_and_json_record_level_and_score(capsys):
    assert main(["generate", "--size", "5x5", "--seed", "4", "--level", "easy", "--no-timing"]) == 0
    text = capsys.readouterr().out
    assert "options: --level easy --max-size 9" in text and "\nlevel: easy\nscore: " in text
    assert main(["generate", "--size", "5x5", "--seed", "4", "--level", "easy", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["level"] == "easy" and record["score"] == int(text.split("score: ")[1].split()[0])
    assert record["rating_timeouts"] == 0 and record["ratings"] > 0
    assert main(["generate", "--size", "5x5", "--seed", "4", "--level", "minimal", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["level"] == "minimal" and record["score"] is None


def test_race_is_the_new_name_of_threads(capsys):
    for flag in ("--race", "--threads"):
        assert main(["generate", "--size", "5x5", "--level", "easy", flag, "2", "--format", "id"]) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert first == second


def test_levelled_corpus_files_are_remade_byte_for_byte(capsys):
    for path in (CORPUS / "06x06" / "easy-6x6-s0.txt", CORPUS / "06x06" / "medium-6x6-s0.txt"):
        meta = dict(line.split(": ", 1) for line in path.read_text().split("grid:")[0].splitlines() if ": " in line)
        argv = ["generate", "--size", meta["size"], "--seed", meta["seed"], *meta["options"].split(), "--no-timing"]
        assert main(argv) == 0
        assert capsys.readouterr().out == path.read_text(encoding="utf-8"), f"{path} differs from: fillomino {argv}"


# ---------------------------------------------------------------- region sizes above 9 (issue 20)


def test_default_weights_go_on_past_nine_when_max_size_does():
    assert default_weights(9) == DEFAULT_WEIGHTS and default_weights(5) == DEFAULT_WEIGHTS
    assert default_weights(12) == DEFAULT_WEIGHTS + (1, 1, 1)
    sizes, _ = size_table(12, None)
    assert sizes == list(range(1, 13))
    assert size_table(12, [1, 1, 1])[0] == [1, 2, 3]  # a given short list draws nothing above its length


def test_max_size_above_nine_draws_regions_above_nine():
    """Before, the nine default weights meant no target above 9: regions of 10-12 came only of rare merges."""
    sizes = Counter()
    for seed in range(3):
        answer = random_answer(20, 20, Stream(f"big|{seed}"), 12)
        assert is_solution(Puzzle.empty(20, 20), answer)
        sizes.update(len(g) for g in groups(flatten(answer), 20, 20))
    assert max(sizes) <= 12 and sum(sizes[k] for k in (10, 11, 12)) >= 10


def test_max_size_twelve_is_recorded_with_its_weights():
    made = generate(7, 7, 0, level="easy", max_size=12)
    assert "--max-size 12 --size-weights 1,3,5,6,6,5,3,2,1,1,1,1" in made.puzzle.meta("options")
    assert_at_level(made, "easy")


def test_small_expert_puzzles_draw_bigger_regions_by_default():
    """Expert on grids of up to SMALL_EXPERT_CELLS cells draws SMALL_EXPERT_WEIGHTS unless weights are given; the
    options line records them, so they reproduce the puzzle; other levels and bigger grids keep the defaults."""
    assert level_weights("expert", 36, 9) == SMALL_EXPERT_WEIGHTS != DEFAULT_WEIGHTS
    assert level_weights("expert", 36, 11) == SMALL_EXPERT_WEIGHTS + (1, 1)
    assert level_weights("expert", 37, 9) == level_weights("hard", 25, 9) == DEFAULT_WEIGHTS
    made = generate(5, 5, 18, level="expert")
    assert_at_level(made, "expert")
    assert "--size-weights " + ",".join(map(str, SMALL_EXPERT_WEIGHTS)) in made.puzzle.meta("options")
    again = generate(5, 5, 18, level="expert", size_weights=SMALL_EXPERT_WEIGHTS).puzzle
    assert again.clues == made.puzzle.clues
    old = generate(5, 5, 18, level="expert", size_weights=DEFAULT_WEIGHTS).puzzle
    assert old.clues != made.puzzle.clues
