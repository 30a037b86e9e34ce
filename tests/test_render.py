"""Pictures: every clue drawn once and bold, one border segment per unit edge between differing answer
cells, loose and highlighted cells tinted, PNGs real images, and the render command's file rules."""

from __future__ import annotations

import base64
import struct
import sys
import types
import xml.etree.ElementTree as ET

import pytest
from conftest import external_files

from fillomino.cli import main
from fillomino.formats import read_puzzle
from fillomino.puzzle import FillominoError, Puzzle
from fillomino.render import (
    THUMBNAIL_CELL_SIZE,
    format_candidates,
    number_font_size,
    render_diff_png,
    render_diff_svg,
    render_png,
    render_svg,
    svg_data_uri,
)

SVG = "{http://www.w3.org/2000/svg}"
SEED = Puzzle.from_grid([[0, 2, 0], [0, 2, 3], [4, 0, 0]])  # fillomino:3x3:a2b234b
SEED_SOLUTION = ((4, 2, 3), (4, 2, 3), (4, 4, 3))
# The seed's region borders: 4|2 twice, 2|3 three times in rows 0-1 and 4|3 in row 2; 2 over 4 once.
SEED_BORDERS = 6


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def with_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [el for el in root.iter(SVG + tag) if el.get("class") == cls]


def visible_text(el: ET.Element) -> str:
    """The text a viewer sees: tooltips (<title>) left out, tspans joined."""
    parts = [el.text or ""]
    for child in el:
        if child.tag != SVG + "title":
            parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    return "".join(parts).strip()


def differing_unit_edges(grid) -> int:
    rows, cols = len(grid), len(grid[0])
    across = sum(grid[r][c] != grid[r][c + 1] for r in range(rows) for c in range(cols - 1))
    down = sum(grid[r][c] != grid[r + 1][c] for r in range(rows - 1) for c in range(cols))
    return across + down


def test_seed_svg_has_four_clues_five_fills_and_six_borders():
    root = parse(render_svg(SEED, SEED_SOLUTION))
    clues = with_class(root, "text", "clue")
    assert sorted(t.text for t in clues) == ["2", "2", "3", "4"]
    assert all(t.get("font-weight") == "bold" for t in clues)
    assert sorted(t.text for t in with_class(root, "text", "fill")) == ["3", "3", "4", "4", "4"]
    assert len(with_class(root, "line", "border")) == SEED_BORDERS == differing_unit_edges(SEED_SOLUTION)
    assert len(with_class(root, "rect", "outline")) == 1


def test_bare_puzzle_has_clues_but_no_borders_and_no_fills():
    root = parse(render_svg(SEED))
    assert len(with_class(root, "text", "clue")) == 4
    assert with_class(root, "text", "fill") == []
    assert with_class(root, "line", "border") == []
    assert len(with_class(root, "line", "grid")) == 4  # two inner lines each way


@pytest.mark.skipif(not external_files(), reason="../shared/corpus-external is not present")
def test_every_external_puzzle_up_to_20x20_renders_with_its_solution():
    checked = 0
    for path in external_files():
        puzzle = read_puzzle(str(path))
        if puzzle.rows > 20 or puzzle.cols > 20 or puzzle.solution is None:
            continue
        root = parse(render_svg(puzzle, puzzle.solution))
        assert len(with_class(root, "text", "clue")) == len(puzzle.clue_cells()), path.name
        assert len(with_class(root, "line", "border")) == differing_unit_edges(puzzle.solution), path.name
        assert len(with_class(root, "text", "fill")) == puzzle.size - len(puzzle.clue_cells()), path.name
        checked += 1
    assert checked > 700  # 785 of the 808 puzzles up to 20x20 carry a solution


def test_loose_cells_are_shaded_with_their_possible_values():
    possible = [[{4}, {2}, {3, 4}], [{1, 2, 3, 5}, {2}, {3}], [{4}, {4}, {3}]]
    root = parse(render_svg(SEED, possible=possible))
    assert len(with_class(root, "rect", "loose")) == 2
    assert sorted(visible_text(t) for t in with_class(root, "text", "possible")) == ["1-3,5", "3,4"]  # tspans joined
    # Fixed cells show their only value; a border is drawn where two cells share no possible value.
    assert len(with_class(root, "text", "fill")) == 3
    assert len(with_class(root, "line", "border")) > 0


def test_highlighted_cells_are_tinted():
    root = parse(render_svg(SEED, SEED_SOLUTION, highlight={(0, 0), (2, 1)}))
    assert len(with_class(root, "rect", "highlight")) == 2


