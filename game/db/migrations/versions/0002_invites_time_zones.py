"""Invite codes for newcomers, and each player's time zone.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

from game.db.schema import UTCDateTime

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("time_zone", sa.String(64)))
    op.create_table(
        "invites",
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("uses_left", sa.Integer, nullable=False),
        sa.Column("expires_at", UTCDateTime()),
        sa.Column("created_by", sa.String(32), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("invites")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("time_zone")
