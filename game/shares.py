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

from game.model import Match, Prediction, Score
from game.words import Words

COMMON_SCORES = 3  # the most picked scores shown beside the outcomes


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
    """``counts`` as whole percentages: the largest remainders get the points rounding
    lost (5/2/2 of 9 is 56/22/22, not 55/22/22), and equal counts always show equal
    shares, so a point is handed to all of a tie or to none of it: 3/2/2 of 7 is
    43/28/28 (99: no 29 for one of two equal counts), 1/1/1 is 33/33/33. The sum is
    100 but where a tie stands on the point. All 0 when the total is."""
    total = sum(counts)
    if total <= 0:
        return [0] * len(counts)
    exact = [count * 100 / total for count in counts]
    whole = [int(share) for share in exact]
    left = 100 - sum(whole)
    ties: dict[float, list[int]] = {}
    for index in sorted(range(len(exact)), key=lambda i: whole[i] - exact[i]):
        ties.setdefault(counts[index], []).append(index)
    for tied in ties.values():  # largest remainder first, as sorted
        if len(tied) > left:
            break
        for index in tied:
            whole[index] += 1
        left -= len(tied)
    return whole


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
