"""A replay keeps a real pool's picks: an office sheet of a whole World Cup, whose
knock-out rows name the teams that played, and a league season of another country.

The sheets are in tests/data (see its README): six colleagues' picks for the 2026
World Cup, and ten friends' for the Argentine Primera División 2025.
"""

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.agent.providers.offline import OfflineModel
from bot.app.replay import ReplayOptions, replay, summary
from bot.app.simulation import final_whistle
from game import bracket
from game.bets_csv import BetRow, read_bets
from game.events import PredictionPlaced
from game.openfootball import Fixture, Tournament, parse_tournament
from game.pool import IMPORTED_PICK_LEAD
from game.pool.fixtures import numbering
from game.rules import handle_from_name
from game.scoring import DEFAULT_PRESET, points_for, preset
from game.sources import read_json
from tests.conftest import TEST_DATA

SAMPLE = Path(__file__).resolve().parents[1] / "game" / "sample" / "tournament.json"
CUP_SHEET = (TEST_DATA / "bets-worldcup-2026.csv").read_text(encoding="utf-8")
LEAGUE_SHEET = (TEST_DATA / "bets-ar.1-2025.csv").read_text(encoding="utf-8")
BUENOS_AIRES = ZoneInfo("America/Argentina/Buenos_Aires")


def world_cup() -> Tournament:
    return parse_tournament(read_json(str(TEST_DATA / "worldcup-2026.json")))


def argentina() -> Tournament:
    return parse_tournament(read_json(str(TEST_DATA / "ar.1-2025.json")), BUENOS_AIRES)


def blinded(tournament: Tournament) -> tuple[list[Fixture], list[bracket.Unknown]]:
    return bracket.blind(tournament.fixtures, numbering(tournament.fixtures))


def cut(tournament: Tournament, keep: Iterable[Fixture]) -> Tournament:
    return Tournament(tournament.name, tuple(keep))


def rows_for(sheet: str, tournament: Tournament) -> str:
    """The sheet's header and its rows on the days the tournament plays."""
    days = {f.local_date for f in tournament.fixtures}
    header, *rows = sheet.splitlines(keepends=True)
    return header + "".join(row for row in rows if row.split(",")[1] in days)


def scored(rows: list[BetRow], tournament: Tournament) -> Counter[str]:
    """Each player's points, counted here from the sheet and the file's results."""
    results = {(f.local_date, f.team1, f.team2): f.result for f in tournament.fixtures}
    rule = preset(DEFAULT_PRESET)
    points: Counter[str] = Counter()
    for row in rows:
        result = results.get((row.date, row.team1, row.team2))
        if result is not None:
            points[handle_from_name(row.player)] += points_for(row.score, result, rule)
    return points


def table(report_standings: list[dict[str, object]]) -> Counter[str]:
    return Counter({str(r["player"]): int(str(r["points"])) for r in report_standings})


@pytest.mark.parametrize(
    ("season", "zone"),
    [
        ("ar.1-2025.json", BUENOS_AIRES),  # "1° Semestre, Matchday 5"
        ("br.1-2025.json", ZoneInfo("America/Sao_Paulo")),
        ("en.1-2025-26.json", ZoneInfo("Europe/London")),
    ],
)
def test_a_league_is_never_blinded_as_a_bracket(season: str, zone: ZoneInfo) -> None:
    league = parse_tournament(read_json(str(TEST_DATA / season)), zone)
    shown, unknown = blinded(league)
    assert unknown == []
    real = sorted((f.kickoff, f.team1, f.team2) for f in league.fixtures)
    assert sorted((f.kickoff, f.team1, f.team2) for f in shown) == real


def test_a_world_cup_still_hides_every_knock_out_side_until_it_is_decided() -> None:
    shown, unknown = blinded(world_cup())
    assert len(unknown) == 32  # the round of 32 to the final
    assert {u.real.stage for u in unknown} == {
        "Round of 32", "Round of 16", "Quarter-final", "Semi-final",
        "Match for third place", "Final",
    }  # fmt: skip
    assert sum(f.group is not None for f in shown) == 72  # the groups, as they are


def test_an_office_sheet_waits_for_the_knock_out_teams() -> None:
    rows, unread = read_bets(CUP_SHEET)
    assert (len(rows), unread) == (602, ["line 92: bad score '2'-'x'"])
    shown, unknown = blinded(world_cup())
    picks = bracket.sort_picks(rows, shown, unknown)
    assert sum(map(len, picks.held.values())) == 181
    assert len(picks.held) == 32  # every knock-out match has picks waiting for it
    assert len(picks.ready) == 415  # the group stage, and one row for no match at all
    # Fábio filled in his bracket before the cup: six of his eight guesses never met.
    assert [(row.line, row.player) for row, _ in picks.never] == [
        (569, "Fábio R."), (575, "Fábio R."), (581, "Fábio R."),
        (593, "Fábio R."), (599, "Fábio R."), (604, "Fábio R."),
    ]  # fmt: skip
    assert picks.never[3][1] == (
        "Brazil v Argentina never met on 2026-07-15 (that day: England v Argentina)"
    )
    # His two right guesses wait for their matches like everyone's.
    held = {(r.date, r.team1, r.team2) for rs in picks.held.values() for r in rs}
    assert {("2026-07-09", "France", "Morocco"), ("2026-07-14", "France", "Spain")} <= held


