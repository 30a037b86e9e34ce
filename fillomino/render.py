"""Puzzle-book pictures of a board (SVG, PNG) with its answer, region borders and ambiguity.

One drawing is built as a list of shapes (rectangles, lines, texts) and then written either as SVG
(xml.etree, so always well-formed) or as PNG drawn directly with Pillow. Pillow because it is one
pure wheel with no system libraries, needs no browser or display, and ships a scalable default font;
cairosvg would need the system libcairo. SVG needs nothing beyond the standard library, so Pillow is an
optional extra (``pip install 'fillomino[render]'``) imported only when a PNG is asked for.

Region borders are drawn as one ``<line class="border">`` per unit edge between two orthogonal cells
whose values differ (runs are not merged), so their number is exactly the number of such cell pairs.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from .puzzle import FillominoError, Grid, Puzzle

DEFAULT_CELL_SIZE = 40
THUMBNAIL_CELL_SIZE = 12
MIN_FILL_CELL_SIZE = 16
"""Below this many pixels a cell, filled-in answer numbers are left out (clues and borders stay)."""
FONT_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"
DIGIT_WIDTH = 0.7
"""Advance of one bold digit in em, a little over DejaVu Sans Bold's 0.696, so numbers never overflow."""

WHITE, INK, GRID, FILL_INK, POSSIBLE_INK = "#ffffff", "#000000", "#b3b3b3", "#7a7a7a", "#1f4e8c"
LOOSE_TINT, HIGHLIGHT_TINT = "#dbe7f6", "#ffd966"

Possible = Sequence[Sequence[set[int]]]


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str
    cls: str
    stroke: str | None = None
    stroke_width: float = 0
    title: str | None = None


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    width: float
    cls: str


@dataclass(frozen=True)
class Text:
    """Centred at (x, y) when ``centred``, else lines hang from the top-left corner (x, y)."""

    x: float
    y: float
    lines: tuple[str, ...]
    size: float
    fill: str
    cls: str
    bold: bool = False
    centred: bool = True
    title: str | None = None


@dataclass
class Scene:
    width: float
    height: float
    shapes: list[Rect | Line | Text] = field(default_factory=list)
    title: str = ""


# ---------------------------------------------------------------- what is known about each cell


def cell_values(puzzle: Puzzle, answer: Grid | None, possible: Possible | None) -> list[int]:
    """Row-major number to show per cell: the answer's, else the clue, else the only possible value,
    else 0 (unknown: an open cell, or an answer's empty or unmarked cell)."""
    values: list[int] = []
    for i, clue in enumerate(puzzle.clues):
        r, c = divmod(i, puzzle.cols)
        v = answer[r][c] if answer is not None and answer[r][c] > 0 else clue
        if v <= 0 and possible is not None and len(possible[r][c]) == 1:
            v = next(iter(possible[r][c]))
        values.append(max(v, 0))
    return values


