"""Issue 36, "chain+csv": the log's end is anchored, and a spreadsheet cannot quietly rewrite picks.

Two attacks of the issue, each reproduced against the database both test runs use
(SQLite, and PostgreSQL under ``python -m tests.databases``):

- ``log --verify`` could not see events cut from the end of the log: what is left
  still chains from the start. A head kept elsewhere (``--expect COUNT:LINK``) must
  catch the cut, and a log that only grew must still pass.
- ``bets import`` folded "BRUNO" onto bruno and replaced his pick after kick-off,
  reporting "0 new players". Rows that fold onto a registered handle must be named,
  picks after kick-off refused row by row with a reason, and the rest imported.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Connection, text

from bot.agent.providers.offline import OfflineModel
from bot.app.cli import UsageError, check_lifecycle, main
from bot.app.replay import ReplayOptions, replay
from frontends.ssh.library import asyncssh
from game.bets_csv import ROWS_MOST, BetRow, BetsFileError, parse_bets, read_bets
from game.db import log
from game.db.chain import GENESIS, BadHead, Head, digest, link
from game.model import Goal, Result, Score
from game.openfootball import parse_tournament
from game.pool import Pool
from game.sources import read_json
from tests.conftest import FakeClock, play
from tests.databases import tampering

SAMPLE = Path(__file__).resolve().parents[1] / "game" / "sample"
BETS_HEADER = "player,date,team1,team2,score1,score2,placed_at\n"


# -- the log's end ---------------------------------------------------------------


def _log_chat(pool: Pool, lines: int) -> None:
    for n in range(lines):
        pool.talk.chat("ana", f"line {n}")


def _log_verify(
    capsys: pytest.CaptureFixture[str], url: str, *options: str
) -> tuple[int, str, str]:
    code = main(["log", "--verify", "--db", url, *options])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _kept_head(capsys: pytest.CaptureFixture[str], url: str) -> str:
    """The head as an operator keeps it: the ``head`` line of ``log --verify``, copied."""
    code, out, _ = _log_verify(capsys, url)
    assert code == 0
    (line,) = [line for line in out.splitlines() if line.startswith("head ")]
    return line.removeprefix("head ")


def _cut_the_end(pool: Pool, events: int) -> None:
    """Someone with the database lifts the guards and deletes the last events."""
    with tampering(pool.engine) as db:
        last = db.execute(text("SELECT max(id) FROM events")).scalar_one()
        db.execute(text("DELETE FROM events WHERE id > :keep"), {"keep": last - events})


def _claim_a_win(db: Connection, event_id: int) -> None:
    """The chat line at ``event_id`` rewritten to say ana won."""
    db.execute(
        text("""UPDATE events SET payload = '{"player": "ana", "text": "I won"}' WHERE id = :id"""),
        {"id": event_id},
    )


def test_a_cut_end_passes_a_plain_verify_and_fails_against_the_kept_head(
    tournament_pool: Pool, capsys: pytest.CaptureFixture[str]
) -> None:
    """The attack: the last events removed from the log, guards dropped first."""
    url = str(tournament_pool.engine.url)
    _log_chat(tournament_pool, 5)
    kept = _kept_head(capsys, url)
    count = len(tournament_pool.events())
    assert kept.startswith(f"{count}:") and len(kept.split(":")[1]) == 64

    _cut_the_end(tournament_pool, 3)
    assert len(tournament_pool.events()) == count - 3
    code, out, _ = _log_verify(capsys, url)
    assert code == 0  # the weakness: what is left still chains
    assert f"the log is intact: {count - 3} events" in out

    code, out, err = _log_verify(capsys, url, "--expect", kept)
    assert (code, out) == (1, "")
    assert err == (
        f"betania: error: the log has {count - 3} events, fewer than the {count} of the "
        f"expected head {kept}: events were removed from its end\n"
    )


def test_a_cut_end_written_over_with_as_many_new_events_fails_against_the_kept_head(
    tournament_pool: Pool, capsys: pytest.CaptureFixture[str]
) -> None:
    """The cut hidden by growth: the pool goes on writing, and the count is back past the head."""
    url = str(tournament_pool.engine.url)
    _log_chat(tournament_pool, 5)
    kept = _kept_head(capsys, url)
    _cut_the_end(tournament_pool, 2)
    _log_chat(tournament_pool, 4)  # ids are taken again: max + 1

    code, _, err = _log_verify(capsys, url, "--expect", kept)
    assert code == 1
    assert err.startswith(
        f"betania: error: the log's first {kept.split(':')[0]} events are not those of the "
        f"expected head {kept}: the log was rewritten"
    )
    assert len(err.splitlines()) == 1


def test_a_log_that_only_grew_passes_and_says_how_much(
    tournament_pool: Pool, capsys: pytest.CaptureFixture[str]
) -> None:
    url = str(tournament_pool.engine.url)
    _log_chat(tournament_pool, 2)
    kept = _kept_head(capsys, url)
    _log_chat(tournament_pool, 3)

    code, out, err = _log_verify(capsys, url, "--expect", f"head {kept}")  # the line as copied
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].endswith(
        f"; it still holds the expected head (its first {kept.split(':')[0]} events); "
        "added since: 3"
    )
    assert lines[1] == f"head {tournament_pool.verify_log().head}"
    assert lines[1] != f"head {kept}"
    assert _log_verify(capsys, url, "--expect", kept.upper())[0] == 0

    code, out, _ = _log_verify(capsys, url, "--expect", kept, "--json")
    report = json.loads(out)
    assert code == 0
    assert report == {
        "intact": True,
        "events": len(tournament_pool.events()),
        "head": str(tournament_pool.verify_log().head),
        "expected": kept,
        "added_since": 3,
        "problem": None,
        "lifecycle_breaches": [],
        "table_disagreements": [],
    }


def test_a_changed_middle_event_still_fails_with_or_without_the_head(
    tournament_pool: Pool, capsys: pytest.CaptureFixture[str]
) -> None:
    url = str(tournament_pool.engine.url)
    _log_chat(tournament_pool, 4)
    kept = _kept_head(capsys, url)
    middle = tournament_pool.events()[-3].id
    with tampering(tournament_pool.engine) as db:
        _claim_a_win(db, middle)
    for options in ((), ("--expect", kept)):
        code, _, err = _log_verify(capsys, url, *options)
        assert code == 1
        assert err.startswith(f"betania: error: the log is broken at event {middle}:")

    code, out, _ = _log_verify(capsys, url, "--expect", kept, "--json")
    assert code == 1 and json.loads(out)["intact"] is False


def test_a_log_rewritten_and_chained_again_passes_a_plain_verify_but_not_the_kept_head(
    tournament_pool: Pool, capsys: pytest.CaptureFixture[str]
) -> None:
    """The chain has no secret: whoever can write the table can recompute every link after a change."""
    url = str(tournament_pool.engine.url)
    _log_chat(tournament_pool, 4)
    kept = _kept_head(capsys, url)
    middle = tournament_pool.events()[-3].id
    with tampering(tournament_pool.engine) as db:
        _claim_a_win(db, middle)
        previous = GENESIS
        for row in list(log.chain_rows(db)):
            content = digest(
                row["at"], row["kind"], row["match_number"], row["handle"], row["payload"]
            )
            previous = link(previous, row["id"], content)
            db.execute(
                text("UPDATE events SET chain = :c WHERE id = :id"),
                {"c": previous, "id": row["id"]},
            )
    assert tournament_pool.events()[-3].event.payload()["text"] == "I won"

    assert _log_verify(capsys, url)[0] == 0  # the chain alone cannot tell
    code, _, err = _log_verify(capsys, url, "--expect", kept)
    assert code == 1
    assert "events are not those of the expected head" in err


def test_tables_written_around_the_log_are_named_refused_and_rewritten_from_it(
    played: Pool, capsys: pytest.CaptureFixture[str]
) -> None:
    """The attack: write access to the database, and caio made an admin, his picks set
    to every result (none logged) and #1's result to 9-0, the log and its chain untouched. The standings
    read the tables, so caio leads; the log proves the tables were written around it."""
    url = str(played.engine.url)
    assert main(["standings", "--db", url]) == 0
    honest = capsys.readouterr().out
    with tampering(played.engine) as db:
        caio = db.execute(text("SELECT id FROM players WHERE handle = 'caio'")).scalar_one()
        db.execute(
            text(
                "INSERT INTO predictions (player_id, match_number, home, away, placed_at)"
                " SELECT :caio, number, 9, 0, kickoff FROM matches WHERE number = 1"
            ),
            {"caio": caio},
        )
        db.execute(text("UPDATE matches SET ft_home = 9, ft_away = 0 WHERE number = 1"))
        db.execute(
            text("UPDATE players SET is_admin = :yes WHERE id = :caio"), {"yes": True, "caio": caio}
        )
    assert main(["standings", "--db", url]) == 0  # a fresh read of the tables: caio leads
    assert capsys.readouterr().out.splitlines()[2].split()[:2] == ["1", "caio"]

    code, out, err = _log_verify(capsys, url)
    assert code == 1 and "the log is intact" in out  # the chain holds: nothing was logged
    assert err == (
        "betania: error: the tables disagree with the log: players caio: the table has an"
        " admin, the log a player (and 2 more); `betania log --repair` rewrites them from"
        " the log\n"
    )
    with pytest.raises(UsageError, match="players caio"):
        check_lifecycle(played)  # what ``serve`` asks before it starts

    assert main(["log", "--repair", "--db", url]) == 0
    repaired = capsys.readouterr().out
    assert "rewritten from the log: matches #1 result: the table has 9-0, the log 2-0" in repaired
    assert "3 table rows rewritten from the log" in repaired
    assert played.player("caio") is not None and not played.player("caio").is_admin
    assert main(["standings", "--db", url]) == 0
    assert capsys.readouterr().out == honest
    assert _log_verify(capsys, url)[0] == 0


def test_tables_kept_by_the_pool_itself_agree_with_its_log(
    tournament_pool: Pool, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    """The other way: a pool's own writes (picks changed, jokers placed and taken off,
    bonus picks changed, goals, a result corrected, settings) never disagree with its log."""
    pool = tournament_pool
    pool.extras.bonus("ana", "champion", "Brazil")
    pool.extras.bonus("ana", "champion", "Serbia")
    pool.predictions.place("caio", 2, Score(1, 1))
    pool.predictions.place("caio", 2, Score(2, 1))
    pool.extras.joker("caio", 2)
    pool.extras.joker("bia", 3)
    pool.extras.joker_off("bia", 3)
    play(pool, clock, 1, "2-0", [Goal("home", 10, scorer="Vini")])
    pool.fixtures.record_result(1, Result(Score(3, 0)))
    pool.predictions.set_scoring("kicktipp")
    assert pool.table_disagreements() == []
    code, out, _ = _log_verify(capsys, str(pool.engine.url))
    assert code == 0 and "the tables agree with the log" in out


@pytest.mark.parametrize(
    "given",
    ["12", "12:abc", "0:" + "a" * 64, "3:", "-1:" + "a" * 64, "12:" + "g" * 64, ""],
)
def test_a_head_that_is_not_count_and_link_is_refused_in_one_line(
    given: str, tournament_pool: Pool, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(BadHead, match="give it as `betania log --verify` prints it"):
        Head.parse(given)
    with pytest.raises(SystemExit) as done:
        main(["log", "--verify", "--db", str(tournament_pool.engine.url), f"--expect={given}"])
    assert done.value.code == 2
    assert "argument --expect: bad head" in capsys.readouterr().err


def test_an_empty_log_has_a_head_too() -> None:
    assert str(Head(0)) == "0:"
    assert Head.parse("0:") == Head(0)


# -- the bets import -------------------------------------------------------------


@pytest.fixture
def csv_pool_with_bruno(tournament_pool: Pool, clock: FakeClock) -> Pool:
    """bruno, registered, picks 2-0 for #1 (Brazil v Serbia, 11 Jun 18:00 UTC) at 17:00."""
    tournament_pool.members.add("bruno")
    clock.now = datetime(2026, 6, 11, 17, 0, tzinfo=UTC)
    tournament_pool.predictions.place("bruno", 1, Score(2, 0))
    return tournament_pool


