"""The memory's first tables: diary, player facts, fact compactions, state.

Revision ID: m0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

from game.db.schema import UTCDateTime

revision = "m0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "diary_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("match_number", sa.Integer, unique=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("covers", sa.JSON, nullable=False),
        sa.Column("first_date", sa.Date, nullable=False),
        sa.Column("last_date", sa.Date, nullable=False),
        sa.Column("written_at", UTCDateTime(), nullable=False),
        sa.Column("event_id", sa.Integer),
    )
    op.create_table(
        "player_facts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("handle", sa.String(32), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("learned_on", sa.Date, nullable=False),
        sa.Column("source", sa.String(100), nullable=False),
        sa.Column("expires_on", sa.Date),
        sa.Column("covers", sa.JSON, nullable=False),
        sa.Column("superseded_by", sa.Integer, sa.ForeignKey("player_facts.id")),
        sa.Column("created_at", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_player_facts_handle", "player_facts", ["handle"])
    op.create_table(
        "fact_compactions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("handle", sa.String(32), nullable=False),
        sa.Column("at", UTCDateTime(), nullable=False),
        sa.Column("accepted", sa.Boolean, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("source_ids", sa.JSON, nullable=False),
        sa.Column("output", sa.JSON, nullable=False),
    )
    op.create_table(
        "memory_state",
        sa.Column("key", sa.String(50), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in ("memory_state", "fact_compactions", "player_facts", "diary_entries"):
        op.drop_table(table)
