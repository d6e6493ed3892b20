"""football-data.org's v4 API: the World Cup's matches, scores and (where the plan has
them) goals, read with ``X-Auth-Token``.

Scores, as the v4 documentation defines them: ``fullTime`` is the running score
and, at the end, includes every goal, those of extra time and of the shoot-out
too; ``regularTime`` the 90 minutes, ``extraTime`` only the goals of extra time,
``penalties`` only the shoot-out's. ``duration`` says how the match ended
(REGULAR, EXTRA_TIME, PENALTY_SHOOTOUT). A finished match whose 90-minute score
cannot be read (no ``regularTime``, no goals to count) is reported, not guessed.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

import httpx

from game.feeds import FOOTBALL_DATA_URL
from game.model import (
    FeedReport,
    FeedResult,
    FeedStatus,
    Goal,
    InvalidScore,
    Result,
    Score,
    tally,
)
from game.pool import Pool
from game.sources import (
    LIMITS,
    NotJson,
    SourceError,
    SourceLimits,
    fetch,
    http_client,
    parse_json,
)

DEFAULT_URL = FOOTBALL_DATA_URL
STATUSES = {
    "SCHEDULED": FeedStatus.SCHEDULED,
    "TIMED": FeedStatus.SCHEDULED,
    "POSTPONED": FeedStatus.SCHEDULED,
    "IN_PLAY": FeedStatus.LIVE,
    "PAUSED": FeedStatus.LIVE,
    "LIVE": FeedStatus.LIVE,
    "FINISHED": FeedStatus.FINISHED,
    "AWARDED": FeedStatus.FINISHED,
}


def _pair(raw: Any) -> Score | None:
    if not isinstance(raw, dict) or raw.get("home") is None or raw.get("away") is None:
        return None
    return Score(raw["home"], raw["away"])


class UnreadableScore(ValueError):
    """A finished match's score that the feed does not give whole."""


def read_score(raw: dict[str, Any], goals: tuple[Goal, ...] | None = None) -> Result | None:
    """A finished match's result, read the way the v4 documentation defines the score."""
    full = _pair(raw.get("fullTime"))
    if full is None:
        return None
    duration = raw.get("duration") or "REGULAR"
    regular, extra = _pair(raw.get("regularTime")), _pair(raw.get("extraTime"))
    penalties = _pair(raw.get("penalties"))
    if duration == "REGULAR":
        return _result(regular or full)
    if duration not in ("EXTRA_TIME", "PENALTY_SHOOTOUT"):
        raise UnreadableScore(f"a duration it does not know: {duration!r}")
    shootout = duration == "PENALTY_SHOOTOUT"
    if shootout and penalties is None:
        raise UnreadableScore("a shoot-out without its penalties")
    if regular is not None and extra is not None:
        after_extra = regular + extra
    else:
        after_extra = full - penalties if shootout and penalties is not None else full
    ninety = regular or _ninety_from(goals, after_extra)
    if ninety is None:
        raise UnreadableScore(
            f"no 90-minute score (duration {duration}, {full} in all): enter it by hand"
        )
    return _result(ninety, after_extra, penalties if shootout else None)


def _result(
    ninety: Score, after_extra: Score | None = None, penalties: Score | None = None
) -> Result:
    """The feed's score as a result; v4 says nothing of legs, so a shoot-out after a won
    match is a tie's second leg for the pool to read against its first leg."""
    try:
        return Result(ninety, after_extra, penalties)
    except InvalidScore:
        return Result(ninety, after_extra, penalties, pending_first_leg=True)


def _ninety_from(goals: tuple[Goal, ...] | None, after_extra: Score) -> Score | None:
    """The 90 minutes counted from the goals, when the goals add up to the final score."""
    if not goals:
        return None
    if tally(goals) != after_extra:
        return None
    return tally(goal for goal in goals if goal.minute <= 90)


def _goal(raw: dict[str, Any], home_team: str) -> Goal:
    team = (raw.get("team") or {}).get("name")
    minute = int(raw.get("minute") or 0)
    return Goal(
        "home" if team == home_team else "away",
        minute,
        int(raw.get("injuryTime") or 0),
        (raw.get("scorer") or {}).get("name") or "",
        penalty=raw.get("type") == "PENALTY",
        own_goal=raw.get("type") == "OWN",
    )


