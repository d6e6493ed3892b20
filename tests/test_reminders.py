"""Reminders: a player who has not picked a match is told before it closes, at login,
in every open session a set time before kick-off, and in the Discord channel with a
ping for the linked players only; once per match, and never when they said no."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.agent.commentator import Commentator
from bot.agent.gateway import remembering
from bot.agent.providers.offline import OfflineModel
from bot.agent.scheduler import PoolScheduler
from frontends.discord.api import DiscordApi, DiscordError
from frontends.discord.messages import CONTENT_LIMIT
from frontends.discord.poster import WebhookPoster, reminder_messages
from frontends.notices import Notices
from frontends.ssh.frontend import ServerConfig
from frontends.ssh.library import asyncssh
from game.db.engine import open_database
from game.events import PickReminder, RemarkPosted, RemindersSet
from game.model import Match, MatchStatus, Score
from game.openfootball import parse_tournament
from game.pool import Pool
from game.reminders import (
    DEFAULT_LEAD,
    Reminder,
    closing_without_pick,
    forgetful,
    is_due,
    minutes_left,
    remind_at,
)
from game.sources import read_json
from game.words import Words
from memory.keeper import MemoryConfig
from tests.conftest import TEST_DATA, FakeClock
from tests.discord_server import FakeDiscord, discord_server
from tests.ssh_pool import ServedPool, offline_commentator, read_until, served_pool
from tests.test_discord import ANA, EPHEMERAL, companion

HOUR = timedelta(hours=1)

# -- the rules, on the 2026 World Cup's real fixtures (no database) -------------------


def world_cup_2026() -> list[Match]:
    cup = parse_tournament(read_json(str(TEST_DATA / "worldcup-2026.json")))
    fixtures = sorted(cup.fixtures, key=lambda f: f.kickoff)
    return [
        Match(n, f.stage, f.kickoff, f.team1, f.team2, f.group)
        for n, f in enumerate(fixtures, start=1)
    ]


def labels(matches: list[Match]) -> list[str]:
    return [f"{m.team1} v {m.team2}" for m in matches]


def test_login_lists_the_matches_closing_within_a_day_that_the_player_has_not_picked() -> None:
    cup = world_cup_2026()
    now = datetime(2026, 6, 13, 0, 0, tzinfo=UTC)
    usa = next(m for m in cup if m.team1 == "USA" and m.team2 == "Paraguay")
    closing = closing_without_pick(now, cup, {usa.number}, timedelta(hours=24))
    # USA v Paraguay at 01:00 is picked; Haiti v Scotland at 01:00 next day is 25 hours out.
    assert labels(closing) == ["Qatar v Switzerland", "Brazil v Morocco"]
    assert labels(closing_without_pick(now, cup, set(), timedelta(hours=1))) == ["USA v Paraguay"]


def test_a_match_that_kicked_off_or_went_live_early_is_never_one_to_remind_of() -> None:
    cup = world_cup_2026()
    brazil = next(m for m in cup if m.team1 == "Brazil" and m.team2 == "Morocco")
    at_kickoff = closing_without_pick(brazil.kickoff, cup, set(), timedelta(hours=3))
    assert "Brazil v Morocco" not in labels(at_kickoff)
    live = [replace(m, status=MatchStatus.LIVE) if m == brazil else m for m in cup]
    early = brazil.kickoff - 2 * HOUR
    assert "Brazil v Morocco" not in labels(closing_without_pick(early, live, set(), 3 * HOUR))


def test_the_reminder_is_due_from_its_lead_until_kick_off() -> None:
    brazil = next(m for m in world_cup_2026() if m.team1 == "Brazil")  # 13 Jun, 22:00 UTC
    assert remind_at(brazil, DEFAULT_LEAD) == datetime(2026, 6, 13, 21, 0, tzinfo=UTC)
    assert not is_due(brazil, datetime(2026, 6, 13, 20, 59, tzinfo=UTC), DEFAULT_LEAD)
    assert is_due(brazil, datetime(2026, 6, 13, 21, 0, tzinfo=UTC), DEFAULT_LEAD)
    assert is_due(brazil, datetime(2026, 6, 13, 21, 45, tzinfo=UTC), DEFAULT_LEAD)  # late start
    assert not is_due(brazil, brazil.kickoff, DEFAULT_LEAD)
    assert minutes_left(brazil, datetime(2026, 6, 13, 21, 0, 30, tzinfo=UTC)) == 60  # rounded up
    assert minutes_left(brazil, datetime(2026, 6, 13, 21, 59, 59, tzinfo=UTC)) == 1


def test_who_is_reminded_is_who_wants_it_and_has_no_pick_in_order() -> None:
    assert forgetful(["ana", "bia", "caio"], {"bia"}) == ("ana", "caio")
    assert forgetful(["ana"], {"ana"}) == ()


# -- in the pool: once per match, on both databases -----------------------------------


def at_lead(pool: Pool, clock: FakeClock, number: int, lead: timedelta = DEFAULT_LEAD) -> None:
    clock.now = pool.match(number).kickoff - lead


def test_the_pool_logs_each_match_reminder_once_for_those_without_a_pick(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    pool = tournament_pool
    pool.members.add("betania", "BETanIA", via="bot")  # she picks by herself: never reminded
    pool.predictions.place("bia", 1, Score(2, 1))
    clock.now = pool.match(1).kickoff - 2 * HOUR
    assert pool.members.remind(1, DEFAULT_LEAD) is None  # not yet
    at_lead(pool, clock, 1)
    told = pool.members.remind(1, DEFAULT_LEAD)
    assert told == PickReminder(1, ("ana", "caio"), 60)
    clock.advance(minutes=10)
    assert pool.members.remind(1, DEFAULT_LEAD) is None  # a restart, a second scheduler
    assert [e.event for e in pool.events_of(PickReminder)] == [told]
    clock.now = pool.match(2).kickoff
    assert pool.members.remind(2, DEFAULT_LEAD) is None  # kicked off: too late to tell


def test_remind_off_is_logged_once_and_silences_that_player(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    pool = tournament_pool
    assert pool.members.reminders_on("caio")
    assert pool.members.set_reminders("caio", False)
    assert not pool.members.set_reminders("caio", False)  # already off: nothing logged
    assert [e.event for e in pool.events_of(RemindersSet)] == [RemindersSet("caio", False)]
    at_lead(pool, clock, 1)
    assert pool.members.closing_unpicked("caio") == []
    assert [m.number for m in pool.members.closing_unpicked("ana")] == [1]
    told = pool.members.remind(1, DEFAULT_LEAD)
    assert told is not None and told.players == ("ana", "bia")


def test_everybody_picked_means_no_reminder_at_all(tournament_pool: Pool, clock: FakeClock) -> None:
    pool = tournament_pool
    for handle in ("ana", "bia", "caio"):
        pool.predictions.place(handle, 1, Score(1, 1))
    at_lead(pool, clock, 1)
    assert pool.members.remind(1, DEFAULT_LEAD) is None
    assert pool.events_of(PickReminder) == []


# -- her tease: the forgetful by name, nobody's pick -----------------------------------


@pytest.mark.parametrize(("language", "minutes"), [("en", "60 minutes"), ("pt", "60 minutos")])
def test_she_teases_only_those_without_a_pick_and_tells_no_pick(
    tournament_pool: Pool, clock: FakeClock, language: str, minutes: str
) -> None:
    pool = tournament_pool
    keeper, gateway = remembering(
        pool, OfflineModel(language=language), MemoryConfig(language=language)
    )
    keeper.enable()
    her = Commentator(keeper, gateway)
    her.start()
    pool.predictions.place("bia", 1, Score(3, 1))
    at_lead(pool, clock, 1)
    told = pool.members.remind(1, DEFAULT_LEAD)
    assert told is not None and told.players == ("ana", "caio")
    her.catch_up()
    (remark,) = [r.event for r in pool.events_of(RemarkPosted)]
    assert remark.about == ("ana", "caio") and remark.match == 1
    assert "ana" in remark.text and "caio" in remark.text and minutes in remark.text
    assert not re.search(r"\bbia\b", remark.text) and "3-1" not in remark.text  # Serbia is fine
    her.catch_up()  # a restart reacts again: said once
    assert len(pool.events_of(RemarkPosted)) == 1


def test_a_reminder_she_reads_after_the_kick_off_gets_no_tease(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    her = offline_commentator(tournament_pool)
    at_lead(tournament_pool, clock, 1)
    tournament_pool.members.remind(1, DEFAULT_LEAD)
    clock.now = tournament_pool.match(1).kickoff  # she was busy, or the server was down
    her.catch_up()
    assert tournament_pool.events_of(RemarkPosted) == []


# -- over SSH: at login, and live at the lead time ------------------------------------


ON = {"en": "your reminders are", "pt": "seus lembretes estão"}  # the answer to "remind"


async def shell(
    stack: contextlib.AsyncExitStack, served: ServedPool, handle: str
) -> asyncssh.SSHClientProcess[str]:
    """A player's interactive session without a terminal: lines in, lines out."""
    connection = await stack.enter_async_context(served.connect(handle))
    process: asyncssh.SSHClientProcess[str] = await connection.create_process()
    return process