def test_a_replay_places_a_knock_out_pick_once_its_teams_are_known(database_url: str) -> None:
    """From the round of 16 on: its sides are known at the start, the later rounds' are not."""
    cup = world_cup()
    numbers = numbering(cup.fixtures)
    tournament = cut(cup, (f for f in cup.fixtures if numbers[f.source_key] >= 89))
    sheet = rows_for(CUP_SHEET, tournament)
    report = replay(ReplayOptions(tournament, bets_csv=sheet), database_url, OfflineModel())
    rows, _ = read_bets(sheet)
    assert report.sheet is not None
    assert report.sheet.as_dict() == {
        "rows": 94,  # 16 matches, 6 players, two picks forgotten
        "placed": 47,  # the round of 16
        "held": 41,  # the quarter-finals on
        "held_placed": 41,
        "never_matched": [
            "line 60: Fábio R.: Spain v Germany never met on 2026-07-10 (that day: Spain v Belgium)",
            "line 66: Fábio R.: Brazil v England never met on 2026-07-11 (that day: "
            "Norway v England, Argentina v Switzerland)",
            "line 72: Fábio R.: Argentina v Portugal never met on 2026-07-11 (that day: "
            "Norway v England, Argentina v Switzerland)",
            "line 84: Fábio R.: Brazil v Argentina never met on 2026-07-15 (that day: "
            "England v Argentina)",
            "line 90: Fábio R.: Spain v Brazil never met on 2026-07-18 (that day: France v England)",
            "line 95: Fábio R.: France v Argentina never met on 2026-07-19 (that day: "
            "Spain v Argentina)",
        ],
        "problems": [],
    }
    assert "6 never matched because those teams never met" in summary(report)
    # Each held pick was placed after its feeders ended and before its kick-off, at the
    # time the sheet says or the import's lead.
    by_key = {f.source_key: f for f in tournament.fixtures}
    sides_known = {  # when the last match deciding its sides ended
        numbers[u.real.source_key]: max(
            final_whistle(by_key[k].kickoff, by_key[k].result, by_key[k].goals) for k in u.after
        )
        for u in blinded(tournament)[1]
    }
    assert sorted(sides_known) == list(range(97, 105))
    pool = report.pool
    # BETanIA picks too, by herself: the sheet's are the imported ones
    imported = [e for e in pool.events_of(PredictionPlaced) if e.event.source == "import"]
    placed = [e for e in imported if e.event.match in sides_known]
    assert len(placed) == 41
    for logged in placed:
        kickoff = pool.match(logged.event.match).kickoff
        assert sides_known[logged.event.match] <= logged.at < kickoff
        if logged.event.player not in ("carla-mendes", "fabio-r"):  # theirs say when
            assert logged.event.placed_at == kickoff - IMPORTED_PICK_LEAD
    # The table is the sheet scored against the real results.
    players = {handle_from_name(row.player) for row in rows}
    standings = table(report.as_dict()["standings"])
    assert {p: standings[p] for p in players} == {p: scored(rows, tournament)[p] for p in players}


def test_a_league_season_replay_keeps_every_pick(database_url: str) -> None:
    """The first two matchdays of the Argentine season: every row placed, none held."""
    season = argentina()
    tournament = cut(
        season, (f for f in season.fixtures if f.stage.endswith(("Matchday 1", "Matchday 2")))
    )
    assert len(tournament.fixtures) == 30
    sheet = rows_for(LEAGUE_SHEET, tournament)
    report = replay(ReplayOptions(tournament, bets_csv=sheet), database_url, OfflineModel())
    rows, _ = read_bets(sheet)
    assert report.sheet is not None
    assert report.sheet.as_dict() == {
        "rows": len(rows),
        "placed": len(rows),
        "held": 0,
        "held_placed": 0,
        "never_matched": [],
        "problems": [],
    }
    assert len(rows) > 250
    players = {handle_from_name(row.player) for row in rows}
    standings = table(report.as_dict()["standings"])
    assert {p: standings[p] for p in players} == {p: scored(rows, tournament)[p] for p in players}


def test_the_whole_argentine_sheet_is_for_matches_the_pool_knows_from_the_start() -> None:
    rows, unread = read_bets(LEAGUE_SHEET)
    assert (len(rows), unread) == (2275, [])
    picks = bracket.sort_picks(rows, *blinded(argentina()))
    assert (len(picks.ready), picks.held, picks.never) == (2275, {}, [])


def test_rows_bad_in_themselves_are_named_and_the_rest_kept(database_url: str) -> None:
    sample = parse_tournament(read_json(str(SAMPLE)))
    sheet = (
        "player,date,team1,team2,score1,score2,placed_at\n"
        "Zé,2026-06-11,Brazil,Japan,0,1,\n"
        "Zé,2026-06-11,Argentina,Portugal,3,x,\n"  # a score mistyped
        "Zé,2026-06-11,Brazill,Japan,1,0,\n"  # a team mistyped ("Brasil" is Brazil)
        "Ana,2026-06-11,Argentina,Portugal,3,3,2026-06-30T00:00:00Z\n"  # after its kick-off
        "Ana,2026-06-11,Brazil,Japan,2,2,\n"
    )
    report = replay(ReplayOptions(sample, bets_csv=sheet), database_url, OfflineModel())
    assert report.sheet is not None
    assert (report.sheet.rows, report.sheet.placed) == (5, 2)
    assert [line.split(":")[0] for line in report.sheet.problems] == ["line 3", "line 4", "line 5"]
    assert report.sheet.problems[1] == "line 4: no fixture Brazill v Japan on 2026-06-11"
    assert report.sheet.problems[2].startswith("line 5: Ana: placed_at 2026-06-30T00:00:00+00:00")
    standings = table(report.as_dict()["standings"])
    assert (standings["ze"], standings["ana"]) == (10, 0)  # 0-1 exact; 2-2 a miss
