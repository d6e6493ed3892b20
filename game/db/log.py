"""The append-only event log: the one place events are written and read back."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from functools import lru_cache
from typing import Any, TypeVar, cast

from sqlalchemy import Connection, Select, bindparam, func, insert, select, text
from sqlalchemy.sql.dml import ReturningInsert

from game.db import chain, notify
from game.db.schema import events
from game.events import Event, LoggedEvent, event_from_payload

E = TypeVar("E", bound=Event)


_HOLD = text("LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE")


def hold_writes(connection: Connection) -> None:
    """Make the caller's transaction the only one writing to the log until it commits.

    SQLite's transactions take the one writer's lock as they begin (``BEGIN
    IMMEDIATE``, ``game.db.engine``). On PostgreSQL this lock on the log does the
    same: a unit of work takes it before it reads what its rules check, so no other
    writer can change that state before it commits, and since every writer takes
    it first, no two of them wait on each other's rows (no deadlock). Plain reads
    are never blocked by it.
    """
    if connection.dialect.name == "postgresql":
        connection.execute(_HOLD)


def append(connection: Connection, event: Event, at: datetime) -> int:
    """Add ``event`` to the log inside the caller's transaction; returns its id.

    One statement takes the next id and links the event to the one before it,
    so two writers can never fork the chain: the database serialises them.
    """
    payload = event.payload()
    content = chain.digest(at, event.kind, event.match_number, event.handle, payload)
    hold_writes(connection)  # held already in a unit of work; one more costs nothing
    postgresql = connection.dialect.name == "postgresql"
    values = {
        "at": at,
        "kind": event.kind,
        "match_number": event.match_number,
        "handle": event.handle,
        "payload": payload,
        "digest": content,
    }
    new_id: int = connection.execute(
        _APPEND_ANNOUNCED if postgresql else _APPEND, values
    ).scalar_one()
    return new_id


def _append_statement() -> ReturningInsert[int]:
    """Built once: building it per event cost as much as running it."""
    next_id = select((func.coalesce(func.max(events.c.id), 0) + 1).label("id")).subquery()
    previous = select(events.c.chain).order_by(events.c.id.desc()).limit(1).scalar_subquery()
    columns = ("at", "kind", "match_number", "handle", "payload")
    return (
        insert(events)
        .from_select(
            ["id", *columns, "chain"],
            select(
                next_id.c.id,
                *(bindparam(name, type_=events.c[name].type) for name in columns),
                func.betania_link(
                    func.coalesce(previous, chain.GENESIS), next_id.c.id, bindparam("digest")
                ),
            ),
        )
        .returning(events.c.id)
    )


_APPEND = _append_statement()
# On PostgreSQL the append also tells every listener, at commit (game.db.notify).
_APPEND_ANNOUNCED = _APPEND.returning(notify.word_of(events.c.id))
_AFTER = select(events).where(events.c.id > bindparam("after_id")).order_by(events.c.id)


def chain_rows(connection: Connection) -> Iterator[dict[str, Any]]:
    """Every event with what its chain link covers, oldest first."""
    columns = (events.c.id, events.c.at, events.c.kind, events.c.match_number, events.c.handle)
    query = select(*columns, events.c.payload, events.c.chain).order_by(events.c.id)
    for row in connection.execute(query):
        yield dict(row._mapping)


def last_id(connection: Connection) -> int:
    """The id of the log's last event; 0 for an empty log."""
    return int(connection.execute(_LAST).scalar() or 0)


_LAST = select(func.max(events.c.id))  # asked before every kept read is trusted


def read(
    connection: Connection,
    after_id: int = 0,
    kinds: tuple[str, ...] = (),
    match_number: int | None = None,
    since: datetime | None = None,
    up_to_id: int | None = None,
    without: tuple[str, ...] = (),
) -> Iterator[LoggedEvent[Event]]:
    """Events with an id above ``after_id`` (and the other filters, ``without`` kinds
    left out), oldest first."""
    query = _filtered(
        kinds, match_number is not None, since is not None, up_to_id is not None, without
    )
    values = {"after_id": after_id, "match_number": match_number, "since": since}
    for row in connection.execute(query, {**values, "up_to_id": up_to_id}):
        yield LoggedEvent(row.id, row.at, event_from_payload(row.kind, row.payload))


@lru_cache(maxsize=256)
def _filtered(
    kinds: tuple[str, ...], of_match: bool, since: bool, up_to: bool, without: tuple[str, ...]
) -> Select[Any]:
    """The log's tail with these filters, built once per shape: her turns read it by
    kind and match thousands of times, and building a query costs more than running it."""
    query = _AFTER
    if kinds:
        query = query.where(events.c.kind.in_(kinds))
    if without:
        query = query.where(events.c.kind.not_in(without))
    if of_match:
        query = query.where(events.c.match_number == bindparam("match_number"))
    if since:
        query = query.where(events.c.at >= bindparam("since", type_=events.c.at.type))
    if up_to:
        query = query.where(events.c.id <= bindparam("up_to_id"))
    return query


def read_of(
    connection: Connection,
    kind: type[E],
    after_id: int = 0,
    match_number: int | None = None,
    since: datetime | None = None,
    up_to_id: int | None = None,
) -> Iterator[LoggedEvent[E]]:
    """The events of one kind, typed as that kind (the log names one type per kind)."""
    found = read(connection, after_id, (kind.kind,), match_number, since, up_to_id)
    return cast(Iterator[LoggedEvent[E]], found)
