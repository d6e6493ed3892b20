"""How a prediction earns points: tiers, presets, and which score counts.

The tiers are the rule; a preset only says what each tier is worth. The SQL
standings in ``game.db.views`` build their CASE expression from the same preset
and ``tests/test_standings_sql.py`` checks both against each other.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from game.model import Result, Score


class Tier(enum.IntEnum):
    MISS = 0
    OUTCOME = 1  # right winner (or draw)
    DIFFERENCE = 2  # right winner and right goal difference; any draw on a draw
    EXACT = 3


class ScoreBasis(enum.StrEnum):
    END_OF_PLAY = "end-of-play"  # after extra time when it was played, never penalties
    NINETY = "90"  # the 90-minute score only


@dataclass(frozen=True)
class ScoringRule:
    name: str
    exact: int
    difference: int
    outcome: int

    def points(self, tier: Tier) -> int:
        return {
            Tier.EXACT: self.exact,
            Tier.DIFFERENCE: self.difference,
            Tier.OUTCOME: self.outcome,
            Tier.MISS: 0,
        }[tier]


PRESETS: dict[str, ScoringRule] = {
    "classic": ScoringRule("classic", exact=10, difference=7, outcome=5),
    "kicktipp": ScoringRule("kicktipp", exact=4, difference=3, outcome=2),
}
DEFAULT_PRESET = "classic"


def preset(name: str) -> ScoringRule:
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise ValueError(f"unknown scoring preset {name!r} (known: {known})") from None


def classify(predicted: Score, actual: Score) -> Tier:
    if predicted == actual:
        return Tier.EXACT
    if predicted.outcome != actual.outcome:
        return Tier.MISS
    if predicted.difference == actual.difference:
        return Tier.DIFFERENCE
    return Tier.OUTCOME


def expected(
    picks: Iterable[Score], chance: Mapping[Score, float], rule: ScoringRule
) -> dict[Score, float]:
    """What each of ``picks`` earns on average under ``rule`` when the score is drawn
    from ``chance``: ``rule.points(classify(pick, actual))`` weighed by each actual's
    chance, summed once per outcome and goal difference instead of once per pair.

    The tiers nest (an exact score has the right difference, and the right difference
    the right outcome), so a pick earns the outcome's points on its outcome's chance,
    the difference's extra on its difference's chance, and the exact score's extra on
    its own: ``tests/test_scoring.py`` holds it equal to ``classify`` pair by pair.
    """
    by_outcome: dict[int, float] = {}
    by_difference: dict[int, float] = {}
    for actual, p in chance.items():
        by_outcome[actual.outcome] = by_outcome.get(actual.outcome, 0.0) + p
        by_difference[actual.difference] = by_difference.get(actual.difference, 0.0) + p
    return {
        pick: rule.outcome * by_outcome.get(pick.outcome, 0.0)
        + (rule.difference - rule.outcome) * by_difference.get(pick.difference, 0.0)
        + (rule.exact - rule.difference) * chance.get(pick, 0.0)
        for pick in picks
    }


def scored_score(result: Result, basis: ScoreBasis = ScoreBasis.END_OF_PLAY) -> Score:
    """The score predictions are judged against; the shoot-out never counts."""
    return result.full_time if basis is ScoreBasis.NINETY else result.end_of_play


def points_for(
    predicted: Score,
    result: Result,
    rule: ScoringRule,
    basis: ScoreBasis = ScoreBasis.END_OF_PLAY,
) -> int:
    return rule.points(classify(predicted, scored_score(result, basis)))
