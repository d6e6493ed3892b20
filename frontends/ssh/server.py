"""The SSH server: host key, public-key authentication, and the sessions it admits."""

from __future__ import annotations

import asyncio
import functools
import gc
import logging
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from frontends.notices import LET_GO
from frontends.ssh.frontend import Frontend, ServerConfig
from frontends.ssh.library import asyncssh
from frontends.ssh.metering import InputMeter
from frontends.ssh.session import PoolSession
from game.db.engine import private_directory
from game.errors import UserError
from game.model import Player
from game.pool import Pool
from game.pool.members import key_fingerprint

HOST_KEY_FILE = "ssh_host_ed25519_key"
LETTING_GO = "ssh-letting-go"  # the hub's subscriber that ends a removed player's connections
log = logging.getLogger("betania.ssh")


def host_key(path: Path) -> asyncssh.SSHKey:
    """The server's key at ``path``, made once and kept (mode 0600) so clients never see it
    change. Several front ends may share one path: the first to start makes the key, whole
    (written aside, then linked into place), and the others read that one."""
    if not path.exists():
        try:
            _make_host_key(path)
        except OSError as error:
            raise UserError(
                "cannot make the SSH host key {path} ({reason})", path=path, reason=error.strerror
            ) from None
    try:
        return asyncssh.read_private_key(path)
    except (asyncssh.KeyImportError, OSError, ValueError) as error:
        # --host-key naming the wrong file (a public key, a locked key, anything else).
        reason = getattr(error, "strerror", None) or str(error)
        raise UserError(
            "{path} is not a usable SSH host key ({reason}): give a private key without"
            " passphrase, or a path where none exists yet to have one made",
            path=path,
            reason=reason,
        ) from None


def _make_host_key(path: Path) -> None:
    private_directory(path.parent)  # one open to all would let anyone swap the key
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


@dataclass(frozen=True)
class Claim:
    """What a key offered under a user name makes the connection, should it sign."""

    username: str
    identity: str  # the key, as OpenSSH writes it
    player: Player | None  # the player it belongs to; None: a newcomer's, under a free name


class PoolSSHServer(asyncssh.SSHServer):
    """One connection: who is this key, and may it be this handle?

    Who the connection is gets decided in ``auth_completed``, from the key that signed.
    asyncssh asks ``validate_public_key`` both when a key is merely offered (anyone may
    offer anyone's public key: they are public) and when it comes signed. One request is
    in progress at a time (a new one cancels the last), and after the signed request's
    answer asyncssh checks the signature and, if it holds, calls ``auth_completed``
    without yielding to anything else (``_ServerPublicKeyAuth._start``): the claim
    answered last is the signer's. A new user name (``begin_auth``) starts from nothing.
    """

    def __init__(self, frontend: Frontend) -> None:
        self.frontend = frontend
        self.handle: str | None = None
        self.player: Player | None = None  # as the login found them: the first session's caller
        self.newcomer_key: str | None = None
        self.username = ""
        self._claims: dict[tuple[str, str], Claim | None] = {}
        self._answered: Claim | None = None  # the last claim validate_public_key answered
        self._conn: asyncssh.SSHServerConnection | None = None
        self._counted: str | None = None  # the handle whose connection this counts as
        self._newcomer = False  # counted among the newcomers
        self._deadline: asyncio.TimerHandle | None = None
        self._sessions: list[PoolSession] = []
        self.meter = InputMeter(frontend.config.limits)  # what its input may cost, all channels
        self.key = ""  # the fingerprint of the key it logged in with, once a player's
        self._checks: set[asyncio.Future[None]] = set()  # kept: the loop holds weak references

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername")
        self.frontend.doorway.arrive(self, str(peer[0]) if peer else "", self._give_way)

    def _give_way(self) -> None:
        """Too many connections on their way in: this one, the oldest, leaves."""
        if self._conn is not None:
            reason = self.frontend.words("too many logins at once; try again")
            self._conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, reason)

    def begin_auth(self, username: str) -> bool:
        self.frontend.doorway.ask(self)  # through the key exchange: spared before a flood
        # Nothing a key earned under another user name carries over to this one.
        self.username, self._claims, self._answered = username, {}, None
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Asked twice per key (the offer, then the signature): the database once.
        identity = key.export_public_key("openssh").decode()
        if (username, identity) not in self._claims:
            claim = await self.frontend.read(lambda: self._claim(username, identity))
            self._claims[(username, identity)] = claim
        self._answered = self._claims[(username, identity)]
        if self._answered is not None and self._answered.player is not None:
            # Most likely a player about to type her key's passphrase: spared in the doorway.
            self.frontend.doorway.vouch(self)
        return self._answered is not None

    def _claim(self, username: str, identity: str) -> Claim | None:
        """What ``identity`` may be under ``username``, or None; reads, decides nothing."""
        holder = self.frontend.pool.members.key_holder(identity)
        if holder is not None:
            # A key never acts as another handle.
            return Claim(username, identity, holder) if holder.handle == username else None
        if self.frontend.pool.player(username) is not None:
            return None  # a taken handle needs one of its own keys; let the client try another
        return Claim(username, identity, None)

    def auth_completed(self) -> None:
        assert self._conn is not None
        self.frontend.doorway.leave(self)
        claim, self._answered, self._claims = self._answered, None, {}
        if claim is None or claim.username != self._conn.get_extra_info("username"):
            # Only a signed public key completes a login here; anything else is refused.
            reason = self.frontend.words("who you are could not be told from your key")
            self._conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, reason)
            return
        if claim.player is None:
            refused = self.frontend.connect_newcomer()
        else:
            refused = self.frontend.connect(claim.player.handle)
        if refused is not None:
            self._conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, refused)
            return
        if claim.player is None:
            self._newcomer, self.newcomer_key = True, claim.identity
            deadline = self.frontend.config.limits.invite_deadline
            self._deadline = asyncio.get_running_loop().call_later(deadline, self._too_slow)
        else:
            self.handle, self.player = claim.player.handle, claim.player
            self._counted = claim.player.handle
        self.key = key_fingerprint(claim.identity)
        if self.handle is not None:
            self.frontend.opened(self.handle, self)
            # A removal that committed while this login was under way (the claim was
            # read when the key was first offered) reached no door: read the key again.
            check = asyncio.ensure_future(self._still_theirs(claim.identity, self.handle))
            self._checks.add(check)
            check.add_done_callback(self._checks.discard)

    async def _still_theirs(self, identity: str, handle: str) -> None:
        members = self.frontend.pool.members
        holder = await self.frontend.read(lambda: members.key_holder(identity))
        if holder is None or holder.handle != handle:
            self.end(self.frontend.words(LET_GO))

    def joined(self, handle: str) -> str | None:
        """The newcomer registered as ``handle``: from now on a player's connection, counted
        as theirs, or the one line that says why the pool has no room for it (then it stays
        a newcomer's, deadline and all)."""
        refused = self.frontend.connect(handle)
        if refused is not None:
            return refused
        self._stop_being_a_newcomer()
        self.handle, self.newcomer_key, self._counted = handle, None, handle
        self.frontend.opened(handle, self)
        return None

    def _stop_being_a_newcomer(self) -> None:
        if self._newcomer:
            self._newcomer = False
            self.frontend.newcomer_gone()
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        """Past the deadline and not registered: every session hears why, then the connection ends."""
        self._deadline = None
        message = self.frontend.words(
            "not registered within {seconds:g} seconds: bye! connect again with your invite code at hand",
            seconds=self.frontend.config.limits.invite_deadline,
        )
        self.end(message)

    def end(self, message: str) -> None:
        """Every session hears ``message``, then the connection ends (a newcomer too slow,
        a player an admin let go)."""
        for session in self._sessions:
            # On a terminal the cursor waits after the question: the line starts afresh.
            session.write(("\n" if session.channel.pty else "") + message, stderr=True)
            session.exit(1)
        if self._conn is not None:
            # Not DISC_BY_APPLICATION: some clients (asyncssh) drop that one's reason.
            self._conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, message)

    def connection_lost(self, _exc: Exception | None) -> None:
        self.frontend.doorway.leave(self)
        if self.handle is not None:
            self.frontend.closed(self.handle, self)
        self._stop_being_a_newcomer()
        if self._counted is not None:
            self.frontend.disconnect(self._counted)
            self._counted = None
        self._sessions.clear()

    def session_requested(self) -> PoolSession:
        # The login's reading of the player serves the first session only: a later one
        # on this connection (multiplexed, maybe hours on) reads them afresh.
        known, self.player = self.player, None
        if self.handle is None:
            # A newcomer's sessions wait at the invite question before the pool counts them
            # (``Frontend.admit``): as many as a player's, or they would be a flood of prompts.
            self._sessions = [s for s in self._sessions if not s.ended]
            if len(self._sessions) >= self.frontend.config.limits.sessions_per_player:
                refused = self.frontend.too_many_sessions(len(self._sessions))
                raise asyncssh.ChannelOpenError(asyncssh.OPEN_RESOURCE_SHORTAGE, refused)
        session = PoolSession(
            self.frontend,
            self.handle,
            self.username,
            self.newcomer_key,
            self.joined,
            known,
            self.meter,
        )
        self._sessions = [s for s in self._sessions if not s.ended]
        self._sessions.append(session)  # to be told why, if the connection is ended
        return session