def test_diff_draws_two_boards_with_the_differing_cells_tinted_in_both():
    a = ((2, 2, 1), (1, 3, 3), (3, 3, 1))
    b = ((2, 2, 1), (3, 3, 1), (3, 1, 3))  # not solutions of anything: the drawing does not judge
    puzzle = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 0]])
    root = parse(render_diff_svg(puzzle, a, b))
    assert len(with_class(root, "text", "clue")) == 2
    assert len(with_class(root, "rect", "highlight")) == 2 * 4  # (1,0) (1,2) (2,1) (2,2)
    assert len(with_class(root, "line", "border")) == differing_unit_edges(a) + differing_unit_edges(b)


def test_three_digit_clues_fit_their_cell():
    for cell in (12, 40, 100):
        assert number_font_size(cell, 3) * 0.7 * 3 <= 0.9 * cell
        assert number_font_size(cell, 1) == pytest.approx(0.6 * cell)


def test_60x60_board_with_three_digit_numbers_renders():
    puzzle = Puzzle.from_grid([[120 if (r, c) == (0, 0) else 0 for c in range(60)] for r in range(60)])
    answer = tuple(tuple(120 if r < 2 else 3 for c in range(60)) for r in range(60))  # a drawing, not a solution
    root = parse(render_svg(puzzle, answer, cell_size=20))
    assert root.get("width") == str(60 * 20 + 2 * 5)
    assert [t.text for t in with_class(root, "text", "clue")] == ["120"]
    assert len(with_class(root, "line", "border")) == 60


def test_thumbnail_and_data_uri():
    svg = render_svg(SEED, SEED_SOLUTION, cell_size=THUMBNAIL_CELL_SIZE)
    root = parse(svg)
    assert int(root.get("width")) < 60
    assert len(with_class(root, "text", "clue")) == 4 and with_class(root, "text", "fill") == []  # regions show
    assert len(with_class(root, "line", "border")) == SEED_BORDERS
    uri = svg_data_uri(svg)
    assert uri.startswith("data:image/svg+xml;base64,")
    assert base64.b64decode(uri.split(",", 1)[1]).decode() == svg


def test_candidates_are_written_as_runs():
    assert format_candidates({4}) == "4"
    assert format_candidates({1, 2}) == "1,2"
    assert format_candidates({1, 2, 3, 5, 7, 8, 9, 10}) == "1-3,5,7-10"


