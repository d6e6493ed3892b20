"""The SSH server: host key, public-key authentication, and the sessions it admits."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from game.service import Pool
from game.ssh.commands import Commands
from game.ssh.hub import Hub
from game.ssh.limits import Limits
from game.ssh.session import PoolSession

HOST_KEY_FILE = "ssh_host_ed25519_key"
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
    """What every connection shares: the pool, the commands, the hub, who is connected."""

    def __init__(self, pool: Pool, config: ServerConfig, hub: Hub | None = None) -> None:
        self.pool = pool
        self.config = config
        self.commands = Commands(pool, config.bot_handle)
        self.hub = hub or Hub(pool)
        self.sessions: dict[int, PoolSession] = {}

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
        owner = self.frontend.pool.key_owner(identity)
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
