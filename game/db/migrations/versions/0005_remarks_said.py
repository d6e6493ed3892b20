"""One remark per trigger and topic, kept by the database: ``remarks_said``.

Revision ID: 0005
Revises: 0004
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    said = op.create_table(
        "remarks_said",
        sa.Column("trigger", sa.BigInteger, primary_key=True),
        sa.Column("topic", sa.String(40), primary_key=True),
    )
    # A pool from before: what she already said on each trigger, from the log.
    rows = op.get_bind().execute(sa.text("SELECT payload FROM events WHERE kind = 'remark'"))
    done = set()
    for (payload,) in rows:
        value = json.loads(payload) if isinstance(payload, str) else payload
        if value.get("trigger") is not None:
            done.add((int(value["trigger"]), str(value.get("topic") or "")))
    if done:
        op.bulk_insert(said, [{"trigger": t, "topic": topic} for t, topic in sorted(done)])


def downgrade() -> None:
    op.drop_table("remarks_said")
