"""The first schema: fixtures, players, predictions, settings, and the append-only log.

Migrations are history: this file keeps the tables as they were first made,
whatever ``game.db.schema`` says today; ``tests/test_storage.py`` checks that
the migrated database and the schema module agree.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

from game.db.schema import FINAL_AWAY, FINAL_HOME, UTCDateTime, sign_of

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

APPEND_ONLY_MESSAGE = "events are append-only: UPDATE and DELETE are refused"
SCORE_COLUMNS = ("ft_home", "ft_away", "et_home", "et_away", "pen_home", "pen_away")


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("source_key", sa.String(200), nullable=False, unique=True),
        sa.Column("stage", sa.String(100), nullable=False),
        sa.Column("group_name", sa.String(100)),
        sa.Column("kickoff", UTCDateTime(), nullable=False),
        sa.Column("local_date", sa.String(10)),
        sa.Column("venue", sa.String(200)),
        sa.Column("team1", sa.String(100), nullable=False),
        sa.Column("team2", sa.String(100), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        *(sa.Column(name, sa.Integer) for name in SCORE_COLUMNS),
        sa.Column("result_source", sa.String(20)),
        sa.Column("ft_diff", sa.Integer, sa.Computed("ft_home - ft_away", persisted=True)),
        sa.Column(
            "ft_sign", sa.Integer, sa.Computed(sign_of("ft_home", "ft_away"), persisted=True)
        ),
        sa.Column("final_home", sa.Integer, sa.Computed(FINAL_HOME, persisted=True)),
        sa.Column(
            "final_diff", sa.Integer, sa.Computed(f"{FINAL_HOME} - {FINAL_AWAY}", persisted=True)
        ),
        sa.Column(
            "final_sign", sa.Integer, sa.Computed(sign_of(FINAL_HOME, FINAL_AWAY), persisted=True)
        ),
    )
    op.create_table(
        "goals",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("match_number", sa.Integer, sa.ForeignKey("matches.number"), nullable=False),
        sa.Column("side", sa.String(4), nullable=False),
        sa.Column("minute", sa.Integer, nullable=False),
        sa.Column("added", sa.Integer, nullable=False),
        sa.Column("scorer", sa.String(200), nullable=False),
        sa.Column("penalty", sa.Boolean, nullable=False),
        sa.Column("own_goal", sa.Boolean, nullable=False),
    )
    op.create_index("ix_goals_match_number", "goals", ["match_number"])
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("handle", sa.String(32), nullable=False, unique=True),
        sa.Column("display_name", sa.String(100), nullable=False),
        sa.Column("is_admin", sa.Boolean, nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
    )
    op.create_table(
        "player_keys",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("public_key", sa.Text, nullable=False, unique=True),
        sa.Column("added_at", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_player_keys_player_id", "player_keys", ["player_id"])
    op.create_table(
        "predictions",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("match_number", sa.Integer, sa.ForeignKey("matches.number"), primary_key=True),
        sa.Column("home", sa.Integer, nullable=False),
        sa.Column("away", sa.Integer, nullable=False),
        sa.Column("placed_at", UTCDateTime(), nullable=False),
        sa.Column("diff", sa.Integer, sa.Computed("home - away", persisted=True)),
        sa.Column("sign", sa.Integer, sa.Computed(sign_of("home", "away"), persisted=True)),
        sqlite_with_rowid=False,
    )
    op.create_index("ix_predictions_match_number", "predictions", ["match_number"])
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", UTCDateTime(), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("match_number", sa.Integer),
        sa.Column("handle", sa.String(32)),
        sa.Column("payload", sa.JSON, nullable=False),
    )
    op.create_index("ix_events_match_number", "events", ["match_number"])
    op.create_index("ix_events_handle", "events", ["handle"])
    op.create_table(
        "settings",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    _forbid_changes_to_events()


def _forbid_changes_to_events() -> None:
    """The log's promise is kept by the database, not by the code that writes to it."""
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER events_no_{verb.lower()} BEFORE {verb} ON events "
                f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY_MESSAGE}'); END"
            )
    elif dialect == "postgresql":
        op.execute(
            "CREATE FUNCTION events_append_only() RETURNS trigger AS $$ "
            f"BEGIN RAISE EXCEPTION '{APPEND_ONLY_MESSAGE}'; END; $$ LANGUAGE plpgsql"
        )
        op.execute(
            "CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events "
            "FOR EACH ROW EXECUTE FUNCTION events_append_only()"
        )
        op.execute(
            "CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events "
            "FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()"
        )
    else:
        raise RuntimeError(f"no append-only trigger written for {dialect}; refusing to migrate")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER events_no_truncate ON events")
        op.execute("DROP TRIGGER events_append_only ON events")
        op.execute("DROP FUNCTION events_append_only()")
    for table in ("settings", "events", "predictions", "player_keys", "players", "goals"):
        op.drop_table(table)
    op.drop_table("matches")
