"""The pool's news posted to a Discord channel through a webhook: in order, exactly
once across restarts, through rate limits, outages and a deleted webhook, against
a local server that speaks Discord's webhook API."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Awaitable, Callable

import pytest
from sqlalchemy import insert, select

from frontends.discord.api import DiscordApi, DiscordError
from frontends.discord.messages import escape, split
from frontends.discord.poster import WebhookPoster
from frontends.notices import Notices
from game.db.schema import log_cursors
from game.model import Goal, Result, Score
from game.pool import Pool
from game.words import Words
from tests.conftest import FakeClock, play
from tests.discord_server import FakeDiscord, discord_server
from tests.ssh_pool import offline_commentator


@pytest.fixture
def tournament_pool(tournament_pool: Pool) -> Pool:
    """The small tournament, three players and her."""
    tournament_pool.members.add("betania", "BETanIA", via="bot")
    return tournament_pool


def poster_for(pool: Pool, discord: FakeDiscord, api: DiscordApi) -> WebhookPoster:
    return WebhookPoster(pool, api, discord.webhook_url(), Notices(pool), idle=0.05, gone_pause=0.1)


def with_discord(scenario: Callable[[FakeDiscord, DiscordApi], Awaitable[None]]) -> None:
    async def main() -> None:
        async with discord_server() as discord:
            api = DiscordApi(discord.base_url)
            try:
                await scenario(discord, api)
            finally:
                await api.close()

    asyncio.run(main())


async def until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.02)


def contents(discord: FakeDiscord) -> list[str]:
    return [post["content"] for post in discord.posts]


def test_kickoffs_goals_results_and_her_remarks_reach_the_channel_in_order(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    pool = tournament_pool
    pool.talk.chat("ana", "before the companion existed")  # the past is not replayed

    async def scenario(discord: FakeDiscord, api: DiscordApi) -> None:
        poster = poster_for(pool, discord, api)
        assert await poster.catch_up() == 0
        clock.now = pool.match(1).kickoff
        pool.fixtures.kick_off(1)
        pool.talk.chat("ana", "@everyone **go** Brazil")  # chat stays in the pool
        pool.fixtures.record_goal(1, Goal("home", 12, 0, "Vini_Jr"))
        pool.talk.remark("betania", "ana's *hope* <@123> is alive", trigger=1)
        pool.predictions.place("bia", 2, Score(1, 0))  # a pick is nobody's news
        pool.fixtures.record_result(1, Result(Score(1, 0)))
        pool.fixtures.record_result(1, Result(Score(2, 0)))  # a correction
        assert await poster.catch_up() == 5
        assert await poster.catch_up() == 0  # nothing twice
        posted = contents(discord)
        assert posted[0] == "Kick-off! #1 Brazil v Serbia"
        assert posted[1].startswith("GOAL! #1 Brazil 1-0 Serbia (12' Vini\\_Jr)")
        assert posted[2] == "BETanIA: ana's \\*hope\\* \\<\\@123> is alive"
        assert posted[3].startswith("Full time: #1 Brazil 1-0 Serbia")
        assert posted[4].startswith("Correction: #1 Brazil 2-0 Serbia (was 1-0)")
        assert "Table:" in posted[4]  # the table it moved, once, on the last of the batch
        assert all(post["allowed_mentions"] == {"parse": []} for post in discord.posts)

    with_discord(scenario)


def test_a_burst_through_429s_arrives_whole_once_and_in_order(tournament_pool: Pool) -> None:
    pool = tournament_pool

    async def scenario(discord: FakeDiscord, api: DiscordApi) -> None:
        discord.limit_every, discord.retry_after = 3, 0.02
        poster = poster_for(pool, discord, api)
        await poster.catch_up()
        for n in range(30):
            pool.talk.remark("betania", f"remark {n}", trigger=100 + n)
        assert await poster.catch_up() == 30
        assert contents(discord) == [f"BETanIA: remark {n}" for n in range(30)]
        assert discord.limited >= 10 and api.rate_limited == discord.limited

    with_discord(scenario)


def test_an_empty_bucket_is_waited_out_before_discord_has_to_say_429(
    tournament_pool: Pool,
) -> None:
    pool = tournament_pool

    async def scenario(discord: FakeDiscord, api: DiscordApi) -> None:
        discord.bucket_every, discord.bucket_reset = 2, 0.2
        poster = poster_for(pool, discord, api)
        await poster.catch_up()
        for n in range(6):
            pool.talk.remark("betania", f"remark {n}", trigger=100 + n)
        started = asyncio.get_running_loop().time()
        await poster.catch_up()
        took = asyncio.get_running_loop().time() - started
        assert contents(discord) == [f"BETanIA: remark {n}" for n in range(6)]
        assert discord.limited == 0  # the headers said wait, and it waited
        assert took >= 2 * 0.2  # two empty buckets before the last post

    with_discord(scenario)


def test_a_request_that_times_out_is_tried_again_and_arrives_once(
    tournament_pool: Pool,
) -> None:
    pool = tournament_pool

    async def scenario(discord: FakeDiscord, _api: DiscordApi) -> None:
        impatient = DiscordApi(discord.base_url, timeout=0.3)
        try:
            poster = poster_for(pool, discord, impatient)
            await poster.catch_up()
            discord.hang, discord.hang_for = 2, 1.0
            for n in range(3):
                pool.talk.remark("betania", f"remark {n}", trigger=100 + n)
            await poster.catch_up()
            assert contents(discord) == [f"BETanIA: remark {n}" for n in range(3)]
        finally:
            await impatient.close()

    with_discord(scenario)


def test_the_daily_digest_reaches_the_channel(tournament_pool: Pool, clock: FakeClock) -> None:
    pool = tournament_pool
    commentator = offline_commentator(pool)

    async def scenario(discord: FakeDiscord, api: DiscordApi) -> None:
        poster = poster_for(pool, discord, api)
        await poster.catch_up()
        play(pool, clock, 1, "2-0")
        said = commentator.digest(pool.match(1).kickoff.date())
        assert said is not None
        await poster.catch_up()
        assert contents(discord)[-1] == f"BETanIA: {escape(said.text)}"

    with_discord(scenario)


def test_a_global_rate_limit_holds_every_request(tournament_pool: Pool) -> None:
    pool = tournament_pool

    async def scenario(discord: FakeDiscord, api: DiscordApi) -> None:
        discord.limit_every, discord.retry_after, discord.global_limit = 2, 0.3, True
        poster = poster_for(pool, discord, api)
        await poster.catch_up()
        for n in range(4):
            pool.talk.remark("betania", f"remark {n}", trigger=100 + n)
        started = asyncio.get_running_loop().time()
        await poster.catch_up()
        took = asyncio.get_running_loop().time() - started
        assert contents(discord) == [f"BETanIA: remark {n}" for n in range(4)]
        assert took >= 0.3 * discord.limited  # each global 429 waited its retry_after

    with_discord(scenario)


def test_an_outage_delays_posts_loses_none_and_a_restart_doubles_none(
    tournament_pool: Pool,
) -> None:
    pool = tournament_pool

    async def scenario(discord: FakeDiscord, api: DiscordApi) -> None:
        first = poster_for(pool, discord, api)
        await first.catch_up()
        pool.talk.remark("betania", "before the outage", trigger=1)
        await first.catch_up()
        discord.down_with = 502
        running = asyncio.get_running_loop().create_task(first.run())
        for n in range(3):
            pool.talk.remark("betania", f"during {n}", trigger=10 + n)
            first.wake()
        await until(lambda: discord.requests >= 4)  # trying, and failing
        assert contents(discord) == ["BETanIA: before the outage"]
        pool.talk.chat("ana", "the pool goes on meanwhile")
        await first.stop()  # the process stops during the outage
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running

        discord.down_with = None
        restarted = poster_for(pool, discord, api)  # a new process: the cursor is in the database
        await restarted.catch_up()
        assert contents(discord) == ["BETanIA: before the outage"] + [
            f"BETanIA: during {n}" for n in range(3)
        ]

    with_discord(scenario)


def test_a_discord_nobody_answers_is_said_as_such_and_the_console_hears_of_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """With the API unreachable, `discord commands` said "Discord answered 503" though
    nothing answered, and a poster retried in silence while its cursor stood still."""

    async def scenario() -> None:
        now = [0.0]

        async def sleep(seconds: float) -> None:
            now[0] += seconds

        closed = socket.socket()
        closed.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused
        port = closed.getsockname()[1]
        api = DiscordApi(f"http://127.0.0.1:{port}/api/v10", sleep=sleep, clock=lambda: now[0])
        try:
            with pytest.raises(DiscordError) as caught:
                await api.request("GET", "applications/1/commands")
        finally:
            await api.close()
            closed.close()
        said = str(caught.value)
        assert (
            said.startswith("Discord could not be reached: ConnectError") and "answered" not in said
        )
        assert said.endswith("s)") and "gave up after" in said and caught.value.status is None
        warned = [r.getMessage() for r in caplog.records if r.name == "betania.discord"]
        assert len(warned) == 1 and warned[0].startswith("Discord is not answering (ConnectError")

    asyncio.run(scenario())


def test_an_outage_is_told_on_the_console_once_and_its_end_too(
    tournament_pool: Pool, caplog: pytest.LogCaptureFixture
) -> None:
    pool = tournament_pool

    async def scenario(discord: FakeDiscord, api: DiscordApi) -> None:
        poster = poster_for(pool, discord, api)
        await poster.catch_up()
        discord.down_with = 502
        running = asyncio.get_running_loop().create_task(poster.run())
        pool.talk.remark("betania", "in the outage", trigger=1)
        poster.wake()
        await until(lambda: discord.requests >= 3)
        discord.down_with = None
        await until(lambda: len(discord.posts) == 1)
        await poster.stop()
        await running
        told = [r.getMessage() for r in caplog.records if r.name == "betania.discord"]
        assert len(told) == 2
        assert told[0].startswith("Discord is not answering (it answered 502)")
        assert told[1].startswith("Discord answers again, after")

    with_discord(scenario)


@pytest.mark.parametrize("status", [404, 403, 401])
def test_a_deleted_webhook_is_told_once_and_the_posts_wait(
    tournament_pool: Pool, caplog: pytest.LogCaptureFixture, status: int
) -> None:
    pool = tournament_pool

    async def scenario(discord: FakeDiscord, api: DiscordApi) -> None:
        poster = poster_for(pool, discord, api)
        await poster.catch_up()
        discord.down_with = status
        running = asyncio.get_running_loop().create_task(poster.run())
        pool.talk.remark("betania", "into the void?", trigger=1)
        poster.wake()
        await until(lambda: discord.requests >= 3)  # tried again after each pause
        told = [r for r in caplog.records if f"webhook answers {status}" in r.getMessage()]
        assert len(told) == 1 and told[0].levelno == logging.ERROR
        pool.talk.chat("ana", "still playing")  # the pool is not held up
        discord.down_with = None  # (a new webhook, in real life)
        await until(lambda: len(discord.posts) == 1)
        await poster.stop()
        await running
        assert contents(discord) == ["BETanIA: into the void?"]

    with_discord(scenario)


def test_long_text_is_split_at_line_boundaries_within_discords_limit() -> None:
    lines = [f"line {n}: " + "x" * 90 for n in range(50)]  # about 5,000 characters
    parts = split("\n".join(lines))
    assert len(parts) == 3 and all(len(p) <= 2000 for p in parts)
    assert "\n".join(parts).split("\n") == lines  # every line whole, in order
    one_long_line = "y" * 4500
    assert [len(p) for p in split(one_long_line)] == [2000, 2000, 500]
    table = "```\n" + "\n".join(lines) + "\n```"
    fenced = split(table)
    assert all(p.startswith("```\n") and p.endswith("\n```") and len(p) <= 2000 for p in fenced)


def test_posts_are_in_the_pools_language(tournament_pool: Pool, clock: FakeClock) -> None:
    pool = tournament_pool

    async def scenario(discord: FakeDiscord, api: DiscordApi) -> None:
        poster = WebhookPoster(pool, api, discord.webhook_url(), Notices(pool, Words("pt")))
        await poster.catch_up()
        clock.now = pool.match(1).kickoff
        pool.fixtures.kick_off(1)
        pool.fixtures.record_goal(1, Goal("away", 90, 3, "Mitrović", penalty=True))
        await poster.catch_up()
        assert contents(discord)[0] == "Bola rolando! #1 Brazil v Serbia"
        assert contents(discord)[1].startswith(
            "GOL! #1 Brazil 0-1 Serbia (90+3' Mitrović (pênalti))"
        )

    with_discord(scenario)


def test_a_database_failure_is_logged_and_posting_goes_on_after(
    tournament_pool: Pool, caplog: pytest.LogCaptureFixture
) -> None:
    pool = tournament_pool

    async def scenario(discord: FakeDiscord, api: DiscordApi) -> None:
        poster = poster_for(pool, discord, api)
        await poster.catch_up()
        with pool.engine.begin() as connection:  # the cursor's table is gone for a while
            saved = connection.execute(select(log_cursors)).one()
            log_cursors.drop(connection)
        running = asyncio.get_running_loop().create_task(poster.run())
        pool.talk.remark("betania", "still here?", trigger=1)
        poster.wake()
        await until(lambda: any("Discord failed" in r.getMessage() for r in caplog.records))
        assert not running.done()  # the task lives on
        with pool.engine.begin() as connection:
            log_cursors.create(connection)
            connection.execute(insert(log_cursors).values(**saved._asdict()))
        await until(lambda: len(discord.posts) == 1)
        await poster.stop()
        await running
        assert contents(discord) == ["BETanIA: still here?"]

    with_discord(scenario)
