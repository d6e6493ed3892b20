"""The event log defends itself: database guards, and a hash chain that shows tampering.

The guards (triggers) make the database refuse UPDATE, DELETE, TRUNCATE and
an INSERT that would replace an existing event (SQLite's ``INSERT OR REPLACE``
deletes without firing a DELETE trigger). Anyone with the file can still drop
them, so every event also carries ``chain``: a hash of its content and of the
event before it. Changing, removing or slipping in an event breaks the chain
from there on, and ``verify`` names the first event that does not fit.
What is left after cutting events off the end still chains, so ``verify``
also reports the log's ``Head`` (its count and last link), and checks the
log against a head kept elsewhere when given one.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, text

from game.errors import UserError

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


class BadHead(UserError, ValueError):
    """An expected head that is not ``COUNT:LINK`` as ``betania log --verify`` prints it."""


@dataclass(frozen=True)
class Head:
    """Where the log ends: how many events it holds and the last one's link.

    The chain alone cannot show events cut from the end: what is left still
    follows from the start. A head kept elsewhere (with a backup) anchors the
    end, and since each link covers every event before it, a log whose event
    at that count still has that link holds those events unchanged.
    """

    count: int
    link: str = GENESIS

    def __str__(self) -> str:
        return f"{self.count}:{self.link}"

    @classmethod
    def parse(cls, text: str) -> Head:
        """``COUNT:LINK`` (the line ``head COUNT:LINK`` is read too, as copied)."""
        found = _HEAD.fullmatch(text.strip().removeprefix("head").strip().lower())
        if found is None or (found["count"] == "0") != (found["link"] == GENESIS):
            raise BadHead(
                "bad head {text!r}: give it as `betania log --verify` prints it, "
                "COUNT:LINK (the link is 64 hexadecimal digits)",
                text=text,
            )
        return cls(int(found["count"]), found["link"])


_HEAD = re.compile(r"(?P<count>\d{1,18}):(?P<link>[0-9a-f]{64}|)")


@dataclass(frozen=True)
class Verdict:
    checked: int
    first_bad: int | None = None
    problem: str = ""
    head: Head = Head(0)
    expected: Head | None = None

    @property
    def intact(self) -> bool:
        return not self.problem

    @property
    def added(self) -> int | None:
        """Events appended since the expected head, when there was one and it holds."""
        if self.expected is None or not self.intact:
            return None
        return self.checked - self.expected.count

    def text(self) -> str:
        if self.first_bad is not None:
            return f"the log is broken at event {self.first_bad}: {self.problem}"
        if self.problem:
            return self.problem
        told = f"the log is intact: {self.checked} events, each chained to the one before"
        if self.expected is not None:
            told += (
                f"; it still holds the expected head (its first {self.expected.count} "
                f"events); added since: {self.added}"
            )
        return told


def verify(rows: Iterable[Mapping[str, Any]], expect: Head | None = None) -> Verdict:
    """Walk the log in id order; the first event whose link does not fit is reported.

    Each link covers the one before, so a removed or inserted event shows up
    at the event after it, and a changed one at itself. With ``expect`` (a
    head kept from an earlier look) the log must still hold that head: fewer
    events means its end was cut, another link at that count that it was
    rewritten since.
    """
    previous, checked = GENESIS, 0
    at_expected = GENESIS
    for row in rows:
        content = digest(row["at"], row["kind"], row["match_number"], row["handle"], row["payload"])
        if row["chain"] != link(previous, row["id"], content):
            return Verdict(
                checked,
                row["id"],
                "it does not follow from the event before it: this event, or one before it, "
                "was changed, removed or slipped in",
                Head(checked, previous),
                expect,
            )
        previous, checked = row["chain"], checked + 1
        if expect is not None and checked == expect.count:
            at_expected = previous
    head = Head(checked, previous)
    if expect is None:
        return Verdict(checked, head=head)
    if checked < expect.count:
        problem = (
            f"the log has {checked} events, fewer than the {expect.count} of the expected "
            f"head {expect}: events were removed from its end"
        )
    elif at_expected != expect.link:
        problem = (
            f"the log's first {expect.count} events are not those of the expected head "
            f"{expect}: the log was rewritten or replaced since that head was kept"
        )
    else:
        problem = ""
    return Verdict(checked, problem=problem, head=head, expected=expect)
