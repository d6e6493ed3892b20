"""A spreadsheet as its CSV export writes it: what the bets and squads imports read.

Excel's "CSV UTF-8" starts with a byte-order mark, and in much of Europe a
spreadsheet parts its columns with semicolons; either is read as a comma file
would be. What ``csv`` itself cannot read (a field past its size limit) stops
the reading there, as one line that says where.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field


@dataclass
class Sheet:
    columns: list[str]  # the header's names, stripped (and lowercased when asked)
    rows: list[tuple[int, dict[str, str]]] = field(default_factory=list)  # (line, values)
    problem: str | None = None  # what stopped the reading, with its line


def read_sheet(text: str, lower: bool = False) -> Sheet:
    """``text``'s header and rows, each row's values stripped, by column."""
    text = text.removeprefix("\ufeff")
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    sheet = Sheet([])
    try:
        names = [name.strip() for name in reader.fieldnames or ()]
        sheet.columns = [name.lower() for name in names] if lower else names
        reader.fieldnames = sheet.columns
        for raw in reader:
            values = {
                key: (value if isinstance(value, str) else "").strip()
                for key, value in raw.items()
                if isinstance(key, str)
            }
            sheet.rows.append((reader.line_num, values))
    except csv.Error as error:
        sheet.problem = f"line {reader.line_num + 1}: {error}"  # the line it was reading
    return sheet
