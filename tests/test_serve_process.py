"""``betania serve`` as an operator runs it: a real process, a real client, a real signal."""

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import asyncssh
import pytest

from game.db.engine import open_database
from game.openfootball import parse_tournament
from game.service import Pool
from tests.ssh_pool import read_until

# A cup far enough ahead that the real clock of a real server lets everyone bet.
CUP = {
    "name": "Future Cup",
    "matches": [
        {"num": 1, "round": "Matchday 1", "date": "2040-06-11", "time": "18:00 UTC+0",
         "team1": "Brazil", "team2": "Serbia"},
    ],
}  # fmt: skip


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_serve_cleanly(tmp_path: Path, signum: signal.Signals) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    data = tmp_path / "data"
    data.mkdir()

    async def scenario() -> None:
        setup = Pool(open_database(f"sqlite:///{data / 'betania.db'}"))
        setup.import_fixtures(parse_tournament(CUP))
        setup.add_player("ana", keys=[key.export_public_key().decode()])
        setup.engine.dispose()
        server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "serve", "--port", "0", "--provider", "offline",
            "--data-dir", str(data),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        assert server.stdout is not None
        try:
            async with asyncio.timeout(30):
                banner = (await server.stdout.readline()).decode()
            port = int(re.search(r":(\d+) ", banner).group(1))  # type: ignore[union-attr]
            async with asyncssh.connect(
                "127.0.0.1", port, username="ana", client_keys=[key], known_hosts=None,
                agent_path=None,
            ) as connection:  # fmt: skip
                player = await connection.create_process()
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
        finally:
            if server.returncode is None:
                server.kill()
                await server.wait()
        assert f"{signum.name}: telling 1 session(s) and stopping" in rest
        assert rest.rstrip().endswith("stopped")
        assert "Traceback" not in rest
        # The database was closed: SQLite folded its write-ahead log back in.
        assert not (data / "betania.db-wal").exists()
        pool = Pool(open_database(f"sqlite:///{data / 'betania.db'}"))
        assert [str(p.score) for p in pool.predictions_of("ana")] == ["2-1"]
        assert pool.verify_log().intact
        pool.engine.dispose()

    asyncio.run(scenario())
