"""How far memory has read the log: its cursor, where it started, what it adopted untold.

Kept in ``memory_state``; the keeper moves the cursor in the same transaction as
the shelves' writes for the event (``MemoryKeeper.take``), and the shelves read
here which matches were adopted at start-up, so that none tells a story about them.
"""

from __future__ import annotations

import json

from sqlalchemy import Connection

from memory.store import MEMORY_STATE, MemoryStore

CURSOR = "last_handled_event_id"
STARTED_AFTER = "started_after_event_id"
RESOLVED = "resolved_matches"


def cursor(store: MemoryStore) -> int:
    with store.read() as connection:
        return cursor_in(connection)


def cursor_in(connection: Connection) -> int:
    return int(MEMORY_STATE.get(connection, CURSOR) or 0)


def enabled(store: MemoryStore) -> bool:
    with store.read() as connection:
        return MEMORY_STATE.get(connection, CURSOR) is not None


def started_after(store: MemoryStore) -> int:
    """The last log id before memory was switched on."""
    with store.read() as connection:
        return started_after_in(connection)


def started_after_in(connection: Connection) -> int:
    return int(MEMORY_STATE.get(connection, STARTED_AFTER) or 0)


def resolved(store: MemoryStore) -> set[int]:
    """The matches finished when memory was switched on: adopted, never told."""
    with store.read() as connection:
        return set(json.loads(MEMORY_STATE.get(connection, RESOLVED) or "[]"))


def start(connection: Connection, after_id: int, adopted: list[int]) -> None:
    MEMORY_STATE.set(connection, STARTED_AFTER, str(after_id))
    MEMORY_STATE.set(connection, RESOLVED, json.dumps(adopted))
    MEMORY_STATE.set(connection, CURSOR, str(after_id))


def move(connection: Connection, event_id: int) -> None:
    MEMORY_STATE.set(connection, CURSOR, str(event_id))
