"""Alembic's entry for the game's tables; ``game.db.engine.migrate`` runs it."""

from alembic import context

from game.db.engine import run_in_alembic
from game.db.schema import metadata

run_in_alembic(context, metadata)
