"""The Discord companion, end to end: a real pool served over SSH, its HTTP server on
127.0.0.1, interactions signed with a real Ed25519 key as Discord signs them, and a
local server that speaks Discord's API for what the pool sends back."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from frontends.commands import BY_NAME
from frontends.discord.api import DiscordApi
from frontends.discord.interactions import Interactions
from frontends.discord.signature import SeenSignatures, Verifier
from frontends.discord.slash import COMMANDS, INTEGER, line_for, options_of
from frontends.http_limits import MOST_PER_ADDRESS
from frontends.web import INTERACTIONS_PATH, DiscordEndpoint, start_web, web_app
from game.addressing import Addressee
from tests.databases import write_lock_held
from tests.discord_server import FakeDiscord, Signer, discord_server, interaction
from tests.ssh_pool import ServedPool, answering, offline_commentator, served_pool

ANA = "80351110224678912"  # Discord user ids: snowflakes, as text
BRUNO = "80351110224678913"
EPHEMERAL = 64
SUPPRESS_EMBEDS = 4  # every message the pool sends: no link previews
PRIVATE = EPHEMERAL | SUPPRESS_EMBEDS
ESCAPED = re.compile(r"\\([^\w\s])")


def shown(content: str) -> str:
    """A message as Discord shows it: a backslash before punctuation is not printed."""
    return ESCAPED.sub(r"\1", content)


@dataclass
class Companion:
    served: ServedPool
    discord: FakeDiscord
    signer: Signer
    interactions: Interactions
    client: httpx.AsyncClient

    async def send(self, body: bytes, headers: dict[str, str] | None = None) -> httpx.Response:
        signed = self.signer.headers(body) if headers is None else headers
        return await self.client.post(INTERACTIONS_PATH, content=body, headers=signed)

    async def slash(self, name: str, user: str = ANA, **options: object) -> dict[str, Any]:
        response = await self.send(interaction(name, user, **options))
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer

    async def link(self, handle: str, user: str) -> None:
        done = await self.served.run(handle, "link discord")
        code = done.stdout.split("your code: ")[1].split()[0]
        answer = await self.slash("link", user, code=code)
        assert answer["data"]["content"] == f"linked: here you play as {handle}"


@asynccontextmanager
async def companion(tmp_path: Path, answer_wait: float = 5.0) -> AsyncIterator[Companion]:
    async with served_pool(tmp_path) as served, discord_server() as discord:
        signer = Signer()
        api = DiscordApi(discord.base_url)
        interactions = Interactions(served.frontend, api, "app42", answer_wait=answer_wait)
        verifier = Verifier(signer.public_key_hex, SeenSignatures(served.pool.engine))
        endpoint = DiscordEndpoint(verifier, interactions)
        server = await start_web(web_app(endpoint), "127.0.0.1", 0)
        base = f"http://127.0.0.1:{server.port}"
        try:
            # Discord calls from many addresses; this one client stays within what the
            # HTTP side lets one address hold open (frontends.http_limits).
            held = httpx.Limits(max_connections=MOST_PER_ADDRESS // 2)
            async with httpx.AsyncClient(base_url=base, timeout=10, limits=held) as client:
                yield Companion(served, discord, signer, interactions, client)
        finally:
            await interactions.close()
            await server.close()
            await api.close()


def run(scenario: Any) -> None:
    asyncio.run(scenario())


def test_discord_checks_the_endpoint_with_a_ping_and_gets_a_pong(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with companion(tmp_path) as c:
            body = json.dumps(
                {"id": "1", "application_id": "app42", "type": 1, "token": "t", "version": 1}
            ).encode()
            response = await c.send(body)
            assert (response.status_code, response.json()) == (200, {"type": 1})

    run(scenario)


def test_unsigned_forged_stale_and_replayed_requests_get_401_and_do_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with companion(tmp_path) as c:
            c.served.player("ana")
            await c.link("ana", ANA)
            bet = interaction("bet", ANA, match=1, score="2-1")
            unsigned = await c.send(bet, headers={"Content-Type": "application/json"})
            forged = await c.send(bet, headers=Signer().headers(bet))  # someone else's key
            tampered_headers = c.signer.headers(bet)
            tampered = await c.send(bet.replace(b"2-1", b"9-0"), headers=tampered_headers)
            stale = await c.send(bet, headers=c.signer.headers(bet, int(time.time()) - 301))
            garbage = await c.send(
                bet, headers={"X-Signature-Ed25519": "zz", "X-Signature-Timestamp": "soon"}
            )
            assert [r.status_code for r in (unsigned, forged, tampered, stale, garbage)] == [
                401
            ] * 5
            assert c.served.pool.predictions_of("ana") == []

            once = c.signer.headers(bet)
            first = await c.send(bet, headers=once)
            replayed = await c.send(bet, headers=once)
            assert (first.status_code, replayed.status_code) == (200, 401)
            assert [str(p.score) for p in c.served.pool.predictions_of("ana")] == ["2-1"]

    run(scenario)


def test_oversized_and_malformed_bodies_are_refused_in_one_answer(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with companion(tmp_path) as c:
            huge = b'{"type": 1, "pad": "' + b"x" * 1_000_000 + b'"}'
            assert (await c.send(huge)).status_code == 413
            assert (await c.send(b"{not json")).status_code == 400
            assert (await c.send(b"[" * 100_000)).status_code in (400, 413)
            assert (await c.send(b"[" * 50_000 + b"]" * 50_000)).status_code in (400, 413)
            deep = b"[" * 20_000 + b"]" * 20_000  # under the size limit, past Python's depth
            assert (await c.send(deep)).status_code == 400
            assert (await c.send(b'"a string"')).json()["data"]["flags"] == PRIVATE
            # The pool still answers.
            ping = json.dumps({"type": 1, "token": "t"}).encode()
            assert (await c.send(ping)).json() == {"type": 1}

    run(scenario)


def test_a_player_links_discord_with_a_one_time_code_made_over_ssh(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with companion(tmp_path) as c:
            c.served.player("ana")
            c.served.player("bruno")
            stranger = await c.slash("mybets", BRUNO)
            assert stranger["data"]["flags"] == PRIVATE
            assert "not linked to a pool player yet" in stranger["data"]["content"]
            assert "link discord" in stranger["data"]["content"]

            made = await c.served.run("ana", "link discord")
            assert made.exit_status == 0
            code = made.stdout.split("your code: ")[1].split()[0]
            linked = await c.slash("link", ANA, code=code)
            assert linked["data"] == {
                "content": "linked: here you play as ana",
                "allowed_mentions": {"parse": []},
                "flags": PRIVATE,
            }
            # Single use: bruno cannot take ana's code, even right after.
            again = await c.slash("link", BRUNO, code=code)
            assert again["data"]["content"] == "that link code is not valid"
            assert c.served.pool.members.linked_player("discord", BRUNO) is None

            # A code expires in 15 minutes.
            late = (
                (await c.served.run("bruno", "link discord"))
                .stdout.split("your code: ")[1]
                .split()[0]
            )
            c.served.clock.advance(minutes=16)
            expired = await c.slash("link", BRUNO, code=late)
            assert (
                expired["data"]["content"] == "that link code has expired; make a new one over SSH"
            )
            assert [e.event.player for e in c.served.pool.events(kinds=("account_linked",))] == [
                "ana"
            ]

            # Linking another account moves the link: the first one acts as nobody now.
            await c.link("ana", BRUNO)
            assert c.served.pool.members.linked_player("discord", ANA) is None
            assert "not linked" in (await c.slash("mybets", ANA))["data"]["content"]

    run(scenario)


def test_slash_commands_act_as_the_linked_player_through_the_same_parser(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with companion(tmp_path) as c:
            c.served.player("ana")
            await c.link("ana", ANA)
            placed = await c.slash("bet", ANA, match=1, score="2-1")
            assert placed["type"] == 4
            assert placed["data"]["flags"] == PRIVATE
            assert placed["data"]["content"].endswith("your pick is 2-1")
            over_ssh = await c.served.run("ana", "mybets")
            assert "2-1" in over_ssh.stdout

            mine = await c.slash("mybets", ANA)
            assert mine["data"]["content"].startswith("```\n") and "2-1" in mine["data"]["content"]
            fixtures = await c.slash("matches", ANA)
            assert fixtures["data"]["flags"] == PRIVATE  # it shows her picks
            assert "Brazil" in fixtures["data"]["content"] and "2-1" in fixtures["data"]["content"]
            one = await c.slash("match", ANA, number=1)
            assert one["data"]["content"].startswith("```\n#1 Brazil v Serbia")
            assert "yours: 2-1" in one["data"]["content"]
            table = await c.slash("standings", ANA)
            assert table["data"]["flags"] == SUPPRESS_EMBEDS  # the table is for the channel
            assert "ana" in table["data"]["content"]

            bad = await c.slash("bet", ANA, match=1, score="lots")
            assert bad["data"]["flags"] == PRIVATE
            over_ssh_error = await c.served.run("ana", "bet 1 lots")
            assert (
                shown(bad["data"]["content"]) == over_ssh_error.stderr.strip()
            )  # the same one line
            unknown = await c.slash("rm", ANA)
            assert unknown["data"]["content"] == "unknown command 'rm'"
            extra = await c.slash("mybets", ANA, all="yes")
            assert extra["data"]["content"] == "unknown option 'all'"
            wrong_type = await c.send(interaction("bet", ANA, match="1; quit", score="2-1"))
            assert wrong_type.json()["data"]["content"] == "bad value for 'match'"
            missing = await c.slash("match", ANA)
            assert missing["data"]["content"] == "missing option 'number'"

    run(scenario)


def test_a_flood_of_slash_commands_meets_the_same_per_player_limit_as_ssh(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with companion(tmp_path) as c:
            c.served.player("ana")
            await c.link("ana", ANA)
            # Sixty at once: at 10 a second after a burst of 20, some must be refused.
            answers = await asyncio.gather(*(c.slash("mybets", ANA) for _ in range(60)))
            refused = [a for a in answers if "too many commands" in a["data"]["content"]]
            assert refused and all(a["data"]["flags"] == PRIVATE for a in refused)
            # Codes cannot be guessed by flood either: an unlinked account has a budget too.
            guesses = [c.slash("link", BRUNO, code=f"aaaa-{n:04d}") for n in range(60)]
            answers = await asyncio.gather(*guesses)
            assert any("too many commands" in a["data"]["content"] for a in answers)

    run(scenario)


def test_a_question_to_her_is_deferred_and_her_answer_replaces_the_thinking(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with companion(tmp_path, answer_wait=10.0) as c:
            c.served.player("ana")
            await c.link("ana", ANA)
            async with answering(offline_commentator(c.served.pool)):
                body = interaction("ask", ANA, token="ask-token", text="quem está na *frente*?")
                deferred = (await c.send(body)).json()
                assert deferred["type"] == 5  # "thinking...", within Discord's three seconds
                async with asyncio.timeout(15):
                    while "ask-token" not in c.discord.edits:
                        await asyncio.sleep(0.05)
            edited = c.discord.edits["ask-token"]
            question, answer = edited["content"].split("\n", 1)
            assert question == "ana: quem está na \\*frente\\*?"
            assert answer.startswith("BETanIA: ") and len(answer) > len("BETanIA: ")
            assert edited["allowed_mentions"] == {"parse": []}
            # Asked in the pool's chat too: the SSH players saw the question and her answer.
            chat = [e.event.text for e in c.served.pool.events(kinds=("chat",))]
            assert chat == ["@betania quem está na *frente*?"]

    run(scenario)


def test_a_long_answer_goes_in_parts_as_follow_ups(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with companion(tmp_path) as c:
            c.served.player("ana")
            for n in range(120):  # a table longer than one Discord message
                c.served.pool.members.add(f"player{n:03d}", f"Player number {n}")
            await c.link("ana", ANA)
            first = await c.slash("standings", ANA, token="long-token")
            assert len(first["data"]["content"]) <= 2000
            async with asyncio.timeout(10):
                while not c.discord.follow_ups or c.interactions.pending:
                    await asyncio.sleep(0.05)
            parts = [first["data"]["content"]] + [m["content"] for _, m in c.discord.follow_ups]
            assert all(p.startswith("```\n") and p.endswith("\n```") for p in parts)
            shown = "".join(p[4:-4] + "\n" for p in parts)
            assert all(f"player{n:03d}" in shown for n in range(120))
            assert {token for token, _ in c.discord.follow_ups} == {"long-token"}

    run(scenario)


def test_a_bet_held_up_by_a_lock_elsewhere_is_deferred_then_confirmed(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with companion(tmp_path) as c:
            c.served.player("ana")
            await c.link("ana", ANA)
            c.interactions.patience = 0.5
            url = c.served.pool.engine.url.render_as_string(hide_password=False)
            body = interaction("bet", ANA, token="slow-token", match=1, score="3-1")
            with write_lock_held(url):  # a backup, a console command: the write must wait
                answer = (await c.send(body)).json()
                assert answer == {"type": 5, "data": {"flags": PRIVATE}}  # within Discord's 3 s
                await asyncio.sleep(1.0)
            async with asyncio.timeout(10):
                while "slow-token" not in c.discord.edits:
                    await asyncio.sleep(0.05)
            assert c.discord.edits["slow-token"]["content"].endswith("your pick is 3-1")
            assert [str(p.score) for p in c.served.pool.predictions_of("ana")] == ["3-1"]

    run(scenario)


def test_in_a_direct_message_the_user_is_read_from_the_top_level(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with companion(tmp_path) as c:
            c.served.player("ana")
            await c.link("ana", ANA)
            in_server = json.loads(interaction("bet", ANA, match=2, score="0-0"))
            direct = {k: v for k, v in in_server.items() if k not in ("member", "guild_id")}
            direct["user"] = in_server["member"]["user"]  # Discord's shape outside a server
            answer = (await c.send(json.dumps(direct).encode())).json()
            assert answer["data"]["content"].endswith("your pick is 0-0")
            nobody = {**direct, "user": {"id": "not-a-snowflake"}}
            refused = (await c.send(json.dumps(nobody).encode())).json()
            assert refused["data"]["content"] == "that is not a command this pool knows"

    run(scenario)


def test_a_discord_name_changed_taken_or_removed_changes_nothing(tmp_path: Path) -> None:
    """Links are by Discord's user id: names are never read, so renaming an account,
    dropping its display name, or someone else taking the old name moves nothing."""

    async def scenario() -> None:
        async with companion(tmp_path) as c:
            c.served.player("ana")
            await c.link("ana", ANA)

            def as_user(user: dict[str, object], **options: object) -> bytes:
                body = json.loads(interaction("bet", ANA, **options))
                body["member"]["user"] = user
                return json.dumps(body).encode()

            renamed = {"id": ANA, "username": "ana_renamed", "global_name": None}
            answer = (await c.send(as_user(renamed, match=1, score="1-0"))).json()
            assert answer["data"]["content"].endswith("your pick is 1-0")
            impostor = {"id": BRUNO, "username": "someone", "global_name": "ana"}
            refused = (await c.send(as_user(impostor, match=1, score="9-9"))).json()
            assert "not linked" in refused["data"]["content"]
            assert [str(p.score) for p in c.served.pool.predictions_of("ana")] == ["1-0"]

    run(scenario)


# Discord's documented limits for a chat input command and its options
# (discord.com/developers/docs/interactions/application-commands).
SLASH_NAME = re.compile(r"^[-_\w]{1,32}$")


def test_every_slash_command_made_from_the_table_keeps_discords_limits() -> None:
    assert 0 < len(COMMANDS) <= 100
    assert len({c["name"] for c in COMMANDS}) == len(COMMANDS)
    for command in COMMANDS:
        named = [command, *command.get("options", [])]
        for item in named:
            assert SLASH_NAME.match(item["name"]) and item["name"] == item["name"].lower(), item
            assert 1 <= len(item["description"]) <= 100, item["name"]
        options = command.get("options", [])
        assert len(options) <= 25 and len({o["name"] for o in options}) == len(options)
        required = [o["required"] for o in options]
        assert required == sorted(required, reverse=True), command["name"]  # required first
        for option in options:
            assert len(option.get("choices", [])) <= 25
            assert all(1 <= len(c["name"]) <= 100 for c in option.get("choices", []))
            assert option.get("max_length", 1) >= 1 and option.get("min_value", 0) >= 0


def _sample(option: dict[str, Any]) -> object:
    """A value Discord would send for ``option``."""
    if option["type"] == INTEGER:
        return 1
    return option["choices"][0]["value"] if "choices" in option else "x"


def test_each_slash_command_is_the_line_of_its_own_command() -> None:
    """From the table: a slash command's line, every option given, runs the command it was
    made from (``/ask`` addresses her, as a chat line does)."""
    her = Addressee()
    for command in COMMANDS:
        sent = [{"name": o["name"], "value": _sample(o)} for o in command.get("options", [])]
        line = line_for(command["name"], options_of(command["name"], sent), her)
        first = line.split()[0]
        spec = BY_NAME["say"] if first == her.mention else BY_NAME[first]
        assert spec.slash is not None and (spec.slash.name or spec.names[0]) == command["name"]
        assert spec.slash.description == command["description"]
    standings = options_of("standings", [{"name": "day", "value": "2026-06-14"}])
    assert line_for("standings", standings, her) == "standings day 2026-06-14"
    assert line_for("ask", {"text": "who leads?"}, her) == "@betania who leads?"
    assert line_for("unlink", {}, her) == "unlink discord"


def test_a_slash_standings_asked_two_tables_at_once_is_told_the_usage(tmp_path: Path) -> None:
    """Over SSH ``standings after 1 day 2026-06-11`` is refused with the usage; Discord's
    ``/standings after:1 day:...`` once answered the day alone, silently."""

    async def scenario() -> None:
        async with companion(tmp_path) as c:
            c.served.player("ana")
            await c.link("ana", ANA)
            both = await c.slash("standings", ANA, after=1, day="2026-06-11")
            assert "usage: standings" in shown(both["data"]["content"])
            assert both["data"]["flags"] == PRIVATE

    run(scenario)
