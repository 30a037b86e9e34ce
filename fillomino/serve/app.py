"""The web app of ``fillomino serve`` (Starlette): the page, and a small JSON API over the library.

Every puzzle from the page is read by ``fillomino.formats.parse_puzzle``, the CLI's reader for
inline input, so the page gets the CLI's one-line messages and size limits. Nothing here reads or
writes the server's disk on a request: the page's own files are loaded once, at start.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from importlib import resources

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..formats import MAX_INPUT_CHARS, parse_puzzle, write_id, write_puzzle
from ..puzzle import FillominoError, Puzzle
from .ahead import Ahead
from .panels import PANELS
from .workers import Pool

DEFAULT_BUDGET = 10.0
"""Seconds each panel may spend on one edit before it says "unknown" (or "at least N")."""
AHEAD_SECONDS = 60.0
"""Seconds each question worked out ahead may take: more than a panel's, as it gets only the CPU nobody wants."""
MAX_BODY = MAX_INPUT_CHARS + 4096
"""A request body: the CLI's input limit and room for the JSON around it."""
CACHE_SIZE = 512
"""Settled panel answers kept by puzzle: an undo, a redo or a clue put back is answered at once."""
MAX_CLIENTS = 1000
"""Open pages remembered for cancelling their superseded edits (the oldest are forgotten)."""
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
PAGE_FILES = {"/": ("index.html", "text/html"), "/app.js": ("app.js", "text/javascript"),
              "/app.css": ("app.css", "text/css")}
EXPORTS = {"url": "text/plain", "id": "text/plain", "text": "text/plain", "json": "application/json",
           "svg": "image/svg+xml", "png": "image/png"}


class BadRequest(Exception):
    """A request the page should not have sent (not a puzzle problem): answered with 400 and the reason."""


