"""The one place that wires the application: pool, commentator, SSH server, clock jobs.

``betania serve`` and ``betania demo`` both start here, so what a player meets
in the demo is what a real pool runs.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import asyncssh

from bot.agent.commentator import Commentator
from bot.app.config import ModelConfig, make_model
from game.addressing import Addressee
from game.errors import UserError
from game.frontends.ssh.frontend import Frontend, ServerConfig
from game.frontends.ssh.server import bound_port, start_server
from game.pool import Pool
from memory.keeper import MemoryConfig, MemoryKeeper
from memory.offline import OfflineModel
from memory.usage import UsageMeter


class StartError(UserError, RuntimeError):
    """The application could not start; the message says why in one line."""


def commentator_for(
    pool: Pool,
    config: ModelConfig,
    addressee: Addressee | None = None,
    keep_calls: timedelta | None = None,
) -> Commentator:
    """Her, wired to this pool: the model, memory switched on, every call recorded."""
    meter = UsageMeter()
    model = make_model(config, meter.report)
    memory = MemoryConfig(
        learn_from_chat=config.chosen() != "offline",
        addressee=addressee or Addressee(),
        keep_calls=keep_calls,
        language=config.language,
    )
    keeper = MemoryKeeper(
        pool, model, memory, fallback=OfflineModel(config.seed, config.language), meter=meter
    )
    keeper.enable()
    return Commentator(keeper)


@dataclass
class Running:
    acceptor: asyncssh.SSHAcceptor
    frontend: Frontend

    @property
    def port(self) -> int:
        return bound_port(self.acceptor)

    def join_command(self, host: str) -> str:
        shown = "localhost" if host in ("127.0.0.1", "::1", "0.0.0.0", "") else host
        return f"ssh -p {self.port} HANDLE@{shown}"

    async def close(self) -> None:
        await self.frontend.close()
        self.acceptor.close()
        await self.acceptor.wait_closed()


async def open_server(pool: Pool, data_dir: Path, config: ServerConfig) -> Running:
    try:
        acceptor, frontend = await start_server(pool, data_dir, config)
    except OSError as error:
        raise StartError(
            f"cannot listen on {config.host}:{config.port}: {error.strerror or error}"
        ) from None
    return Running(acceptor, frontend)


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
