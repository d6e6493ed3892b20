"""A 200-remark burst posted through a Discord-shaped server that rate-limits.

``python -m bench.discord_burst``: the webhook poster sends 200 of her remarks
through a local server speaking Discord's webhook API that answers 429 to every
third request with a short ``retry_after``. Checks that every post arrived
exactly once and in order, and prints the time taken against the least the
server's limits allow (each 429's ``retry_after``, waited in turn), measured in
the same run beside the same burst with no limit at all.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from frontends.discord.api import DiscordApi
from frontends.discord.poster import WebhookPoster
from frontends.notices import Notices
from game.db.engine import open_database
from game.pool import Pool
from tests.discord_server import FakeDiscord, discord_server


async def burst(remarks: int, limit_every: int, retry_after: float) -> tuple[float, FakeDiscord]:
    with tempfile.TemporaryDirectory() as folder:
        pool = Pool(open_database(f"sqlite:///{Path(folder) / 'bench.db'}"))
        pool.members.add("betania", "BETanIA", via="bot")
        async with discord_server() as discord:
            discord.limit_every, discord.retry_after = limit_every, retry_after
            api = DiscordApi(discord.base_url)
            poster = WebhookPoster(pool, api, discord.webhook_url(), Notices(pool))
            await poster.catch_up()  # the cursor starts here
            for n in range(remarks):
                pool.talk.remark("betania", f"remark {n}", trigger=n + 1)
            started = time.perf_counter()
            await poster.catch_up()
            took = time.perf_counter() - started
            await api.close()
            expected = [f"BETanIA: remark {n}" for n in range(remarks)]
            delivered = [post["content"] for post in discord.posts]
            assert delivered == expected, "lost, doubled or out of order"
        pool.engine.dispose()
    return took, discord


async def main(remarks: int, every: int, retry_after: float) -> None:
    free, _ = await burst(remarks, 0, retry_after)
    limited, discord = await burst(remarks, every, retry_after)
    floor = discord.limited * retry_after
    print(
        f"{remarks} remarks, 429 to one request in {every}, retry_after {retry_after * 1000:.0f} ms"
    )
    print(f"delivered exactly once, in order: {remarks} of {remarks} (429s met: {discord.limited})")
    print(f"no limit:     {free:6.2f} s")
    print(f"rate-limited: {limited:6.2f} s   the server's floor {floor:.2f} s (429s x retry_after)")
    print(f"over the floor: {limited - floor:.2f} s; no-limit time + floor = {free + floor:.2f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--remarks", type=int, default=200)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--retry-after", type=float, default=0.05)
    options = parser.parse_args()
    asyncio.run(main(options.remarks, options.every, options.retry_after))
