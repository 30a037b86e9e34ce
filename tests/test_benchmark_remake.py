"""benchmarks/remake_levelled.py: a levelled file remade by its own header's command, and the minimal files'
generator line moved to today's version."""

from fillomino.cli import main as fillomino
from fillomino.generate import GENERATOR_VERSION
from tests.conftest import load_benchmark


def test_a_stale_levelled_file_is_remade_and_a_minimal_ones_version_moved(tmp_path, capsys):
    remake = load_benchmark("remake_levelled.py")
    folder = tmp_path / "05x05"
    folder.mkdir()
    assert fillomino(["generate", "--size", "5x5", "--seed", "0", "--level", "easy", "--no-timing",
                      "--out", str(folder)]) == 0
    assert fillomino(["generate", "--size", "5x5", "--seed", "1", "--level", "minimal", "--no-timing",
                      "--out", str(folder)]) == 0
    levelled, minimal = folder / "easy-5x5-s0.txt", folder / "5x5-s1.txt"
    made, kept = levelled.read_text(), minimal.read_text()
    old = f"generator: fillomino-generate {GENERATOR_VERSION}\n"
    levelled.write_text(made.replace(old, "generator: fillomino-generate 0\n"))
    minimal.write_text(kept.replace(old, "generator: fillomino-generate 0\n"))
    capsys.readouterr()

    assert remake.main([str(tmp_path)]) == 0  # report only
    out = capsys.readouterr().out
    assert "05x05/easy-5x5-s0.txt: version" in out and "minimal files with another generator line: 1" in out
    assert levelled.read_text() != made

    assert remake.main([str(tmp_path), "--write"]) == 0
    assert levelled.read_text() == made and minimal.read_text() == kept
    assert remake.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "easy-5x5-s0.txt: unchanged" in out and "minimal files with another generator line: 0" in out
