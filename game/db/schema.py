"""The tables. Only the event log is the truth; the others are its current state.

Predictions and matches are kept as rows for fast reads, but every change to
them is also appended to ``events``, and nothing here stores a derived figure
(points, ranks): those are computed on demand in ``game.db.views``.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Computed,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator[datetime]):
    """Aware datetimes in, aware UTC datetimes out, on every database."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"refusing a naive datetime {value!r}: times are stored in UTC")
        value = value.astimezone(UTC)
        # SQLite has no time zones; it stores the UTC wall time as text.
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def sign_of(home: str, away: str) -> str:
    """SQL for the outcome of a score: 1 home win, 0 draw, -1 away win (NULL without a score)."""
    return f"CASE WHEN {home} > {away} THEN 1 WHEN {home} < {away} THEN -1 WHEN {home} = {away} THEN 0 END"


# The score at the end of play: after extra time when it was played.
FINAL_HOME = "COALESCE(et_home, ft_home)"
FINAL_AWAY = "COALESCE(et_away, ft_away)"

metadata = MetaData()

matches = Table(
    "matches",
    metadata,
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("source_key", String(200), nullable=False, unique=True),
    Column("stage", String(100), nullable=False),
    Column("group_name", String(100)),
    Column("kickoff", UTCDateTime(), nullable=False),
    Column("local_date", String(10)),
    Column("venue", String(200)),
    Column("team1", String(100), nullable=False),
    Column("team2", String(100), nullable=False),
    Column("status", String(20), nullable=False),
    Column("ft_home", Integer),
    Column("ft_away", Integer),
    Column("et_home", Integer),
    Column("et_away", Integer),
    Column("pen_home", Integer),
    Column("pen_away", Integer),
    Column("result_source", String(20)),
    # A two-legged tie's second leg: its first leg, and whether away goals decide a
    # level aggregate (``game.ties``). The first leg's score is read from its row.
    Column("first_leg", Integer),
    Column("away_goals", Boolean, nullable=False, server_default=false()),
    # The result as the standings read it, kept by the database itself so the
    # standings query compares plain columns instead of computing per pick.
    Column("ft_diff", Integer, Computed("ft_home - ft_away", persisted=True)),
    Column("ft_sign", Integer, Computed(sign_of("ft_home", "ft_away"), persisted=True)),
    Column("final_home", Integer, Computed(FINAL_HOME, persisted=True)),
    Column("final_diff", Integer, Computed(f"{FINAL_HOME} - {FINAL_AWAY}", persisted=True)),
    Column("final_sign", Integer, Computed(sign_of(FINAL_HOME, FINAL_AWAY), persisted=True)),
)

goals = Table(
    "goals",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("match_number", Integer, ForeignKey("matches.number"), nullable=False, index=True),
    Column("side", String(4), nullable=False),
    Column("minute", Integer, nullable=False),
    Column("added", Integer, nullable=False),
    Column("scorer", String(200), nullable=False),
    Column("penalty", Boolean, nullable=False),
    Column("own_goal", Boolean, nullable=False),
)

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("handle", String(32), nullable=False, unique=True),
    Column("display_name", String(100), nullable=False),
    Column("is_admin", Boolean, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("time_zone", String(64)),  # IANA name the player chose; None shows UTC
    # Whether the pool reminds this player of matches closing without their pick.
    Column("reminders", Boolean, nullable=False, server_default=true()),
)

player_keys = Table(
    "player_keys",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False, index=True),
    Column("public_key", Text, nullable=False, unique=True),
    Column("added_at", UTCDateTime(), nullable=False),
)

predictions = Table(
    "predictions",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("match_number", Integer, ForeignKey("matches.number"), primary_key=True),
    Column("home", Integer, nullable=False),
    Column("away", Integer, nullable=False),
    Column("placed_at", UTCDateTime(), nullable=False),
    Column("diff", Integer, Computed("home - away", persisted=True)),
    Column("sign", Integer, Computed(sign_of("home", "away"), persisted=True)),
    Index("ix_predictions_match_number", "match_number"),
    # Clustered by (player, match): the standings read each player's picks in one run.
    sqlite_with_rowid=False,
)

