"""The unit of work every desk of the pool shares, and the lookups they all need."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TypeVar

from sqlalchemy import Connection, Engine, Update, insert, select, update

from game.db import log, views
from game.db.engine import for_reads
from game.db.schema import (
    matches,
    players,
    settings,
)
from game.errors import UserError
from game.events import (
    Event,
    LoggedEvent,
    SettingChanged,
)
from game.model import Match, Player

T = TypeVar("T")
Clock = Callable[[], datetime]
Listener = Callable[[LoggedEvent[Event]], None]


def utc_now() -> datetime:
    return datetime.now(UTC)


class NotFound(UserError, LookupError):
    """A match or player that does not exist; the message names it."""


class UnitOfWork:
    """One transaction and the events it appends, told to listeners once committed.

    Every desk of the pool writes through the one instance it shares, so a
    change to the state and its event in the log are never apart.
    """

    def __init__(self, engine: Engine, clock: Clock = utc_now) -> None:
        self.engine = engine
        self.clock = clock
        self._listeners: list[Listener] = []
        self._reads = for_reads(engine)
        self.commits = 0  # transactions this process has run through it: a pinned read's check
        self._counting = threading.Lock()  # two threads' commits are never counted as one

    def read(self) -> Connection:
        """A connection for reads that change nothing (no transaction around them)."""
        return self._reads.connect()

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def commit(self, work: Callable[[Connection, list[LoggedEvent[Event]]], T]) -> T:
        """Run ``work`` in one transaction; tell listeners about its events once committed.

        The transaction holds the writer's lock from its first statement
        (``log.hold_writes``): what ``work`` reads to check a rule cannot change
        before its writes commit.
        """
        logged: list[LoggedEvent[Event]] = []
        try:
            with self.engine.begin() as connection:
                log.hold_writes(connection)
                outcome = work(connection, logged)
        finally:
            with self._counting:
                self.commits += 1
        for item in logged:
            for listener in self._listeners:
                listener(item)
        return outcome

    def append(
        self, connection: Connection, logged: list[LoggedEvent[Event]], event: Event
    ) -> None:
        at = self.clock()
        logged.append(LoggedEvent(log.append(connection, event, at), at, event))


def require_match(connection: Connection, number: int, with_goals: bool = True) -> Match:
    match = views.match(connection, number, with_goals)
    if match is None:
        raise NotFound("no match #{number}", number=number)
    return match


def require_player_id(connection: Connection, handle: str) -> int:
    player_id = connection.execute(select(players.c.id).where(players.c.handle == handle)).scalar()
    if player_id is None:
        raise NotFound("no player {handle!r}", handle=handle)
    return int(player_id)


def update_statement(number: int, **values: object) -> Update:
    return update(matches).where(matches.c.number == number).values(**values)


def require_player(connection: Connection, handle: str) -> Player:
    player = views.player(connection, handle)
    if player is None:
        raise NotFound("no player {handle!r}", handle=handle)
    return player


def write_setting(
    work: UnitOfWork, connection: Connection, logged: list[LoggedEvent[Event]], key: str, value: str
) -> bool:
    """Set a pool setting and log it; False when it already was ``value``."""
    existing = connection.execute(select(settings.c.value).where(settings.c.key == key)).scalar()
    if existing == value:
        return False
    if existing is None:
        connection.execute(insert(settings).values(key=key, value=value))
    else:
        connection.execute(update(settings).where(settings.c.key == key).values(value=value))
    work.append(connection, logged, SettingChanged(key, value))
    return True
