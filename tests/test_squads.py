"""The teams' squads: what a top scorer pick is checked against before any goal.

Bonus picks close at the first kick-off, when the goals name nobody yet; with squads
listed (``betania squads import``), a name is checked against the teams that have one.
The squads here are the real scorers of the 2022 World Cup (openfootball, tests/data),
by the team they scored for: names nobody here wrote.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.app.cli import main
from frontends.commands import Caller, Commands
from game.bonus import Settled, UnknownScorer, scorer_key, settle
from game.events import SquadListed
from game.history import PoolHistory
from game.model import Goal
from game.openfootball import parse_tournament
from game.pool import Pool
from game.sources import read_json
from game.squads import SquadCheck, SquadRow, check_scorer, earned, read_squads
from game.words import Words
from tests.conftest import TEST_DATA, FakeClock, the_2022_cup_to_come
from tests.test_bonus import cup

QATAR = ZoneInfo("Asia/Qatar")
ANA, BIA, CAIO = Caller("ana"), Caller("bia"), Caller("caio")


def squads_2022(*teams: str) -> dict[str, list[str]]:
    """{team: its scorers} of the 2022 World Cup (own goals aside), each scorer once:
    the file writes "Mbappé" beside "Kylian Mbappé", and the squad lists the longer."""
    data = read_json(str(TEST_DATA / "worldcup-2022.json"))
    written: dict[str, set[str]] = {}
    for fixture in parse_tournament(data, QATAR).fixtures:
        for goal in fixture.goals:
            team = fixture.team1 if goal.side == "home" else fixture.team2
            if goal.scorer and not goal.own_goal and (not teams or team in teams):
                written.setdefault(team, set()).add(goal.scorer)
    return {
        team: sorted(
            name
            for name in names
            if not any(set(scorer_key(name).split()) < set(scorer_key(o).split()) for o in names)
        )
        for team, names in sorted(written.items())
    }


def as_csv(squads: dict[str, list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["team", "player"])
    writer.writerows((team, name) for team, names in squads.items() for name in names)
    return out.getvalue()


def rows(squads: dict[str, list[str]]) -> list[SquadRow]:
    read, problems = read_squads(as_csv(squads))
    assert problems == []
    return read


@pytest.fixture
def cup_pool(pool: Pool, clock: FakeClock) -> Pool:
    """The 2022 World Cup's fixtures, nothing played, three players; a week to go."""
    return the_2022_cup_to_come(pool, clock, timedelta(days=7))


# -- reading a squads file ----------------------------------------------------------


def test_a_squads_csv_and_a_players_json_read_alike() -> None:
    read, problems = read_squads("Team,Player\nArgentina,Lionel  Messi\nFrance,\n")
    assert read == [SquadRow(2, "Argentina", "Lionel Messi")]
    assert problems == ["line 3: team and player must not be empty"]
    players = [
        {"team": "Argentina", "name": "Lionel Messi", "position": "FW", "number": 10},
        {"team": "France", "name": "Kylian  Mbappé"},
        {"team": "France"},
    ]
    for document in (players, {"players": players}):
        read, problems = read_squads(json.dumps(document))
        assert [(r.team, r.name) for r in read] == [
            ("Argentina", "Lionel Messi"),
            ("France", "Kylian Mbappé"),
        ]
        assert problems == ["entry 3: team and player must not be empty"]


@pytest.mark.parametrize(
    "text",
    [
        "nome,time\nMessi,Argentina\n",
        "{not json",
        '{"players": "everyone"}',
        "",
        "[" * 100_000,  # deeper than any file: refused before it is parsed
        '[{"team": "Argentina", "name": ' + "9" * 5000 + "}]",  # past Python's digits
        "team,player\nArgentina," + "x" * 200_000 + "\n",  # past csv's field limit
        "team,player\n" + "Argentina,Messi\n" * 6_000,  # more rows than any squads
    ],
)
def test_a_file_that_is_no_squad_list_says_so_in_one_line(text: str) -> None:
    read, problems = read_squads(text)
    assert read == [] and len(problems) == 1 and "\n" not in problems[0]


