"""Reading a pool's picks from a spreadsheet export.

Columns ``player,date,team1,team2,score1,score2`` and an optional ``placed_at``
(ISO-8601 with an offset): when the pick was made, which is what lets a pick
for a match that has kicked off in (``game.rules.check_made_in_time``). Every
row is checked before anything is written, and each problem is reported with
its line number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

from game.errors import FileProblems
from game.model import InvalidScore, Score
from game.spreadsheet import read_sheet

REQUIRED_COLUMNS = ("player", "date", "team1", "team2", "score1", "score2")

# Rows of a sheet of picks: an office of 100 players picking all 104 matches of a World
# Cup is 10,400. An import holds the pool's writer while it runs (50,000 rows took 30 s,
# every player's bet "busy" meanwhile): a file past this is refused whole, at once.
ROWS_MOST = 20_000


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


# A date as a spreadsheet writes it: ISO (2026-06-13), or two numbers and a year
# with slashes, dots or dashes between them (13/06/2026, 13.06.26), day or month first.
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
WRITTEN_DATE = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})")
DAY_FIRST, MONTH_FIRST = "day/month/year", "month/day/year"


def date_order(dates: Iterable[str]) -> str | None:
    """How a file writes its dates when not as ISO: day first unless a date can only be
    month first (06/13/2026); None when every date is ISO. A file that holds both
    (13/06 and 06/13) is refused: no row of it can be trusted."""
    firsts, seconds = [], []
    for text in dates:
        found = WRITTEN_DATE.fullmatch(text.strip())
        if found:
            firsts.append(int(found[1]))
            seconds.append(int(found[2]))
    if not firsts:
        return None
    day_first, month_first = max(firsts) > 12, max(seconds) > 12
    if day_first and month_first:
        raise BetsFileError(["dates written both day first and month first (13/06 and 06/13)"])
    return MONTH_FIRST if month_first else DAY_FIRST


def dates_read_as(text: str) -> str | None:
    """How ``text``'s dates were read, for the import's report: None when all are ISO
    (or the file does not read; its problems say why)."""
    sheet = read_sheet(text)
    try:
        return date_order(values.get("date", "") for _line, values in sheet.rows)
    except BetsFileError:
        return None


def iso_date(text: str, order: str | None) -> str:
    """``text`` as ISO, read in the file's ``order``; ValueError if it is no date."""
    text = text.strip()
    found = WRITTEN_DATE.fullmatch(text)
    if found is None or order is None:
        if not ISO_DATE.fullmatch(text):
            raise ValueError(f"not a date: {text!r} (like 2026-06-13 or 13/06/2026)")
        return date.fromisoformat(text).isoformat()
    first, second, year = int(found[1]), int(found[2]), int(found[3])
    day, month = (first, second) if order == DAY_FIRST else (second, first)
    try:
        return date(year + 2000 if year < 100 else year, month, day).isoformat()
    except ValueError:
        raise ValueError(f"not a date: {text!r} (read as {order})") from None


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
    if len(sheet.rows) > ROWS_MOST:
        return [], [f"more than {ROWS_MOST:,} rows: a pool's sheet of picks has fewer"]
    missing = [name for name in REQUIRED_COLUMNS if name not in sheet.columns]
    if missing:
        return [], [f"line 1: missing column(s) {', '.join(missing)}"]
    rows: list[BetRow] = []
    problems: list[str] = []
    try:
        order = date_order(values["date"] for _line, values in sheet.rows)
    except BetsFileError as error:
        return [], error.problems
    for line, values in sheet.rows:
        try:
            if not values["player"] or not values["team1"] or not values["team2"]:
                raise ValueError("player, team1 and team2 must not be empty")
            score = Score(int(values["score1"]), int(values["score2"]))
            placed_at = _placed_at(values.get("placed_at", ""))
            day = iso_date(values["date"], order)
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
                day,
                values["team1"],
                values["team2"],
                score,
                placed_at,
            )
        )
    return rows, problems
