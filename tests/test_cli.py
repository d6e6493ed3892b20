import json
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from bot.app.cli import main
from tests.conftest import TEST_DATA


@pytest.fixture
def betania(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Run ``betania ARGS`` against a database of its own; returns (exit code, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        try:
            code = main([*args, "--data-dir", str(tmp_path / "data")])
        except SystemExit as refused:  # argparse refuses before any command runs
            code = refused.code
        out, err = capsys.readouterr()
        return code, out, err

    return run


def test_import_enter_results_and_read_the_table(betania, tmp_path: Path) -> None:
    fixtures = tmp_path / "cup.json"
    fixtures.write_text(
        json.dumps(
            {
                "name": "Mini Cup",
                "matches": [
                    {
                        "round": "1",
                        "date": "2026-06-11",
                        "time": "13:00 UTC-6",
                        "team1": "Mexico",
                        "team2": "Peru",
                    },
                    {
                        "round": "1",
                        "date": "2026-06-12",
                        "time": "13:00 UTC-6",
                        "team1": "Chile",
                        "team2": "Japan",
                    },
                ],
            }
        )
    )
    bets = tmp_path / "bets.csv"
    bets.write_text(
        "player,date,team1,team2,score1,score2,placed_at\n"  # by the real clock, all kicked off
        "ana,2026-06-11,Mexico,Peru,2,1,2026-06-10T12:00Z\n"
        "bia,2026-06-11,Mexico,Peru,1,0,2026-06-10T12:00Z\n"
        "ana,2026-06-12,Chile,Japan,0,0,2026-06-10T12:00Z\n"
        "bia,2026-06-12,Chile,Japan,1,1,2026-06-10T12:00Z\n"
    )
    assert betania("fixtures", "import", str(fixtures))[1].startswith("Mini Cup: 2 matches")
    assert "4 picks placed" in betania("bets", "import", str(bets))[1]
    code, out, _ = betania("results", "set", "1", "2-1")
    assert (code, out.strip()) == (0, "#1 Mexico v Peru: 2-1")
    betania("results", "set", "2", "0-0", "--aet", "1-1", "--pens", "4-3")

    code, out, _ = betania("standings", "--json")
    assert code == 0
    # ana: exact on #1, a draw on the 1-1 after extra time; bia: the reverse
    tallies = {"points": 17, "exact": 1, "outcome": 2, "predictions": 2}
    extras = {"joker": 0, "bonus": 0, "days": 1}  # each won the day of their exact call
    assert json.loads(out) == [
        {"rank": 1, "player": "ana", **tallies, **extras},
        {"rank": 1, "player": "bia", **tallies, **extras},
    ]

    code, out, _ = betania("standings", "--after", "1", "--json")
    assert [(r["player"], r["points"]) for r in json.loads(out)] == [("ana", 10), ("bia", 7)]
    assert "ana" in betania("standings")[1]

    betania("pool", "set", "--scoring", "kicktipp")
    assert json.loads(betania("standings", "--json")[1])[0]["points"] == 7


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("results", "set", "7", "2-1"), "no match #7"),
        (("results", "set", "1", "two-one"), "not a score"),
        (("fixtures", "import", "/nonexistent/cup.json"), "No such file"),
        (("standings", "--after", "x"), "invalid int value"),
        (("fixtures", "import", "x.json", "--tz", "Mars/Olympus"), "unknown time zone"),
        (("pool", "set"), "say what to set"),
        (("nonsense",), "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_a_nonzero_exit(
    betania, args: tuple[str, ...], message: str
) -> None:
    code, _, err = betania(*args)
    assert code != 0
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_a_results_file_without_offsets_stops_without_guessing(betania) -> None:
    code, _, err = betania("fixtures", "import", str(TEST_DATA / "worldcup-2022.json"))
    assert code == 1 and "--tz" in err
    code, out, _ = betania(
        "fixtures", "import", str(TEST_DATA / "worldcup-2022.json"), "--tz", "Asia/Qatar"
    )
    assert code == 0 and "64 new" in out


def test_the_installed_command_reports_errors_without_a_traceback(tmp_path: Path) -> None:
    command = shutil.which("betania", path=str(Path(sys.executable).parent))
    assert command, "the betania console script is installed beside this Python"
    done = subprocess.run(
        [command, "results", "set", "1", "2-1", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr == "betania: error: no match #1\n"


def test_settings_come_from_flags_and_the_environment_and_bad_ones_are_one_line(
    tmp_path: Path,
) -> None:
    command = shutil.which("betania", path=str(Path(sys.executable).parent))
    assert command

    def run(*args: str, **environ: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, **environ}
        env.pop("BETANIA_DEBUG", None)
        argv = [command, *args, "--data-dir", str(tmp_path)]
        return subprocess.run(argv, capture_output=True, text=True, check=False, env=env)

    bad_handle = run("players", "list", BETANIA_HANDLE="Not A Handle")
    assert bad_handle.returncode == 1
    assert bad_handle.stderr.startswith("betania: error: BETANIA_HANDLE: bad handle")
    assert len(bad_handle.stderr.splitlines()) == 1
    bad_level = run("players", "list", BETANIA_LOG_LEVEL="chatty")
    assert bad_level.returncode == 1 and "unknown log level 'CHATTY'" in bad_level.stderr
    assert run("players", "list", "--log-level", "chatty").returncode == 2  # argparse's own
    debug = run("players", "list", "--log-level", "debug")
    assert (debug.returncode == 0 and "DEBUG" not in debug.stderr.upper()) or debug.stderr


def test_the_sample_files_import(betania) -> None:
    sample = Path(__file__).resolve().parents[1] / "game" / "sample"
    assert betania("fixtures", "import", str(sample / "tournament.json"))[0] == 0
    code, out, _ = betania("bets", "import", str(sample / "bets.csv"))
    assert code == 0 and "60 picks placed" in out


def test_version_is_the_installed_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"betania {metadata.version('betania')}\n"


# What every console command once paid for before it read its arguments: seconds of
# `betania --version` on a shared machine.
PROVIDERS_AND_SERVERS = ("anthropic", "openai", "asyncssh", "aiohttp", "bot.agent.commentator")


def modules_loaded_by(*argv: str) -> set[str]:
    """The modules a fresh Python holds after ``betania ARGV`` (as the console script runs it)."""
    code = (
        "import sys\n"
        "from bot.app.cli import main\n"
        "try:\n"
        f"    main({list(argv)!r})\n"
        "except SystemExit as done:\n"
        "    assert not done.code, done.code\n"
        "print(' '.join(sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(done.stderr.split())


def test_the_version_and_the_help_load_no_engine_no_server_and_no_provider() -> None:
    for argv in (["--version"], ["--help"], ["serve", "--help"]):
        loaded = modules_loaded_by(*argv)
        assert "bot.app.cli" in loaded
        heavy = {*PROVIDERS_AND_SERVERS, "sqlalchemy", "alembic", "httpx", "game.pool"}
        assert not heavy & loaded, argv


def test_the_table_loads_the_database_but_no_server_and_no_provider(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[1] / "game" / "sample"
    data = ["--data-dir", str(tmp_path)]
    assert main(["fixtures", "import", str(sample / "tournament.json"), *data]) == 0
    assert main(["bets", "import", str(sample / "bets.csv"), *data]) == 0
    loaded = modules_loaded_by("standings", *data)
    assert {"game.pool", "sqlalchemy"} <= loaded
    assert not {*PROVIDERS_AND_SERVERS, "alembic", "httpx"} & loaded  # at head: no migration


def test_memory_facts_and_diary_as_json_tell_each_fact_s_whole_story(
    tmp_path: Path, betania
) -> None:
    chat = tmp_path / "chat.jsonl"
    chat.write_text(
        '{"at": "2026-06-11T16:30:00Z", "player": "ana", "text": "@betania remember that I run Gentoo"}\n'
        '{"at": "2026-06-11T16:31:00Z", "player": "ana", "text": "@betania remember that my cat is called Tom"}\n'
        '{"at": "2026-06-12T09:00:00Z", "player": "ana", "text": "@betania forget that I run Gentoo"}\n',
        encoding="utf-8",
    )
    sample = Path(__file__).resolve().parents[1] / "game" / "sample" / "tournament.json"
    assert betania("replay", str(sample), "--players", "2", "--chat", str(chat))[0] == 0
    replayed = f"sqlite:///{tmp_path / 'data' / 'replay.db'}"
    code, out, _ = betania("memory", "facts", "ana", "--json", "--db", replayed)
    assert code == 0
    gentoo, cat = json.loads(out)
    assert (gentoo["text"], gentoo["current"], gentoo["withdrawn_on"]) == (
        "ana runs Gentoo",
        False,
        "2026-06-12",
    )
    assert gentoo["withdrawn_by"].startswith("log:") and gentoo["first_told"] == "2026-06-11"
    assert (cat["text"], cat["current"], cat["superseded_by"]) == (
        "ana's cat is called Tom",
        True,
        None,
    )
    code, out, _ = betania("memory", "diary", "--json", "--db", replayed)
    told = json.loads(out)
    assert code == 0 and told["entries"] and all(e["covers"] for e in told["entries"])
