"""``betania serve --tz``: her "today" and the digest follow the pool's time zone."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.agent.commentator import LAST_DIGEST
from game.db.engine import open_database
from game.pool import Pool
from memory.store import AGENT_STATE, MemoryStore
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
    said = re.search(r"Today is (.+) \(America/Sao_Paulo, the pool's clock\)", call.prompt)
    assert said is not None, call.prompt
    # The hour in São Paulo, three hours behind UTC: never the server's UTC hour.
    allowed = {f"{t.astimezone(SAO_PAULO):%A %d %B %Y, %H:%M}" for t in (before, after)}
    assert said[1] in allowed, (said[1], allowed)
    assert f"{before:%H:%M}" not in said[1]
    # the pool's clock, said as such: "tournament time" would read as the venues' local time
    assert "tournament time" not in call.prompt


def _calls(url: str) -> list:
    pool = Pool(open_database(url))
    try:
        with pool.work.read() as connection:
            return recorded(connection)
    finally:
        pool.engine.dispose()


def test_her_digest_hour_is_the_pools_hour_in_a_serve_process(
    tmp_path: Path, database_url: str
) -> None:
    """Her turn (picks, reactions, the digest once its hour has come) is the one loop serve
    runs every few seconds; the hour is São Paulo's, not the server's UTC."""
    key = prepare_pool(database_url, FUTURE_CUP, "ana")
    here = datetime.now(SAO_PAULO)

    async def serve_a_while(digest_hour: int, told: bool) -> None:
        hour = ("--digest-hour", str(digest_hour))
        async with (
            serving(tmp_path, database_url, "--tz", "America/Sao_Paulo", *hour) as (
                _,
                port,
            ),
            connect(port, "ana", key) as connection,
        ):
            assert (await connection.run("standings")).exit_status == 0
            if not told:
                await asyncio.sleep(5)  # her turn runs every 2 s: two turns pass, no digest
                return
            async with asyncio.timeout(30):  # awaited: her first turn past the hour tells it
                while _digest_day(database_url) is None:
                    await asyncio.sleep(0.1)

    if here.hour <= 20 and here.hour == datetime.now(SAO_PAULO).hour:
        # The hour after São Paulo's: due by UTC's clock (three hours ahead), not by the pool's.
        asyncio.run(serve_a_while(here.hour + 1, told=False))
        assert _digest_day(database_url) is None
    asyncio.run(serve_a_while(datetime.now(SAO_PAULO).hour, told=True))
    assert _digest_day(database_url) in {
        here.date().isoformat(),
        datetime.now(SAO_PAULO).date().isoformat(),
    }


def _digest_day(url: str) -> str | None:
    pool = Pool(open_database(url))
    try:
        store = MemoryStore(pool)
        with store.read() as connection:
            return AGENT_STATE.get(connection, LAST_DIGEST)
    finally:
        pool.engine.dispose()
