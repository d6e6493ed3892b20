"""The pool's scoring, written again from the rules as issue 39 and the README state
them, apart from the pool's code: nothing here imports ``game``.

It reads a World Cup as openfootball writes it (``tests/data/worldcup-*.json``)
and scores picks, jokers and bonus picks on it, so a test can hold the pool's
standings against it:

- a pick earns 10 points for the exact score, 7 for the winner and the goal
  difference (any draw on a draw), 5 for the winner alone (the "classic" rule),
  judged on the score at the end of play (after extra time, never penalties);
- a joker on a match doubles what that player's pick there earned;
- once the final is played, naming its winner earns 20 points, naming a top
  scorer (most goals, own goals nobody's, every tied scorer counts; names
  compared without accents or case) earns 10;
- a day (the local date of the match) is won by whoever earned the most on its
  matches, jokers included; players level at the top share it, and a day where
  nobody earned anything is nobody's.
"""

from __future__ import annotations

import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

EXACT, DIFFERENCE, OUTCOME = 10, 7, 5
CHAMPION_POINTS, SCORER_POINTS = 20, 10


@dataclass(frozen=True)
class Played:
    key: tuple[str, str, str]  # (date, team1, team2): how a test finds the pool's number
    day: str
    home: int  # the end of play
    away: int
    winner: str | None  # after extra time and penalties


def played(raw: Mapping[str, Any]) -> list[Played]:
    """Every match of an openfootball file with its result."""
    found = []
    for m in raw["matches"]:
        score = m["score"]
        home, away = score.get("et", score["ft"])
        winner = None
        pens = score.get("p")
        if home != away:
            winner = m["team1"] if home > away else m["team2"]
        elif pens:
            winner = m["team1"] if pens[0] > pens[1] else m["team2"]
        found.append(Played((m["date"], m["team1"], m["team2"]), m["date"], home, away, winner))
    return found


def fold(name: str) -> str:
    """A name without accents, case or extra spaces."""
    bare = unicodedata.normalize("NFKD", name)
    return " ".join("".join(c for c in bare if not unicodedata.combining(c)).lower().split())


def top_scorers(raw: Mapping[str, Any]) -> set[str]:
    """The folded full names of the top scorers. A file may write a scorer by the family
    name alone ("Mbappé" beside "Kylian Mbappé"): such a goal is the one scorer whose
    full name ends with it."""
    goals: Counter[str] = Counter()
    for m in raw["matches"]:
        for goal in [*m.get("goals1", []), *m.get("goals2", [])]:
            if not goal.get("owngoal"):
                goals[fold(goal["name"])] += 1
    for name in [n for n in goals if " " not in n]:
        full = [n for n in goals if n.endswith(" " + name)]
        if len(full) == 1:
            goals[full[0]] += goals.pop(name)
    most = max(goals.values())
    return {name for name, count in goals.items() if count == most}


def names_top_scorer(pick: str, scorers: set[str]) -> bool:
    """A pick names a top scorer by the full name, or by the family name alone."""
    named = fold(pick)
    return any(named in (name, name.split()[-1]) for name in scorers)


def pick_points(pick: tuple[int, int], home: int, away: int) -> int:
    if pick == (home, away):
        return EXACT
    sign = (home > away) - (home < away)
    if (pick[0] > pick[1]) - (pick[0] < pick[1]) != sign:
        return 0
    return DIFFERENCE if pick[0] - pick[1] == home - away else OUTCOME


@dataclass(frozen=True)
class Line:
    points: int
    joker: int
    bonus: int
    days: int


def score(
    players: Iterable[str],
    matches: Mapping[int, Played],
    picks: Mapping[tuple[str, int], tuple[int, int]],
    jokers: set[tuple[str, int]],
    champion_picks: Mapping[str, str],
    scorer_picks: Mapping[str, str],
    raw: Mapping[str, Any],
) -> dict[str, Line]:
    """Each player's line once every match (``matches``, by the pool's numbers) is played."""
    points: dict[str, int] = defaultdict(int)
    doubled: dict[str, int] = defaultdict(int)
    on_day: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for (player, number), pick in picks.items():
        m = matches[number]
        earned = pick_points(pick, m.home, m.away)
        extra = earned if (player, number) in jokers else 0
        points[player] += earned + extra
        doubled[player] += extra
        on_day[m.day][player] += earned + extra
    won: dict[str, int] = defaultdict(int)
    for scored in on_day.values():
        top = max(scored.values())
        for player, earned in scored.items():
            won[player] += top > 0 and earned == top
    champion, scorers = played(raw)[-1].winner, top_scorers(raw)  # the file ends with the final
    lines = {}
    for player in players:
        bonus = CHAMPION_POINTS * (champion_picks.get(player) == champion)
        bonus += SCORER_POINTS * names_top_scorer(scorer_picks.get(player, "-"), scorers)
        lines[player] = Line(points[player] + bonus, doubled[player], bonus, won[player])
    return lines


def day_winners(
    matches: Mapping[int, Played],
    picks: Mapping[tuple[str, int], tuple[int, int]],
    jokers: set[tuple[str, int]],
    numbers: Iterable[int],
) -> list[str]:
    """Who won the matches ``numbers`` (a day or a round), in name order."""
    wanted, earned = set(numbers), defaultdict(int)
    for (player, number), pick in picks.items():
        if number in wanted:
            m = matches[number]
            gained = pick_points(pick, m.home, m.away)
            earned[player] += gained * (2 if (player, number) in jokers else 1)
    top = max(earned.values(), default=0)
    return sorted(p for p, e in earned.items() if e == top) if top > 0 else []