def test_a_spreadsheets_squads_read_with_its_bom_and_semicolons_and_no_control_characters() -> None:
    """Excel's "CSV UTF-8" starts with a BOM and, in much of Europe, parts columns with
    semicolons; a name's control characters (an escape sequence, NUL) are never kept."""
    text = "\ufeffteam;player\nArgentina;Lionel\x1b[31m Messi\x00\x07\nFrance;\x1b\n"
    read, problems = read_squads(text)
    assert read == [SquadRow(2, "Argentina", "Lionel Messi")]
    assert problems == ["line 3: team and player must not be empty"]
    read, problems = read_squads('[{"team": ["Brazil"], "name": "Neymar"}, {"team": "Brazil"}]')
    assert read == []
    assert problems == [
        "entry 1: not a player (team and name as text)",
        "entry 2: team and player must not be empty",
    ]


# -- the check, without a database ----------------------------------------------------


def test_with_every_squad_listed_an_unknown_name_is_refused_with_the_closest() -> None:
    squads = squads_2022()
    teams = set(squads)
    assert len(teams) == 32  # every team of 2022 scored: every squad is listed
    assert check_scorer("kylian MBAPPE", squads, teams) == SquadCheck(True)
    assert check_scorer("Richarlison", squads, teams) == SquadCheck(True)
    assert check_scorer("Di Maria", squads, teams) == SquadCheck(True)  # a part only his
    with pytest.raises(UnknownScorer) as refused:
        check_scorer("Lionel Mesi", squads, teams)
    said = str(refused.value)
    assert said.startswith("no player called Lionel Mesi in the teams' squads (closest: ")
    assert "Lionel Messi" in said and "\n" not in said
    with pytest.raises(UnknownScorer) as shared:
        check_scorer("Bruno", squads, teams)  # Portugal's Fernandes, Croatia's Petković
    assert str(shared.value) == (
        "more than one player is called Bruno: Bruno Fernandes (Portugal), "
        "Bruno Petković (Croatia); say which"
    )
    assert check_scorer("Bruno Fernandes", squads, teams) == SquadCheck(True)


def test_a_team_with_no_squad_listed_never_refuses_a_name() -> None:
    teams = set(squads_2022())
    squads = squads_2022("France", "Argentina")  # a partial file: two teams of 32
    assert check_scorer("Mbappé", squads, teams) == SquadCheck(True)
    kane = check_scorer("Harry Kane", squads, teams)  # England's: no squad listed
    assert not kane.found and len(kane.squadless) == 30 and "England" in kane.squadless
    assert check_scorer("Lionel Mesi", squads, teams).squadless == kane.squadless
    # a name two listed players share still asks which: they are listed
    squads["Argentina"].append("Lionel Scaloni")
    with pytest.raises(UnknownScorer):
        check_scorer("Lionel", squads, teams)


# -- the pool, on the database --------------------------------------------------------


def test_a_scorer_pick_is_checked_against_every_squad_in_both_languages(cup_pool: Pool) -> None:
    report = cup_pool.extras.import_squads(rows(squads_2022()))
    assert len(report.listed) == 32 and report.refused == []
    commands, pt = Commands(cup_pool), Commands(cup_pool, words=Words("pt"))
    assert commands.run(ANA, "bonus scorer kylian mbappe").text == (
        "your top scorer pick: kylian mbappe"  # checked: no "(not checked...)"
    )
    refused = commands.run(BIA, "bonus scorer Lionel Mesi")
    assert refused.error and refused.text.startswith(
        "no player called Lionel Mesi in the teams' squads (closest: Lionel Messi"
    )
    dito = pt.run(BIA, "bonus artilheiro Lionel Mesi")
    assert dito.error and dito.text.startswith(
        "nenhum jogador chamado Lionel Mesi nos elencos das seleções (mais parecidos: "
    )
    shared = pt.run(BIA, "bonus artilheiro Bruno")
    assert shared.error and shared.text == (
        "mais de um jogador se chama Bruno: Bruno Fernandes (Portugal), "
        "Bruno Petković (Croatia); diga qual"
    )
    assert pt.run(BIA, "bonus artilheiro Messi").text == "seu palpite de artilheiro: Messi"
    # stored as the player wrote it, as before the squads
    picks = {(p.handle, p.value, p.key) for p in cup_pool.extras.bonus_picks()}
    assert picks == {("ana", "kylian mbappe", "kylian mbappe"), ("bia", "Messi", "messi")}


