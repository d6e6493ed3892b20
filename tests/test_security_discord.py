"""Issue 36, "Discord, smaller": the attacks on the Discord companion, each reproduced.

- A captured, signed ``/bet`` replayed after a restart (or to another process on the
  same database) within its five minutes: it was accepted, since the signatures seen
  lived in the process.
- A link code taken by someone else: the player was not told, could not see the
  link, and could not remove it.
- Links in the pool's messages unfurled into previews on Discord (no DISCORD_SUPPRESS_EMBEDS).
- A long message cut at 2,000 characters could part an escape from what it escapes,
  or start the next message with markdown that was mid-line when it was escaped.

What held stays tested too: stale and replayed requests within a run, legitimate use.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from frontends.discord.api import DiscordApi
from frontends.discord.messages import CONTENT_LIMIT, escape, escaped_parts
from frontends.discord.poster import WebhookPoster
from frontends.discord.signature import (
    MAX_AGE,
    SeenSignatures,
    SignatureError,
    Verifier,
)
from frontends.notices import Notices
from frontends.ssh.frontend import ServerConfig
from game.db.engine import open_database
from game.db.schema import seen_signatures
from game.model import Score
from game.pool import Pool
from tests.conftest import FakeClock
from tests.databases import write_lock_held
from tests.discord_server import Signer, discord_server, interaction
from tests.serve_process import line_with, prepare_pool, serving
from tests.ssh_pool import read_until, served_pool
from tests.test_discord import ANA, BRUNO, companion
from tests.test_front_ends import TWO_MATCHES

DISCORD_SUPPRESS_EMBEDS = 1 << 2  # Discord's message flag: no link previews
DISCORD_MALLORY = "80351110224678999"  # a Discord user who got hold of ana's link code


def _discord_verifier(
    url: str, signer: Signer, clock: Callable[[], float] = time.time
) -> tuple[Verifier, Pool]:
    """A verifier as a fresh ``serve`` builds one: its own engine on the database."""
    pool = Pool(open_database(url))
    return Verifier(signer.public_key_hex, SeenSignatures(pool.engine), clock), pool


async def _discord_outcome(verifier: Verifier, headers: dict[str, str], body: bytes) -> str:
    try:
        await verifier.check(headers, body)
    except SignatureError as error:
        return str(error)
    return "accepted"


# -- replays: the seen signatures outlive a restart ------------------------------------


def test_a_bet_replayed_to_a_restarted_server_within_its_window_is_refused(
    tmp_path: Path, database_url: str
) -> None:
    """The attack: a captured /bet (body and signature headers) sent again after `serve`
    restarts, within Discord's five minutes. Before: 200, and ana's pick set back."""
    prepare_pool(database_url, TWO_MATCHES, "ana")
    console = Pool(open_database(database_url))
    console.members.link_account("discord", ANA, console.members.create_link_code("ana", "discord"))
    signer = Signer()
    env = {"DISCORD_PUBLIC_KEY": signer.public_key_hex, "DISCORD_APPLICATION_ID": "app42"}

    async def post_once(body: bytes, headers: dict[str, str]) -> httpx.Response:
        async with serving(tmp_path, database_url, "--http-port", "0", env=env) as (server, _):
            assert server.stdout is not None
            said = await line_with(server.stdout, "Discord interactions at ")
            url = said.split(" at ")[1].strip()
            async with httpx.AsyncClient(timeout=10) as client:
                return await client.post(url, content=body, headers=headers)
        # leaving ``serving`` kills the process: the next call is a new server

    async def scenario() -> None:
        bet = interaction("bet", ANA, match=1, score="2-1")
        captured = signer.headers(bet)
        first = await post_once(bet, captured)
        assert first.status_code == 200
        assert first.json()["data"]["content"].endswith("your pick is 2-1")
        console.predictions.place("ana", 1, Score(0, 0))  # she changes her mind
        replayed = await post_once(bet, captured)
        assert replayed.status_code == 401, replayed.text
        assert [str(p.score) for p in console.predictions_of("ana")] == ["0-0"]
        # The server still takes Discord's new requests.
        fresh = interaction("bet", ANA, match=2, score="1-1")
        assert (await post_once(fresh, signer.headers(fresh))).status_code == 200

    try:
        asyncio.run(scenario())
    finally:
        console.engine.dispose()


def test_two_servers_racing_for_one_signature_accept_it_once(database_url: str) -> None:
    """The same signed request sent at once to two processes on one database: the
    database's key decides, so one accepts and the other refuses, every time."""
    signer = Signer()
    (first, first_pool), (second, second_pool) = (
        _discord_verifier(database_url, signer),
        _discord_verifier(database_url, signer),
    )

    async def scenario() -> list[list[str]]:
        outcomes = []
        for _ in range(20):
            body = interaction("bet", ANA, match=1, score="2-1")
            headers = signer.headers(body)
            outcomes.append(
                sorted(
                    await asyncio.gather(
                        _discord_outcome(first, headers, body),
                        _discord_outcome(second, headers, body),
                    )
                )
            )
        return outcomes

    try:
        outcomes = asyncio.run(scenario())
    finally:
        first_pool.engine.dispose()
        second_pool.engine.dispose()
    assert outcomes == [["accepted", "replayed request"]] * 20


