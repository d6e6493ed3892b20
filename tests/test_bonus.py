"""Bonus picks: the champion and the top scorer, named before the first kick-off.

The settling is driven on real tournaments without a database (openfootball's
World Cups and the 2025 Brasileirão in tests/data); the writes through the
pool's commands, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.agent.predictor import outlook
from frontends.commands import Caller, Commands
from frontends.discord.slash import line_for, options_of
from game.addressing import Addressee
from game.bonus import (
    CHAMPION,
    SCORER,
    Settled,
    UnknownScorer,
    UnknownTeam,
    champion_pick,
    scorer_key,
    scorer_pick,
    scorers_of,
    settle,
    teams_of,
)
from game.events import BonusPicked
from game.history import PoolHistory
from game.model import Goal, Match, MatchStatus
from game.openfootball import parse_tournament
from game.pool import Pool
from game.sources import read_json
from game.squads import SquadRow
from game.words import Words
from tests.conftest import TEST_DATA, FakeClock, her_in, the_2022_cup_to_come

QATAR = ZoneInfo("Asia/Qatar")
ANA, BIA = Caller("ana"), Caller("bia")


def cup(year: int, played: bool = True) -> list[Match]:
    """A World Cup's matches as the pool holds them: finished with their goals, or
    (``played`` False) all still to be played."""
    data = read_json(str(TEST_DATA / f"worldcup-{year}.json"))
    tournament = parse_tournament(data, QATAR if year == 2022 else None)
    return [
        Match(
            number,
            f.stage,
            f.kickoff,
            f.team1,
            f.team2,
            f.group,
            f.venue,
            MatchStatus.FINISHED if played else MatchStatus.SCHEDULED,
            f.result if played else None,
            f.goals if played else (),
        )
        for number, f in enumerate(tournament.fixtures, start=1)
    ]


# -- the domain, without a database -------------------------------------------------


def test_a_scorer_is_one_name_through_accents_case_punctuation_and_name_order() -> None:
    assert scorer_key("Kylian Mbappé") == scorer_key("kylian mbappe") == "kylian mbappe"
    assert scorer_key("MBAPPÉ, Kylian") == "kylian mbappe"
    assert scorer_key("Son Heung-min") == scorer_key("Heung-min Son")
    assert scorer_key("Martin Ødegaard") == scorer_key("Martin Odegaard")
    assert scorer_key("Ángel Di María") == scorer_key("angel di maria")
    assert scorer_key("N'Golo Kanté") == scorer_key("Ngolo Kante")
    assert scorer_key("Lionel Messi") != scorer_key("Lionel Scaloni")
    assert scorer_key(" ,- ") == ""


@pytest.mark.parametrize(
    ("year", "champion", "golden_boot"),
    [
        (2018, "France", "Harry Kane"),  # six goals; the file writes him "Kane" too
        (2022, "Argentina", "Kylian Mbappé"),  # eight: the file spells him two ways
    ],
)
def test_a_world_cup_settles_on_its_final_and_its_goals(
    year: int, champion: str, golden_boot: str
) -> None:
    settled = settle(cup(year))
    assert settled.champion == champion
    assert scorer_key(golden_boot) in settled.scorers
    # the family name alone, picked before anyone had scored, is the same pick
    assert scorer_key(golden_boot.split()[-1]) in settled.scorers
    assert scorer_key("Lionel Messi") not in settled.scorers  # 7 in 2022, 1 in 2018


def test_the_2022_final_is_won_on_penalties_after_a_draw() -> None:
    matches = cup(2022)
    final = matches[-1]
    assert final.result is not None and final.result.end_of_play.outcome == 0
    assert settle(matches).champion == "Argentina"  # 4-2 on penalties, 3-3 after extra time


def test_nothing_is_settled_before_the_last_match_is_over() -> None:
    matches = cup(2026)
    assert settle(matches).champion == "Spain"
    unfinished = [*matches[:-1], replace(matches[-1], status=MatchStatus.LIVE)]
    assert settle(unfinished) == Settled(None, frozenset())
    assert settle(cup(2026, played=False)) == Settled(None, frozenset())


def test_every_tied_top_scorer_counts() -> None:
    group_stage = [m for m in cup(2022) if m.group is not None]
    settled = settle(group_stage)
    assert settled.champion is None  # a group stage crowns nobody
    three_each = [
        "Enner Valencia",
        "Cody Gakpo",
        "Kylian Mbappé",
        "Marcus Rashford",
        "Álvaro Morata",
    ]
    assert {scorer_key(name) for name in three_each} <= settled.scorers
    assert scorer_key("Richarlison") not in settled.scorers  # two in the group stage


def test_a_pick_may_name_a_scorer_by_any_part_of_the_name_only_they_have() -> None:
    final = cup(2022)[-1]
    di_maria = [g for g in final.goals if g.scorer == "Ángel Di María"]
    settled = settle([replace(final, goals=tuple(di_maria))])
    assert {"angel di maria", scorer_key("Di María"), scorer_key("Ángel")} <= settled.scorers
    assert scorer_key("Vinícius Jr") == scorer_key("Vinicius Junior")


def test_own_goals_are_nobodys() -> None:
    final = cup(2022)[-1]
    own = (Goal("home", 5, scorer="Hugo Lloris", own_goal=True),) * 5
    settled = settle([replace(final, goals=final.goals + own)])
    assert settled.scorers >= {scorer_key("Kylian Mbappé")}
    assert scorer_key("Hugo Lloris") not in settled.scorers


def test_a_league_champion_is_the_top_of_its_table() -> None:
    data = read_json(str(TEST_DATA / "br.1-2025.json"))
    season = parse_tournament(data, ZoneInfo("America/Sao_Paulo"))
    matches = [
        Match(
            n,
            f.stage,
            f.kickoff,
            f.team1,
            f.team2,
            f.group,
            f.venue,
            MatchStatus.FINISHED,
            f.result,
        )
        for n, f in enumerate(season.fixtures, start=1)
    ]
    assert settle(matches).champion == "CR Flamengo"
    assert settle(matches).scorers == frozenset()  # the file has no goals


def test_a_champion_is_named_in_either_language_and_must_play() -> None:
    teams = teams_of(cup(2022, played=False))
    assert champion_pick("Brasil", teams) == "Brazil"
    assert champion_pick("alemanha", teams) == "Germany"
    assert champion_pick("Estados Unidos", teams) == "USA"
    in_2026 = teams_of(cup(2026, played=False))
    # Not "Catar", "Irã" or "Gana": the team book reads chat too, where they are
    # everyday words ("vai catar", "ele irá", "com muita gana").
    portuguese = {"República Democrática do Congo": "DR Congo", "Usbequistão": "Uzbekistan"}
    assert {name: champion_pick(name, in_2026) for name in portuguese} == portuguese
    with pytest.raises(UnknownTeam) as refused:
        champion_pick("Italy", teams)  # did not qualify for 2022
    assert str(refused.value).startswith("Italy does not play in this tournament (closest: ")
    assert "\n" not in str(refused.value)


def test_a_scorer_is_checked_against_the_goals_with_the_closest_names() -> None:
    known = scorers_of(cup(2022))
    assert scorer_pick("Mbappe", known) == ("kylian mbappe", True)
    assert scorer_pick("LIONEL MESSI", known) == ("lionel messi", True)
    with pytest.raises(UnknownScorer) as refused:
        scorer_pick("Mbape", known)
    assert str(refused.value).startswith(
        "no scorer called Mbape in this tournament (closest: Kylian Mbappé"
    )
    with pytest.raises(UnknownScorer) as refused:
        scorer_pick("Silva", known)  # two scorers of that name: which one?
    assert "closest:" in str(refused.value)
    assert scorer_pick("Pelé", {}) == ("pele", False)  # nobody has scored: unchecked


# -- the pool, on the database --------------------------------------------------------


@pytest.fixture
def cup_pool(pool: Pool, clock: FakeClock) -> Pool:
    """The 2022 World Cup's fixtures, nothing played, three players; a week to go."""
    return the_2022_cup_to_come(pool, clock, timedelta(days=7))


