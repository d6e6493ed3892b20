"""The football record the package ships: who scored for each team in the World Cups
of ``game/data`` (openfootball's files).

Players talk of a team's stars before they score, and so does she ("Modrić and co."
at a Croatia kick-off): a name this record holds for a team of the tournament is a
real player of that team, not one she made up.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

from game.teams import TeamBook

CUPS = ("worldcup-2018.json", "worldcup-2022.json", "worldcup-2026.json")


def scorers_of(teams: Iterable[str]) -> set[str]:
    """The surname of everyone who scored for one of ``teams`` (in any spelling the team
    book knows) in a shipped World Cup; an own goal's scorer is the other side's player.
    Surnames only ("Kramarić" of "Andrej Kramarić"): a first name ("Andrej", "Mario")
    is anybody's, and would let a made-up person pass for a real one."""
    book = TeamBook.standard()
    record = _record()
    return {name for team in teams for name in record.get(book.name_of(team) or team, ())}


@cache
def _record() -> dict[str, frozenset[str]]:
    book = TeamBook.standard()
    found: dict[str, set[str]] = {}
    for cup in CUPS:
        data = json.loads(resources.files(__package__).joinpath("data", cup).read_text("utf-8"))
        for match in data.get("matches", ()):
            sides = (match.get("team1"), match.get("team2"))
            for side, (team, other) in enumerate((sides, sides[::-1]), start=1):
                for goal in match.get(f"goals{side}") or ():
                    whose = other if _own_goal(goal) else team
                    if isinstance(whose, str) and goal.get("name"):
                        surname = " ".join(goal["name"].split()[1:]) or goal["name"]
                        found.setdefault(book.name_of(whose) or whose, set()).add(surname)
    return {team: frozenset(names) for team, names in found.items()}


def _own_goal(goal: Any) -> bool:
    return isinstance(goal, dict) and bool(goal.get("owngoal"))
