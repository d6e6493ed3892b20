"""football-data.org v4 against a real pool: real 2022 data, the feed's own team names,
scores read by duration, and every kind of bad answer, over real HTTP on 127.0.0.1."""

import asyncio
import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from game import matching
from game.bets_csv import parse_bets
from game.db.engine import open_database
from game.feeds.football_data import FootballDataSource, parse_matches, read_score
from game.feeds.poller import ResultsPoller
from game.model import FeedResult, FeedStatus, Goal, Result, Score
from game.openfootball import Tournament, parse_tournament
from game.pool import Pool
from game.sources import read_json
from game.teams import TeamBook
from tests import football_data_v4 as v4
from tests.conftest import TEST_DATA, FakeClock
from tests.http_server import canned_server
from tests.ssh_pool import read_until, served_pool

PATH = "/v4/competitions/WC/matches"
QATAR = ZoneInfo("Asia/Qatar")


def cup_2022(with_results: bool) -> Tournament:
    data = read_json(str(TEST_DATA / "worldcup-2022.json"))
    if not with_results:
        for raw in data["matches"]:
            for key in ("score", "goals1", "goals2"):
                raw.pop(key, None)
    return parse_tournament(data, QATAR)


def feed_problems(pool: Pool) -> list[str]:
    return [item.event.text for item in pool.events(kinds=("feed_problem",))]


# -- the team book and the matching rules, without a database ---------------------


def test_the_team_book_knows_every_name_football_data_and_fifa_use() -> None:
    book = TeamBook.standard()
    for fixtures_name, (theirs, code) in v4.FOOTBALL_DATA_NAMES.items():
        assert book.name_of(theirs) == fixtures_name
        assert book.name_of("Unheard Of", code) == fixtures_name
    assert book.same("Ivory Coast", "Cote d\u2019Ivoire")
    assert book.same("Bosnia & Herzegovina", "bosnia and herzegovina")
    assert not book.same("Wales", "United States", "USA")
    for year in (2018, 2022, 2026):
        teams = {
            raw[side]
            for raw in read_json(str(TEST_DATA / f"worldcup-{year}.json"))["matches"]
            for side in ("team1", "team2")
        }
        assert {name for name in teams if book.name_of(name) is None} == set(), year


def test_two_matches_at_one_kick_off_are_told_apart_by_their_teams() -> None:
    kickoff = datetime(2022, 11, 29, 19, 0, tzinfo=UTC)
    nearby = [
        matching.Candidate(47, "Wales", "England", kickoff),
        matching.Candidate(48, "Iran", "USA", kickoff),
    ]
    iran_usa = FeedResult(kickoff, "IR Iran", "United States", FeedStatus.FINISHED, feed_id="9")
    assert matching.find(iran_usa, None, nearby) == matching.Found(48)
    usa_iran = FeedResult(kickoff, "United States", "IR Iran", FeedStatus.FINISHED)
    assert matching.find(usa_iran, None, nearby) == matching.Found(48, swapped=True)
    stranger = FeedResult(kickoff, "Atlantis", "Lemuria", FeedStatus.FINISHED)
    assert "no match in the pool (teams not in the team book: Atlantis, Lemuria)" in str(
        matching.find(stranger, None, nearby)
    )


def test_an_undecided_knockout_is_matched_only_when_it_is_the_one_at_that_time() -> None:
    kickoff = datetime(2026, 7, 19, 19, 0, tzinfo=UTC)
    final = matching.Candidate(104, "W101", "W102", kickoff)
    seen = FeedResult(kickoff, "Spain", "Argentina", FeedStatus.SCHEDULED)
    assert matching.find(seen, None, [final]) == matching.Found(104)
    twin = matching.Candidate(103, "L101", "L102", kickoff)
    assert "several undecided matches" in str(matching.find(seen, None, [final, twin]))
    later = FeedResult(kickoff + timedelta(hours=3), "Spain", "Argentina", FeedStatus.SCHEDULED)
    assert isinstance(matching.find(later, None, [final]), str)  # another time: never a guess


# -- scores, as the v4 documentation defines them ----------------------------------


def v4_score(duration: str, full: tuple[int, int], **parts: tuple[int, int]) -> dict:
    node = {
        "winner": "HOME_TEAM",
        "duration": duration,
        "fullTime": v4.pair(*full),
        "halfTime": v4.pair(0, 0),
    }
    node.update({name: v4.pair(*value) for name, value in parts.items()})
    return node


