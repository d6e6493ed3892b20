"""bench.recheck: her posted lines checked again, each against the pool as it stood."""

from __future__ import annotations

from pathlib import Path

from bench.recheck import recheck
from game.db.engine import open_database
from game.model import Score
from game.pool import Pool
from tests.conftest import FakeClock, play, small_tournament


def test_a_posted_line_is_checked_against_the_pool_when_it_was_posted(
    tmp_path: Path, clock: FakeClock
) -> None:
    database = tmp_path / "hearing.db"
    engine = open_database(f"sqlite:///{database}")
    pool = Pool(engine, clock)
    pool.fixtures.import_tournament(small_tournament())
    for handle in ("ana", "bia", "betania"):
        pool.members.add(handle)
    pool.predictions.place("ana", 1, Score(2, 0))
    pool.predictions.place("bia", 1, Score(1, 0))
    pool.predictions.place("bia", 2, Score(1, 1))
    play(pool, clock, 1, "2-0")
    pool.talk.remark("betania", "bia is on 5 points, 5 behind ana.")  # true then, not later
    pool.talk.remark("betania", "bia leads the pool on 10 points.")  # false
    play(pool, clock, 2, "1-1")
    pool.talk.remark("betania", "bia leads the pool on 15 points.")  # true
    engine.dispose()
    refused = recheck(database, "betania")
    assert [(line.number, reason.split(":")[0]) for line, reason in refused] == [(2, "points 10")]
