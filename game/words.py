"""The words a player reads, in the pool's language.

English is written where it is used, as a template (``words("no match #{number}",
number=7)``); another language is a text file beside this one, ``words_<lang>.txt``,
that gives each English template its translation. It works like gettext without
the build step: a template with no translation is shown in English, and a test
reads the code for every template and checks each language file has it.
Dates, stage names and extra-time wording come from the same file.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from enum import Enum
from functools import cache
from importlib import resources

from game.errors import UserError
from game.model import Result

LANGUAGES = ("en", "pt")
DAYS = "Mon Tue Wed Thu Fri Sat Sun"
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec"
# The stages openfootball names (its "round"); each language file translates them all.
STAGES = (
    "Round of 32",
    "Round of 16",
    "Quarter-final",
    "Semi-final",
    "Match for third place",
    "Final",
)


@cache
def catalog(language: str) -> dict[str, str]:
    """``words_<language>.txt``: pairs of lines, the English template then its translation.

    Pairs are separated by blank lines; ``#`` starts a comment line.
    """
    if language == "en":
        return {}
    text = resources.files(__package__).joinpath(f"words_{language}.txt").read_text("utf-8")
    table: dict[str, str] = {}
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if line and not line.startswith("#")]
        if not lines:
            continue
        if len(lines) != 2:
            raise ValueError(f"words_{language}.txt: expected two lines, got {lines!r}")
        english, translated = lines
        if english in table:
            raise ValueError(f"words_{language}.txt: {english!r} is translated twice")
        table[english] = translated
    return table


RESULT_MARKS = ("(aet ", "(agg ", "(pens ")  # what ``Result.__str__`` adds to a score


@dataclass(frozen=True)
class Words:
    """One language's words; ``Words()`` is English."""

    language: str = "en"

    def __post_init__(self) -> None:
        if self.language not in LANGUAGES:
            raise ValueError(f"unknown language {self.language!r} (one of {', '.join(LANGUAGES)})")

    def __call__(self, template: str, /, **values: object) -> str:
        said = catalog(self.language).get(template, template)
        return said.format(**values) if values else said

    def each(self, *templates: str) -> list[str]:
        """Several words at once, as for a table's headers."""
        return [self(template) for template in templates]

    def error(self, error: UserError) -> str:
        """A user error's line in this language (its template, filled with its values)."""
        if not error.template:
            return str(error)
        # A value that is itself a word of the game (a match's status) is said too.
        values = {
            key: self(value.value) if isinstance(value, Enum) else value
            for key, value in error.values.items()
        }
        return self(error.template, **values)

    def when(self, moment: datetime, zone: tzinfo) -> str:
        """``Sat 13 Jun 18:00`` in the zone, with this language's day and month names."""
        local = moment.astimezone(zone)
        day = self(DAYS).split()[local.weekday()]
        month = self(MONTHS).split()[local.month - 1]
        return f"{day} {local:%d} {month} {local:%H:%M}"  # padded: tables line up

    def day(self, day: date) -> str:
        """``15 Jun``, ``1 Jul``, with this language's month names."""
        return f"{day.day} {self(MONTHS).split()[day.month - 1]}"

    def stage(self, stage: str) -> str:
        """``Round of 16`` -> ``Oitavas de final``; ``Group A`` -> ``Grupo A``."""
        kind, _, name = stage.partition(" ")
        if kind == "Group" and name:
            return self("Group {name}", name=name)
        if kind == "Matchday" and name:
            return self("Matchday {name}", name=name)
        return self(stage)

    def result(self, result: Result | str) -> str:
        """``1-1 (aet 2-2) (agg 3-3) (pens 4-3)`` (as ``Result`` writes it, or as the log
        kept it), with this language's words for extra time, aggregate and penalties."""
        text = str(result)
        for mark in RESULT_MARKS:
            text = text.replace(mark, self(mark))
        return text