def test_past_its_window_a_replay_is_stale_and_its_row_is_pruned(database_url: str) -> None:
    """After five minutes a replay is refused for its age (what held), and the row
    that remembered it goes with the next signature taken."""
    signer = Signer()
    now = [time.time()]
    verifier, pool = _discord_verifier(database_url, signer, lambda: now[0])

    def remembered() -> list[str]:
        with pool.engine.connect() as connection:
            return list(connection.execute(select(seen_signatures.c.signature)).scalars())

    async def scenario() -> None:
        body = interaction("bet", ANA, match=1, score="2-1")
        headers = signer.headers(body, int(now[0]))
        assert await _discord_outcome(verifier, headers, body) == "accepted"
        assert remembered() == [headers["X-Signature-Ed25519"]]
        assert await _discord_outcome(verifier, headers, body) == "replayed request"

        now[0] += MAX_AGE + 1
        restarted, restarted_pool = _discord_verifier(database_url, signer, lambda: now[0])
        try:
            assert await _discord_outcome(restarted, headers, body) == "stale signature"
            later = interaction("matches", ANA)
            later_headers = signer.headers(later, int(now[0]))
            assert await _discord_outcome(restarted, later_headers, later) == "accepted"
            assert remembered() == [later_headers["X-Signature-Ed25519"]]  # the old one pruned
        finally:
            restarted_pool.engine.dispose()

    try:
        asyncio.run(scenario())
    finally:
        pool.engine.dispose()


def test_with_the_database_locked_a_request_is_still_answered_and_remembered_later(
    database_url: str,
) -> None:
    """A backup holding the write lock: the request is decided by the process's memory
    within SEEN_WAIT (Discord waits three seconds), replays in this run are refused, and
    once the lock goes the signature lands in the database for every other process."""
    signer = Signer()
    verifier, pool = _discord_verifier(database_url, signer)
    verifier.wait = 0.3
    body = interaction("bet", ANA, match=1, score="2-1")
    headers = signer.headers(body)

    async def scenario() -> float:
        with write_lock_held(database_url):
            started = time.monotonic()
            assert await _discord_outcome(verifier, headers, body) == "accepted"
            took = time.monotonic() - started
            assert await _discord_outcome(verifier, headers, body) == "replayed request"
        async with asyncio.timeout(10):
            while not _discord_seen_rows(pool):  # SQLite: the claim waited for the lock
                await asyncio.sleep(0.05)
        other, other_pool = _discord_verifier(database_url, signer)
        try:
            assert await _discord_outcome(other, headers, body) == "replayed request"
        finally:
            other_pool.engine.dispose()
        return took

    try:
        took = asyncio.run(scenario())
    finally:
        pool.engine.dispose()
    assert took < 1.0, took


