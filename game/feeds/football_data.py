"""football-data.org's v4 API: the World Cup's matches, scores and (where the plan has
them) goals, read with ``X-Auth-Token``.

Scores: ``regularTime`` is the 90 minutes, ``extraTime`` the goals in extra time
only, ``penalties`` the shoot-out; when ``regularTime`` is absent, ``fullTime``
is the 90-minute score of a match that ended in regular time.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import httpx

from game.feeds.model import FeedReport, FeedResult, FeedStatus
from game.model import Goal, InvalidScore, Result, Score
from game.service import Pool
from game.sources import SourceError

DEFAULT_URL = "https://api.football-data.org"
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


def read_score(raw: dict[str, Any]) -> Result | None:
    full_time = _pair(raw.get("fullTime"))
    regular = _pair(raw.get("regularTime"))
    if regular is None:
        return None if full_time is None else Result(full_time)
    extra = _pair(raw.get("extraTime"))
    after_extra = (
        None if extra is None else Score(regular.home + extra.home, regular.away + extra.away)
    )
    return Result(regular, after_extra, _pair(raw.get("penalties")))


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


def parse_matches(payload: Any) -> list[FeedResult]:
    """The matches endpoint's body; a body that is not one is a ``SourceError``."""
    if not isinstance(payload, dict) or not isinstance(payload.get("matches"), list):
        raise SourceError("football-data: not a matches response")
    found = []
    for raw in payload["matches"]:
        try:
            home, away = raw["homeTeam"]["name"], raw["awayTeam"]["name"]
            status = STATUSES.get(raw["status"])
            if status is None or not home or not away:
                continue  # cancelled, suspended, or teams not drawn yet
            kickoff = datetime.fromisoformat(raw["utcDate"].replace("Z", "+00:00"))
            result = read_score(raw.get("score") or {})
            goals = (
                tuple(_goal(g, home) for g in raw["goals"])
                if isinstance(raw.get("goals"), list)
                else None
            )
        except (KeyError, TypeError, ValueError, InvalidScore) as error:
            raise SourceError(
                f"football-data: a match it cannot read ({type(error).__name__}: {error})"
            ) from None
        found.append(FeedResult(kickoff, home, away, status, result, goals))
    return found


class FootballDataSource:
    name = "football-data.org"

    def __init__(
        self,
        token: str,
        competition: str = "WC",
        base_url: str = DEFAULT_URL,
        transport: httpx.BaseTransport | None = None,
        timeout: float = 20.0,
    ) -> None:
        self.url = f"{base_url.rstrip('/')}/v4/competitions/{competition}/matches"
        self.client = httpx.Client(
            headers={"X-Auth-Token": token}, transport=transport, timeout=timeout
        )

    def poll(self, pool: Pool) -> FeedReport:
        try:
            response = self.client.get(self.url)
            response.raise_for_status()
            payload = response.json()
        except httpx.HTTPStatusError as error:
            raise SourceError(f"{self.name}: HTTP {error.response.status_code}") from None
        except (httpx.HTTPError, ValueError) as error:
            raise SourceError(f"{self.name}: {type(error).__name__}: {error}") from None
        return pool.apply_results(parse_matches(payload), "feed")
