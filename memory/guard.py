"""The repetition guard: a check in code, not a wish in the prompt.

A new remark about a player is refused when it is too close to one already
made about the same player in the last few days. The commentator then tries
another phrasing or stays silent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from difflib import SequenceMatcher
from typing import cast

from game.events import Event, LoggedEvent, RemarkPosted


def normalized(text: str) -> str:
    return re.sub(r"[^\w ]+", "", text.lower()).strip()


def similarity(a: str, b: str) -> float:
    return SequenceMatcher(None, normalized(a), normalized(b)).ratio()


@dataclass(frozen=True)
class RepetitionGuard:
    threshold: float = 0.75  # a ratio of matching characters; 1.0 is the same line
    window: timedelta = timedelta(days=3)

    def recent(
        self, remarks: Iterable[LoggedEvent[Event]], about: Iterable[str], now: datetime
    ) -> list[LoggedEvent[RemarkPosted]]:
        """Remarks in the window about any of the players in ``about``."""
        wanted = set(about)
        return [
            cast(LoggedEvent[RemarkPosted], item)
            for item in remarks
            if isinstance(item.event, RemarkPosted)
            and now - item.at <= self.window
            and wanted.intersection(item.event.about)
        ]

    def repeats(
        self, text: str, about: Iterable[str], remarks: Iterable[LoggedEvent[Event]], now: datetime
    ) -> LoggedEvent[RemarkPosted] | None:
        """The earlier remark that ``text`` repeats, if there is one."""
        for item in self.recent(remarks, about, now):
            if similarity(text, item.event.text) >= self.threshold:
                return item
        return None
