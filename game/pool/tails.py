"""The log's events of a few kinds, kept as read: the log only grows, so each look
reads only what came after the last one.

Her turns ask for every remark she has posted (has she said this lately? has she
brought up that fact?) and every result, hundreds of times a tournament, and the
answer grows with it: read whole each time, it was read again from the first event.
Kept here are kinds that grow with the matches and the talk, never the picks,
which grow with the players.

A log id is taken under the writer's lock and committed before the next writer
takes one, so once an id is read every id below it is there to read: a tail read
after the last one seen misses nothing.
"""

from __future__ import annotations

import threading
from datetime import datetime

from sqlalchemy import Connection

from game.db import log
from game.events import (
    ChatPosted,
    Event,
    GoalScored,
    LoggedEvent,
    MatchKickedOff,
    RemarkPosted,
    ResultRecorded,
)

KEPT_KINDS: tuple[type[Event], ...] = (
    RemarkPosted,
    ChatPosted,
    GoalScored,
    ResultRecorded,
    MatchKickedOff,
)


class Tails:
    """Every event of the kept kinds read so far, by kind, in log order: all the kinds
    read together, so that what they hold is the log at one moment."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen = 0  # the id of the last kept event
        self._kept: dict[type[Event], list[LoggedEvent[Event]]] = {k: [] for k in KEPT_KINDS}

    def keeps(self, kind: type[Event]) -> bool:
        return kind in self._kept

    def catch_up(self, connection: Connection) -> bool:
        """Reads the kept kinds' events after the last one kept; whether any came."""
        with self._lock:
            seen = self._seen
        new = list(log.read(connection, after_id=seen, kinds=_KEPT_NAMES))
        with self._lock:
            for item in new:
                if item.id > self._seen:  # another thread's read may have kept it first
                    self._kept[type(item.event)].append(item)
                    self._seen = item.id
        return bool(new)

    def select(
        self,
        kind: type[Event],
        after_id: int = 0,
        match_number: int | None = None,
        since: datetime | None = None,
        up_to_id: int | None = None,
    ) -> list[LoggedEvent[Event]]:
        """The kept events of ``kind`` that pass the log's own filters (``log.read``)."""
        with self._lock:
            items = list(self._kept[kind])
        return [
            item
            for item in items
            if item.id > after_id
            and (match_number is None or item.event.match_number == match_number)
            and (since is None or item.at >= since)
            and (up_to_id is None or item.id <= up_to_id)
        ]


_KEPT_NAMES = tuple(kind.kind for kind in KEPT_KINDS)
