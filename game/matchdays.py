"""Match days and rounds: which matches a day or a round holds, and who won it.

A match's day is the date it is played where it is played (``matches.local_date``,
as the fixtures write it), or its UTC date when the fixtures give none: a World
Cup evening in the Americas is one day for the pool, not two. A round is a
league's or a group stage's numbered round (``game.league.round_of``).

The day's winner is whoever scored the most points on its matches; players level
at the top share it, and a day where nobody scored is won by nobody.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime, time, timedelta

from game import league
from game.model import Match

# The pool setting that puts days won right after points in the tie-break order
# (``DAYS_FIRST``); by default a tie is broken by exact hits, then outcome hits.
TIEBREAK_KEY = "tiebreak"
EXACT_FIRST = "exact"
DAYS_FIRST = "days"
TIEBREAKS = (EXACT_FIRST, DAYS_FIRST)
# The widest offsets from UTC a venue's clock has (Baker Island, Kiribati's Line Islands).
LONGEST_OFFSET_WEST = timedelta(hours=12)
LONGEST_OFFSET_EAST = timedelta(hours=14)


def day_of(local_date: str | None, kickoff: datetime) -> date:
    """The day a match counts for: its local date, else its UTC date."""
    if local_date:
        return date.fromisoformat(local_date)
    return kickoff.astimezone(UTC).date()


def moved(local_date: str | None, before: datetime, after: datetime) -> str | None:
    """The local date of a match a feed moved from ``before`` to ``after``; None when it
    had no local date.

    A feed gives UTC times only, and the venue's offset from UTC is known only as far
    as the old local date allows: taken as the one that puts the old kick-off at local
    noon, within what that date allows, so a kick-off moved a few hours keeps its day
    (16:00 to 21:30 in São Paulo, past midnight UTC) and one put back a week moves with it.
    """
    if not local_date:
        return None
    start = datetime.combine(date.fromisoformat(local_date), time(), UTC)
    kickoff = before.astimezone(UTC)
    # local = UTC + offset, the old kick-off on its local date, offsets -12:00 to +14:00
    low = max(start - kickoff, -LONGEST_OFFSET_WEST)
    high = min(start + timedelta(days=1) - kickoff, LONGEST_OFFSET_EAST) - timedelta(minutes=1)
    offset = start + timedelta(hours=12) - kickoff
    if low <= high:
        offset = min(max(offset, low), high)
    return (after.astimezone(UTC) + offset).date().isoformat()


def on_day(days: Mapping[int, date], day: date) -> set[int]:
    """The matches (numbers) played on ``day``."""
    return {number for number, played in days.items() if played == day}


def latest_day(days: Mapping[int, date], finished: Iterable[int]) -> date | None:
    """The last day with a finished match: what ``standings day`` shows by default."""
    return max((days[n] for n in finished if n in days), default=None)


def in_round(matches: Iterable[Match], number: int) -> set[int]:
    """The matches (numbers) of round ``number``."""
    return {m.number for m in league.in_round(matches, number)}


def winners(points: Mapping[str, int]) -> list[str]:
    """Who won a day or round from each player's points on it: everyone level at the
    top, in name order; nobody when the top is no points at all."""
    top = max(points.values(), default=0)
    return sorted(player for player, scored in points.items() if scored == top) if top > 0 else []
