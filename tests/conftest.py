from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from game.db.engine import open_database
from game.openfootball import Fixture, Tournament
from game.service import Pool

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@dataclass
class FakeClock:
    """The server's clock, moved by the test."""

    now: datetime

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 6, 1, 12, 0, tzinfo=UTC))


@pytest.fixture
def pool(tmp_path: Path, clock: FakeClock) -> Iterator[Pool]:
    engine = open_database(f"sqlite:///{tmp_path / 'pool.db'}")
    yield Pool(engine, clock)
    engine.dispose()


def fixture(
    key: str,
    team1: str,
    team2: str,
    kickoff: datetime,
    stage: str = "Group stage",
    **extra: object,
) -> Fixture:
    return Fixture(
        source_key=key,
        stage=stage,
        kickoff=kickoff,
        local_date=kickoff.date().isoformat(),
        team1=team1,
        team2=team2,
        **extra,
    )


def small_tournament(start: datetime = datetime(2026, 6, 11, 18, 0, tzinfo=UTC)) -> Tournament:
    """Four matches a day apart, all to be played."""
    teams = [
        ("Brazil", "Serbia"),
        ("Argentina", "Mexico"),
        ("Japan", "Spain"),
        ("France", "Morocco"),
    ]
    return Tournament(
        "Test Cup",
        tuple(
            fixture(f"m{i}", home, away, start + timedelta(days=i))
            for i, (home, away) in enumerate(teams)
        ),
    )


@pytest.fixture
def tournament_pool(pool: Pool) -> Pool:
    """A pool with the small tournament and three players."""
    pool.import_fixtures(small_tournament())
    for handle in ("ana", "bia", "caio"):
        pool.add_player(handle)
    return pool
