"""Player facts: atomic, dated, sourced, and never lost.

Compaction merges duplicates and groups similar facts, but its contract is the
opposite of the diary's: every distinct fact survives. The model proposes, the
code verifies (every source id covered, every cited id real) and rejects the
whole proposal otherwise. Merged-away facts stay stored, pointing at the fact
that now stands for them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from difflib import get_close_matches
from typing import Any

from sqlalchemy import Connection, Row, insert, select, update

from game.addressing import Addressee
from memory.schema import fact_compactions, player_facts

MONTHS = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
        start=1,
    )
}
REMEMBER = re.compile(r"^remember\b\s*(?:that\s+)?(?P<fact>.+)$", re.IGNORECASE | re.DOTALL)
UNTIL = re.compile(
    r"\buntil\s+(?:(?P<iso>\d{4}-\d{2}-\d{2})|(?P<day>\d{1,2})\s+(?P<month>[a-z]{3})[a-z]*"
    r"|(?P<month2>[a-z]{3})[a-z]*\s+(?P<day2>\d{1,2}))",
    re.IGNORECASE,
)


class FactMergeRejected(ValueError):
    """A compaction the code refused; the originals stay as they were."""


@dataclass(frozen=True)
class Fact:
    id: int
    handle: str
    text: str
    learned_on: date
    source: str
    expires_on: date | None = None
    covers: tuple[int, ...] = ()

    def expired(self, today: date) -> bool:
        return self.expires_on is not None and today > self.expires_on


@dataclass(frozen=True)
class Remembered:
    """A fact as read from a chat line, before it is stored."""

    handle: str
    text: str
    expires_on: date | None


@dataclass(frozen=True)
class MergedFact:
    text: str
    covers: tuple[int, ...]


# -- learning -----------------------------------------------------------------


def expiry_in(text: str, today: date) -> date | None:
    """The date in "until 10 Jul", "until July 10" or "until 2026-07-10", if any."""
    found = UNTIL.search(text)
    if not found:
        return None
    try:
        if found["iso"]:
            return date.fromisoformat(found["iso"])
        month = MONTHS.get((found["month"] or found["month2"]).lower())
        day = int(found["day"] or found["day2"])
        return date(today.year, month, day) if month else None
    except ValueError:
        return None


def told_to_remember(text: str, listener: Addressee) -> str | None:
    """The fact in ``@handle remember (that) ...``, as told; None for any other line."""
    message = listener.message(text)
    found = None if message is None else REMEMBER.match(message)
    return None if found is None else found["fact"]


def read_remember(
    text: str, speaker: str, players: Mapping[str, str], today: date, listener: Addressee
) -> Remembered | None:
    """``@<her handle> remember ...``: a fact about the speaker, or ``None``.

    A fact that names another player is not the speaker's to tell (``ana cheats``):
    it is refused, never stored under anyone.
    """
    told = told_to_remember(text, listener)
    if told is None:
        return None
    fact = " ".join(told.split()).rstrip(".")
    if not fact or others_named(fact, speaker, players, listener.handle):
        return None
    return Remembered(speaker, fact, expiry_in(fact, today))


def others_named(
    text: str, speaker: str, players: Mapping[str, str], listener: str | None = None
) -> list[str]:
    """The players other than ``speaker`` that ``text`` names, by handle or name.

    Naming ``listener`` (her, in a fact told to her) is no claim about a player.
    """
    lowered = text.lower()
    named = []
    for handle, name in players.items():
        if handle in (speaker, listener):
            continue
        spellings = {handle, *([name.lower()] if name else [])}
        if any(re.search(rf"(?<![\w@-])@?{re.escape(s)}(?![\w-])", lowered) for s in spellings):
            named.append(handle)
    return sorted(named)


MAX_FACT_LENGTH = 200


def parse_extracted(
    answer: str,
    author: str,
    today: date,
    players: Mapping[str, str] | None = None,
    listener: str | None = None,
) -> list[Remembered]:
    """Facts a model found in free chat, kept only if they are the author's own and short.

    Anything else (prose, another player, a fact naming another player, an empty
    text) is dropped, not stored.
    """
    try:
        raw = json.loads(answer.strip().strip("`").removeprefix("json").strip())
    except json.JSONDecodeError:
        return []
    if not isinstance(raw, list):
        return []
    found = []
    for item in raw:
        if not isinstance(item, dict) or item.get("player") != author:
            continue
        text = item.get("text")
        if isinstance(text, str) and 0 < len(text.strip()) <= MAX_FACT_LENGTH:
            fact = " ".join(text.split())
            if players and others_named(fact, author, players, listener):
                continue
            found.append(Remembered(author, fact, expiry_in(fact, today)))
    return found


def suggest(name: str, players: Mapping[str, str]) -> list[str]:
    """Close handles for a name that matches no player: suggestions, never a guess."""
    candidates = {h: h for h in players} | {n.lower(): h for h, n in players.items()}
    close = get_close_matches(name.lower(), list(candidates), n=3, cutoff=0.6)
    return sorted({candidates[c] for c in close})


# -- storing and reading ------------------------------------------------------


def _fact(row: Row[Any]) -> Fact:
    return Fact(
        row.id, row.handle, row.text, row.learned_on, row.source, row.expires_on, tuple(row.covers)
    )


def add(
    connection: Connection,
    handle: str,
    text: str,
    learned_on: date,
    source: str,
    now: datetime,
    expires_on: date | None = None,
    covers: tuple[int, ...] = (),
) -> int:
    result = connection.execute(
        insert(player_facts).values(
            handle=handle,
            text=text,
            learned_on=learned_on,
            source=source,
            expires_on=expires_on,
            covers=list(covers),
            created_at=now,
        )
    )
    return int(result.inserted_primary_key[0])  # type: ignore[index]  # one key, never None


def current(connection: Connection, handle: str | None = None) -> list[Fact]:
    """Facts not merged away (expired ones included), oldest first."""
    query = (
        select(player_facts)
        .where(player_facts.c.superseded_by.is_(None))
        .order_by(player_facts.c.id)
    )
    if handle is not None:
        query = query.where(player_facts.c.handle == handle)
    return [_fact(row) for row in connection.execute(query)]


def stored(connection: Connection) -> list[Fact]:
    """Every fact ever stored, merged-away ones too."""
    return [
        _fact(row) for row in connection.execute(select(player_facts).order_by(player_facts.c.id))
    ]


def for_prompt(connection: Connection, handle: str, today: date) -> list[Fact]:
    return [fact for fact in current(connection, handle) if not fact.expired(today)]


def has_source(connection: Connection, source: str) -> bool:
    return (
        connection.execute(select(player_facts.c.id).where(player_facts.c.source == source)).first()
        is not None
    )


# -- compaction ---------------------------------------------------------------


def candidates(connection: Connection, handle: str, today: date) -> list[Fact]:
    """What a compaction may merge: current, lasting facts. Perishable ones are left to expire."""
    return [fact for fact in for_prompt(connection, handle, today) if fact.expires_on is None]


def parse_merge(answer: str) -> list[MergedFact]:
    """The model's JSON answer, or a rejection saying what is wrong with it."""
    text = answer.strip()
    if text.startswith("```"):
        text = text.strip("`").removeprefix("json").strip()
    try:
        raw: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise FactMergeRejected(f"the answer is not JSON ({error.msg})") from None
    if not isinstance(raw, list) or not raw:
        raise FactMergeRejected("the answer is not a non-empty list of facts")
    merged = []
    for item in raw:
        if not isinstance(item, dict):
            raise FactMergeRejected(f"not a fact object: {item!r}")
        fact_text, covers = item.get("text"), item.get("covers")
        if not isinstance(fact_text, str) or not fact_text.strip():
            raise FactMergeRejected(f"a fact without text: {item!r}")
        if (
            not isinstance(covers, list)
            or not covers
            or not all(isinstance(i, int) and not isinstance(i, bool) for i in covers)
        ):
            raise FactMergeRejected(f"a fact without the ids it covers: {item!r}")
        merged.append(MergedFact(" ".join(fact_text.split()), tuple(covers)))
    return merged


