"""A player may withdraw a fact: it leaves her prompts, stays stored, and says who withdrew it.

Revision ID: m0005
Revises: m0004
"""

import sqlalchemy as sa
from alembic import op

revision = "m0005"
down_revision = "m0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("player_facts") as table:
        table.add_column(sa.Column("withdrawn_on", sa.Date))
        table.add_column(sa.Column("withdrawn_by", sa.String(100)))


def downgrade() -> None:
    with op.batch_alter_table("player_facts") as table:
        table.drop_column("withdrawn_by")
        table.drop_column("withdrawn_on")
