"""Jokers (``jokers``), bonus picks (``bonus_picks``) and each player's choice of
reminders (``players.reminders``).

Revision ID: 0009
Revises: 0008
"""

import json

import sqlalchemy as sa
from alembic import op

from game.db.schema import UTCDateTime

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "jokers",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("match_number", sa.Integer, sa.ForeignKey("matches.number"), primary_key=True),
        sa.Column("placed_at", UTCDateTime(), nullable=False),
    )
    op.create_table(
        "bonus_picks",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("kind", sa.String(20), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("placed_at", UTCDateTime(), nullable=False),
    )
    with op.batch_alter_table("players") as batch:
        batch.add_column(
            sa.Column("reminders", sa.Boolean, nullable=False, server_default=sa.true())
        )
    # Her own row (a player the commentator added, ``via`` "bot") starts with reminders
    # off, as a new one does: she picks after the reminder and is no forgetful player.
    bind = op.get_bind()
    joined = bind.execute(sa.text("SELECT payload FROM events WHERE kind = 'player_joined'"))
    bots = [
        data["player"]
        for data in (json.loads(p) if isinstance(p, str) else p for (p,) in joined)
        if data.get("via") == "bot"
    ]
    if bots:
        off = sa.text("UPDATE players SET reminders = :off WHERE handle IN :handles")
        off = off.bindparams(sa.bindparam("handles", expanding=True))
        bind.execute(off, {"off": False, "handles": bots})


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("reminders")
    op.drop_table("bonus_picks")
    op.drop_table("jokers")
