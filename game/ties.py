"""Two-legged ties: which match is whose second leg, and whether away goals count.

A cup's knock-out round played home and away lists each pair of clubs twice,
the second time with the sides swapped. The pool plays every leg as a match of
its own (a pick scores on the leg's score); the tie is decided on the
aggregate, which the second leg's ``Result`` carries (``Result.first_leg``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Protocol, TypeVar

from game.model import knockout_round


class Leg(Protocol):
    @property
    def stage(self) -> str: ...
    @property
    def group(self) -> str | None: ...
    @property
    def team1(self) -> str: ...
    @property
    def team2(self) -> str: ...
    @property
    def kickoff(self) -> datetime: ...


L = TypeVar("L", bound=Leg)


def second_legs(matches: Iterable[L]) -> dict[int, int]:
    """{position of a second leg: position of its first leg} in ``matches``.

    A second leg is the later of two matches of one knock-out round between the
    same two sides, home and away swapped. A group's double round robin is not a
    tie: matches in a group, or in a stage called "Group" or "Matchday", are
    never paired.
    """
    listed: Sequence[L] = list(matches)
    seen: dict[tuple[str, str, str], int] = {}
    pairs: dict[int, int] = {}
    for position in sorted(range(len(listed)), key=lambda i: listed[i].kickoff):
        match = listed[position]
        if not knockout_round(match.stage, match.group):
            continue
        home, away = match.team1, match.team2
        first = seen.pop((match.stage, away, home), None)
        if first is not None:
            pairs[position] = first
        else:
            seen[(match.stage, home, away)] = position
    return pairs


# When the away-goals rule stopped deciding level ties: the first season without it.
# UEFA abolished it for all its club competitions from 2021/22 (decided June 2021);
# CONMEBOL for the Libertadores, the Sudamericana and the Recopa from 2022 (decided
# 25 November 2021). The Copa do Brasil dropped it from 2018. A competition not
# named here never used it, as far as the pool knows: a level aggregate goes to
# extra time or to penalties.
AWAY_GOALS_UNTIL: tuple[tuple[tuple[str, ...], date], ...] = (
    (
        (
            "champions league",
            "europa league",
            "conference league",
            "uefa cup",
            "cup winners",
            "european cup",
        ),
        date(2021, 7, 1),
    ),
    (("libertadores", "sudamericana", "sul-americana", "recopa"), date(2022, 1, 1)),
    (("copa do brasil",), date(2018, 1, 1)),
)


def away_goals_count(competition: str, first_leg_day: date) -> bool:
    """Whether goals away from home decide a level aggregate in ``competition``'s
    tie whose first leg is played on ``first_leg_day``."""
    name = competition.casefold()
    for names, abolished in AWAY_GOALS_UNTIL:
        if any(known in name for known in names):
            return first_leg_day < abolished
    return False
