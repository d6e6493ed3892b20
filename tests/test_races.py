"""Two or more writers racing for one rule, in threads and in separate processes.

Each test runs a bounded number of rounds (``tests.racers``); every round races on
a match, invite, code or handle of its own. Afterwards, for every round: no rule
is broken, every racer was told yes or no (never an error), nothing a player was
told "accepted" is missing, and the tables are what the log folds into.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.agent.commentator import Commentator
from bot.agent.gateway import remembering
from bot.agent.providers.offline import OfflineModel
from bot.agent.scheduler import PoolScheduler
from game.db.engine import open_database
from game.db.schema import account_links, invites, players
from game.events import (
    AccountLinked,
    MatchKickedOff,
    PlayerJoined,
    PredictionPlaced,
    ResultRecorded,
)
from game.feeds.football_data import FootballDataSource
from game.feeds.poller import ResultsPoller
from game.history import PoolHistory
from game.model import MatchStatus, Result, Score
from game.pool import Pool
from tests import football_data_v4 as v4
from tests import racers
from tests.http_server import canned_server
from tests.test_feed_matching import PATH, cup_2022, place_the_same_picks


@pytest.fixture(params=["threads", "processes"])
def in_processes(request: pytest.FixtureRequest) -> bool:
    return bool(request.param == "processes")


@pytest.fixture
def race_pool(database_url: str, in_processes: bool) -> Iterator[Pool]:
    """A pool with one match a round (far ahead) and two players, ana and bia."""
    pool = Pool(open_database(database_url))
    pool.fixtures.import_tournament(racers.tournament(rounds(in_processes)))
    pool.members.add("ana")
    pool.members.add("bia")
    yield pool
    pool.engine.dispose()


def rounds(in_processes: bool) -> int:
    return racers.ROUNDS_IN_PROCESSES if in_processes else racers.ROUNDS_IN_THREADS


def race(pool: Pool, racing: list[racers.Racer], in_processes: bool) -> list[list[str]]:
    """Every racer's answers by round; none of them an error."""
    by_round = racers.run(str(pool.engine.url.render_as_string(hide_password=False)), racing,
                          rounds(in_processes), in_processes)  # fmt: skip
    answers = [[answer for _, answer in answered] for answered in by_round]
    errors = [a for answered in answers for a in answered if not a.startswith(("ok", "refused"))]
    assert errors == []
    return answers


def assert_the_tables_are_the_log(pool: Pool) -> None:
    """The state equals what the log says, and the log breaks no rule."""
    history = PoolHistory.from_log(pool.events())
    assert [b.text() for b in history.lifecycle.open_breaches()] == []
    matches = pool.matches()
    assert history.statuses == {m.number: m.status for m in matches}
    assert history.results == {m.number: m.result for m in matches if m.result is not None}
    assert sorted(history.players) == sorted(p.handle for p in pool.players())
    stored = {(p.handle, p.match_number): p.score for h in history.players
              for p in pool.predictions_of(h)}  # fmt: skip
    assert history.picks == stored
    assert history.standings() == pool.standings()
    # every change of a pick names the pick it replaced
    last: dict[tuple[str, int], str] = {}
    for item in pool.events_of(PredictionPlaced):
        key = (item.event.player, item.event.match)
        assert item.event.previous == last.get(key), item
        last[key] = f"{item.event.home}-{item.event.away}"
    assert pool.verify_log().intact


def kickoff_ids(pool: Pool, number: int) -> list[int]:
    return [item.id for item in pool.events_of(MatchKickedOff, match_number=number)]


