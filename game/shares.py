"""How the pool picked a match: the share of home wins, draws and away wins among its
picks, and the scores picked most.

Picks are hidden until kick-off (``Match.has_started``), and so is anything counted
from them: ``shares_of`` gives nothing before then, whoever asks. ``shares`` itself
counts whatever picks it is handed, for a caller that has already decided they can be
seen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations

from game.model import Match, Prediction, Score
from game.words import Words

COMMON_SCORES = 3  # the most picked scores shown beside the outcomes
SEARCHED = 8  # tied groups whose every combination is tried for a sum of 100 (2^8 at most)


@dataclass(frozen=True)
class Shares:
    """A match's picks counted: ``home`` + ``draw`` + ``away`` == ``picks``."""

    picks: int
    home: int
    draw: int
    away: int
    # The most picked scores with their counts, most first; equal counts in score order
    # (fewer goals first, then the home side's larger score first: 1-0, 0-1, 1-1, 2-0).
    common: tuple[tuple[Score, int], ...]

    @property
    def percentages(self) -> tuple[int, int, int]:
        """Home, draw and away as whole percentages summing to 100 (0s with no picks)."""
        home, draw, away = whole_percentages((self.home, self.draw, self.away))
        return home, draw, away

    def of(self, outcome: int) -> int:
        """How many picked ``outcome`` (``Score.outcome``: 1 home, 0 draw, -1 away)."""
        return {1: self.home, 0: self.draw, -1: self.away}[outcome]


def shares(picks: Iterable[Prediction]) -> Shares:
    """``picks`` counted by outcome and by score."""
    scores = Counter(p.score for p in picks)
    outcomes = Counter({1: 0, 0: 0, -1: 0})
    for score, count in scores.items():
        outcomes[score.outcome] += count
    ranked = sorted(scores.items(), key=lambda s: (-s[1], s[0].home + s[0].away, -s[0].home))
    return Shares(
        picks=sum(scores.values()),
        home=outcomes[1],
        draw=outcomes[0],
        away=outcomes[-1],
        common=tuple(ranked[:COMMON_SCORES]),
    )


def shares_of(match: Match, picks: Iterable[Prediction], now: datetime) -> Shares | None:
    """How the pool picked ``match``; None before its kick-off, when picks are hidden."""
    if not match.has_started(now):
        return None
    return shares(p for p in picks if p.match_number == match.number)


def whole_percentages(counts: Sequence[float]) -> list[int]:
    """``counts`` as whole percentages, each its exact share rounded down or up, summing
    to 100, and equal counts always equal: 5/2/2 of 9 is 56/22/22, 3/2/2 of 7 is
    42/29/29 (not 43/28/28, 99; nor 43/29/28, two equal counts apart). Rounded up are
    the counts whose tied groups fill the points rounding down lost, the largest
    remainders first. Where no such choice exists (1/1/1: three equal thirds) equal
    counts win and the sum falls short: 33/33/33. All 0 when the total is."""
    total = sum(counts)
    if total <= 0:
        return [0] * len(counts)
    exact = [count * 100 / total for count in counts]
    whole = [int(share) for share in exact]
    left = 100 - sum(whole)
    groups: dict[float, list[int]] = {}
    for index, count in enumerate(counts):
        if exact[index] > whole[index]:  # only a share with a remainder may round up
            groups.setdefault(count, []).append(index)
    ranked = sorted(groups.values(), key=lambda g: whole[g[0]] - exact[g[0]])
    # Every choice of groups is tried: three outcomes make at most seven.
    chosen = (_filling(ranked, left) if len(ranked) <= SEARCHED else []) or _greedy(ranked, left)
    for index in chosen:
        whole[index] += 1
    return whole


def _filling(groups: list[list[int]], left: int) -> list[int]:
    """The members of whole groups, taken in order where they fit, that add up to exactly
    ``left``; the first such pick over the groups' order (largest remainder first)."""
    for size in range(len(groups), 0, -1):
        for picked in combinations(groups, size):
            if sum(len(g) for g in picked) == left:
                return [index for group in picked for index in group]
    return []


def _greedy(groups: list[list[int]], left: int) -> list[int]:
    """Whole groups in order while they fit: the sum falls short, ties stay equal."""
    chosen: list[int] = []
    for group in groups:
        if len(group) > left:
            break
        chosen += group
        left -= len(group)
    return chosen


def shares_lines(told: Shares, match: Match, words: Words) -> list[str]:
    """How the pool picked ``match``, in two lines a player reads (none with no picks)."""
    if not told.picks:
        return []
    home, draw, away = told.percentages
    return [
        words(
            "how the pool picked: {team1} {home} ({home_pct}%), draw {draw} ({draw_pct}%), "
            "{team2} {away} ({away_pct}%)",
            team1=match.team1,
            home=told.home,
            home_pct=home,
            draw=told.draw,
            draw_pct=draw,
            team2=match.team2,
            away=told.away,
            away_pct=away,
        ),
        words(
            "most picked: {scores}",
            scores=", ".join(f"{score} \u00d7{count}" for score, count in told.common),
        ),
    ]