def verify_merge(sources: list[Fact], merged: list[MergedFact]) -> None:
    """Every source covered, every citation real: otherwise the merge is refused."""
    source_ids = {fact.id for fact in sources}
    cited = {i for fact in merged for i in fact.covers}
    invented = sorted(cited - source_ids)
    if invented:
        raise FactMergeRejected(f"cites facts that are not among the sources: {invented}")
    dropped = sorted(source_ids - cited)
    if dropped:
        raise FactMergeRejected(f"drops facts {dropped}")
    if len(merged) > len(sources):
        raise FactMergeRejected(f"turns {len(sources)} facts into {len(merged)}")


def apply_merge(
    connection: Connection,
    handle: str,
    sources: list[Fact],
    merged: list[MergedFact],
    now: datetime,
) -> list[int]:
    """Store the merged facts and point the sources at them; call inside one transaction."""
    by_id = {fact.id: fact for fact in sources}
    new_ids = []
    for fact in merged:
        if len(fact.covers) == 1 and by_id[fact.covers[0]].text == fact.text:
            continue  # unchanged: the original stays as it is
        learned = max(by_id[i].learned_on for i in fact.covers)
        new_id = add(
            connection,
            handle,
            fact.text,
            learned,
            "merge",
            now,
            covers=tuple(sorted(set(fact.covers))),
        )
        connection.execute(
            update(player_facts)
            .where(player_facts.c.id.in_(fact.covers), player_facts.c.superseded_by.is_(None))
            .values(superseded_by=new_id)
        )
        new_ids.append(new_id)
    return new_ids


def record_compaction(
    connection: Connection,
    handle: str,
    accepted: bool,
    reason: str,
    sources: list[Fact],
    output: object,
    now: datetime,
) -> None:
    connection.execute(
        insert(fact_compactions).values(
            handle=handle,
            at=now,
            accepted=accepted,
            reason=reason,
            source_ids=[fact.id for fact in sources],
            output=output,
        )
    )


def rejected_count(connection: Connection) -> int:
    rows = connection.execute(
        select(fact_compactions.c.id).where(fact_compactions.c.accepted.is_(False))
    )
    return len(rows.all())
