"""Team names across sources: the pool's fixtures, football-data.org, FIFA.

A feed never renames the pool's teams; it is only matched against them. Both
sides go through the same book (``teams.json`` for nations, ``clubs.json`` for
clubs, kept by hand): a known spelling or FIFA code gives the team's name as the
fixtures write it; an unknown name is compared as it is, without case, accents
or punctuation. A name that fits no team is never guessed at. A club cup's
files add the club's country ("SE Palmeiras (BRA)"): the book reads the name
without it, so a club is one team in its league and in its cup.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from game.text import key_form, unaccented

# Teams not known yet, as the sources write the slots: the one definition.
GROUP_PLACE = re.compile(r"([12])([A-L])")  # "1A": group A's winner, "2B": B's runner-up
THIRD_PLACE = re.compile(r"3([A-L](?:/[A-L])*)")  # "3A/B/C": a third from one of those
WINNER_OF = re.compile(r"([WL])(\d{1,3})")  # "W74", "L101": of the pool's match 74, 101
NOT_SET = re.compile(r"TBD|TBA|")  # a slot nobody has named yet
SLOTS = (GROUP_PLACE, THIRD_PLACE, WINNER_OF, NOT_SET)
COUNTRY_MARK = re.compile(r"\s*\([A-Z]{3}\)$")  # a club cup's "SE Palmeiras (BRA)"


# A pattern that finds a set of spellings, and each spelling's team; and the spellings by
# their first word, in the pattern's order, with a pattern finding only the words that
# begin one (None when a spelling is not all ASCII or does not begin with a word's letter:
# the first pattern alone reads such a book).
FirstWords = tuple[dict[str, list[str]], re.Pattern[str]]
Finder = tuple[re.Pattern[str] | None, dict[str, str], FirstWords | None]
WORD_RUN = re.compile(r"\w+")


def is_placeholder(name: str) -> bool:
    """A knock-out slot ("1A", "3A/B/C", "W74", "TBD"), not a team yet."""
    written = name.strip().upper()
    return any(slot.fullmatch(written) for slot in SLOTS)


@dataclass(frozen=True)
class TeamBook:
    by_spelling: dict[str, str]  # spelling as a key (text.key_form) -> the fixtures' name
    by_code: dict[str, str]  # FIFA code -> the fixtures' name
    # (spelling, the fixtures' name) for every name and alias as written: what text says
    written: tuple[tuple[str, str], ...] = ()
    clubs: frozenset[str] = frozenset()  # the names of the book's clubs, not nations
    # The fixtures' name -> what its people, players and fans are called ("Koreans",
    # "mexicanos", "Canarinho"): words that speak of the team, not read as naming it
    people: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    # named_in's patterns, by the teams asked about: built once, a line is read many times
    _finders: dict[frozenset[str] | None, Finder] = field(
        default_factory=dict, compare=False, repr=False
    )

    @staticmethod
    @cache
    def standard() -> TeamBook:
        data = json.loads(resources.files(__package__).joinpath("teams.json").read_text("utf-8"))
        clubs = json.loads(resources.files(__package__).joinpath("clubs.json").read_text("utf-8"))
        spellings: dict[str, str] = {}
        codes: dict[str, str] = {}
        written = []
        people: dict[str, tuple[str, ...]] = {}
        for team in (*data["teams"], *clubs["clubs"]):
            forms = [w for ws in team.get("people", {}).values() for w in ws]
            people[team["name"]] = (*forms, *team.get("nicknames", ()))
        for team in data["teams"]:
            for spelling in (team["name"], team["code"], *team["aliases"]):
                spellings[key_form(spelling)] = team["name"]
            codes[team["code"]] = team["name"]
            written += [(spelling, team["name"]) for spelling in (team["name"], *team["aliases"])]
        for club in clubs["clubs"]:
            for spelling in (club["name"], *club["aliases"]):
                spellings[key_form(spelling)] = club["name"]
                written.append((spelling, club["name"]))
        names = frozenset(club["name"] for club in clubs["clubs"])
        return TeamBook(spellings, codes, tuple(written), names, people)

    def name_of(self, name: str, code: str | None = None) -> str | None:
        """The team as the fixtures name it, from any known spelling or code; else None."""
        known = self.by_spelling.get(key_form(name))
        if known is None and COUNTRY_MARK.search(name):
            known = self.by_spelling.get(key_form(COUNTRY_MARK.sub("", name)))
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

    def people_of(self, teams: Iterable[str]) -> set[str]:
        """What ``teams``' people, players and fans are called, in English and Portuguese
        ("Koreans", "os mexicanos", "the Seleção"'s "Canarinho")."""
        return {word for team in teams for word in self.people.get(self.name_of(team) or team, ())}

    def named_in(self, text: str, teams: Iterable[str] | None = None) -> set[str]:
        """The teams ``text`` names, as whole words, by any spelling of the book (accents
        or none: "Seleção", "Selecao"): only ``teams``, named as they are, when given;
        else any team of the book, named as the book names it."""
        asked = None if teams is None else frozenset(teams)
        if asked not in self._finders:
            if asked is None:
                spelled = {spelling.lower(): name for spelling, name in self.written}
            else:
                spelled = self.spellings(asked)
            names = {unaccented(spelling): team for spelling, team in spelled.items()}
            ordered = sorted(names, key=len, reverse=True)
            either = "|".join(re.escape(s) for s in ordered)
            pattern = re.compile(rf"(?<!\w)(?:{either})(?!\w)", re.IGNORECASE) if names else None
            self._finders[asked] = (pattern, names, _by_first_word(ordered))
        pattern, names, by_first = self._finders[asked]
        if pattern is None:
            return set()
        plain = unaccented(text)
        if by_first is None or not plain.isascii():
            return {names[found.lower()] for found in pattern.findall(plain)}
        # The pattern's own reading, word by word: a spelling can only begin where a word
        # does, with that whole word (in ASCII, case is all ``lower`` changes), and the
        # longest first, the scan going on after each one found, as ``findall`` does.
        # Only the words a spelling begins with are visited, found by a pattern of their
        # own: most words of a context begin none, and a step each was most of the scan.
        lowered = plain.lower()
        found: set[str] = set()
        end = 0
        spellings, firsts = by_first
        for word in firsts.finditer(lowered):
            start = word.start()
            if start < end:
                continue
            for spelling in spellings[word[0]]:
                stop = start + len(spelling)
                if lowered.startswith(spelling, start) and not (
                    stop < len(lowered) and _is_word_char(lowered[stop])
                ):
                    found.add(names[spelling])
                    end = stop
                    break
        return found

    def key(self, name: str, code: str | None = None) -> str:
        """What two names of the same team have in common."""
        return key_form(self.name_of(name, code) or name)

    def same(self, ours: str, theirs: str, their_code: str | None = None) -> bool:
        return self.key(ours) == self.key(theirs, their_code)


def _by_first_word(spellings: list[str]) -> FirstWords | None:
    """``spellings`` by their first word (a run of word characters), each list in the
    order given, and a pattern of those words, whole; None when one is not all ASCII or
    begins with no word character."""
    found: dict[str, list[str]] = {}
    for spelling in spellings:
        first = WORD_RUN.match(spelling)
        if not spelling.isascii() or first is None:
            return None
        found.setdefault(first[0], []).append(spelling)
    if not found:
        return None
    either = "|".join(re.escape(word) for word in sorted(found, key=len, reverse=True))
    return found, re.compile(rf"(?<!\w)(?:{either})(?!\w)")


def _is_word_char(char: str) -> bool:
    return WORD_RUN.match(char) is not None
