"""Jokers: a pick that counts double, a few per stage, set before its match kicks off.

The stage rule is driven on the real 2022 World Cup and the 2025 Brasileirão
without a database; the writes through the pool and its commands on SQLite and
PostgreSQL, and the cap under two racing writers in threads and in processes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import func, select

from bot.app.cli import main
from frontends.commands import Caller, Commands
from frontends.picks import JOKER_MARK
from game.db.engine import open_database
from game.db.schema import jokers as joker_rows
from game.events import JokerPlaced, JokerRemoved
from game.history import PoolHistory
from game.jokers import GROUP_STAGE, Caps, JokerRefused, place, stage_in
from game.model import Match
from game.openfootball import parse_tournament
from game.pool import Pool
from game.sources import read_json
from game.words import Words
from tests import racers
from tests.conftest import TEST_DATA, FakeClock, play, the_2022_cup_to_come
from tests.ssh_pool import served_pool
from tests.test_bonus import cup

ANA = Caller("ana")
ADMIN = Caller("caio", is_admin=True)


def by_stage(matches: list[Match]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for match in matches:
        stage = stage_in(match, matches)
        counts[stage] = counts.get(stage, 0) + 1
    return counts


# -- the rule, without a database ---------------------------------------------------


def test_a_cups_group_stage_is_one_stage_and_each_knock_out_round_another() -> None:
    assert by_stage(cup(2022)) == {
        GROUP_STAGE: 48,
        "Round of 16": 8,
        "Quarter-finals": 4,
        "Semi-finals": 2,
        "Match for third place": 1,
        "Final": 1,
    }


def test_a_leagues_rounds_are_its_stages() -> None:
    data = read_json(str(TEST_DATA / "br.1-2025.json"))
    season = parse_tournament(data, ZoneInfo("America/Sao_Paulo"))
    matches = [
        Match(n, f.stage, f.kickoff, f.team1, f.team2, f.group, f.venue)
        for n, f in enumerate(season.fixtures, start=1)
    ]
    stages = by_stage(matches)
    assert len(stages) == 38 and set(stages.values()) == {10}
    assert "Matchday 38" in stages


def test_under_the_cap_a_joker_is_added_at_the_cap_the_movable_one_moves() -> None:
    matches = cup(2022, played=False)
    before = matches[0].kickoff - timedelta(hours=1)
    first, second, third = matches[0], matches[1], matches[2]
    caps = Caps()  # 2 in the group stage
    added = place(first, [], matches, caps, before)
    assert added is not None and added.moved_from is None and added.stage == GROUP_STAGE
    assert place(first, [first], matches, caps, before) is None  # already there
    with pytest.raises(JokerRefused) as refused:
        place(third, [first, second], matches, caps, before)
    assert str(refused.value) == (
        "your 2 jokers for group stage are on #1, #2: take one off first (joker off N)"
    )
    # once #1 has kicked off its joker stays, and #2's is the one that moves
    during_first = first.kickoff + timedelta(minutes=30)
    moved = place(third, [first, second], matches, caps, during_first)
    assert moved is not None and moved.moved_from == second


def test_no_joker_on_a_match_that_kicked_off_and_none_left_when_all_have() -> None:
    matches = cup(2022, played=False)
    final, semi = matches[-1], matches[-4]
    assert (final.stage, semi.stage) == ("Final", "Semi-finals")
    after = final.kickoff + timedelta(minutes=1)
    with pytest.raises(JokerRefused, match="has kicked off: no joker on it now"):
        place(final, [], matches, Caps(), after)
    other_semi = matches[-3]
    during = other_semi.kickoff + timedelta(minutes=5)  # both semi-finals kicked off
    with pytest.raises(JokerRefused, match="has kicked off"):
        place(other_semi, [semi], matches, Caps(), during)
    with pytest.raises(JokerRefused, match="no joker left for Semi-finals"):
        place(other_semi, [semi], matches, Caps(), semi.kickoff + timedelta(minutes=5))


# -- the pool, on the database --------------------------------------------------------


@pytest.fixture
def cup_pool(pool: Pool, clock: FakeClock) -> Pool:
    """The 2022 World Cup's fixtures, nothing played, three players (caio an admin);
    a day to go."""
    return the_2022_cup_to_come(pool, clock, timedelta(days=1), admin="caio")


def test_jokers_over_ssh_exec_in_both_languages(cup_pool: Pool, clock: FakeClock) -> None:
    commands = Commands(cup_pool)
    pt = Commands(cup_pool, words=Words("pt"))
    commands.run(ANA, "bet 1 0-2")
    assert (
        commands.run(ANA, "joker 1").text
        == "joker on #1 Qatar v Ecuador (group stage): your pick there counts double"
    )
    assert (
        pt.run(ANA, "coringa 2").text
        == "coringa em #2 England v Iran (fase de grupos): seu palpite ali vale em dobro"
    )
    over = pt.run(ANA, "coringa 3")
    assert over.error and over.text == (
        "seus 2 coringas de fase de grupos estão em #1, #2: tire um antes (coringa tirar N)"
    )
    assert pt.run(ANA, "coringa tirar 2").text == "coringa tirado de #2 England v Iran"
    assert commands.run(ANA, "joker 3").text.startswith("joker on #3 Senegal v Netherlands")
    assert cup_pool.extras.jokers_of("ana") == [1, 3]
    assert f"0-2 {JOKER_MARK}" in commands.run(ANA, "mybets").text
    assert json.loads(commands.run(ANA, "mybets --json").text)[0]["joker"] is True

    clock.now = cup_pool.match(1).kickoff + timedelta(minutes=10)
    stays = commands.run(ANA, "joker off 1")
    assert stays.error and stays.text == "#1 Qatar v Ecuador has kicked off: its joker stays"
    late = pt.run(ANA, "coringa 1")
    assert late.text == "seu coringa já está em #1 Qatar v Ecuador"
    assert f"ana 0-2 {JOKER_MARK}" in commands.run(ANA, "match 1").text
    # the cap is reached with #1 (kicked off, it stays) and #3: #3's joker moves to #4
    moved_on = commands.run(ANA, "joker 4")
    assert moved_on.text.startswith("joker moved from #3 to #4 USA v Wales")
    assert cup_pool.extras.jokers_of("ana") == [1, 4]
    kinds = [(i.event.kind, i.event.match) for i in cup_pool.events(kinds=("joker_placed",
             "joker_removed"))]  # fmt: skip
    assert kinds == [
        ("joker_placed", 1),
        ("joker_placed", 2),
        ("joker_removed", 2),
        ("joker_placed", 3),
        ("joker_placed", 4),
    ]
    (moved,) = [e for e in cup_pool.events_of(JokerPlaced) if e.event.moved_from]
    assert moved.event.moved_from == 3
    assert len(cup_pool.events_of(JokerRemoved)) == 1
    assert PoolHistory.from_log(cup_pool.events()).jokers == {("ana", 1), ("ana", 4)}


def test_the_cap_is_a_pool_setting(cup_pool: Pool) -> None:
    commands = Commands(cup_pool)
    cup_pool.extras.configure(group_stage_jokers=1)
    commands.run(ANA, "joker 1")
    assert commands.run(ANA, "joker 2").text.startswith("joker moved from #1 to #2")
    cup_pool.extras.configure(group_stage_jokers=0)
    none = Commands(cup_pool, words=Words("pt")).run(Caller("bia"), "coringa 5")
    assert none.error and none.text == "este bolão não joga coringas na fase de grupos"
    assert "jokers per stage: 0 in a cup's group stage, 1 in each other round" in (
        commands.run(ANA, "joker").text
    )


# -- two writers racing for the cap --------------------------------------------------


@pytest.fixture(params=["threads", "processes"])
def in_processes(request: pytest.FixtureRequest) -> bool:
    return bool(request.param == "processes")


@pytest.fixture
def joker_race(database_url: str, in_processes: bool) -> Iterator[Pool]:
    """Two matches far ahead, in one stage whose cap is one joker; a player a round."""
    pool = Pool(open_database(database_url))
    pool.fixtures.import_tournament(racers.tournament(2))
    pool.extras.configure(group_stage_jokers=1)
    for round_ in range(rounds(in_processes)):
        pool.members.add(f"p{round_}")
    yield pool
    pool.engine.dispose()


def rounds(in_processes: bool) -> int:
    return racers.ROUNDS_IN_PROCESSES if in_processes else racers.ROUNDS_IN_THREADS


def joker_on_1(pool: Pool, round_: int) -> str:
    return f"ok {pool.extras.joker(f'p{round_}', 1).match.number}"


def joker_on_2(pool: Pool, round_: int) -> str:
    return f"ok {pool.extras.joker(f'p{round_}', 2).match.number}"


def test_two_sessions_of_one_player_racing_never_pass_the_cap(
    joker_race: Pool, in_processes: bool
) -> None:
    url = joker_race.engine.url.render_as_string(hide_password=False)
    by_round = racers.run(url, [joker_on_1, joker_on_2], rounds(in_processes), in_processes)
    for round_, answered in enumerate(by_round):
        told = [answer for _, answer in answered]
        assert told == ["ok 1", "ok 2"]  # both told yes: the later one moved the joker
        held = joker_race.extras.jokers_of(f"p{round_}")
        logged = joker_race.events_of(JokerPlaced)
        mine = [e.event for e in logged if e.event.player == f"p{round_}"]
        assert len(mine) == 2 and mine[1].moved_from == mine[0].match
        assert held == [mine[1].match]  # one joker: the cap held
    with joker_race.work.read() as connection:
        total = connection.execute(select(func.count()).select_from(joker_rows)).scalar()
    assert total == rounds(in_processes)
    folded = PoolHistory.from_log(joker_race.events()).jokers  # the table is what the log says
    stored = {
        (f"p{r}", n)
        for r in range(rounds(in_processes))
        for n in joker_race.extras.jokers_of(f"p{r}")
    }
    assert folded == stored


def test_an_admin_sets_the_caps_and_the_bonus_points_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "data")
    assert (
        main(["pool", "set", "--group-jokers", "3", "--champion-points", "30", "--data-dir", data])
        == 0
    )
    assert main(["pool", "set", "--round-jokers", "100", "--data-dir", data]) == 1
    err = capsys.readouterr().err
    assert err.strip().endswith("a setting here is a whole number from 0 to 99, not 100")
    assert main(["log", "--json", "--data-dir", data]) == 0
    changed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(e["key"], e["value"]) for e in changed] == [
        ("jokers_group_stage", "3"),
        ("bonus_champion_points", "30"),
    ]


def test_jokers_and_bonus_picks_over_a_real_ssh_exec(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("ana")
            told = await served.run("ana", "bonus campeao Brasil")
            assert (told.exit_status, told.stdout) == (0, "your champion pick: Brazil\n")
            assert (await served.run("ana", "joker 1")).exit_status == 0
            assert (await served.run("ana", "coringa 3")).exit_status == 0
            over = await served.run("ana", "joker 4")
            assert (over.exit_status, over.stdout, over.stderr) == (
                1,
                "",
                "your 2 jokers for group stage are on #1, #3: take one off first (joker off N)\n",
            )
            unknown = await served.run("ana", "bonus champion Narnia")
            assert unknown.exit_status == 1 and unknown.stderr.count("\n") == 1
            served.clock.now = served.pool.match(1).kickoff
            late = await served.run("ana", "bonus scorer Vini")
            assert (late.exit_status, late.stderr) == (
                1,
                "bonus picks closed when #1 Brazil v Serbia kicked off\n",
            )
            shown = json.loads((await served.run("ana", "bonus --json")).stdout)
            assert shown["all_shown"] and shown["picks"][0]["value"] == "Brazil"

    asyncio.run(scenario())


def test_mybets_shows_a_jokered_pick_at_the_points_the_table_counts(
    cup_pool: Pool, clock: FakeClock
) -> None:
    commands = Commands(cup_pool)
    commands.run(ANA, "bet 1 0-2")  # Qatar 0-2 Ecuador: exact
    commands.run(ANA, "bet 2 6-2")  # England 6-2 Iran: exact, no joker
    commands.run(ANA, "joker 1")
    play(cup_pool, clock, 1, "0-2")
    play(cup_pool, clock, 2, "6-2")
    shown = {
        row["match"]: row["points"] for row in json.loads(commands.run(ANA, "mybets --json").text)
    }
    (ana,) = [row for row in cup_pool.standings() if row.player == "ana"]
    assert shown[1] == 2 * shown[2] and shown[1] + shown[2] == ana.points
