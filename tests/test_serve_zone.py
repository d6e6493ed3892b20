"""``betania serve --tz``: her "today" and the digest follow the pool's time zone."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from game.db.engine import open_database
from game.pool import Pool
from memory.usage import recorded
from tests.serve_process import FUTURE_CUP, connect, prepare_pool, serving

SAO_PAULO = ZoneInfo("America/Sao_Paulo")


def test_serve_in_sao_paulo_time_tells_her_the_day_and_hour_there(
    tmp_path: Path, database_url: str
) -> None:
    key = prepare_pool(database_url, FUTURE_CUP, "ana")
    before = datetime.now(UTC)

    async def scenario() -> None:
        zoned = serving(tmp_path, database_url, "--tz", "America/Sao_Paulo")
        async with zoned as (_, port), connect(port, "ana", key) as connection:
            asked = await connection.run("@betania how am I doing?")
            assert asked.exit_status == 0, asked.stdout

    asyncio.run(scenario())
    after = datetime.now(UTC)
    (call, *_) = _calls(database_url)
    said = re.search(r"Today is (.+) \(tournament time\)", call.prompt)
    assert said is not None, call.prompt
    # The hour in São Paulo, three hours behind UTC: never the server's UTC hour.
    allowed = {f"{t.astimezone(SAO_PAULO):%A %d %B %Y, %H:%M}" for t in (before, after)}
    assert said[1] in allowed, (said[1], allowed)
    assert f"{before:%H:%M}" not in said[1]


def _calls(url: str) -> list:
    pool = Pool(open_database(url))
    try:
        with pool.work.read() as connection:
            return recorded(connection)
    finally:
        pool.engine.dispose()