def test_bonus_picks_over_ssh_exec_before_and_after_the_first_kick_off(
    cup_pool: Pool, clock: FakeClock
) -> None:
    commands = Commands(cup_pool)
    pt = Commands(cup_pool, words=Words("pt"))
    assert commands.run(ANA, "bonus champion Brasil").text == "your champion pick: Brazil"
    assert (
        pt.run(ANA, "bonus campeao Argentina").text
        == "seu palpite de campeão: Argentina (era Brazil)"
    )
    assert (
        commands.run(ANA, "bonus scorer Kylian Mbappé").text
        == "your top scorer pick: Kylian Mbappé (not checked: the pool knows no scorers yet)"
    )
    assert pt.run(BIA, "bonus artilheiro Messi").text.startswith("seu palpite de artilheiro: Messi")
    refused = commands.run(BIA, "bonus champion Narnia")
    assert refused.error and refused.text.startswith("Narnia does not play in this tournament")
    usage = commands.run(BIA, "bonus goalkeeper Alisson")
    assert usage.error and "usage: bonus champion TEAM" in usage.text

    # before the first kick-off each sees only their own
    mine = json.loads(commands.run(BIA, "bonus --json").text)
    assert {(p["player"], p["kind"], p["value"]) for p in mine["picks"]} == {
        ("bia", SCORER, "Messi")
    }
    assert mine["all_shown"] is False and mine["points"] == {CHAMPION: 20, SCORER: 10}
    listing = commands.run(BIA, "bonus").text
    assert "Argentina" not in listing
    assert "others' bonus picks are hidden until the first kick-off" in listing
    assert "1 made" in listing

    clock.now = cup_pool.match(1).kickoff
    late = pt.run(BIA, "bonus campeao Brasil")
    assert (
        late.error
        and late.text == "os palpites especiais fecharam quando #1 Qatar v Ecuador começou"
    )
    everyone = json.loads(commands.run(BIA, "bonus --json").text)
    assert everyone["all_shown"] is True
    assert {(p["player"], p["value"]) for p in everyone["picks"]} == {
        ("ana", "Argentina"),
        ("ana", "Kylian Mbappé"),
        ("bia", "Messi"),
    }
    mybets = commands.run(ANA, "mybets").text
    assert "bonus: champion Argentina, top scorer Kylian Mbappé" in mybets

    logged = [item.event for item in cup_pool.events_of(BonusPicked)]
    assert [(e.player, e.pick, e.value, e.key, e.previous) for e in logged] == [
        ("ana", CHAMPION, "Brazil", "Brazil", None),
        ("ana", CHAMPION, "Argentina", "Argentina", "Brazil"),
        ("ana", SCORER, "Kylian Mbappé", "kylian mbappe", None),
        ("bia", SCORER, "Messi", "messi", None),
    ]
    assert PoolHistory.from_log(cup_pool.events()).bonus == {
        ("ana", CHAMPION): "Argentina",
        ("ana", SCORER): "kylian mbappe",
        ("bia", SCORER): "messi",
    }


