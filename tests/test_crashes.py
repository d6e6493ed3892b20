"""kill -9 under load: what the pool confirmed is what the pool has, on either database."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from bot.agent.gateway import remembering
from frontends.ssh.library import asyncssh
from game.db.engine import open_database
from game.history import PoolHistory
from game.model import Score
from game.pool import Pool
from memory import diary, facts
from tests.conftest import FakeClock, ScriptedModel, play, tournament
from tests.memory_worker import CONFIG
from tests.serve_process import connect, prepare_players, serving

CLIENTS = 50
MATCHES = 8
CUP = {
    "name": "Future Cup",
    "matches": [
        {"num": n, "round": "Matchday 1", "date": f"2040-06-{10 + n}", "time": "18:00 UTC+0",
         "team1": f"Team{2 * n}", "team2": f"Team{2 * n + 1}"}
        for n in range(1, MATCHES + 1)
    ],
}  # fmt: skip


def test_kill_9_while_50_players_bet_loses_no_confirmed_bet(
    tmp_path: Path, database_url: str
) -> None:
    handles = [f"p{i:02d}" for i in range(CLIENTS)]
    keys = prepare_players(database_url, CUP, handles)
    confirmed: set[tuple[str, int, str]] = set()
    rng = random.Random(9)

    async def player(handle: str, port: int, plenty: asyncio.Event) -> None:
        picks = [(n, f"{rng.randint(0, 3)}-{rng.randint(0, 3)}") for n in range(1, MATCHES + 1)]
        try:
            async with connect(port, handle, keys[handle]) as connection:
                for number, score in picks:  # each match once: a pick here is never changed
                    done = await connection.run(f"bet {number} {score}")
                    if done.exit_status == 0 and f"your pick is {score}" in str(done.stdout):
                        confirmed.add((handle, number, score))
                        if len(confirmed) >= CLIENTS * MATCHES // 3:
                            plenty.set()
        except (OSError, asyncssh.Error):
            pass  # the server died under us: what was confirmed is what counts

    async def scenario() -> None:
        async with serving(tmp_path / "a", database_url) as (server, port):
            plenty = asyncio.Event()
            players = [asyncio.create_task(player(h, port, plenty)) for h in handles]
            async with asyncio.timeout(60):
                await plenty.wait()
            server.kill()  # SIGKILL, mid-load: nothing is flushed or closed in order
            await server.wait()
            await asyncio.gather(*players)
        # A restart serves the same pool.
        async with serving(tmp_path / "b", database_url) as (_again, port):
            assert "p00" in await _run(port, "p00", keys["p00"], "standings")

    asyncio.run(scenario())
    pool = Pool(open_database(database_url))
    try:
        stored = {
            (p.handle, p.match_number, str(p.score))
            for handle in handles
            for p in pool.predictions_of(handle)
        }
        print(f"\nkill -9 mid-load: {len(confirmed)} bets confirmed, {len(stored)} stored")
        assert CLIENTS * MATCHES // 3 <= len(confirmed) < CLIENTS * MATCHES  # killed mid-load
        assert confirmed <= stored  # every confirmed bet is there
        placed = [
            (e.event.player, e.event.match) for e in pool.events(kinds=("prediction_placed",))
        ]
        assert len(placed) == len(set(placed)) == len(stored)  # none doubled
        history = PoolHistory.from_log(pool.events())
        assert {(h, n, str(s)) for (h, n), s in history.picks.items()} == stored
        assert history.standings() == pool.standings()  # the log folds into the tables
        assert pool.verify_log().intact
    finally:
        pool.engine.dispose()


async def _run(port: int, handle: str, key: asyncssh.SSHKey, command: str) -> str:
    async with connect(port, handle, key) as connection:
        return str((await connection.run(command)).stdout)


def test_the_console_writes_while_players_bet_and_nobody_hears_locked(
    tmp_path: Path, database_url: str
) -> None:
    """``betania results set`` in another process, over and over, while 20 players bet."""
    handles = [f"p{i:02d}" for i in range(20)]
    keys = prepare_players(database_url, CUP, handles)
    said: list[str] = []

    async def player(handle: str, port: int) -> None:
        async with connect(port, handle, keys[handle]) as connection:
            for number in range(2, MATCHES + 1):
                done = await connection.run(f"bet {number} 1-0")
                said.append(f"{done.exit_status} {done.stdout}{done.stderr}")

    async def console() -> list[str]:
        lines = []
        for score in ("1-0", "2-0", "2-1", "3-1", "1-0"):
            command = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot.app.cli", "results", "set", "1", score,
                "--db", database_url, "--data-dir", str(tmp_path / "console"),
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            )  # fmt: skip
            out, _ = await command.communicate()
            lines.append(f"{command.returncode} {out.decode()}")
        return lines

    async def scenario() -> list[str]:
        async with serving(tmp_path / "a", database_url) as (_server, port):
            results = asyncio.create_task(console())
            await asyncio.gather(*(player(h, port) for h in handles))
            return await results

    console_said = asyncio.run(scenario())
    assert all(line.startswith("0 #1 Team2 v Team3: ") for line in console_said), console_said
    assert len(said) == len(handles) * (MATCHES - 1)
    assert all(line.startswith("0 ") and "your pick is 1-0" in line for line in said), [
        line for line in said if "your pick" not in line
    ][:3]
    assert not any("locked" in line or "busy" in line for line in said + console_said)
    pool = Pool(open_database(database_url))
    try:
        assert str(pool.match(1).result) == "1-0"  # the console's last word
        assert pool.verify_log().intact
    finally:
        pool.engine.dispose()


# -- kill -9 while her memory rewrites itself ------------------------------------


def _memory_worker(url: str, now: datetime, *stop: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "tests.memory_worker", url, now.isoformat(), *stop]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True)


def _killed_before_commit(url: str, now: datetime, statement: str) -> None:
    """Her memory catches up in another process, killed (SIGKILL) once the rewrite that
    runs ``statement`` has run all its statements and not committed."""
    worker = _memory_worker(url, now, "--stop-before-commit", statement)
    assert worker.stdout is not None
    try:
        assert worker.stdout.readline().strip() == "staged"
    finally:
        worker.kill()
        worker.wait()


def _catch_up(url: str, now: datetime) -> None:
    worker = _memory_worker(url, now)
    out, _ = worker.communicate(timeout=120)
    assert worker.returncode == 0 and out.strip() == "done"


def test_kill_9_during_a_diary_compaction_leaves_the_diary_whole(database_url: str) -> None:
    clock = FakeClock(datetime(2026, 6, 1, tzinfo=UTC))
    pool = Pool(open_database(database_url), clock)
    pool.fixtures.import_tournament(tournament(8))
    pool.members.add("ana")
    keeper, _gateway = remembering(pool, ScriptedModel(), CONFIG)
    keeper.enable()
    for number in range(1, 4):
        pool.predictions.place("ana", number, Score(3, 1))
        play(pool, clock, number, "3-1")
        keeper.catch_up()
    play(pool, clock, 4, "0-0")  # the fourth entry makes a compaction due

    def diary_now() -> tuple[tuple[int, ...] | None, list[tuple[int, ...]]]:
        with pool.work.read() as connection:
            narrative, entries = diary.read(connection)
        return (narrative.covers if narrative else None), [e.covers for e in entries]

    try:
        _killed_before_commit(database_url, clock.now, "DELETE FROM diary_entries")
        assert diary_now() == (None, [(1,), (2,), (3,), (4,)])  # the entry for #4 had committed
        _catch_up(database_url, clock.now)  # the restart does what was due, once
        assert diary_now() == ((1, 2, 3), [(4,)])
        _catch_up(database_url, clock.now)
        assert diary_now() == ((1, 2, 3), [(4,)])
    finally:
        pool.engine.dispose()


def test_kill_9_during_a_fact_merge_loses_no_fact(database_url: str) -> None:
    clock = FakeClock(datetime(2026, 6, 1, tzinfo=UTC))
    pool = Pool(open_database(database_url), clock)
    pool.fixtures.import_tournament(tournament(8))
    pool.members.add("ana")
    remembering(pool, ScriptedModel(), CONFIG)[0].enable()
    for told in (
        "I run Gentoo",
        "I run Gentoo Linux",
        "I collect Flamengo shirts",
        "I hate penalties",
    ):
        pool.talk.chat("ana", f"@betania remember {told}")

    def facts_now() -> list[str]:
        with pool.work.read() as connection:
            return sorted(f.text for f in facts.current(connection, "ana"))

    try:
        _killed_before_commit(database_url, clock.now, "UPDATE player_facts")
        told = ["ana hates penalties", "ana runs Gentoo", "ana runs Gentoo Linux"]
        assert facts_now() == ["ana collects Flamengo shirts", *told]  # each told, none merged
        _catch_up(database_url, clock.now)
        merged = ["ana collects Flamengo shirts", "ana hates penalties", "ana runs Gentoo Linux"]
        assert facts_now() == merged
        _catch_up(database_url, clock.now)
        assert facts_now() == merged
        with pool.work.read() as connection:
            assert len([f for f in facts.stored(connection) if f.source == "merge"]) == 1
    finally:
        pool.engine.dispose()