# A joker doubles the points of its player's pick on one match. Kept beside the
# picks (not on them) so a joker can be placed before the pick and moved without
# touching it; the stage cap is checked in the transaction that writes it.
jokers = Table(
    "jokers",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("match_number", Integer, ForeignKey("matches.number"), primary_key=True),
    Column("placed_at", UTCDateTime(), nullable=False),
)

# A bonus pick ("palpite especial"): the tournament's champion or its top scorer, one
# of each kind per player. ``value`` is what the player named, shown back to them;
# ``key`` the form it is matched by at the end (a team's name, a scorer's name folded
# through accents and spellings), so the standings compare plain columns.
bonus_picks = Table(
    "bonus_picks",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("kind", String(20), primary_key=True),  # "champion" or "scorer"
    Column("value", String(200), nullable=False),
    Column("key", String(200), nullable=False),
    Column("placed_at", UTCDateTime(), nullable=False),
)

# Each team's squad, as an admin last listed it (``SquadListed``): the players a top
# scorer pick is checked against before any goal (``game.squads``), and read as at the end.
squad_players = Table(
    "squad_players",
    metadata,
    Column("team", String(100), primary_key=True),
    Column("name", String(200), primary_key=True),
)

events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", UTCDateTime(), nullable=False),
    Column("kind", String(40), nullable=False),
    Column("match_number", Integer, index=True),
    Column("handle", String(32), index=True),
    Column("payload", JSON, nullable=False),
    # This event's link in the hash chain (game.db.chain): its content and the link before.
    Column("chain", String(64)),
)

# A results feed's own id for a match, remembered once matched: never matched again by guess.
feed_links = Table(
    "feed_links",
    metadata,
    Column("source", String(40), primary_key=True),
    Column("feed_id", String(40), primary_key=True),
    Column("match_number", Integer, ForeignKey("matches.number"), nullable=False),
    UniqueConstraint("source", "match_number"),
)

# What she has said on each trigger and topic: the database refuses a second remark.
remarks_said = Table(
    "remarks_said",
    metadata,
    Column("trigger", BigInteger, primary_key=True),
    Column("topic", String(40), primary_key=True),
)

invites = Table(
    "invites",
    metadata,
    Column("code", String(32), primary_key=True),
    Column("uses_left", Integer, nullable=False),
    Column("expires_at", UTCDateTime()),
    Column("created_by", String(32), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
)

# A player's account elsewhere (a Discord user), linked by a one-time code made over SSH:
# that account acts as this player and as no one else, never matched by name.
account_links = Table(
    "account_links",
    metadata,
    Column("service", String(20), primary_key=True),
    Column("account", String(64), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False, index=True),
    Column("linked_at", UTCDateTime(), nullable=False),
    # The account's name on the service when it was linked, shown to the player with
    # the link: a stranger's name there says a code was taken.
    Column("account_name", String(100)),
    UniqueConstraint("service", "player_id"),  # one account per player and service
)

link_codes = Table(
    "link_codes",
    metadata,
    Column("code", String(32), primary_key=True),
    Column("service", String(20), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=False),
)

# Discord's interaction signatures already acted on, until their five minutes are up:
# kept here rather than in a process, so a captured request cannot be played again
# after a restart or to another process. The primary key decides between racers.
seen_signatures = Table(
    "seen_signatures",
    metadata,
    Column("signature", String(128), primary_key=True),  # Ed25519's 64 bytes, in hex
    Column("expires_at", UTCDateTime(), nullable=False, index=True),
)

# How far a reader of the log outside memory has gone (the Discord poster): its
# position, and the part of a long event's message already delivered.
log_cursors = Table(
    "log_cursors",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("position", BigInteger, nullable=False),
    Column("part", Integer, nullable=False),
)

settings = Table(
    "settings",
    metadata,
    Column("key", String(100), primary_key=True),
    Column("value", Text, nullable=False),
)
