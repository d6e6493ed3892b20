"""The teams' squads: what a top scorer pick is checked against before any goal.

Bonus picks close at the first kick-off, when the goals name nobody yet. An admin
may list the squads (``betania squads import``): a CSV with the columns ``team`` and
``player`` (or ``name``), one player a row, or a JSON list of ``{"team", "name"}``
objects (openfootball's style; other fields are left alone, and the list may sit under
``"players"``). A squad only ever helps: a scorer pick is checked against the teams that
have one, and a name none of them holds is refused only when every team of the
tournament has its squad listed (it may be a player of a team with none). The squads
never change what a pick is stored and scored by: that stays the name as the player
wrote it (``game.bonus.scorer_pick``), matched to the goals' spelling at the end.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.bonus import CLOSEST, NAME_LONGEST, UnknownScorer, closest_names, scorer_key

NAME_COLUMNS = ("player", "name")


@dataclass(frozen=True)
class SquadRow:
    line: int  # the CSV's line, or the JSON entry's place (from 1)
    team: str  # as the file writes it
    name: str


def read_squads(text: str) -> tuple[list[SquadRow], list[str]]:
    """The rows that read well, and a line for each that did not (for the admin's console)."""
    if text.lstrip().startswith(("{", "[")):
        return _from_json(text)
    reader = csv.DictReader(io.StringIO(text))
    columns = [name.strip().lower() for name in reader.fieldnames or ()]
    named = next((column for column in NAME_COLUMNS if column in columns), None)
    if "team" not in columns or named is None:
        return [], ["line 1: a squads CSV needs the columns team and player"]
    reader.fieldnames = columns
    rows: list[SquadRow] = []
    problems: list[str] = []
    for raw in reader:
        values = {key: (value or "").strip() for key, value in raw.items() if key}
        _take(
            "line", reader.line_num, values.get("team", ""), values.get(named, ""), rows, problems
        )
    return rows, problems


def _from_json(text: str) -> tuple[list[SquadRow], list[str]]:
    try:
        document: Any = json.loads(text)
    except json.JSONDecodeError as error:
        return [], [f"not JSON: {error.msg} at line {error.lineno}"]
    if isinstance(document, dict):
        document = document.get("players", document.get("Players"))
    if not isinstance(document, list):
        return [], ['a squads JSON is a list of {"team": ..., "name": ...}']
    rows: list[SquadRow] = []
    problems: list[str] = []
    for place, entry in enumerate(document, start=1):
        if not isinstance(entry, dict):
            problems.append(f"entry {place}: not a player")
            continue
        team, name = (str(entry.get(field) or "").strip() for field in ("team", "name"))
        _take("entry", place, team, name, rows, problems)
    return rows, problems


def _take(
    where: str, line: int, team: str, name: str, rows: list[SquadRow], problems: list[str]
) -> None:
    name = " ".join(name.split())
    if not team or not name:
        problems.append(f"{where} {line}: team and player must not be empty")
    elif len(name) > NAME_LONGEST:
        problems.append(f"{where} {line}: a player's name is at most {NAME_LONGEST} characters")
    elif not scorer_key(name):
        problems.append(f"{where} {line}: {name!r} is not a name")
    else:
        rows.append(SquadRow(line, team, name))


def distinct(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` once each, as ``scorer_key`` tells players apart (the first spelling kept)."""
    kept: dict[str, str] = {}
    for name in names:
        kept.setdefault(scorer_key(name), name)
    return tuple(kept.values())


@dataclass(frozen=True)
class SquadCheck:
    """A scorer pick read against the squads listed: ``found`` in one, or not; then
    ``squadless``, the tournament's teams with no squad listed, which it may play for."""

    found: bool
    squadless: tuple[str, ...] = ()


def check_scorer(
    name: str, squads: Mapping[str, Sequence[str]], teams: Iterable[str]
) -> SquadCheck:
    """``name`` (a scorer pick) against ``squads`` ({team: its players}) in a tournament of
    ``teams``.

    Found: a listed player's name in any spelling ``scorer_key`` takes as the same, or a
    part of a name only one listed player has ("Mbappé"). Refused, in one line: a part
    two or more listed players share ("Hernández": say which), and a name no squad holds
    when every team has its squad listed (with the closest names). A name no squad holds
    while a team has none stands, unchecked: a team without a squad never refuses one.
    """
    key = scorer_key(name)
    players = {
        scorer_key(player): (player, team) for team, listed in squads.items() for player in listed
    }
    if key in players:
        return SquadCheck(True)
    words = set(key.split())
    holding = sorted(players[k] for k in players if words <= set(k.split()))
    if len(holding) == 1:
        return SquadCheck(True)
    if holding:
        raise UnknownScorer(
            "more than one player is called {name}: {players}; say which",
            name=name,
            players=", ".join(f"{player} ({team})" for player, team in holding[: CLOSEST * 2]),
        )
    squadless = tuple(sorted(set(teams) - {team for team, listed in squads.items() if listed}))
    if squadless:
        return SquadCheck(False, squadless)
    raise UnknownScorer(
        "no player called {name} in the teams' squads (closest: {closest})",
        name=name,
        closest=", ".join(closest_names(key, {k: player for k, (player, _) in players.items()}))
        or "-",
    )