async def said_before(process: asyncssh.SSHClientProcess[str], line: str, answer: str) -> str:
    """Everything the session printed up to the answer to ``line``."""
    process.stdin.write(f"{line}\n")
    return await read_until(process.stdout, answer)


@pytest.mark.parametrize(
    ("language", "reminded"),
    [
        ("en", "No pick yet, closing within 24 hours"),
        ("pt", "Sem palpite seu, fechando nas próximas 24 horas"),
    ],
)
def test_login_tells_the_unpicked_matches_closing_today_in_the_players_zone(
    tmp_path: Path, language: str, reminded: str
) -> None:
    on = ON[language]

    async def main() -> None:
        config = ServerConfig(port=0, language=language)
        async with served_pool(tmp_path, config) as served, contextlib.AsyncExitStack() as stack:
            pool = served.pool
            for handle in ("ana", "bia", "caio"):
                served.player(handle)
            pool.members.set_time_zone("ana", "America/Sao_Paulo")
            pool.predictions.place("bia", 1, Score(2, 0))
            pool.members.set_reminders("caio", False)
            served.clock.now = pool.match(1).kickoff - 8 * HOUR  # #2 is 32 hours away
            ana = await shell(stack, served, "ana")
            seen = await said_before(ana, "remind", on)
            assert reminded in seen
            assert "#1 Brazil v Serbia" in seen and "15:00" in seen  # 18:00 UTC in São Paulo
            assert "America/Sao_Paulo" in seen and "Argentina" not in seen
            for handle in ("bia", "caio"):  # picked it; said no to reminders
                quiet = await said_before(await shell(stack, served, handle), "remind", on)
                assert reminded not in quiet

    asyncio.run(main())


