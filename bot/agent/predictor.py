"""Her own picks, offline: Elo-style ratings from the results so far, and a Poisson score.

Ratings are derived, never stored: recomputed from the finished matches each
time she picks, so a corrected result corrects her too.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from game.model import Match, MatchStatus, Score

START = 1500.0
K = 30.0
GOALS_PER_TEAM = 1.3  # the average World Cup side scores about this much a match
SPREAD = 600.0  # rating points that multiply a side's expected goals by e
MAX_GOALS = 6
# A model's pick stands only among the likeliest scores covering this much of the chance
# (about the 15-20 likeliest of a World Cup match; 7-4 or 18-10 are never among them).
PLAUSIBLE_MASS = 0.9


def goal_weight(margin: int) -> float:
    """World Football Elo's multiplier: wins by more move ratings more."""
    if margin <= 1:
        return 1.0
    if margin == 2:
        return 1.5
    return (11 + margin) / 8


def ratings(matches: Iterable[Match]) -> dict[str, float]:
    """Every team's rating after the finished matches, in kick-off order; shoot-outs are draws."""
    rating: dict[str, float] = {}
    for match in sorted(matches, key=lambda m: m.kickoff):
        if match.status is not MatchStatus.FINISHED or match.result is None:
            continue
        home, away = rating.get(match.team1, START), rating.get(match.team2, START)
        score = match.result.end_of_play
        actual = 1.0 if score.outcome > 0 else 0.0 if score.outcome < 0 else 0.5
        expected = 1 / (1 + 10 ** ((away - home) / 400))
        change = K * goal_weight(abs(score.difference)) * (actual - expected)
        rating[match.team1], rating[match.team2] = home + change, away - change
    return rating


def _poisson(mean: float, goals: int) -> float:
    return math.exp(-mean) * mean**goals / math.factorial(goals)


def chances(match: Match, table: dict[str, float]) -> dict[Score, float]:
    """Every score up to ``MAX_GOALS`` a side, with its chance: each side's goals a
    Poisson draw whose mean the rating gap moves."""
    gap = table.get(match.team1, START) - table.get(match.team2, START)
    home_mean = GOALS_PER_TEAM * math.exp(gap / SPREAD)
    away_mean = GOALS_PER_TEAM * math.exp(-gap / SPREAD)
    return {
        Score(h, a): _poisson(home_mean, h) * _poisson(away_mean, a)
        for h in range(MAX_GOALS + 1)
        for a in range(MAX_GOALS + 1)
    }


def plausible(chance: dict[Score, float], mass: float = PLAUSIBLE_MASS) -> set[Score]:
    """The likeliest scores that together cover ``mass`` of the chance: what a pick from
    a model may be and still be a pick, not a number it made up."""
    kept: set[Score] = set()
    covered = 0.0
    for score in sorted(chance, key=lambda s: (-chance[s], s.home, s.away)):
        if covered >= mass:
            break
        kept.add(score)
        covered += chance[score]
    return kept


def pick(match: Match, table: dict[str, float]) -> Score:
    """The most likely outcome first (it is worth most of the points), then its most
    likely score, with each side's expected goals from the rating gap."""
    chance = chances(match, table)
    by_outcome: dict[int, float] = {}
    for score, p in chance.items():
        by_outcome[score.outcome] = by_outcome.get(score.outcome, 0.0) + p
    # Even odds go to the side listed first, as pools usually do.
    outcome = max(by_outcome, key=lambda o: (round(by_outcome[o], 9), o))
    return max((s for s in chance if s.outcome == outcome), key=chance.__getitem__)
