"""The demo, headless: a few matches on a very fast clock, watched over SSH."""

import asyncio
import os
import random
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from bot.app.config import ModelConfig
from bot.app.demo import HOUSE_PLAYERS, Demo, house_lines, run_demo
from bot.app.simulation import Deck
from frontends.ssh.library import asyncssh
from game.db.engine import open_database
from game.events import PickReminder
from game.pool import Pool
from memory import diary
from tests.serve_process import line_with
from tests.ssh_pool import printed, read_until


def test_the_demo_plays_and_a_newcomer_hears_her(tmp_path: Path) -> None:
    async def scenario() -> Demo:
        key = asyncssh.generate_private_key("ssh-ed25519")
        lines: list[str] = []
        task = asyncio.create_task(
            run_demo(
                tmp_path,
                "127.0.0.1",
                0,
                speed=6000,
                config=ModelConfig(provider="offline"),
                stop_after=4,
                say=lines.append,
                first_kickoff_in=timedelta(seconds=6),  # a loaded machine took over 3 s to start
            )
        )
        while not any(line.startswith("join the pool") for line in lines):
            assert not task.done(), task.exception()  # the demo failed before opening
            await asyncio.sleep(0.01)
        port = int(next(line for line in lines if line.startswith("join the pool")).split()[5])
        async with asyncssh.connect(
            "127.0.0.1", port, username="zeca", client_keys=[key], known_hosts=None, agent_path=None
        ) as connection:
            process = (
                await connection.create_process()
            )  # no question asked: the demo lets anyone in
            seen = await read_until(process.stdout, "BETanIA:", timeout=20)
            assert "Welcome to the pool, zeca!" in seen  # the pool's own greeting
            # and hers, a line of her own that names the newcomer (her claim check had
            # refused "Type bet N 2-1" as a false score, and she said nothing)
            async with asyncio.timeout(20):
                while not any(
                    "zeca" in line.partition("BETanIA:")[2] for line in printed(seen).splitlines()
                ):
                    seen += await process.stdout.read(4096)
            process.stdin.write("bet 5 1-0\n")
            seen = await read_until(process.stdout, "Full time", timeout=30)
            process.stdin.write("quit\n")
        demo, running = await task
        await running.close()
        # the console told the operator what happened, not the same line over and over
        assert next(line for line in lines if line.startswith("first kick-off: #1 "))
        assert any(line.endswith("zeca joined the pool") for line in lines)
        assert any("Kick-off! #1" in line for line in lines)
        assert sum("Full time: #" in line for line in lines) >= 4
        assert len(lines) == len(set(lines))
        return demo

    demo = asyncio.run(scenario())
    pool = demo.pool
    finished = [m for m in pool.matches() if m.result is not None]
    assert len(finished) >= 4
    table = pool.standings()
    assert table[0].points > 0  # the table moved
    with pool.work.read() as connection:
        _, entries = diary.read(connection)
    assert {e.covers[0] for e in entries} >= {m.number for m in finished[:4]}
    assert [p.match_number for p in pool.predictions_of("zeca")] == [5]
    assert pool.predictions_of("betania")  # she bets too
    # and the house players name a champion and a scorer of it, as keen players do
    house = {p.handle for p in pool.extras.bonus_picks() if p.handle in HOUSE_PLAYERS}
    assert house == set(HOUSE_PLAYERS) and len(pool.extras.bonus_picks("ana")) == 2
    remarks = pool.events(kinds=("remark",))
    assert any(r.event.match == 1 for r in remarks)
    # reminded before kick-offs as a served pool is: who joined, never the house players
    # (they pick on cue) nor her
    reminded = [item.event for item in pool.events_of(PickReminder)]
    assert reminded and {e.players for e in reminded} == {("zeca",)}


def test_the_knockout_bracket_fills_itself(tmp_path: Path) -> None:
    from bot.app.demo_cup import group_table
    from game.model import Score

    results = [
        ("Brazil", "Japan", Score(2, 0)),
        ("Morocco", "Norway", Score(1, 1)),
        ("Brazil", "Morocco", Score(0, 1)),
    ]
    assert group_table(results, "Group A") == ["Morocco", "Brazil", "Norway", "Japan"]


def played_to_the_end(directory: Path, league: bool = False) -> Pool:
    """The demo's pool once its whole tournament (or league) is played, on a fast clock."""

    async def whole() -> Demo:
        demo, running = await run_demo(
            directory,
            "127.0.0.1",
            0,
            200_000,
            ModelConfig(provider="offline"),
            say=lambda _line: None,
            first_kickoff_in=timedelta(seconds=0.1),
            league=league,
        )
        await running.close()
        return demo

    return asyncio.run(whole()).pool


