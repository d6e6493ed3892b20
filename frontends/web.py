"""The pool's HTTP server: the office scoreboard at ``/`` and Discord's interactions
endpoint, in the SSH server's event loop.

aiohttp serves on the same loop as asyncssh, so a slash command runs its pool
work exactly as an SSH session does (in the front end's worker threads). Bodies past
``MAX_BODY`` are refused before they are read whole, and a body that takes past its
deadline is refused too; an interaction is checked for Discord's signature before
its JSON is even parsed. Connections are capped and timed as ``frontends.http_site``
accepts them, and every response carries its hardening headers.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass

from aiohttp import web
from aiohttp.typedefs import Handler

from frontends.discord.interactions import Interactions
from frontends.discord.signature import SignatureError, Verifier
from frontends.http_limits import HttpLimits
from frontends.http_site import GuardedSite, harden
from frontends.scoreboard.live import Scoreboard

MAX_BODY = 64 * 1024  # Discord's interactions are a few KB
INTERACTIONS_PATH = "/discord/interactions"
log = logging.getLogger("betania.http")


@dataclass(frozen=True)
class DiscordEndpoint:
    verifier: Verifier
    interactions: Interactions


def web_app(
    discord: DiscordEndpoint | None = None,
    scoreboard: Scoreboard | None = None,
    limits: HttpLimits | None = None,
) -> web.Application:
    app = web.Application(client_max_size=MAX_BODY)
    app.on_response_prepare.append(_hardened)
    if scoreboard is not None:
        app.router.add_get("/", scoreboard.page)
        app.router.add_get("/events", scoreboard.events)

        async def end_streams(_app: web.Application) -> None:
            await scoreboard.close()  # open pages would hold the shutdown up

        app.on_shutdown.append(end_streams)
    if discord is not None:
        body_deadline = (limits or HttpLimits()).body
        app.router.add_post(INTERACTIONS_PATH, _interactions_handler(discord, body_deadline))
    return app


async def _hardened(_request: web.Request, response: web.StreamResponse) -> None:
    harden(response.headers)


def _interactions_handler(discord: DiscordEndpoint, body_deadline: float) -> Handler:
    async def handle(request: web.Request) -> web.StreamResponse:
        try:
            async with asyncio.timeout(body_deadline):
                body = await request.read()  # past MAX_BODY: 413, and nothing read past it
        except TimeoutError:
            slow = web.Response(status=408, text="request body too slow")
            slow.force_close()
            return slow
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
    site: GuardedSite

    @property
    def port(self) -> int:
        return self.site.port  # port 0 picks one

    async def close(self) -> None:
        await self.runner.cleanup()


BACKLOG = 1024  # connections waiting to be accepted: a burst past 128 would wait a second


async def start_web(
    app: web.Application, host: str, port: int, limits: HttpLimits | None = None
) -> WebServer:
    """Serve ``app`` on ``host``:``port`` within ``limits`` (by default: this process's,
    ``HttpLimits.for_this_process``)."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = GuardedSite(runner, host, port, limits or HttpLimits.for_this_process(), BACKLOG)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    return WebServer(runner, site)