@pytest.mark.parametrize(
    ("node", "result"),
    [
        (v4_score("REGULAR", (2, 1)), Result(Score(2, 1))),
        (
            v4_score("EXTRA_TIME", (2, 1), regularTime=(1, 1), extraTime=(1, 0)),
            Result(Score(1, 1), Score(2, 1)),
        ),
        (  # the documentation's own sample: fullTime counts the shoot-out too
            v4_score(
                "PENALTY_SHOOTOUT", (7, 6), regularTime=(1, 1), extraTime=(0, 0), penalties=(6, 5)
            ),
            Result(Score(1, 1), Score(1, 1), Score(6, 5)),
        ),
    ],
)
def test_scores_by_duration(node: dict, result: Result) -> None:
    assert read_score(node) == result


def test_a_shoot_out_with_only_full_time_is_never_stored_as_seven_six() -> None:
    node = v4_score("PENALTY_SHOOTOUT", (7, 6), penalties=(5, 4))
    with pytest.raises(ValueError, match="no 90-minute score"):
        read_score(node)  # 2-2 after extra time is known; the 90 minutes are not
    goals = (Goal("home", 30), Goal("away", 80), Goal("home", 110), Goal("away", 118))
    assert read_score(node, goals) == Result(Score(1, 1), Score(2, 2), Score(5, 4))


# -- a whole real tournament through the feed ---------------------------------------


def place_the_same_picks(pool: Pool, tournament: Tournament) -> None:
    rows = "player,date,team1,team2,score1,score2,placed_at\n" + "".join(
        f"{who},{f.local_date},{f.team1},{f.team2},{(n + shift) % 3},{(n * shift) % 2},"
        "2022-11-19T12:00:00Z\n"  # the day before the cup: the clocks are past every kick-off
        for n, f in enumerate(sorted(tournament.fixtures, key=lambda f: f.kickoff))
        for who, shift in (("ana", 1), ("bia", 2), ("caio", 0))
    )
    pool.predictions.import_bets(parse_bets(rows))


def test_the_2022_world_cup_arrives_through_the_feed_with_every_result_matched(
    pool: Pool, tmp_path: Path
) -> None:
    reference = Pool(open_database(f"sqlite:///{tmp_path / 'reference.db'}"))
    reference.fixtures.import_tournament(cup_2022(with_results=True))
    place_the_same_picks(reference, cup_2022(with_results=True))
    pool.fixtures.import_tournament(cup_2022(with_results=False))
    place_the_same_picks(pool, cup_2022(with_results=False))
    with canned_server() as server:
        server.serve(PATH, v4.whole_tournament(cup_2022(with_results=True)))
        source = FootballDataSource("token", base_url=server.base_url)
        report = source.poll(pool)
        assert (report.results, report.unmatched, report.corrections) == (64, [], 0)
        again = len(pool.events())
        assert source.poll(pool).results == 0 and len(pool.events()) == again  # idempotent
    assert [row.as_dict() for row in pool.standings()] == [
        row.as_dict() for row in reference.standings()
    ]
    assert [m.result for m in pool.matches()] == [m.result for m in reference.matches()]
    # the pool's names stay its own: a spreadsheet naming "USA" still finds its match
    assert pool.match(pool_number(pool, "Iran", "USA")).label.endswith("Iran v USA")
    assert pool.predictions.import_bets(parse_bets("player,date,team1,team2,score1,score2,placed_at\n"
                                       "dora,2022-11-29,Iran,USA,0,1,2022-11-29T12:00Z\n")).placed == 1  # fmt: skip
    reference.engine.dispose()


def pool_number(pool: Pool, team1: str, team2: str) -> int:
    return next(m.number for m in pool.matches() if (m.team1, m.team2) == (team1, team2))


# -- bad answers: the last good state stays, the admins hear it once --------------


@pytest.fixture
def cup_pool(pool: Pool, clock: FakeClock) -> Pool:
    pool.fixtures.import_tournament(cup_2022(with_results=False))
    clock.now = datetime(2022, 11, 29, 21, 0, tzinfo=UTC)
    return pool


def iran_usa_feed(status: str = "FINISHED", home: str = "Iran", away: str = "USA") -> str:
    (fixture,) = [
        f for f in cup_2022(with_results=True).fixtures if (f.team1, f.team2) == ("Iran", "USA")
    ]
    fixture = replace(fixture, team1=home, team2=away)
    return v4.response([v4.match(fixture, 391_048, status)])


