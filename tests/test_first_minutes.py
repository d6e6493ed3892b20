"""What a newcomer meets in the first ten minutes, over a real SSH connection."""

import asyncio
import json
from datetime import timedelta
from pathlib import Path

from bot.app.demo_cup import SQUADS, TEAMS, play
from game.model import Result, Score
from prompts import voice
from tests.ssh_pool import read_until, served_pool


def test_the_welcome_names_a_match_that_has_not_kicked_off(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("ana")
            # #1's kick-off has passed, though nobody marked it live yet
            served.clock.now = served.pool.match(1).kickoff + timedelta(minutes=3)
            async with served.connect("ana") as connection:
                player = await connection.create_process()
                seen = await read_until(player.stdout, "(UTC).")
                assert "Next: #2 Argentina v Mexico" in seen
                player.stdin.write("quit\n")

    asyncio.run(scenario())


def test_standings_after_a_match_that_is_missing_or_unfinished_says_so(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("ana")
            missing = await served.run("ana", "standings after 99")
            assert (missing.exit_status, missing.stderr) == (1, "no match #99\n")
            unfinished = await served.run("ana", "standings after 2")
            assert unfinished.stderr == (
                "#2 Argentina v Mexico has not finished: there is no table after it yet\n"
            )
            served.clock.now = served.pool.match(1).kickoff
            served.pool.fixtures.kick_off(1)
            served.pool.fixtures.record_result(1, Result(Score(2, 0)))
            assert (await served.run("ana", "standings after 1")).exit_status == 0

    asyncio.run(scenario())


def test_a_live_match_shows_its_score_once_and_in_json(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("ana")
            served.player("admin", admin=True)
            served.clock.now = served.pool.match(1).kickoff
            await served.run("admin", "kickoff 1")
            await served.run("admin", "goal 1 home 23 Vini Jr")
            listed = json.loads((await served.run("ana", "matches --json")).stdout)
            assert (listed[0]["status"], listed[0]["score"], listed[0]["result"]) == (
                "live",
                "1-0",
                None,
            )
            assert listed[1]["score"] is None
            view = (await served.run("ana", "match 1")).stdout
            assert "status: live  1-0\n" in view and view.count("live") == 1

    asyncio.run(scenario())


def test_the_timezone_alias_sets_the_zone_and_times_say_their_zone(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("ana")
            async with served.connect("ana") as connection:
                player = await connection.create_process()
                await read_until(player.stdout, "Type help")
                player.stdin.write("timezone America/Sao_Paulo\n")
                await read_until(player.stdout, "times now shown in America/Sao_Paulo")
                player.stdin.write("tz\n")
                await read_until(player.stdout, "your time zone is America/Sao_Paulo")
                served.pool.talk.chat("ana", "olá")
                seen = await read_until(player.stdout, "olá")
                assert "[15:00 -03] ana: olá" in seen  # 18:00 UTC on the test clock
                player.stdin.write("quit\n")

    asyncio.run(scenario())


def test_demo_goals_are_scored_by_players_of_the_scoring_team() -> None:
    import random

    rng = random.Random(3)
    teams = [team for group in TEAMS.values() for team in group]
    for home, away in zip(teams, reversed(teams), strict=True):
        for goal in play(home, away, rng, knockout=True).goals:
            assert goal.scorer in SQUADS[home if goal.side == "home" else away]


def test_her_welcome_reads_right_whatever_the_handle() -> None:
    for language in ("en", "pt"):
        for line in voice(language)["welcome"]:
            assert "$who joins" not in line and "$who chegou" not in line
            assert "ahead of you" not in line  # before any match, that would be a lie
