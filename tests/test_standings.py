from game.model import Prediction, Result, Score
from game.scoring import PRESETS
from game.standings import StandingRow, add_up, assign_ranks, compute_standings


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


def test_two_tables_of_whole_days_add_up_and_ties_keep_the_databases_name_order() -> None:
    finished = [StandingRow(1, "a_b", 10, 1, 2, 3, 0, 0, 1), StandingRow(2, "a-b", 5, 0, 1, 3)]
    in_play = [
        StandingRow(1, "a-b", 12, 1, 2, 1, 5, 0, 1),
        StandingRow(2, "a_b", 7, 0, 1, 1, 0, 0, 1),
    ]
    # An ICU collation puts "_" before "-", where Python's order puts "-" first.
    table = add_up(finished, in_play, ["a_b", "a-b", "c"])
    assert table == [
        StandingRow(1, "a_b", 17, 1, 3, 4, 0, 0, 2),
        StandingRow(1, "a-b", 17, 1, 3, 4, 5, 0, 1),
        StandingRow(3, "c", 0, 0, 0, 0),
    ]
    assert [r.player for r in add_up(finished, in_play, ["a-b", "a_b"])] == ["a-b", "a_b"]
    # Days won first: a_b's two days break the tie.
    ahead = add_up(finished, in_play, ["a-b", "a_b"], days_first=True)
    assert [(r.rank, r.player) for r in ahead] == [(1, "a_b"), (2, "a-b")]


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
