"""The live table at a goal reads only the days in play and adds the rest, kept from
the last event that moved it (``Pool._table``, ``views.settled_table``): after every
event of a whole World Cup (2022), a pick, a joker, a bonus pick, a kick-off, a goal,
a result, a correction, a setting, a player joining, it must be the table the full
query gives, run cold.

Runs on SQLite, and on PostgreSQL under ``python -m tests.databases``, whose
collation may order the names of players level on points otherwise than Python.
"""

from __future__ import annotations

import random
from datetime import timedelta
from zoneinfo import ZoneInfo

from game.bets_csv import BetRow
from game.bonus import CHAMPION, SCORER
from game.db import views
from game.matchdays import DAYS_FIRST, EXACT_FIRST
from game.model import Match, MatchStatus, Result, Score
from game.openfootball import Fixture, parse_tournament
from game.pool import Pool
from game.scoring import ScoreBasis
from game.sources import read_json
from tests.conftest import TEST_DATA, FakeClock

# Punctuation a collation orders otherwise than Python (ICU: "_" before "-" before "."):
# where players are level, the table keeps the database's order of their names.
PLAYERS = ("ana", "an_a", "an-a", "an.a", "bia", "b_ia")
LATE = "caio"  # joins in the middle of the tournament


class Checker:
    """Holds the pool's tables against the full query's, read cold, after each event."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.live_checks = 0

    def __call__(self, after: str) -> None:
        with self.pool.engine.connect() as connection:
            live = bool(views.in_play(connection))
            cold_live = views.standings(connection, live=live)
            cold = views.standings(connection)
        rows, in_play = self.pool.live_table()
        assert rows == cold_live, after
        assert bool(in_play) == live, after
        assert self.pool.standings(live=True) == cold_live, after
        assert self.pool.standings() == cold, after
        self.live_checks += live


def test_the_live_table_is_the_full_querys_after_every_event(pool: Pool, clock: FakeClock) -> None:
    raw = read_json(str(TEST_DATA / "worldcup-2022.json"))
    qatar = ZoneInfo("Asia/Qatar")
    tournament = parse_tournament(raw, qatar)
    unplayed = [
        {k: v for k, v in m.items() if k not in ("score", "goals1", "goals2")}
        for m in raw["matches"]
    ]
    pool.fixtures.import_tournament(parse_tournament({**raw, "matches": unplayed}, qatar))
    check = Checker(pool)
    matches = sorted(pool.matches(), key=Match.time_order)
    played: dict[int, Fixture] = {}
    for m in matches:
        played[m.number] = next(
            f for f in tournament.fixtures if (f.kickoff, f.team1) == (m.kickoff, m.team1)
        )
    rng = random.Random(40)
    clock.now = matches[0].kickoff - timedelta(days=1)
    for handle in PLAYERS:
        pool.members.add(handle)
        check(f"{handle} joined")
    group = [m.number for m in matches if m.stage.startswith("Matchday")]
    jokers = {handle: set(rng.sample(group, 2)) for handle in PLAYERS}
    for m in matches:
        if not m.stage.startswith("Matchday"):
            rounds = [n.number for n in matches if n.stage == m.stage]
            for handle in PLAYERS:
                if m.number == rounds[0]:
                    jokers[handle].add(rng.choice(rounds))

    def pick_for(number: int, handles: tuple[str, ...]) -> None:
        """Each player's pick on match ``number`` (one now and then forgotten), and their
        joker if it is one of theirs: placed while earlier matches are in play."""
        for handle in handles:
            if rng.random() < 0.1:
                continue
            pool.predictions.place(handle, number, Score(rng.randint(0, 3), rng.randint(0, 2)))
            check(f"{handle}'s pick on #{number}")
            if number in jokers.get(handle, ()):
                pool.extras.joker(handle, number)
                check(f"{handle}'s joker on #{number}")

    for m in matches[:2]:
        pick_for(m.number, PLAYERS)
    # Bonus picks close at the first kick-off; they count once the final is played.
    for handle, champion in zip(PLAYERS, ("Argentina", "France", "Brazil"), strict=False):
        pool.extras.bonus(handle, CHAMPION, champion)
        check(f"{handle}'s champion")
        pool.extras.bonus(handle, SCORER, "Kylian Mbappé")
        check(f"{handle}'s scorer")
    pending: list[int] = []  # matches left in play while the next one kicks off
    first_result: Result | None = None
    for i, m in enumerate(matches):
        clock.now = m.kickoff
        pool.fixtures.kick_off(m.number)
        check(f"#{m.number} kicked off")
        for number in pending:
            pool.fixtures.record_result(number, _result(played[number]))
            check(f"#{number}'s result")
        pending = []
        if i + 2 < len(matches):
            pick_for(matches[i + 2].number, PLAYERS + ((LATE,) if i >= 30 else ()))
        fixture = played[m.number]
        for goal in fixture.goals:
            pool.fixtures.record_goal(m.number, goal)
            check(f"a goal in #{m.number}")
        # What else may happen while a match is in play, once each.
        first = matches[0].number
        if i == 10:
            first_result = _result(played[first])
            wrong = Score(first_result.full_time.home + 1, first_result.full_time.away)
            pool.fixtures.record_result(first, Result(wrong))
            check(f"#{first} corrected")
        elif i == 14:
            assert first_result is not None
            pool.fixtures.record_result(first, first_result)
            check(f"#{first} corrected back")
        elif i == 18:
            pool.predictions.set_scoring("kicktipp")
            check("the kicktipp preset")
        elif i == 22:
            pool.set_tiebreak(DAYS_FIRST)
            check("days won first")
        elif i == 26:
            pool.extras.configure(champion_points=30, scorer_points=15)
            check("the bonus points")
        elif i == 29:
            pool.members.add(LATE)
            check(f"{LATE} joined")
        elif i == 40:
            # An admin's spreadsheet brings a pick made in time on a match long finished.
            old = played[matches[3].number]
            placed = old.kickoff - timedelta(hours=1)
            row = BetRow(1, LATE, old.local_date, old.team1, old.team2, Score(2, 1), placed)
            assert not pool.predictions.import_bets([row]).refused
            check(f"{LATE}'s imported pick on #{matches[3].number}")
        elif i == 50:
            pool.predictions.set_scoring("classic", ScoreBasis.NINETY)
            check("the ninety minutes")
        elif i == 56:
            pool.set_tiebreak(EXACT_FIRST)
            check("exact hits first")
        if i % 2 == 0 or m.stage != matches[min(i + 1, len(matches) - 1)].stage:
            pool.fixtures.record_result(m.number, _result(fixture))
            check(f"#{m.number}'s result")
        else:
            pending.append(m.number)
    for number in pending:
        pool.fixtures.record_result(number, _result(played[number]))
        check(f"#{number}'s result")
    assert all(m.status is MatchStatus.FINISHED for m in pool.matches())
    # Most of what was checked was the live table at a goal, the path kept.
    assert check.live_checks > 300
    assert any(row.bonus for row in pool.standings())  # and the bonus picks count at the end


def _result(fixture: Fixture) -> Result:
    assert fixture.result is not None
    return fixture.result