def parse_matches(payload: Any, competition: str | None = None) -> list[FeedResult]:
    """The matches endpoint's body; a body that is not one is a ``SourceError``.

    With ``competition``, an answer for another competition is refused whole.
    """
    if not isinstance(payload, dict) or not isinstance(payload.get("matches"), list):
        raise SourceError("football-data: not a matches response")
    answered = (payload.get("competition") or {}).get("code")
    if competition and answered and answered != competition:
        raise SourceError(f"football-data: an answer for competition {answered}, not {competition}")
    found = []
    for raw in payload["matches"]:
        try:
            code = (raw.get("competition") or {}).get("code")
            if competition and code and code != competition:
                raise SourceError(f"football-data: a {code} match in the {competition} answer")
            home, away = raw["homeTeam"]["name"], raw["awayTeam"]["name"]
            status = STATUSES.get(raw["status"])
            if status is None or not home or not away:
                continue  # cancelled, suspended, or teams not drawn yet
            kickoff = datetime.fromisoformat(raw["utcDate"].replace("Z", "+00:00"))
            goals = (
                tuple(_goal(g, home) for g in raw["goals"])
                if isinstance(raw.get("goals"), list)
                else None
            )
            result, problem = None, None
            if status is FeedStatus.FINISHED:
                try:
                    result = read_score(raw.get("score") or {}, goals)
                except UnreadableScore as unreadable:
                    problem = str(unreadable)
            found.append(
                FeedResult(
                    kickoff,
                    home,
                    away,
                    status,
                    result,
                    goals,
                    feed_id=None if raw.get("id") is None else str(raw["id"]),
                    code1=raw["homeTeam"].get("tla"),
                    code2=raw["awayTeam"].get("tla"),
                    problem=problem,
                    matchday=_matchday(raw),
                )
            )
        except (KeyError, TypeError, ValueError, AttributeError, InvalidScore) as error:
            raise SourceError(
                f"football-data: a match it cannot read ({type(error).__name__}: {error})"
            ) from None
    return found


def _matchday(raw: dict[str, Any]) -> int | None:
    """A league's round ("REGULAR_SEASON", matchday N): how the pool knows a league match
    whose kick-off moved; a cup's group matchday is not one."""
    day = raw.get("matchday")
    if raw.get("stage") != "REGULAR_SEASON" or isinstance(day, bool) or not isinstance(day, int):
        return None
    return day


class FootballDataSource:
    name = "football-data.org"

    def __init__(
        self,
        token: str,
        competition: str = "WC",
        base_url: str = DEFAULT_URL,
        transport: httpx.BaseTransport | None = None,
        timeout: float | None = None,
        limits: SourceLimits = LIMITS,
    ) -> None:
        self.url = f"{base_url.rstrip('/')}/v4/competitions/{competition}/matches"
        self.competition = competition
        # ``timeout``: the connect and read timeouts alone, as before the limits.
        self.limits = limits if timeout is None else replace(limits, connect=timeout, read=timeout)
        # No redirects: the token would follow them to wherever they lead.
        self.client = http_client(
            self.limits, transport, headers={"X-Auth-Token": token}, follow_redirects=False
        )

    def poll(self, pool: Pool) -> FeedReport:
        body = fetch(self.client, self.url, self.limits, self.name, retry_after)
        try:
            payload = parse_json(body.text(self.name), self.name, self.limits)
        except NotJson:
            raise SourceError(
                f"{self.name}: an answer that is not JSON ({body.content_type})"
            ) from None
        return pool.fixtures.apply_results(parse_matches(payload, self.competition), self.name)


def retry_after(response: httpx.Response) -> float | None:
    """Seconds to wait, from ``Retry-After`` or football-data's ``X-RequestCounter-Reset``."""
    for header in ("retry-after", "x-requestcounter-reset"):
        value = response.headers.get(header)
        if value is not None:
            try:
                return max(0.0, float(value))
            except ValueError:
                continue
    return None
