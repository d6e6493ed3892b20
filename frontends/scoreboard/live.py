"""The scoreboard kept current: read and rendered once per change, pushed to every screen.

The hub says when something a player would see happened (a goal, a result, a
kick-off, a remark); the board is then read and rendered once, in a worker
thread, and each open page gets it as a server-sent event. A screen that is
slow to read only ever has the newest board waiting, never a queue of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json

from aiohttp import web

from frontends.http_limits import Crowd, Ticket
from frontends.hub import Hub
from frontends.limits import Peer
from frontends.scoreboard.board import RaceCache, read_board
from frontends.scoreboard.page import PAGE_POLICY, render_board, render_page
from game.pool import Pool
from game.words import Words

HUB_KEY = "scoreboard"
REFRESH = 60.0  # seconds: the next kick-offs move on with the clock, events or not
SETTLE = 0.1  # seconds to gather a burst of events into one new board
KEEPALIVE = 15.0  # seconds between comments on a quiet stream, so proxies keep it open
STREAM_LIFETIME = 600.0  # seconds an /events stream lasts before the browser opens another
MOST_SCREENS = 100
# An office's screens behind one address: the rest of the 100 stay for other addresses.
MOST_SCREENS_PER_ADDRESS = 10
# Seconds a screen has to take an event: one that stops reading is let go, not waited on.
WRITE_DEADLINE = 30.0


class Scoreboard:
    def __init__(self, pool: Pool, hub: Hub, words: Words, title: str) -> None:
        self.pool = pool
        self.hub = hub
        self.words = words
        self.title = title
        self.board_html = ""
        self.page_html = ""
        self.screens: set[asyncio.Queue[str | None]] = set()
        self.watching = Crowd(MOST_SCREENS, MOST_SCREENS_PER_ADDRESS, 2 * MOST_SCREENS_PER_ADDRESS)
        self.races = RaceCache()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.refresh()
        self.hub.subscribe(HUB_KEY, lambda _notice: self._wake.set())
        self._task = asyncio.get_running_loop().create_task(self._follow())

    async def close(self) -> None:
        self.hub.unsubscribe(HUB_KEY)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for screen in list(self.screens):
            _replace(screen, None)  # each stream ends

    async def refresh(self) -> bool:
        """Read and render the board; True if it changed (and was pushed to every screen)."""
        board_html, page_html = await asyncio.to_thread(self._render)
        if board_html == self.board_html:
            return False
        self.board_html, self.page_html = board_html, page_html
        for screen in list(self.screens):
            _replace(screen, board_html)
        return True

    def _render(self) -> tuple[str, str]:
        board_html = render_board(read_board(self.pool, self.races), self.words, self.title)
        return board_html, render_page(board_html, self.words, self.title)

    async def _follow(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(REFRESH):
                    await self._wake.wait()
            await asyncio.sleep(SETTLE)
            self._wake.clear()
            await self.refresh()

    # -- HTTP -----------------------------------------------------------------

    async def page(self, _request: web.Request) -> web.Response:
        response = web.Response(text=self.page_html, content_type="text/html", charset="utf-8")
        response.headers["Content-Security-Policy"] = PAGE_POLICY
        return response

    async def events(self, request: web.Request) -> web.StreamResponse:
        ticket = self.watching.admit(Peer.of(request.remote or ""))
        if ticket is None:
            return web.Response(status=503, text="too many screens on this scoreboard")
        try:
            return await self._stream(request, ticket)
        finally:
            ticket.release()

    async def _stream(self, request: web.Request, ticket: Ticket) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",  # nginx: pass each event on at once
            }
        )
        await response.prepare(request)
        screen: asyncio.Queue[str | None] = asyncio.Queue(maxsize=1)
        screen.put_nowait(self.board_html)  # what changed between the page and this stream
        self.screens.add(screen)
        if request.transport is not None:  # a newcomer's room, when it must: ended at once
            ticket.close = request.transport.abort
        # A stream lives ``STREAM_LIFETIME`` seconds; the browser opens the next one by
        # itself ("retry"): no screen holds its place for good.
        ends = asyncio.get_running_loop().time() + STREAM_LIFETIME
        try:
            await _send(response, b"retry: 2000\n\n")
            while True:
                left = ends - asyncio.get_running_loop().time()
                if left <= 0:
                    break
                try:
                    async with asyncio.timeout(min(KEEPALIVE, left)):
                        board_html = await screen.get()
                except TimeoutError:
                    await _send(response, b": still here\n\n")
                    continue
                if board_html is None:
                    break
                data = json.dumps({"html": board_html}, ensure_ascii=False)
                await _send(response, f"event: board\ndata: {data}\n\n".encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass  # the screen went away
        except TimeoutError:  # it stopped reading: nothing more would reach it either
            if request.transport is not None:
                request.transport.abort()
        finally:
            self.screens.discard(screen)
        return response


async def _send(response: web.StreamResponse, data: bytes) -> None:
    async with asyncio.timeout(WRITE_DEADLINE):
        await response.write(data)


def _replace(screen: asyncio.Queue[str | None], board_html: str | None) -> None:
    """The newest board in ``screen``, in place of one it has not read yet."""
    with contextlib.suppress(asyncio.QueueEmpty):
        screen.get_nowait()
    screen.put_nowait(board_html)
