"""What a feed says about one match, before the pool decides what to do with it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
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
    feed_id: str | None = None  # the feed's own id for the match, remembered once matched
    code1: str | None = None  # the teams' codes as the feed gives them (FIFA-style, "USA")
    code2: str | None = None
    problem: str | None = None  # a finished match whose result the feed does not fully give

    def __post_init__(self) -> None:
        # A feed is player input too: a compromised one must not reach a terminal raw.
        object.__setattr__(self, "team1", clean_line(self.team1))
        object.__setattr__(self, "team2", clean_line(self.team2))

    @property
    def label(self) -> str:
        seen = f"{self.team1} v {self.team2}, {self.kickoff:%d %b %H:%M} UTC"
        return f"{seen} (feed id {self.feed_id})" if self.feed_id else seen

    def swapped(self) -> FeedResult:
        """The same match with home and away the other way round, as the pool lists it."""
        flip = {"home": "away", "away": "home"}
        return replace(
            self,
            team1=self.team2,
            team2=self.team1,
            code1=self.code2,
            code2=self.code1,
            result=None if self.result is None else self.result.swapped(),
            goals=None
            if self.goals is None
            else tuple(replace(goal, side=flip[goal.side]) for goal in self.goals),
        )


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
