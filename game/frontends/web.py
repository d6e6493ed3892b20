"""The pool's HTTP server: the office scoreboard at ``/`` and Discord's interactions
endpoint, in the SSH server's event loop.

aiohttp serves on the same loop as asyncssh, so a slash command runs its pool
work exactly as an SSH session does (in the front end's worker threads). Bodies past
``MAX_BODY`` are refused before they are read whole; an interaction is checked
for Discord's signature before its JSON is even parsed.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from aiohttp import web
from aiohttp.typedefs import Handler

from game.frontends.discord.interactions import Interactions
from game.frontends.discord.signature import SignatureError, Verifier
from game.frontends.scoreboard.live import Scoreboard

MAX_BODY = 64 * 1024  # Discord's interactions are a few KB
INTERACTIONS_PATH = "/discord/interactions"
log = logging.getLogger("betania.http")


@dataclass(frozen=True)
class DiscordEndpoint:
    verifier: Verifier
    interactions: Interactions


def web_app(
    discord: DiscordEndpoint | None = None, scoreboard: Scoreboard | None = None
) -> web.Application:
    app = web.Application(client_max_size=MAX_BODY)
    if scoreboard is not None:
        app.router.add_get("/", scoreboard.page)
        app.router.add_get("/events", scoreboard.events)

        async def end_streams(_app: web.Application) -> None:
            await scoreboard.close()  # open pages would hold the shutdown up

        app.on_shutdown.append(end_streams)
    if discord is not None:
        app.router.add_post(INTERACTIONS_PATH, _interactions_handler(discord))
    return app


def _interactions_handler(discord: DiscordEndpoint) -> Handler:
    async def handle(request: web.Request) -> web.StreamResponse:
        body = await request.read()  # past MAX_BODY: 413, and nothing read past it
        try:
            await discord.verifier.check(request.headers, body)
        except SignatureError as error:
            log.info("refused an interaction: %s", error)
            return web.Response(status=401, text="invalid request signature")
        try:
            payload = json.loads(body)
        except (ValueError, RecursionError):  # RecursionError: nested past Python's depth
            return web.Response(status=400, text="malformed JSON")
        return web.json_response(await discord.interactions.respond(payload))

    return handle


@dataclass
class WebServer:
    runner: web.AppRunner
    site: web.TCPSite

    @property
    def port(self) -> int:
        server = self.site._server  # aiohttp keeps the bound socket here; port 0 picks one
        sockets = getattr(server, "sockets", None) or []
        return int(sockets[0].getsockname()[1])

    async def close(self) -> None:
        await self.runner.cleanup()


BACKLOG = 1024  # connections waiting to be accepted: a burst past 128 would wait a second


async def start_web(app: web.Application, host: str, port: int) -> WebServer:
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port, backlog=BACKLOG)
    await site.start()
    return WebServer(runner, site)
