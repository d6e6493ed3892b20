"""Alembic's entry for the memory's tables; ``memory.store.open_memory`` runs it."""

from typing import cast

from alembic import context
from alembic.runtime.environment import EnvironmentContext

from game.db.engine import run_in_alembic
from memory.schema import metadata

run_in_alembic(cast(EnvironmentContext, context), metadata)  # a proxy of one
