"""Alembic's entry for the memory's tables; ``memory.store.open_memory`` runs it."""

from alembic import context

from game.db.engine import run_in_alembic
from memory.schema import metadata

run_in_alembic(context, metadata)