async def start_server(
    pool: Pool, data_dir: Path, config: ServerConfig
) -> tuple[asyncssh.SSHAcceptor, Frontend]:
    """Listen on ``config.host:config.port``; ``config.port`` 0 picks a free port."""
    frontend = Frontend(pool, config)
    _settle_heap()
    acceptor = await asyncssh.create_server(
        lambda: PoolSSHServer(frontend),
        config.host,
        config.port,
        server_host_keys=[host_key(config.host_key or data_dir / HOST_KEY_FILE)],
        line_editor=False,
        encoding="utf-8",
        login_timeout=config.limits.login_timeout,
        keepalive_interval=60,
        # As many connections may wait in the kernel's queue as may be logging in at
        # once: a crowd at kick-off past the queue waits a second for its SYN again.
        backlog=config.limits.unauthenticated_total,
    )
    frontend.hub.subscribe(LETTING_GO, frontend.let_go)
    frontend.hub.start()
    frontend.commands.join = join_command(config.host, bound_port(acceptor))
    return acceptor, frontend


@functools.cache  # once a process: what a freeze holds is never collected, and tests start many
def _settle_heap() -> None:
    """What the process holds as its first server starts (the modules, the pool's
    statements and caches) lives as long as it: a full garbage collection need not walk
    it each time. Under 200 sessions at once a full one took some 45 ms of the loop,
    every 300 sessions or so, and each session waited for it."""
    gc.collect()  # what is garbage already is freed, not kept for good
    gc.freeze()


def join_command(host: str, port: int) -> str:
    """What a newcomer types to join (HANDLE: the name they want): the address the
    server listens on as players reach it (this machine's name when it listens on
    every address, localhost on the loopback)."""
    if host in ("127.0.0.1", "::1", "localhost"):
        shown = "localhost"
    elif host in ("0.0.0.0", "::", ""):
        shown = socket.getfqdn()
    else:
        shown = host
    return f"ssh -p {port} HANDLE@{shown}"


def bound_port(acceptor: asyncssh.SSHAcceptor) -> int:
    port: int = acceptor.sockets[0].getsockname()[1]
    return port
