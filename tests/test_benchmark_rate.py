"""benchmarks/rate.py's --write-levels: the level: header goes where the corpus files keep it."""

from tests.conftest import load_benchmark


def test_a_generated_files_level_stays_before_its_score():
    """A generated file's level: line was moved after its score:, so `generate` no longer remade it byte for byte."""
    rate = load_benchmark("rate.py")
    lines = ["genre: fillomino", "generator: fillomino-generate 5", "seed: 0", "size: 2x2", "options: --level easy",
             "clues: 2", "level: easy", "score: 36", "grid:", "1.", ".1", "solution:", "12", "21"]
    assert rate.with_level(lines, "easy") == lines
    changed = rate.with_level(lines, "medium")
    assert changed[lines.index("level: easy")] == "level: medium" and len(changed) == len(lines)


def test_a_file_without_a_level_gets_one_just_before_its_grid():
    rate = load_benchmark("rate.py")
    lines = ["genre: fillomino", "clues: 3", "grid:", "1.", ".."]
    assert rate.with_level(lines, "unrated") == ["genre: fillomino", "clues: 3", "level: unrated", "grid:", "1.", ".."]
