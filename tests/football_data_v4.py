"""football-data.org v4 responses, shaped as the v4 documentation shows them, built from
a real tournament in openfootball form.

Team names are football-data's own ("United States", "Korea Republic", "IR Iran"),
not the fixtures': the pool has to match them through its team book. Scores
follow the v4 rules: ``fullTime`` counts every goal, extra time and shoot-out
included; ``regularTime``/``extraTime``/``penalties`` only when played.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from game.openfootball import Fixture, Tournament

# How football-data.org names the teams that it names differently, with their TLA.
FOOTBALL_DATA_NAMES = {
    "USA": ("United States", "USA"),
    "South Korea": ("Korea Republic", "KOR"),
    "Iran": ("IR Iran", "IRN"),
    "Turkey": ("Türkiye", "TUR"),
    "Ivory Coast": ("Côte d'Ivoire", "CIV"),
    "Czech Republic": ("Czechia", "CZE"),
    "Cape Verde": ("Cabo Verde", "CPV"),
    "Curaçao": ("Curacao", "CUW"),
    "Bosnia & Herzegovina": ("Bosnia-Herzegovina", "BIH"),
    "DR Congo": ("Congo DR", "COD"),
}
COMPETITION = {
    "id": 2000,
    "name": "FIFA World Cup",
    "code": "WC",
    "type": "CUP",
    "emblem": "https://crests.football-data.org/qatar.png",
}
AREA = {"id": 2267, "name": "World", "code": "INT", "flag": None}
# The Brasileirão and the Champions League, as v4 lists them (football-data's ids).
BSA = {"id": 2013, "name": "Campeonato Brasileiro Série A", "code": "BSA", "type": "LEAGUE"}
CL = {"id": 2001, "name": "UEFA Champions League", "code": "CL", "type": "CUP"}


def team(name: str, team_id: int) -> dict[str, Any]:
    shown, tla = FOOTBALL_DATA_NAMES.get(name, (name, name[:3].upper()))
    return {
        "id": team_id,
        "name": shown,
        "shortName": shown,
        "tla": tla,
        "crest": f"https://crests.football-data.org/{team_id}.png",
    }


def pair(home: int | None, away: int | None) -> dict[str, int | None]:
    return {"home": home, "away": away}


def score(fixture: Fixture | None, status: str, running: tuple[int, int] | None = None) -> dict:
    """The ``score`` node for a match in ``status``; ``running`` is the live score."""
    if status in ("SCHEDULED", "TIMED") or (fixture is None and running is None):
        return {
            "winner": None,
            "duration": "REGULAR",
            "fullTime": pair(None, None),
            "halfTime": pair(None, None),
        }
    if status in ("IN_PLAY", "PAUSED"):
        home, away = running or (0, 0)
        return {
            "winner": None,
            "duration": "REGULAR",
            "fullTime": pair(home, away),
            "halfTime": pair(None, None),
        }
    assert fixture is not None and fixture.result is not None
    result = fixture.result
    ninety, after_extra, shootout = result.full_time, result.extra_time, result.penalties
    end = after_extra or ninety
    full = pair(
        end.home + (shootout.home if shootout else 0), end.away + (shootout.away if shootout else 0)
    )
    if shootout:
        winner = "HOME_TEAM" if shootout.home > shootout.away else "AWAY_TEAM"
    else:
        winner = {1: "HOME_TEAM", 0: "DRAW", -1: "AWAY_TEAM"}[end.outcome]
    node: dict[str, Any] = {
        "winner": winner,
        "duration": "PENALTY_SHOOTOUT" if shootout else "EXTRA_TIME" if after_extra else "REGULAR",
        "fullTime": full,
        "halfTime": pair(min(ninety.home, 1), min(ninety.away, 1)),
    }
    if after_extra:
        node["regularTime"] = pair(ninety.home, ninety.away)
        node["extraTime"] = pair(after_extra.home - ninety.home, after_extra.away - ninety.away)
    if shootout:
        node["penalties"] = pair(shootout.home, shootout.away)
    return node


def match(
    fixture: Fixture,
    match_id: int,
    status: str = "FINISHED",
    running: tuple[int, int] | None = None,
    goals: list[dict[str, Any]] | None = None,
    competition: dict[str, Any] | None = None,
    matchday: int | None = None,
) -> dict[str, Any]:
    """One match object as the v4 ``/competitions/WC/matches`` endpoint lists it; with
    ``competition`` and ``matchday``, a league's (``stage`` "REGULAR_SEASON")."""
    body: dict[str, Any] = {
        "area": AREA,
        "competition": competition or COMPETITION,
        "season": {
            "id": 1382,
            "startDate": "2022-11-20",
            "endDate": "2022-12-18",
            "currentMatchday": 3,
            "winner": None,
        },
        "id": match_id,
        "utcDate": fixture.kickoff.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "status": status,
        "matchday": matchday or (1 if fixture.group else None),
        "stage": "REGULAR_SEASON" if matchday else "GROUP_STAGE" if fixture.group else "LAST_16",
        "group": f"GROUP_{fixture.group[-1]}" if fixture.group else None,
        "lastUpdated": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "homeTeam": team(fixture.team1, 700 + match_id % 97),
        "awayTeam": team(fixture.team2, 800 + match_id % 89),
        "score": score(fixture, status, running),
        "odds": {"msg": "Activate Odds-Package in User-Panel to retrieve odds."},
        "referees": [
            {
                "id": 11000 + match_id,
                "name": "Referee Name",
                "type": "REFEREE",
                "nationality": "Brazil",
            }
        ],
    }
    if goals is not None:
        body["goals"] = goals
    return body


def response(matches: list[dict[str, Any]], competition: dict[str, Any] | None = None) -> str:
    """The whole body: filters, resultSet, competition, matches."""
    return json.dumps(
        {
            "filters": {"season": "2022"},
            "resultSet": {
                "count": len(matches),
                "first": matches[0]["utcDate"][:10] if matches else None,
                "last": matches[-1]["utcDate"][:10] if matches else None,
                "played": sum(m["status"] == "FINISHED" for m in matches),
            },
            "competition": competition or COMPETITION,
            "matches": matches,
        },
        ensure_ascii=False,
    )


def whole_tournament(tournament: Tournament) -> str:
    """Every match of ``tournament`` as finished, as the feed answers after the final."""
    ordered = sorted(tournament.fixtures, key=lambda f: f.kickoff)
    return response([match(f, 391_000 + n) for n, f in enumerate(ordered, start=1)])
