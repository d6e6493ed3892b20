"""Simulated players and a simulated clock, for replays and the demo."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from game.model import Goal, Result, Score

HALF_TIME = timedelta(minutes=15)
EXTRA_TIME_BREAK = timedelta(minutes=5)

NAMES = (
    "ana", "bruno", "carla", "diego", "elis", "fabio", "gabi", "heitor", "iris", "joao",
    "karina", "leo", "marta", "nina", "otavio", "paula", "quim", "rita", "saulo", "tania",
)  # fmt: skip


@dataclass
class SimulatedClock:
    """Tournament time, moved forward by the replay; the pool reads it like a wall clock."""

    now: datetime

    def __call__(self) -> datetime:
        return self.now

    def advance_to(self, moment: datetime) -> None:
        # Time never runs backwards, even when two actions share a moment.
        self.now = max(self.now, moment)

    def advance(self, delta: timedelta) -> None:
        self.now += delta


def simulated_handles(count: int) -> list[str]:
    return [NAMES[i] if i < len(NAMES) else f"player{i + 1}" for i in range(count)]


# A simulated side's goals, picked or scored, stop at 9: more is no football a
# table should show. The cap spends no draw, so a seed's sequence is the same.
MOST_GOALS = 9


def poisson_draw(rng: random.Random, mean: float) -> int:
    """A goal count drawn from a Poisson law of ``mean`` (Knuth's product of uniforms)."""
    limit, k, product = math.exp(-mean), 0, rng.random()
    while product > limit:
        k += 1
        product *= rng.random()
    return min(k, MOST_GOALS)


@dataclass(frozen=True)
class SimulatedBettor:
    """A player with a temperament: some expect goals, some expect draws, all are seeded."""

    handle: str
    goals: float  # the scores they imagine
    home_bias: float

    @classmethod
    def make(cls, handle: str, seed: int) -> SimulatedBettor:
        rng = random.Random(f"{seed}:{handle}")
        return cls(handle, rng.uniform(0.8, 1.8), rng.uniform(-0.3, 0.5))

    def pick(self, match_number: int, seed: int) -> Score:
        rng = random.Random(f"{seed}:{self.handle}:{match_number}")
        return Score(
            poisson_draw(rng, self.goals + self.home_bias / 2),
            poisson_draw(rng, self.goals - self.home_bias / 2),
        )


@dataclass
class AcceleratedClock:
    """Tournament time that runs ``speed`` times faster than the wall clock."""

    start: datetime
    speed: float
    real_start: float = field(default_factory=time.monotonic)

    def __call__(self) -> datetime:
        return self.start + timedelta(seconds=(time.monotonic() - self.real_start) * self.speed)

    def real_seconds_until(self, moment: datetime) -> float:
        return max(0.0, (moment - self()).total_seconds() / self.speed)


def goal_time(kickoff: datetime, goal: Goal) -> datetime:
    """When a goal at ``goal.minute`` happens on the clock: half-time and breaks included."""
    minutes = timedelta(minutes=goal.minute + goal.added)
    if goal.minute > 45:
        minutes += HALF_TIME
    if goal.minute > 90:
        minutes += EXTRA_TIME_BREAK
    return kickoff + minutes


def final_whistle(kickoff: datetime, result: Result | None, goals: Iterable[Goal] = ()) -> datetime:
    """When the match ends: after its time and breaks, and never before its last goal
    (real data has goals at 90+13, later than any usual allowance)."""
    played = 120 + 5 if result and result.extra_time else 90
    shootout = 15 if result and result.penalties else 0
    usual = kickoff + HALF_TIME + timedelta(minutes=played + 8 + shootout)
    last = max((goal_time(kickoff, goal) for goal in goals), default=kickoff)
    return max(usual, last + timedelta(minutes=2))


class Deck:
    """Lines drawn like cards: none comes again until every one has come once, then the
    deck is shuffled anew ("who called Brazil?" came four times in one demo)."""

    def __init__(self, lines: Sequence[str], rng: random.Random) -> None:
        self.lines, self.rng = list(lines), rng
        self.left: list[str] = []

    def draw(self) -> str:
        if not self.left:
            self.left = self.rng.sample(self.lines, len(self.lines))
        return self.left.pop()
