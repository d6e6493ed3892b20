from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app.cli import main
from game.bets_csv import BetsFileError, parse_bets
from game.model import Score
from game.pool import Pool
from tests.conftest import FakeClock

HEADER = "player,date,team1,team2,score1,score2,placed_at\n"


def test_a_spreadsheet_brings_a_pool_over(tournament_pool: Pool, clock: FakeClock) -> None:
    clock.now = datetime(2026, 7, 30, tzinfo=UTC)  # long after every kick-off
    rows = parse_bets(
        HEADER
        + "ana,2026-06-11,Brazil,Serbia,2,0,2026-06-11T17:00:00Z\n"
        + "Zé Maria,2026-06-11,Brazil,Serbia,1,1,2026-06-10T20:00:00Z\n"
        + "Zé Maria,2026-06-12,Argentina,Mexico,2,1,2026-06-10T20:05:00Z\n"
    )
    report = tournament_pool.predictions.import_bets(rows)
    assert (report.placed, report.changed, report.players_created) == (3, 0, ["ze-maria"])
    assert tournament_pool.player("ze-maria").display_name == "Zé Maria"
    assert [p.score for p in tournament_pool.predictions_of("ze-maria")] == [
        Score(1, 1),
        Score(2, 1),
    ]
    placed = [e.event for e in tournament_pool.events() if e.event.kind == "prediction_placed"]
    assert {e.source for e in placed} == {"import"}
    assert placed[0].placed_at == datetime(2026, 6, 11, 17, 0, tzinfo=UTC)
    assert placed[1].placed_at == datetime(2026, 6, 10, 20, 0, tzinfo=UTC)
    assert tournament_pool.predictions.import_bets(rows).unchanged == 3  # idempotent


