"""The HTTP server's own accept loop: connections counted and capped as they are
accepted, and no spinning when the process runs out of file descriptors.

asyncio's loop (3.11, ``selector_events._accept_connection``) answers EMFILE by
logging "socket.accept() out of system resource" with a traceback and retrying at
once, up to the backlog's length in one go, each retry scheduling another; with a
full file table that is thousands of log records a second, and the file table
stays full. Here the listening sockets are read by this loop instead: past a cap
the new connection is answered 503 and closed before aiohttp sees it; out of file
descriptors, accepting stops for ``accept_pause`` seconds, with one log line a
minute at most, while the waiting connections stay in the kernel's backlog.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
from collections import Counter
from collections.abc import MutableMapping
from typing import Any, cast

from aiohttp import web
from aiohttp.web_request import BaseRequest

from frontends.http_limits import Crowd, HttpLimits, Ticket
from frontends.limits import Peer

log = logging.getLogger("betania.http")

ACCEPT_BATCH = 64  # connections taken per wake-up, so a burst leaves the loop to the rest
LINGER = 2.0  # seconds
TELL_EVERY = 60.0  # seconds between two log lines about the same trouble
TRANSIENT = (BlockingIOError, InterruptedError, ConnectionAbortedError)
OUT_OF_FILES = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 5\r\n"
    b"Content-Length: 0\r\n\r\n"
)

SERVER_NAME = "BETanIA"  # in place of aiohttp's banner with its and Python's versions
# Every response: no sniffing a type other than the one sent, never inside another
# site's frame, no address of the pool in links followed from it. A response that
# sets its own Content-Security-Policy (the scoreboard's page) keeps it.
HARDENING = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
}


def harden(headers: MutableMapping[str, str]) -> None:
    headers["Server"] = SERVER_NAME
    for name, value in HARDENING.items():
        headers.setdefault(name, value)


class CountedConnection(web.RequestHandler):
    """aiohttp's connection, giving its place back when it ends; a malformed request is
    answered 400 with one debug line instead of a logged traceback."""

    def __init__(self, manager: web.Server, ticket: Ticket, **options: Any) -> None:
        super().__init__(manager, **options)
        self.ticket = ticket

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.ticket.close = cast(asyncio.Transport, transport).abort  # room for another

    def connection_lost(self, exc: BaseException | None) -> None:
        self.ticket.release()
        super().connection_lost(exc)

    def handle_error(
        self,
        request: BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        if status == 400:  # the client's doing, and anyone can send garbage in a loop
            log.debug("malformed request from %s: %s", request.remote, message)
            response: web.StreamResponse = web.Response(status=400, text="400: Bad Request")
            response.force_close()
        else:
            response = super().handle_error(request, status, exc, message)
        harden(response.headers)  # aiohttp's hooks do not run for these
        return response


class GuardedSite(web.BaseSite):
    """Like aiohttp's TCPSite, with the connection caps and the pause of ``limits``."""

    def __init__(
        self, runner: web.BaseRunner, host: str, port: int, limits: HttpLimits, backlog: int
    ) -> None:
        super().__init__(runner, backlog=backlog)
        self.host, self.wanted_port, self.limits = host, port, limits
        self.connections = Crowd(limits.connections, limits.per_address, limits.per_prefix)
        self.listeners: list[socket.socket] = []
        self.refused = 0
        self.pauses = 0
        self._resume: asyncio.TimerHandle | None = None
        self._starting: set[asyncio.Task[None]] = set()
        self._told: dict[str, float] = {}
        self._untold: Counter[str] = Counter()

    @property
    def name(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def port(self) -> int:
        return int(self.listeners[0].getsockname()[1])

    async def start(self) -> None:
        await super().start()
        self.listeners = _listen(self.host, self.wanted_port, self._backlog)
        self._accepting(True)

    async def stop(self) -> None:
        self._accepting(False)
        if self._resume is not None:
            self._resume.cancel()
        for listener in self.listeners:
            listener.close()
        await super().stop()

    def _accepting(self, on: bool) -> None:
        loop = asyncio.get_running_loop()
        for listener in self.listeners:
            if on:
                loop.add_reader(listener.fileno(), self._accept, listener)
            else:
                loop.remove_reader(listener.fileno())

    def _accept(self, listener: socket.socket) -> None:
        for _ in range(ACCEPT_BATCH):
            try:
                connection, peer = listener.accept()
            except TRANSIENT:
                return
            except OSError as error:  # EMFILE and the like: retrying now cannot help
                self._pause(error)
                return
            self._admit(connection, str(peer[0]))

    def _pause(self, error: OSError) -> None:
        self.pauses += 1
        self._accepting(False)
        if self._resume is not None:  # another listener paused already: one resume for all
            self._resume.cancel()
        pause = self.limits.accept_pause
        self._resume = asyncio.get_running_loop().call_later(pause, self._accepting, True)
        trouble = "out of file descriptors" if error.errno in OUT_OF_FILES else "cannot accept"
        self._tell(f"HTTP {trouble} ({error.strerror}): not accepting for {pause:g} s at a time")

    def _admit(self, connection: socket.socket, host: str) -> None:
        connection.setblocking(False)
        ticket = self.connections.admit(Peer.of(host))
        if ticket is None:
            self.refused += 1
            with contextlib.suppress(OSError):
                connection.send(REFUSAL)
            connection.close()
            self._tell(
                f"HTTP refused connections past the limits ({self.limits.connections} open, "
                f"{self.limits.per_address} from one address, {self.limits.per_prefix} from "
                "one IPv6 /56)"
            )
            return
        task = asyncio.get_running_loop().create_task(self._serve(connection, ticket))
        self._starting.add(task)  # the loop keeps weak references to tasks only
        task.add_done_callback(self._starting.discard)

    async def _serve(self, connection: socket.socket, ticket: Ticket) -> None:
        loop = asyncio.get_running_loop()
        server = self._runner.server
        assert server is not None  # the runner is set up before any site starts
        limits = self.limits
        options: dict[str, Any] = {
            "loop": loop,
            "keepalive_timeout": limits.idle,
            "max_line_size": limits.max_line_size,
            "max_field_size": limits.max_field_size,
            "max_headers": limits.max_headers,
            "access_log": None,
            # After an answer to a request whose body was not read whole (too slow, too
            # big), aiohttp reads and drops the rest for this long before it closes, so
            # the client gets the answer rather than a reset: 10 s by default.
            "lingering_time": LINGER,
        }
        try:
            await loop.connect_accepted_socket(
                lambda: CountedConnection(server, ticket, **options), sock=connection
            )
        except BaseException:
            ticket.release()
            connection.close()
            raise

    def _tell(self, what: str) -> None:
        """``what`` in the log at most once every ``TELL_EVERY`` seconds, with its count."""
        self._untold[what] += 1
        now = asyncio.get_running_loop().time()
        if now - self._told.get(what, -TELL_EVERY) < TELL_EVERY:
            return
        self._told[what] = now
        log.warning("%s (%d times since the last such line)", what, self._untold.pop(what))


def _listen(host: str, port: int, backlog: int) -> list[socket.socket]:
    """Listening sockets on every address ``host`` stands for, as asyncio's create_server
    binds them ("" and "0.0.0.0" as usual)."""
    found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    listeners: list[socket.socket] = []
    try:
        for family, kind, proto, _name, address in dict.fromkeys(found):
            listener = socket.socket(family, kind, proto)
            listeners.append(listener)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            listener.bind(address)
            listener.listen(backlog)
            listener.setblocking(False)
    except OSError:
        for listener in listeners:
            listener.close()
        raise
    return listeners