def is_wall(i: int, j: int, values: Sequence[int], possible: Possible | None, cols: int) -> bool:
    """A region border between cells i and j: both values known and different, or no value possible in both."""
    if values[i] and values[j]:
        return values[i] != values[j]
    if possible is None:
        return False
    return not (possible[i // cols][i % cols] & possible[j // cols][j % cols])


def walls(
    puzzle: Puzzle, answer: Grid | None, possible: Possible | None = None
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Unit edges with a region border: (r, c) pairs whose right edge, then those whose bottom edge, is one.

    Without an answer or possible values no border is known, so none is drawn (a bare puzzle)."""
    right: list[tuple[int, int]] = []
    down: list[tuple[int, int]] = []
    if answer is None and possible is None:
        return right, down
    values = cell_values(puzzle, answer, possible)
    cols = puzzle.cols
    for r in range(puzzle.rows):
        for c in range(cols):
            i = r * cols + c
            if c + 1 < cols and is_wall(i, i + 1, values, possible, cols):
                right.append((r, c))
            if r + 1 < puzzle.rows and is_wall(i, i + cols, values, possible, cols):
                down.append((r, c))
    return right, down


def format_candidates(values: set[int]) -> str:
    """``{1, 2, 3, 5}`` as ``1-3,5``: runs keep long candidate lists short and exact."""
    parts: list[str] = []
    nums = sorted(values)
    k = 0
    while k < len(nums):
        j = k
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        parts.append(str(nums[k]) if j == k else f"{nums[k]}{',' if j == k + 1 else '-'}{nums[j]}")
        k = j + 1
    return ",".join(parts)


# ---------------------------------------------------------------- layout


def number_font_size(cell_size: float, digits: int) -> float:
    """Font size that fits a number of ``digits`` digits in a cell: 60% of it, smaller for 3+ digits."""
    return round(min(0.6 * cell_size, 0.84 * cell_size / (DIGIT_WIDTH * max(digits, 1))), 2)


def _wrap(text: str, lines: int) -> list[str]:
    """Split a comma-separated candidate list into at most ``lines`` lines of about equal length."""
    parts = text.split(",")
    per = -(-len(parts) // lines)
    return [",".join(parts[k : k + per]) + ("," if k + per < len(parts) else "") for k in range(0, len(parts), per)]


def _candidate_text(x: float, y: float, cs: float, values: set[int], above_number: bool) -> Text:
    """Small candidates in the cell's top-left corner, wrapped over as many lines as gives the largest font."""
    text = format_candidates(values)
    pad = 0.06 * cs
    best: tuple[float, list[str]] = (0.0, [text])
    room = 0.34 * cs if above_number else cs - 2 * pad  # height left above a number drawn in the cell
    for n in [1, 2] if above_number else [1, 2, 3, 4]:
        lines = _wrap(text, n)
        width_limit = (cs - 2 * pad) / (0.64 * max(len(s) for s in lines))
        height_limit = room / (1.15 * len(lines))
        size = min(0.24 * cs if above_number else 0.3 * cs, width_limit, height_limit)
        if size > best[0]:
            best = (size, lines)
    size, lines = best
    title = "possible: " + ", ".join(map(str, sorted(values)))
    return Text(x + pad, y + pad, tuple(lines), round(size, 2), POSSIBLE_INK, "possible", centred=False, title=title)


def board_scene(
    puzzle: Puzzle,
    answer: Grid | None = None,
    *,
    possible: Possible | None = None,
    highlight: set[tuple[int, int]] | None = None,
    cell_size: int = DEFAULT_CELL_SIZE,
    origin: tuple[float, float] = (0, 0),
) -> Scene:
    """The shapes of one board, in drawing order (tints, thin grid, borders, outline, numbers)."""
    if cell_size < 4:
        raise FillominoError(f"cell size {cell_size} is too small: use at least 4 pixels")
    if answer is not None and (len(answer) != puzzle.rows or any(len(row) != puzzle.cols for row in answer)):
        raise FillominoError(f"answer is not {puzzle.shape} like the puzzle")
    if possible is not None and (len(possible) != puzzle.rows or any(len(row) != puzzle.cols for row in possible)):
        raise FillominoError(f"possible values are not {puzzle.shape} like the puzzle")
    cs = cell_size
    thin = max(1, round(cs / 40))
    bold = max(2, round(cs / 12))
    outline = max(bold, round(cs / 10))
    margin = max(outline, cs // 4)
    ox, oy = origin[0] + margin, origin[1] + margin
    rows, cols = puzzle.rows, puzzle.cols
    scene = Scene(cols * cs + 2 * margin, rows * cs + 2 * margin, title=f"Fillomino {puzzle.shape}")
    shapes = scene.shapes
    shapes.append(Rect(origin[0], origin[1], scene.width, scene.height, WHITE, "background"))
    values = cell_values(puzzle, answer, possible)
    highlight = highlight or set()

    def loose(r: int, c: int) -> bool:
        return possible is not None and len(possible[r][c]) > 1

    for r in range(rows):
        for c in range(cols):
            if (r, c) in highlight:
                shapes.append(Rect(ox + c * cs, oy + r * cs, cs, cs, HIGHLIGHT_TINT, "highlight"))
            elif loose(r, c):
                shapes.append(Rect(ox + c * cs, oy + r * cs, cs, cs, LOOSE_TINT, "loose"))
    for c in range(1, cols):
        shapes.append(Line(ox + c * cs, oy, ox + c * cs, oy + rows * cs, GRID, thin, "grid"))
    for r in range(1, rows):
        shapes.append(Line(ox, oy + r * cs, ox + cols * cs, oy + r * cs, GRID, thin, "grid"))
    right, down = walls(puzzle, answer, possible)
    for r, c in right:
        x = ox + (c + 1) * cs
        shapes.append(Line(x, oy + r * cs, x, oy + (r + 1) * cs, INK, bold, "border"))
    for r, c in down:
        y = oy + (r + 1) * cs
        shapes.append(Line(ox + c * cs, y, ox + (c + 1) * cs, y, INK, bold, "border"))
    shapes.append(Rect(ox, oy, cols * cs, rows * cs, "none", "outline", INK, outline))
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            x, y = ox + c * cs, oy + r * cs
            clue, v = puzzle.clues[i], values[i]
            if clue:
                shapes.append(Text(x + cs / 2, y + cs / 2, (str(clue),), number_font_size(cs, len(str(clue))),
                                   INK, "clue", bold=True))
            elif v and cs < MIN_FILL_CELL_SIZE:
                pass  # thumbnails: grey digits would bury the regions
            elif v and loose(r, c):  # smaller and lower, below the candidates in the corner
                shapes.append(Text(x + cs / 2, y + 0.6 * cs, (str(v),), 0.8 * number_font_size(cs, len(str(v))),
                                   FILL_INK, "fill"))
            elif v:
                shapes.append(Text(x + cs / 2, y + cs / 2, (str(v),), number_font_size(cs, len(str(v))),
                                   FILL_INK, "fill"))
            if loose(r, c):
                shapes.append(_candidate_text(x, y, cs, possible[r][c], above_number=bool(v)))  # type: ignore[index]
    return scene


def diff_scene(puzzle: Puzzle, a: Grid, b: Grid, *, cell_size: int = DEFAULT_CELL_SIZE) -> Scene:
    """Two answers side by side, the cells where they differ tinted in both."""
    differ = {(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if a[r][c] != b[r][c]}
    left = board_scene(puzzle, a, highlight=differ, cell_size=cell_size)
    gap = cell_size
    right = board_scene(puzzle, b, highlight=differ, cell_size=cell_size, origin=(left.width + gap, 0))
    scene = Scene(left.width * 2 + gap, left.height, title=f"Fillomino {puzzle.shape}: two solutions")
    scene.shapes.append(Rect(0, 0, scene.width, scene.height, WHITE, "background"))
    scene.shapes.extend(left.shapes + right.shapes)
    return scene


# ---------------------------------------------------------------- SVG


def _num(v: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    return f"{v:.2f}".rstrip("0").rstrip(".")


def scene_to_svg(scene: Scene) -> str:
    """The scene as a standalone SVG document (class attributes name each part: clue, fill, border...)."""
    import xml.etree.ElementTree as ET

    svg = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg",
        "width": _num(scene.width), "height": _num(scene.height),
        "viewBox": f"0 0 {_num(scene.width)} {_num(scene.height)}",
        "font-family": FONT_FAMILY,
    })
    ET.SubElement(svg, "title").text = scene.title
    for s in scene.shapes:
        if isinstance(s, Rect):
            attrs = {"class": s.cls, "x": _num(s.x), "y": _num(s.y), "width": _num(s.w), "height": _num(s.h),
                     "fill": s.fill}
            if s.stroke:
                attrs |= {"stroke": s.stroke, "stroke-width": _num(s.stroke_width)}
            el = ET.SubElement(svg, "rect", attrs)
        elif isinstance(s, Line):
            cap = "square" if s.cls == "border" else "butt"
            el = ET.SubElement(svg, "line", {
                "class": s.cls, "x1": _num(s.x1), "y1": _num(s.y1), "x2": _num(s.x2), "y2": _num(s.y2),
                "stroke": s.stroke, "stroke-width": _num(s.width), "stroke-linecap": cap,
            })
        else:
            attrs = {"class": s.cls, "font-size": _num(s.size), "fill": s.fill}
            if s.bold:
                attrs["font-weight"] = "bold"
            if s.centred:  # baseline 0.36 em below the centre puts digits visually centred
                attrs |= {"x": _num(s.x), "y": _num(round(s.y + 0.36 * s.size, 2)), "text-anchor": "middle"}
            else:
                attrs |= {"x": _num(s.x), "y": _num(round(s.y + 0.8 * s.size, 2))}
            el = ET.SubElement(svg, "text", attrs)
            if s.title:
                ET.SubElement(el, "title").text = s.title
            if len(s.lines) == 1:
                if s.title:
                    el[0].tail = s.lines[0]
                else:
                    el.text = s.lines[0]
            else:
                for k, line in enumerate(s.lines):
                    span = ET.SubElement(el, "tspan", {"x": _num(s.x)} | ({"dy": "1.15em"} if k else {}))
                    span.text = line
    svg.text = "\n"  # one shape a line; no indenting inside <text>, where whitespace would show
    for el in svg:
        el.tail = "\n"
    return ET.tostring(svg, encoding="unicode") + "\n"


def render_svg(
    puzzle: Puzzle,
    answer: Grid | None = None,
    *,
    possible: Possible | None = None,
    highlight: set[tuple[int, int]] | None = None,
    cell_size: int = DEFAULT_CELL_SIZE,
) -> str:
    """The board as SVG: clues bold, answer digits grey, bold region borders, loose cells shaded with
    their possible values in the corner, highlighted cells tinted. ``cell_size=12`` makes a thumbnail
    (below 16 px a cell the filled-in numbers are left out, so the regions stay readable)."""
    return scene_to_svg(board_scene(puzzle, answer, possible=possible, highlight=highlight, cell_size=cell_size))


def render_diff_svg(puzzle: Puzzle, a: Grid, b: Grid, *, cell_size: int = DEFAULT_CELL_SIZE) -> str:
    """Two answers side by side as SVG, differing cells tinted."""
    return scene_to_svg(diff_scene(puzzle, a, b, cell_size=cell_size))


def svg_data_uri(svg: str) -> str:
    """An SVG as a ``data:`` URI for an <img src=...> in a self-contained HTML page."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


# ---------------------------------------------------------------- PNG


@lru_cache(maxsize=64)
def _font(size: int, bold: bool):  # noqa: ANN202 - PIL types are imported lazily
    from PIL import ImageFont

    for name in (("DejaVuSans-Bold.ttf", "Arial Bold.ttf") if bold else ("DejaVuSans.ttf", "Arial.ttf")):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)  # Pillow's own scalable font (Pillow >= 10.1 with FreeType)


def _pixel_start(centre: float, width: float) -> int:
    """First pixel row/column of a stroke of ``width`` pixels centred on ``centre``."""
    return math.floor(centre - max(1, round(width)) / 2 + 0.5)


def scene_to_png(scene: Scene) -> bytes:
    """The scene drawn with Pillow and encoded as PNG."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise FillominoError(
            "PNG output needs Pillow: pip install 'fillomino[render]' (or pillow); SVG output works without it"
        ) from None
    import io

    image = Image.new("RGB", (round(scene.width), round(scene.height)), WHITE)
    draw = ImageDraw.Draw(image)
    for s in scene.shapes:
        if isinstance(s, Rect):
            box = [round(s.x), round(s.y), round(s.x + s.w) - 1, round(s.y + s.h) - 1]
            if s.fill != "none":
                draw.rectangle(box, fill=s.fill)
            if s.stroke:
                sw = max(1, round(s.stroke_width))
                x0, y0 = _pixel_start(s.x, sw), _pixel_start(s.y, sw)
                x1, y1 = _pixel_start(s.x + s.w, sw) + sw - 1, _pixel_start(s.y + s.h, sw) + sw - 1
                draw.rectangle([x0, y0, x1, y1], outline=s.stroke, width=sw)
        elif isinstance(s, Line):
            w = max(1, round(s.width))
            x1, x2 = sorted((s.x1, s.x2))
            y1, y2 = sorted((s.y1, s.y2))
            if s.cls == "border":  # square caps: the stroke's square around each end is painted too
                x0, y0 = _pixel_start(x1, w), _pixel_start(y1, w)
                box = [x0, y0, _pixel_start(x2, w) + w - 1, _pixel_start(y2, w) + w - 1]
            elif x1 == x2:
                box = [_pixel_start(x1, w), round(y1), _pixel_start(x1, w) + w - 1, round(y2) - 1]
            else:
                box = [round(x1), _pixel_start(y1, w), round(x2) - 1, _pixel_start(y1, w) + w - 1]
            draw.rectangle(box, fill=s.stroke)
        else:
            font = _font(max(1, round(s.size)), s.bold)
            if s.centred:
                draw.text((s.x, s.y), s.lines[0], fill=s.fill, font=font, anchor="mm")
            else:
                for k, line in enumerate(s.lines):
                    draw.text((s.x, s.y + k * 1.15 * s.size), line, fill=s.fill, font=font, anchor="la")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def render_png(
    puzzle: Puzzle,
    answer: Grid | None = None,
    *,
    possible: Possible | None = None,
    highlight: set[tuple[int, int]] | None = None,
    cell_size: int = DEFAULT_CELL_SIZE,
) -> bytes:
    """The same picture as ``render_svg`` as PNG bytes, ``cell_size`` pixels a cell."""
    return scene_to_png(board_scene(puzzle, answer, possible=possible, highlight=highlight, cell_size=cell_size))


def render_diff_png(puzzle: Puzzle, a: Grid, b: Grid, *, cell_size: int = DEFAULT_CELL_SIZE) -> bytes:
    """Two answers side by side as PNG, differing cells tinted."""
    return scene_to_png(diff_scene(puzzle, a, b, cell_size=cell_size))