def test_a_brazilian_sheet_with_portuguese_names_and_day_first_dates(
    tournament_pool: Pool, clock: FakeClock, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "Brasil;Sérvia" on 11/06/2026, as a Brazilian office's sheet writes it, was "no
    fixture Brasil v Sérvia", and 13/06/2026 "no fixture" with no word on the format."""
    clock.now = datetime(2026, 6, 1, tzinfo=UTC)
    sheet = tmp_path / "bolao.csv"
    sheet.write_text(
        "player;date;team1;team2;score1;score2;placed_at\n"
        "ana;11/06/2026;Brasil;Sérvia;2;0;2026-06-01T10:00:00Z\n"
        "bia;12/06/2026;argentina;méxico;1;1;2026-06-01T10:00:00Z\n"
        "caio;13.06.26;Japão;Espanha;0;2;2026-06-01T10:00:00Z\n",
        encoding="utf-8",
    )
    url = str(tournament_pool.engine.url.render_as_string(hide_password=False))
    assert main(["bets", "import", str(sheet), "--db", url]) == 0
    said = capsys.readouterr().out
    assert said.startswith("3 rows: 3 picks placed") and "dates read as day/month/year" in said
    picked = {p.handle: (p.match_number, str(p.score)) for h in ("ana", "bia", "caio")
              for p in tournament_pool.predictions_of(h)}  # fmt: skip
    assert picked == {"ana": (1, "2-0"), "bia": (2, "1-1"), "caio": (3, "0-2")}


@pytest.mark.parametrize(
    ("dates", "problem"),
    [
        (["06/13/2026", "13/06/2026"], "dates written both day first and month first"),
        (["31/02/2026"], "line 2: not a date: '31/02/2026' (read as day/month/year)"),
        (["next week"], "line 2: not a date: 'next week'"),
    ],
)
def test_a_date_that_cannot_be_read_is_named_with_its_format(
    dates: list[str], problem: str
) -> None:
    with pytest.raises(BetsFileError) as caught:
        parse_bets(HEADER + "".join(f"ana,{d},Brazil,Serbia,1,0,\n" for d in dates))
    assert caught.value.problems[0].startswith(problem)


def test_a_pick_without_a_time_imported_before_kick_off_is_placed_just_before_it(
    tournament_pool: Pool,
) -> None:
    report = tournament_pool.predictions.import_bets(
        parse_bets(HEADER + "ana,2026-06-11,Brazil,Serbia,2,0,\n")
    )
    assert (report.placed, report.refused) == (1, [])
    (placed,) = [e.event for e in tournament_pool.events() if e.event.kind == "prediction_placed"]
    assert placed.placed_at == tournament_pool.match(1).kickoff - timedelta(minutes=1)


def test_bad_rows_are_reported_by_line_and_nothing_is_imported(tournament_pool: Pool) -> None:
    before = len(tournament_pool.events())
    rows = parse_bets(
        HEADER
        + "ana,2026-06-11,Brazil,Serbia,2,0,\n"
        + "bia,2026-06-11,Brazil,Germany,2,0,\n"
        + "caio,2026-06-12,Argentina,Mexico,1,0,2026-06-13T00:00:00+00:00\n"
    )
    with pytest.raises(BetsFileError) as caught:
        tournament_pool.predictions.import_bets(rows)
    assert caught.value.problems == ["line 3: no fixture Brazil v Germany on 2026-06-11"]
    assert len(tournament_pool.events()) == before
    assert tournament_pool.predictions_of("ana") == []


@pytest.mark.parametrize(
    ("row", "problem"),
    [
        ("ana,2026-06-11,Brazil,Serbia,two,0,", "line 2: bad score 'two'-'0'"),
        ("ana,2026-06-11,Brazil,Serbia,-1,0,", "line 2: goals must be between 0 and 99"),
        ("ana,2026-06-11,Brazil,Serbia,1,0,yesterday", "line 2: Invalid isoformat"),
        ("ana,2026-06-11,Brazil,Serbia,1,0,2026-06-10T20:00", "line 2: placed_at"),
        (",2026-06-11,Brazil,Serbia,1,0,", "line 2: player, team1 and team2 must not be empty"),
    ],
)
def test_bad_rows_are_caught_while_reading(row: str, problem: str) -> None:
    with pytest.raises(BetsFileError) as caught:
        parse_bets(HEADER + row + "\n")
    assert caught.value.problems[0].startswith(problem)


def test_a_spreadsheets_export_reads_with_its_bom_and_semicolons() -> None:
    """Excel's "CSV UTF-8" starts with a byte-order mark; much of Europe parts columns
    with semicolons. A field past csv's own limit is one line, not a crash."""
    semicolons = HEADER.replace(",", ";") + "ana;2026-06-11;Brazil;Serbia;2;0;\n"
    for text in ("\ufeff" + HEADER + "ana,2026-06-11,Brazil,Serbia,2,0,\n", semicolons):
        (row,) = parse_bets(text)
        assert (row.player, row.team1, row.score) == ("ana", "Brazil", Score(2, 0))
    with pytest.raises(BetsFileError) as caught:
        parse_bets(HEADER + "ana,2026-06-11,Brazil," + "x" * 200_000 + ",2,0,\n")
    assert caught.value.problems == ["line 2: field larger than field limit (131072)"]


def test_missing_columns_are_named() -> None:
    with pytest.raises(BetsFileError, match="missing column\\(s\\) score1, score2"):
        parse_bets("player,date,team1,team2\nana,2026-06-11,Brazil,Serbia\n")


def test_every_problem_of_a_file_is_listed_reading_and_fixtures_together(
    tournament_pool: Pool, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sheet = tmp_path / "picks.csv"
    sheet.write_text(
        HEADER
        + "ana,2026-06-11,Brazil,Serbia,two,0,\n"  # does not read
        + "bia,2026-06-11,Brazil,Germany,2,0,\n"  # no such fixture
        + "caio,2026-06-12,Argentina,Mexico,1,0,\n"  # fine
        + "dora,2026-06-13,Japan,Spain,x,y,\n"  # does not read
    )
    url = str(tournament_pool.engine.url)
    assert main(["bets", "import", str(sheet), "--db", url]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "betania: error: nothing imported; 3 problem(s):"
    assert [line.split(":")[0].strip() for line in err[1:]] == ["line 2", "line 3", "line 5"]
    assert tournament_pool.predictions_of("caio") == []
