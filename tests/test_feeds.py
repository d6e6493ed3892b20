"""Both results feeds against a local HTTP server serving payloads in their real formats."""

import json
from datetime import date, datetime, timedelta

import pytest

from game import matchdays
from game.events import MatchScheduled
from game.feeds.football_data import FootballDataSource, parse_matches
from game.feeds.openfootball_feed import OpenfootballSource
from game.feeds.poller import ResultsPoller
from game.model import Goal, MatchStatus, Result, Score
from game.openfootball import parse_tournament
from game.pool import Pool
from game.sources import SourceError
from tests.conftest import FakeClock
from tests.http_server import canned_server

FIXTURES = {
    "name": "Feed Cup",
    "matches": [
        {
            "round": "Matchday 1",
            "date": "2026-06-11",
            "time": "13:00 UTC-6",
            "team1": "Mexico",
            "team2": "South Africa",
            "group": "Group A",
            "ground": "Mexico City",
        },
        {
            "round": "Final",
            "num": 2,
            "date": "2026-07-19",
            "time": "15:00 UTC-4",
            "team1": "W1",
            "team2": "W2",
            "ground": "New York",
        },
    ],
}


def fd_match(
    date: str,
    home: str,
    away: str,
    status: str,
    score: dict | None = None,
    goals: list | None = None,
) -> dict:
    match = {
        "id": hash((date, home)) % 10**6,
        "utcDate": date,
        "status": status,
        "stage": "GROUP_STAGE",
        "homeTeam": {"id": 1, "name": home},
        "awayTeam": {"id": 2, "name": away},
        "score": score
        or {
            "winner": None,
            "duration": "REGULAR",
            "fullTime": {"home": None, "away": None},
            "halfTime": {"home": None, "away": None},
        },
    }
    if goals is not None:
        match["goals"] = goals
    return match


def fd_payload(*matches: dict) -> str:
    return json.dumps(
        {
            "filters": {"season": "2026"},
            "resultSet": {"count": len(matches)},
            "competition": {"code": "WC"},
            "matches": list(matches),
        }
    )


@pytest.fixture
def feed_pool(pool: Pool) -> Pool:
    pool.fixtures.import_tournament(parse_tournament(FIXTURES))
    return pool


def test_football_data_live_goals_then_extra_time_and_penalties(feed_pool: Pool) -> None:
    live = fd_match(
        "2026-06-11T19:00:00Z", "Mexico", "South Africa", "IN_PLAY",
        goals=[{"minute": 9, "injuryTime": None, "type": "REGULAR", "team": {"name": "Mexico"}, "scorer": {"name": "Quiñones"}}],
    )  # fmt: skip
    final = fd_match(
        "2026-07-19T19:00:00Z", "Spain", "Argentina", "FINISHED",
        score={
            "winner": "HOME_TEAM", "duration": "PENALTY_SHOOTOUT",
            "fullTime": {"home": 5, "away": 4}, "halfTime": {"home": 0, "away": 0},
            "regularTime": {"home": 1, "away": 1}, "extraTime": {"home": 0, "away": 0}, "penalties": {"home": 4, "away": 3},
        },
    )  # fmt: skip
    with canned_server() as server:
        server.serve("/v4/competitions/WC/matches", fd_payload(live, final))
        source = FootballDataSource("secret-token", base_url=server.base_url)
        report = source.poll(feed_pool)
    assert (report.kicked_off, report.goals, report.results, report.updated) == (2, 1, 1, 1)
    first, last = feed_pool.matches()
    assert first.status is MatchStatus.LIVE and first.goals == (Goal("home", 9, 0, "Quiñones"),)
    assert last.label == "#2 Spain v Argentina"
    assert last.result == Result(Score(1, 1), Score(1, 1), Score(4, 3))
    assert [e.event.kind for e in feed_pool.events()][-1] == "result"


def test_football_data_sends_the_token(feed_pool: Pool) -> None:
    with canned_server() as server:
        server.serve("/v4/competitions/WC/matches", fd_payload())
        FootballDataSource("secret-token", base_url=server.base_url).poll(feed_pool)
        assert server.requests == ["/v4/competitions/WC/matches"]


