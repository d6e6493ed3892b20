"""A real HTTP server on 127.0.0.1 that serves canned responses, for feed and import tests."""

from __future__ import annotations

import contextlib
import socketserver
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Route:
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering: a slow or hanging service


@dataclass
class CannedServer:
    routes: dict[str, Route] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)
    base_url: str = ""

    def serve(
        self,
        path: str,
        body: str | bytes,
        status: int = 200,
        content_type: str = "application/json",
        headers: dict[str, str] | None = None,
        delay: float = 0.0,
    ) -> str:
        raw = body.encode() if isinstance(body, str) else body
        self.routes[path] = Route(status, raw, content_type, headers or {}, delay)
        return self.base_url + path


@contextmanager
def canned_server() -> Iterator[CannedServer]:
    state = CannedServer()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.requests.append(self.path)
            route = state.routes.get(self.path, Route(404, b'{"error": "not found"}'))
            if route.delay:
                time.sleep(route.delay)
            self.send_response(route.status)
            self.send_header("Content-Type", route.content_type)
            for name, value in route.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(route.body)))
            self.end_headers()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(route.body)  # a client that timed out has gone

        def log_message(self, *_args: object) -> None:
            pass

    with served(ThreadingHTTPServer(("127.0.0.1", 0), Handler)) as state.base_url:
        yield state


@contextmanager
def served(server: socketserver.TCPServer) -> Iterator[str]:
    """``server``, bound on 127.0.0.1, answering from a thread until the block ends; its URL."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
