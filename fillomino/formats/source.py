"""Where a puzzle comes from: a file, stdin or inline text; the format is told by the text itself."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from ..puzzle import FillominoError, Puzzle
from .cells import MAX_INPUT_CHARS


def read_source(source: str, kind: str) -> tuple[str, str] | None:
    """The text behind ``source`` and its name, or None when ``source`` is inline content itself."""
    if source == "-":
        return _read_stdin(), "<stdin>"
    stripped = source.strip()
    if not stripped or "\n" in stripped or looks_inline(stripped):
        return None
    path = Path(source)
    try:
        exists = path.exists()
    except OSError:  # name too long and the like: it is content, not a path
        return None
    if not exists:
        if re.search(r"\.[A-Za-z]\w*$", stripped) or stripped.startswith(("./", "../", "/", "~", "\\")):
            article = "an" if kind[:1] in "aeiou" else "a"
            raise FillominoError(
                f"no such file: {source!r} ({article} {kind} is a file, '-' for stdin, or inline text)"
            )
        return None
    if path.is_dir():
        raise FillominoError(f"{source}: is a directory, not the {kind} file")
    try:
        if path.stat().st_size > MAX_INPUT_CHARS:
            raise FillominoError(f"{source}: file is larger than {MAX_INPUT_CHARS} bytes")
        data = path.read_bytes()
    except OSError as exc:
        raise FillominoError(f"{source}: cannot read: {exc.strerror or exc}") from None
    return decode_input(data, source, "file"), source


def _read_stdin() -> str:
    """Stdin decoded as a file is, so the same bytes get the same message either way."""
    raw = getattr(sys.stdin, "buffer", None)
    if raw is not None:
        return decode_input(raw.read(MAX_INPUT_CHARS + 1), "<stdin>", "input")
    text = sys.stdin.read(MAX_INPUT_CHARS + 1)  # a text stream put in place of stdin (tests, embedding programs)
    if len(text) > MAX_INPUT_CHARS:
        raise FillominoError(f"<stdin>: input is larger than {MAX_INPUT_CHARS} characters")
    return text


def decode_input(data: bytes, name: str, what: str) -> str:
    """UTF-8 text (a byte-order mark dropped, any line ending read as a newline) or one line saying why not."""
    if len(data) > MAX_INPUT_CHARS:
        raise FillominoError(f"{name}: {what} is larger than {MAX_INPUT_CHARS} bytes")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FillominoError(f"{name}: not a UTF-8 text file (byte {exc.start})") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def looks_inline(text: str) -> bool:
    low = text[:12].lower()
    return low.startswith(("{", "[", "fillomino:", "http://", "https://", "genre:", "grid:")) or "?fillomino/" in text


@contextmanager
def maybe_a_missing_file(source: str, kind: str) -> Iterator[None]:
    """A one-line source that is not a file and does not parse may have been meant as a file name: say both."""
    try:
        yield
    except FillominoError as exc:
        one_line = source.strip() and "\n" not in source.strip()
        if one_line and re.search(r"[A-Za-z_]", source) and not looks_inline(source.strip()):
            raise FillominoError(f"no such file {source!r}, and as an inline {kind}: {exc}") from None
        raise


def read_puzzle(source: str) -> Puzzle:
    """A puzzle from a file path, ``-`` (stdin), or the puzzle text itself (text, JSON, ID or URL)."""
    loaded = read_source(source, "puzzle")
    if loaded is None:
        with maybe_a_missing_file(source, "puzzle"):
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
        from .json_format import parse_json

        return parse_json(body, origin)
    if low.startswith("fillomino:"):
        from .puzzle_id import parse_id

        return parse_id(body, origin)
    if "\n" not in body and (low.startswith(("http://", "https://")) or "?fillomino/" in body.lower()):
        from .url import parse_url

        return parse_url(body, origin)
    from .text import parse_text

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
