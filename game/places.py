"""Places as people name them: countries and their cities, in English and Portuguese.

A take-back naming a country names a fact of a city in it ("esquece a história de
França" of "uma entrevista em Lyon"), and a city one spelling of which a player said may
be named in another ("Lisbon" of "lisboa"). The list is ``places.json``, written by hand.

A place is read as a token: "city:lyon" for a city, "country:fr" for a country (a city
carries its country's too), "named:fr" for a country named itself, so that a fact
naming France outranks one of a city in it when "France" is what a line names.
"""

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from game.text import unaccented

PLACES_FILE = Path(__file__).with_name("places.json")


@dataclass(frozen=True)
class _Book:
    tokens: dict[str, frozenset[str]]  # a spelling, lowercase and unaccented -> its places
    pattern: re.Pattern[str]  # any spelling, in text folded by ``_folded``
    everyday: frozenset[str]  # spellings that are words too: a place only capitalised
    accented: frozenset[str]  # spellings as written, lowercase, where accents tell them
    cities: dict[str, frozenset[str]]  # a one-word spelling -> all of that city's


@cache
def _book() -> _Book:
    raw = json.loads(PLACES_FILE.read_text(encoding="utf-8"))
    tokens: dict[str, set[str]] = {}
    cities: dict[str, frozenset[str]] = {}
    accented: set[str] = set()
    for code, country in raw["countries"].items():
        for name in country["names"]:
            tokens.setdefault(_key(name), set()).update({f"country:{code}", f"named:{code}"})
            accented.add(name.lower())
        for city in country["cities"]:
            place = f"city:{_key(city[0])}"
            for name in city:
                tokens.setdefault(_key(name), set()).update({place, f"country:{code}"})
                accented.add(name.lower())
            written = {n.lower() for n in city} | {_key(n) for n in city}
            one_word = frozenset(n for n in written if " " not in n)
            cities.update(dict.fromkeys(one_word, one_word))
    longest_first = sorted(tokens, key=len, reverse=True)
    pattern = re.compile(rf"(?<![\w-])(?:{'|'.join(map(re.escape, longest_first))})(?![\w-])")
    return _Book(
        {k: frozenset(v) for k, v in tokens.items()},
        pattern,
        frozenset(raw["everyday"]),
        frozenset(a for a in accented if not a.isascii()),
        cities,
    )


def _key(name: str) -> str:
    return unaccented(name).lower()


def _folded(text: str) -> str:
    """``text`` lowercase and unaccented, letter for letter (same length: a place found
    in it is found at the same place in ``text``)."""
    return "".join((unaccented(c)[:1] or c).lower() for c in text)


def _found(text: str) -> Iterable[frozenset[str]]:
    book = _book()
    for found in book.pattern.finditer(_folded(text)):
        written = text[found.start() : found.end()]
        everyday = found[0] in book.everyday
        if everyday and not written[0].isupper() and written.lower() not in book.accented:
            continue  # "vou ser franca contigo", "a defesa é uma fortaleza"
        yield book.tokens[found[0]]


def places_in(text: str) -> frozenset[str]:
    """The places a fact's ``text`` tells of: each city with its country, each country
    named."""
    return frozenset().union(*_found(text))


def places_named(text: str) -> frozenset[str]:
    """The places a line asking for a fact names: a city by itself (another city of its
    country is not it), a country as itself and as any city in it."""
    return frozenset(
        token
        for tokens in _found(text)
        for token in tokens
        if not token.startswith("country:") or f"named:{token[8:]}" in tokens
    )


def without_places(text: str) -> str:
    """``text`` (lowercase, unaccented) with the places it names blanked out: their words
    name them as places, not by their letters ("França" is no "francesinha")."""
    return _book().pattern.sub(" ", _folded(text))


def spellings_of(words: Iterable[str]) -> frozenset[str]:
    """Every one-word spelling, lowercase (with and without its accents), of each city
    one of ``words`` (lowercase) names ("lisboa": "lisbon" too): a place said one way
    may be named another."""
    cities = _book().cities
    return frozenset().union(*(cities[w] for w in words if w in cities))