def _picks(pool: Pool, handle: str) -> dict[int, Score]:
    return {p.match_number: p.score for p in pool.predictions_of(handle)}


def test_a_registered_players_pick_is_not_replaced_after_kick_off_and_the_fold_is_named(
    csv_pool_with_bruno: Pool, clock: FakeClock
) -> None:
    """The attack: "BRUNO" rows after #1's kick-off, as the issue found them, and its variants."""
    pool = csv_pool_with_bruno
    clock.now = datetime(2026, 6, 11, 18, 30, tzinfo=UTC)  # #1 is on; #2 kicks off tomorrow
    rows = parse_bets(
        BETS_HEADER
        + "BRUNO,2026-06-11,Brazil,Serbia,0,3,\n"  # no time: it is being made now
        + "BRUNO,2026-06-11,Brazil,Serbia,0,3,2026-06-11T18:10:00Z\n"  # says after
        + "Bruno,2026-06-11,Brazil,Serbia,0,3,2026-06-11T16:00:00Z\n"  # older than his own
        + "BRUNO,2026-06-12,Argentina,Mexico,1,1,\n"  # before #2's kick-off: his pick
        + "dora,2026-06-11,Brazil,Serbia,1,0,2026-06-10T09:00:00Z\n"  # a newcomer, in time
    )
    report = pool.predictions.import_bets(rows)

    assert _picks(pool, "bruno") == {1: Score(2, 0), 2: Score(1, 1)}
    assert _picks(pool, "dora") == {1: Score(1, 0)}
    assert (report.placed, report.changed, report.players_created) == (2, 0, ["dora"])
    assert report.folded_lines() == [
        "BRUNO → bruno (registered): 3 picks, 2 refused",
        "Bruno → bruno (registered): 1 pick, 1 refused",
    ]
    assert [r.text() for r in report.refused] == [
        "line 2: BRUNO: #1 Brazil v Serbia has kicked off; predictions are closed, "
        "and the row has no placed_at saying it was made before",
        "line 3: BRUNO: placed_at 2026-06-11T18:10:00+00:00: "
        "#1 Brazil v Serbia has kicked off; predictions are closed",
        "line 4: Bruno: bruno's pick 2-0 for #1 Brazil v Serbia, placed at "
        "2026-06-11T17:00:00+00:00, is newer than this row's 0-3",
    ]
    imported = [
        e.event
        for e in pool.events()
        if e.event.kind == "prediction_placed" and e.event.source == "import"
    ]
    assert [(e.handle, e.match_number) for e in imported] == [("bruno", 2), ("dora", 1)]