@pytest.mark.parametrize(
    ("answer", "headers", "content_type", "status", "said"),
    [
        ("not json at all", {}, "application/json", 200, "an answer that is not JSON"),
        ("<html><body>502 Bad Gateway</body></html>", {}, "text/html", 502, "HTTP 502"),
        ('{"message": "too many"}', {"Retry-After": "120"}, "application/json", 429, "HTTP 429"),
        (
            json.dumps({"competition": {"code": "PL"}, "matches": []}),
            {},
            "application/json",
            200,
            "an answer for competition PL, not WC",
        ),
    ],
)
def test_a_bad_answer_keeps_the_last_good_state_and_backs_off(
    cup_pool: Pool,
    clock: FakeClock,
    answer: str,
    headers: dict,
    content_type: str,
    status: int,
    said: str,
) -> None:
    with canned_server() as server:
        source = FootballDataSource("token", base_url=server.base_url)
        poller = ResultsPoller(cup_pool, source, interval=timedelta(seconds=60))
        server.serve(PATH, iran_usa_feed())
        assert poller.poll_if_due() is not None
        good = [m.result for m in cup_pool.matches()]
        server.serve(PATH, answer, status=status, content_type=content_type, headers=headers)
        for _ in range(3):
            clock.now = poller.next_attempt or clock.now
            assert poller.poll_if_due() is None
        assert [m.result for m in cup_pool.matches()] == good
        problems = feed_problems(cup_pool)
        assert len(problems) == 1 and said in problems[0]
        wait = poller.next_attempt - clock.now
        assert wait >= timedelta(seconds=120 if status == 429 else 60 * 2**3)
        server.serve(PATH, iran_usa_feed())
        clock.now = poller.next_attempt
        assert poller.poll_if_due() is not None and poller.failures == 0
        assert feed_problems(cup_pool)[-1] == "football-data.org answers again"


def test_a_feed_that_hangs_times_out_and_changes_nothing(cup_pool: Pool) -> None:
    with canned_server() as server:
        server.serve(PATH, iran_usa_feed(), delay=2.0)
        source = FootballDataSource("token", base_url=server.base_url, timeout=0.3)
        poller = ResultsPoller(cup_pool, source)
        assert poller.poll_if_due() is None
        assert "ReadTimeout" in feed_problems(cup_pool)[0]
        assert all(m.result is None for m in cup_pool.matches())


def test_a_match_whose_teams_change_is_reported_once_and_not_applied(
    cup_pool: Pool, clock: FakeClock
) -> None:
    with canned_server() as server:
        poller = ResultsPoller(cup_pool, FootballDataSource("t", base_url=server.base_url))
        server.serve(PATH, iran_usa_feed("TIMED"))
        poller.poll_if_due()
        number = pool_number(cup_pool, "Iran", "USA")
        server.serve(PATH, iran_usa_feed("FINISHED", home="Wales", away="England"))
        for _ in range(3):
            clock.advance(minutes=5)
            poller.poll_if_due()
    assert cup_pool.match(number).result is None
    assert cup_pool.match(number).label.endswith("Iran v USA")
    (problem,) = feed_problems(cup_pool)
    assert "its teams changed" in problem and f"#{number} is Iran v USA" in problem
    wales = cup_pool.match(pool_number(cup_pool, "Wales", "England"))
    assert wales.result is None  # the same kick-off, but never a guess


def test_a_finished_match_without_its_ninety_minutes_is_reported_not_guessed(
    cup_pool: Pool,
) -> None:
    body = json.loads(iran_usa_feed())
    body["matches"][0]["score"] = v4_score("EXTRA_TIME", (2, 1))
    (seen,) = parse_matches(body, "WC")
    report = cup_pool.fixtures.apply_results([seen], "football-data.org")
    number = pool_number(cup_pool, "Iran", "USA")
    assert cup_pool.match(number).result is None
    assert report.unmatched and "no 90-minute score" in report.unmatched[0]


def test_admins_hear_what_the_feed_could_not_apply_and_players_do_not(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path, tournament=cup_2022(with_results=False)) as served:
            served.player("ana")
            served.player("admin", admin=True)
            async with served.connect("ana") as ana, served.connect("admin") as admin:
                player = await ana.create_process()
                boss = await admin.create_process()
                await read_until(player.stdout, "Type help")
                await read_until(boss.stdout, "Type help")
                stranger = FeedResult(
                    datetime(2022, 11, 20, 16, 0, tzinfo=UTC), "Atlantis", "Lemuria",
                    FeedStatus.FINISHED, Result(Score(9, 9)), feed_id="77",
                )  # fmt: skip
                poller = ResultsPoller(served.pool, FootballDataSource("t"))
                report = served.pool.fixtures.apply_results([stranger], poller.source.name)
                for problem in report.unmatched or ():
                    poller.tell(problem)
                seen = await read_until(boss.stdout, "not applied")
                assert "[admins] results feed football-data.org: Atlantis v Lemuria" in seen
                player.stdin.write("say still here\n")
                heard = await read_until(player.stdout, "ana: still here")
                assert "Atlantis" not in heard and "[admins]" not in heard
                for process in (player, boss):
                    process.stdin.write("quit\n")

    asyncio.run(scenario())
