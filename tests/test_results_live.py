"""Results arrive by themselves: a real ``betania serve --results football-data`` against a
local v4 feed whose answers change over time, watched by a player over SSH."""

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from game.db.engine import open_database
from game.model import Result, Score
from game.openfootball import parse_tournament
from game.pool import Pool
from tests import football_data_v4 as v4
from tests.http_server import canned_server
from tests.serve_process import connect, prepare_pool, serving
from tests.ssh_pool import read_until

PATH = "/v4/competitions/WC/matches"
CUP = {
    "name": "Future Cup",
    "matches": [
        {"num": 1, "round": "Matchday 1", "group": "Group B", "date": "2040-06-12",
         "time": "18:00 UTC+0", "team1": "USA", "team2": "Wales"},
    ],
}  # fmt: skip


def goal(minute: int, team: str, scorer: str) -> dict:
    return {
        "minute": minute,
        "injuryTime": None,
        "type": "REGULAR",
        "team": {"id": 1, "name": team},
        "scorer": {"id": 2, "name": scorer},
        "assist": None,
    }


def test_kick_off_goals_and_result_reach_a_player_with_no_admin_action(
    tmp_path: Path, database_url: str
) -> None:
    data = tmp_path / "data"
    key = prepare_pool(database_url, CUP, "ana")
    (fixture,) = parse_tournament(CUP).fixtures
    first_goal = goal(12, "United States", "Pulisic")
    answers = {
        "timed": v4.response([v4.match(fixture, 391_010, "TIMED")]),
        "live": v4.response(
            [v4.match(fixture, 391_010, "IN_PLAY", running=(1, 0), goals=[first_goal])]
        ),
        "finished": v4.response(
            [
                v4.match(
                    replace(fixture, result=Result(Score(1, 1))),
                    391_010,
                    "FINISHED",
                    goals=[first_goal, goal(82, "Wales", "Bale")],
                )
            ]
        ),
    }

    async def scenario(feed_url: str, serve: Callable[[str], object]) -> float:
        feed_env = {"FOOTBALL_DATA_TOKEN": "t", "FOOTBALL_DATA_URL": feed_url}
        options = ("--results", "football-data", "--poll", "1")
        async with serving(data, database_url, *options, env=feed_env) as (_server, port):
            async with connect(port, "ana", key) as connection:
                player = await connection.create_process()
                await read_until(player.stdout, "Type help")
                player.stdin.write("bet 1 1-1\n")
                await read_until(player.stdout, "your pick is 1-1")
                serve("live")
                seen = await read_until(player.stdout, "Pulisic)", timeout=20)
                assert "Kick-off! #1 USA v Wales" in seen
                assert "GOAL! #1 USA 1-0 Wales (12' Pulisic)" in seen
                player.stdin.write("standings\n")
                seen += await read_until(player.stdout, "1-0 Wales as it stands")
                # The goal brought the table as it now stands, the match counted at 1-0;
                # so does the table asked for.
                after_goal = seen.split("Pulisic)")[1].splitlines()[1]
                assert after_goal.startswith("Live table: 1. ") and "ana 0" in after_goal
                assert "Live table, with #1 USA 1-0 Wales as it stands" in seen
                published = time.monotonic()
                serve("finished")
                seen = await read_until(player.stdout, "Table: 1. ana 10", timeout=20)
                latency = time.monotonic() - published
                assert "Full time: #1 USA 1-1 Wales" in seen
                player.stdin.write("standings\n")
                table = await read_until(player.stdout, "betania")
                row = next(line for line in table.splitlines() if line.split()[1:2] == ["ana"])
                assert row.split()[:3] == ["1", "ana", "10"]
                player.stdin.write("quit\n")
            return latency

    with canned_server() as feed:
        feed.serve(PATH, answers["timed"])
        latency = asyncio.run(
            scenario(feed.base_url, lambda phase: feed.serve(PATH, answers[phase]))
        )
    print(f"\nfrom the result appearing in the feed to the player's terminal: {latency:.2f} s")
    pool = Pool(open_database(database_url))
    assert pool.match(1).label == "#1 USA v Wales"  # the feed's "United States" renamed nothing
    assert pool.match(1).result == Result(Score(1, 1))
    pool.engine.dispose()
