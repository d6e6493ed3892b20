"""The memory's own tables, beside the game's in the same database.

Only what cannot be rebuilt is kept: the diary (each entry was one model call),
the player facts (nobody can recompute what a player once said) and what each
model call cost. Working
memory and standings are rebuilt from the game's log on demand and have no
table.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Date,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

from game.db.schema import UTCDateTime

metadata = MetaData()

diary_entries = Table(
    "diary_entries",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("kind", String(10), nullable=False),  # "match" or "narrative"
    # One entry per match, enforced by the database: a restart can't write a second.
    Column("match_number", Integer, unique=True),
    Column("text", Text, nullable=False),
    Column("covers", JSON, nullable=False),  # match numbers, ascending
    Column("first_date", Date, nullable=False),
    Column("last_date", Date, nullable=False),
    Column("written_at", UTCDateTime(), nullable=False),
    Column("event_id", Integer),  # the log event that caused it
)

player_facts = Table(
    "player_facts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("handle", String(32), nullable=False, index=True),
    Column("text", Text, nullable=False),
    Column("learned_on", Date, nullable=False),  # when it was first told
    Column("confirmed_on", Date),  # when it was last told again (m0004); None: never
    Column("source", String(100), nullable=False),  # "log:123", "admin", "merge"
    Column("expires_on", Date),
    Column("covers", JSON, nullable=False),  # for a merged fact: the ids it stands for
    # A merged-away fact is kept, pointing at the fact that now stands for it.
    Column("superseded_by", Integer, ForeignKey("player_facts.id")),
    # A fact its player asked her to forget (m0005): out of every prompt, still stored,
    # with the log line that withdrew it.
    Column("withdrawn_on", Date),
    Column("withdrawn_by", String(100)),
    # Facts with time (m0007): what it is about ("team:club", "home"), and the day a newer
    # fact on the same subject replaced it (``superseded_by`` names that fact).
    Column("subject", String(50)),
    Column("replaced_on", Date),
    # Told as a secret or of a sensitive kind (m0009): said back to its owner alone.
    Column("private", Boolean, nullable=False, server_default=false()),
    Column("created_at", UTCDateTime(), nullable=False),
)

fact_compactions = Table(
    "fact_compactions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("handle", String(32), nullable=False),
    Column("at", UTCDateTime(), nullable=False),
    Column("accepted", Boolean, nullable=False),
    Column("reason", Text, nullable=False),
    Column("source_ids", JSON, nullable=False),
    Column("output", JSON, nullable=False),
)

# What each model call cost (``memory.usage``): hers to account for, not the game's.
model_calls = Table(
    "model_calls",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("at", UTCDateTime(), nullable=False),
    Column("provider", String(50), nullable=False),
    Column("model", String(100), nullable=False),
    Column("task", String(50), nullable=False),
    Column("input_tokens", Integer, nullable=False),
    Column("output_tokens", Integer, nullable=False),
    Column("cache_read_tokens", Integer, nullable=False),
    Column("cache_write_tokens", Integer, nullable=False),
    Column("latency_ms", Integer, nullable=False),
    Column("error", Text),
    Column("fallback", Boolean, nullable=False),
    # What was asked and what came of it (m0003); empty in rows kept before.
    Column("match_number", Integer, index=True),
    Column("event_id", Integer),
    Column("system", Text),
    Column("prompt", Text),
    Column("response", Text),
    Column("outcome", String(200)),
    Column("sources", Text),  # a web search's queries and citations (m0006)
)

memory_state = Table(
    "memory_state",
    metadata,
    Column("key", String(50), primary_key=True),
    Column("value", Text, nullable=False),
)

# The agent's own bookkeeping (where her reactions stand, the last digest day):
# not memory, so not in memory's table, but kept by the same store.
agent_state = Table(
    "agent_state",
    metadata,
    Column("key", String(50), primary_key=True),
    Column("value", Text, nullable=False),
)
