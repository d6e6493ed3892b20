"""Memory's store: its tables, brought up to date, and the only transactions on them.

Every shelf (diary, facts, the calls' record) and the agent's own bookkeeping
read and write through one ``MemoryStore``, the way the game's desks go through
its ``UnitOfWork``: ``read()`` for reads that change nothing, ``write()`` for one
transaction that commits whole or not at all. Nothing else in memory/ or bot/
opens a connection (tests/test_layers.py holds that).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Table, bindparam, delete, insert, select, update

from game.db.engine import migrate
from game.pool import Pool
from memory.schema import agent_state, memory_state

MIGRATIONS = Path(__file__).with_name("migrations")


def open_store(pool: Pool) -> MemoryStore:
    """Memory's store on ``pool``, its tables brought up to date first: what a run does
    when it opens memory, as ``open_database`` does for the game's. Not in the
    constructor: building a store writes nothing."""
    migrate(pool.engine, MIGRATIONS, version_table="memory_alembic_version")
    return MemoryStore(pool)


class MemoryStore:
    def __init__(self, pool: Pool) -> None:
        self.pool = pool

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection for reads that change nothing: memory's tables and the game's."""
        with self.pool.work.read() as connection:
            yield connection

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One transaction: every write inside it commits together, or none does."""
        with self.pool.engine.begin() as connection:
            yield connection


class KeyValue:
    """A small table of named values (a cursor, a day), read and written in a transaction.

    Its statements are built once: her reactions move a cursor for every event, and
    building a statement anew costs SQLAlchemy more than SQLite takes to run it.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        key = table.c.key == bindparam("named")  # not "key": insert() keeps that name
        self._get = select(table.c.value).where(key)
        self._update = update(table).where(key).values(value=bindparam("given"))
        self._insert = insert(table).values(key=bindparam("named"), value=bindparam("given"))
        self._delete = delete(table).where(key)

    def get(self, connection: Connection, key: str) -> str | None:
        return connection.execute(self._get, {"named": key}).scalar()

    def set(self, connection: Connection, key: str, value: str) -> None:
        # Most sets move a value that is there: one statement, and the insert only when
        # the update found nothing (in the same transaction, as the read before it was).
        if connection.execute(self._update, {"named": key, "given": value}).rowcount == 0:
            connection.execute(self._insert, {"named": key, "given": value})

    def clear(self, connection: Connection, key: str) -> None:
        connection.execute(self._delete, {"named": key})


MEMORY_STATE = KeyValue(memory_state)  # memory's cursor, when it started, what it adopted
AGENT_STATE = KeyValue(agent_state)  # her reactions' cursor, the last digest day
