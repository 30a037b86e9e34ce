"""Read and write puzzles and answers: text, JSON, ``fillomino:RxC:...`` IDs and puzz.link URLs.

Input is auto-detected; anything unusable raises FillominoError naming what is wrong and where
(line and column, or character position), so the CLI can print one line and exit 2.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from .puzzle import MAX_CELLS, MAX_SIDE, UNMARKED, FillominoError, Grid, Puzzle, validate_shape

FORMATS = ("text", "json", "id", "url")
MAX_INPUT_CHARS = 8_000_000
"""Refuse bigger inputs outright: the largest legal grid with a solution and notes is far smaller."""
RESERVED_KEYS = ("genre", "grid", "solution")
_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")
_HEADER = re.compile(r"\s*([A-Za-z][A-Za-z0-9_.-]*)\s*:(.*)$")
_ID = re.compile(r"fillomino:([0-9]+)x([0-9]+):(.*)", re.IGNORECASE | re.DOTALL)
_URL = re.compile(r"(?:https?://)?[A-Za-z0-9.-]+(?::\d+)?/p(?:\.html)?\?(.*)", re.IGNORECASE | re.DOTALL)
_NUMBER = re.compile(r"[0-9]+")
_SHAPE = re.compile(r"([0-9]+)x([0-9]+)")
URL_BASE = "https://puzz.link/p?fillomino"


# ---------------------------------------------------------------- sources


def _read_source(source: str, kind: str) -> tuple[str, str] | None:
    """The text behind ``source`` and its name, or None when ``source`` is inline content itself."""
    if source == "-":
        text = sys.stdin.read(MAX_INPUT_CHARS + 1)
        if len(text) > MAX_INPUT_CHARS:
            raise FillominoError(f"<stdin>: input is larger than {MAX_INPUT_CHARS} characters")
        return text, "<stdin>"
    stripped = source.strip()
    if not stripped or "\n" in stripped or _looks_inline(stripped):
        return None
    path = Path(source)
    try:
        exists = path.exists()
    except OSError:  # name too long and the like: it is content, not a path
        return None
    if not exists:
        if re.search(r"\.[A-Za-z]\w*$", stripped) or stripped.startswith(("./", "../", "/", "~", "\\")):
            raise FillominoError(f"no such file: {source!r} (a {kind} is a file, '-' for stdin, or inline text)")
        return None
    if path.is_dir():
        raise FillominoError(f"{source}: is a directory, not the {kind} file")
    try:
        if path.stat().st_size > MAX_INPUT_CHARS:
            raise FillominoError(f"{source}: file is larger than {MAX_INPUT_CHARS} bytes")
        return path.read_text(encoding="utf-8-sig"), source
    except UnicodeDecodeError as exc:
        raise FillominoError(f"{source}: not a UTF-8 text file (byte {exc.start})") from None
    except OSError as exc:
        raise FillominoError(f"{source}: cannot read: {exc.strerror or exc}") from None


def _looks_inline(text: str) -> bool:
    low = text[:12].lower()
    return low.startswith(("{", "[", "fillomino:", "http://", "https://", "genre:", "grid:")) or "?fillomino/" in text


@contextmanager
def _maybe_a_missing_file(source: str, kind: str) -> Iterator[None]:
    """A one-line source that is not a file and does not parse may have been meant as a file name: say both."""
    try:
        yield
    except FillominoError as exc:
        one_line = source.strip() and "\n" not in source.strip()
        if one_line and re.search(r"[A-Za-z_]", source) and not _looks_inline(source.strip()):
            raise FillominoError(f"no such file {source!r}, and as an inline {kind}: {exc}") from None
        raise


def read_puzzle(source: str) -> Puzzle:
    """A puzzle from a file path, ``-`` (stdin), or the puzzle text itself (text, JSON, ID or URL)."""
    loaded = _read_source(source, "puzzle")
    if loaded is None:
        with _maybe_a_missing_file(source, "puzzle"):
            return parse_puzzle(source, "<input>")
    return parse_puzzle(*loaded)


def parse_puzzle(text: str, origin: str = "<input>") -> Puzzle:
    """Auto-detect the format of ``text`` (JSON, ID, URL, else the text format) and parse it."""
    if len(text) > MAX_INPUT_CHARS:
        raise FillominoError(f"{origin}: input is larger than {MAX_INPUT_CHARS} characters")
    body = text.strip()
    if not body:
        raise FillominoError(f"{origin}: empty input, no puzzle in it")
    low = body[:12].lower()
    if body[0] in "{[":
        return _parse_json_puzzle(body, origin)
    if low.startswith("fillomino:"):
        return parse_id(body, origin)
    if "\n" not in body and (low.startswith(("http://", "https://")) or "?fillomino/" in body.lower()):
        return parse_url(body, origin)
    return parse_text(text, origin)


def iter_puzzle_files(paths: Sequence[str]) -> Iterator[Path]:
    """Puzzle files named by ``paths``: files as given, folders searched recursively for *.txt and *.json."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found = [p for p in path.rglob("*") if p.suffix in (".txt", ".json") and p.is_file()]
            found = [
                p
                for p in found
                if p.name not in ("README.md", "INDEX.tsv")
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            ]
            yield from sorted(found)
        elif path.is_file():
            yield path
        else:
            raise FillominoError(f"no such file or folder: {name!r}")


