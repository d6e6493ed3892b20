"""Discord's interaction signatures already seen (``seen_signatures``), kept until they
expire so a replay is refused across restarts; the name a linked account had
(``account_links.account_name``).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

from game.db.schema import UTCDateTime

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seen_signatures",
        sa.Column("signature", sa.String(128), primary_key=True),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_seen_signatures_expires_at", "seen_signatures", ["expires_at"])
    op.add_column("account_links", sa.Column("account_name", sa.String(100)))


def downgrade() -> None:
    op.drop_column("account_links", "account_name")
    op.drop_index("ix_seen_signatures_expires_at", "seen_signatures")
    op.drop_table("seen_signatures")