@pytest.mark.parametrize(
    ("status", "body", "message"),
    [
        (429, "{}", "HTTP 429"),
        (500, "oops", "HTTP 500"),
        (200, '{"matches": [{"utcDate": "2026', "an answer that is not JSON"),
        (200, '{"errors": 1}', "not a matches response"),
    ],
)
def test_a_broken_feed_changes_nothing(
    feed_pool: Pool, status: int, body: str, message: str
) -> None:
    events = len(feed_pool.events())
    with canned_server() as server:
        server.serve("/v4/competitions/WC/matches", body, status=status)
        with pytest.raises(SourceError, match=message):
            FootballDataSource("t", base_url=server.base_url).poll(feed_pool)
    assert len(feed_pool.events()) == events


def test_a_changed_final_score_is_a_correction_and_an_admin_result_wins(feed_pool: Pool) -> None:
    def finished(home: int, away: int) -> str:
        score = {"duration": "REGULAR", "fullTime": {"home": home, "away": away}}
        return fd_payload(
            fd_match("2026-06-11T19:00:00Z", "Mexico", "South Africa", "FINISHED", score=score)
        )

    with canned_server() as server:
        source = FootballDataSource("t", base_url=server.base_url)
        server.serve("/v4/competitions/WC/matches", finished(2, 0))
        assert source.poll(feed_pool).results == 1
        server.serve("/v4/competitions/WC/matches", finished(2, 1))
        assert source.poll(feed_pool).corrections == 1
        correction = feed_pool.events(kinds=("result",))[-1].event
        assert (correction.full_time, correction.previous, correction.source) == (
            "2-1",
            "2-0",
            "football-data.org",
        )
        feed_pool.fixtures.record_result(1, Result(Score(3, 1)))  # the admin knows better
        server.serve("/v4/competitions/WC/matches", finished(2, 2))
        assert source.poll(feed_pool).kept_admin_results == [1]
    assert feed_pool.match(1).result == Result(Score(3, 1))


def test_openfootball_refetch_fills_the_bracket_and_corrects(feed_pool: Pool) -> None:
    played = json.loads(json.dumps(FIXTURES))
    played["matches"][0]["score"] = {"ft": [2, 0]}
    played["matches"][0]["goals1"] = [
        {"name": "Quiñones", "minute": "9"},
        {"name": "Jiménez", "minute": "67"},
    ]
    played["matches"][1].update({"team1": "Spain", "team2": "Argentina"})
    with canned_server() as server:
        url = server.serve("/worldcup.json", json.dumps(played))
        source = OpenfootballSource(url)
        report = source.poll(feed_pool)
        assert (report.results, report.goals, report.updated) == (1, 2, 1)
        played["matches"][0]["score"] = {"ft": [2, 1]}
        server.serve("/worldcup.json", json.dumps(played))
        assert source.poll(feed_pool).corrections == 1
        server.serve("/worldcup.json", '{"name": "Feed Cup", "matches": [{"round": ')
        with pytest.raises(SourceError, match="not valid JSON"):
            source.poll(feed_pool)
    assert feed_pool.match(2).label == "#2 Spain v Argentina"
    assert feed_pool.match(1).result == Result(Score(2, 1))


def test_the_poller_backs_off_while_the_feed_fails(feed_pool: Pool, clock: FakeClock) -> None:
    with canned_server() as server:
        server.serve("/v4/competitions/WC/matches", "down", status=503)
        poller = ResultsPoller(
            feed_pool,
            FootballDataSource("t", base_url=server.base_url),
            interval=timedelta(minutes=1),
        )
        assert poller.poll_if_due() is None and poller.failures == 1
        clock.advance(minutes=1)
        assert not poller.due()  # two minutes after one failure
        clock.advance(minutes=1)
        poller.poll_if_due()
        assert poller.failures == 2 and poller.next_attempt == clock.now + timedelta(minutes=4)
        server.serve("/v4/competitions/WC/matches", fd_payload())
        clock.advance(minutes=4)
        assert poller.poll_if_due() is not None and poller.failures == 0
        assert len(server.requests) == 3


def test_parse_reads_regular_time_scores() -> None:
    (seen,) = parse_matches(
        json.loads(
            fd_payload(
                fd_match(
                    "2026-06-11T19:00:00Z",
                    "A",
                    "B",
                    "FINISHED",
                    score={"fullTime": {"home": 3, "away": 1}},
                )
            )
        )
    )
    assert seen.result == Result(Score(3, 1))


