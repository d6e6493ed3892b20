"""What a pundit knows the day before a tournament: every team's rating from each
international before it, and a goal model fitted on the recent ones.

Both come from the history alone (``game.internationals``) and only from
matches played before the day asked about, so a backtest of 1994 knows nothing
of 1994. They are derived, never stored, and cached by that day.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from functools import cache

from game import internationals
from game.elo import Ratings, k_factor
from game.goals import GoalModel, Sample, fit

FIT_YEARS = 8  # the goal model learns from this many years before the day: today's game


@dataclass(frozen=True)
class Knowledge:
    ratings: Ratings  # as of the day before; copy it before counting more matches
    goals: GoalModel


def learn(
    history: Iterable[internationals.International], before: date, fit_years: int = FIT_YEARS
) -> Knowledge:
    """Ratings through every match of ``history`` before ``before``, and the goal model
    fitted on the last ``fit_years`` of them, each at the ratings it was played at."""
    ratings = Ratings()
    samples: list[Sample] = []
    since = before.replace(year=before.year - fit_years)
    for played in history:
        if played.day >= before:
            break
        difference = ratings.difference(played.home, played.away, played.neutral)
        if played.day >= since:
            samples.append((difference, played.home_goals, played.away_goals))
        count(ratings, played)
    return Knowledge(ratings, fit(samples))


def count(ratings: Ratings, played: internationals.International) -> None:
    """Moves ``ratings`` on by one match of the history, weighted by its tournament."""
    ratings.play(
        played.home,
        played.away,
        played.home_goals,
        played.away_goals,
        k_factor(played.tournament),
        played.neutral,
        played.day,
    )


@cache
def known_before(day: date) -> Knowledge:
    """What the shipped history says before ``day``."""
    return learn(internationals.shipped(), day)
