import json
from collections.abc import Callable
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.agent.providers.offline import OfflineModel
from bot.app.cli import main
from bot.app.replay import ReplayError, ReplayOptions, ReplayReport, read_chat, replay
from game.db.engine import open_database
from game.openfootball import Tournament, parse_tournament
from game.pool import Pool
from game.pool.fixtures import numbering
from game.sources import read_json
from game.teams import is_placeholder
from memory.usage import recorded
from tests.conftest import TEST_DATA

SAMPLE = str(Path(__file__).resolve().parents[1] / "game" / "sample" / "tournament.json")


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["replay", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_readmes_replay_runs_as_written_and_shows_her_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A World Cup ships with the package: `betania replay 2018` from any directory (the
    README named worldcup-2026.json, a file only tests/data held), and --show prints
    what she said, in order, after the summary."""
    monkeypatch.chdir(tmp_path)  # nothing called 2018 here
    assert main(["replay", "2018", "--players", "3", "--show", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("64 matches, 4 players, in ")  # three, and her
    shown = [line for line in out if line.startswith("[")]
    assert (
        shown[0].startswith("[14 Jun 15:00] BETanIA: ") and "#1 Russia v Saudi Arabia" in shown[0]
    )
    assert len(shown) > 64 and all(": " in line for line in shown)
    (tmp_path / "2026").write_text("{}")  # a file of that name is read, not the shipped cup
    assert main(["replay", "2026", "--data-dir", str(tmp_path)]) == 1


def test_a_replay_with_players_and_chat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chat = tmp_path / "chat.jsonl"
    chat.write_text(
        '{"at": "2026-06-11T16:30:00+00:00", "player": "ana", "text": "@betania remember that I compile my own kernel"}\n'
        '{"at": "2026-06-11T16:40:00+00:00", "player": "ana", "text": "come on Japan!"}\n'
        '{"at": "2026-06-12T10:00:00Z", "player": "zeca", "text": "@betania remember that ana is away until 14 Jun"}\n'
    )
    report = run_json(
        capsys,
        SAMPLE,
        "--players",
        "4",
        "--chat",
        str(chat),
        "--seed",
        "3",
        "--data-dir",
        str(tmp_path),
    )
    assert report["matches"] == 15
    assert report["players"] == 6  # four simulated, zeca from the chat, and BETanIA herself
    # 10 results: by the 8th the entries passed 300 tokens, and #1-#6 were fused into
    # a narrative; #7 to #10 stay in detail
    assert report["diary"] == {"entries": 5, "covers_matches": 10}
    # zeca's line about ana is not his to tell: only ana's own fact is kept
    assert report["facts"] == {"stored": 1, "by_player": {"ana": 1}, "rejected_compactions": 0}
    assert report["model_calls"] == len(report["context_tokens"]["per_call"]) > 10
    assert report["remarks"]["count"] >= 1
    assert report["standings"][0]["rank"] == 1
    assert set(report) == {
        "matches", "players", "standings", "diary", "facts", "model_calls",
        "context_tokens", "remarks", "bets", "elapsed_s",
    }  # fmt: skip
    assert report["bets"] is None  # no spreadsheet of picks


def test_resume_at_writes_nothing_for_the_earlier_matches(database_url: str) -> None:
    tournament = parse_tournament(read_json(SAMPLE))
    report = replay(ReplayOptions(tournament, players=3, resume_at=6), database_url, OfflineModel())
    assert report.as_dict()["diary"]["covers_matches"] == 4  # #7 to #10
    assert report.keeper.resolved() == {1, 2, 3, 4, 5, 6}
    remarked = {item.event.match for item in report.pool.events(kinds=("remark",))}
    assert remarked and not remarked & set(range(1, 7))  # nothing said about the past


def test_the_whole_2026_world_cup(world_cup_in_her_voice: Callable[[str], ReplayReport]) -> None:
    report = world_cup_in_her_voice("en")  # 15 players and chat, shared with test_voice.py
    data = report.as_dict()
    assert data["matches"] == 104 and data["players"] == 16
    assert data["diary"] == {"entries": 3, "covers_matches": 104}  # 1 narrative + the last 2
    # one sample per match, in kick-off order (the knock-outs carry FIFA's numbers)
    assert sorted(s.match for s in report.samples) == list(range(1, 105))
    kickoffs = [report.pool.match(s.match).kickoff for s in report.samples]
    assert kickoffs == sorted(kickoffs)
    # the compacted context stays far below the one that keeps every entry
    last = report.samples[-1]
    assert last.tokens * 3 < last.naive_tokens


def test_a_bad_chat_file_names_the_line(tmp_path: Path) -> None:
    chat = tmp_path / "chat.jsonl"
    chat.write_text(
        '{"at": "2026-06-11T16:30:00+00:00", "player": "ana", "text": "hi"}\n{"at": "yesterday"}\n'
    )
    with pytest.raises(ReplayError, match="line 2"):
        read_chat(str(chat))


def test_real_picks_from_a_spreadsheet_are_scored_in_the_replay(database_url: str) -> None:
    bets = "player,date,team1,team2,score1,score2\nZé,2026-06-11,Brazil,Japan,0,1\nZé,2026-06-11,Argentina,Portugal,3,3\n"
    tournament = parse_tournament(read_json(SAMPLE))
    report = replay(ReplayOptions(tournament, bets_csv=bets), database_url, OfflineModel())
    ze = next(row for row in report.as_dict()["standings"] if row["player"] == "ze")
    assert (ze["points"], ze["exact"]) == (20, 2)  # both exact: 0-1 and 3-3 in the sample


@pytest.mark.parametrize("cup", ["worldcup-2018.json", "worldcup-2022.json", "worldcup-2026.json"])
def test_the_whistle_never_comes_before_a_goal_in_added_time(cup: str) -> None:
    from bot.app.simulation import final_whistle, goal_time

    zone = ZoneInfo("Asia/Qatar") if "2022" in cup else None  # that file's times are local
    tournament = parse_tournament(read_json(str(TEST_DATA / cup)), zone)
    late = 0
    for fixture in tournament.fixtures:
        whistle = final_whistle(fixture.kickoff, fixture.result, fixture.goals)
        for goal in fixture.goals:
            assert goal_time(fixture.kickoff, goal) < whistle, (fixture, goal)
            late += goal.minute == 90 and goal.added >= 10
    if cup != "worldcup-2018.json":
        assert late > 0  # real data: 90+13 (2022), 90+12 (2026), which the old whistle preceded


def test_a_replay_knows_the_knockouts_only_as_they_are_decided(database_url: str) -> None:
    """The file was written after the cup; at match 5 her schedule names no knock-out side."""
    qatar = ZoneInfo("Asia/Qatar")  # that file's times are local
    tournament = parse_tournament(read_json(str(TEST_DATA / "worldcup-2022.json")), qatar)
    seen: dict[int, dict[int, tuple[str, str]]] = {}

    def look(number: int) -> None:  # what the pool knows as each result comes in
        pool = Pool(open_database(database_url))
        seen[number] = {m.number: (m.team1, m.team2) for m in pool.matches() if m.is_knockout}
        pool.engine.dispose()

    report = replay(
        ReplayOptions(tournament, players=3), database_url, OfflineModel(), on_result=look
    )
    final = max(report.pool.matches(), key=lambda m: m.kickoff)
    assert seen[5][final.number] == ("W61", "W62")  # was: Argentina v France
    assert all(is_placeholder(a) and is_placeholder(b) for a, b in seen[5].values())
    schedule = report.keeper.contexts.system
    assert "Argentina v France" in schedule  # told by the end, once the semi-finals were over
    with report.pool.work.read() as connection:  # and the calls about #5 were sent without it
        sent = [call.system for call in recorded(connection, match=5)]
    assert sent and all("W61 v W62" in s and "Argentina v France" not in s for s in sent)
    # Once the groups are over the last 16 are told (16 sides), the later rounds are not.
    groups = {m.number for m in report.pool.matches() if not m.is_knockout}
    last_group = [number for number in seen if number in groups][-1]
    sides = [t for pair in seen[last_group].values() for t in pair]
    assert sum(not is_placeholder(t) for t in sides) == 16 and "Netherlands" in sides
    # Every side is real at the end, as the file has it.
    assert not any(is_placeholder(t) for m in report.pool.matches() for t in (m.team1, m.team2))


def test_resume_at_adopts_the_matches_kicking_off_with_it(database_url: str) -> None:
    from bot.app.simulation import final_whistle

    cup = parse_tournament(read_json(str(TEST_DATA / "worldcup-2026.json")))
    groups = sorted(cup.fixtures, key=lambda f: f.kickoff)[:72]  # the group stage is enough
    tournament = Tournament(cup.name, tuple(groups))
    numbers = numbering(tournament.fixtures)
    by_kickoff: dict[object, list[int]] = {}
    for fixture in tournament.fixtures:
        by_kickoff.setdefault(fixture.kickoff, []).append(numbers[fixture.source_key])
    whistle = {
        numbers[f.source_key]: final_whistle(f.kickoff, f.result, f.goals)
        for f in tournament.fixtures
        if f.result is not None
    }
    # Two matches at once (a group's last round), the one numbered first ending last (#59
    # and #60): resuming at the second adopts the first too, its whistle still to come.
    earlier, later = next(
        sorted(pair)
        for pair in by_kickoff.values()
        if len(pair) == 2 and whistle[min(pair)] > whistle[max(pair)]
    )
    report = replay(
        ReplayOptions(tournament, players=3, resume_at=later), database_url, OfflineModel()
    )
    remarked = {item.event.match for item in report.pool.events(kinds=("remark",))}
    assert remarked and earlier not in remarked and later not in remarked
    assert {earlier, later} <= report.keeper.resolved()
    with pytest.raises(ReplayError, match="--resume-at 999: no such match"):
        replay(ReplayOptions(tournament, resume_at=999), database_url, OfflineModel())
