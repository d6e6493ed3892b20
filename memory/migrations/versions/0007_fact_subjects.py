"""Facts with time: what a fact is about, and the day a newer fact on it replaced it.

Revision ID: m0007
Revises: m0006
"""

import sqlalchemy as sa
from alembic import op

revision = "m0007"
down_revision = "m0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("player_facts") as table:
        table.add_column(sa.Column("subject", sa.String(50)))
        table.add_column(sa.Column("replaced_on", sa.Date))


def downgrade() -> None:
    with op.batch_alter_table("player_facts") as table:
        table.drop_column("replaced_on")
        table.drop_column("subject")