def test_a_scorer_named_longer_than_any_footballer_is_refused_and_the_pick_kept(
    cup_pool: Pool,
) -> None:
    commands = Commands(cup_pool)
    commands.run(ANA, "bonus scorer Mbappé")
    # Under the line's cap, over a name's: everyone's table would carry it after kick-off.
    told = commands.run(ANA, "bonus scorer " + "Kylian " * 60)
    assert told.error and told.text == "a player's name is at most 100 characters"
    assert [p.value for p in cup_pool.extras.bonus_picks("ana")] == ["Mbappé"]


def test_a_bonus_pick_the_same_again_logs_nothing(cup_pool: Pool) -> None:
    commands = Commands(cup_pool)
    commands.run(ANA, "bonus champion Brazil")
    assert commands.run(ANA, "bonus champion brasil").text == "your champion pick is already Brazil"
    assert len(cup_pool.events_of(BonusPicked)) == 1


def test_the_bonus_points_are_a_pool_setting(cup_pool: Pool) -> None:
    assert cup_pool.extras.settings().champion_points == 20
    changed = cup_pool.extras.configure(champion_points=30, scorer_points=15)
    assert (changed.champion_points, changed.scorer_points) == (30, 15)
    shown = json.loads(Commands(cup_pool).run(ANA, "bonus --json").text)
    assert shown["points"] == {CHAMPION: 30, SCORER: 15}
    with pytest.raises(ValueError):
        cup_pool.extras.configure(scorer_points=-1)


