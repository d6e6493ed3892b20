"""The teams' squads, read from a file an admin imports (``betania squads import``).

Before the first goal the pool knows no scorer, so a top scorer pick (made before
the first kick-off) could only be taken unchecked; with the squads listed, a name no
squad holds is refused with the closest names instead. Two shapes are read: a CSV
with a ``team`` column and a ``player`` (or ``name``) column, one player a row, as
an office spreadsheet has it; and openfootball's ``players.json`` (``{"Players":
[{"team": ..., "name": ...}, ...]}``), whose other fields are left alone.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any

from game.bonus import NAME_LONGEST, scorer_key

NAME_COLUMNS = ("player", "name")


@dataclass(frozen=True)
class SquadRow:
    line: int  # the CSV's line, or the JSON entry's place (from 1)
    team: str
    name: str


def read_squads(text: str) -> tuple[list[SquadRow], list[str]]:
    """The rows that read well, and a line for each that did not."""
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
        _take(reader.line_num, values.get("team", ""), values.get(named, ""), rows, problems)
    return rows, problems


def _from_json(text: str) -> tuple[list[SquadRow], list[str]]:
    try:
        document: Any = json.loads(text)
    except json.JSONDecodeError as error:
        return [], [f"not JSON: {error.msg} at line {error.lineno}"]
    entries = document.get("Players") if isinstance(document, dict) else document
    if not isinstance(entries, list):
        return [], ['a squads JSON is {"Players": [{"team": ..., "name": ...}, ...]}']
    rows: list[SquadRow] = []
    problems: list[str] = []
    for place, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            problems.append(f"entry {place}: not a player")
            continue
        team, name = entry.get("team"), entry.get("name")
        _take(place, str(team or "").strip(), str(name or "").strip(), rows, problems, "entry")
    return rows, problems


def _take(
    line: int,
    team: str,
    name: str,
    rows: list[SquadRow],
    problems: list[str],
    where: str = "line",
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
