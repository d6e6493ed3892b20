"""The agent's own bookkeeping (the cursor of her reactions, the last digest day) in a
table of its own, moved out of memory's.

Revision ID: m0008
Revises: m0007
"""

import sqlalchemy as sa
from alembic import op

revision = "m0008"
down_revision = "m0007"
branch_labels = None
depends_on = None

MOVED = ("commentator_cursor", "last_digest_day")


def upgrade() -> None:
    op.create_table(
        "agent_state",
        sa.Column("key", sa.String(50), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    keys = ", ".join(f"'{key}'" for key in MOVED)
    op.execute(
        f"INSERT INTO agent_state (key, value) SELECT key, value FROM memory_state "
        f"WHERE key IN ({keys})"
    )
    op.execute(f"DELETE FROM memory_state WHERE key IN ({keys})")


def downgrade() -> None:
    keys = ", ".join(f"'{key}'" for key in MOVED)
    op.execute(
        f"INSERT INTO memory_state (key, value) SELECT key, value FROM agent_state "
        f"WHERE key IN ({keys})"
    )
    op.drop_table("agent_state")
