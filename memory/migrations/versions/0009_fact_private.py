"""Private facts: told as a secret or of a sensitive kind, kept for their owner's questions.

Revision ID: m0009
Revises: m0008
"""

import sqlalchemy as sa
from alembic import op

revision = "m0009"
down_revision = "m0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("player_facts") as table:
        table.add_column(
            sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("player_facts") as table:
        table.drop_column("private")
