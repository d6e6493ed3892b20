"""``betania serve --http-port`` with the Discord companion configured as a user would,
and ``betania discord commands``, as real processes against a local Discord."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import httpx

from frontends.discord.slash import COMMANDS
from game.db.engine import open_database
from game.pool import Pool
from tests.discord_server import BOT_TOKEN, Signer, discord_server
from tests.serve_process import line_with, prepare_pool, serving
from tests.test_front_ends import TWO_MATCHES


def test_serve_answers_discord_and_posts_the_pools_news_to_the_webhook(
    tmp_path: Path, database_url: str
) -> None:
    prepare_pool(database_url, TWO_MATCHES, "ana")
    signer = Signer()

    async def scenario() -> None:
        async with discord_server() as discord:
            env = {
                "DISCORD_PUBLIC_KEY": signer.public_key_hex,
                "DISCORD_APPLICATION_ID": "app42",
                "DISCORD_WEBHOOK_URL": discord.webhook_url(),
                "DISCORD_API_URL": discord.base_url,
            }
            options = ("--http-port", "0")
            async with serving(tmp_path, database_url, *options, env=env) as (server, _):
                assert server.stdout is not None
                said = await line_with(server.stdout, "Discord interactions at ")
                url = said.split(" at ")[1].strip()
                await line_with(server.stdout, "run in this front end")  # it leads
                ping = json.dumps({"type": 1, "id": "1", "token": "t", "version": 1}).encode()
                async with httpx.AsyncClient(timeout=10) as client:
                    pong = await client.post(url, content=ping, headers=signer.headers(ping))
                    forged = await client.post(url, content=ping, headers=Signer().headers(ping))
                assert (pong.status_code, pong.json()) == (200, {"type": 1})
                assert forged.status_code == 401

                console = Pool(open_database(database_url))  # another process's write
                try:
                    console.talk.remark("betania", "from the console, with **love**", trigger=1)
                finally:
                    console.engine.dispose()
                async with asyncio.timeout(15):
                    while not discord.posts:
                        await asyncio.sleep(0.05)
                assert (
                    discord.posts[0]["content"]
                    == "BETanIA: from the console, with \\*\\*love\\*\\*"
                )

    asyncio.run(scenario())


def test_discord_commands_registers_every_slash_command_with_the_bot_token(
    tmp_path: Path,
) -> None:
    async def register(discord_url: str, token: str) -> tuple[int, str]:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.app.cli", "discord", "commands", "--data-dir", str(tmp_path),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            env={**os.environ, "DISCORD_APPLICATION_ID": "app42", "DISCORD_BOT_TOKEN": token,
                 "DISCORD_API_URL": discord_url},
        )  # fmt: skip
        out, _ = await process.communicate()
        return process.returncode or 0, out.decode()

    async def scenario() -> None:
        async with discord_server() as discord:
            code, out = await register(discord.base_url, BOT_TOKEN)
            names = [c["name"] for c in COMMANDS]
            assert {"bet", "joker", "bonus", "mybets", "unlink"} <= set(names)
            listed = ", ".join(f"/{name}" for name in names)
            assert (code, out) == (0, f"registered {len(names)} slash commands: {listed}\n")
            sent = discord.commands["app42"]
            assert [c["name"] for c in sent] == [c["name"] for c in COMMANDS]
            bet = sent[names.index("bet")]
            assert bet["type"] == 1 and [o["name"] for o in bet["options"]] == ["match", "score"]

            code, out = await register(discord.base_url, "a-wrong-token")
            assert code == 1 and out.count("\n") == 1 and "401" in out

    asyncio.run(scenario())
