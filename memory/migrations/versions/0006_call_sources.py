"""A call's web search trail: what it searched for and what its answer cited.

Revision ID: m0006
Revises: m0005
"""

import sqlalchemy as sa
from alembic import op

revision = "m0006"
down_revision = "m0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("model_calls") as table:
        table.add_column(sa.Column("sources", sa.Text))


def downgrade() -> None:
    with op.batch_alter_table("model_calls") as table:
        table.drop_column("sources")
