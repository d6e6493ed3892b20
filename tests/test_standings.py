from game.model import Prediction, Result, Score
from game.scoring import PRESETS
from game.standings import StandingRow, assign_ranks, compute_standings


def row(player: str, points: int, exact: int, outcome: int) -> StandingRow:
    return StandingRow(0, player, points, exact, outcome, 3)


def test_equal_on_points_exact_and_outcome_share_a_rank() -> None:
    ranked = assign_ranks(
        [row("d", 10, 1, 1), row("a", 20, 2, 2), row("c", 10, 1, 1), row("b", 10, 1, 2)]
    )
    assert [(r.rank, r.player) for r in ranked] == [(1, "a"), (2, "b"), (3, "c"), (3, "d")]


def test_ranks_skip_after_a_tie() -> None:
    ranked = assign_ranks(
        [row("a", 9, 0, 0), row("b", 7, 0, 0), row("c", 7, 0, 0), row("d", 5, 0, 0)]
    )
    assert [r.rank for r in ranked] == [1, 2, 2, 4]


def test_exact_hits_break_a_tie_on_points() -> None:
    ranked = assign_ranks([row("a", 10, 0, 2), row("b", 10, 1, 1)])
    assert [r.player for r in ranked] == ["b", "a"]


def test_standings_from_predictions_and_results() -> None:
    results = {1: Result(Score(2, 1)), 2: Result(Score(0, 0))}
    predictions = [
        Prediction("ana", 1, Score(2, 1)),  # 10
        Prediction("ana", 2, Score(1, 1)),  # 7
        Prediction("bia", 1, Score(1, 0)),  # 7
        Prediction("bia", 3, Score(1, 0)),  # not played yet
    ]
    table = compute_standings(["ana", "bia", "caio"], predictions, results, PRESETS["classic"])
    assert [(r.rank, r.player, r.points, r.exact, r.outcome, r.predictions) for r in table] == [
        (1, "ana", 17, 1, 2, 2),
        (2, "bia", 7, 0, 1, 1),
        (3, "caio", 0, 0, 0, 0),
    ]
    as_of_first = compute_standings(
        ["ana", "bia"], predictions, results, PRESETS["classic"], counted={1}
    )
    assert [(r.player, r.points) for r in as_of_first] == [("ana", 10), ("bia", 7)]
