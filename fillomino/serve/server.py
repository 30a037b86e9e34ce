"""Run the workbench: bind the address, say where it is, serve until Ctrl-C (uvicorn)."""

from __future__ import annotations

import ipaddress
import socket
import sys

from ..puzzle import FillominoError, Puzzle

LOOPBACK = "127.0.0.1"


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: a free one), or a one-line error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise FillominoError(f"cannot listen on {host}:{port}: {exc.strerror or exc} (choose another --port)") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve(puzzle: Puzzle | None, *, host: str = LOOPBACK, port: int = 8000, budget: float = 10.0,
          warm: int = 4, ahead: bool = True) -> None:
    """Serve the workbench until interrupted; prints ``fillomino serve: http://HOST:PORT/`` once listening."""
    try:
        import starlette  # noqa: F401  (imported by the app; checked here for one clear message)
        import uvicorn
    except ImportError:
        raise FillominoError("fillomino serve needs Starlette and uvicorn: pip install 'fillomino[serve]'") from None
    from .app import LOOPBACK_HOSTS, create_app

    if not is_loopback(host):
        print(f"fillomino serve: warning: listening on {host}, so other machines can reach this workbench "
              "(it has no login)", file=sys.stderr)
    sock = bind(host, port)
    shown = sock.getsockname()[1]
    name = f"[{host}]" if ":" in host else host
    print(f"fillomino serve: http://{name}:{shown}/ (Ctrl-C to stop)", flush=True)
    hosts = LOOPBACK_HOSTS if is_loopback(host) else ("*",)
    config = uvicorn.Config(create_app(puzzle, budget=budget, warm=warm, hosts=hosts, ahead=ahead), log_level="warning",
                            lifespan="on",
                            timeout_graceful_shutdown=2)
    uvicorn.Server(config).run(sockets=[sock])
