"""The teams' squads: what a top scorer pick is checked against before any goal.

Bonus picks close at the first kick-off, when the goals name nobody yet; with the
squads listed (``betania squads import``), an unknown name is refused with the
closest ones. The squads here are the real scorers of the 2018 and 2022 World Cups
(openfootball, tests/data), by the team they scored for: names nobody here wrote.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.app.cli import main
from frontends.commands import Caller, Commands
from game.events import SquadListed
from game.openfootball import parse_tournament
from game.pool import Pool
from game.sources import read_json
from game.squads import SquadRow, read_squads
from game.words import Words
from tests.conftest import TEST_DATA

ANA, BIA = Caller("ana"), Caller("bia")


def scorers_as_squads(*years: int) -> str:
    """A squads CSV (team, player) of every World Cup scorer of ``years``, own goals aside."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["team", "player"])
    for year in years:
        data = read_json(str(TEST_DATA / f"worldcup-{year}.json"))
        tournament = parse_tournament(data, ZoneInfo("Asia/Qatar") if year == 2022 else None)
        for fixture in tournament.fixtures:
            for goal in fixture.goals:
                if goal.scorer and not goal.own_goal:
                    team = fixture.team1 if goal.side == "home" else fixture.team2
                    writer.writerow([team, goal.scorer])
    return out.getvalue()


def test_a_squads_csv_and_openfootballs_players_json_read_alike() -> None:
    rows, problems = read_squads("team,player\nArgentina,Lionel Messi\nFrance,\n")
    assert rows == [SquadRow(2, "Argentina", "Lionel Messi")]
    assert problems == ["line 3: team and player must not be empty"]
    # the shape of openfootball's 2018--russia/players.json, its other fields left alone
    players = {
        "Players": [
            {"team": "Russia", "name": "Igor Akinfeev", "position": "Goalkeeper", "caps": "105"},
            {"team": "Russia", "name": "Mario  Fernandes", "number": "2"},
            {"team": "Russia"},
        ]
    }
    rows, problems = read_squads(json.dumps(players))
    assert [(r.team, r.name) for r in rows] == [
        ("Russia", "Igor Akinfeev"),
        ("Russia", "Mario Fernandes"),
    ]
    assert problems == ["entry 3: team and player must not be empty"]


@pytest.mark.parametrize(
    "text",
    ["name;team\nMessi;Argentina\n", "{not json", '{"Players": "everyone"}', ""],
)
def test_a_file_that_is_no_squad_list_says_so_in_one_line(text: str) -> None:
    rows, problems = read_squads(text)
    assert rows == [] and len(problems) == 1 and "\n" not in problems[0]


def test_a_scorer_pick_is_checked_against_the_squads_before_the_first_goal(
    cup_pool: Pool,
) -> None:
    rows, problems = read_squads(scorers_as_squads(2018, 2022))
    assert problems == []
    report = cup_pool.extras.import_squads(rows)
    # 2018's Russia, Sweden, Colombia... are not in the 2022 World Cup
    assert report.refused and all("does not play in this tournament" in r for r in report.refused)
    assert report.listed["Argentina"] >= 5 and "Russia" not in report.listed
    commands, pt = Commands(cup_pool), Commands(cup_pool, words=Words("pt"))

    taken = commands.run(ANA, "bonus scorer kylian mbappe")
    assert taken.text == "your top scorer pick: kylian mbappe"  # checked: no "(not checked)"
    assert pt.run(BIA, "bonus artilheiro Lionel Messi").text == (
        "seu palpite de artilheiro: Lionel Messi"
    )
    refused = commands.run(BIA, "bonus scorer Lionel Mesi")
    assert refused.error
    assert refused.text.startswith("no scorer called Lionel Mesi in this tournament (closest: ")
    assert "Lionel Messi" in refused.text
    # a name two listed players share (France's Theo, Mexico's Javier) asks which one
    shared = commands.run(BIA, "bonus scorer Hernández")
    assert shared.error and shared.text.endswith("(closest: J. Hernández, Théo Hernandez)")
    picks = {(p.handle, p.key) for p in cup_pool.extras.bonus_picks()}
    assert picks == {("ana", "kylian mbappe"), ("bia", "lionel messi")}


def test_squads_imported_again_replace_each_teams_list_and_are_logged(cup_pool: Pool) -> None:
    first = cup_pool.extras.import_squads([SquadRow(2, "Brasil", "Neymar")])
    assert first.listed == {"Brazil": 1} and first.refused == []
    cup_pool.extras.import_squads(
        [SquadRow(2, "Brazil", "Vinícius Júnior"), SquadRow(3, "Brazil", "Richarlison")]
    )
    logged = [item.event for item in cup_pool.events_of(SquadListed)]
    assert [(e.team, e.names) for e in logged] == [
        ("Brazil", ("Neymar",)),
        ("Brazil", ("Vinícius Júnior", "Richarlison")),
    ]
    refused = Commands(cup_pool).run(ANA, "bonus scorer Neymar")
    assert refused.error and "Richarlison" in refused.text  # Neymar's list was replaced


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
    empty = tmp_path / "empty.csv"
    empty.write_text("nome,time\n", encoding="utf-8")
    assert main(["squads", "import", str(empty), *data]) != 0
    err = capsys.readouterr().err.strip()
    assert (
        err
        == "betania: error: nothing imported: line 1: a squads CSV needs the columns team and player"
    )
