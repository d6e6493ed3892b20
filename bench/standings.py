"""Standings for 10,000 players x 104 matches, against a bare scan, on SQLite or PostgreSQL.

    python -m bench.standings [--players N] [--repeat R] [--db URL]

``--db`` names an empty database to fill (``postgresql+psycopg://...``); by
default a SQLite file in a temporary folder.

Prints the best time of the standings query (``game.db.views.standings``) and
of a bare full scan of the predictions table, measured in the same run, and
their ratio: the figure that matters on a shared, noisy machine.

Then a goal's table: with matches 1-102 finished, 103 in play and 104 to come
(the last day's three), the table every session shows after a goal in 103, read
the way the front ends read it (``Pool.live_table``, the goal recorded through
the pool, untimed), against the bare scan in the same run.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import text, update

from game.db import views
from game.db.engine import open_database
from game.db.schema import matches
from game.model import Goal
from game.pool import Pool

MATCHES = 104
LIVE_MATCH = 103  # in play on the last day, #102 finished on it and #104 to come
SCAN = text("SELECT sum(home), sum(away), count(*) FROM predictions")


def populate(url: str, players: int, seed: int = 2026) -> None:
    """Fill the schema straight through the driver: the set-up is not what is measured."""
    rng = random.Random(seed)
    engine = open_database(url)
    start = datetime(2026, 6, 11, 18, tzinfo=UTC)
    created = datetime(2026, 6, 1, tzinfo=UTC).replace(tzinfo=None).isoformat(" ")
    postgresql = engine.dialect.name == "postgresql"
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()

        def many(sql: str, rows: Iterable[tuple[object, ...]]) -> None:
            cursor.executemany(sql.replace("?", "%s") if postgresql else sql, list(rows))

        many(
            "INSERT INTO matches (number, source_key, stage, kickoff, team1, team2, status, ft_home, ft_away)"
            " VALUES (?, ?, 'Group', ?, 'A', 'B', 'finished', ?, ?)",
            [
                (
                    n,
                    f"m{n}",
                    (start + timedelta(hours=n)).replace(tzinfo=None).isoformat(" "),
                    rng.randint(0, 3),
                    rng.randint(0, 3),
                )
                for n in range(1, MATCHES + 1)
            ],
        )
        many(
            "INSERT INTO players (id, handle, display_name, is_admin, created_at) VALUES (?, ?, ?, ?, ?)",
            [(i, f"p{i}", f"Player {i}", False, created) for i in range(1, players + 1)],
        )
        picks = (
            (player, match, rng.randint(0, 3), rng.randint(0, 3), created)
            for player in range(1, players + 1)
            for match in range(1, MATCHES + 1)
        )
        columns = "predictions (player_id, match_number, home, away, placed_at)"
        if postgresql:  # a million rows: COPY, not a million INSERTs
            with cursor.copy(f"COPY {columns} FROM STDIN") as copy:
                for row in picks:
                    copy.write_row(row)
        else:
            many(f"INSERT INTO {columns} VALUES (?, ?, ?, ?, ?)", picks)
        raw.commit()
        if postgresql:
            # VACUUM now, not autovacuum in the middle of the timings: a million new rows
            # set it off, and on two cores it takes one from the queries measured.
            raw.driver_connection.autocommit = True  # type: ignore[union-attr]
            cursor.execute("VACUUM ANALYZE")
            # And write the new pages out now: a checkpoint flushing them during the
            # timings also takes a core from both queries, and moved the ratio by a tenth.
            cursor.execute("CHECKPOINT")
        else:
            cursor.execute("ANALYZE")
            raw.commit()
    finally:
        raw.close()
        engine.dispose()


def best_of(
    repeat: int, *works: Callable[[], object], before: Callable[[], object] = lambda: None
) -> list[float]:
    """The best time of each of ``works``, run in turns: a burst of noise on a shared
    machine then falls on both, not on a block of one. ``before`` runs untimed ahead
    of each turn."""
    times: list[list[float]] = [[] for _ in works]
    for _ in range(repeat):
        before()
        for spent, work in zip(times, works, strict=True):
            started = time.perf_counter()
            work()
            spent.append(time.perf_counter() - started)
    return [min(spent) for spent in times]


def a_goals_table(url: str, repeat: int) -> tuple[float, float]:
    """The best time of the table after a goal, as the front ends read it, and of the
    bare scan, in turns; the database holds every match finished when this starts."""
    engine = open_database(url)
    unplayed = {"ft_home": None, "ft_away": None}
    with engine.begin() as connection:
        live = matches.c.number == LIVE_MATCH
        connection.execute(update(matches).where(live).values(status="live", **unplayed))
        later = matches.c.number > LIVE_MATCH
        connection.execute(update(matches).where(later).values(status="scheduled", **unplayed))
    pool = Pool(engine)
    pool.live_table()  # the first look at the pool reads what a goal leaves as it was
    goals = iter(range(1, 91))

    def scan() -> None:
        # A connection of its own each time: one held open would keep SQLite from the
        # goals' writes.
        with engine.connect() as connection:
            connection.execute(SCAN).one()

    try:
        table_s, scan_s = best_of(
            repeat,
            pool.live_table,
            scan,
            before=lambda: pool.fixtures.record_goal(LIVE_MATCH, Goal("home", next(goals))),
        )
        return table_s, scan_s
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--db", help="an empty database to fill (default: a SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        url = args.db or f"sqlite:///{Path(directory) / 'bench.db'}"
        populate(url, args.players)
        engine = open_database(url)
        with engine.connect() as connection:
            count = connection.execute(text("SELECT count(*) FROM predictions")).scalar_one()
            table = views.standings(connection)  # warm the page cache for both
            standings_s, scan_s = best_of(
                args.repeat,
                lambda: views.standings(connection),
                lambda: connection.execute(SCAN).one(),
            )
        engine.dispose()
        goal_s, goal_scan_s = a_goals_table(url, args.repeat)
    print(f"database: {url.split(':')[0]}")
    print(f"predictions: {count:,} ({args.players:,} players x {MATCHES} matches)")
    print(f"leader: {table[0].player} with {table[0].points} points")
    print(f"standings query: {standings_s * 1000:.0f} ms (best of {args.repeat})")
    print(f"bare full scan:  {scan_s * 1000:.0f} ms (best of {args.repeat})")
    print(f"ratio: {standings_s / scan_s:.2f}")
    print(f"a goal's table: {goal_s * 1000:.0f} ms (best of {args.repeat}, #{LIVE_MATCH} in play)")
    print(f"bare full scan: {goal_scan_s * 1000:.0f} ms (best of {args.repeat})")
    print(f"a goal's ratio: {goal_s / goal_scan_s:.2f}")


if __name__ == "__main__":
    main()
