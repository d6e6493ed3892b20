"""The match lifecycle: scheduled -> live -> finished, one rule for the writers and the log.

The fixtures desk writes a match's status only by a move this table allows, as a
conditional UPDATE whose row count decides (``game.pool.fixtures``); the log's
check (``LifecycleLog``) reads the same table, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from game.events import (
    Event,
    GoalScored,
    LifecycleRepaired,
    LoggedEvent,
    MatchKickedOff,
    MatchScheduled,
    ResultRecorded,
)
from game.model import MatchStatus

SCHEDULED, LIVE, FINISHED = MatchStatus.SCHEDULED, MatchStatus.LIVE, MatchStatus.FINISHED

# Where a match may go from each status. Scheduled -> finished is a result that
# arrives for a match nobody saw kick off (a file or an admin entering a match
# already played); finished -> finished is a correction, logged with the result it
# replaces. Nothing ever goes back.
MOVES: dict[MatchStatus, frozenset[MatchStatus]] = {
    SCHEDULED: frozenset({LIVE, FINISHED}),
    LIVE: frozenset({FINISHED}),
    FINISHED: frozenset({FINISHED}),
}
# A goal is written on a match that is not over (a scheduled one kicks off first).
TAKES_GOALS = frozenset({SCHEDULED, LIVE})


def may_move(current: MatchStatus, to: MatchStatus) -> bool:
    return to in MOVES[current]


def moving_to(to: MatchStatus) -> list[str]:
    """The statuses a match may be in to move to ``to``, as stored: the UPDATE's WHERE."""
    return sorted(status.value for status, allowed in MOVES.items() if to in allowed)


@dataclass(frozen=True)
class LifecycleBreach:
    """One event the lifecycle does not allow, as the log holds it."""

    event_id: int
    match: int
    what: str  # the words for it, e.g. "a kick-off after its result"

    def text(self) -> str:
        return f"event {self.event_id} breaks the match lifecycle: {self.what} (#{self.match})"


@dataclass
class LifecycleLog:
    """The status of every match as the log tells it, and every event that broke the rule.

    A breach stays until a later ``LifecycleRepaired`` names it: the log is
    append-only, so a repair is a new event, and the status it sets is the one
    the fold keeps from there on.
    """

    statuses: dict[int, MatchStatus] = field(default_factory=dict)
    results: dict[int, str] = field(default_factory=dict)
    breaches: list[LifecycleBreach] = field(default_factory=list)
    repaired: set[int] = field(default_factory=set)

    @classmethod
    def from_log(cls, events: Iterable[LoggedEvent[Event]]) -> LifecycleLog:
        folded = cls()
        for item in events:
            folded.apply(item.id, item.event)
        return folded

    def apply(self, event_id: int, event: Event) -> None:
        match event:
            case MatchScheduled(match=number):
                self.statuses.setdefault(number, SCHEDULED)
            case MatchKickedOff(match=number):
                self._move(event_id, number, LIVE)
            case GoalScored(match=number):
                if self.statuses.get(number, SCHEDULED) not in TAKES_GOALS:
                    self._breach(event_id, number, "a goal after the whistle")
            case ResultRecorded(match=number, previous=previous):
                known = self.results.get(number)
                if previous != known:
                    self._breach(
                        event_id,
                        number,
                        "a second result that is not a correction"
                        if previous is None
                        else f"a correction of {previous} when the result was {known}",
                    )
                self._move(event_id, number, FINISHED)
                self.results[number] = str(event.result())
            case LifecycleRepaired(match=number, event=broken, status=status):
                self.repaired.add(broken)
                self.statuses[number] = MatchStatus(status)

    def _move(self, event_id: int, number: int, to: MatchStatus) -> None:
        current = self.statuses.get(number)
        if current is None:
            self._breach(event_id, number, "an event for a match never scheduled")
        elif not may_move(current, to):
            self._breach(event_id, number, _WORDS[(current, to)])
        else:
            self.statuses[number] = to

    def _breach(self, event_id: int, number: int, what: str) -> None:
        self.breaches.append(LifecycleBreach(event_id, number, what))

    def open_breaches(self) -> list[LifecycleBreach]:
        """The breaches no repair has named yet, oldest first."""
        return [b for b in self.breaches if b.event_id not in self.repaired]


_WORDS = {
    (LIVE, LIVE): "a second kick-off",
    (FINISHED, LIVE): "a kick-off after its result",
}
