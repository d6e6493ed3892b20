"""Alembic's entry for the game's tables; ``game.db.engine.migrate`` runs it."""

from typing import cast

from alembic import context
from alembic.runtime.environment import EnvironmentContext

from game.db.engine import run_in_alembic
from game.db.schema import metadata

run_in_alembic(cast(EnvironmentContext, context), metadata)  # a proxy of one
