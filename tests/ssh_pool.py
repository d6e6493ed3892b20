"""A real pool served over SSH on 127.0.0.1, and real SSH clients to play it."""

from __future__ import annotations

import asyncio
import contextlib
import re
import shutil
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bot.agent.gateway import remembering
from frontends.ssh.frontend import Frontend, ServerConfig
from frontends.ssh.library import asyncssh
from frontends.ssh.server import bound_port, start_server
from game.db.engine import open_database
from game.openfootball import Tournament
from game.pool import Pool
from tests.conftest import FakeClock, small_tournament
from tests.databases import database

if TYPE_CHECKING:
    from bot.agent.commentator import Commentator


@dataclass
class ServedPool:
    pool: Pool
    clock: FakeClock
    frontend: Frontend
    port: int
    data_dir: Path
    keys: dict[str, asyncssh.SSHKey] = field(default_factory=dict)

    def new_key(self) -> asyncssh.SSHKey:
        return asyncssh.generate_private_key("ssh-ed25519")

    def player(self, handle: str, admin: bool = False) -> asyncssh.SSHKey:
        key = self.new_key()
        self.pool.members.add(handle, is_admin=admin, keys=[key.export_public_key().decode()])
        self.keys[handle] = key
        return key

    def connect(
        self, username: str, key: asyncssh.SSHKey | None = None
    ) -> asyncssh.connection._ACMWrapper:
        return asyncssh.connect(
            "127.0.0.1",
            self.port,
            username=username,
            client_keys=[key or self.keys[username]],
            known_hosts=None,
            agent_path=None,
        )

    async def run(
        self, username: str, command: str, key: asyncssh.SSHKey | None = None
    ) -> asyncssh.SSHCompletedProcess:
        async with self.connect(username, key) as connection:
            return await connection.run(command)


@asynccontextmanager
async def served_pool(
    tmp_path: Path,
    config: ServerConfig | None = None,
    busy_timeout: float = 5.0,
    tournament: Tournament | None = None,
) -> AsyncIterator[ServedPool]:
    clock = FakeClock(small_tournament().fixtures[0].kickoff.replace(day=1))
    with database(tmp_path) as url:
        pool = Pool(open_database(url, busy_timeout), clock)
        pool.fixtures.import_tournament(tournament or small_tournament())
        acceptor, frontend = await start_server(pool, tmp_path, config or ServerConfig(port=0))
        frontend.hub.poll_interval = 0.05
        try:
            yield ServedPool(pool, clock, frontend, bound_port(acceptor), tmp_path)
        finally:
            await frontend.close()
            acceptor.close()
            await acceptor.wait_closed()
            pool.engine.dispose()


def offline_commentator(pool: Pool) -> Commentator:
    """Her on ``pool``, memory on, with the offline model: no key, no network."""
    from bot.agent.commentator import Commentator
    from bot.agent.providers.offline import OfflineModel

    keeper, gateway = remembering(pool, OfflineModel())
    keeper.enable()
    her = Commentator(keeper, gateway)
    her.start()
    return her


@asynccontextmanager
async def answering(commentator: Commentator) -> AsyncIterator[None]:
    """She runs as ``serve`` runs her: catching up in a worker thread, again and again."""

    async def catching_up() -> None:
        while True:
            await asyncio.to_thread(commentator.catch_up)
            await asyncio.sleep(0.1)

    running = asyncio.get_running_loop().create_task(catching_up())
    try:
        yield
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running


# A terminal control sequence: CSI (cursor moves, erase, show/hide cursor) or a
# two-byte escape. Screens are read with them taken out, because a prompt that
# redraws in several passes (a slow machine reads typed keys in bursts) puts
# "hide cursor" between the letters of a word it echoes.
CONTROL_SEQUENCE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]")


LOOKBACK = 4096  # characters of earlier output a needle may start in (redraws included)


def printed(screen: str) -> str:
    """What a terminal printed, without the control sequences between the letters."""
    return CONTROL_SEQUENCE.sub("", screen)


async def read_until(stream: asyncssh.SSHReader, needle: str, timeout: float = 10.0) -> str:
    """Everything read from ``stream`` up to and including ``needle`` (as printed)."""
    seen = ""
    async with asyncio.timeout(timeout):
        while chunk := await stream.read(4096):
            seen += chunk
            # Only the new text and what just came before it: a paste echoes a megabyte.
            if needle in printed(seen[-(len(chunk) + LOOKBACK) :]):
                break
    return seen


async def join_at_the_prompt(
    connection: asyncssh.SSHClientConnection, code: str, welcomed: str, handle: str = ""
) -> asyncssh.SSHClientProcess[str]:
    """A newcomer's session: the invite ``code`` typed at its question, then ``handle``
    (none: the SSH user name); returns the session, welcomed into the pool as ``welcomed``."""
    process = await connection.create_process()
    await read_until(process.stdout, "Invite code:")
    process.stdin.write(f"{code}\n")
    await read_until(process.stdout, "Handle")
    process.stdin.write(f"{handle}\n")
    await read_until(process.stdout, f"Welcome to the pool, {welcomed}!")
    return process


# The stock OpenSSH client, as a player runs it: a key of its own, no prompts.
needs_openssh = pytest.mark.skipif(
    shutil.which("ssh") is None, reason="needs the OpenSSH client; .ci/run installs it"
)


def openssh_identity(directory: Path) -> list[str]:
    """A new key made by ssh-keygen, and the client options that use it and only it."""
    key = directory / "id"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    return [
        "-i", str(key), "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "IdentitiesOnly=yes", "-o", "LogLevel=ERROR",
    ]  # fmt: skip
