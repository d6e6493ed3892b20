"""The wiring of the application: pool, commentator, SSH server, the HTTP server and
the Discord companion, clock jobs, and the clean stop.

``betania serve`` and ``betania demo`` build her and the servers here, so what a
player meets in the demo is what a real pool runs; the demo drives her with
its own loop on an accelerated clock (``bot/app/demo.py``), serve with the
scheduler's jobs (``bot/agent/scheduler.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, timedelta, tzinfo
from pathlib import Path
from typing import IO

from bot.agent.commentator import Commentator, Policy
from bot.agent.gateway import remembering
from bot.agent.providers.offline import OfflineModel
from bot.app.config import ModelConfig, make_model
from bot.app.settings import DiscordSettings
from frontends.discord.api import DiscordApi
from frontends.discord.interactions import Interactions
from frontends.discord.poster import WebhookPoster
from frontends.discord.signature import SeenSignatures, Verifier
from frontends.notices import Notices
from frontends.scoreboard.live import Scoreboard
from frontends.ssh.frontend import Frontend, ServerConfig
from frontends.ssh.library import asyncssh
from frontends.ssh.server import bound_port, join_command, start_server
from frontends.web import DiscordEndpoint, WebServer, start_web, web_app
from game.addressing import Addressee
from game.errors import UserError
from game.model import Match
from game.pool import Pool
from memory.keeper import MemoryConfig
from memory.usage import UsageMeter


class StartError(UserError, RuntimeError):
    """The application could not start; the message says why in one line."""


def commentator_for(
    pool: Pool,
    config: ModelConfig,
    addressee: Addressee | None = None,
    keep_calls: timedelta | None = None,
    zone: tzinfo = UTC,
    policy: Policy | None = None,
    earlier_season: Sequence[Match] = (),
) -> Commentator:
    """Her, wired to this pool: the model, memory switched on, every call recorded, her
    "today" and her digest hour in the pool's ``zone``."""
    meter = UsageMeter()
    model = make_model(config, meter.report)
    memory = MemoryConfig(
        learn_from_chat=config.chosen() != "offline",
        model_hears=config.model_hears(),
        declares_claims=config.declares_claims(),
        addressee=addressee or Addressee(),
        keep_calls=keep_calls,
        language=config.language,
        zone=zone,
    )
    keeper, gateway = remembering(
        pool, model, memory, fallback=OfflineModel(config.seed, config.language), meter=meter
    )
    keeper.enable()
    her = Commentator(keeper, gateway, policy, earlier_season)
    her.start()
    return her


@dataclass
class Running:
    acceptor: asyncssh.SSHAcceptor
    frontend: Frontend
    holds: IO[str] | None = None  # a lock on the data dir, let go at close (the demo's)

    @property
    def port(self) -> int:
        return bound_port(self.acceptor)

    def join_command(self, host: str) -> str:
        return join_command(host, self.port)

    async def close(self) -> None:
        await self.frontend.close()
        self.acceptor.close()
        await self.acceptor.wait_closed()
        if self.holds is not None:
            self.holds.close()


def cannot_listen(host: str, port: int, error: OSError) -> StartError:
    why = os.strerror(error.errno) if error.errno else str(error)  # no wrapper's wording
    return StartError(f"cannot listen on {host}:{port}: {why}")


def check_free(host: str, ports: Sequence[int]) -> None:
    """Each port can be listened on now, or the StartError that listening would raise:
    asked before a command touches a file, so that failing to listen changes nothing.
    Port 0 is always free (the system picks one)."""
    for port in ports:
        if port:
            try:
                socket.create_server((host, port)).close()
            except OSError as error:
                raise cannot_listen(host, port, error) from None


async def open_server(pool: Pool, data_dir: Path, config: ServerConfig) -> Running:
    try:
        acceptor, frontend = await start_server(pool, data_dir, config)
    except OSError as error:
        raise cannot_listen(config.host, config.port, error) from None
    return Running(acceptor, frontend)


POSTER_KEY = "discord poster"  # among the hub's subscribers (sessions are numbers)


@dataclass
class Companion:
    """The HTTP server (the scoreboard, Discord's interactions) and the webhook poster,
    beside the SSH server."""

    api: DiscordApi
    web: WebServer | None = None
    scoreboard: Scoreboard | None = None
    interactions: Interactions | None = None
    poster: WebhookPoster | None = None
    posting: asyncio.Task[None] | None = None

    def start_posting(self, frontend: Frontend) -> None:
        """Post to the channel from here on: only where the commentator runs (one voice)."""
        poster = self.poster
        if poster is None or self.posting is not None:
            return
        frontend.hub.subscribe(POSTER_KEY, lambda _notice: poster.wake())
        self.posting = asyncio.get_running_loop().create_task(poster.run())

    async def close(self) -> None:
        if self.poster is not None and self.posting is not None:
            await self.poster.stop()
            self.posting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.posting
        if self.interactions is not None:
            await self.interactions.close()
        if self.web is not None:
            await self.web.close()  # the scoreboard's streams end with it
        await self.api.close()


async def open_companion(
    running: Running, discord: DiscordSettings, host: str, http_port: int | None
) -> Companion:
    """The HTTP server on ``http_port`` (None: none): the scoreboard, and Discord's endpoint
    when configured."""
    frontend = running.frontend
    companion = Companion(DiscordApi(discord.api_url, discord.bot_token))
    if discord.webhook_url:
        notices = Notices(frontend.pool, frontend.words)
        companion.poster = WebhookPoster(frontend.pool, companion.api, discord.webhook_url, notices)
    if http_port is None:
        return companion
    endpoint = None
    if discord.public_key and discord.application_id:
        try:
            verifier = Verifier(discord.public_key, SeenSignatures(frontend.pool.engine))
        except ValueError as error:
            raise StartError(str(error)) from None
        companion.interactions = Interactions(
            frontend, companion.api, discord.application_id, frontend.config.addressee
        )
        endpoint = DiscordEndpoint(verifier, companion.interactions)
    title = frontend.config.addressee.name
    companion.scoreboard = Scoreboard(frontend.pool, frontend.hub, frontend.words, title)
    await companion.scoreboard.start()
    try:
        companion.web = await start_web(web_app(endpoint, companion.scoreboard), host, http_port)
    except OSError as error:
        await companion.scoreboard.close()
        await companion.api.close()
        raise StartError(
            f"cannot listen on {host}:{http_port}: {error.strerror or error}"
        ) from None
    return companion


async def in_worker(work: Callable[[], object]) -> object:
    """Model calls off the event loop: SSH sessions never wait on her."""
    return await asyncio.to_thread(work)


async def until_stopped() -> str:
    """Wait for SIGTERM or SIGINT (Ctrl-C); returns the signal's name.

    Handled on the event loop, so whoever waits shuts down in order: sessions
    told, scheduler stopped, database closed, exit 0.
    """
    loop = asyncio.get_running_loop()
    received: asyncio.Future[str] = loop.create_future()
    signals = (signal.SIGTERM, signal.SIGINT)

    def receive(signum: signal.Signals) -> None:
        if not received.done():
            received.set_result(signum.name)

    for signum in signals:
        loop.add_signal_handler(signum, receive, signum)
    try:
        return await received
    finally:
        for signum in signals:
            loop.remove_signal_handler(signum)
