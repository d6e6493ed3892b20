"""Feed links: a results feed's own match id, remembered once a match is matched.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "feed_links",
        sa.Column("source", sa.String(40), primary_key=True),
        sa.Column("feed_id", sa.String(40), primary_key=True),
        sa.Column("match_number", sa.Integer, sa.ForeignKey("matches.number"), nullable=False),
        sa.UniqueConstraint("source", "match_number"),
    )


def downgrade() -> None:
    op.drop_table("feed_links")
