"""A century and a half of men's internationals: the history her ratings start from.

The file is martj42/international_results (CC0 1.0; ``game/data/README.md``
says which commit), every men's full international since Scotland 0-0 England
in 1872 through the 2026 World Cup final. It is shipped compressed with the
columns the ratings read: date, teams, score after extra time (shoot-outs
excluded), tournament, and whether the venue was neutral. To refresh it from a
newer copy of the repository's ``results.csv``::

    python -m game.internationals path/to/results.csv
"""

from __future__ import annotations

import csv
import gzip
import io
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from importlib import resources
from pathlib import Path

from game.errors import UserError

SHIPPED = "data/internationals.csv.gz"
COLUMNS = ("date", "home_team", "away_team", "home_score", "away_score", "tournament", "neutral")


class HistoryError(UserError, ValueError):
    """The results file is not the one the ratings read; the message names the row."""


@dataclass(frozen=True)
class International:
    """One international as the file writes it: its names, not the pool's."""

    day: date
    home: str
    away: str
    home_goals: int
    away_goals: int
    tournament: str
    neutral: bool


def read(text: Iterable[str]) -> list[International]:
    """The file's rows in date order (a row with no score yet, a match to come, is left out)."""
    rows = csv.reader(text)  # by position, not DictReader: 49,000 rows at each start
    header = next(rows, [])
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise HistoryError(f"the results file has no column {', '.join(missing)}")
    at = [header.index(c) for c in COLUMNS]
    played = []
    for line, row in enumerate(rows, start=2):
        if not row:  # a blank line, which DictReader skipped too
            continue
        try:
            day, home, away, home_score, away_score, tournament, neutral = (row[i] for i in at)
        except IndexError:
            raise HistoryError(f"row {line} of the results file: too few columns") from None
        if home_score in ("", "NA") or away_score in ("", "NA"):
            continue
        try:
            played.append(
                International(
                    date.fromisoformat(day),
                    home,
                    away,
                    int(home_score),
                    int(away_score),
                    tournament,
                    neutral.strip().upper() == "TRUE",
                )
            )
        except ValueError as error:
            raise HistoryError(f"row {line} of the results file: {error}") from None
    return sorted(played, key=lambda p: p.day)


def shipped() -> tuple[International, ...]:
    """The history shipped with the package, read at each call: what is learned from it
    is kept (``pundit.known_before``, once per day asked), the 49,000 rows are not, for
    every full garbage collection of a process that kept them walked them all."""
    packed = resources.files(__package__).joinpath(SHIPPED).read_bytes()
    return tuple(read(io.StringIO(gzip.decompress(packed).decode("utf-8"))))


def refresh(source: Path, target: Path | None = None) -> int:
    """Writes the columns the ratings read from ``source`` (the repository's results.csv)
    into the shipped file; the number of matches written."""
    with source.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    out = io.StringIO()
    writer = csv.DictWriter(out, COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    read(io.StringIO(out.getvalue()))  # a file the ratings cannot read is not shipped
    destination = target or Path(__file__).with_name("data") / "internationals.csv.gz"
    destination.write_bytes(gzip.compress(out.getvalue().encode("utf-8"), mtime=0))
    return len(rows)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m game.internationals path/to/results.csv")
    print(f"{refresh(Path(sys.argv[1]))} matches written")
