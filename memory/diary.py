"""The diary: one dated entry per finished match, fused as it ages.

Lossy by design. When there are more than ``threshold`` match entries (or they
would take more than ``detail_tokens`` in a prompt), all but
the newest ``keep`` are fused with the previous narrative into a new narrative,
and the new narrative and the removal of what it replaces commit together. The
raw material stays in the game's log, so nothing is lost, only condensed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import Connection, Row, delete, insert, select

from memory.schema import diary_entries
from memory.tokens import estimate_tokens

MATCH = "match"
NARRATIVE = "narrative"


@dataclass(frozen=True)
class DiaryConfig:
    threshold: int = 8  # fuse when there are more match entries than this
    keep: int = 2  # the newest entries that stay in full detail
    # ... or when the entries would take more tokens than this in a prompt: a knock-out
    # day's entries (extra time, penalties, more scorers) are longer than a group day's.
    detail_tokens: int = 300

    def __post_init__(self) -> None:
        if not 0 <= self.keep < self.threshold:
            raise ValueError("the diary keeps fewer entries than its compaction threshold")


@dataclass(frozen=True)
class DiaryEntry:
    id: int
    kind: str
    text: str
    covers: tuple[int, ...]
    first_date: date
    last_date: date
    written_at: datetime

    @property
    def dates(self) -> str:
        if self.first_date == self.last_date:
            return f"[{self.first_date:%d %b}]"
        return f"[{self.first_date:%d %b} - {self.last_date:%d %b}]"


def _entry(row: Row[Any]) -> DiaryEntry:
    return DiaryEntry(
        row.id, row.kind, row.text, tuple(row.covers), row.first_date, row.last_date, row.written_at
    )


def read(connection: Connection) -> tuple[DiaryEntry | None, list[DiaryEntry]]:
    """The fused narrative (if any) and the match entries, oldest first."""
    rows = [
        _entry(row)
        for row in connection.execute(select(diary_entries).order_by(diary_entries.c.id))
    ]
    narratives = [entry for entry in rows if entry.kind == NARRATIVE]
    matches = sorted((entry for entry in rows if entry.kind == MATCH), key=lambda e: e.covers)
    return (narratives[-1] if narratives else None), matches


def covered(connection: Connection) -> set[int]:
    return {
        number
        for row in connection.execute(select(diary_entries.c.covers))
        for number in row.covers
    }


def add_match_entry(
    connection: Connection, number: int, text: str, day: date, written_at: datetime, event_id: int
) -> None:
    connection.execute(
        insert(diary_entries).values(
            kind=MATCH,
            match_number=number,
            text=text,
            covers=[number],
            first_date=day,
            last_date=day,
            written_at=written_at,
            event_id=event_id,
        )
    )


def to_fuse(
    matches: list[DiaryEntry], config: DiaryConfig, closing: bool = False
) -> list[DiaryEntry]:
    """The entries a compaction would fold into the narrative now; empty when it's not time.

    It is time when there are more than ``threshold`` entries, or when they
    would take more than ``detail_tokens`` in a prompt, whichever comes first.

    ``closing`` is the end of the tournament: fold all but the newest ``keep``
    whatever the threshold, so the diary ends as one narrative + ``keep`` entries.
    """
    crowded = sum(estimate_tokens(m.text) for m in matches) > config.detail_tokens
    due = len(matches) > config.threshold or crowded or closing
    if due and len(matches) > config.keep:
        return matches[: len(matches) - config.keep]
    return []


def replace_with_narrative(
    connection: Connection,
    narrative: DiaryEntry | None,
    fused: list[DiaryEntry],
    text: str,
    written_at: datetime,
) -> None:
    """Insert the new narrative, then remove what it replaces: call inside one transaction."""
    replaced = ([narrative] if narrative else []) + fused
    covers = sorted({number for entry in replaced for number in entry.covers})
    connection.execute(
        insert(diary_entries).values(
            kind=NARRATIVE,
            match_number=None,
            text=text,
            covers=covers,
            first_date=min(entry.first_date for entry in replaced),
            last_date=max(entry.last_date for entry in replaced),
            written_at=written_at,
        )
    )
    connection.execute(
        delete(diary_entries).where(diary_entries.c.id.in_([e.id for e in replaced]))
    )


def clear(connection: Connection) -> None:
    connection.execute(delete(diary_entries))


def snapshot(connection: Connection) -> list[dict[str, Any]]:
    """Every diary row as plain JSON-able values, to put back with ``restore``."""
    rows = connection.execute(select(diary_entries).order_by(diary_entries.c.id))
    return [
        {
            **row._mapping,
            "first_date": row.first_date.isoformat(),
            "last_date": row.last_date.isoformat(),
            "written_at": row.written_at.isoformat(),
        }
        for row in rows
    ]


def restore(connection: Connection, rows: list[dict[str, Any]]) -> None:
    """The diary exactly as ``snapshot`` saw it; call inside one transaction."""
    clear(connection)
    for row in rows:
        connection.execute(
            insert(diary_entries).values(
                {
                    **row,
                    "first_date": date.fromisoformat(row["first_date"]),
                    "last_date": date.fromisoformat(row["last_date"]),
                    "written_at": datetime.fromisoformat(row["written_at"]),
                }
            )
        )
