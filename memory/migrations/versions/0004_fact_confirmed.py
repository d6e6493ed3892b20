"""A fact keeps when it was first told and when it was last confirmed.

Revision ID: m0004
Revises: m0003
"""

import sqlalchemy as sa
from alembic import op

revision = "m0004"
down_revision = "m0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("player_facts") as table:
        table.add_column(sa.Column("confirmed_on", sa.Date))


def downgrade() -> None:
    with op.batch_alter_table("player_facts") as table:
        table.drop_column("confirmed_on")
