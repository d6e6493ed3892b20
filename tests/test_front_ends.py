"""Several front ends on one database: what one process writes, the others' players see."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from sqlalchemy import text

from frontends.hub import LISTENING_POLL, Hub, Notice
from game.db.engine import open_database
from game.model import Result, Score
from game.pool import Pool
from tests.serve_process import prepare_pool, serving


def test_an_event_written_elsewhere_reaches_this_front_ends_sessions_within_a_second(
    database_url: str,
) -> None:
    """Two pools on one database stand for two processes: the console and a front end."""
    here, elsewhere = Pool(open_database(database_url)), Pool(open_database(database_url))
    elsewhere.members.add("ana")

    async def scenario() -> float:
        hub = Hub(here)
        heard: asyncio.Queue[Notice] = asyncio.Queue()
        hub.subscribe(1, heard.put_nowait)
        hub.start()
        try:
            await asyncio.sleep(0.3)  # settled: whatever was there before is read
            while not heard.empty():
                heard.get_nowait()
            started = time.perf_counter()
            await asyncio.to_thread(elsewhere.talk.chat, "ana", "vai Brasil!")
            async with asyncio.timeout(5):
                notice = await heard.get()
            assert notice.text == "ana: vai Brasil!"
            return time.perf_counter() - started
        finally:
            await hub.stop()

    try:
        took = asyncio.run(scenario())
        print(f"\nfrom a chat line written elsewhere to this front end's sessions: {took:.3f} s")
        if here.engine.dialect.name == "postgresql":
            # The database's word, not the poll: the poll is half a minute apart.
            assert Hub(here).poll_interval == LISTENING_POLL and took < 1.0
        else:
            assert took < 1.5  # SQLite: the one-second poll
    finally:
        here.engine.dispose()
        elsewhere.engine.dispose()


def test_one_remark_per_trigger_is_kept_by_the_database(database_url: str) -> None:
    """Two front ends racing to remark on one goal: the database lets one through."""
    first, second = Pool(open_database(database_url)), Pool(open_database(database_url))
    first.members.add("betania")
    try:
        assert first.talk.remark("betania", "GOL!", trigger=7) is not None
        assert second.talk.remark("betania", "GOAL!", trigger=7) is None
        assert second.talk.remark("betania", "And the table moves.", trigger=7, topic="table")
        assert [e.event.text for e in second.events(kinds=("remark",))] == [
            "GOL!",
            "And the table moves.",
        ]
    finally:
        first.engine.dispose()
        second.engine.dispose()


def test_a_pool_from_before_the_constraint_remembers_what_she_said(database_url: str) -> None:
    pool = Pool(open_database(database_url))
    pool.members.add("betania")
    pool.talk.remark("betania", "GOL!", trigger=7)
    with pool.engine.begin() as connection:  # the database as migration 0004 left it
        later_tables = ("log_cursors", "link_codes", "account_links", "remarks_said")
        later_tables += ("seen_signatures", "jokers", "bonus_picks", "squad_players")  # to 0010's
        for later in later_tables:
            connection.execute(text(f"DROP TABLE {later}"))
        connection.execute(text("ALTER TABLE players DROP COLUMN reminders"))  # 0009's
        for column in ("first_leg", "away_goals"):  # migration 0007's
            connection.execute(text(f"ALTER TABLE matches DROP COLUMN {column}"))
        connection.execute(text("UPDATE alembic_version SET version_num = '0004'"))
    pool.engine.dispose()
    reopened = Pool(open_database(database_url))  # migrates, reading the log
    try:
        assert reopened.talk.said_on(7) and not reopened.talk.said_on(8)
        assert reopened.talk.remark("betania", "GOAL!", trigger=7) is None
    finally:
        reopened.engine.dispose()


TWO_MATCHES = {
    "name": "Future Cup",
    "matches": [
        {"num": 1, "round": "Matchday 1", "date": "2040-06-11", "time": "18:00 UTC+0",
         "team1": "Brazil", "team2": "Serbia"},
        {"num": 2, "round": "Matchday 1", "date": "2040-06-12", "time": "18:00 UTC+0",
         "team1": "Argentina", "team2": "Mexico"},
    ],
}  # fmt: skip


async def _line_with(stream: asyncio.StreamReader, needle: str, timeout: float) -> float:
    """Seconds until a line of ``stream`` holds ``needle``."""
    started = time.perf_counter()
    async with asyncio.timeout(timeout):
        while needle not in (await stream.readline()).decode():
            pass
    return time.perf_counter() - started


def _whistle(url: str, number: int, score: str) -> None:
    """A result entered at the console: another process on the same database."""
    console = Pool(open_database(url))
    console.fixtures.kick_off(number)
    console.fixtures.record_result(number, Result(Score.parse(score)))
    console.engine.dispose()


def test_one_front_end_runs_her_and_another_takes_over_when_it_is_killed(
    tmp_path: Path, database_url: str
) -> None:
    """Two ``betania serve`` on one database: one voice; kill -9 it and the other speaks."""
    prepare_pool(database_url, TWO_MATCHES, "ana")
    leader_says = "the commentator, the scheduler and the results feed run in this front end"

    async def scenario() -> float:
        async with serving(tmp_path / "a", database_url) as (first, _):
            assert first.stdout is not None
            await _line_with(first.stdout, leader_says, 20)
            async with serving(tmp_path / "b", database_url) as (second, _):
                assert second.stdout is not None
                await _line_with(second.stdout, "another front end runs the commentator", 20)
                await asyncio.to_thread(_whistle, database_url, 1, "2-0")
                await _wait_for_remark_on(database_url, 1)
                first.kill()  # kill -9: no goodbye, no lock released by hand
                await first.wait()
                took_over = await _line_with(second.stdout, leader_says, 15)
                await asyncio.to_thread(_whistle, database_url, 2, "1-1")
                await _wait_for_remark_on(database_url, 2)
                return took_over

    took_over = asyncio.run(scenario())
    print(f"\nfrom kill -9 of the leader to the other front end leading: {took_over:.2f} s")
    assert took_over < 10
    pool = Pool(open_database(database_url))
    remarks = pool.events(kinds=("remark",))
    triggers = [(r.event.trigger, r.event.topic) for r in remarks]
    assert len(triggers) == len(set(triggers))  # none doubled by the takeover
    assert {r.event.match for r in remarks} >= {1, 2}  # none lost
    pool.engine.dispose()


async def _wait_for_remark_on(url: str, number: int, timeout: float = 20) -> None:
    pool = Pool(open_database(url))
    try:
        async with asyncio.timeout(timeout):
            while not any(r.event.match == number for r in pool.events(kinds=("remark",))):
                await asyncio.sleep(0.2)
    finally:
        pool.engine.dispose()


class _LogUnreadableOnce(Hub):
    """A hub whose first read of the log fails, as a database gone for a moment does."""

    failed = False

    def collect(self, after_id: int) -> tuple[int, list[Notice]]:
        if not self.failed:
            self.failed = True
            raise OSError("the database is not there")
        return super().collect(after_id)


def test_a_subscriber_that_fails_is_dropped_and_a_log_that_fails_is_read_again(
    database_url: str,
) -> None:
    """A console whose pipe closed, a log unreadable for a moment: the hub goes on, and
    the other sessions hear every line, the one it failed to read included, with no
    commit or poll to wake it again."""
    pool = Pool(open_database(database_url))
    pool.members.add("ana")

    def gone(notice: Notice) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    async def scenario() -> None:
        hub = _LogUnreadableOnce(pool, poll_interval=60.0)  # no poll: the hub retries itself
        heard: asyncio.Queue[Notice] = asyncio.Queue()
        hub.subscribe("console", gone)
        hub.subscribe(1, heard.put_nowait)
        hub.start()
        try:
            for line in ("vai Brasil!", "e o Japão, hein?"):
                await asyncio.to_thread(pool.talk.chat, "ana", line)
                async with asyncio.timeout(5):
                    assert (await heard.get()).text == f"ana: {line}"
            assert hub.failed and "console" not in hub.subscribers
        finally:
            await hub.stop()

    try:
        asyncio.run(scenario())
    finally:
        pool.engine.dispose()