def test_tiny_cells_and_misshapen_answers_are_refused():
    with pytest.raises(FillominoError, match="cell size"):
        render_svg(SEED, cell_size=2)
    with pytest.raises(FillominoError, match="3x3"):
        render_svg(SEED, ((1, 1), (1, 1)))


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_png_of_a_10x10_is_a_sane_image():
    pytest.importorskip("PIL")
    puzzle = Puzzle.from_grid([[c + 1 if r == c else 0 for c in range(10)] for r in range(10)])
    answer = tuple(tuple((r + c) % 5 + 1 for c in range(10)) for r in range(10))
    data = render_png(puzzle, answer)
    width, height = png_size(data)
    assert 200 <= width <= 2000 and 200 <= height <= 2000
    assert 1_000 < len(data) < 500_000
    from io import BytesIO

    from PIL import Image

    image = Image.open(BytesIO(data)).convert("L")
    assert image.getpixel((0, 0)) == 255  # white margin
    assert image.getpixel((10, height // 2)) == 0  # the bold outline
    dark = sum(image.histogram()[:128])
    assert dark > 0.05 * width * height  # borders and digits, not a blank page


def test_png_diff_is_twice_as_wide():
    pytest.importorskip("PIL")
    w1, h1 = png_size(render_png(SEED, SEED_SOLUTION))
    w2, h2 = png_size(render_diff_png(SEED, SEED_SOLUTION, SEED_SOLUTION))
    assert h1 == h2 and w2 > 2 * w1


# ---------------------------------------------------------------- the render command


@pytest.fixture
def seed_loader(monkeypatch):
    """The command reads the seed puzzle whatever the input says (reading is fillomino.formats' job)."""
    monkeypatch.setattr("fillomino.commands.render.load_puzzle", lambda source: SEED)


def test_cli_writes_svg_and_refuses_to_overwrite_without_force(tmp_path, seed_loader, capsys):
    out = tmp_path / "seed.svg"
    assert main(["render", "seed", "-o", str(out)]) == 0
    assert len(with_class(parse(out.read_text()), "text", "clue")) == 4
    assert main(["render", "seed", "-o", str(out)]) == 2
    assert "--force" in capsys.readouterr().err
    assert main(["render", "seed", "-o", str(out), "--force"]) == 0


def test_cli_refuses_unknown_extensions_and_missing_folders(tmp_path, seed_loader, capsys):
    assert main(["render", "seed", "-o", str(tmp_path / "seed.jpg")]) == 2
    assert ".svg or .png" in capsys.readouterr().err
    assert main(["render", "seed", "-o", str(tmp_path / "no" / "seed.svg")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_cli_solution_uses_the_solver_when_none_is_stored(tmp_path, seed_loader, monkeypatch):
    calls = []

    def fake_uniqueness(puzzle, **kwargs):
        from fillomino.solvers import Status, Verdict

        calls.append(puzzle)
        return Verdict(Status.UNIQUE, solutions=[SEED_SOLUTION])

    monkeypatch.setattr("fillomino.solvers.uniqueness", fake_uniqueness)
    out = tmp_path / "seed.png"
    assert main(["render", "seed", "--solution", "-o", str(out), "--cell-size", "30"]) == 0
    assert calls == [SEED]
    assert png_size(out.read_bytes()) == (3 * 30 + 2 * 7, 3 * 30 + 2 * 7)


def test_cli_diff_needs_two_solutions(tmp_path, seed_loader, monkeypatch, capsys):
    from fillomino.solvers import Status, Verdict

    monkeypatch.setattr("fillomino.solvers.uniqueness", lambda p, **kw: Verdict(Status.UNIQUE, [SEED_SOLUTION]))
    assert main(["render", "seed", "--diff", "-o", str(tmp_path / "d.svg")]) == 2
    assert "exactly one solution" in capsys.readouterr().err
    other = ((4, 2, 3), (4, 2, 3), (4, 4, 3))
    verdict = Verdict(Status.MULTIPLE, [SEED_SOLUTION, other], differ=[])
    monkeypatch.setattr("fillomino.solvers.uniqueness", lambda p, **kw: verdict)
    assert main(["render", "seed", "--diff", "-o", str(tmp_path / "d.svg")]) == 0
    assert len(with_class(parse((tmp_path / "d.svg").read_text()), "text", "clue")) == 8


def test_cli_ambiguity_uses_possible_values(tmp_path, seed_loader, monkeypatch):
    possible = [[{4}, {2}, {3, 4}], [{4, 1}, {2}, {3}], [{4}, {4}, {3}]]
    fake = types.SimpleNamespace(possible=lambda p, **kw: types.SimpleNamespace(cells=possible))
    monkeypatch.setitem(sys.modules, "fillomino.possible", fake)
    out = tmp_path / "a.svg"
    assert main(["render", "seed", "--ambiguity", "-o", str(out)]) == 0
    assert len(with_class(parse(out.read_text()), "rect", "loose")) == 2


def test_cli_without_output_prints_the_board(seed_loader, capsys):
    assert main(["render", "seed", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "┏━━━┯━━━┯━━━┓" and "\x1b" not in out


def test_seed_is_the_puzzle_of_its_id():
    assert read_puzzle("fillomino:3x3:a2b234b") == SEED


def test_cli_reads_a_real_puzzle_id(tmp_path):
    out = tmp_path / "seed.svg"
    assert main(["render", "fillomino:3x3:a2b234b", "-o", str(out)]) == 0
    assert len(with_class(parse(out.read_text()), "text", "clue")) == 4


def test_cli_diff_without_output_prints_both_boards(seed_loader, monkeypatch, capsys):
    from fillomino.solvers import Status, Verdict

    other = ((4, 2, 3), (4, 2, 3), (4, 4, 4))  # a drawing only: one differing cell
    verdict = Verdict(Status.MULTIPLE, [SEED_SOLUTION, other])
    monkeypatch.setattr("fillomino.solvers.uniqueness", lambda p, **kw: verdict)
    assert main(["render", "seed", "--diff", "--no-color"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 7 and lines[5].endswith("┃*3*┃   ┃ 4 │ 4 │*4*┃")


def test_render_json_warns_on_several_solutions_and_honours_max_size_and_budget(tmp_path, capsys):
    import json
    from pathlib import Path

    assert main(["render", "fillomino:1x3:c", "--solution", "--json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["status"] == "drawn" and data["drawn"] == "solution" and data["svg"].startswith("<svg")
    assert "several solutions" in data["warnings"][0] and "warning: the puzzle has several solutions" in err
    target = tmp_path / "a.svg"
    assert main(["render", "fillomino:1x3:c", "--ambiguity", "--max-size", "2", "-o", str(target), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["output"] == str(target) and data["bytes"] == target.stat().st_size and data["max_size"] == 2
    assert ">3<" not in target.read_text()  # with regions of at most 2 cells, no cell may be 3
    hard = Path(__file__).resolve().parents[1] / "corpus" / "20x20" / "20x20-s7.txt"
    assert main(["render", str(hard), "--ambiguity", "--budget", "1c"]) == 3
    assert "unknown: the budget ran out" in capsys.readouterr().err
