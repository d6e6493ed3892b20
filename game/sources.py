"""Fetching a JSON document from a file or a URL, with the HTTP transport injectable.

What comes from a URL is the one input here an outsider may control (a fixtures
file on someone's server, a results feed), so it is bounded (``SourceLimits``):
its size counted after decompression, its nesting, its redirects, and its time,
each read and the whole exchange. A document past a bound is refused whole,
in one line, like any other unreadable answer.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import zlib
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any

import httpx

from game.errors import UserError

MiB = 1 << 20


@dataclass(frozen=True)
class SourceLimits:
    """What one document read by URL may cost.

    ``max_bytes``: 4 MiB after decompression. The largest real documents are a
    league season: about 100 KB from openfootball, about 410 KB from football-data
    v4 for 380 matches without goals (1.1 KB a match, measured on the test
    files), perhaps three times that with goals and bookings; 4 MiB leaves room
    for those three times over. The bound is about memory: 4 MiB of hostile
    JSON (``[[],[],...``) parses into about 100 MiB of Python objects.
    ``max_depth``: real fixtures and feeds nest 5 deep; 32 is far from both
    them and Python's recursion limit. ``read``: the longest silence between two
    reads; ``deadline``: the whole exchange, redirects included, however
    steadily a server drips.
    """

    max_bytes: int = 4 * MiB
    max_depth: int = 32
    max_redirects: int = 5
    connect: float = 10.0
    read: float = 20.0
    deadline: float = 60.0

    def timeout(self) -> httpx.Timeout:
        return httpx.Timeout(self.read, connect=self.connect)


LIMITS = SourceLimits()


class SourceError(UserError, RuntimeError):
    """The document could not be had or read; the message says which and why.

    ``retry_after``: the seconds the source asked us to wait (HTTP 429), if it did.
    """

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class NotJson(SourceError):
    """The document is text but not JSON."""


def is_url(location: str) -> bool:
    return location.startswith(("http://", "https://"))


def http_client(
    limits: SourceLimits = LIMITS,
    transport: httpx.BaseTransport | None = None,
    headers: dict[str, str] | None = None,
    follow_redirects: bool = True,
) -> httpx.Client:
    """A client for ``fetch``: the limits' timeouts and redirects, and a new connection
    for every request, so that the deadline always has a socket to cut (``_Deadline``)."""
    return httpx.Client(
        headers=headers,
        transport=transport,
        timeout=limits.timeout(),
        follow_redirects=follow_redirects,
        max_redirects=limits.max_redirects,
        limits=httpx.Limits(max_keepalive_connections=0),
    )


@dataclass(frozen=True)
class Body:
    """A document fetched whole, decompressed."""

    data: bytes
    content_type: str  # without its parameters
    charset: str

    def text(self, where: str) -> str:
        try:
            return self.data.decode(self.charset)
        except (UnicodeDecodeError, LookupError):
            raise SourceError(f"{where}: not {self.charset} text") from None


def read_text(
    location: str, transport: httpx.BaseTransport | None = None, limits: SourceLimits = LIMITS
) -> str:
    if is_url(location):
        with http_client(limits, transport) as client:
            return fetch(client, location, limits).text(location)
    try:
        return Path(location).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SourceError(f"{location}: {getattr(error, 'strerror', None) or error}") from None


# The World Cups that ship with the package (game/data, openfootball's files, CC0).
SHIPPED_CUPS = re.compile(r"(?:worldcup-)?(?P<year>2018|2022|2026)(?:\.json)?")


def shipped(location: str) -> Path | None:
    """The packaged file a name such as ``2026`` or ``worldcup-2022.json`` stands for,
    when no file of that name is here: ``betania replay 2026`` runs as written."""
    found = SHIPPED_CUPS.fullmatch(location)
    if found is None or Path(location).exists():
        return None
    return Path(__file__).resolve().parent / "data" / f"worldcup-{found['year']}.json"


def read_json(
    location: str, transport: httpx.BaseTransport | None = None, limits: SourceLimits = LIMITS
) -> Any:
    """The JSON document at ``location``: a URL, a file, or a World Cup shipped (``shipped``)."""
    location = str(shipped(location) or location)
    return parse_json(read_text(location, transport, limits), location, limits)


def fetch(
    client: httpx.Client,
    url: str,
    limits: SourceLimits = LIMITS,
    where: str | None = None,
    retry_after: Callable[[httpx.Response], float | None] | None = None,
) -> Body:
    """``url``'s body, within ``limits``; any failure is a ``SourceError`` naming ``where``.

    An answer that is not a success is refused with its status (and, through
    ``retry_after``, the wait it asked for).
    """
    where = where or url
    deadline = _Deadline(limits.deadline)
    try:
        with client.stream(
            "GET", url, headers={"Accept-Encoding": "gzip"}, extensions={"trace": deadline.trace}
        ) as response:
            if not response.is_success:
                wait = retry_after(response) if retry_after else None
                raise SourceError(f"{where}: HTTP {response.status_code}", retry_after=wait)
            data = _read_bounded(response, where, limits, deadline)
            kind = response.headers.get("content-type", "unknown").split(";")[0].strip()
            return Body(data, kind, response.charset_encoding or "utf-8")
    except httpx.TooManyRedirects:
        raise SourceError(f"{where}: more than {limits.max_redirects} redirects") from None
    except httpx.HTTPError as error:
        if deadline.expired:
            raise deadline.refusal(where) from None
        raise SourceError(f"{where}: {type(error).__name__}: {error}") from None
    finally:
        deadline.cancel()


def _read_bounded(
    response: httpx.Response, where: str, limits: SourceLimits, deadline: _Deadline
) -> bytes:
    """The body, decompressed here rather than by httpx, a step at a time: gzip inflates
    up to a thousand times, so a whole chunk inflated at once could be far past the cap
    before it was counted; here no step yields more than what is left of it."""
    cap = limits.max_bytes
    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    if encoding in ("", "identity"):
        inflater = None
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > cap:
            raise _too_big(where, cap)
    elif encoding in ("gzip", "x-gzip"):
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    else:
        raise SourceError(f"{where}: compressed as {encoding!r}, which was not asked for")
    body = bytearray()
    try:
        for chunk in response.iter_raw():
            if deadline.expired:
                raise deadline.refusal(where)
            while chunk:
                if inflater is None:
                    body += chunk[: cap + 1 - len(body)]
                    chunk = b""
                else:
                    body += inflater.decompress(chunk, cap + 1 - len(body))
                    if inflater.eof:  # another gzip member may follow
                        chunk = inflater.unused_data
                        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS) if chunk else inflater
                    else:
                        chunk = inflater.unconsumed_tail
                if len(body) > cap:
                    raise _too_big(where, cap)
    except zlib.error as error:
        raise SourceError(f"{where}: broken gzip ({error})") from None
    if inflater is not None and not inflater.eof:
        raise SourceError(f"{where}: the gzip answer ends early")
    return bytes(body)


def _too_big(where: str, cap: int) -> SourceError:
    size = f"{cap // MiB} MiB" if cap % MiB == 0 else f"{cap} bytes"
    return SourceError(f"{where}: more than {size} once decompressed; refused")


class _Deadline:
    """The whole exchange's time limit. httpx bounds each read, not their sum, so a
    server that sends a byte now and then, even in its headers, would hold the reader
    for ever: when the time is up, the sockets it opened are shut, which wakes a read
    that is waiting. The sockets come from httpcore's ``trace`` extension."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.expired = False
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        self.timer = threading.Timer(seconds, self._expire)
        self.timer.daemon = True
        self.timer.start()

    def trace(self, event: str, info: dict[str, Any]) -> None:
        if event in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            sock = info["return_value"].get_extra_info("socket")
            if isinstance(sock, socket.socket):
                with self.lock:
                    self.sockets.append(sock)
                    if self.expired:
                        _shut(sock)

    def _expire(self) -> None:
        with self.lock:
            self.expired = True
            for sock in self.sockets:
                _shut(sock)

    def cancel(self) -> None:
        self.timer.cancel()

    def refusal(self, where: str) -> SourceError:
        return SourceError(f"{where}: no whole answer within {self.seconds:g} s")


def _shut(sock: socket.socket) -> None:
    with suppress(OSError):  # already closed, or never connected
        sock.shutdown(socket.SHUT_RDWR)


# A JSON string, even one left open, matched without backtracking (possessive), so
# that no input makes the scan slower than linear.
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def nesting(text: str) -> int:
    """How deep ``text``'s arrays and objects go, brackets inside strings aside; counted
    without recursion, before ``json.loads`` (which recurses) ever sees it."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def parse_json(text: str, where: str, limits: SourceLimits = LIMITS) -> Any:
    """``text`` as JSON; too deep, or not JSON, is a one-line ``SourceError``."""
    if nesting(text) > limits.max_depth:
        raise SourceError(f"{where}: nested deeper than {limits.max_depth} levels; refused")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise NotJson(f"{where}: not valid JSON ({error.msg} at line {error.lineno})") from None
    except ValueError as error:  # a number past Python's 4,300 digits
        raise NotJson(f"{where}: not valid JSON ({error})") from None
