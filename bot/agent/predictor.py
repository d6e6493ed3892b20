"""Her own picks, a pundit's: ratings from a century and a half of internationals, a
chance for every score, and the pick worth the most points under the pool's rules.

The ratings start from the history before the tournament's first day
(``game.pundit``) and go on through the pool's own finished matches, so the
pool's results win over the file for the tournament being played and nothing is
counted twice. They are derived, never stored: recomputed each time she picks,
so a corrected result corrects her too.

A club is a team the internationals never met: a match between two of them is
played at the first one's ground, weighted as a club match (``elo.CLUB``), with
the home advantage the season's own results show (``elo.HomeGround``); her club
ratings start level at the season's first match, or from an earlier season's
results when she is given them (``before``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.agent.requests import Odds
from game.elo import CLUB, WORLD_CUP, HomeGround, Ratings
from game.goals import GoalModel, poisson
from game.model import Match, MatchStatus, Score
from game.pundit import known_before
from game.scoring import PRESETS, ScoreBasis, ScoringRule, expected

MAX_GOALS = 6  # the most goals a side of her pick may have
EXTRA_TIME = 1 / 3  # extra time is a third of ninety minutes, at the same rate of goals
# A model's pick stands only among the likeliest scores covering this much of the chance
# (about the 15-20 likeliest of a World Cup match; 7-4 or 18-10 are never among them).
PLAUSIBLE_MASS = 0.9


@dataclass(frozen=True)
class Outlook:
    """What she knows when she picks: the ratings so far and the goal model."""

    ratings: Ratings
    goals: GoalModel
    nations: Ratings  # the internationals' ratings: who is a nation, not a club

    def at_home(self, match: Match) -> bool:
        """A club match is played at its first team's ground; the pool's internationals
        (a World Cup's) count as on neutral ground."""
        return not (self.nations.knows(match.team1) or self.nations.knows(match.team2))

    def difference(self, match: Match) -> float:
        """The rating difference of a match, with home advantage at a club's ground."""
        return self.ratings.difference(match.team1, match.team2, not self.at_home(match))


def outlook(
    matches: Iterable[Match], at: datetime | None = None, before: Iterable[Match] = ()
) -> Outlook:
    """Her ratings: the history before the first day of the pool's ``matches``, then the
    finished matches of ``before`` (an earlier season) and of ``matches`` (those kicked
    off before ``at``, if given), in kick-off order."""
    played = sorted(matches, key=Match.time_order)
    first = min((m.kickoff for m in played), default=datetime.max.replace(tzinfo=UTC))
    knowledge = known_before(first.date())
    seen = Outlook(knowledge.ratings.copy(), knowledge.goals, knowledge.ratings)
    ground = HomeGround()
    so_far = [m for m in played if at is None or m.kickoff < at]
    for match in [*sorted(before, key=Match.time_order), *so_far]:
        if match.status is not MatchStatus.FINISHED or match.result is None:
            continue
        score = match.result.end_of_play  # a shoot-out is a draw
        if seen.at_home(match):
            seen.ratings.home = ground.advantage
            seen.ratings.play(match.team1, match.team2, score.home, score.away, CLUB, False)
            ground.count(score.home, score.away)
        else:
            seen.ratings.play(match.team1, match.team2, score.home, score.away, WORLD_CUP)
    seen.ratings.home = ground.advantage
    return seen


def chances(
    match: Match, seen: Outlook, basis: ScoreBasis = ScoreBasis.END_OF_PLAY
) -> dict[Score, float]:
    """Every score of ``match`` with its chance, as the pool will judge it."""
    return judged_chances(seen.goals, seen.difference(match), match.is_knockout, basis)


def judged_chances(
    goals: GoalModel,
    difference: float,
    knockout: bool,
    basis: ScoreBasis = ScoreBasis.END_OF_PLAY,
) -> dict[Score, float]:
    """Every score with its chance at a rating ``difference``: after extra time in a
    knock-out match judged at the end of play, the ninety minutes otherwise."""
    ninety = goals.chances(difference)
    if not knockout or basis is ScoreBasis.NINETY:
        return ninety
    home, away = (mean * EXTRA_TIME for mean in goals.means(difference))
    judged: dict[Score, float] = {}
    for score, p in ninety.items():
        if score.outcome != 0:
            judged[score] = judged.get(score, 0.0) + p
            continue
        for more_home in range(MAX_GOALS + 1):
            for more_away in range(MAX_GOALS + 1):
                after = Score(score.home + more_home, score.away + more_away)
                chance = p * poisson(home, more_home) * poisson(away, more_away)
                judged[after] = judged.get(after, 0.0) + chance
    return judged


def outcomes(chance: dict[Score, float]) -> tuple[float, float, float]:
    """The chance of a home win, a draw and an away win."""
    home = sum(p for s, p in chance.items() if s.outcome > 0)
    draw = sum(p for s, p in chance.items() if s.outcome == 0)
    return home, draw, 1 - home - draw


def odds(match: Match, chance: dict[Score, float]) -> Odds:
    """``chance`` as whole percentages of a win either way and a draw, summing to 100."""
    shares = outcomes(chance)
    whole = [int(share * 100) for share in shares]
    # The largest remainders get the points rounding lost: 57.6/24.3/18.1 is 58/24/18.
    for index in sorted(range(3), key=lambda i: whole[i] - shares[i] * 100)[: 100 - sum(whole)]:
        whole[index] += 1
    return Odds(match.team1, match.team2, *whole)


def expected_points(chance: dict[Score, float], rule: ScoringRule) -> dict[Score, float]:
    """What each pick up to ``MAX_GOALS`` a side is worth on average under ``rule``."""
    picks = (Score(h, a) for h in range(MAX_GOALS + 1) for a in range(MAX_GOALS + 1))
    return expected(picks, chance, rule)


def best_pick(chance: dict[Score, float], rule: ScoringRule) -> Score:
    """The pick worth the most points on average; the likelier score among equals."""
    worth = expected_points(chance, rule)
    return max(worth, key=lambda s: (round(worth[s], 9), chance.get(s, 0.0), -s.home, -s.away))


def likeliest(chance: dict[Score, float]) -> Score:
    return max(chance, key=lambda s: (chance[s], -s.home, -s.away))


def pick(
    match: Match,
    seen: Outlook,
    rule: ScoringRule = PRESETS["classic"],
    basis: ScoreBasis = ScoreBasis.END_OF_PLAY,
) -> Score:
    """Her pick for ``match``: the score worth the most points under the pool's rules."""
    return best_pick(chances(match, seen, basis), rule)


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