def test_discords_bonus_and_joker_are_the_same_lines(cup_pool: Pool) -> None:
    commands, her = Commands(cup_pool), Addressee()
    sent = [{"name": "kind", "value": "champion"}, {"name": "name", "value": "Brasil"}]
    line = line_for("bonus", options_of("bonus", sent), her)
    assert commands.run(ANA, line).text == "your champion pick: Brazil"
    half = line_for("bonus", options_of("bonus", [{"name": "name", "value": "Brasil"}]), her)
    assert commands.run(ANA, half).error  # a name without its kind is told the usage
    joker = line_for("joker", options_of("joker", [{"name": "match", "value": 7}]), her)
    assert commands.run(ANA, joker).text.startswith("joker on #7 ")
    assert line_for("bonus", options_of("bonus", []), her) == "bonus"


def test_after_the_final_bonus_says_who_won_the_bonuses(cup_pool: Pool, clock: FakeClock) -> None:
    """After the final, `bonus` listed the picks as before: not the champion, the top
    scorer, nor what each pick earned."""
    commands, pt = Commands(cup_pool), Commands(cup_pool, words=Words("pt"))
    commands.run(ANA, "bonus champion Argentina")
    commands.run(ANA, "bonus scorer Mbappé")
    commands.run(BIA, "bonus champion France")
    commands.run(BIA, "bonus scorer Messi")
    before = commands.run(ANA, "bonus").text
    assert "the tournament is over" not in before
    played = parse_tournament(read_json(str(TEST_DATA / "worldcup-2022.json")), QATAR)
    cup_pool.fixtures.import_tournament(played)
    clock.now = cup_pool.matches()[-1].kickoff + timedelta(days=1)
    told = commands.run(ANA, "bonus").text.splitlines()
    assert told[0] == "the tournament is over: champion Argentina; top scorer Kylian Mbappé"
    rows = {line.split()[0]: line.split() for line in told[3:] if line.split()[0] in ("ana", "bia")}
    assert rows["ana"][-1] == "30" and rows["bia"][-1] == "0"  # 20 + 10; France lost the final
    assert pt.run(ANA, "bonus").text.startswith("o torneio acabou: campeão Argentina")


def test_she_makes_her_bonus_picks_while_they_are_open(cup_pool: Pool, clock: FakeClock) -> None:
    """She bet on every match and never on the champion or the top scorer."""
    commentator = her_in(cup_pool)
    commentator.turn()
    mine = {p.kind: p.value for p in cup_pool.extras.bonus_picks("betania")}
    ratings = outlook(cup_pool.matches()).ratings
    teams = teams_of(cup_pool.matches())
    assert mine == {CHAMPION: max(teams, key=lambda t: (ratings.of(t), t))}  # no squads: no scorer
    cup_pool.extras.import_squads(
        [SquadRow(2, mine[CHAMPION], "First Listed"), SquadRow(3, mine[CHAMPION], "Second")]
    )
    commentator.turn()
    assert {p.kind: p.value for p in cup_pool.extras.bonus_picks("betania")} == {
        CHAMPION: mine[CHAMPION], SCORER: "First Listed"
    }  # fmt: skip
    clock.now = cup_pool.match(1).kickoff  # closed at the first kick-off, like anyone's
    assert commentator.pick_bonus() == []


def test_bonus_picks_closed_between_her_read_and_her_write_are_skipped(cup_pool: Pool) -> None:
    """Her turn read the bonus picks open; the first kick-off came before her write, as on
    a slow machine (CI's scheduler test): the desk refuses, and she goes on."""
    kickoff = cup_pool.match(1).kickoff
    reads = iter([kickoff - timedelta(seconds=1)])

    def clock() -> datetime:  # her read just before the kick-off, every later one after it
        return next(reads, kickoff + timedelta(seconds=1))

    pool = Pool(cup_pool.engine, clock)
    her = her_in(pool)
    reads = iter([kickoff - timedelta(seconds=1)])  # her start read the clock too
    assert her.pick_bonus() == []
    assert pool.extras.bonus_picks("betania") == []
