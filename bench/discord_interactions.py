"""The interactions endpoint under 200 concurrent signed requests.

``python -m bench.discord_interactions``: 200 linked players each send ``/mybets``
at once, signed with a real Ed25519 key as Discord signs them, to the pool's
aiohttp server (verification, the linked player, the command parser, the
pool); beside it, in the same run, a bare aiohttp handler answering the same
requests with a fixed JSON body. Prints p50 and p99 latency of each and their
ratio, for a few rounds. The requests come from a process of their own.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import aiohttp
from aiohttp import web

from bench.ssh_sessions import percentiles
from frontends.discord.api import DiscordApi
from frontends.discord.interactions import Interactions
from frontends.discord.signature import Verifier
from frontends.web import INTERACTIONS_PATH, DiscordEndpoint, start_web, web_app
from tests.discord_server import Signer, interaction
from tests.ssh_pool import served_pool


async def fire(url: str, bodies: list[tuple[bytes, dict[str, str]]]) -> list[float]:
    """Every request at once, each on its own connection; the seconds each took."""
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as client:

        async def one(body: bytes, headers: dict[str, str]) -> float:
            started = time.perf_counter()
            async with client.post(url, data=body, headers=headers) as response:
                text = await response.text()
            assert response.status == 200, text
            assert "too many" not in text, text
            return time.perf_counter() - started

        return list(await asyncio.gather(*(one(b, h) for b, h in bodies)))


def fire_from_here(url: str, bodies: list[tuple[bytes, dict[str, str]]]) -> list[float]:
    """The load, from a process of its own: the servers' event loop serves, nothing else."""
    return asyncio.run(fire(url, bodies))


async def main(players: int, rounds: int) -> None:
    signer = Signer()
    with tempfile.TemporaryDirectory() as folder:
        async with served_pool(Path(folder)) as served:
            accounts = {}
            for n in range(players):
                handle = f"player{n:03d}"
                served.pool.members.add(handle)
                account = str(80351110224678912 + n)
                code = served.pool.members.create_link_code(handle, "discord")
                served.pool.members.link_account("discord", account, code)
                accounts[handle] = account
            api = DiscordApi("http://127.0.0.1:9/api/v10")
            interactions = Interactions(served.frontend, api, "app42")
            endpoint = DiscordEndpoint(Verifier(signer.public_key_hex), interactions)
            pool_server = await start_web(web_app(endpoint), "127.0.0.1", 0)

            async def bare_handler(request: web.Request) -> web.Response:
                await request.read()
                return web.json_response({"type": 4, "data": {"content": "ok"}})

            bare_app = web.Application()
            bare_app.router.add_post(INTERACTIONS_PATH, bare_handler)
            bare_server = await start_web(bare_app, "127.0.0.1", 0)
            print(f"{players} concurrent signed /mybets, {rounds} rounds (p50 / p99 in ms)")
            load = ProcessPoolExecutor(1)
            try:
                for round_number in range(rounds):
                    bodies = []
                    for account in accounts.values():
                        body = interaction("mybets", account)
                        bodies.append((body, signer.headers(body)))
                    bare = await fire(
                        f"http://127.0.0.1:{bare_server.port}{INTERACTIONS_PATH}", bodies
                    )
                    mine = await fire(
                        f"http://127.0.0.1:{pool_server.port}{INTERACTIONS_PATH}", bodies
                    )
                    (b50, b99), (p50, p99) = percentiles(bare), percentiles(mine)
                    print(
                        f"round {round_number + 1}: bare {b50 * 1000:6.0f} / {b99 * 1000:6.0f}"
                        f"   pool {p50 * 1000:6.0f} / {p99 * 1000:6.0f}"
                        f"   ratio {p50 / b50:5.2f} / {p99 / b99:5.2f}"
                    )
                    await asyncio.sleep(2.5)  # the per-player budget refills between rounds
            finally:
                load.shutdown()
                await pool_server.close()
                await bare_server.close()
                await api.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    asyncio.run(main(options.players, options.rounds))
