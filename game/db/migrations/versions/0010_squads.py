"""The teams' squads (``squad_players``), which a top scorer pick is checked against
before any goal. A log from before holds no squad: the table starts empty.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "squad_players",
        sa.Column("team", sa.String(100), primary_key=True),
        sa.Column("name", sa.String(200), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("squad_players")
