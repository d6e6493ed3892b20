"""``betania serve`` as a real process on a pool prepared here, and a player's SSH key for it."""

from __future__ import annotations

import asyncio
import os
import re
import resource
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext
from pathlib import Path
from typing import Any

from frontends.ssh.library import asyncssh
from game.db.engine import open_database
from game.openfootball import parse_tournament
from game.pool import Pool

# A cup far enough ahead that the real clock of a real server lets everyone bet.
FUTURE_CUP: dict[str, Any] = {
    "name": "Future Cup",
    "matches": [
        {"num": 1, "round": "Matchday 1", "date": "2040-06-11", "time": "18:00 UTC+0",
         "team1": "Brazil", "team2": "Serbia"},
    ],
}  # fmt: skip


def prepare_pool(url: str, fixtures: dict[str, Any], handle: str) -> asyncssh.SSHKey:
    """A pool at ``url`` with the fixtures and one player; returns the player's key."""
    return prepare_players(url, fixtures, [handle])[handle]


def prepare_players(
    url: str, fixtures: dict[str, Any], handles: list[str]
) -> dict[str, asyncssh.SSHKey]:
    """A pool at ``url`` with the fixtures and these players; returns each one's key."""
    keys = {handle: asyncssh.generate_private_key("ssh-ed25519") for handle in handles}
    pool = Pool(open_database(url))
    pool.fixtures.import_tournament(parse_tournament(fixtures))
    for handle, key in keys.items():
        pool.members.add(handle, keys=[key.export_public_key().decode()])
    pool.engine.dispose()
    return keys


@asynccontextmanager
async def serving(
    data: Path,
    url: str,
    *options: str,
    env: dict[str, str] | None = None,
    open_files: int | None = None,
    log: Path | None = None,
    before: list[str] | None = None,
) -> AsyncIterator[tuple[asyncio.subprocess.Process, int]]:
    """The server process on the pool at ``url`` (its host key in ``data``) and the port
    it listens on; killed at the end if still running. ``open_files``: its limit of open
    files (RLIMIT_NOFILE), lowered as a small server's would be. ``log``: a file for its
    log (stderr), kept apart from what it prints, so that no line of either is lost
    (else the log comes on stdout too). ``before``: gets what it printed before its banner."""

    def limit_files() -> None:
        if open_files is not None:
            _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, hard))

    with log.open("wb") if log is not None else nullcontext() as log_file:
        server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.app.cli", "serve", "--port", "0", "--provider", "offline",
            *options, "--data-dir", str(data),
            stdout=asyncio.subprocess.PIPE, stderr=log_file or asyncio.subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "BETANIA_DB": url, **(env or {})},
            preexec_fn=limit_files,
        )  # fmt: skip
    assert server.stdout is not None
    try:
        yield server, await banner_port(server.stdout, before)
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()


# How ``serve`` says it is ready: read by its form, wherever it comes in the output.
BANNER = re.compile(r"^BETanIA pool listening on \S+:(\d+) ")


async def banner_port(stdout: asyncio.StreamReader, before: list[str] | None = None) -> int:
    """The port in the server's banner; the lines printed before it go to ``before``."""
    async with asyncio.timeout(30):
        while not (found := BANNER.match(line := (await stdout.readline()).decode())):
            assert line, f"the server ended before its banner, after: {before}"
            if before is not None:
                before.append(line)
    return int(found.group(1))


async def line_with(stream: asyncio.StreamReader, needle: str, timeout: float = 30.0) -> str:
    """The first line of ``stream`` (a server's output) that holds ``needle``."""
    async with asyncio.timeout(timeout):
        while True:
            line = (await stream.readline()).decode()
            assert line, f"the server ended before saying {needle!r}"
            if needle in line:
                return line


def connect(port: int, handle: str, key: asyncssh.SSHKey) -> asyncssh.connection._ACMWrapper:
    return asyncssh.connect(
        "127.0.0.1", port, username=handle, client_keys=[key], known_hosts=None, agent_path=None
    )
