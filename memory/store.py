"""Opening the memory's tables and its small key-value state."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection, Engine, delete, insert, select, update

from game.db.engine import migrate
from memory.schema import memory_state

MIGRATIONS = Path(__file__).with_name("migrations")


def open_memory(engine: Engine) -> Engine:
    """Bring the memory's tables up to date in the game's database."""
    migrate(engine, MIGRATIONS, version_table="memory_alembic_version")
    return engine


def get_state(connection: Connection, key: str) -> str | None:
    return connection.execute(
        select(memory_state.c.value).where(memory_state.c.key == key)
    ).scalar()


def set_state(connection: Connection, key: str, value: str) -> None:
    if get_state(connection, key) is None:
        connection.execute(insert(memory_state).values(key=key, value=value))
    else:
        connection.execute(
            update(memory_state).where(memory_state.c.key == key).values(value=value)
        )


def clear_state(connection: Connection, key: str) -> None:
    connection.execute(delete(memory_state).where(memory_state.c.key == key))
