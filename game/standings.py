"""The table, as a rule: who is ahead and how ties share a rank.

This is the reference computation in plain Python, used where there is no
database (unit tests, rebuilding the table from the event log alone). The
server answers the same question with one SQL aggregate in ``game.db.views``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from datetime import datetime
from typing import NamedTuple

from game.model import Prediction, Result
from game.scoring import ScoreBasis, ScoringRule, Tier, classify, scored_score


class StandingRow(NamedTuple):
    """One player's line in the table. A named tuple, not a frozen dataclass: a table
    of 10,000 players is built at every goal, in 6 ms this way and 20 ms that way."""

    rank: int
    player: str
    points: int
    exact: int
    outcome: int  # predictions with the right outcome, exact hits included
    predictions: int  # predictions on finished matches

    def as_dict(self) -> dict[str, int | str]:
        return dict(self._asdict())

    @property
    def sort_key(self) -> tuple[int, int, int]:
        return (self.points, self.exact, self.outcome)


def assign_ranks(rows: Iterable[StandingRow]) -> list[StandingRow]:
    """Order by points, exact hits, outcome hits; equals share a rank (1, 2, 2, 4)."""
    ordered = sorted(rows, key=lambda row: (-row.points, -row.exact, -row.outcome, row.player))
    ranked: list[StandingRow] = []
    for position, row in enumerate(ordered, start=1):
        same_as_previous = ranked and ranked[-1].sort_key == row.sort_key
        rank = ranked[-1].rank if same_as_previous else position
        ranked.append(
            StandingRow(rank, row.player, row.points, row.exact, row.outcome, row.predictions)
        )
    return ranked


def played_by(kickoffs: Mapping[int, datetime], number: int, inclusive: bool = True) -> set[int]:
    """The matches that come before match #N in time (and #N itself when ``inclusive``).

    Time, not the number, orders them: official numbers (FIFA's) are not always
    in kick-off order, and "the table after #74" must count #75 if it was played
    first. Matches kicking off together are ordered by number.
    """
    mark = (kickoffs[number], number)
    return {
        n for n, kickoff in kickoffs.items() if (kickoff, n) < mark or (inclusive and n == number)
    }


def compute_standings(
    players: Iterable[str],
    predictions: Iterable[Prediction],
    results: Mapping[int, Result],
    rule: ScoringRule,
    basis: ScoreBasis = ScoreBasis.END_OF_PLAY,
    counted: Collection[int] | None = None,
) -> list[StandingRow]:
    """Standings from predictions and results; ``counted`` limits them to those matches
    (``played_by`` gives the matches of the table as it stood after one)."""
    totals = {handle: [0, 0, 0, 0] for handle in players}
    for prediction in predictions:
        result = results.get(prediction.match_number)
        if result is None or (counted is not None and prediction.match_number not in counted):
            continue
        tier = classify(prediction.score, scored_score(result, basis))
        row = totals.setdefault(prediction.handle, [0, 0, 0, 0])
        row[0] += rule.points(tier)
        row[1] += tier is Tier.EXACT
        row[2] += tier is not Tier.MISS
        row[3] += 1
    return assign_ranks(
        StandingRow(0, handle, points, exact, outcome, count)
        for handle, (points, exact, outcome, count) in totals.items()
    )
