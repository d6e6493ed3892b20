"""The event log defends itself: database guards, and a hash chain that shows tampering.

The guards (triggers) make the database refuse UPDATE, DELETE, TRUNCATE and
an INSERT that would replace an existing event (SQLite's ``INSERT OR REPLACE``
deletes without firing a DELETE trigger). Anyone with the file can still drop
them, so every event also carries ``chain``: a hash of its content and of the
event before it. Changing, removing or slipping in an event breaks the chain
from there on, and ``verify`` names the first event that does not fit.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, text

log = logging.getLogger("betania.db")

APPEND_ONLY = "events are append-only: UPDATE, DELETE and REPLACE are refused"
GENESIS = ""  # the link before the first event

SQLITE_GUARDS = {
    "events_no_update": "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
    f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END",
    "events_no_delete": "CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
    f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END",
    "events_no_replace": "CREATE TRIGGER events_no_replace BEFORE INSERT ON events "
    "WHEN EXISTS (SELECT 1 FROM events WHERE id = NEW.id) "
    f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END",
}
POSTGRESQL_FUNCTIONS = (
    "CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger AS $$ "
    f"BEGIN RAISE EXCEPTION '{APPEND_ONLY}'; END; $$ LANGUAGE plpgsql",
    "CREATE OR REPLACE FUNCTION betania_link(previous text, id bigint, digest text) "
    "RETURNS text AS $$ SELECT encode(sha256(convert_to(previous || ':' || id || ':' || digest, "
    "'UTF8')), 'hex') $$ LANGUAGE sql IMMUTABLE",
)
POSTGRESQL_GUARDS = {
    "events_append_only": "CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events "
    "FOR EACH ROW EXECUTE FUNCTION events_append_only()",
    "events_no_truncate": "CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events "
    "FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()",
}


def guards_for(dialect: str) -> dict[str, str]:
    if dialect == "sqlite":
        return SQLITE_GUARDS
    if dialect == "postgresql":
        return POSTGRESQL_GUARDS
    raise RuntimeError(f"no append-only guard written for {dialect}")


def existing_guards(connection: Connection) -> set[str]:
    if connection.dialect.name == "sqlite":
        query = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'"
    else:
        query = (
            "SELECT tgname FROM pg_trigger WHERE tgrelid = 'events'::regclass AND NOT tgisinternal"
        )
    return {name for (name,) in connection.execute(text(query))}


def ensure_guards(engine: Engine) -> list[str]:
    """Put back any guard that is missing, loudly; returns the names restored."""
    guards = guards_for(engine.dialect.name)
    with engine.begin() as connection:
        missing = sorted(set(guards) - existing_guards(connection))
        if missing and engine.dialect.name == "postgresql":
            for function in POSTGRESQL_FUNCTIONS:
                connection.execute(text(function))
        for name in missing:
            connection.execute(text(guards[name]))
    for name in missing:
        log.warning(
            "the event log's guard %s was missing and is restored; run `betania log --verify`",
            name,
        )
    return missing


# -- the chain -----------------------------------------------------------------


def digest(
    at: datetime, kind: str, match_number: int | None, handle: str | None, payload: Any
) -> str:
    """A hash of one event's content, the same whichever database stored it."""
    content = {
        "at": at.astimezone(UTC).isoformat(),
        "kind": kind,
        "match": match_number,
        "handle": handle,
        "payload": payload,
    }
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def link(previous: str, event_id: int, content_digest: str) -> str:
    """One event's place in the chain; also the SQL function ``betania_link``."""
    return hashlib.sha256(f"{previous}:{event_id}:{content_digest}".encode()).hexdigest()


@dataclass(frozen=True)
class Verdict:
    checked: int
    first_bad: int | None = None
    problem: str = ""

    @property
    def intact(self) -> bool:
        return self.first_bad is None

    def text(self) -> str:
        if self.intact:
            return f"the log is intact: {self.checked} events, each chained to the one before"
        return f"the log is broken at event {self.first_bad}: {self.problem}"


def verify(rows: Iterable[Mapping[str, Any]]) -> Verdict:
    """Walk the log in id order; the first event whose link does not fit is reported.

    Each link covers the one before, so a removed or inserted event shows up
    at the event after it, and a changed one at itself.
    """
    previous, checked = GENESIS, 0
    for row in rows:
        content = digest(row["at"], row["kind"], row["match_number"], row["handle"], row["payload"])
        if row["chain"] != link(previous, row["id"], content):
            return Verdict(
                checked,
                row["id"],
                "it does not follow from the event before it: this event, or one before it, "
                "was changed, removed or slipped in",
            )
        previous, checked = row["chain"], checked + 1
    return Verdict(checked)
