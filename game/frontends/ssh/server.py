"""The SSH server: host key, public-key authentication, and the sessions it admits."""

from __future__ import annotations

import logging
import os
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import asyncssh

from game.frontends.commands import Commands, Job, Reply
from game.frontends.hub import Hub
from game.frontends.limits import ConnectionLimits, Limits
from game.frontends.ssh.session import PoolSession
from game.frontends.waiting import promptly
from game.pool import Pool

HOST_KEY_FILE = "ssh_host_ed25519_key"
# Within the database's connection pool (5 + 10 overflow), with room for the commentator.
READERS = 4
WRITERS = 1  # SQLite has one writer at a time: more threads would only queue on its lock
T = TypeVar("T")
log = logging.getLogger("betania.ssh")


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 2222
    open_registration: bool = False  # anyone may join with any key (casual pools)
    auto_register: bool = False  # with open registration: the SSH user name, no questions
    limits: Limits = field(default_factory=Limits)
    bot_handle: str = "betania"


def host_key(data_dir: Path) -> asyncssh.SSHKey:
    """The server's key, made once and kept (mode 0600) so clients never see it change."""
    path = data_dir / HOST_KEY_FILE
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        key = asyncssh.generate_private_key("ssh-ed25519")
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(key.export_private_key())
    return asyncssh.read_private_key(path)


class Frontend:
    """What every connection shares: the pool, the commands, the hub, who is connected.

    The event loop that serves every session never waits on the database: the
    pool's work runs here only as long as no lock is in the way (SQLite in WAL
    mode: almost always, in about a millisecond), and an attempt that meets a
    lock held elsewhere runs again in a worker thread, readers and writers apart,
    where it waits up to the busy timeout and then answers "busy, try again".
    A thread for every call was measured: the handoffs cost more than the work.
    """

    def __init__(self, pool: Pool, config: ServerConfig, hub: Hub | None = None) -> None:
        self.pool = pool
        self.config = config
        self.commands = Commands(pool, config.bot_handle)
        self.hub = hub or Hub(pool)
        self.sessions: dict[int, PoolSession] = {}
        self.connections: Counter[str] = Counter()  # per handle (or SSH user name, for newcomers)
        self.player_limits: dict[str, ConnectionLimits] = {}
        self.readers = ThreadPoolExecutor(READERS, thread_name_prefix="pool-read")
        self.writers = ThreadPoolExecutor(WRITERS, thread_name_prefix="pool-write")

    def limits_for(self, handle: str) -> ConnectionLimits:
        """One budget per player, whatever the number of connections, channels or modes."""
        if handle not in self.player_limits:
            self.player_limits[handle] = ConnectionLimits(self.config.limits)
        return self.player_limits[handle]

    async def read(self, work: Callable[[], T]) -> T:
        return await promptly(work, self.readers)

    async def write(self, work: Callable[[], T]) -> T:
        return await promptly(work, self.writers)

    async def perform(self, prepared: Reply | Job) -> Reply:
        if isinstance(prepared, Reply):
            return prepared
        return await (self.write if prepared.writes else self.read)(prepared.run)

    def connect(self, who: str) -> str | None:
        """Room for one more connection for ``who``? Otherwise the one line that says why not."""
        limits = self.config.limits
        if sum(self.connections.values()) >= limits.connections_total:
            return f"the pool is full ({limits.connections_total} connections); try again later"
        if self.connections[who] >= limits.connections_per_player:
            return f"too many connections for {who} (at most {limits.connections_per_player})"
        self.connections[who] += 1
        return None

    def disconnect(self, who: str) -> None:
        self.connections[who] -= 1
        if self.connections[who] <= 0:
            del self.connections[who]

    async def close(self) -> None:
        """Tell every session the pool is closing, stop the hub and the workers."""
        for session in list(self.sessions.values()):
            session.write("the pool is closing for now; your picks are saved. bye!")
            session.exit(0)
        await self.hub.stop()
        self.readers.shutdown(wait=True, cancel_futures=True)
        self.writers.shutdown(wait=True, cancel_futures=True)

    def admit(self, session: PoolSession) -> str | None:
        """Room for one more session? Otherwise the one line that says why not."""
        limits = self.config.limits
        if len(self.sessions) >= limits.sessions_total:
            return f"the pool is full ({limits.sessions_total} sessions); try again later"
        mine = sum(1 for other in self.sessions.values() if other.handle == session.handle)
        if mine >= limits.sessions_per_player:
            plural = "s" if mine != 1 else ""
            return f"you already have {mine} open session{plural} (at most {limits.sessions_per_player})"
        self.sessions[session.id] = session
        return None

    def leave(self, session: PoolSession) -> None:
        self.sessions.pop(session.id, None)
        self.hub.unsubscribe(session.id)

    def log_error(self, session: PoolSession, error: Exception) -> None:
        log.error("session %s (%s) failed", session.id, session.handle, exc_info=error)


class PoolSSHServer(asyncssh.SSHServer):
    """One connection: who is this key, and may it be this handle?"""

    def __init__(self, frontend: Frontend) -> None:
        self.frontend = frontend
        self.handle: str | None = None
        self.newcomer_key: str | None = None
        self.username = ""
        self._verdicts: dict[tuple[str, str], bool] = {}
        self._conn: asyncssh.SSHServerConnection | None = None
        self._counted: str | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn

    def auth_completed(self) -> None:
        who = self.handle or self.username
        refused = self.frontend.connect(who)
        if refused is not None and self._conn is not None:
            self._conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, refused)
            return
        self._counted = who

    def connection_lost(self, _exc: Exception | None) -> None:
        if self._counted is not None:
            self.frontend.disconnect(self._counted)
            self._counted = None

    def begin_auth(self, username: str) -> bool:
        self.username = username
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # asyncssh asks twice per key (the offer, then the signature): answer from memory.
        identity = key.export_public_key("openssh").decode()
        if (username, identity) not in self._verdicts:
            self._verdicts[(username, identity)] = self._validate(username, identity)
        return self._verdicts[(username, identity)]

    def _validate(self, username: str, identity: str) -> bool:
        owner = self.frontend.pool.members.key_owner(identity)
        if owner is not None:
            if owner != username:
                return False  # a key never acts as another handle
            self.handle, self.newcomer_key = owner, None
            return True
        if self.frontend.pool.player(username) is not None:
            return False  # a taken handle needs one of its own keys; let the client try another
        self.newcomer_key = identity
        return True

    def session_requested(self) -> PoolSession:
        return PoolSession(self.frontend, self.handle, self.username, self.newcomer_key)


async def start_server(
    pool: Pool, data_dir: Path, config: ServerConfig
) -> tuple[asyncssh.SSHAcceptor, Frontend]:
    """Listen on ``config.host:config.port``; ``config.port`` 0 picks a free port."""
    frontend = Frontend(pool, config)
    acceptor = await asyncssh.create_server(
        lambda: PoolSSHServer(frontend),
        config.host,
        config.port,
        server_host_keys=[host_key(data_dir)],
        line_editor=False,
        encoding="utf-8",
        login_timeout=60,
        keepalive_interval=60,
    )
    frontend.hub.start()
    return acceptor, frontend


def bound_port(acceptor: asyncssh.SSHAcceptor) -> int:
    return acceptor.sockets[0].getsockname()[1]
