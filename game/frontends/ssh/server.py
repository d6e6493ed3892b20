"""The SSH server: host key, public-key authentication, and the sessions it admits."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import asyncssh

from game.frontends.ssh.frontend import Frontend, ServerConfig
from game.frontends.ssh.session import PoolSession
from game.model import Player
from game.pool import Pool

HOST_KEY_FILE = "ssh_host_ed25519_key"
log = logging.getLogger("betania.ssh")


def host_key(path: Path) -> asyncssh.SSHKey:
    """The server's key at ``path``, made once and kept (mode 0600) so clients never see it
    change. Several front ends may share one path: the first to start makes the key, whole
    (written aside, then linked into place), and the others read that one."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        key = asyncssh.generate_private_key("ssh-ed25519")
        aside = path.with_name(f".{path.name}.{os.getpid()}")
        descriptor = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(key.export_private_key())
        try:
            os.link(aside, path)  # atomic, and refused if another front end was first
        except FileExistsError:
            pass
        finally:
            aside.unlink()
    return asyncssh.read_private_key(path)


class PoolSSHServer(asyncssh.SSHServer):
    """One connection: who is this key, and may it be this handle?"""

    def __init__(self, frontend: Frontend) -> None:
        self.frontend = frontend
        self.handle: str | None = None
        self.player: Player | None = None  # as the login found them: the first session's caller
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

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # asyncssh asks twice per key (the offer, then the signature): answer from memory.
        identity = key.export_public_key("openssh").decode()
        if (username, identity) not in self._verdicts:
            verdict = await self.frontend.read(lambda: self._validate(username, identity))
            self._verdicts[(username, identity)] = verdict
        return self._verdicts[(username, identity)]

    def _validate(self, username: str, identity: str) -> bool:
        holder = self.frontend.pool.members.key_holder(identity)
        if holder is not None:
            if holder.handle != username:
                return False  # a key never acts as another handle
            self.handle, self.player, self.newcomer_key = holder.handle, holder, None
            return True
        if self.frontend.pool.player(username) is not None:
            return False  # a taken handle needs one of its own keys; let the client try another
        self.newcomer_key = identity
        return True

    def session_requested(self) -> PoolSession:
        # The login's reading of the player serves the first session only: a later one
        # on this connection (multiplexed, maybe hours on) reads them afresh.
        known, self.player = self.player, None
        return PoolSession(self.frontend, self.handle, self.username, self.newcomer_key, known)


async def start_server(
    pool: Pool, data_dir: Path, config: ServerConfig
) -> tuple[asyncssh.SSHAcceptor, Frontend]:
    """Listen on ``config.host:config.port``; ``config.port`` 0 picks a free port."""
    frontend = Frontend(pool, config)
    acceptor = await asyncssh.create_server(
        lambda: PoolSSHServer(frontend),
        config.host,
        config.port,
        server_host_keys=[host_key(config.host_key or data_dir / HOST_KEY_FILE)],
        line_editor=False,
        encoding="utf-8",
        login_timeout=60,
        keepalive_interval=60,
    )
    frontend.hub.start()
    return acceptor, frontend


def bound_port(acceptor: asyncssh.SSHAcceptor) -> int:
    port: int = acceptor.sockets[0].getsockname()[1]
    return port
