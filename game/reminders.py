"""Reminders: which matches close soon without a player's pick, and who to tell.

Plain rules on plain values, no database: the pool reads the matches and picks,
these decide. A match closes at its kick-off by the server's clock (the same
``Match.has_started`` that locks picks), so a match already started is never
one to remind of.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from game.model import Match

LOGIN_WINDOW = timedelta(hours=24)  # what a player is told of at login
DEFAULT_LEAD = timedelta(minutes=60)  # how long before kick-off the live reminder goes


@dataclass(frozen=True)
class Reminder:
    """Match #N kicks off in ``minutes`` and these players have no pick on it."""

    number: int
    label: str  # "#5 Brazil v Morocco"
    minutes: int
    players: tuple[str, ...]


def closing_without_pick(
    now: datetime, matches: Iterable[Match], picked: Collection[int], within: timedelta
) -> list[Match]:
    """The matches still open at ``now`` that close within ``within`` and are not in
    ``picked`` (match numbers the player has a pick on), soonest first."""
    closing = [
        m
        for m in matches
        if not m.has_started(now) and m.kickoff <= now + within and m.number not in picked
    ]
    return sorted(closing, key=Match.time_order)


def remind_at(match: Match, lead: timedelta) -> datetime:
    """When the live reminder of ``match`` is due."""
    return match.kickoff - lead


def is_due(match: Match, now: datetime, lead: timedelta) -> bool:
    """Whether the reminder of ``match`` may go at ``now``: its time has come and the
    match is still open (a server that was down at the time still tells it, late)."""
    return remind_at(match, lead) <= now and not match.has_started(now)


def forgetful(remindable: Iterable[str], picked: Collection[str]) -> tuple[str, ...]:
    """Who to remind: those who want reminders (``remindable``) without a pick, in order."""
    return tuple(handle for handle in remindable if handle not in picked)


def minutes_left(match: Match, now: datetime) -> int:
    """Whole minutes until kick-off, rounded up: "in 60 minutes" at 59:30 to go."""
    seconds = (match.kickoff - now).total_seconds()
    return max(0, -int(-seconds // 60))
