"""The teams' squads: what a top scorer pick is checked against before any goal.

Bonus picks close at the first kick-off, when the goals name nobody yet. An admin
may list the squads (``betania squads import``): a CSV with the columns ``team`` and
``player`` (or ``name``), one player a row, or a JSON list of ``{"team", "name"}``
objects (openfootball's style; other fields are left alone, and the list may sit under
``"players"``). A squad only ever helps: a scorer pick is checked against the teams that
have one, and a name none of them holds is refused only when every team of the
tournament has its squad listed (it may be a player of a team with none). A pick is
stored as the player wrote it (``game.bonus.scorer_pick``); at the end, a pick a squad
lists is that squad's player, who earns the bonus when they are a top scorer for that
team under a name theirs holds or that holds theirs ("Kylian Mbappé" in the goals,
"Kylian Mbappé Lottin" in France's squad); a pick no squad lists is read against the
goals' names alone (``earned``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.bonus import CLOSEST, NAME_LONGEST, Settled, UnknownScorer, closest_names, scorer_key
from game.spreadsheet import read_sheet
from game.text import clean_line

ROWS_MOST = 5_000  # rows of a squads file: 48 teams of 26 is 1,248
SQUAD_LARGEST = 60  # players one team lists: a club's first-team squad fits
TEAM_LONGEST = 100  # characters of a team's name as a file writes it

NAME_COLUMNS = ("player", "name")


@dataclass(frozen=True)
class SquadRow:
    line: int  # the CSV's line, or the JSON entry's place (from 1)
    team: str  # as the file writes it
    name: str


def read_squads(text: str) -> tuple[list[SquadRow], list[str]]:
    """The rows that read well, and a line for each that did not (for the admin's console)."""
    if text.removeprefix("\ufeff").lstrip().startswith(("{", "[")):
        return _from_json(text.removeprefix("\ufeff"))
    sheet = read_sheet(text, lower=True)
    if sheet.problem is not None:
        return [], [sheet.problem]
    named = next((column for column in NAME_COLUMNS if column in sheet.columns), None)
    if "team" not in sheet.columns or named is None:
        return [], ["line 1: a squads CSV needs the columns team and player"]
    if len(sheet.rows) > ROWS_MOST:
        return [], [f"more than {ROWS_MOST:,} rows: a squads file lists fewer"]
    rows: list[SquadRow] = []
    problems: list[str] = []
    for line, values in sheet.rows:
        _take("line", line, values.get("team", ""), values.get(named, ""), rows, problems)
    return rows, problems


def _from_json(text: str) -> tuple[list[SquadRow], list[str]]:
    # Here, not at the top: game.sources brings httpx, and the table reads this module.
    from game.sources import SourceError, parse_json

    try:
        document: Any = parse_json(text, "the squads file")
    except SourceError as error:
        return [], [str(error)]
    if isinstance(document, dict):
        document = document.get("players", document.get("Players"))
    if not isinstance(document, list):
        return [], ['a squads JSON is a list of {"team": ..., "name": ...}']
    if len(document) > ROWS_MOST:
        return [], [f"more than {ROWS_MOST:,} entries: a squads file lists fewer"]
    rows: list[SquadRow] = []
    problems: list[str] = []
    for place, entry in enumerate(document, start=1):
        team, name = (
            (entry.get(field) or "" for field in ("team", "name"))
            if isinstance(entry, dict)
            else (None, None)
        )
        if not isinstance(team, str) or not isinstance(name, str):
            problems.append(f"entry {place}: not a player (team and name as text)")
            continue
        _take("entry", place, team, name, rows, problems)
    return rows, problems


def _take(
    where: str, line: int, team: str, name: str, rows: list[SquadRow], problems: list[str]
) -> None:
    """A row, its team and name cleaned as every line a player may read (no control
    characters), or the one line that says why not."""
    team, name = clean_line(team), clean_line(name)
    if not team or not name:
        problems.append(f"{where} {line}: team and player must not be empty")
    elif len(team) > TEAM_LONGEST:
        problems.append(f"{where} {line}: a team's name is at most {TEAM_LONGEST} characters")
    elif len(name) > NAME_LONGEST:
        problems.append(f"{where} {line}: a player's name is at most {NAME_LONGEST} characters")
    elif not scorer_key(name):
        problems.append(f"{where} {line}: {name!r} is not a name")
    else:
        rows.append(SquadRow(line, team, name))


def distinct(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` once each, as ``scorer_key`` tells players apart (the first spelling
    kept), in one order wherever they are read (``ordered``)."""
    kept: dict[str, str] = {}
    for name in names:
        kept.setdefault(scorer_key(name), name)
    return ordered(kept.values())


def ordered(names: Iterable[str]) -> tuple[str, ...]:
    """A squad's names in the order the pool keeps them, whatever a database's collation."""
    return tuple(sorted(names, key=lambda name: (scorer_key(name), name)))


def listed_as(key: str, squads: Mapping[str, Sequence[str]]) -> list[tuple[str, str]]:
    """The listed players (name, team) a scorer pick's key names: each whose name has that
    key (two teams may list one name), else each whose name holds all its words."""
    players = [(scorer_key(name), name, team) for team, names in squads.items() for name in names]
    same = sorted((name, team) for listed, name, team in players if listed == key)
    if same:
        return same
    words = set(key.split())
    return sorted((name, team) for listed, name, team in players if words <= set(listed.split()))


def earned(
    picked: Iterable[str], squads: Mapping[str, Sequence[str]], settled: Settled
) -> set[str]:
    """The scorer picks' keys that earn the bonus. A pick with a listed player's very
    name is that player, and earns when they are a top scorer (``_top_players``); a pick
    the goals' names read as a top scorer's earns (``Settled.scorers``); and a pick only
    a listed player's longer name holds ("Lottin") earns when that player is one."""
    top = _top_players(squads, settled.top)
    listed = [(team, name, scorer_key(name)) for team, names in squads.items() for name in names]
    won = set()
    for key in picked:
        named = [(team, name) for team, name, listed_key in listed if listed_key == key]
        if named:
            if any(player in top for player in named):
                won.add(key)
        elif key in settled.scorers or any(
            (team, name) in top
            for team, name, listed_key in listed
            if set(key.split()) <= set(listed_key.split())
        ):
            won.add(key)
    return won


def _top_players(
    squads: Mapping[str, Sequence[str]], top: Mapping[str, frozenset[str]]
) -> set[tuple[str, str]]:
    """The listed players (team, name) who are the top scorers: in each team a top scorer
    scored for, the one listed under the scorer's very name, else the one whose name
    holds theirs or theirs holds ("Kylian Mbappé Lottin" for "Kylian Mbappé"), when only
    one does ("Pedro" is not "João Pedro" when the squad lists both)."""
    found = set()
    for scorer, teams in top.items():
        for team in teams:
            names = squads.get(team, ())
            same = [name for name in names if scorer_key(name) == scorer]
            near = same or [name for name in names if _one_name(name, scorer)]
            if len(near) == 1:
                found.add((team, near[0]))
    return found


def _one_name(name: str, scorer: str) -> bool:
    """A squad's ``name`` and a top scorer's key name one player: one holds the other."""
    mine, theirs = set(scorer_key(name).split()), set(scorer.split())
    return mine <= theirs or theirs <= mine


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
    two or more listed players share ("Hernández": say which; two listed players of one
    name are both what the pick names), and a name no squad holds
    when every team has its squad listed (with the closest names). A name no squad holds
    while a team has none stands, unchecked: a team without a squad never refuses one.
    """
    key = scorer_key(name)
    holding = listed_as(key, squads)
    if holding and all(scorer_key(player) == key for player, _ in holding):
        return SquadCheck(True)  # one player, or players of one name: all of them
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
    players = {scorer_key(player): player for listed in squads.values() for player in listed}
    raise UnknownScorer(
        "no player called {name} in the teams' squads (closest: {closest})",
        name=name,
        closest=", ".join(closest_names(key, players)) or "-",
    )
