"""The append-only event log: the one place events are written and read back."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from sqlalchemy import Connection, insert, select

from game.db.schema import events
from game.events import Event, LoggedEvent, event_from_payload


def append(connection: Connection, event: Event, at: datetime) -> int:
    """Add ``event`` to the log inside the caller's transaction; returns its id."""
    result = connection.execute(
        insert(events).values(
            at=at,
            kind=event.kind,
            match_number=event.match_number,
            handle=event.handle,
            payload=event.payload(),
        )
    )
    (event_id,) = result.inserted_primary_key or (None,)
    return int(event_id)


def read(
    connection: Connection,
    after_id: int = 0,
    kinds: tuple[str, ...] = (),
    match_number: int | None = None,
    since: datetime | None = None,
    up_to_id: int | None = None,
) -> Iterator[LoggedEvent]:
    """Events with an id above ``after_id`` (and the other filters), oldest first."""
    query = select(events).where(events.c.id > after_id).order_by(events.c.id)
    if kinds:
        query = query.where(events.c.kind.in_(kinds))
    if match_number is not None:
        query = query.where(events.c.match_number == match_number)
    if since is not None:
        query = query.where(events.c.at >= since)
    if up_to_id is not None:
        query = query.where(events.c.id <= up_to_id)
    for row in connection.execute(query):
        yield LoggedEvent(row.id, row.at, event_from_payload(row.kind, row.payload))