def test_a_whole_demo_tournament_ends_with_a_champion_and_a_closed_diary(tmp_path: Path) -> None:
    pool = played_to_the_end(tmp_path)
    matches = pool.matches()
    assert len(matches) == 31 and all(m.result is not None for m in matches)
    final = matches[-1]
    assert (
        final.stage == "Final"
        and not final.team1.startswith("W")
        and not final.team2.startswith("W")
    )
    with pool.work.read() as connection:
        narrative, entries = diary.read(connection)
    assert narrative is not None and len(entries) == 2
    assert set(narrative.covers) | {e.covers[0] for e in entries} == set(range(1, 32))


def test_the_demo_plays_a_short_league_three_matches_at_a_time(tmp_path: Path) -> None:
    from game.league import league_table

    pool = played_to_the_end(tmp_path, league=True)
    matches = pool.matches()
    assert len(matches) == 30 and all(m.result is not None for m in matches)
    assert len({m.kickoff for m in matches}) == 10  # ten rounds, three at each kick-off
    assert not any(m.is_knockout or m.result.extra_time for m in matches if m.result)
    table = league_table(matches)
    assert [row.played for row in table] == [10] * 6
    assert sum(row.points for row in table) == sum(
        3 - (m.result.full_time.outcome == 0) for m in matches if m.result
    )
    with pool.work.read() as connection:
        narrative, entries = diary.read(connection)
    # the last round's entries follow the narrative: it crowns nobody, the wrap-up does
    assert narrative is not None and entries and "at the top of the table" not in narrative.text
    champion = table[0].team
    wrap = [
        r.event.text for r in pool.events(kinds=("remark",)) if "That's the season" in r.event.text
    ]
    assert wrap and f"{champion} are champions" in wrap[0]


def test_a_second_demo_that_cannot_start_leaves_the_running_one_whole(tmp_path: Path) -> None:
    """Started beside a running demo (its data dir, or only its port), the second one
    fails before touching a file: it used to remove demo.db first, and the running
    demo went on writing to deleted files."""

    async def scenario() -> None:
        first = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.app.cli", "demo", "--port", "0", "--provider", "offline",
            "--data-dir", str(tmp_path / "first"),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        assert first.stdout is not None
        try:
            port = (await line_with(first.stdout, "join the pool")).split()[5]
            database = tmp_path / "first" / "demo.db"
            before = database.stat()
            tries = {
                "same data dir": ["--port", "0", "--data-dir", str(tmp_path / "first")],
                "same port": ["--port", port, "--data-dir", str(tmp_path / "second")],
            }
            for options in tries.values():
                second = subprocess.run(
                    [sys.executable, "-m", "bot.app.cli", "demo", "--league", *options],
                    capture_output=True, text=True, timeout=60,
                )  # fmt: skip
                assert second.returncode == 1, second.stderr
                assert second.stderr.count("\n") == 1, second.stderr  # one line, no traceback
                (said,) = second.stderr.splitlines()
                assert said.startswith("betania: error: "), said
                after = database.stat()
                assert (after.st_ino, after.st_nlink) == (before.st_ino, 1)
            assert not (tmp_path / "second" / "demo.db").exists()
            # and the first demo still plays: it answers a newcomer over SSH
            key = asyncssh.generate_private_key("ssh-ed25519")
            async with asyncssh.connect(
                "127.0.0.1", int(port), username="zeca", client_keys=[key],
                known_hosts=None, agent_path=None,
            ) as connection:  # fmt: skip
                process = await connection.create_process()
                await read_until(process.stdout, "Welcome to the pool, zeca!", timeout=20)
                process.stdin.write("quit\n")
        finally:
            first.kill()
            await first.wait()
        # the first demo's database, as it was left: it holds the newcomer it registered
        reopened = Pool(open_database(f"sqlite:///{tmp_path / 'first' / 'demo.db'}"))
        assert reopened.player("zeca") is not None
        reopened.engine.dispose()

    asyncio.run(scenario())


def test_the_house_players_chat_in_the_pools_language_each_line_once() -> None:
    """In a Portuguese pool they chatted in English, and "who called Brazil?" came four
    times in one demo (in a league of clubs, too)."""
    english, portuguese = house_lines("en"), house_lines("pt")
    assert len(portuguese) == len(english) and not set(portuguese) & set(english)
    assert not [line for line in english + portuguese if "Brazil" in line or "Brasil" in line]
    deck = Deck(portuguese, random.Random(7))
    drawn = [deck.draw() for _ in range(3 * len(portuguese))]
    for start in range(0, len(drawn), len(portuguese)):
        assert sorted(drawn[start : start + len(portuguese)]) == sorted(portuguese)