@pytest.mark.parametrize(
    ("language", "notice"),
    [
        ("en", "#1 Brazil v Serbia kicks off in 60 minutes and you have no pick: bet 1 2-1"),
        ("pt", "#1 Brazil v Serbia começa em 60 minutos e você ainda não palpitou: palpite 1 2-1"),
    ],
)
def test_every_open_session_of_the_unpicked_is_told_once_at_the_lead_time(
    tmp_path: Path, language: str, notice: str
) -> None:
    on = ON[language]

    async def main() -> None:
        config = ServerConfig(port=0, language=language)
        async with served_pool(tmp_path, config) as served, contextlib.AsyncExitStack() as stack:
            pool, clock = served.pool, served.clock
            for handle in ("ana", "bia", "caio"):
                served.player(handle)
            pool.predictions.place("bia", 1, Score(2, 0))
            sessions = {h: await shell(stack, served, h) for h in ("ana", "bia", "caio")}
            second_ana = await shell(stack, served, "ana")
            await said_before(sessions["caio"], "remind off", on)
            for process in [*sessions.values(), second_ana]:
                await said_before(process, "remind", on)  # each one is in the conversation

            # The scheduler, as serve builds it: a job at kick-off minus the lead.
            scheduler = PoolScheduler(offline_commentator(pool), remind_before=DEFAULT_LEAD)
            scheduler.rebuild()
            job = scheduler.scheduler.get_job("remind-1")
            assert job is not None and job.trigger.run_date == pool.match(1).kickoff - HOUR
            clock.now = pool.match(1).kickoff - HOUR
            await scheduler.remind(1)
            await read_until(sessions["ana"].stdout, notice)
            await read_until(second_ana.stdout, notice)  # every session of hers
            # A restart: a new scheduler runs the overdue job again; nothing is told twice.
            clock.advance(minutes=5)
            restarted = PoolScheduler(offline_commentator(pool), remind_before=DEFAULT_LEAD)
            restarted.rebuild()
            await restarted.remind(1)
            assert len(pool.events_of(PickReminder)) == 1
            again = await said_before(sessions["ana"], "remind", on)
            assert notice not in again
            for handle in ("bia", "caio"):  # picked; reminders off
                quiet = await said_before(sessions[handle], "remind", on)
                assert notice.split(":")[0] not in quiet

    asyncio.run(main())