# ---------------------------------------------------------------- text format


_TOKEN = re.compile(r"\.|[0-9]+")


def _split_row(line: str, tokens: bool) -> list[tuple[str, int]]:
    """Cells of one row with their 1-based character columns."""
    if not tokens:
        return [(ch, i + 1) for i, ch in enumerate(line)]
    return [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", line)]


def _cell_value(tok: str, where: str, answer: bool) -> int:
    """One token as a number: '.' is no clue (0) in a grid, unmarked in an answer."""
    if tok == ".":
        return UNMARKED if answer else 0
    if tok.isascii() and tok.isdigit():
        value = int(tok)
        if value == 0 and not answer:
            raise FillominoError(f"{where}: clue 0 is not allowed, write '.' for a cell without a clue")
        return value
    if tok == "?":
        raise FillominoError(f"{where}: '?' (unknown number) clues are not supported")
    raise FillominoError(f"{where}: unknown {'character' if len(tok) == 1 else 'token'} {tok[:20]!r}")


def _parse_rows(
    rows: list[tuple[int, str]],
    origin: str,
    answer: bool,
    cols: int | None = None,
    what: str = "grid",
    unit: str = "line",
) -> list[list[int]]:
    """Rows (line number, text) of one block; ``cols`` when the width is known already.

    A row is one character per cell unless it has spaces (then space-separated tokens). Without a
    known width, any spaced row makes every row tokenized, and so do rows of unequal length that are
    each one number (a one-column grid with a multi-digit clue).
    """
    if not rows:
        raise FillominoError(f"{origin}: the {what} block has no rows")
    if cols is None:
        spaced = any(re.search(r"\s", text) for _, text in rows)
        uneven = len({len(text) for _, text in rows}) > 1
        tokens = spaced or (uneven and all(_TOKEN.fullmatch(text) for _, text in rows))
        first = rows[0][1]
        width = len(first.split()) if tokens else len(first)
        try:
            validate_shape(len(rows), width)  # refuse a huge grid before touching every cell
        except FillominoError as exc:
            raise FillominoError(f"{origin}: {what} {exc}") from None
    out: list[list[int]] = []
    expected = cols
    first_line = rows[0][0]
    for lineno, text in rows:
        if cols is not None:
            tokens = cols == 1 or bool(re.search(r"\s", text))
        cells = _split_row(text, tokens)
        if expected is None:
            expected = len(cells)
        if len(cells) != expected:
            ref = f"like {unit} {first_line}" if cols is None else f"for the {cols}-column grid"
            raise FillominoError(
                f"{origin}: {unit} {lineno}: {what} row has {len(cells)} cells, expected {expected} {ref}"
            )
        out.append([_cell_value(tok, f"{origin}: {unit} {lineno}, column {col}", answer) for tok, col in cells])
    return out


def parse_text(text: str, origin: str = "<input>") -> Puzzle:
    """The text format: ``genre: fillomino``, other ``key: value`` headers, ``grid:`` and ``solution:`` blocks.

    A text with no header at all is read as a bare grid; rows may also be separated by ``/``.
    """
    lines = text.splitlines()
    if len(lines) == 1 and "/" in lines[0] and ":" not in lines[0]:
        lines = lines[0].split("/")
    blocks: dict[str, list[tuple[int, str]]] = {}
    declared: dict[str, tuple[int, str]] = {}
    metadata: list[tuple[str, str]] = []
    current: str | None = None
    stray: tuple[int, str] | None = None
    any_header = False
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _HEADER.match(line)
        if m:
            any_header = True
            key, value = m.group(1), m.group(2).strip()
            low = key.lower()
            if low == "genre":
                if value.lower() != "fillomino":
                    raise FillominoError(f"{origin}: line {lineno}: genre {value!r} is not fillomino")
                current = None
            elif low in ("grid", "solution"):
                if low in blocks:
                    raise FillominoError(f"{origin}: line {lineno}: a second {low}: block")
                blocks[low] = []
                if value:
                    declared[low] = (lineno, value)
                current = low
            else:
                metadata.append((key, value))
                current = None
            continue
        if current is None:
            stray = stray or (lineno, line)
            continue
        blocks[current].append((lineno, line))
    if not any_header and stray is not None:  # a bare grid
        rows = [(n, raw.strip()) for n, raw in enumerate(lines, 1) if raw.strip() and not raw.strip().startswith("#")]
        return _make_puzzle(_parse_rows(rows, origin, answer=False), None, (), origin)
    if stray is not None:
        raise FillominoError(
            f"{origin}: line {stray[0]}: {stray[1][:30]!r} is neither a 'key: value' header nor in a grid: block"
        )
    if "grid" not in blocks:
        raise FillominoError(f"{origin}: no grid: block (expected a 'grid:' line followed by the rows)")
    cols = None
    if "grid" in declared:
        lineno, value = declared["grid"]
        m = _SHAPE.fullmatch(value)
        if not m:
            raise FillominoError(f"{origin}: line {lineno}: 'grid: {value}' should be 'grid:' or 'grid: RxC'")
        try:
            validate_shape(int(m.group(1)), int(m.group(2)))
        except FillominoError as exc:
            raise FillominoError(f"{origin}: line {lineno}: {exc}") from None
        cols = int(m.group(2))
        if len(blocks["grid"]) != int(m.group(1)):
            raise FillominoError(f"{origin}: line {lineno}: grid declared {value} but has {len(blocks['grid'])} rows")
    grid = _parse_rows(blocks["grid"], origin, answer=False, cols=cols)
    solution = None
    if "solution" in blocks:
        if "solution" in declared:
            lineno, _ = declared["solution"]
            raise FillominoError(f"{origin}: line {lineno}: put the solution rows on the lines after 'solution:'")
        sol_rows = blocks["solution"]
        if len(sol_rows) != len(grid):
            where = f"line {sol_rows[0][0]}" if sol_rows else "end of input"
            raise FillominoError(f"{origin}: {where}: solution has {len(sol_rows)} rows, the grid has {len(grid)}")
        solution = _parse_rows(sol_rows, origin, answer=True, cols=len(grid[0]), what="solution")
    return _make_puzzle(grid, solution, tuple(metadata), origin, [n for n, _ in blocks["grid"]])


def _make_puzzle(
    grid: list[list[int]],
    solution: list[list[int]] | None,
    metadata: tuple[tuple[str, str], ...],
    origin: str,
    linenos: list[int] | None = None,
) -> Puzzle:
    """Build the Puzzle, first checking clue ranges so the message can name the row."""
    rows, cols = len(grid), len(grid[0])
    size = rows * cols
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if not 0 <= v <= size:
                where = f"line {linenos[r]}" if linenos else f"row {r + 1}"
                raise FillominoError(
                    f"{origin}: {where}, cell {c + 1}: clue {v} is out of range 1..{size} for a {rows}x{cols} grid"
                )
    sol = tuple(tuple(row) for row in solution) if solution is not None else None
    try:
        return Puzzle(rows, cols, tuple(v for row in grid for v in row), sol, metadata)
    except FillominoError as exc:
        raise FillominoError(f"{origin}: {exc}") from None


def _needs_spaces(values: Grid) -> bool:
    return any(v >= 10 or v < UNMARKED for row in values for v in row)


def _format_rows(values: Grid, blank: str, spaced: bool | None = None) -> list[str]:
    """Rows as text: one character per cell, or space-separated tokens when any number has two digits."""

    def token(v: int) -> str:
        if v == UNMARKED or (v == 0 and blank == "."):
            return "."
        return str(v)

    if spaced is None:
        spaced = _needs_spaces(values)
    sep = " " if spaced else ""
    return [sep.join(token(v) for v in row) for row in values]


def format_grid(grid: Grid) -> str:
    """An answer as rows (``.`` unmarked, ``0`` empty), spaced when any number has two digits."""
    return "\n".join(_format_rows(grid, blank="0")) + "\n"


def _check_metadata(metadata: Sequence[tuple[str, str]], origin: str) -> None:
    for key, value in metadata:
        if not isinstance(key, str) or not isinstance(value, str):
            raise FillominoError(f"{origin}: metadata {key!r}: keys and values must be strings")
        if not _KEY.fullmatch(key) or key.lower() in RESERVED_KEYS:
            raise FillominoError(f"{origin}: metadata key {key!r} is not a usable header name")
        if "\n" in value or "\r" in value or value != value.strip():
            raise FillominoError(f"{origin}: metadata {key!r}: value must be one line without outer spaces")


def write_text(puzzle: Puzzle) -> str:
    _check_metadata(puzzle.metadata, "cannot write as text")
    lines = ["genre: fillomino"]
    lines += [f"{k}: {v}" if v else f"{k}:" for k, v in puzzle.metadata]
    # as in the corpus: both blocks are spaced when any value of either has two digits
    spaced = _needs_spaces(puzzle.clue_grid()) or (puzzle.solution is not None and _needs_spaces(puzzle.solution))
    rows = _format_rows(puzzle.clue_grid(), blank=".", spaced=spaced)
    ambiguous = puzzle.cols == 1 and len({len(r) for r in rows}) == 1 and len(rows[0]) > 1
    lines.append(f"grid: {puzzle.shape}" if ambiguous else "grid:")
    lines += rows
    if puzzle.solution is not None:
        lines.append("solution:")
        lines += _format_rows(puzzle.solution, blank="0", spaced=spaced)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- JSON


def _json_load(text: str, origin: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FillominoError(f"{origin}: broken JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise FillominoError(f"{origin}: JSON nested too deeply") from None


def _json_rows(rows: object, origin: str, what: str, answer: bool, cols: int | None = None) -> list[list[int]]:
    """A JSON grid: a list of strings (text-format rows) or of lists of ints (null = no clue / unmarked)."""
    if not isinstance(rows, list) or not rows:
        raise FillominoError(f"{origin}: {what} must be a non-empty list of rows")
    if len(rows) > MAX_SIDE:
        raise FillominoError(f"{origin}: {what} has {len(rows)} rows: at most {MAX_SIDE} (and {MAX_CELLS} cells)")
    if all(isinstance(r, str) for r in rows):
        numbered = [(i + 1, r.strip()) for i, r in enumerate(rows)]
        return _parse_rows(numbered, f"{origin}: {what}", answer, cols, what, unit="row")
    out: list[list[int]] = []
    width = len(rows[0]) if isinstance(rows[0], list) else -1
    for i, row in enumerate(rows):
        if not isinstance(row, list):
            raise FillominoError(f"{origin}: {what} row {i + 1} is not a list (or every row a string)")
        if len(row) != width:
            raise FillominoError(f"{origin}: {what} row {i + 1} has {len(row)} cells, row 1 has {width}")
        if i == 0 and cols is None:
            try:
                validate_shape(len(rows), width)
            except FillominoError as exc:
                raise FillominoError(f"{origin}: {exc}") from None
        vals = []
        for j, v in enumerate(row):
            where = f"{origin}: {what} row {i + 1}, cell {j + 1}"
            if v is None:
                vals.append(UNMARKED if answer else 0)
            elif isinstance(v, bool) or not isinstance(v, int):
                raise FillominoError(f"{where}: {v!r} is not a whole number or null")
            elif answer and v < UNMARKED:
                raise FillominoError(f"{where}: {v} is not a number of an answer (-1 unmarked, 0 empty, or positive)")
            elif not answer and v < 1:
                raise FillominoError(f"{where}: clue {v} is not allowed, use null for a cell without a clue")
            else:
                vals.append(v)
        out.append(vals)
    if cols is not None and width != cols:
        raise FillominoError(f"{origin}: {what} has {width} columns, the grid has {cols}")
    return out


def _json_metadata(raw: object, origin: str) -> tuple[tuple[str, str], ...]:
    """Metadata as a list of [key, value] pairs (order and repeats kept) or an object of strings/lists."""
    pairs: list[tuple[str, str]] = []
    if isinstance(raw, dict):
        for k, v in raw.items():
            for item in v if isinstance(v, list) else [v]:
                pairs.append((k, item))
    elif isinstance(raw, list):
        for item in raw:
            if not (isinstance(item, list) and len(item) == 2):
                raise FillominoError(f"{origin}: metadata entries must be [key, value] pairs, got {item!r}"[:200])
            pairs.append((item[0], item[1]))
    else:
        raise FillominoError(f"{origin}: metadata must be a list of [key, value] pairs or an object")
    _check_metadata(pairs, origin)
    return tuple(pairs)


def _parse_json_puzzle(text: str, origin: str) -> Puzzle:
    data = _json_load(text, origin)
    if isinstance(data, list):
        data = {"puzzle": {"grid": data}}
    if not isinstance(data, dict):
        raise FillominoError(f'{origin}: JSON puzzle must be an object like {{"genre":"fillomino","puzzle":...}}')
    genre = data.get("genre", "fillomino")
    if not isinstance(genre, str) or genre.lower() != "fillomino":
        raise FillominoError(f"{origin}: genre {genre!r} is not fillomino")
    inner = data.get("puzzle", data)
    if isinstance(inner, str):
        return parse_puzzle(inner, f"{origin}: puzzle")
    if not isinstance(inner, dict) or "grid" not in inner:
        raise FillominoError(f"{origin}: JSON has no puzzle.grid (a list of rows)")
    grid = _json_rows(inner["grid"], origin, "grid", answer=False)
    sol_raw = data.get("solution", inner.get("solution"))
    solution = None
    if sol_raw is not None:
        solution = _json_rows(sol_raw, origin, "solution", answer=True, cols=len(grid[0]))
        if len(solution) != len(grid):
            raise FillominoError(f"{origin}: solution has {len(solution)} rows, the grid has {len(grid)}")
    meta_raw = data.get("metadata", inner.get("metadata"))
    metadata = _json_metadata(meta_raw, origin) if meta_raw is not None else ()
    return _make_puzzle(grid, solution, metadata, origin)


def write_json(puzzle: Puzzle) -> str:
    grid = puzzle.clue_grid()
    if all(v < 10 for v in puzzle.clues):
        rows: list[object] = _format_rows(grid, blank=".")
    else:
        rows = [[v or None for v in row] for row in grid]
    data: dict[str, object] = {"genre": "fillomino", "puzzle": {"grid": rows}}
    if puzzle.solution is not None:
        data["solution"] = [list(row) for row in puzzle.solution]
    if puzzle.metadata:
        data["metadata"] = [[k, v] for k, v in puzzle.metadata]
    return json.dumps(data, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- ID: fillomino:RxC:body
#
# body, row-major: 1-9 a clue; -NN a two-digit clue 10-99 (-00 is 100); +NNN a three-digit clue
# 100-999; =NNNNN a five-digit clue 1000-99999 (clues go up to the cell count, at most 10000);
# a-z a run of 1-26 cells without a clue.

_ID_WIDTH = {"-": 2, "+": 3, "=": 5}


def parse_id(text: str, origin: str = "<input>") -> Puzzle:
    text = text.strip()
    m = _ID.fullmatch(text)
    if not m:
        raise FillominoError(f"{origin}: broken ID {text[:40]!r}: expected fillomino:<rows>x<cols>:<cells>")
    rows, cols, body = int(m.group(1)), int(m.group(2)), m.group(3)
    try:
        validate_shape(rows, cols)
    except FillominoError as exc:
        raise FillominoError(f"{origin}: ID {exc}") from None
    size = rows * cols
    offset = len(text) - len(body)  # 1-based position of body[i] is offset + i + 1
    clues = [0] * size
    cell = 0
    i = 0
    while i < len(body):
        ch = body[i]
        pos = offset + i + 1
        if cell >= size:
            raise FillominoError(
                f"{origin}: ID character {pos} ({ch!r}): the {rows}x{cols} grid's {size} cells are already filled"
            )
        if "1" <= ch <= "9":
            clues[cell] = int(ch)
            cell += 1
            i += 1
        elif ch in _ID_WIDTH:
            width = _ID_WIDTH[ch]
            digits = body[i + 1 : i + 1 + width]
            if len(digits) != width or not (digits.isascii() and digits.isdigit()):
                raise FillominoError(f"{origin}: ID character {pos}: {ch!r} must be followed by {width} digits")
            value = int(digits)
            if ch == "-" and value == 0:
                value = 100
            elif ch == "-" and value < 10:
                raise FillominoError(f"{origin}: ID character {pos}: {ch}{digits} is not 10-99 (write {value})")
            elif (ch == "+" and value < 100) or (ch == "=" and value < 1000):
                raise FillominoError(f"{origin}: ID character {pos}: {ch}{digits} has a leading zero")
            clues[cell] = value
            cell += 1
            i += 1 + width
        elif "a" <= ch <= "z":
            cell += ord(ch) - ord("a") + 1
            if cell > size:
                raise FillominoError(
                    f"{origin}: ID character {pos} ({ch!r}): run of blanks goes past the {size} cells of {rows}x{cols}"
                )
            i += 1
        elif ch == "0":
            raise FillominoError(f"{origin}: ID character {pos}: clue 0 is not allowed (use a letter for blanks)")
        else:
            raise FillominoError(f"{origin}: ID character {pos}: unknown character {ch!r}")
    if cell != size:
        raise FillominoError(f"{origin}: ID body describes {cell} cells, but {rows}x{cols} has {size}")
    for idx, v in enumerate(clues):
        if v > size:
            r, c = divmod(idx, cols)
            raise FillominoError(
                f"{origin}: ID clue {v} at row {r + 1}, column {c + 1} is out of range 1..{size} for {rows}x{cols}"
            )
    return Puzzle(rows, cols, tuple(clues))


def _runs(clues: Sequence[int], longest: int) -> Iterator[int | tuple[None, int]]:
    """Clues as they come, blank cells grouped in runs of at most ``longest``: (None, length)."""
    run = 0
    for v in clues:
        if v == 0:
            run += 1
            if run == longest:
                yield (None, run)
                run = 0
            continue
        if run:
            yield (None, run)
            run = 0
        yield v
    if run:
        yield (None, run)


def write_id(puzzle: Puzzle) -> str:
    parts = []
    for item in _runs(puzzle.clues, 26):
        if isinstance(item, tuple):
            parts.append(chr(ord("a") + item[1] - 1))
        elif item < 10:
            parts.append(str(item))
        elif item <= 100:
            parts.append(f"-{item % 100:02d}")
        elif item < 1000:
            parts.append(f"+{item}")
        else:
            parts.append(f"={item:05d}")
    return f"fillomino:{puzzle.shape}:{''.join(parts)}"


# ---------------------------------------------------------------- puzz.link / pzprjs URL (number16)

_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"
_NUM16 = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "*": (4, 12240), "$": (5, 77776)}


def parse_url(text: str, origin: str = "<input>") -> Puzzle:
    """``https://puzz.link/p?fillomino/[flag/]<cols>/<rows>/<body>`` (also pzv.jp, pzprxs, p.html)."""
    text = text.strip()
    m = _URL.fullmatch(text)
    query = m.group(1) if m else text
    parts = query.split("/")
    if parts[0].lower() != "fillomino":
        raise FillominoError(f"{origin}: not a fillomino puzz.link URL: {text[:60]!r}")
    k = 2 if len(parts) > 1 and parts[1] and not _NUMBER.fullmatch(parts[1]) else 1  # skip a pflag ('t', 'b')
    if len(parts) < k + 3 or not _NUMBER.fullmatch(parts[k]) or not _NUMBER.fullmatch(parts[k + 1]):
        raise FillominoError(f"{origin}: broken URL {text[:60]!r}: expected ...?fillomino/<cols>/<rows>/<cells>")
    cols, rows, body = int(parts[k]), int(parts[k + 1]), parts[k + 2]
    try:
        validate_shape(rows, cols)
    except FillominoError as exc:
        raise FillominoError(f"{origin}: URL {exc}") from None
    size = rows * cols
    offset = len(text) - len(query) + sum(len(p) + 1 for p in parts[: k + 2])
    clues = [0] * size
    cell = 0
    i = 0
    while i < len(body) and cell < size:
        ch = body[i]
        pos = offset + i + 1
        if ch in "0123456789abcdef":
            value, i = int(ch, 16), i + 1
        elif ch in _NUM16:
            width, base = _NUM16[ch]
            digits = body[i + 1 : i + 1 + width]
            if len(digits) != width or any(d not in "0123456789abcdefABCDEF" for d in digits):
                raise FillominoError(f"{origin}: URL character {pos}: {ch!r} must be followed by {width} hex digits")
            value, i = int(digits, 16) + base, i + 1 + width
        elif "g" <= ch <= "z":
            run = int(ch, 36) - 15
            if cell + run > size:
                raise FillominoError(
                    f"{origin}: URL character {pos} ({ch!r}): run of blanks goes past the {size} cells of {rows}x{cols}"
                )
            cell += run
            i += 1
            continue
        elif ch == ".":
            raise FillominoError(f"{origin}: URL character {pos}: '?' (unknown number) clues are not supported")
        else:
            raise FillominoError(f"{origin}: URL character {pos}: unknown character {ch!r}")
        if value == 0:
            raise FillominoError(f"{origin}: URL character {pos}: clue 0 is not allowed")
        if value > size:
            r, c = divmod(cell, cols)
            raise FillominoError(
                f"{origin}: URL clue {value} at row {r + 1}, column {c + 1} is out of range 1..{size} for {rows}x{cols}"
            )
        clues[cell] = value
        cell += 1
    if cell != size:
        raise FillominoError(f"{origin}: URL body describes {cell} cells, but {cols} columns x {rows} rows is {size}")
    return Puzzle(rows, cols, tuple(clues))  # anything after the cells (border data) is ignored


def write_url(puzzle: Puzzle) -> str:
    parts = []
    for item in _runs(puzzle.clues, 20):
        if isinstance(item, tuple):
            parts.append(_BASE36[item[1] + 15])
        elif item < 16:
            parts.append(format(item, "x"))
        elif item < 256:
            parts.append(f"-{item:02x}")
        elif item < 4096:
            parts.append(f"+{item:03x}")
        elif item < 8192:
            parts.append(f"={item - 4096:03x}")
        elif item < 12240:
            parts.append(f"%{item - 8192:03x}")
        elif item < 77776:
            parts.append(f"*{item - 12240:04x}")
        else:
            parts.append(f"${item - 77776:05x}")
    return f"{URL_BASE}/{puzzle.cols}/{puzzle.rows}/{''.join(parts)}"


# ---------------------------------------------------------------- dispatch


def write_puzzle(puzzle: Puzzle, fmt: str) -> str:
    """The puzzle in ``fmt`` (text, json, id, url). Text and JSON end with a newline; ID and URL do not."""
    writers = {"text": write_text, "json": write_json, "id": write_id, "url": write_url}
    if fmt not in writers:
        raise FillominoError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    return writers[fmt](puzzle)


# ---------------------------------------------------------------- answers


def read_answer(source: str, puzzle: Puzzle | None = None) -> Grid:
    """An answer from a path, ``-`` or inline rows (``423/423/443``), a text with ``solution:``, or JSON.

    ``.`` is unmarked (UNMARKED), ``0`` an empty cell. With ``puzzle``, the shape must match it.
    """
    loaded = _read_source(source, "answer")
    if loaded is None:
        with _maybe_a_missing_file(source, "answer"):
            return parse_answer(source, "<answer>", puzzle)
    return parse_answer(*loaded, puzzle)


def parse_answer(text: str, origin: str = "<answer>", puzzle: Puzzle | None = None) -> Grid:
    body = text.strip()
    if not body:
        raise FillominoError(f"{origin}: empty answer")
    cols = puzzle.cols if puzzle else None
    if body[0] in "[{":
        data = _json_load(body, origin)
        if isinstance(data, dict):
            if "solution" not in data and isinstance(data.get("puzzle"), dict):
                data = data["puzzle"]
            if "solution" not in data:
                raise FillominoError(f'{origin}: JSON answer has no "solution" (a list of rows)')
            data = data["solution"]
        rows = _json_rows(data, origin, "answer", answer=True, cols=cols)
    else:
        lines = body.splitlines()
        unit = "line"
        if len(lines) == 1 and "/" in lines[0]:
            lines, unit = lines[0].split("/"), "row"
        numbered = [(n, ln.strip()) for n, ln in enumerate(lines, 1) if ln.strip() and not ln.startswith("#")]
        if any(_HEADER.match(ln) for _, ln in numbered):
            numbered = _solution_block(numbered, origin)
        if len(numbered) > MAX_SIDE:
            raise FillominoError(f"{origin}: answer has {len(numbered)} rows, at most {MAX_SIDE}")
        rows = _parse_rows(numbered, origin, answer=True, cols=cols, what="answer", unit=unit)
    if puzzle is not None:
        if len(rows) != puzzle.rows or any(len(r) != puzzle.cols for r in rows):
            raise FillominoError(f"{origin}: answer is {len(rows)}x{len(rows[0])}, the puzzle is {puzzle.shape}")
    return tuple(tuple(r) for r in rows)


def _solution_block(lines: list[tuple[int, str]], origin: str) -> list[tuple[int, str]]:
    """The rows under ``solution:`` in a text with headers (a puzzle file with its solution)."""
    rows: list[tuple[int, str]] | None = None
    for lineno, line in lines:
        m = _HEADER.match(line)
        if m and m.group(1).lower() == "solution":
            rows = []
        elif m:
            if rows is not None:
                break
        elif rows is not None:
            rows.append((lineno, line))
    if not rows:
        raise FillominoError(f"{origin}: no solution: block with rows in this text")
    return rows


__all__ = [
    "FORMATS",
    "format_grid",
    "iter_puzzle_files",
    "parse_answer",
    "parse_id",
    "parse_puzzle",
    "parse_text",
    "parse_url",
    "read_answer",
    "read_puzzle",
    "write_puzzle",
]
