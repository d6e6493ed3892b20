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


class Tail:
    """Every event of one kind read so far, in log order."""

    def __init__(self, kind: type[Event]) -> None:
        self.kind = kind
        self._lock = threading.Lock()
        self._seen = 0  # the id of the last one kept
        self._items: list[LoggedEvent[Event]] = []

    def catch_up(self, connection: Connection) -> None:
        """Reads the events of this kind after the last one kept."""
        with self._lock:
            seen = self._seen
        new = list(log.read(connection, after_id=seen, kinds=(self.kind.kind,)))
        with self._lock:
            for item in new:
                if item.id > self._seen:  # another thread's read may have kept it first
                    self._items.append(item)
                    self._seen = item.id

    def select(
        self,
        after_id: int = 0,
        match_number: int | None = None,
        since: datetime | None = None,
        up_to_id: int | None = None,
    ) -> list[LoggedEvent[Event]]:
        """The kept events that pass the log's own filters (``log.read``)."""
        with self._lock:
            items = list(self._items)
        return [
            item
            for item in items
            if item.id > after_id
            and (match_number is None or item.event.match_number == match_number)
            and (since is None or item.at >= since)
            and (up_to_id is None or item.id <= up_to_id)
        ]