def _discord_seen_rows(pool: Pool) -> int:
    with pool.engine.connect() as connection:
        return len(connection.execute(select(seen_signatures.c.signature)).all())


# -- links: seen, told, removed ----------------------------------------------------------


def test_a_link_made_with_a_taken_code_is_told_shown_and_undone(tmp_path: Path) -> None:
    """The attack: mallory reads ana's link code off her screen and links his Discord
    account first. Before: ana was never told, `link discord` showed nothing, and there
    was no unlink. Now her open session hears it with his name, `link discord` shows
    it, and `desvincular discord` ends it: his next /bet is refused."""

    async def scenario() -> None:
        async with companion(tmp_path) as c:
            c.served.player("ana")
            c.served.player("bruno")
            async with c.served.connect("ana") as ana, c.served.connect("bruno") as bruno:
                hers = await ana.create_process()
                his = await bruno.create_process()
                await read_until(hers.stdout, "Type help")
                await read_until(his.stdout, "Type help")

                made = await c.served.run("ana", "link discord")
                assert made.stdout.startswith("no discord account is linked to you yet\n")
                code = made.stdout.split("your code: ")[1].split()[0]
                body = json.loads(interaction("link", DISCORD_MALLORY, code=code))
                body["member"]["user"]["username"] = "mallory\x1b[2J"  # his name, hostile
                taken = await c.send(json.dumps(body).encode())
                assert taken.json()["data"]["content"] == "linked: here you play as ana"

                told = await read_until(hers.stdout, "Not you? Type unlink discord")
                assert f"your discord account is now mallory ({DISCORD_MALLORY})" in told
                assert "\x1b" not in told  # his name reaches her terminal as text
                his.stdin.write("say hi\n")
                heard = await read_until(his.stdout, "bruno: hi")
                assert DISCORD_MALLORY not in heard and "mallory" not in heard  # hers alone

                shown = await c.served.run("ana", "link discord")
                assert shown.stdout.startswith(f"linked now: mallory ({DISCORD_MALLORY}), since ")
                assert "unlink discord removes it" in shown.stdout
                as_json = json.loads((await c.served.run("ana", "link discord --json")).stdout)
                assert as_json["linked"]["account"] == DISCORD_MALLORY
                assert as_json["linked"]["name"] == "mallory"
                assert as_json["service"] == "discord" and len(as_json["code"]) == 9

                undone = await c.served.run("ana", "desvincular discord")
                assert undone.stdout.strip() == (
                    f"discord account mallory ({DISCORD_MALLORY}) no longer plays as you"
                )
                refused = await c.slash("bet", DISCORD_MALLORY, match=1, score="9-0")
                assert "not linked to a pool player yet" in refused["data"]["content"]
                assert c.served.pool.predictions_of("ana") == []
                again = await c.served.run("ana", "unlink discord")
                assert again.exit_status != 0
                assert "no discord account is linked to you" in again.stderr + again.stdout
                other = await c.served.run("ana", "unlink slack")
                assert "unlink what? one of: discord" in other.stderr + other.stdout
                assert [e.event.kind for e in c.served.pool.events(kinds=("account_unlinked",))]

                # Her own account, linked the right way, unlinks itself from Discord too.
                await c.link("ana", ANA)
                await read_until(hers.stdout, f"your discord account is now someone ({ANA})")
                gone = await c.slash("unlink", ANA)
                assert gone["data"]["content"] == (
                    f"discord account someone ({ANA}) no longer plays as you"
                )
                await read_until(hers.stdout, f"discord account {ANA} no longer plays as you")
                assert c.served.pool.members.linked_player("discord", ANA) is None
                for process in (hers, his):
                    process.stdin.write("quit\n")

    asyncio.run(scenario())


