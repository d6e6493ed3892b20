"""Alembic's entry: always handed a live connection by ``game.db.engine.migrate``."""

from alembic import context

from game.db.schema import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
