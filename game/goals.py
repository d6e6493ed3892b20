"""A chance for every score, from the rating difference: a Dixon-Coles goal model.

Each side's goals are a Poisson draw whose mean the rating difference moves,
``log mean = base +/- slope * dr / 400``, and the low scores (0-0, 1-0, 0-1,
1-1) are corrected by Dixon and Coles's ``rho``, which a plain Poisson gets
wrong: real matches are drawn more often than two independent draws say.
``fit`` finds the three numbers by maximum likelihood on past matches.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from game.model import Score

MOST_GOALS = 10  # a side's goals the model counts to; more has a negligible chance
Sample = tuple[float, int, int]  # (dr, home goals, away goals)


@dataclass(frozen=True)
class GoalModel:
    base: float = math.log(1.3)  # a side's mean goals, as a log, at level ratings
    slope: float = 0.7  # per 400 rating points of difference, on that log
    rho: float = 0.0  # Dixon-Coles: below 0, more 0-0s and 1-1s than independence says

    def means(self, difference: float) -> tuple[float, float]:
        """Each side's expected goals at a rating ``difference`` (``dr``)."""
        lean = self.slope * difference / 400
        return math.exp(self.base + lean), math.exp(self.base - lean)

    def chances(self, difference: float) -> dict[Score, float]:
        """Every score up to ``MOST_GOALS`` a side with its chance; they sum to 1."""
        home, away = self.means(difference)
        raw = {
            Score(h, a): _tau(h, a, home, away, self.rho) * poisson(home, h) * poisson(away, a)
            for h in range(MOST_GOALS + 1)
            for a in range(MOST_GOALS + 1)
        }
        total = sum(raw.values())
        return {score: p / total for score, p in raw.items()}


def fit(samples: Sequence[Sample]) -> GoalModel:
    """The goal model most likely to have produced ``samples``: Poisson regression by
    Newton's method for ``base`` and ``slope``, then ``rho`` on a fine grid."""
    if not samples:
        return GoalModel()
    base, slope = math.log(1.3), 0.5
    for _ in range(25):
        # Each match is two observations: the home side at +x, the away side at -x.
        grad = [0.0, 0.0]
        hess = [[0.0, 0.0], [0.0, 0.0]]
        for difference, home_goals, away_goals in samples:
            x = difference / 400
            for sign, goals in ((1.0, home_goals), (-1.0, away_goals)):
                mean = math.exp(base + slope * sign * x)
                feature = sign * x
                grad[0] += goals - mean
                grad[1] += (goals - mean) * feature
                hess[0][0] += mean
                hess[0][1] += mean * feature
                hess[1][1] += mean * feature * feature
        det = hess[0][0] * hess[1][1] - hess[0][1] ** 2
        step_base = (hess[1][1] * grad[0] - hess[0][1] * grad[1]) / det
        step_slope = (hess[0][0] * grad[1] - hess[0][1] * grad[0]) / det
        base, slope = base + step_base, slope + step_slope
        if abs(step_base) + abs(step_slope) < 1e-9:
            break
    plain = GoalModel(base, slope)
    # The low scores with their means, worked out once for the 121 values of rho tried.
    low = [(h, a, *plain.means(d)) for d, h, a in samples if h <= 1 and a <= 1]

    def likelihood(rho: float) -> float:
        total = 0.0
        for h, a, mean_home, mean_away in low:
            tau = _tau(h, a, mean_home, mean_away, rho)
            if tau <= 0:
                return -math.inf
            total += math.log(tau)
        return total

    rho = max((r / 200 for r in range(-60, 61)), key=likelihood)
    return GoalModel(base, slope, rho)


def poisson(mean: float, goals: int) -> float:
    return math.exp(-mean) * mean**goals / math.factorial(goals)


def _tau(home: int, away: int, mean_home: float, mean_away: float, rho: float) -> float:
    """Dixon and Coles's correction of the four low scores."""
    if home == 0 and away == 0:
        return 1 - mean_home * mean_away * rho
    if home == 0 and away == 1:
        return 1 + mean_home * rho
    if home == 1 and away == 0:
        return 1 + mean_away * rho
    if home == 1 and away == 1:
        return 1 - rho
    return 1.0
