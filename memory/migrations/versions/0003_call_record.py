"""Every model call kept whole: its prompt, its answer, its outcome and its cause.

Revision ID: m0003
Revises: m0002
"""

import sqlalchemy as sa
from alembic import op

revision = "m0003"
down_revision = "m0002"
branch_labels = None
depends_on = None

COLUMNS = (
    ("match_number", sa.Integer),
    ("event_id", sa.Integer),
    ("system", sa.Text),
    ("prompt", sa.Text),
    ("response", sa.Text),
    ("outcome", lambda: sa.String(200)),
)


def upgrade() -> None:
    with op.batch_alter_table("model_calls") as table:
        for name, kind in COLUMNS:
            table.add_column(sa.Column(name, kind()))
    op.create_index("ix_model_calls_match_number", "model_calls", ["match_number"])


def downgrade() -> None:
    op.drop_index("ix_model_calls_match_number", "model_calls")
    with op.batch_alter_table("model_calls") as table:
        for name, _ in reversed(COLUMNS):
            table.drop_column(name)