def test_link_and_unlink_are_told_in_the_pools_language(tmp_path: Path) -> None:
    async def scenario() -> None:
        config = ServerConfig(port=0, language="pt")
        async with served_pool(tmp_path, config) as served:
            served.player("ana")
            async with served.connect("ana") as ana:
                hers = await ana.create_process()
                await read_until(hers.stdout, "Digite ajuda")
                made = await served.run("ana", "vincular discord")
                assert made.stdout.startswith(
                    "nenhuma conta do discord está vinculada a você ainda\nseu código: "
                )
                code = made.stdout.split("seu código: ")[1].split()[0]
                members = served.pool.members
                await asyncio.to_thread(
                    members.link_account, "discord", DISCORD_MALLORY, code, "mallory"
                )
                told = await read_until(hers.stdout, "Digite desvincular discord")
                assert f"sua conta do discord agora é mallory ({DISCORD_MALLORY})" in told
                undone = await served.run("ana", "desvincular discord")
                assert undone.stdout.strip() == (
                    f"a conta do discord mallory ({DISCORD_MALLORY}) não joga mais como você"
                )
                missing = await served.run("ana", "desvincular discord")
                assert "nenhuma conta do discord está vinculada a você" in missing.stderr + (
                    missing.stdout
                )
                hers.stdin.write("sair\n")

    asyncio.run(scenario())


# -- messages: no link previews ------------------------------------------------------------


def test_every_message_the_pool_sends_suppresses_link_embeds(
    tmp_path: Path, tournament_pool: Pool, clock: FakeClock
) -> None:
    """A remark with a URL posted through the webhook, and an interaction's answers
    (immediate, deferred then edited, follow-ups): each carries DISCORD_SUPPRESS_EMBEDS, as the
    local Discord receives them. Before: no flags on posts (the link unfurled)."""
    pool = tournament_pool
    pool.members.add("betania", "BETanIA", via="bot")

    async def scenario() -> None:
        async with discord_server() as discord:
            api = DiscordApi(discord.base_url)
            try:
                poster = WebhookPoster(pool, api, discord.webhook_url(), Notices(pool))
                await poster.catch_up()
                pool.talk.remark("betania", "see https://evil.example/x.png", trigger=1)
                assert await poster.catch_up() == 1
            finally:
                await api.close()
            post = discord.posts[0]
            assert "https://evil.example/x.png" in post["content"]
            assert post["flags"] & DISCORD_SUPPRESS_EMBEDS

    asyncio.run(scenario())

    async def answers() -> None:
        async with companion(tmp_path / "answers") as c:
            c.served.player("ana")
            for n in range(120):  # a table longer than one message: follow-ups
                c.served.pool.members.add(f"player{n:03d}", f"https://x.example/{n}")
            await c.link("ana", ANA)
            now = await c.slash("standings", ANA, token="long-token")
            assert now["data"]["flags"] & DISCORD_SUPPRESS_EMBEDS
            c.interactions.patience = 0.3
            url = c.served.pool.engine.url.render_as_string(hide_password=False)
            body = interaction("bet", ANA, token="slow-token", match=1, score="3-1")
            with write_lock_held(url):
                deferred = (await c.send(body)).json()
                await asyncio.sleep(0.6)
            assert deferred["type"] == 5 and deferred["data"]["flags"] & DISCORD_SUPPRESS_EMBEDS
            async with asyncio.timeout(10):
                while "slow-token" not in c.discord.edits or c.interactions.pending:
                    await asyncio.sleep(0.05)
            assert c.discord.edits["slow-token"]["flags"] & DISCORD_SUPPRESS_EMBEDS
            assert c.discord.follow_ups
            assert all(m["flags"] & DISCORD_SUPPRESS_EMBEDS for _, m in c.discord.follow_ups)
            unlinked = await c.slash("mybets", BRUNO)
            assert unlinked["data"]["flags"] & DISCORD_SUPPRESS_EMBEDS

    (tmp_path / "answers").mkdir()
    asyncio.run(answers())


# -- splitting: an escape is never cut ------------------------------------------------------

DISCORD_INLINE_MARK = re.compile(r"[*_~`|\[\]<@]")
DISCORD_LINE_MARK = re.compile(r"^\s*(?:[#>+-]|\d+\.)")


