"""The log defends itself: a hash chain over every event, and no REPLACE of an event.

Events logged before this migration are linked here, oldest first; the UPDATE
guard is lifted for that alone and put back in the same transaction.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

from game.db.chain import GENESIS, POSTGRESQL_FUNCTIONS, SQLITE_GUARDS, digest, link
from game.db.schema import UTCDateTime

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

events = sa.table(
    "events",
    sa.column("id", sa.Integer),
    sa.column("at", UTCDateTime()),
    sa.column("kind", sa.String),
    sa.column("match_number", sa.Integer),
    sa.column("handle", sa.String),
    sa.column("payload", sa.JSON),
    sa.column("chain", sa.String),
)


def upgrade() -> None:
    bind = op.get_bind()
    sqlite = bind.dialect.name == "sqlite"
    op.add_column("events", sa.Column("chain", sa.String(64)))
    if sqlite:
        op.execute("DROP TRIGGER events_no_update")
    else:
        for function in POSTGRESQL_FUNCTIONS:
            op.execute(function)
        op.execute("ALTER TABLE events DISABLE TRIGGER events_append_only")
    previous = GENESIS
    rows = bind.execute(sa.select(events).order_by(events.c.id)).all()
    for row in rows:
        content = digest(row.at, row.kind, row.match_number, row.handle, row.payload)
        previous = link(previous, row.id, content)
        bind.execute(events.update().where(events.c.id == row.id).values(chain=previous))
    if sqlite:
        op.execute(SQLITE_GUARDS["events_no_update"])
        op.execute(SQLITE_GUARDS["events_no_replace"])
    else:
        op.execute("ALTER TABLE events ENABLE TRIGGER events_append_only")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER events_no_replace")
        op.execute("DROP TRIGGER events_no_update")
        with op.batch_alter_table("events") as batch:
            batch.drop_column("chain")
        for name in ("events_no_update", "events_no_delete"):  # a table copy loses its triggers
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
            op.execute(SQLITE_GUARDS[name])
    else:
        op.execute("ALTER TABLE events DROP COLUMN chain")
