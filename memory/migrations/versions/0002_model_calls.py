"""What model calls cost moves from the game's log to memory's own record.

The game's log is append-only, so the ``model_call`` events an older pool
logged stay there (read back as retired events); their figures are copied
here, so ``betania memory stats`` counts every call either way.

Revision ID: m0002
Revises: m0001
"""

import sqlalchemy as sa
from alembic import op

from game.db.schema import UTCDateTime

revision = "m0002"
down_revision = "m0001"
branch_labels = None
depends_on = None

FIGURES = (
    "input_tokens",
    "output_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "latency_ms",
)


def upgrade() -> None:
    calls = op.create_table(
        "model_calls",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", UTCDateTime(), nullable=False),
        sa.Column("provider", sa.String(50), nullable=False),
        sa.Column("model", sa.String(100), nullable=False),
        sa.Column("task", sa.String(50), nullable=False),
        *(sa.Column(name, sa.Integer, nullable=False) for name in FIGURES),
        sa.Column("error", sa.Text),
        sa.Column("fallback", sa.Boolean, nullable=False),
    )
    events = sa.table(
        "events", sa.column("at", UTCDateTime()), sa.column("kind"), sa.column("payload", sa.JSON)
    )
    logged = op.get_bind().execute(
        sa.select(events.c.at, events.c.payload).where(events.c.kind == "model_call")
    )
    rows = [
        {
            "at": at,
            "provider": payload.get("provider", ""),
            "model": payload.get("model", ""),
            "task": payload.get("task", ""),
            **{name: int(payload.get(name) or 0) for name in FIGURES},
            "error": payload.get("error"),
            "fallback": bool(payload.get("fallback")),
        }
        for at, payload in logged
    ]
    if rows:
        op.bulk_insert(calls, rows)


def downgrade() -> None:
    op.drop_table("model_calls")
