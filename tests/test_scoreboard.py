"""The office scoreboard: the page as served (it reads without JavaScript), nothing
private on it, and in a real headless browser (Debian's chromium) a goal entered at
the console shows within two seconds, without a reload."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from frontends.scoreboard.live import Scoreboard
from frontends.web import start_web, web_app
from game.model import Goal, Result, Score
from tests.browser import chromium, needs_chromium
from tests.ssh_pool import ServedPool, served_pool

DOCS = Path(__file__).resolve().parent.parent / "docs"


@dataclass
class Screen:
    served: ServedPool
    scoreboard: Scoreboard
    url: str


@asynccontextmanager
async def scoreboard_on(tmp_path: Path, language: str = "en") -> AsyncIterator[Screen]:
    async with served_pool(tmp_path) as served:
        pool = served.pool
        pool.members.add("betania", "BETanIA", via="bot")
        for handle, home, away in (("ana", 2, 0), ("bruno", 1, 1), ("caio", 0, 1), ("dora", 3, 1)):
            served.player(handle)
            pool.predictions.place(handle, 1, Score(home, away))
            pool.predictions.place(handle, 2, Score(1, 0))
        served.frontend.words = served.frontend.words.__class__(language)
        scoreboard = Scoreboard(pool, served.frontend.hub, served.frontend.words, "BETanIA")
        await scoreboard.start()
        server = await start_web(web_app(scoreboard=scoreboard), "127.0.0.1", 0)
        try:
            yield Screen(served, scoreboard, f"http://127.0.0.1:{server.port}/")
        finally:
            await server.close()


def start_match_one(served: ServedPool) -> None:
    served.clock.now = served.pool.match(1).kickoff
    served.pool.fixtures.kick_off(1)


def test_the_first_response_carries_the_board_and_nothing_private(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with scoreboard_on(tmp_path) as screen:
            pool = screen.served.pool
            code = pool.members.create_invite("ana")
            link = pool.members.create_link_code("bruno", "discord")
            start_match_one(screen.served)
            pool.fixtures.record_goal(1, Goal("home", 9, 0, "<b>Vini</b>"))
            pool.talk.remark("betania", "ana <script>alert(1)</script> leads", trigger=1)
            await screen.scoreboard.refresh()
            async with httpx.AsyncClient() as client:
                page = (await client.get(screen.url)).text
            assert "Brazil 1-0 Serbia" in page  # the match in play, its running score
            assert "picks still alive: ana, bruno, dora" in page  # 2-0, 1-1, 3-1 still can be
            assert "Argentina v Mexico" in page  # the next kick-off
            assert "ana &lt;script&gt;alert(1)&lt;/script&gt; leads" in page  # her line, as text
            assert "<script>alert" not in page
            assert "live table" in page and "<svg" not in page  # no race before a result
            for private in (code, link, "ssh-ed25519", "2-0</", "1-0</td>"):
                assert private not in page
            # Picks before kick-off stay hidden: match 2's are nowhere.
            assert "1-0" not in page.split("Argentina v Mexico")[1].split("</li>")[0]

    asyncio.run(scenario())


def test_the_page_speaks_the_pools_language(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with scoreboard_on(tmp_path, "pt") as screen:
            start_match_one(screen.served)
            await screen.scoreboard.refresh()
            async with httpx.AsyncClient() as client:
                page = (await client.get(screen.url)).text
            assert '<html lang="pt">' in page
            assert "Classificação" in page and "Próximos jogos" in page and "AO VIVO" in page

    asyncio.run(scenario())


@needs_chromium
def test_a_goal_at_the_console_shows_in_a_real_browser_within_two_seconds(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with scoreboard_on(tmp_path) as screen, chromium() as browser:
            served = screen.served
            start_match_one(served)
            served.pool.fixtures.record_result(1, Result(Score(2, 0)))
            served.clock.now = served.pool.match(2).kickoff
            served.pool.fixtures.kick_off(2)
            served.pool.talk.remark("betania", "ana called it: 2-0, exactly.", trigger=1)
            await screen.scoreboard.refresh()
            page = await browser.open(screen.url, zone="America/Sao_Paulo")
            assert "Argentina 0-0 Mexico" in await page.text("#in-play")
            # Kick-offs in the viewer's zone: #3 is at 18:00 UTC, 15:00 in São Paulo.
            assert "#3 Japan v Spain, Sat, Jun 13, 03:00 PM" in await page.text("#side")
            assert await page.evaluate("document.querySelectorAll('svg polyline').length") == 5
            # The race fits the TV's screen below the match in play and its pool's picks.
            bottom = "document.querySelector('{}').getBoundingClientRect().bottom"
            race = await page.evaluate(bottom.format("svg"))
            side = await page.evaluate(bottom.format("#side"))
            assert 0 < race <= side <= 1080
            assert "ana" in await page.text("#table")
            # ana called #1 exactly and won its day: the TV shows the days won too
            assert "days won" in await page.text("#table thead")
            first = (
                "[...document.querySelectorAll('#table tbody tr')[0].cells].map(c => c.textContent)"
            )
            assert (await page.evaluate(first))[1:] == ["ana", "10", "1", "1"]

            # An admin records a goal over SSH, as from the console of the pool.
            served.player("admin", admin=True)
            done = await served.run("admin", "goal 2 away 51 Lozano")
            assert done.exit_status == 0, done.stderr
            took = await page.wait_for_text(
                "Argentina 0-1 Mexico", timeout=2.0, selector="#in-play"
            )
            assert took < 2.0
            assert "picks still alive: nobody" in await page.text("#in-play")  # all said 1-0
            shot = tmp_path / "scoreboard.png"
            await page.screenshot(shot)
            assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 10_000

    asyncio.run(scenario())


def test_screens_past_the_limit_are_refused_and_open_streams_end_with_the_server(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with scoreboard_on(tmp_path) as screen:
            screen.scoreboard.watching.most = 3
            events = screen.url + "events"
            async with httpx.AsyncClient(timeout=10) as client:
                streams = [client.stream("GET", events) for _ in range(3)]
                opened = [await stream.__aenter__() for stream in streams]
                assert all(r.headers["content-type"] == "text/event-stream" for r in opened)
                first = opened[0].aiter_lines()
                assert await anext(first) == "retry: 2000"
                assert await anext(first) == ""
                assert await anext(first) == "event: board"  # the board as it is now, at once
                refused = await client.get(events)
                assert refused.status_code == 503
                # A goal: every open screen gets the new board.
                start_match_one(screen.served)
                screen.served.pool.fixtures.record_goal(1, Goal("home", 3))
                async with asyncio.timeout(5):
                    async for line in first:
                        if line.startswith("data: ") and "Brazil 1-0 Serbia" in line:
                            break
                await screen.scoreboard.close()  # the server stops: the streams end
                async with asyncio.timeout(5):
                    async for _ in first:
                        pass
                for stream in streams:
                    await stream.__aexit__(None, None, None)

    asyncio.run(scenario())
