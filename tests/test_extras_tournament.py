"""A whole World Cup (2022) played with picks, jokers and bonus picks placed through
SSH exec commands (a real server and client, half the pool typing Portuguese), and
the pool's standings, day and round tables, read the same way, held against an
independent scoring of the same rules (``tests.independent_scoring``).

Runs on SQLite, and on PostgreSQL under ``python -m tests.databases``.
"""

from __future__ import annotations

import asyncio
import json
import random
from datetime import timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from frontends.discord.slash import line_for, options_of
from frontends.limits import Limits
from frontends.ssh.frontend import ServerConfig
from game.addressing import Addressee
from game.openfootball import parse_tournament
from game.sources import read_json
from tests import independent_scoring as independent
from tests.conftest import TEST_DATA
from tests.ssh_pool import served_pool

PLAYERS = ("ana", "bia", "caio", "duda", "edu", "fabi")
# Named as a player types them: accents dropped, a name's other spelling.
CHAMPIONS = ("Argentina", "França", "Brazil", "Argentina", "England", "Portugal")
MEANT = ("Argentina", "France", "Brazil", "Argentina", "England", "Portugal")
SCORERS = ("kylian mbappe", "Lionel Messi", "Kylian Mbappé", "Olivier Giroud", "Messi", "Mbappe")


def test_a_world_cup_with_jokers_and_bonus_picks_scores_as_the_rules_say(
    tmp_path: Path,
) -> None:
    asyncio.run(_play_the_world_cup(tmp_path))


async def _play_the_world_cup(tmp_path: Path) -> None:
    raw = read_json(str(TEST_DATA / "worldcup-2022.json"))
    tournament = parse_tournament(raw, ZoneInfo("Asia/Qatar"))
    fixtures_only = {**raw, "matches": [_unplayed(m) for m in raw["matches"]]}
    cup = parse_tournament(fixtures_only, ZoneInfo("Asia/Qatar"))
    # A script typing a whole tournament's picks, faster than a person's rate limit.
    quick = ServerConfig(port=0, limits=Limits(commands_per_second=1000.0, command_burst=1000))
    async with served_pool(tmp_path, quick, tournament=cup) as served:
        pool = served.pool
        for handle in PLAYERS:
            served.player(handle)
        matches = pool.matches()
        served.clock.now = min(m.kickoff for m in matches) - timedelta(days=1)
        number_of = {(m.kickoff, m.team1, m.team2): m.number for m in matches}
        played = {
            number_of[(f.kickoff, f.team1, f.team2)]: p
            for f, p in zip(tournament.fixtures, independent.played(raw), strict=True)
        }
        stage_of = {m.number: m.stage for m in matches}

        rng = random.Random(39)
        picks: dict[tuple[str, int], tuple[int, int]] = {}
        jokers: set[tuple[str, int]] = set()
        for i, handle in enumerate(PLAYERS):
            pt = i % 2 == 0  # half the pool types Portuguese
            lines = []
            for number in sorted(played):
                if rng.random() < 0.1:
                    continue  # a pick forgotten now and then
                pick = (rng.randint(0, 3), rng.randint(0, 2))
                lines.append(f"{'palpite' if pt else 'bet'} {number} {pick[0]}-{pick[1]}")
                picks[(handle, number)] = pick
            # Two jokers in the group stage, one in each knock-out round: the default caps.
            group = [n for n in sorted(played) if stage_of[n].startswith("Matchday")]
            chosen = rng.sample(group, 2)
            for stage in sorted({s for s in stage_of.values() if not s.startswith("Matchday")}):
                chosen.append(rng.choice([n for n in played if stage_of[n] == stage]))
            for number in chosen:
                lines.append(f"{'coringa' if pt else 'joker'} {number}")
                jokers.add((handle, number))
            champion, scorer = ("campeao", "artilheiro") if pt else ("champion", "scorer")
            lines.append(f"bonus {champion} {CHAMPIONS[i]}")
            lines.append(f"bonus {scorer} {SCORERS[i]}")
            async with served.connect(handle) as connection:  # one exec a line
                for line in lines:
                    done = await connection.run(line)
                    assert done.exit_status == 0, (line, done.stderr)
            assert sorted(pool.extras.jokers_of(handle)) == sorted(chosen)  # placed, not chatted
            assert len(pool.extras.bonus_picks(handle)) == 2

        for m in sorted(matches, key=lambda m: m.time_order()):
            served.clock.now = m.kickoff
            pool.fixtures.kick_off(m.number)
            result = next(
                f for f in tournament.fixtures if (f.kickoff, f.team1) == (m.kickoff, m.team1)
            )
            for goal in result.goals:
                pool.fixtures.record_goal(m.number, goal)
            assert result.result is not None
            pool.fixtures.record_result(m.number, result.result)
        served.clock.now += timedelta(hours=3)

        expected = independent.score(
            PLAYERS,
            played,
            picks,
            jokers,
            dict(zip(PLAYERS, MEANT, strict=True)),
            dict(zip(PLAYERS, SCORERS, strict=True)),
            raw,
        )
        async with served.connect("ana") as connection:

            async def shown(line: str) -> Any:
                done = await connection.run(line)
                assert done.exit_status == 0, (line, done.stderr)
                return json.loads(done.stdout) if "--json" in line else done.stdout

            table = await shown("standings --json")
            assert {
                row["player"]: independent.Line(
                    row["points"], row["joker"], row["bonus"], row["days"]
                )
                for row in table
            } == expected
            assert sum(line.bonus for line in expected.values()) > 0  # the bonus picks count
            assert sum(line.joker for line in expected.values()) > 0

            # The first day, the last day (the default) and a round, in both languages.
            first_day = min(p.day for p in played.values())
            on_first = [n for n, p in played.items() if p.day == first_day]
            day = await shown(f"ranking dia {first_day} --json")
            assert day["winners"] == independent.day_winners(played, picks, jokers, on_first)
            final_day = max(p.day for p in played.values())
            last = await shown("standings day --json")
            on_last = [n for n, p in played.items() if p.day == final_day]
            assert last["day"] == final_day
            assert last["winners"] == independent.day_winners(played, picks, jokers, on_last)
            in_round = [n for n in played if stage_of[n] == "Matchday 5"]
            round_five = await shown("standings round 5 --json")
            assert round_five["winners"] == independent.day_winners(played, picks, jokers, in_round)
            # Discord's /standings day: the same line, the same table.
            sent = [{"name": "day", "value": first_day}]
            slash = line_for("standings", options_of("standings", sent), Addressee())
            assert await shown(f"{slash} --json") == day
            assert (await shown("standings round 5")).startswith("Round 5: ")
            assert "days won" in await shown("standings")


def _unplayed(match: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in match.items() if k not in ("score", "goals1", "goals2")}
