"""What a feed says about one match, before the pool decides what to do with it."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime

from game.model import Goal, Result
from game.text import clean_line


class FeedStatus(enum.StrEnum):
    SCHEDULED = "scheduled"
    LIVE = "live"
    FINISHED = "finished"


@dataclass(frozen=True)
class FeedResult:
    kickoff: datetime
    team1: str
    team2: str
    status: FeedStatus
    result: Result | None = None
    goals: tuple[Goal, ...] | None = None  # None: the feed does not report goals

    def __post_init__(self) -> None:
        # A feed is player input too: a compromised one must not reach a terminal raw.
        object.__setattr__(self, "team1", clean_line(self.team1))
        object.__setattr__(self, "team2", clean_line(self.team2))


@dataclass
class FeedReport:
    updated: int = 0
    kicked_off: int = 0
    goals: int = 0
    results: int = 0
    corrections: int = 0
    unmatched: list[str] | None = None
    kept_admin_results: list[int] | None = None

    def summary(self) -> str:
        parts = [
            f"{self.results} results",
            f"{self.corrections} corrections",
            f"{self.goals} goals",
            f"{self.kicked_off} kick-offs",
            f"{self.updated} teams filled",
        ]
        if self.unmatched:
            parts.append(f"{len(self.unmatched)} unmatched")
        return ", ".join(parts)
