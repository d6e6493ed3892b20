"""Reading a pool's picks from a spreadsheet export.

Columns ``player,date,team1,team2,score1,score2`` and an optional ``placed_at``
(ISO-8601 with an offset): when the pick was made, which is what lets a pick
for a match that has kicked off in (``game.rules.check_made_in_time``). Every
row is checked before anything is written, and each problem is reported with
its line number.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from game.errors import FileProblems
from game.model import InvalidScore, Score
from game.spreadsheet import read_sheet

REQUIRED_COLUMNS = ("player", "date", "team1", "team2", "score1", "score2")


@dataclass(frozen=True)
class BetRow:
    line: int
    player: str
    date: str
    team1: str
    team2: str
    score: Score
    placed_at: datetime | None = None


class BetsFileError(FileProblems):
    """Problems found in a bets file, one per line of ``problems``; nothing was imported."""


def _placed_at(text: str) -> datetime | None:
    if not text.strip():
        return None
    moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError(f"placed_at {text!r} needs a UTC offset, like 2026-06-10T18:00+00:00")
    return moment


def parse_bets(text: str) -> list[BetRow]:
    """Every row of the file; a ``BetsFileError`` listing every bad line otherwise."""
    rows, problems = read_bets(text)
    if problems:
        raise BetsFileError(problems)
    return rows


def read_bets(text: str) -> tuple[list[BetRow], list[str]]:
    """The rows that read well, and a line for each that did not (checked no further)."""
    sheet = read_sheet(text)
    if sheet.problem is not None:
        return [], [sheet.problem]
    missing = [name for name in REQUIRED_COLUMNS if name not in sheet.columns]
    if missing:
        return [], [f"line 1: missing column(s) {', '.join(missing)}"]
    rows: list[BetRow] = []
    problems: list[str] = []
    for line, values in sheet.rows:
        try:
            if not values["player"] or not values["team1"] or not values["team2"]:
                raise ValueError("player, team1 and team2 must not be empty")
            score = Score(int(values["score1"]), int(values["score2"]))
            placed_at = _placed_at(values.get("placed_at", ""))
        except (InvalidScore, ValueError) as error:
            detail = str(error)
            if "invalid literal" in detail:
                detail = f"bad score {values['score1']!r}-{values['score2']!r}"
            problems.append(f"line {line}: {detail}")
            continue
        rows.append(
            BetRow(
                line,
                values["player"],
                values["date"],
                values["team1"],
                values["team2"],
                score,
                placed_at,
            )
        )
    return rows, problems