def test_a_partial_squads_file_leaves_the_other_teams_scorers_unchecked(cup_pool: Pool) -> None:
    cup_pool.extras.import_squads(rows(squads_2022("France", "Argentina")))
    commands, pt = Commands(cup_pool), Commands(cup_pool, words=Words("pt"))
    assert commands.run(ANA, "bonus scorer Harry Kane").text == (
        "your top scorer pick: Harry Kane (not checked: in no squad listed; "
        "no squad for Australia, Belgium, Brazil and 27 more)"
    )
    assert pt.run(BIA, "bonus artilheiro Richarlison").text == (
        "seu palpite de artilheiro: Richarlison (sem conferir: em nenhum elenco listado; "
        "sem elenco: Australia, Belgium, Brazil e mais 27)"
    )
    assert commands.run(CAIO, "bonus scorer Messi").text == "your top scorer pick: Messi"
    assert {p.key for p in cup_pool.extras.bonus_picks()} == {"harry kane", "richarlison", "messi"}


def test_a_pick_checked_against_a_squads_spelling_scores_by_the_goals(
    cup_pool: Pool, clock: FakeClock
) -> None:
    """The squad writes "Kylian Mbappé Lottin", the goals "Kylian Mbappé" and "Mbappé":
    a pick of "Mbappe" checked against the squad is still the Golden Boot's at the end,
    and so is one of the squad's whole name, as a player copies it from the list."""
    squads = squads_2022()
    squads["France"] = [
        "Kylian Mbappé Lottin" if name == "Kylian Mbappé" else name for name in squads["France"]
    ]
    cup_pool.extras.import_squads(rows(squads))
    commands = Commands(cup_pool)
    assert commands.run(ANA, "bonus scorer Mbappe").text == "your top scorer pick: Mbappe"
    assert commands.run(BIA, "bonus scorer Lionel Messi").text.endswith("Lionel Messi")
    assert commands.run(CAIO, "bonus scorer Kylian Mbappé Lottin").text.endswith("Lottin")
    played = parse_tournament(read_json(str(TEST_DATA / "worldcup-2022.json")), QATAR)
    clock.now = played.fixtures[-1].kickoff + timedelta(days=1)
    cup_pool.fixtures.import_tournament(played)  # the whole cup, its goals with it
    bonus = {row.player: row.bonus for row in cup_pool.standings()}
    assert bonus == {"ana": 10, "bia": 0, "caio": 10}  # Mbappé 8 goals, Messi 7
    # France's squad listed again without him: caio's pick is the goals' names' alone
    # now, which know no Lottin; the table every session shows moves with it.
    cup_pool.extras.import_squads([SquadRow(2, "France", "Olivier Giroud")])
    bonus = {row.player: row.bonus for row in cup_pool.standings()}
    assert bonus == {"ana": 10, "bia": 0, "caio": 0}


def test_a_pick_a_squad_lists_earns_as_that_teams_player() -> None:
    """At the end, a pick a squad lists is that squad's player: "Pedro Neto" is not
    Brazil's Pedro however the goals spell him, and "Pedro" (Brazil's) does not earn
    Portugal's Pedro Neto's bonus; "Lottin" and the squad's whole name are France's
    Kylian Mbappé Lottin, whom the goals call "Kylian Mbappé". A pick no squad lists
    is read against the goals' names alone."""
    final = cup(2022)[-1]  # Mbappé's hat-trick; Messi 2, Di María 1
    listed = {"Brazil": ["Pedro"], "Portugal": ["Pedro Neto"], "France": ["Kylian Mbappé Lottin"]}
    keys = {name: scorer_key(name) for name in ("Pedro", "Pedro Neto", "Lottin", "Mbappe")}
    keys["whole"] = scorer_key("Kylian Mbappé Lottin")

    brazil = replace(
        final, team1="Brazil", goals=final.goals + (Goal("home", 9, scorer="Pedro"),) * 3
    )
    won = earned(keys.values(), listed, settle([brazil]))  # Pedro and Mbappé, 3 each
    assert won == {keys["Pedro"], keys["Lottin"], keys["Mbappe"], keys["whole"]}
    portugal = replace(
        final, team1="Portugal", goals=final.goals + (Goal("home", 9, scorer="Pedro Neto"),) * 4
    )
    assert earned(keys.values(), listed, settle([portugal])) == {keys["Pedro Neto"]}
    # No squads: the goals' names alone, as before any squad was listed.
    assert earned(keys.values(), {}, settle([brazil])) == {keys["Pedro"], keys["Mbappe"]}


