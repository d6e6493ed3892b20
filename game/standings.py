"""The table, as a rule: who is ahead and how ties share a rank.

This is the reference computation in plain Python, used where there is no
database (unit tests, rebuilding the table from the event log alone). The
server answers the same question with one SQL aggregate in ``game.db.views``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import NamedTuple

from game.bonus import CHAMPION, SCORER
from game.matchdays import winners
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
    # ``points`` holds these two: what jokers added (the doubled picks' points once
    # more) and the bonus picks' points, shown apart in their own columns.
    joker: int = 0
    bonus: int = 0
    days: int = 0  # days won: the most points of anyone on a match day, ties sharing it

    def as_dict(self) -> dict[str, int | str]:
        return dict(self._asdict())

    def sort_key(self, days_first: bool = False) -> tuple[int, ...]:
        if days_first:
            return (self.points, self.days, self.exact, self.outcome)
        return (self.points, self.exact, self.outcome)


def assign_ranks(
    rows: Iterable[StandingRow], days_first: bool = False, names_in_order: bool = False
) -> list[StandingRow]:
    """Order by points, exact hits, outcome hits (with ``days_first``, days won right
    after points); equals share a rank (1, 2, 2, 4), listed by name.

    ``names_in_order``: the rows come in the database's name order, which ties keep
    (PostgreSQL's collation may order names otherwise than Python does).
    """

    def order(row: StandingRow) -> tuple[object, ...]:
        ahead = tuple(-k for k in row.sort_key(days_first))
        return ahead if names_in_order else (*ahead, row.player)

    ordered = sorted(rows, key=order)  # a stable sort: ties keep the order they came in
    ranked: list[StandingRow] = []
    for position, row in enumerate(ordered, start=1):
        same_as_previous = ranked and ranked[-1].sort_key(days_first) == row.sort_key(days_first)
        rank = ranked[-1].rank if same_as_previous else position
        ranked.append(row._replace(rank=rank))
    return ranked


def top_of(rows: Sequence[StandingRow]) -> list[str]:
    """Who leads a table as it ranks them: rank 1, with points. Level on points, the
    tie-break decides (exact hits first), so one may lead alone a tie on points: the
    pool's one notion of "the top", for its screens, her answers and her checks."""
    if not rows or rows[0].points <= 0:
        return []
    return [row.player for row in rows if row.rank == rows[0].rank]


def add_up(
    first: Iterable[StandingRow],
    second: Iterable[StandingRow],
    names: Iterable[str],
    days_first: bool = False,
) -> list[StandingRow]:
    """One table from the tables of two sets of whole days, apart (each day's matches
    all in one of them): every column adds up, the days won included, and the sum is
    ranked again. ``names``: every player, in the database's name order, which ties
    keep. Column by column, not a loop over them: it runs at every goal, 10,000 rows."""
    one = {row.player: row for row in first}
    other = {row.player: row for row in second}
    empty = StandingRow(0, "", 0, 0, 0, 0)
    summed = []
    for handle in names:
        a, b = one.get(handle, empty), other.get(handle, empty)
        summed.append(
            StandingRow(
                0,
                handle,
                a.points + b.points,
                a.exact + b.exact,
                a.outcome + b.outcome,
                a.predictions + b.predictions,
                a.joker + b.joker,
                a.bonus + b.bonus,
                a.days + b.days,
            )
        )
    return assign_ranks(summed, days_first, names_in_order=True)


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
    jokers: Collection[tuple[str, int]] = (),
    bonus: Mapping[str, int] | None = None,
    days: Mapping[int, date] | None = None,
    days_first: bool = False,
    in_play: Collection[int] = (),
) -> list[StandingRow]:
    """Standings from predictions and results; ``counted`` limits them to those matches
    (``played_by`` gives the matches of the table as it stood after one).

    ``jokers``: (player, match) pairs whose pick counts twice. ``bonus``: each
    player's bonus points (``bonus_points``). ``days``: each match's day
    (``game.matchdays.day_of``), to count the days each player won: a day is won
    only once it is over, every match on it counted with its result; ``in_play``:
    the matches whose result is a running score, which keep their day open.
    """
    totals = {handle: [0, 0, 0, 0, 0] for handle in players}
    on_day: dict[date, dict[str, int]] = defaultdict(dict)
    for prediction in predictions:
        number = prediction.match_number
        result = results.get(number)
        if result is None or (counted is not None and number not in counted):
            continue
        tier = classify(prediction.score, scored_score(result, basis))
        row = totals.setdefault(prediction.handle, [0, 0, 0, 0, 0])
        points = rule.points(tier)
        doubled = points if (prediction.handle, number) in jokers else 0
        row[0] += points + doubled
        row[1] += tier is Tier.EXACT
        row[2] += tier is not Tier.MISS
        row[3] += 1
        row[4] += doubled
        if days is not None:
            day = on_day[days[number]]
            day[prediction.handle] = day.get(prediction.handle, 0) + points + doubled
    unfinished = {
        played
        for number, played in (days or {}).items()
        if number not in results
        or number in in_play
        or (counted is not None and number not in counted)
    }
    won: dict[str, int] = defaultdict(int)
    for played, scores in on_day.items():
        for handle in winners(scores) if played not in unfinished else ():
            won[handle] += 1
    bonus = bonus or {}
    return assign_ranks(
        (
            StandingRow(
                0,
                handle,
                points + bonus.get(handle, 0),
                exact,
                outcome,
                count,
                doubled,
                bonus.get(handle, 0),
                won[handle],
            )
            for handle, (points, exact, outcome, count, doubled) in totals.items()
        ),
        days_first,
    )


def bonus_points(
    picks: Iterable[tuple[str, str, str]],
    champion: str | None,
    scorers: Collection[str],
    champion_points: int,
    scorer_points: int,
) -> dict[str, int]:
    """Each player's bonus points from their (player, kind, key) bonus picks, once the
    tournament has its champion and top scorers (``game.bonus.settle``)."""
    earned: dict[str, int] = defaultdict(int)
    for handle, kind, key in picks:
        if kind == CHAMPION and champion is not None and key == champion:
            earned[handle] += champion_points
        elif kind == SCORER and key in scorers:
            earned[handle] += scorer_points
    return dict(earned)
