"""Team ratings by World Football Elo's published rules (eloratings.net).

After each match both sides move by ``K * G * (W - We)``:

- ``K`` by the kind of match: 60 a World Cup final tournament; 50 a continental
  championship or a major intercontinental tournament; 40 a World Cup or
  continental qualifier, or a nations league; 30 any other tournament; 20 a
  friendly;
- ``G`` by the goal margin: 1 for a draw or one goal, 1.5 for two, (11 + N) / 8
  for N of three or more;
- ``W`` is 1, 0.5 or 0 (a shoot-out is a draw: scores are after extra time);
- ``We = 1 / (10^(-dr/400) + 1)``, ``dr`` the rating difference plus 100 for
  the home side of a match not at a neutral venue.

Clubs use the same rules with two settings of their own: ``CLUB``, and the home
advantage a season's own results show (``HomeGround``).

Teams are told apart by ``TeamBook.key``, so the file's "United States" and a
feed's "USA" are one team. Ratings are derived, never stored.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import date

from game.teams import TeamBook

START = 1500.0  # every team's rating before its first match
HOME = 100.0  # a home side's advantage, in rating points, away from neutral venues
WORLD_CUP = 60.0
CONTINENTAL = re.compile(
    r"^(?:UEFA Euro|Copa Am[eé]rica|African Cup of Nations|AFC Asian Cup|Gold Cup"
    r"|CONCACAF Championship|Oceania Nations Cup|Confederations Cup)$"
)
QUALIFIER = re.compile(r"qualification|Nations League")
# A club match's weight: the rules' 30 for "any other tournament". Measured on the
# Brasileirão 2025 and the Premier League 2025/26 (her picks from the 61st match on,
# classic points a match, ratings from the season alone): K 20, 30, 40 and 60 gave
# 3.45/3.00, 3.40/3.20, 3.35/3.14 and 3.36/3.29; no weight is clearly better.
CLUB = 30.0


def k_factor(tournament: str) -> float:
    """The weight of a kind of match, by the tournament's name as the history writes it."""
    if tournament == "FIFA World Cup":
        return WORLD_CUP
    if QUALIFIER.search(tournament):
        return 40.0
    if CONTINENTAL.match(tournament):
        return 50.0
    if tournament == "Friendly":
        return 20.0
    return 30.0


def goal_weight(margin: int) -> float:
    """``G``: a win by more moves the ratings more."""
    margin = abs(margin)
    if margin <= 1:
        return 1.0
    if margin == 2:
        return 1.5
    return (11 + margin) / 8


def expected(difference: float) -> float:
    """``We``: the first side's expected result (1 win, 0.5 draw) at a rating ``difference``."""
    return 1 / (10 ** (-difference / 400) + 1)


def won(home_goals: int, away_goals: int) -> float:
    """``W`` for the home side: 1 a win, 0.5 a draw, 0 a defeat."""
    return 1.0 if home_goals > away_goals else 0.0 if home_goals < away_goals else 0.5


def home_advantage(home_share: float) -> float:
    """The rating points a home side is worth when home sides take ``home_share`` of the
    points (a win 1, a draw a half): ``expected`` read backwards."""
    share = min(max(home_share, 0.05), 0.95)
    return -400 * math.log10(1 / share - 1)


@dataclass
class HomeGround:
    """A season's home advantage, learned from its own results: the World Football Elo
    100 points count as ``PRIOR`` matches played, so the first weeks do not swing it
    (the Brasileirão 2025 ended at 94, the Premier League 2025/26 at 45)."""

    PRIOR = 38  # a season of one club's matches
    points: float = PRIOR * expected(HOME)
    played: int = PRIOR

    @property
    def advantage(self) -> float:
        return home_advantage(self.points / self.played)

    def count(self, home_goals: int, away_goals: int) -> None:
        self.points += won(home_goals, away_goals)
        self.played += 1


@dataclass
class Ratings:
    """Every team's rating so far; ``play`` moves it on by one match."""

    table: dict[str, float] = field(default_factory=dict)  # TeamBook key -> rating
    through: date | None = None  # the day of the last match counted
    book: TeamBook = field(default_factory=TeamBook.standard)
    keys: dict[str, str] = field(default_factory=dict, repr=False)  # name -> key, as met
    home: float = HOME  # a home side's advantage off neutral ground (``HomeGround``)

    def key(self, team: str) -> str:
        found = self.keys.get(team)
        if found is None:
            found = self.keys[team] = self.book.key(team)
        return found

    def of(self, team: str) -> float:
        return self.table.get(self.key(team), START)

    def knows(self, team: str) -> bool:
        """Whether ``team`` has played a match these ratings counted."""
        return self.key(team) in self.table

    def difference(self, home: str, away: str, neutral: bool = True) -> float:
        """``dr``: ``home``'s rating less ``away``'s, with home advantage off neutral ground."""
        return self.of(home) - self.of(away) + (0.0 if neutral else self.home)

    def play(
        self,
        home: str,
        away: str,
        home_goals: int,
        away_goals: int,
        k: float,
        neutral: bool = True,
        day: date | None = None,
    ) -> float:
        """Counts one match; the points ``home`` gained (``away`` lost as many)."""
        change = (
            k
            * goal_weight(home_goals - away_goals)
            * (won(home_goals, away_goals) - expected(self.difference(home, away, neutral)))
        )
        self.table[self.key(home)] = self.of(home) + change
        self.table[self.key(away)] = self.of(away) - change
        self.through = day or self.through
        return change

    def copy(self) -> Ratings:
        return Ratings(dict(self.table), self.through, self.book, self.keys, self.home)

    def ranked(self, teams: list[str]) -> list[str]:
        """``teams`` best first."""
        return sorted(teams, key=lambda team: -self.of(team))