def test_a_bet_never_lands_after_the_kick_off(race_pool: Pool, in_processes: bool) -> None:
    answers = race(race_pool, [racers.kick_off, racers.bettor("ana"), racers.bettor("bia")],
                   in_processes)  # fmt: skip
    for round_, (kicked, *bettors) in enumerate(answers):
        number = round_ + 1
        assert kicked == "ok kicked off"
        (kickoff,) = kickoff_ids(race_pool, number)
        picks = race_pool.events_of(PredictionPlaced, match_number=number)
        assert all(p.id < kickoff for p in picks)  # each pick logged before the whistle
        for handle, told in zip(("ana", "bia"), bettors, strict=True):
            accepted = told.removeprefix("ok ").split() if told.startswith("ok") else []
            logged = [f"{p.event.home}-{p.event.away}" for p in picks if p.event.player == handle]
            assert logged == accepted  # every pick she was told is kept, and only those
            stored = {p.match_number: p.score for p in race_pool.predictions_of(handle)}
            assert str(stored.get(number)) == (accepted[-1] if accepted else "None")
    assert_the_tables_are_the_log(race_pool)


def test_a_finished_match_never_goes_back_to_live(race_pool: Pool, in_processes: bool) -> None:
    answers = race(race_pool, [racers.kick_off, racers.finishing_feed], in_processes)
    for round_, (kicked, fed) in enumerate(answers):
        match = race_pool.match(round_ + 1)
        assert (match.status, match.result) == (MatchStatus.FINISHED, Result(Score(2, 1)))
        assert len(kickoff_ids(race_pool, match.number)) == 1
        assert fed == "ok 1 result"
        assert kicked in ("ok kicked off", f"refused {match.label} is already live",
                          f"refused {match.label} is already finished")  # fmt: skip
    assert_the_tables_are_the_log(race_pool)


def test_two_admins_entering_different_results(race_pool: Pool, in_processes: bool) -> None:
    answers = race(race_pool, [racers.admin_result(1, 0), racers.admin_result(2, 1)],
                   in_processes)  # fmt: skip
    for round_, told in enumerate(answers):
        assert told == ["ok 1-0", "ok 2-1"]
        first, second = race_pool.events_of(ResultRecorded, match_number=round_ + 1)
        assert first.event.previous is None  # the later one is logged as its correction
        assert second.event.previous == first.event.full_time
        assert race_pool.match(round_ + 1).result == Result(Score.parse(second.event.full_time))
    assert_the_tables_are_the_log(race_pool)


def test_an_import_against_a_kick_off_and_a_player(race_pool: Pool, in_processes: bool) -> None:
    answers = race(race_pool, [racers.kick_off, racers.spreadsheet("Ana"), racers.bettor("ana")],
                   in_processes)  # fmt: skip
    for round_, (kicked, imported, _bet) in enumerate(answers):
        number = round_ + 1
        assert kicked == "ok kicked off"
        assert imported.startswith("ok")  # a refused row is reported, not an error
        (kickoff,) = kickoff_ids(race_pool, number)
        picks = race_pool.events_of(PredictionPlaced, match_number=number)
        assert all(p.id < kickoff for p in picks)  # a timeless sheet meets the same lock
        refused = imported.endswith("refused 1")
        assert [p.event.source for p in picks].count("import") == (0 if refused else 1)
    assert_the_tables_are_the_log(race_pool)


def test_n_racers_for_one_invite(race_pool: Pool, in_processes: bool) -> None:
    codes: list[str | None] = [
        race_pool.members.create_invite("ana") for _ in range(rounds(in_processes))
    ]
    answers = race(race_pool, [racers.newcomer(codes, racers.own_handle) for _ in range(4)],
                   in_processes)  # fmt: skip
    with race_pool.work.read() as connection:
        left = dict(connection.execute(select(invites.c.code, invites.c.uses_left)).all())
    for code, told in zip(codes, answers, strict=True):
        assert sum(a.startswith("ok") for a in told) == 1
        assert (
            sorted(a for a in told if a.startswith("refused"))
            == ["refused that invite code is not valid"] * 3
        )
        assert left[code] == 0
    joined = [item.event.player for item in race_pool.events_of(PlayerJoined)]
    assert len(joined) == 2 + rounds(in_processes)
    assert_the_tables_are_the_log(race_pool)


