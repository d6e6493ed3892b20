"""kill -9 under load: what the pool confirmed is what the pool has, on either database."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import asyncssh

from game.db.engine import open_database
from game.history import PoolHistory
from game.pool import Pool
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
