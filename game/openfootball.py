"""Reading fixtures and results in the openfootball JSON format.

Pure parsing: a dict in, fixtures out. Fetching the file or URL is the
caller's business (``game.sources``), and so is writing it down.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from typing import Any

from game.errors import UserError
from game.model import Goal, InvalidScore, Match, MatchStatus, Result, Score, knockout_round
from game.teams import is_placeholder
from game.text import clean_line
from game.ties import away_goals_count, second_legs

TIME_PATTERN = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*(?:UTC\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?)?\s*$"
)
MINUTE_PATTERN = re.compile(r"^\s*(\d{1,3})\s*(?:\+\s*(\d{1,2}))?\s*'?\s*$")


MAX_NUMBER = 10_000  # no tournament has more matches; bigger is a broken file


class FixtureError(UserError, ValueError):
    """The file is not what the format promises; the message names the match."""


class MissingTimeZone(FixtureError):
    pass


@dataclass(frozen=True)
class Fixture:
    source_key: str  # what identifies this match across re-imports of the file
    stage: str
    kickoff: datetime
    local_date: str  # the date as the file writes it, for spreadsheets that refer to it
    team1: str
    team2: str
    group: str | None = None
    venue: str | None = None
    result: Result | None = None
    goals: tuple[Goal, ...] = ()
    number: int | None = None  # the official match number, when the file gives one ("num")
    # Keys earlier versions gave the same match: a pool imported then adopts the new key.
    former_keys: tuple[str, ...] = ()
    first_leg_key: str | None = None  # a tie's second leg: its first leg's key
    away_goals: bool = False  # a second leg: whether away goals decide a level aggregate

    def __post_init__(self) -> None:
        # A fixtures file is written by someone else: its names reach every terminal.
        for name in ("stage", "team1", "team2", "group", "venue"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, clean_line(str(value)))


@dataclass(frozen=True)
class Tournament:
    name: str
    fixtures: tuple[Fixture, ...]


def parse_kickoff(day: str, clock: str | None, zone: tzinfo | None) -> datetime:
    """``2026-06-11`` + ``13:00 UTC-6`` -> an aware UTC instant; no offset needs ``zone``.

    A match whose time is not set yet (a league's postponed or rearranged match:
    no ``time``) kicks off at the start of its day, so that picks close before
    any time it may be given; a later file with the time moves it (its key
    holds no time).
    """
    try:
        local_day = date.fromisoformat(day)
    except (TypeError, ValueError):
        raise FixtureError(f"bad date {day!r}") from None
    if clock is None or not clock.strip():
        clock = "00:00"
    found = TIME_PATTERN.match(clock)
    if not found:
        raise FixtureError(f"bad time {clock!r} (expected like '13:00 UTC-6')")
    hours, minutes, sign, offset_hours, offset_minutes = found.groups()
    wall = datetime.combine(local_day, time(int(hours), int(minutes)))
    if sign:
        offset = timedelta(hours=int(offset_hours), minutes=int(offset_minutes or 0))
        zone_here: tzinfo = timezone(offset if sign == "+" else -offset)
    elif zone is not None:
        zone_here = zone
    else:
        raise MissingTimeZone(
            f"time {clock!r} on {day} has no UTC offset: say which zone the file uses with --tz"
        )
    return wall.replace(tzinfo=zone_here).astimezone(UTC)


def parse_goal(raw: dict[str, Any], side: str) -> Goal:
    minute = raw.get("minute")
    added = raw.get("offset", 0) or 0
    if isinstance(minute, str):
        found = MINUTE_PATTERN.match(minute)
        if not found:
            raise FixtureError(f"bad goal minute {minute!r}")
        minute, added = int(found.group(1)), int(found.group(2) or added)
    if isinstance(minute, bool) or not isinstance(minute, int) or not isinstance(added, int):
        raise FixtureError(f"bad goal minute {raw.get('minute')!r}")
    return Goal(
        side=side,
        minute=minute,
        added=added,
        scorer=str(raw.get("name", "")),
        penalty=bool(raw.get("penalty", False)),
        own_goal=bool(raw.get("owngoal", False)),
    )


def _score(raw: Any) -> Score | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != 2:
        raise InvalidScore(f"bad score {raw!r}")
    return Score(raw[0], raw[1])


@dataclass(frozen=True)
class TieTerms:
    """What a second leg's result needs from its first leg."""

    key: str  # the first leg's source key
    score: Score | None  # the first leg at the end of play, from the second leg's home side
    away_goals: bool