def test_n_racers_for_one_link_code(race_pool: Pool, in_processes: bool) -> None:
    handles = [f"p{r}" for r in range(rounds(in_processes))]
    for handle in handles:
        race_pool.members.add(handle)
    codes = [race_pool.members.create_link_code(handle, "discord") for handle in handles]
    answers = race(race_pool, [racers.linker(f"acct-{i}", codes) for i in range(4)],
                   in_processes)  # fmt: skip
    for handle, told in zip(handles, answers, strict=True):
        assert sorted(told) == ["ok " + handle] + ["refused that link code is not valid"] * 3
    linked = Counter(item.event.player for item in race_pool.events_of(AccountLinked))
    assert linked == Counter(handles)  # each code used once
    # the table holds what the log's links leave: one account per player, one player per account
    expected: dict[str, str] = {}
    for item in race_pool.events_of(AccountLinked):
        expected = {a: p for a, p in expected.items() if p != item.event.player}
        expected[item.event.account] = item.event.player
    with race_pool.work.read() as connection:
        rows = connection.execute(
            select(account_links.c.account, players.c.handle).join(
                players, players.c.id == account_links.c.player_id
            )
        ).all()
    assert dict(rows) == expected
    assert_the_tables_are_the_log(race_pool)


def test_n_racers_for_one_handle(race_pool: Pool, in_processes: bool) -> None:
    open_pool: list[str | None] = [None] * rounds(in_processes)
    answers = race(race_pool, [racers.newcomer(open_pool, racers.one_handle) for _ in range(4)],
                   in_processes)  # fmt: skip
    for round_, told in enumerate(answers):
        handle = racers.one_handle(0, round_)
        assert sorted(told) == [f"ok {handle}"] + [f"refused handle {handle!r} is taken"] * 3
        player = race_pool.player(handle)
        assert player is not None and len(player.keys) == 1
    assert_the_tables_are_the_log(race_pool)


def test_the_2022_world_cup_in_one_poll_while_the_overdue_kick_offs_fire(
    database_url: str, tmp_path: Path
) -> None:
    """The feed's batch finishes all 64 matches while the scheduler kicks them off."""
    pool = Pool(open_database(database_url))  # the real clock: every 2022 kick-off is overdue
    pool.fixtures.import_tournament(cup_2022(with_results=False))
    place_the_same_picks(pool, cup_2022(with_results=False))
    reference = Pool(open_database(f"sqlite:///{tmp_path / 'reference.db'}"))
    reference.fixtures.import_tournament(cup_2022(with_results=True))
    place_the_same_picks(reference, cup_2022(with_results=True))
    reference.members.add("betania")  # she joins the pool with the scheduler, too late to bet

    async def serve_for_a_while(base_url: str) -> None:
        source = FootballDataSource("token", base_url=base_url)
        poller = ResultsPoller(pool, source, interval=timedelta(seconds=2))
        keeper, gateway = remembering(pool, OfflineModel())
        her = Commentator(keeper, gateway)
        her.start()
        scheduler = PoolScheduler(her, results=poller, results_tick=0.01)
        scheduler.start()
        deadline = datetime.now(UTC) + timedelta(seconds=30)
        while datetime.now(UTC) < deadline:
            await asyncio.sleep(0.2)
            statuses = {m.status for m in pool.matches()}
            jobs = [job.id for job in scheduler.scheduler.get_jobs()]
            if statuses == {MatchStatus.FINISHED} and not any(j.startswith("kick") for j in jobs):
                break
        await asyncio.sleep(0.5)  # any kick-off job still in flight lands (or is refused)
        scheduler.shutdown()

    with canned_server() as server:
        server.serve(PATH, v4.whole_tournament(cup_2022(with_results=True)))
        asyncio.run(serve_for_a_while(server.base_url))
    matches = pool.matches()
    assert Counter(m.status for m in matches) == {MatchStatus.FINISHED: 64}
    assert len(pool.events_of(MatchKickedOff)) == 64
    assert [m.result for m in matches] == [m.result for m in reference.matches()]
    assert [row.as_dict() for row in pool.standings()] == [
        row.as_dict() for row in reference.standings()
    ]
    assert_the_tables_are_the_log(pool)
    reference.engine.dispose()
    pool.engine.dispose()