def test_choosing_a_source() -> None:
    from game.feeds.choose import source_from

    assert (
        source_from("openfootball:https://example.org/wc.json").location
        == "https://example.org/wc.json"
    )
    assert source_from("worldcup.json").name == "openfootball"
    with pytest.raises(SourceError, match="FOOTBALL_DATA_TOKEN"):
        source_from("football-data")
    assert source_from("football-data:EC", "t").url.endswith("/v4/competitions/EC/matches")


# -- leagues and club cups from football-data ------------------------------------------


@pytest.mark.parametrize(
    ("local_date", "before", "after", "now_on"),
    [
        # São Paulo 16:00 -> 21:30 the same evening: past midnight UTC, the same day.
        ("2025-06-01", "2025-06-01T19:00Z", "2025-06-02T00:30Z", "2025-06-01"),
        ("2025-06-01", "2025-06-02T00:30Z", "2025-06-01T19:00Z", "2025-06-01"),
        # Santa Clara 21:00 on the 13th (04:00 UTC on the 14th), put back a day.
        ("2026-06-13", "2026-06-14T04:00Z", "2026-06-15T04:00Z", "2026-06-14"),
        # Tokyo 13:00 on the 14th (04:00 UTC), moved to 20:00 there.
        ("2026-06-14", "2026-06-14T04:00Z", "2026-06-14T11:00Z", "2026-06-14"),
        # A Brasileirão match put back from June to a September evening.
        ("2025-06-01", "2025-06-01T19:00Z", "2025-09-17T22:30Z", "2025-09-17"),
    ],
)
def test_a_kick_off_a_feed_moves_takes_its_local_day_along(
    local_date: str, before: str, after: str, now_on: str
) -> None:
    def utc(text: str) -> datetime:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))

    assert matchdays.moved(local_date, utc(before), utc(after)) == now_on
    assert matchdays.moved(None, utc(before), utc(after)) is None


def test_football_data_moves_a_postponed_league_match_and_keeps_its_picks(
    pool: Pool, clock: FakeClock
) -> None:
    """The Brasileirão's round 12 match moved from June to September: the feed finds it by
    its round and teams, moves its kick-off, and the picks stay open until then."""
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from game.openfootball import Fixture
    from tests import football_data_v4 as v4

    season = {"name": "Brasileiro Série A 2025", "matches": [
        {"round": "Matchday 12", "date": "2025-06-01", "time": "16:00",
         "team1": "SE Palmeiras", "team2": "CR Flamengo"},
        {"round": "Matchday 12", "date": "2025-06-01", "time": "16:00",
         "team1": "Fortaleza EC", "team2": "EC Bahia"},
    ]}  # fmt: skip
    pool.fixtures.import_tournament(parse_tournament(season, ZoneInfo("America/Sao_Paulo")))
    palmeiras = next(m for m in pool.matches() if m.team1 == "SE Palmeiras")
    clock.now = datetime(2025, 5, 30, tzinfo=UTC)
    pool.members.add("ana")
    pool.predictions.place("ana", palmeiras.number, Score(1, 1))
    later = datetime(2025, 9, 17, 22, 30, tzinfo=UTC)
    moved = Fixture("x", "Matchday 12", later, "2025-09-17", "Palmeiras", "Flamengo")
    body = v4.response([v4.match(moved, 531, "TIMED", competition=v4.BSA, matchday=12)], v4.BSA)
    with canned_server() as server:
        server.serve("/v4/competitions/BSA/matches", body)
        source = FootballDataSource("token", competition="BSA", base_url=server.base_url)
        clock.now = datetime(2025, 6, 2, tzinfo=UTC)  # after the first date
        report = source.poll(pool)
    assert report.unmatched == [] and report.updated == 1
    now = pool.match(palmeiras.number)
    assert (now.kickoff, now.status) == (later, MatchStatus.SCHEDULED)
    # Its day moves with it, in the pool and in the log: 19:30 in São Paulo on the 17th.
    assert pool.match_days()[palmeiras.number] == date(2025, 9, 17)
    told = [e.event for e in pool.events() if isinstance(e.event, MatchScheduled)]
    assert (told[-1].match, told[-1].local_date) == (palmeiras.number, "2025-09-17")
    pool.predictions.place("ana", palmeiras.number, Score(2, 1))  # open until September
    assert [p.score for p in pool.predictions_of("ana")] == [Score(2, 1)]
    # Once linked by its feed id, its result comes home whatever the date.
    finished = Fixture("x", "Matchday 12", later, "2025-09-17", "Palmeiras", "Flamengo",
                       result=Result(Score(0, 2)))  # fmt: skip
    body = v4.response([v4.match(finished, 531, competition=v4.BSA, matchday=12)], v4.BSA)
    with canned_server() as server:
        server.serve("/v4/competitions/BSA/matches", body)
        source = FootballDataSource("token", competition="BSA", base_url=server.base_url)
        clock.now = datetime(2025, 9, 18, tzinfo=UTC)
        assert source.poll(pool).results == 1
    assert pool.match(palmeiras.number).result == Result(Score(0, 2))


