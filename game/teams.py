"""Team names across sources: the pool's fixtures, football-data.org, FIFA.

A feed never renames the pool's teams; it is only matched against them. Both
sides go through the same book (``teams.json``, kept by hand): a known spelling
or FIFA code gives the team's name as the fixtures write it; an unknown name is
compared as it is, without case, accents or punctuation. A name that fits no
team is never guessed at.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources

# Teams not known yet in an openfootball file: group places (1A, 2B, 3A/B/C),
# winners and losers of earlier matches (W74, L101).
PLACEHOLDER = re.compile(r"(?:[123][A-L]|[WL]\d{1,3}|3[A-L](?:/[A-L])+|TBD|TBA|)", re.IGNORECASE)


def normalized(name: str) -> str:
    """``Côte d'Ivoire`` and ``cote divoire`` alike: no case, accents or punctuation."""
    plain = unicodedata.normalize("NFKD", name.replace("&", " and "))
    return "".join(c for c in plain.casefold() if c.isalnum())


def is_placeholder(name: str) -> bool:
    return PLACEHOLDER.fullmatch(name.strip()) is not None


@dataclass(frozen=True)
class TeamBook:
    by_spelling: dict[str, str]  # normalized spelling -> the fixtures' name
    by_code: dict[str, str]  # FIFA code -> the fixtures' name
    # (spelling, the fixtures' name) for every name and alias as written: what text says
    written: tuple[tuple[str, str], ...] = ()

    @staticmethod
    @cache
    def standard() -> TeamBook:
        data = json.loads(resources.files(__package__).joinpath("teams.json").read_text("utf-8"))
        spellings: dict[str, str] = {}
        codes: dict[str, str] = {}
        written = []
        for team in data["teams"]:
            for spelling in (team["name"], team["code"], *team["aliases"]):
                spellings[normalized(spelling)] = team["name"]
            codes[team["code"]] = team["name"]
            written += [(spelling, team["name"]) for spelling in (team["name"], *team["aliases"])]
        return TeamBook(spellings, codes, tuple(written))

    def name_of(self, name: str, code: str | None = None) -> str | None:
        """The team as the fixtures name it, from any known spelling or code; else None."""
        known = self.by_spelling.get(normalized(name))
        if known is None and code:
            known = self.by_code.get(code.strip().upper())
        return known

    def spellings(self, teams: Iterable[str]) -> dict[str, str]:
        """Each way text may write one of ``teams`` (its name or an alias, lowercased) ->
        the team as ``teams`` names it."""
        found: dict[str, str] = {}
        for team in teams:
            ours = self.name_of(team)
            found[team.lower()] = team
            found |= {spelling.lower(): team for spelling, name in self.written if name == ours}
        return found

    def key(self, name: str, code: str | None = None) -> str:
        """What two names of the same team have in common."""
        return normalized(self.name_of(name, code) or name)

    def same(self, ours: str, theirs: str, their_code: str | None = None) -> bool:
        return self.key(ours) == self.key(theirs, their_code)
