"""Places as people name them: countries and their cities, in English and Portuguese.

A take-back naming a country names a fact of a city in it ("esquece a história de
França" of "uma entrevista em Lyon"), and a city one spelling of which a player said may
be named in another ("Lisbon" of "lisboa"). The list is ``places.json``, written by hand.
"""

import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from game.text import unaccented

PLACES_FILE = Path(__file__).with_name("places.json")


@cache
def _book() -> tuple[dict[str, frozenset[str]], re.Pattern[str]]:
    """Each spelling (lowercase, unaccented) -> the places it names ("city:lyon" and its
    country's "country:fr", or a country's alone); and a pattern finding any spelling."""
    countries = json.loads(PLACES_FILE.read_text(encoding="utf-8"))["countries"]
    named: dict[str, set[str]] = {}
    for code, country in countries.items():
        for name in country["names"]:
            named.setdefault(_key(name), set()).add(f"country:{code}")
        for city in country["cities"]:
            place = f"city:{_key(city[0])}"
            for name in city:
                named.setdefault(_key(name), set()).update({place, f"country:{code}"})
    spellings = sorted(named, key=len, reverse=True)
    pattern = re.compile(rf"(?<![\w-])(?:{'|'.join(map(re.escape, spellings))})(?![\w-])")
    return {k: frozenset(v) for k, v in named.items()}, pattern


def _key(name: str) -> str:
    return unaccented(name).lower()


def places_in(text: str) -> frozenset[str]:
    """The places ``text`` tells of: each city with its country, each country."""
    named, pattern = _book()
    return frozenset().union(*(named[m[0]] for m in pattern.finditer(_key(text))))


def places_named(text: str) -> frozenset[str]:
    """The places ``text`` names, as asked for: a city by itself (another city of its
    country is not it), a country (any city in it is)."""
    found = places_in(text)
    cities = {p for p in found if p.startswith("city:")}
    named, pattern = _book()
    countries = {
        p for m in pattern.finditer(_key(text)) for p in named[m[0]] if len(named[m[0]]) == 1
    }
    return frozenset(cities | countries)


def without_places(text: str) -> str:
    """``text`` (lowercase, unaccented) with the places it names blanked out: their words
    name them as places, not by their letters ("França" is no "francesinha")."""
    return _book()[1].sub(" ", _key(text))


def spellings_of(words: Iterable[str]) -> frozenset[str]:
    """Every one-word spelling, lowercase (with and without its accents), of each city
    one of ``words`` (lowercase) names ("lisboa": "lisbon" too): a place said one way
    may be named another."""
    cities = _cities()
    found = [cities[w] for w in words if w in cities]
    return frozenset().union(*found)


@cache
def _cities() -> dict[str, frozenset[str]]:
    """Each one-word spelling of a city, lowercase, with and without accents -> all of
    that city's."""
    countries = json.loads(PLACES_FILE.read_text(encoding="utf-8"))["countries"]
    found: dict[str, frozenset[str]] = {}
    for country in countries.values():
        for city in country["cities"]:
            spellings = {n.lower() for n in city} | {_key(n) for n in city}
            one_word = frozenset(n for n in spellings if " " not in n)
            found.update(dict.fromkeys(one_word, one_word))
    return found