def test_football_data_reads_a_second_leg_shoot_out_against_the_first_leg(pool: Pool) -> None:
    """v4 says nothing of legs: a shoot-out after a won second leg is read on aggregate."""
    from datetime import UTC, datetime

    from game.openfootball import Fixture
    from tests import football_data_v4 as v4

    tie = {"name": "UEFA Champions League 2025/26", "matches": [
        {"round": "Round of 16", "date": "2026-03-10", "time": "21:00 UTC+1",
         "team1": "Arsenal FC", "team2": "Chelsea FC", "score": {"ft": [2, 0]}},
        {"round": "Round of 16", "date": "2026-03-17", "time": "21:00 UTC+1",
         "team1": "Chelsea FC", "team2": "Arsenal FC"},
    ]}  # fmt: skip
    pool.fixtures.import_tournament(parse_tournament(tie))
    second = max(pool.matches(), key=lambda m: m.kickoff)
    played = Result(Score(2, 0), Score(2, 0), Score(5, 4), pending_first_leg=True)
    seen = Fixture("x", "Round of 16", datetime(2026, 3, 17, 20, tzinfo=UTC), "2026-03-17",
                   "Chelsea", "Arsenal", result=played)  # fmt: skip
    with canned_server() as server:
        server.serve(
            "/v4/competitions/CL/matches",
            v4.response([v4.match(seen, 77, competition=v4.CL)], v4.CL),
        )
        source = FootballDataSource("token", competition="CL", base_url=server.base_url)
        report = source.poll(pool)
    assert report.unmatched == [] and report.results == 1
    result = pool.match(second.number).result
    assert result is not None and str(result) == "2-0 (aet 2-0) (agg 2-2) (pens 5-4)"
    assert pool.match(second.number).decided() == ("Chelsea FC", "Arsenal FC")


def test_a_second_leg_before_its_first_is_reported_and_the_rest_applied(pool: Pool) -> None:
    from datetime import UTC, datetime

    from game.openfootball import Fixture
    from tests import football_data_v4 as v4

    tie = {"name": "UEFA Champions League 2025/26", "matches": [
        {"round": "Round of 16", "date": "2026-03-10", "time": "21:00 UTC+1",
         "team1": "Arsenal FC", "team2": "Chelsea FC"},
        {"round": "Round of 16", "date": "2026-03-17", "time": "21:00 UTC+1",
         "team1": "Chelsea FC", "team2": "Arsenal FC"},
        {"round": "Round of 16", "date": "2026-03-17", "time": "21:00 UTC+1",
         "team1": "Liverpool FC", "team2": "Everton FC"},
    ]}  # fmt: skip
    pool.fixtures.import_tournament(parse_tournament(tie))
    at = datetime(2026, 3, 17, 20, tzinfo=UTC)
    second = Fixture("a", "Round of 16", at, "2026-03-17", "Chelsea", "Arsenal",
                     result=Result(Score(1, 0)))  # fmt: skip
    other = Fixture("b", "Round of 16", at, "2026-03-17", "Liverpool", "Everton",
                    result=Result(Score(2, 0)))  # fmt: skip
    body = v4.response(
        [v4.match(second, 1, competition=v4.CL), v4.match(other, 2, competition=v4.CL)], v4.CL
    )
    with canned_server() as server:
        server.serve("/v4/competitions/CL/matches", body)
        report = FootballDataSource("t", competition="CL", base_url=server.base_url).poll(pool)
    assert report.results == 1 and len(report.unmatched) == 1
    assert "the first leg (#1) needs its result first" in report.unmatched[0]
    assert pool.match(3).result == Result(Score(2, 0)) and pool.match(2).result is None