def _discord_reads_markdown_in(part: str) -> str | None:
    """What in ``part`` Discord would read as markdown or a dangling escape; None if nothing."""
    plain = []
    index = 0
    while index < len(part):
        char = part[index]
        if char == "\\":
            if index + 1 == len(part):
                return "a backslash escaping nothing at the end"
            plain.append("\0")  # an escaped character: literal
            index += 2
            continue
        if DISCORD_INLINE_MARK.match(char):
            return f"an unescaped {char!r}"
        plain.append(char)
        index += 1
    for line in "".join(plain).split("\n"):
        if DISCORD_LINE_MARK.match(line):
            return f"a line starting with markdown: {line[:10]!r}"
    return None


def _discord_letters(text: str) -> str:
    """Everything written but the blanks: a cut may fall on a line break or drop a blank part."""
    return re.sub(r"\s", "", text)


def _discord_shown_text(part: str) -> str:
    return re.sub(r"\\(.)", r"\1", part, flags=re.DOTALL)


@pytest.mark.parametrize("limit", [12, 13, 17, 40])
def test_no_cut_parts_an_escape_at_any_position(limit: int) -> None:
    """Every offset of escapable characters against every cut: each message is at most
    the limit, reads as plain text (no dangling backslash, no markdown at a message's
    or a line's start), and the messages together show exactly what was written."""
    marks = "*\\_#1.>-`|<@ "
    checked = 0
    for pad in range(limit + 2):
        for mark in marks:
            for tail in ("# head", "1. one", "- item", "\\\\x", "**b**"):
                text = "a" * pad + mark * 3 + " " + tail + "\nb" + mark + "c" * pad
                parts = escaped_parts(text, limit)
                assert all(len(p) <= limit for p in parts), (text, parts)
                for part in parts:
                    assert _discord_reads_markdown_in(part) is None, (text, part)
                shown = "".join(_discord_shown_text(p) for p in parts)
                assert _discord_letters(shown) == _discord_letters(text), (text, parts)
                checked += 1
    assert checked == (limit + 2) * len(marks) * 5


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet="ab *_~`|[]<@\\#>+-1. \n", max_size=300),
    limit=st.integers(min_value=8, max_value=60),
)
def test_any_text_cut_anywhere_reads_as_written(text: str, limit: int) -> None:
    parts = escaped_parts(text, limit)
    assert all(len(p) <= limit for p in parts)
    assert all(_discord_reads_markdown_in(p) is None for p in parts)
    assert _discord_letters("".join(_discord_shown_text(p) for p in parts)) == _discord_letters(
        text
    )
    assert len(parts) == 1 or all(p.strip() for p in parts)  # Discord refuses blank messages


def test_a_short_text_is_one_message_escaped_as_before() -> None:
    text = "ana: **2-1**\n# not a heading\n1. not a list"
    assert escaped_parts(text) == [escape(text)]
    assert escaped_parts("") == [""]


def test_a_long_remark_posted_to_the_channel_never_ends_a_message_mid_escape(
    tournament_pool: Pool,
) -> None:
    """End to end through the poster, the 2,000 cut placed on each side of an escape.
    Before: a message ended with a lone backslash, the next began with the raw mark."""
    pool = tournament_pool
    pool.members.add("betania", "BETanIA", via="bot")
    prefix = len("BETanIA: ")

    async def scenario() -> list[dict[str, object]]:
        async with discord_server() as discord:
            api = DiscordApi(discord.base_url)
            try:
                poster = WebhookPoster(pool, api, discord.webhook_url(), Notices(pool))
                await poster.catch_up()
                for shift in range(4):
                    filler = "a" * (CONTENT_LIMIT - prefix - 2 + shift)
                    pool.talk.remark("betania", f"{filler}*# heading ## more", trigger=shift)
                await poster.catch_up()
            finally:
                await api.close()
            return discord.posts

    posts = asyncio.run(scenario())
    assert len(posts) == 8
    for post in posts:
        content = str(post["content"])
        assert len(content) <= CONTENT_LIMIT
        assert _discord_reads_markdown_in(content) is None, content[-20:]
