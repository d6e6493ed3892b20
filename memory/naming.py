"""Which players a line names, however it spells them ("a-n-a", "A N A", "4n4"), and
the handles close to a name that is nobody's: part of reading a chat line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from difflib import get_close_matches

from game.text import key_form, plain_letters, unaccented


def folded(text: str) -> str:
    """``text`` as ``spelled`` patterns read it: no case, no accents, compatibility forms
    plain, lookalike letters Latin (fullwidth "ANA", "Aná", "ana" in Cyrillic letters alike)."""
    return plain_letters(unaccented(text))


# Digits written for the letters they look like ("4n4", "brun0"): read so in a name only,
# and only in a spelling that has a letter too ("4-0" is a score, "1984" a year).
DIGIT_LETTERS = {"o": "0", "i": "1", "l": "1", "e": "3", "a": "4", "s": "5", "t": "7"}


def spelled(name: str, digits: bool = False) -> str:
    """A pattern for ``name`` however it is written, to search in ``folded`` text: in
    any case or accents, its letters together ("ANA"), apart with marks between them
    ("a-n-a", "A.N.A", "an_a"), or each on its own ("a n a"); a name of several words
    with anything between them ("Ana-Paula"). Never inside a longer word ("banana").
    With ``digits``, a letter may be written as the digit it looks like ("4n4"); a match
    must then hold a letter (``others_named`` checks)."""
    words = [key_form(w) for w in re.split(r"[\W_]+", name) if key_form(w)]
    if not words:
        return r"(?!)"

    def letter(char: str) -> str:
        look = DIGIT_LETTERS.get(char) if digits else None
        return f"[{char}{look}]" if look else re.escape(char)

    within = r"(?:[^\w\s]|_)*"  # marks between letters, no space: "a-n-a", "a.n.a"
    together = r"[\W_]*".join(within.join(map(letter, w)) for w in words)
    apart = r"[\W_]+".join(map(letter, "".join(words)))  # "a n a", "a - n - a"
    return rf"(?<![^\W_])(?:{together}|{apart})(?![^\W_])"


def others_named(
    text: str, speaker: str, players: Mapping[str, str], listener: str | None = None
) -> list[str]:
    """The players other than ``speaker`` that ``text`` names, by handle or name, in any
    spelling ``spelled`` reads ("a-n-a", "A N A", "Ana Paula", "4n4", "brun0").

    Naming ``listener`` (her, in a fact told to her) is no claim about a player.
    """
    said = folded(text)
    named = []
    for handle, name in players.items():
        if handle in (speaker, listener):
            continue
        if any(_names(said, s) for s in {handle, name} if s):
            named.append(handle)
    return sorted(named)


def _names(said: str, name: str) -> bool:
    """Whether ``folded`` text names ``name``: as spelled, or with digits for some of its
    letters in a spelling that keeps a letter ("4n4"; not "4-0" for "ao")."""
    if re.search(spelled(name), said):
        return True
    return any(re.search(r"[^\W\d_]", m[0]) for m in re.finditer(spelled(name, True), said))


def suggest(name: str, players: Mapping[str, str]) -> list[str]:
    """Close handles for a name that matches no player: suggestions, never a guess."""
    candidates = {h: h for h in players} | {n.lower(): h for h, n in players.items()}
    close = get_close_matches(name.lower(), list(candidates), n=3, cutoff=0.6)
    return sorted({candidates[c] for c in close})


def players_by_name(name: str, players: Mapping[str, str]) -> str | None:
    """The handle of the player ``name`` is (a handle or a display name, any case)."""
    lowered = name.lower()
    return next(
        (h for h, shown in players.items() if lowered in (h.lower(), (shown or "").lower())), None
    )
