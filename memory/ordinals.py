"""Places in a table said in words: "5th", "5º", "fifth", "quinto"."""

import re

_ORDINAL_WORDS = (
    ("first", "primeiro", "primeira"),
    ("second", "segundo", "segunda"),
    ("third", "terceiro", "terceira"),
    ("fourth", "quarto", "quarta"),
    ("fifth", "quinto", "quinta"),
    ("sixth", "sexto", "sexta"),
    ("seventh", "sétimo", "sétima", "setimo", "setima"),
    ("eighth", "oitavo", "oitava"),
    ("ninth", "nono", "nona"),
    ("tenth", "décimo", "décima", "decimo", "decima"),
)
ORDINALS: dict[str, int] = {w: n for n, ws in enumerate(_ORDINAL_WORDS, start=1) for w in ws}
# an ordinal in a pattern: digits with their ending, or a word
ORDINAL = r"(?:\d{1,2}(?:st|nd|rd|th|º|ª|o)|" + "|".join(ORDINALS) + ")"
# the words of a place after the first, without accents (for text read without them);
# not "quarta", "quinta", "sexta", which say a weekday as often ("o jogo da quinta")
WEEKDAYS = {"quarta", "quinta", "sexta"}
AFTER_FIRST = "|".join(
    w for w, n in ORDINALS.items() if n > 1 and re.fullmatch(r"[a-z]+", w) and w not in WEEKDAYS
)


def ordinal_value(word: str) -> int | None:
    """The place an ordinal says: "5th", "5º", "fifth", "quinto" are 5; None for none."""
    lowered = word.lower()
    if lowered[:-2].isdigit() and lowered[-2:] in ("st", "nd", "rd", "th"):
        return int(lowered[:-2])
    if lowered[:-1].isdigit() and lowered[-1] in "ºªo":
        return int(lowered[:-1])
    return ORDINALS.get(lowered)
