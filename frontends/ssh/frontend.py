"""What every SSH connection shares: the pool, the commands, the hub, who is connected."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from frontends.commands import Commands, Job, Reply
from frontends.hub import Hub
from frontends.limits import ConnectionLimits, Doorway, Limits
from frontends.notices import ALL_SESSIONS, Notice
from frontends.workers import Workers
from game.addressing import Addressee
from game.pool import Pool
from game.words import Words

# Within the database's connection pool (5 + 10 overflow), with room for the commentator.
READERS = 4
# SQLite has one writer at a time: more threads would only queue on its lock.
# PostgreSQL takes writers side by side (the log's append serialises only itself).
WRITERS = {"sqlite": 1, "postgresql": 4}
T = TypeVar("T")
log = logging.getLogger("betania.ssh")


class Session(Protocol):
    """What the front end needs of a session: who it is, and how to end it."""

    id: int
    handle: str | None

    def write(self, text: str) -> None: ...

    def exit(self, status: int) -> None: ...


class Door(Protocol):
    """A connection open as a player: the key it logged in with, and how to end it."""

    key: str  # the key's fingerprint

    def end(self, message: str) -> None: ...


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 2222
    open_registration: bool = False  # anyone may join with any key (casual pools)
    auto_register: bool = False  # with open registration: the SSH user name, no questions
    limits: Limits = field(default_factory=Limits)
    addressee: Addressee = field(default_factory=Addressee)  # who the commentator is
    # How long ``ssh host @betania ...`` waits for her answer before it says she is late.
    answer_wait: float = 30.0
    language: str = "en"  # of every line a player reads (``game.words``)
    host_key: Path | None = (
        None  # None: in the data folder; front ends behind one address share one
    )


class Frontend:
    """What every connection shares: the pool, the commands, the hub, who is connected.

    The event loop that serves every session never runs the database: every call
    goes to a worker thread, readers and writers apart (one writer on SQLite, which
    has one at a time), where a lock held elsewhere makes it wait up to the busy
    timeout and then answer "busy, try again", while every session goes on.
    """

    def __init__(self, pool: Pool, config: ServerConfig, hub: Hub | None = None) -> None:
        self.pool = pool
        self.config = config
        self.words = Words(config.language)
        self.commands = Commands(pool, config.addressee, self.words)
        self.hub = hub or Hub(pool, words=self.words)
        self.sessions: dict[int, Session] = {}
        self.doors: dict[str, list[Door]] = {}  # the connections open as each player
        self.connections: Counter[str] = Counter()  # players', per handle
        self.newcomers = 0  # connections of keys not registered yet, counted apart
        self.doorway = Doorway(
            config.limits.unauthenticated_total, config.limits.unauthenticated_per_address
        )
        self.player_limits: dict[str, ConnectionLimits] = {}
        self.readers = Workers(READERS, "pool-read")
        self.writers = Workers(WRITERS.get(pool.engine.dialect.name, 1), "pool-write")

    def limits_for(self, handle: str) -> ConnectionLimits:
        """One budget per player, whatever the number of connections, channels or modes."""
        if handle not in self.player_limits:
            self.player_limits[handle] = ConnectionLimits(self.config.limits)
        return self.player_limits[handle]

    async def read(self, work: Callable[[], T]) -> T:
        return await self.readers.run(work)

    async def write(self, work: Callable[[], T]) -> T:
        return await self.writers.run(work)

    async def perform(self, prepared: Reply | Job) -> Reply:
        if isinstance(prepared, Reply):
            return prepared
        return await (self.write if prepared.writes else self.read)(prepared.run)

    def connect(self, who: str) -> str | None:
        """Room for one more connection for ``who``? Otherwise the one line that says why not."""
        limits = self.config.limits
        if sum(self.connections.values()) >= limits.connections_total:
            return self.words(
                "the pool is full ({count} connections); try again later",
                count=limits.connections_total,
            )
        if self.connections[who] >= limits.connections_per_player:
            return self.words(
                "too many connections for {who} (at most {count})",
                who=who,
                count=limits.connections_per_player,
            )
        self.connections[who] += 1
        return None

    def disconnect(self, who: str) -> None:
        self.connections[who] -= 1
        if self.connections[who] <= 0:
            del self.connections[who]

    def connect_newcomer(self) -> str | None:
        """Room for one more unregistered key? Apart from the players' room, so that
        newcomers, or outsiders posing as them, never take a player's place."""
        limits = self.config.limits
        if self.newcomers >= limits.newcomers_total:
            return self.words(
                "too many newcomers are registering right now (at most {count}); try again in a minute",
                count=limits.newcomers_total,
            )
        self.newcomers += 1
        return None

    def newcomer_gone(self) -> None:
        """A newcomer's connection ended, or registered and became a player's."""
        self.newcomers -= 1

    async def close(self) -> None:
        """Tell every session the pool is closing, stop the hub and the workers."""
        for session in list(self.sessions.values()):
            session.write(self.words("the pool is closing for now; your picks are saved. bye!"))
            session.exit(0)
        await self.hub.stop()
        self.readers.close()
        self.writers.close()

    def admit(self, session: Session) -> str | None:
        """Room for one more session? Otherwise the one line that says why not."""
        limits = self.config.limits
        if len(self.sessions) >= limits.sessions_total:
            return self.words(
                "the pool is full ({count} sessions); try again later",
                count=limits.sessions_total,
            )
        mine = sum(1 for other in self.sessions.values() if other.handle == session.handle)
        if mine >= limits.sessions_per_player:
            return self.too_many_sessions(mine)
        self.sessions[session.id] = session
        return None

    def too_many_sessions(self, mine: int) -> str:
        """The one line for a session past ``sessions_per_player`` (``mine`` already open)."""
        template = (
            "you already have {mine} open session (at most {count})"
            if mine == 1
            else "you already have {mine} open sessions (at most {count})"
        )
        return self.words(template, mine=mine, count=self.config.limits.sessions_per_player)

    def opened(self, handle: str, door: Door) -> None:
        self.doors.setdefault(handle, []).append(door)

    def closed(self, handle: str, door: Door) -> None:
        held = self.doors.get(handle, [])
        if door in held:
            held.remove(door)
        if not held:
            self.doors.pop(handle, None)

    def let_go(self, notice: Notice) -> None:
        """A player an admin let go, or a key of theirs removed (from any process: the
        hub reads the log): the connections it opened end, each session told why."""
        if notice.ends is None or notice.for_player is None:
            return
        for door in list(self.doors.get(notice.for_player, [])):
            if notice.ends in (ALL_SESSIONS, door.key):
                try:
                    door.end(notice.text)
                except Exception:  # one connection's trouble must not end the letting go
                    log.exception("could not end a connection of %s", notice.for_player)

    def leave(self, session: Session) -> None:
        self.sessions.pop(session.id, None)
        self.hub.unsubscribe(session.id)

    def log_error(self, session: Session, error: Exception) -> None:
        log.error("session %s (%s) failed", session.id, session.handle, exc_info=error)
