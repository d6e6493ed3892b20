import random

import pytest

from game.model import InvalidScore, Result, Score
from game.scoring import (
    PRESETS,
    ScoreBasis,
    ScoringRule,
    Tier,
    classify,
    expected,
    points_for,
    preset,
)

CLASSIC = PRESETS["classic"]
KICKTIPP = PRESETS["kicktipp"]


@pytest.mark.parametrize(
    ("predicted", "actual", "tier"),
    [
        ("2-1", "2-1", Tier.EXACT),
        ("3-2", "2-1", Tier.DIFFERENCE),
        ("1-0", "3-0", Tier.OUTCOME),
        ("0-1", "2-1", Tier.MISS),
        ("1-1", "2-1", Tier.MISS),
        ("0-0", "0-0", Tier.EXACT),
        # a draw predicted on a draw with another score: outcome and goal difference
        ("1-1", "2-2", Tier.DIFFERENCE),
        ("0-0", "3-3", Tier.DIFFERENCE),
        ("0-2", "1-3", Tier.DIFFERENCE),
        ("0-1", "0-4", Tier.OUTCOME),
    ],
)
def test_tiers(predicted: str, actual: str, tier: Tier) -> None:
    assert classify(Score.parse(predicted), Score.parse(actual)) is tier


@pytest.mark.parametrize(
    ("predicted", "classic", "kicktipp"),
    [("2-1", 10, 4), ("3-2", 7, 3), ("4-0", 5, 2), ("1-2", 0, 0), ("1-1", 0, 0)],
)
def test_presets_price_each_tier(predicted: str, classic: int, kicktipp: int) -> None:
    result = Result(Score(2, 1))
    assert points_for(Score.parse(predicted), result, CLASSIC) == classic
    assert points_for(Score.parse(predicted), result, KICKTIPP) == kicktipp


def test_extra_time_counts_and_penalties_never_do() -> None:
    final = Result(Score(2, 2), extra_time=Score(3, 3), penalties=Score(4, 2))
    assert points_for(Score(3, 3), final, CLASSIC) == 10
    assert points_for(Score(2, 2), final, CLASSIC) == 7  # a draw on a draw
    assert points_for(Score(4, 2), final, CLASSIC) == 0  # the shoot-out is not the score


def test_extra_time_winner_is_scored_after_extra_time() -> None:
    final = Result(Score(0, 0), extra_time=Score(1, 0))
    assert points_for(Score(1, 0), final, CLASSIC) == 10
    assert points_for(Score(0, 0), final, CLASSIC) == 0


def test_the_ninety_minute_option_scores_the_ninety_minutes() -> None:
    final = Result(Score(0, 0), extra_time=Score(1, 0))
    assert points_for(Score(0, 0), final, CLASSIC, ScoreBasis.NINETY) == 10
    assert points_for(Score(1, 0), final, CLASSIC, ScoreBasis.NINETY) == 0


@pytest.mark.parametrize(
    ("full_time", "extra_time", "penalties"),
    [
        (Score(1, 0), Score(2, 0), None),  # extra time after a win
        (Score(1, 1), Score(1, 0), None),  # goals taken away in extra time
        (Score(2, 1), None, Score(4, 3)),  # penalties after a win
        (Score(1, 1), None, Score(3, 3)),  # a shoot-out with no winner
    ],
)
def test_impossible_results_are_refused(
    full_time: Score, extra_time: Score | None, penalties: Score | None
) -> None:
    with pytest.raises(InvalidScore):
        Result(full_time, extra_time, penalties)


@pytest.mark.parametrize("text", ["2-1", "2:1", " 2 x 1 ", "2 - 1"])
def test_scores_parse_as_people_type_them(text: str) -> None:
    assert Score.parse(text) == Score(2, 1)


@pytest.mark.parametrize("text", ["", "2", "a-b", "-1-2", "100-0", "2-1-0"])
def test_bad_scores_are_refused(text: str) -> None:
    with pytest.raises(InvalidScore):
        Score.parse(text)


def test_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="classic, kicktipp"):
        preset("fantasy")


@pytest.mark.parametrize(
    "rule", [CLASSIC, KICKTIPP, ScoringRule("odd", exact=3, difference=5, outcome=1)]
)
def test_a_picks_expected_points_are_its_points_on_each_score_weighed_by_its_chance(
    rule: ScoringRule,
) -> None:
    grid = [Score(h, a) for h in range(8) for a in range(8)]
    drawn = random.Random(7)
    for _ in range(20):
        weights = [drawn.random() ** 4 for _ in grid]  # uneven, as a goal model's are
        chance = {score: w / sum(weights) for score, w in zip(grid, weights, strict=True)}
        worth = expected(grid, chance, rule)
        for pick in grid:
            pair_by_pair = sum(p * rule.points(classify(pick, a)) for a, p in chance.items())
            assert worth[pick] == pytest.approx(pair_by_pair, abs=1e-12)
