"""Who will win the cup: the rest of the tournament played many times over.

Each run keeps the finished matches as they ended and plays every other one
with the goal model at today's ratings (``predictor.outlook``): the groups, the
group tables (points, goal difference, goals scored, then a draw of lots; head
to head is not modelled), the best third-placed teams where the bracket takes
them, then the bracket in kick-off order, with extra time and a shoot-out (a
coin toss) for a knock-out level after ninety minutes. The knock-out slots the
fixtures leave open ("1A", "2B", "3A/B/C/D/F", "W73", "L101") are filled from
the run's own results; a third-placed team goes to a slot that names its group
(one valid assignment, not necessarily FIFA's table). A tournament with no
knock-out round is won at the top of its table.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections import Counter
from collections.abc import Sequence

from bot.agent import predictor
from game import bracket
from game.model import Match, Score
from game.teams import GROUP_PLACE, THIRD_PLACE, WINNER_OF

RUNS = 2000  # a chance to about one percentage point


class _Run:
    """One made-up rest of the tournament."""

    def __init__(self, cup: Cup, rng: random.Random) -> None:
        self.cup, self.rng = cup, rng
        self.winner: dict[int, str] = {}
        self.loser: dict[int, str] = {}
        self.tables: dict[str, dict[str, bracket.Row]] = {}
        self.thirds: dict[str, str] = {}  # a third-placed slot -> the team that fills it

    def play(self) -> str | None:
        """The champion of this run: the winner of the last match, or the top of the
        table of a tournament with no knock-out round."""
        for match in self.cup.matches:
            if not match.is_knockout:
                self._group_match(match)
        self._place_thirds()
        last = None
        for match in self.cup.matches:
            if match.is_knockout:
                last = self._knockout(match)
        if last is None and self.tables:
            every = [row for table in self.tables.values() for row in table.values()]
            return self._ranked(every)[0].team
        return last

    def _group_match(self, match: Match) -> None:
        score = match.result.end_of_play if match.result else self.cup.sample(match, self.rng)
        # A league's matchdays are one table, not one table a matchday.
        table = self.tables.setdefault(bracket.letter(match.group) if match.group else "", {})
        bracket.record(table, match.team1, match.team2, score)

    def _ranked(self, rows: Sequence[bracket.Row]) -> list[bracket.Row]:
        return bracket.ranked(rows, {row.team: self.rng.random() for row in rows})

    def _place_thirds(self) -> None:
        slots = [
            (team, set(found[1].split("/")))
            for match in self.cup.matches
            for team in (match.team1, match.team2)
            if (found := THIRD_PLACE.fullmatch(team))
        ]
        if not slots:
            return
        thirds = [
            (letter, ranked[2])
            for letter, table in self.tables.items()
            if len(ranked := self._ranked(list(table.values()))) >= 3
        ]
        best = self._ranked([row for _, row in thirds])[: len(slots)]
        group_of = {row.team: letter for letter, row in thirds}
        self.thirds = _assign([(slot, allowed) for slot, allowed in slots], best, group_of)

    def _team(self, name: str) -> str:
        if found := GROUP_PLACE.fullmatch(name):
            table = self.tables.get(found[2], {})
            ranked = self._ranked(list(table.values()))
            place = int(found[1]) - 1
            return ranked[place].team if len(ranked) > place else name
        if THIRD_PLACE.fullmatch(name):
            return self.thirds.get(name, name)
        if found := WINNER_OF.fullmatch(name):
            decided = self.winner if found[1] == "W" else self.loser
            return decided.get(int(found[2]), name)
        return name

    def _knockout(self, match: Match) -> str:
        one, two = self._team(match.team1), self._team(match.team2)
        if match.result is not None and (decided := match.decided()) is not None:
            winner, loser = decided
        else:
            playing = Match(match.number, match.stage, match.kickoff, one, two)
            score = self.cup.sample(playing, self.rng, extra_time=True)
            if score.outcome == 0:
                winner = one if self.rng.random() < 0.5 else two  # the shoot-out
            else:
                winner = one if score.outcome > 0 else two
            loser = two if winner == one else one
        self.winner[match.number], self.loser[match.number] = winner, loser
        return winner


class Cup:
    """A tournament's matches and her outlook on them: ``chances`` of each champion."""

    def __init__(self, matches: Sequence[Match], seen: predictor.Outlook) -> None:
        self.matches = sorted(matches, key=Match.time_order)
        self.seen = seen
        self._draws: dict[tuple[str, str, bool], tuple[list[Score], list[float]]] = {}

    def sample(self, match: Match, rng: random.Random, extra_time: bool = False) -> Score:
        """A score of ``match``: after extra time when ``extra_time`` and it is level."""
        key = (match.team1, match.team2, extra_time)
        if key not in self._draws:
            chance = predictor.judged_chances(
                self.seen.goals, self.seen.difference(match), extra_time
            )
            scores = list(chance)
            self._draws[key] = (scores, list(itertools.accumulate(chance[s] for s in scores)))
        scores, cumulative = self._draws[key]
        index = bisect.bisect_left(cumulative, rng.random() * cumulative[-1])
        return scores[min(index, len(scores) - 1)]

    def chances(self, runs: int = RUNS, seed: int = 2026) -> dict[str, float]:
        """Each team's chance to win the last match, best first."""
        rng = random.Random(seed)
        won = Counter(_Run(self, rng).play() for _ in range(runs))
        return {team: count / runs for team, count in won.most_common() if team is not None}


def _assign(
    slots: list[tuple[str, set[str]]], teams: list[bracket.Row], group_of: dict[str, str]
) -> dict[str, str]:
    """Each third-placed slot its team, from a group the slot names (Kuhn's matching);
    slots no qualifier fits keep their placeholder."""
    holder: dict[str, str] = {}  # slot -> team

    def seat(team: str, tried: set[str]) -> bool:
        for slot, allowed in slots:
            if group_of[team] not in allowed or slot in tried:
                continue
            tried.add(slot)
            if slot not in holder or seat(holder[slot], tried):
                holder[slot] = team
                return True
        return False

    for row in teams:
        seat(row.team, set())
    return holder


def percentages(chances: dict[str, float], most: int) -> tuple[tuple[str, int], ...]:
    """The ``most`` likeliest champions with whole percentages (under 1% left out)."""
    return tuple(
        (team, round(chance * 100))
        for team, chance in list(chances.items())[:most]
        if chance >= 0.005
    )