def parse_result(raw: Any, tie: TieTerms | None = None) -> Result | None:
    if not raw:
        return None
    if not isinstance(raw, dict):
        raise InvalidScore(f"bad score {raw!r}")
    full_time = _score(raw.get("ft"))
    if full_time is None:
        return None
    if tie is None:
        return Result(full_time, _score(raw.get("et")), _score(raw.get("p")))
    if tie.score is None:
        raise FixtureError("a second leg with a result needs its first leg's result")
    return Result(full_time, _score(raw.get("et")), _score(raw.get("p")), tie.score, tie.away_goals)


def parse_fixture(
    raw: dict[str, Any], zone: tzinfo | None, tie: TieTerms | None = None, scored: bool = True
) -> Fixture:
    if not isinstance(raw, dict):
        raise FixtureError(f"a match must be an object, got {raw!r}")
    team1, team2 = raw.get("team1"), raw.get("team2")
    if not isinstance(team1, str) or not isinstance(team2, str) or not team1 or not team2:
        raise FixtureError(f"a match needs team1 and team2 ({raw.get('date')})")
    label = f"{raw.get('date')} {team1} v {team2}"
    try:
        kickoff = parse_kickoff(raw.get("date", ""), raw.get("time"), zone)
        result = parse_result(raw.get("score"), tie) if scored else None
        goals = tuple(
            parse_goal(goal, side)
            for side, key in (("home", "goals1"), ("away", "goals2"))
            for goal in raw.get(key) or ()
        )
    except MissingTimeZone:
        raise
    except (FixtureError, InvalidScore, ValueError, TypeError, AttributeError) as error:
        raise FixtureError(f"{label}: {error}") from None
    venue = raw.get("ground")
    stage, group = str(raw.get("round") or "Match"), raw.get("group")
    number = raw.get("num")
    if number is not None and (
        isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_NUMBER
    ):
        raise FixtureError(f"{label}: 'num' must be a match number from 1 to {MAX_NUMBER}")
    timed = f"at:{kickoff.isoformat()}|{venue or ''}"
    former: tuple[str, ...]
    if number is not None:
        source_key, former = f"num:{number}", ()
    elif knockout_round(stage, group) and (is_placeholder(team1) or is_placeholder(team2)):
        # Knock-out teams change from placeholders ("1A", "W74") to names; the key must not.
        source_key, former = timed, ()
    else:
        # A league's, a group's or a cup tie's match between named clubs: its kick-off
        # may move (postponed, rearranged, many at one hour), so its round and teams
        # name it; a knock-out slot named since keeps the picks made on the slot.
        # Built from the names as the pool keeps them: a file's control bytes stay out.
        named = f"{clean_line(stage)}|{clean_line(team1)} v {clean_line(team2)}"
        source_key, former = f"round:{named}", (timed,)
    return Fixture(
        source_key=source_key,
        stage=stage,
        kickoff=kickoff,
        local_date=raw["date"],
        team1=team1,
        team2=team2,
        group=group,
        venue=venue,
        result=result,
        goals=goals,
        number=number,
        former_keys=former,
        first_leg_key=None if tie is None else tie.key,
        away_goals=tie is not None and tie.away_goals,
    )


def _terms(competition: str, first: Fixture) -> TieTerms:
    played = None if first.result is None else first.result.end_of_play.swapped()
    day = date.fromisoformat(first.local_date)
    return TieTerms(first.source_key, played, away_goals_count(competition, day))


def parse_tournament(data: Any, zone: tzinfo | None = None) -> Tournament:
    if not isinstance(data, dict) or not isinstance(data.get("matches"), list):
        raise FixtureError("not an openfootball file: expected an object with a 'matches' list")
    name = str(data.get("name") or "Tournament")
    raws: list[Any] = data["matches"]
    # A second leg's result is read against its first leg's: pair the legs first.
    firsts = second_legs(parse_fixture(raw, zone, scored=False) for raw in raws)
    read = {i: parse_fixture(raw, zone) for i, raw in enumerate(raws) if i not in firsts}
    for second, first in firsts.items():
        read[second] = parse_fixture(raws[second], zone, _terms(name, read[first]))
    fixtures = tuple(read[position] for position in range(len(raws)))
    counts = Counter(fixture.source_key for fixture in fixtures)
    duplicates = sorted(key for key, count in counts.items() if count > 1)
    if duplicates:
        raise FixtureError(f"the file lists the same match twice: {duplicates[0]}")
    return Tournament(name, fixtures)


def played(tournament: Tournament) -> list[Match]:
    """The file's finished matches in kick-off order, numbered as they come: an earlier
    season for her ratings to start from, never a pool's matches."""
    finished = sorted((f for f in tournament.fixtures if f.result), key=lambda f: f.kickoff)
    return [
        Match(
            number,
            f.stage,
            f.kickoff,
            f.team1,
            f.team2,
            f.group,
            f.venue,
            MatchStatus.FINISHED,
            f.result,
        )
        for number, f in enumerate(finished, start=1)
    ]