def test_a_top_scorer_is_one_listed_player_and_a_squad_never_takes_what_the_goals_give() -> None:
    """Brazil lists Pedro and João Pedro: each is his own pick. A squad of another team
    never takes a pick the goals pay (Brazil listing none, Portugal "Pedro Neto"), nor
    does a squad spelled apart from the goals ("Mohamed" and "Mohammed Salah")."""
    final = cup(2022)[-1]  # Mbappé's hat-trick is the mark to pass

    def top(team: str, scorer: str) -> Settled:
        return settle([replace(final, team1=team, goals=(Goal("home", 9, scorer=scorer),) * 4)])

    brazil = {"Brazil": ["Pedro", "João Pedro"]}
    picks = [scorer_key("Pedro"), scorer_key("João Pedro")]
    assert earned(picks, brazil, top("Brazil", "Pedro")) == {picks[0]}
    assert earned(picks, brazil, top("Brazil", "João Pedro")) == {picks[1]}
    assert earned(["pedro"], {"Portugal": ["Pedro Neto"]}, top("Brazil", "Pedro")) == {"pedro"}
    salah = top("Egypt", "Mohammed Salah")
    assert earned(["salah"], {"Egypt": ["Mohamed Salah"]}, salah) == {"salah"}


def test_squads_listed_again_replace_each_teams_list_and_the_log_holds_them(
    cup_pool: Pool,
) -> None:
    first = cup_pool.extras.import_squads(
        [SquadRow(2, "Brasil", "Neymar Jr"), SquadRow(3, "Brazil", "NEYMAR JÚNIOR")]
    )
    assert first.listed == {"Brazil": 1} and first.refused == []  # one player, two spellings
    cup_pool.extras.import_squads(
        [
            SquadRow(2, "Brazil", "Vinícius Júnior"),
            SquadRow(3, "Argentina", "Lionel Messi"),
            SquadRow(4, "Brazil", "Alisson"),
            SquadRow(5, "Brazil", "Éderson"),
        ]
    )
    logged = [(item.event.team, item.event.names) for item in cup_pool.events_of(SquadListed)]
    # One order wherever a squad is read: by its names' keys, not a file's or a
    # database's collation (accents sort apart on PostgreSQL's locale).
    brazil = ("Alisson", "Éderson", "Vinícius Júnior")
    assert logged == [
        ("Brazil", ("Neymar Jr",)),
        ("Argentina", ("Lionel Messi",)),
        ("Brazil", brazil),
    ]
    assert (
        cup_pool.extras.squads()
        == PoolHistory.from_log(cup_pool.events()).squads
        == {"Argentina": ("Lionel Messi",), "Brazil": brazil}
    )
    refused = Commands(cup_pool).run(ANA, "bonus scorer Neymar")  # Brazil's list replaced
    assert not refused.error and "in no squad listed" in refused.text


def test_betania_squads_import_takes_the_good_rows_and_names_the_bad(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    cup = str(TEST_DATA / "worldcup-2022.json")
    assert main(["fixtures", "import", cup, "--tz", "Asia/Qatar", *data]) == 0
    squads = tmp_path / "squads.csv"
    squads.write_text(
        "team,player\nArgentina,Lionel Messi\nNarnia,Aslan\nFrance,\nFrança,Kylian Mbappé\n",
        encoding="utf-8",
    )
    capsys.readouterr()
    assert main(["squads", "import", str(squads), *data]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "4 rows: 2 players listed for 2 teams, 2 refused"
    assert out[1] == "  line 4: team and player must not be empty"
    assert out[2].startswith("  line 3: Narnia does not play in this tournament (closest: ")
    assert main(["log", *data]) == 0
    assert [line for line in capsys.readouterr().out.splitlines() if "squad_listed" in line]
    assert main(["log", "--verify", *data]) == 0  # in the hash chain, which holds
    assert capsys.readouterr().out.startswith("the log is intact: ")
    empty = tmp_path / "empty.csv"
    empty.write_text("nome,time\n", encoding="utf-8")
    assert main(["squads", "import", str(empty), *data]) != 0
    assert capsys.readouterr().err.splitlines() == [
        "betania: error: nothing imported; 1 problem(s):",
        "  line 1: a squads CSV needs the columns team and player",
    ]
    nowhere = tmp_path / "narnia.csv"
    nowhere.write_text("team,player\nNarnia,Aslan\n", encoding="utf-8")
    assert main(["squads", "import", str(nowhere), *data]) != 0  # every row refused
    assert "line 2: Narnia does not play" in capsys.readouterr().err
