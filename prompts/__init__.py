"""The immutable layer: the persona and every prompt template, kept as text files.

Nothing here is built by code; a template is read as written, so the stable
prefix of every model call is byte-identical from call to call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from string import Template


@cache
def load(name: str) -> str:
    """The text of ``prompts/<name>.txt``, exactly as stored."""
    return resources.files(__name__).joinpath(f"{name}.txt").read_text(encoding="utf-8")


def render(name: str, /, **values: object) -> str:
    """Fill ``$placeholders`` in a template; a missing value is an error, not a blank."""
    return Template(load(name)).substitute({key: str(value) for key, value in values.items()})


def persona(name: str, language: str = "en") -> str:
    """Who she is and how she speaks, named and in the pool's language: the system prefix."""
    return render("persona", name=name, language=phrase("languages", language))


@cache
def voice(language: str) -> dict[str, tuple[str, ...]]:
    """The offline phrasings of ``prompts/voice_<language>.txt``: section -> lines."""
    return sections(f"voice_{language}")


def phrase(name: str, section: str, /, **values: object) -> str:
    """The one line of ``[section]`` in ``prompts/<name>.txt``, its ``$placeholders`` filled."""
    (line,) = sections(name)[section]
    return Template(line).substitute({key: str(value) for key, value in values.items()})


@cache
def sections(name: str) -> dict[str, tuple[str, ...]]:
    """A file of ``[section]`` headers, each followed by its lines; ``#`` starts a comment."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for raw in load(name).splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = found.setdefault(line[1:-1], [])
        elif current is not None:
            current.append(line)
    return {section: tuple(lines) for section, lines in found.items()}


# A voice line is a stock line when this many letters of it are fixed words, not
# names or numbers filled in: "$label, $stage." is a frame, "Picks are crumbling" a line.
STOCK_LETTERS = 15
# Sections said on a schedule, once a day or a round: their frame comes back by design.
SCHEDULED = ("digest", "round")
VOICES = ("en", "pt")  # the voice files there are (``voice_<language>.txt``)


EDGES = (". ", "! ", "? ")  # where a sentence ends inside a remark
PLACE_AT_END = re.compile(r"\$\{?\w+\}?[.!?]?$")  # a line whose last words are filled in


@dataclass(frozen=True)
class StockLine:
    section: str
    template: str
    fixed: tuple[str, ...]  # its words between the places filled in, in order

    def found_in(self, text: str) -> bool:
        """Whether ``text`` says this line, whatever was filled in: its fixed words in
        order (found one after the other, never a pattern that could backtrack)."""
        at = 0
        for part in self.fixed:
            at = text.find(part, at)
            if at < 0:
                return False
            at += len(part)
        return True

    def said_in(self, text: str) -> str | None:
        """The part of ``text`` that says this line, or None: from its first fixed word
        to its last, out to the sentence's edge where a place filled in opens or ends it
        ("That's 4 blanks in a row for carla." whole, not "That's 4 blanks in a row for")."""
        at, first = 0, -1
        for part in self.fixed:
            at = text.find(part, at)
            if at < 0:
                return None
            first = at if first < 0 else first
            at += len(part)
        if self.template.startswith("$"):
            starts = [
                found + len(edge) for edge in EDGES if (found := text.rfind(edge, 0, first)) >= 0
            ]
            first = max(starts, default=0)
        if PLACE_AT_END.search(self.template):
            ends = [end for edge in EDGES if (end := text.find(edge, at)) >= 0]
            at = min(ends, default=len(text))
        return text[first:at]

    @property
    def scheduled(self) -> bool:
        """A frame said on a schedule (a day's digest): it comes back by design."""
        return self.section.startswith(SCHEDULED)


@cache
def stock_lines(language: str) -> tuple[StockLine, ...]:
    """Every stock line of the offline voice in ``language``."""
    found = []
    for section, templates in voice(language).items():
        for template in templates:
            fixed = re.split(r"\$\{?\w+\}?|\[[^\]|]*\|[^\]]*\]", template)
            if sum(c.isalpha() for part in fixed for c in part) >= STOCK_LETTERS:
                found.append(StockLine(section, template, tuple(p for p in fixed if p)))
    return tuple(found)


@lru_cache(maxsize=4096)
def stock_lines_said(text: str) -> frozenset[tuple[str, str]]:
    """The stock lines ``text`` says, but the scheduled ones, each with the part of
    ``text`` that says it (whom that part names is whom the line is about)."""
    return frozenset(
        (line.template, said)
        for language in VOICES
        for line in stock_lines(language)
        if not line.scheduled and (said := line.said_in(text)) is not None
    )


@lru_cache(maxsize=4096)
def stock_lines_in(text: str) -> frozenset[str]:
    """The stock lines (templates, of any language) ``text`` says, but the scheduled
    ones: what a line must not say again too soon (``memory.guard``)."""
    return frozenset(
        line.template
        for language in VOICES
        for line in stock_lines(language)
        if not line.scheduled and line.found_in(text)
    )
