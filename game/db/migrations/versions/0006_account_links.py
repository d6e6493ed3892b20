"""Accounts elsewhere linked to players (``account_links``, ``link_codes``), and
``log_cursors`` for readers of the log outside memory (the Discord poster).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

from game.db.schema import UTCDateTime

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_links",
        sa.Column("service", sa.String(20), primary_key=True),
        sa.Column("account", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("linked_at", UTCDateTime(), nullable=False),
        sa.UniqueConstraint("service", "player_id"),
    )
    op.create_index("ix_account_links_player_id", "account_links", ["player_id"])
    op.create_table(
        "link_codes",
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("service", sa.String(20), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
    )
    op.create_table(
        "log_cursors",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("position", sa.BigInteger, nullable=False),
        sa.Column("part", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("log_cursors")
    op.drop_table("link_codes")
    op.drop_index("ix_account_links_player_id", "account_links")
    op.drop_table("account_links")