def test_remind_over_ssh_exec_in_both_languages_and_a_bad_word_is_one_line(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with served_pool(tmp_path, ServerConfig(port=0, language="pt")) as served:
            served.player("ana")
            done = await served.run("ana", "lembrete desligar")
            assert done.exit_status == 0 and done.stdout == "seus lembretes estão desligados\n"
            assert not served.pool.members.reminders_on("ana")
            wrong = await served.run("ana", "lembrete talvez")
            assert wrong.exit_status == 1 and str(wrong.stderr).count("\n") == 1
            assert "lembrete ligar ou lembrete desligar?" in str(wrong.stderr)
            back = await served.run("ana", "remind on")
            assert back.stdout == "seus lembretes estão ligados\n"
            assert [e.event.on for e in served.pool.events_of(RemindersSet)] == [False, True]

    asyncio.run(main())


# -- on Discord: one message, pinging exactly the linked players without a pick -------


def link(pool: Pool, handle: str, account: str) -> None:
    code = pool.members.create_link_code(handle, "discord")
    pool.members.link_account("discord", account, code, name=handle)


Scenario = Callable[[FakeDiscord, DiscordApi, WebhookPoster], Awaitable[None]]


def with_discord(pool: Pool, words: Words, scenario: Scenario) -> None:
    async def main() -> None:
        async with discord_server() as discord:
            api = DiscordApi(discord.base_url)
            poster = WebhookPoster(pool, api, discord.webhook_url(), Notices(pool, words))
            try:
                await scenario(discord, api, poster)
            finally:
                await api.close()

    asyncio.run(main())


@pytest.mark.parametrize(
    ("language", "said"),
    [
        # A "#" that starts a line is a heading to Discord: escaped, it shows as typed.
        ("en", r"\#1 Brazil v Serbia kicks off in 60 minutes; no pick yet from <@1001> and 1 more"),
        ("pt", r"\#1 Brazil v Serbia começa em 60 minutos; ainda sem palpite: <@1001> e mais 1"),
    ],
)
def test_the_channel_gets_one_message_that_pings_only_the_linked_players_without_a_pick(
    tournament_pool: Pool, clock: FakeClock, language: str, said: str
) -> None:
    pool = tournament_pool
    pool.members.add("dani")
    link(pool, "ana", "1001")  # no pick: pinged
    link(pool, "bia", "1002")  # picked: not pinged
    link(pool, "dani", "1004")  # no pick, but reminders off: not pinged
    pool.members.set_reminders("dani", False)
    pool.predictions.place("bia", 1, Score(1, 0))  # caio: no pick, no link: counted only

    async def scenario(discord: FakeDiscord, api: DiscordApi, poster: WebhookPoster) -> None:
        assert await poster.catch_up() == 0  # the companion starts from now
        at_lead(pool, clock, 1)
        pool.members.remind(1, DEFAULT_LEAD)
        assert await poster.catch_up() == 1
        assert discord.posts[-1]["content"] == said
        assert discord.posts[-1]["allowed_mentions"] == {"parse": [], "users": ["1001"]}
        pool.members.remind(1, DEFAULT_LEAD)  # the job again: nothing new
        assert await poster.catch_up() == 0
        restarted = WebhookPoster(pool, api, discord.webhook_url(), Notices(pool))
        assert await restarted.catch_up() == 0  # a restart resumes after the confirmed post
        for handle in ("ana", "caio", "dani"):  # everybody picks #2: no message for it
            pool.predictions.place(handle, 2, Score(0, 0))
        pool.predictions.place("bia", 2, Score(0, 0))
        at_lead(pool, clock, 2)
        assert pool.members.remind(2, DEFAULT_LEAD) is None
        assert await poster.catch_up() == 0
        assert len(discord.posts) == 1

    with_discord(pool, Words(language), scenario)


def test_the_channel_names_only_those_still_without_a_pick_when_it_posts(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """Logged at the lead, posted a little later: who picked (or turned reminders off)
    in between is neither pinged nor counted; when nobody is left, nothing is posted."""
    pool = tournament_pool
    link(pool, "ana", "1001")
    link(pool, "bia", "1002")

    async def scenario(discord: FakeDiscord, _api: DiscordApi, poster: WebhookPoster) -> None:
        await poster.catch_up()
        at_lead(pool, clock, 1)
        reminder = pool.members.remind(1, DEFAULT_LEAD)
        assert reminder is not None and set(reminder.players) == {"ana", "bia", "caio"}
        pool.predictions.place("ana", 1, Score(2, 0))  # before the post goes
        pool.members.set_reminders("caio", False)
        assert await poster.catch_up() == 1
        assert discord.posts[-1]["content"] == (
            r"\#1 Brazil v Serbia kicks off in 60 minutes; no pick yet from <@1002>"
        )
        assert discord.posts[-1]["allowed_mentions"] == {"parse": [], "users": ["1002"]}
        at_lead(pool, clock, 2)
        assert pool.members.remind(2, DEFAULT_LEAD) is not None
        for handle in ("ana", "bia"):
            pool.predictions.place(handle, 2, Score(1, 1))
        assert await poster.catch_up() == 0  # all told have picked: no message at all
        assert len(discord.posts) == 1

    with_discord(pool, Words(), scenario)


def test_a_reminder_without_a_linked_player_names_nobody_and_pings_nobody(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    pool = tournament_pool

    async def scenario(discord: FakeDiscord, _api: DiscordApi, poster: WebhookPoster) -> None:
        await poster.catch_up()
        at_lead(pool, clock, 1)
        pool.members.remind(1, DEFAULT_LEAD)
        assert await poster.catch_up() == 1
        post = discord.posts[-1]
        assert (
            post["content"]
            == r"\#1 Brazil v Serbia kicks off in 60 minutes; 3 of you still have no pick"
        )
        assert post["allowed_mentions"] == {"parse": []}

    with_discord(pool, Words(), scenario)


def test_a_reminder_the_channel_could_not_get_before_the_kick_off_is_dropped(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    pool = tournament_pool
    link(pool, "ana", "1001")

    async def scenario(discord: FakeDiscord, _api: DiscordApi, poster: WebhookPoster) -> None:
        await poster.catch_up()
        at_lead(pool, clock, 1)
        pool.members.remind(1, DEFAULT_LEAD)
        clock.now = pool.match(1).kickoff  # Discord was down for the hour
        assert await poster.catch_up() == 0
        clock.advance(minutes=1)
        pool.fixtures.kick_off(1)
        assert await poster.catch_up() == 1  # what follows still goes, in order
        assert [p["content"] for p in discord.posts] == ["Kick-off! #1 Brazil v Serbia"]

    with_discord(pool, Words(), scenario)


@pytest.mark.parametrize("digits", [3, 19])  # short test ids; real snowflakes' length
def test_hundreds_of_forgetful_players_go_in_messages_discord_accepts(digits: int) -> None:
    handles = tuple(f"p{n:03}" for n in range(250))
    accounts = {h: str(10 ** (digits - 1) + n) for n, h in enumerate(handles) if n % 5}
    reminder = Reminder(5, "#5 Brazil v Morocco", 60, handles)
    bodies = reminder_messages(reminder, accounts, Words())
    pinged = [user for body in bodies for user in body["allowed_mentions"]["users"]]
    assert sorted(pinged) == sorted(accounts.values())  # each linked player once, no one else
    for body in bodies:
        users = body["allowed_mentions"]["users"]
        assert len(users) <= 100 and len(body["content"]) <= CONTENT_LIMIT
        assert [f"<@{u}>" in body["content"] for u in users] == [True] * len(users)
    assert bodies[-1]["content"].endswith(" and 50 more")
    # 200 linked: short ids meet the 100-user cap, real ones the 2,000 characters first.
    firsts = len(bodies[0]["allowed_mentions"]["users"])
    assert (len(bodies), firsts) == ((2, 100) if digits == 3 else (3, 80))

    async def main() -> None:
        async with discord_server() as discord:
            api = DiscordApi(discord.base_url)
            try:
                for body in bodies:
                    await api.execute_webhook(discord.webhook_url(), body)
            finally:
                await api.close()
            assert len(discord.posts) == len(bodies)

    asyncio.run(main())


def test_the_fake_discord_refuses_what_discord_refuses() -> None:
    """The test server's check is itself checked: 101 users, or users both listed and parsed."""

    async def main() -> None:
        async with discord_server() as discord:
            api = DiscordApi(discord.base_url)
            try:
                for allowed in (
                    {"parse": [], "users": [str(n) for n in range(101)]},
                    {"parse": ["users"], "users": ["1"]},
                ):
                    body = {"content": "x", "allowed_mentions": allowed}
                    with pytest.raises(DiscordError) as refused:
                        await api.execute_webhook(discord.webhook_url(), body)
                    assert refused.value.status == 400
            finally:
                await api.close()
            assert discord.posts == []

    asyncio.run(main())


def test_remind_is_a_slash_command_answered_to_the_linked_player_alone(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with companion(tmp_path) as c:
            c.served.player("ana")
            await c.link("ana", ANA)
            off = await c.slash("remind", ANA, state="off")
            assert off["data"]["content"] == "your reminders are off"
            assert off["data"]["flags"] & EPHEMERAL
            assert not c.served.pool.members.reminders_on("ana")
            asked = await c.slash("remind", ANA)
            assert asked["data"]["content"] == "your reminders are off"

    asyncio.run(scenario())


def test_a_pool_from_before_reminders_keeps_her_out_of_them(database_url: str) -> None:
    """Migration 0009 on a pool she already plays in: her row (added by the commentator,
    via "bot") gets reminders off, as a new one does; a player's stays on."""
    pool = Pool(open_database(database_url))
    pool.members.add("betania", via="bot")
    pool.members.add("ana")
    with pool.engine.begin() as connection:  # the database as migration 0008 left it
        for table in ("jokers", "bonus_picks", "squad_players"):  # 0009's, and 0010's after it
            connection.execute(text(f"DROP TABLE {table}"))
        connection.execute(text("ALTER TABLE players DROP COLUMN reminders"))
        connection.execute(text("UPDATE alembic_version SET version_num = '0008'"))
    pool.engine.dispose()
    reopened = Pool(open_database(database_url))  # migrates
    try:
        assert not reopened.members.reminders_on("betania")
        assert reopened.members.reminders_on("ana")
    finally:
        reopened.engine.dispose()
