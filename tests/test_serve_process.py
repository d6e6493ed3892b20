"""``betania serve`` as an operator runs it: a real process, a real client, a real signal."""

import asyncio
import signal
from pathlib import Path

import pytest

from game.db.engine import open_database
from game.pool import Pool
from tests.serve_process import FUTURE_CUP, connect, line_with, prepare_pool, serving
from tests.ssh_pool import read_until


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("terminal", [False, True], ids=["plain lines", "at the prompt"])
def test_a_signal_stops_serve_cleanly(
    tmp_path: Path, database_url: str, signum: signal.Signals, terminal: bool
) -> None:
    """With a player at the pool's prompt too: each prompt is a prompt_toolkit
    application, which took Ctrl-C for its own and left the server deaf to it."""
    data = tmp_path / "data"
    key = prepare_pool(database_url, FUTURE_CUP, "ana")

    async def scenario() -> None:
        async with serving(data, database_url) as (server, port):
            assert server.stdout is not None
            async with connect(port, "ana", key) as connection:
                pty = {"term_type": "xterm", "term_size": (100, 30)} if terminal else {}
                player = await connection.create_process(**pty)
                await read_until(player.stdout, "Type help")
                player.stdin.write("bet 1 2-1\n")
                await read_until(player.stdout, "your pick is 2-1")
                server.send_signal(signum)
                told = await read_until(player.stdout, "bye!")
                assert "the pool is closing for now; your picks are saved. bye!" in told
                await player.wait_closed()
            async with asyncio.timeout(30):
                rest = (await server.stdout.read()).decode()
                assert await server.wait() == 0
        assert f"{signum.name}: telling 1 session(s) and stopping" in rest
        assert rest.rstrip().endswith("stopped")
        assert "Traceback" not in rest
        # The database was closed: SQLite folded its write-ahead log back in.
        assert not Path(database_url.removeprefix("sqlite:///") + "-wal").exists()
        pool = Pool(open_database(database_url))
        assert [str(p.score) for p in pool.predictions_of("ana")] == ["2-1"]
        assert pool.verify_log().intact
        pool.engine.dispose()

    asyncio.run(scenario())


def test_serve_says_nothing_before_its_banner(tmp_path: Path, database_url: str) -> None:
    """What a newcomer sees first, its log and warnings merged in as on a terminal: the
    pool's banner. A new cryptography made asyncssh print ten DSA warnings there."""
    prepare_pool(database_url, FUTURE_CUP, "ana")
    before: list[str] = []

    async def scenario() -> None:
        async with serving(tmp_path / "data", database_url, before=before):
            pass

    asyncio.run(scenario())
    assert before == []


def test_serve_on_a_pool_with_no_fixtures_says_so(tmp_path: Path, database_url: str) -> None:
    """It started without a word, and players found nothing to bet on."""
    prepare_pool(database_url, {"name": "Empty", "matches": []}, "ana")

    async def scenario() -> str:
        async with serving(tmp_path / "data", database_url) as (server, _port):
            assert server.stdout is not None
            return await line_with(server.stdout, "fixtures")

    said = asyncio.run(scenario())
    assert said.startswith("no fixtures yet: players can join, but there is nothing to bet on")