def test_the_cli_report_names_the_fold_and_every_refused_row(
    csv_pool_with_bruno: Pool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through ``betania bets import`` (the server's real clock: every match has kicked off)."""
    pool = csv_pool_with_bruno
    sheet = tmp_path / "picks.csv"
    sheet.write_text(
        BETS_HEADER
        + "BRUNO,2026-06-11,Brazil,Serbia,0,3,\n"
        + "BRUNO,2026-06-12,Argentina,Mexico,1,1,2026-06-12T09:00:00+00:00\n"
        + "Zé Maria,2026-06-12,Argentina,Mexico,2,2,2026-06-12T08:00:00+00:00\n"
    )
    assert main(["bets", "import", str(sheet), "--db", str(pool.engine.url)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "3 rows: 2 picks placed, 0 changed, 0 already there, 1 refused; 1 new players",
        "BRUNO → bruno (registered): 2 picks, 1 refused",
        "refused, and nothing written for them:",
        "  line 2: BRUNO: #1 Brazil v Serbia has kicked off; predictions are closed, "
        "and the row has no placed_at saying it was made before",
    ]
    assert _picks(pool, "bruno") == {1: Score(2, 0), 2: Score(1, 1)}


def test_a_change_made_in_time_goes_through_and_is_listed(
    csv_pool_with_bruno: Pool, clock: FakeClock
) -> None:
    """Legitimate: bruno sent the admin a later pick before kick-off; it replaces his, in the open."""
    pool = csv_pool_with_bruno
    clock.now = datetime(2026, 6, 12, 9, 0, tzinfo=UTC)
    report = pool.predictions.import_bets(
        parse_bets(BETS_HEADER + "bruno,2026-06-11,Brazil,Serbia,3,1,2026-06-11T17:30:00Z\n")
    )
    assert (report.changed, report.refused, report.folded) == (1, [], {})
    assert report.changes == ["line 2: bruno's pick for #1 Brazil v Serbia, 2-0 → 3-1"]
    assert _picks(pool, "bruno") == {1: Score(3, 1)}


def _sample_sheet(with_times: bool) -> str:
    sheet = (SAMPLE / "bets.csv").read_text()
    if with_times:
        return sheet
    return "".join(line.rsplit(",", 1)[0] + "\n" for line in sheet.splitlines())


def test_the_sample_spreadsheet_of_new_players_imports_whole_after_the_cup(
    pool: Pool, clock: FakeClock
) -> None:
    """Legitimate: the project's sample sheet (60 picks, 5 new players, each with its time)."""
    pool.fixtures.import_tournament(parse_tournament(read_json(str(SAMPLE / "tournament.json"))))
    clock.now = datetime(2026, 12, 1, tzinfo=UTC)  # every match played
    report = pool.predictions.import_bets(parse_bets(_sample_sheet(with_times=True)))
    assert (report.placed, report.changed, report.refused, report.folded) == (60, 0, [], {})
    assert report.players_created == ["ana", "bruno", "carla", "diego", "elis"]


def test_the_sample_without_times_after_the_cup_is_refused_row_by_row(
    pool: Pool, clock: FakeClock
) -> None:
    """No time, every match kicked off: each row is refused by name, and no player is made."""
    pool.fixtures.import_tournament(parse_tournament(read_json(str(SAMPLE / "tournament.json"))))
    clock.now = datetime(2026, 12, 1, tzinfo=UTC)
    report = pool.predictions.import_bets(parse_bets(_sample_sheet(with_times=False)))
    assert (report.placed, len(report.refused), report.players_created) == (0, 60, [])
    assert all(
        r.reason.endswith(
            "; predictions are closed, and the row has no placed_at saying it was made before"
        )
        for r in report.refused
    )
    assert pool.players() == []


def test_a_replays_spreadsheet_goes_through(database_url: str) -> None:
    """Replays import every pick a day before the first kick-off: with a time or without."""
    tournament = parse_tournament(read_json(str(SAMPLE / "tournament.json")))
    sheet = _sample_sheet(with_times=True) + "Zé,2026-06-11,Brazil,Japan,0,1,\n"
    report = replay(ReplayOptions(tournament, bets_csv=sheet), database_url, OfflineModel())
    ze = next(row for row in report.as_dict()["standings"] if row["player"] == "ze")
    assert ze["exact"] == 1  # 0-1, the sample's score


def test_a_late_pick_in_a_replays_spreadsheet_is_refused_by_name_and_never_counted(
    database_url: str,
) -> None:
    """A pick placed after its kick-off (Brazil v Japan ended 0-1) would be a sure 10
    points: the replay names it, keeps it out of the table, and plays on."""
    tournament = parse_tournament(read_json(str(SAMPLE / "tournament.json")))
    late = BETS_HEADER + "Zé,2026-06-11,Brazil,Japan,0,1,2026-06-12T00:00:00Z\n"
    report = replay(ReplayOptions(tournament, bets_csv=late), database_url, OfflineModel())
    assert report.sheet is not None and report.sheet.placed == 0
    assert [problem.split(": placed_at ")[0] for problem in report.sheet.problems] == ["line 2: Zé"]
    assert report.sheet.problems[0].startswith("line 2: Zé: placed_at 2026-06-12T00:00:00+00:00")
    assert [row["player"] for row in report.as_dict()["standings"]] == ["betania"]  # no Zé


def test_a_newcomer_with_a_shared_invite_does_not_take_a_colleagues_imported_picks(
    tournament_pool: Pool, clock: FakeClock, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The attack: the office's invite is shared; a stranger's key registers ``ana-paula``
    the day the admin imports the sheet Ana Paula filled in weeks before. Her rows were
    reported "Ana Paula → ana-paula (registered): 2 picks" and the squatter then changed
    them. Now they are held, named apart, until the admin says whose they are."""
    url = str(tournament_pool.engine.url)
    clock.now = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)
    code = tournament_pool.members.create_invite("ana", uses=20)
    squatter = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode()
    tournament_pool.members.register("ana-paula", squatter, code)
    sheet = tmp_path / "picks.csv"
    sheet.write_text(
        BETS_HEADER
        + "Ana Paula,2026-06-11,Brazil,Serbia,3,0,2026-05-20T09:00:00+00:00\n"
        + "Ana Paula,2026-06-12,Argentina,Mexico,1,2,2026-05-20T09:00:00+00:00\n"
    )
    assert main(["bets", "import", str(sheet), "--db", url]) == 0
    said = capsys.readouterr().out
    assert "held, not imported" in said and "Ana Paula → ana-paula? 2 picks held" in said
    assert "(registered)" not in said
    assert _picks(tournament_pool, "ana-paula") == {}

    # the admin knows ana-paula is her: said so, the rows go to her
    assert main(["bets", "import", str(sheet), "--db", url, "--assign", "Ana Paula=ana-paula"]) == 0
    assert "2 picks placed" in capsys.readouterr().out
    assert _picks(tournament_pool, "ana-paula") == {1: Score(3, 0), 2: Score(1, 2)}


def test_a_fold_onto_a_player_whose_key_is_older_than_the_picks_goes_through(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """The other way: bruno registered with an invite in May, then filled in the sheet;
    "BRUNO" is his, and a player the admin added is trusted whatever their keys."""
    clock.now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    code = tournament_pool.members.create_invite("ana", uses=20)
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode()
    tournament_pool.members.register("bruno", key, code)
    tournament_pool.members.add("ana-paula")  # by the admin, no key yet
    clock.now = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)
    at = datetime(2026, 5, 20, 9, 0, tzinfo=UTC)
    rows = [
        BetRow(2, "BRUNO", "2026-06-11", "Brazil", "Serbia", Score(2, 0), at),
        BetRow(3, "Ana Paula", "2026-06-11", "Brazil", "Serbia", Score(1, 0), at),
    ]
    report = tournament_pool.predictions.import_bets(rows)
    assert report.held == {} and report.placed == 2
    assert set(report.folded) == {"BRUNO", "Ana Paula"}


def test_a_sheet_row_on_the_commentators_handle_or_past_the_row_cap_is_refused(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """ "Betânia" is a colleague's name and the commentator's handle: the hint offered to
    --assign the row to her, giving her a colleague's picks. And a 50,000-row sheet held
    the pool's writer for 30 s, every player's bet "busy"; past 20,000 rows it is
    refused whole, before anything is read further."""
    tournament_pool.members.add("betania", via="bot")
    clock.now = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)
    at = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
    row = BetRow(2, "Betânia", "2026-06-11", "Brazil", "Serbia", Score(2, 0), at)
    with pytest.raises(BetsFileError, match="the commentator: her picks are her own"):
        tournament_pool.predictions.import_bets([row])
    assert _picks(tournament_pool, "betania") == {}
    flood = BETS_HEADER + "ana,2026-06-11,Brazil,Serbia,1,0,\n" * (ROWS_MOST + 1)
    rows, problems = read_bets(flood)
    assert rows == [] and problems == [
        f"more than {ROWS_MOST:,} rows: a pool's sheet of picks has fewer"
    ]