async def _body(request: Request) -> dict:
    """The request's JSON object, refused past ``MAX_BODY`` bytes without reading further.

    Only ``application/json`` is taken: another site's page cannot send that to this server without
    the browser asking first (CORS), and this app never says yes."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise BadRequest("the request must be application/json")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise FillominoError(f"<input>: input is larger than {MAX_INPUT_CHARS} characters")
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks) or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the request is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the request is not a JSON object")
    return data


def _puzzle(data: dict, key: str = "puzzle") -> Puzzle:
    text = data.get(key)
    if not isinstance(text, str):
        raise BadRequest(f"the request has no {key!r} text")
    return parse_puzzle(text, "<input>")


def _shape(puzzle: Puzzle) -> dict:
    return {"rows": puzzle.rows, "cols": puzzle.cols, "clues": list(puzzle.clues), "id": write_id(puzzle)}


class Cancels:
    """Each page's newest edit number; a newer edit cancels the page's older analyses."""

    def __init__(self) -> None:
        self.latest: OrderedDict[str, int] = OrderedDict()
        self.running: dict[str, set[tuple[int, asyncio.Task]]] = {}

    def advance(self, client: str, seq: int) -> bool:
        """Note that edit ``seq`` of this page is wanted, cancelling its older ones; False when a newer came first."""
        newest = self.latest.get(client, seq)
        if seq < newest:
            return False
        if seq > newest:
            for old_seq, old in list(self.running.get(client, ())):
                if old_seq < seq:
                    old.cancel()
        self.latest[client] = seq
        self.latest.move_to_end(client)
        while len(self.latest) > MAX_CLIENTS:
            gone, _ = self.latest.popitem(last=False)
            self.running.pop(gone, None)
        return True

    def track(self, client: str, seq: int, task: asyncio.Task) -> None:
        self.running.setdefault(client, set()).add((seq, task))

    def end(self, client: str, seq: int, task: asyncio.Task) -> None:
        self.running.get(client, set()).discard((seq, task))


def create_app(initial: Puzzle | None = None, *, budget: float = DEFAULT_BUDGET, warm: int = 4,
               hosts: Sequence[str] = ("*",), ahead: bool = True) -> Starlette:
    """The app; ``initial`` is the puzzle the page opens with, ``budget`` the seconds per panel and edit,
    ``hosts`` the names the page may be reached by (a loopback server: only loopback names, so another
    site cannot rebind its own name to this machine and read the answers), ``ahead`` whether to work
    out the removal of each clue of a settled grid in the background (``fillomino.serve.ahead``)."""
    package = resources.files(__package__) / "static"
    pages = {path: (package.joinpath(name).read_bytes(), kind) for path, (name, kind) in PAGE_FILES.items()}
    pool = Pool(warm)
    cancels = Cancels()
    cache: OrderedDict[tuple[str, str], dict] = OrderedDict()
    known: dict[str, tuple[tuple[int, ...], list]] = {}
    """Settled loose-cell answers by puzzle ID: its clues and every cell's possible values."""

    def narrowing(puzzle: Puzzle) -> list | None:
        """Every cell's possible values in a settled grid whose clues are a subset of ``puzzle``'s (the most
        clues wins): adding clues only removes solutions, so they cover every solution of ``puzzle``."""
        best, most = None, -1
        for clues, cells in known.values():
            if len(clues) != puzzle.size or len(cells) != puzzle.rows:
                continue
            if all(a == 0 or a == b for a, b in zip(clues, puzzle.clues)):
                n = sum(1 for a in clues if a)
                if n > most:
                    best, most = cells, n
        return best

    def cover(puzzle: Puzzle, pid: str) -> list | None:
        """``narrowing``, with each cell the loose panel found forced cut to its one value: what the values
        panel asks about is then only the loose cells' further values."""
        base = narrowing(puzzle)
        found = cache.get(("loose", pid))
        if found is None or "cells" not in found:
            return base
        return [[values if len(values) == 1 else None if base is None else base[r][c]
                 for c, values in enumerate(row)] for r, row in enumerate(found["cells"])]

    def question(name: str, puzzle: Puzzle, seconds: float) -> dict:
        pid = write_id(puzzle)
        asked = {"panel": name, "puzzle": pid, "seconds": seconds}
        if name == "loose":
            asked["candidates"] = narrowing(puzzle)
        elif name == "values":
            asked["candidates"] = cover(puzzle, pid)
        return asked

    def complete(name: str, pid: str) -> dict | None:
        """A settled answer to ``name``, or the loose cells' when they came with every value (the values panel's)."""
        found = cache.get((name, pid))
        if found is None and name == "values":
            loose = cache.get(("loose", pid))
            if loose is not None and loose.get("complete"):
                return loose
        return found

    def settle(name: str, puzzle: Puzzle, asked: dict, answer: dict) -> None:
        """Complete a worker's answer, and cache it when it is settled (a budget-bound one may settle next time)."""
        if name in ("loose", "values"):
            answer["narrowed"] = asked["candidates"] is not None
        answer["id"] = asked["puzzle"]
        if answer.get("status") in ("unknown", "at least"):
            return
        cache[(name, asked["puzzle"])] = answer
        if name in ("loose", "values") and answer.get("complete") and "cells" in answer:
            known[asked["puzzle"]] = (puzzle.clues, answer["cells"])  # every value: a cover for more clues
        while len(cache) > CACHE_SIZE:
            gone, _ = cache.popitem(last=False)
            known.pop(gone[1], None)

    def settled(pid: str) -> bool:
        """Whether the page has both first answers of this grid: a proved unique or unsolvable verdict settles
        the loose cells too (the page stops asking for them)."""
        found = cache.get(("verdict", pid))
        return found is not None and (found["status"] in ("unique", "none") or ("loose", pid) in cache)

    def ask_ahead(name: str, puzzle: Puzzle) -> dict | None:
        pid = write_id(puzzle)
        if (name, pid) in cache or (name == "loose" and settled(pid)):
            return None
        return question(name, puzzle, max(AHEAD_SECONDS, budget))

    worker_ahead = Ahead(ask_ahead, settle) if ahead else None

    def looked_at(puzzle: Puzzle, pid: str) -> None:
        if worker_ahead is not None and settled(pid):
            worker_ahead.look_at(puzzle)

    def page(request: Request) -> Response:
        content, kind = pages[request.url.path]
        return Response(content, media_type=kind, headers={"Cache-Control": "no-cache"})

    def start(request: Request) -> Response:
        return JSONResponse({"puzzle": None if initial is None else _shape(initial), "budget": budget,
                             "panels": list(PANELS)})

    async def load(request: Request) -> Response:
        return JSONResponse(_shape(_puzzle(await _body(request), "text")))

    async def panel(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in PANELS:
            raise BadRequest(f"no panel {name!r}: the panels are {', '.join(PANELS)}")
        data = await _body(request)
        puzzle = _puzzle(data)
        client, seq = str(data.get("client", ""))[:64], data.get("seq", 0)
        if not isinstance(seq, int):
            raise BadRequest("seq must be a whole number")
        loop = asyncio.get_running_loop()
        started = loop.time()
        if not cancels.advance(client, seq):
            return JSONResponse({"status": "cancelled"})
        key = (name, write_id(puzzle))
        found = complete(name, key[1])
        if found is not None:
            if key in cache:
                cache.move_to_end(key)
            looked_at(puzzle, key[1])
            return JSONResponse({**found, "ms": round(1000 * (loop.time() - started), 1), "cached": True})
        asked = question(name, puzzle, budget)
        task = loop.create_task(pool.run(asked))
        cancels.track(client, seq, task)
        # the same question already worked on ahead: whichever of the two answers first (both are exact)
        shared = worker_ahead.pending(key) if worker_ahead is not None else None
        try:
            while not task.done():
                if shared is not None and shared.done():
                    if key in cache:
                        looked_at(puzzle, key[1])
                        return JSONResponse({**cache[key], "ms": round(1000 * (loop.time() - started), 1),
                                             "ahead": True})
                    shared = None  # ahead gave up on it (a newer grid, or its budget): this one goes on
                await asyncio.wait({task} if shared is None else {task, shared}, timeout=0.05)
                if not task.done() and await request.is_disconnected():
                    task.cancel()
                    return Response(status_code=499)
            if task.cancelled():
                return JSONResponse({"status": "cancelled"})
            answer = task.result()
        finally:
            task.cancel()
            cancels.end(client, seq, task)
        if "error" in answer:
            return JSONResponse(answer, status_code=400)
        settle(name, puzzle, asked, answer)
        looked_at(puzzle, key[1])
        return JSONResponse({**answer, "ms": round(1000 * (loop.time() - started), 1)})

    def ahead_state(request: Request) -> Response:
        """What the background is doing (read only, asks nothing): for tests, benchmarks and the curious."""
        if worker_ahead is None:
            return JSONResponse({"on": False})
        return JSONResponse({"on": True, "grid": worker_ahead.target, "left": len(worker_ahead.queue),
                             "idle": worker_ahead.idle, "answered": worker_ahead.answered,
                             "cpu": round(worker_ahead.cpu(), 3),
                             "pid": None if worker_ahead.worker is None else worker_ahead.worker.process.pid,
                             "pids": worker_ahead.pids()})

    async def export(request: Request) -> Response:
        fmt = request.path_params["fmt"]
        if fmt not in EXPORTS:
            raise BadRequest(f"no export {fmt!r}: choose one of {', '.join(EXPORTS)}")
        puzzle = _puzzle(await _body(request))
        if fmt in ("svg", "png"):
            from ..render import render_png, render_svg

            content: str | bytes = render_svg(puzzle) if fmt == "svg" else render_png(puzzle)
        else:
            content = write_puzzle(puzzle, fmt)
        return Response(content, media_type=EXPORTS[fmt])

    async def refused(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": str(exc)}, status_code=400)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool.top_up()
        try:
            yield
        finally:
            if worker_ahead is not None:
                await worker_ahead.close()
            await pool.close()

    routes = [Route(path, page) for path in PAGE_FILES]
    routes += [
        Route("/api/start", start),
        Route("/api/ahead", ahead_state),
        Route("/api/load", load, methods=["POST"]),
        Route("/api/panel/{name}", panel, methods=["POST"]),
        Route("/api/export/{fmt}", export, methods=["POST"]),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))],
        exception_handlers={FillominoError: refused, BadRequest: refused},
    )
    app.state.pool = pool
    app.state.ahead = worker_ahead
    return app
