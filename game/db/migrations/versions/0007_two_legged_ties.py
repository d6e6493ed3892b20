"""Two-legged ties: a second leg names its first leg (``matches.first_leg``) and
whether away goals decide a level aggregate (``matches.away_goals``).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("first_leg", sa.Integer))
    op.add_column(
        "matches",
        sa.Column("away_goals", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_column("matches", "away_goals")
    op.drop_column("matches", "first_leg")
