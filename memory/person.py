"""A player's words about themselves, turned to the third person (stored) or the second (told back).

"I speak fluent Japanese" is stored as "ana speaks fluent Japanese" (the line
itself stays in the log as the fact's source) and acknowledged as "you speak
fluent Japanese": never echoed as "I'll remember that I speak fluent Japanese".

Rules, not a grammar: English and Brazilian Portuguese, the forms people use
when they tell a pool something about themselves. A sentence the rules do not
cover keeps its words; the meaning is never changed, only the person.
"""

from __future__ import annotations

import re

from prompts import sections

WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?|[^\w]+|\d+", re.UNICODE)
# The verb forms and pronouns the rules read, as text (prompts/person.txt).
TABLES = sections("person")


def _pairs(section: str) -> dict[str, str]:
    return dict(line.split(" ", 1) for line in TABLES[section])


EN_THIRD = _pairs("en.third")  # I am -> ana is, I have -> ana has, ...
EN_SECOND = _pairs("en.second")  # I'm -> you're, my -> your, ...
EN_THEY = _pairs("en.they")  # my -> their, me -> them, after the name is said once
EN_UNCHANGED = frozenset(" ".join(TABLES["en.unchanged"]).split())  # can, will, went, ...
EN_ADVERBS = frozenset(" ".join(TABLES["en.adverbs"]).split())  # never, always, once, ...
PT_VERBS = _pairs("pt.verbs")  # sou -> é, tenho -> tem, torço -> torce, ...
PT_SECOND = _pairs("pt.second")  # meu -> seu, eu -> você, ...
PT_POSSESSIVE = _pairs("pt.possessive")  # meu -> o, minha -> a: "o gato de ana"
PT_MARKERS = frozenset(" ".join(TABLES["pt.markers"]).split())


def language_of(text: str) -> str:
    """ "pt" when the words are Portuguese ones, "en" otherwise."""
    words = {w.lower() for w in re.findall(r"[^\W\d_]+", text)}
    return "pt" if len(words & PT_MARKERS) >= 1 and not words & {"i", "my", "i'm"} else "en"


def third_person(text: str, handle: str) -> str:
    """What a player said of themselves, as a fact about them."""
    if language_of(text) == "pt":
        return _pt(text, subject=handle, possessor=f"de {handle}", second=False)
    return _en(text, handle, second=False)


def second_person(text: str) -> str:
    """What a player said of themselves, told back to them."""
    if language_of(text) == "pt":
        return _pt(text, subject="você", possessor="", second=True)
    return _en(text, "you", second=True)


def _en(text: str, name: str, second: bool) -> str:
    tokens = WORD.findall(text)
    out: list[str] = []
    named = False  # the name replaces the first "I"; "they" the later ones
    conjugate = False  # the next verb follows a third-person subject
    for token in tokens:
        lower = token.lower()
        if not token.strip() or not token[0].isalpha():
            out.append(token)
            continue
        if second:
            if lower in EN_SECOND:
                out.append(EN_SECOND[lower])
            elif lower == "was" and "you" in _words(out):
                out.append("were")
            else:
                out.append(token)
            continue
        if lower in ("i", "i'm", "i've", "i'll", "i'd"):
            subject = name if not named else "they"
            named = True
            rest = {"i": "", "i'm": " is", "i've": " has", "i'll": " will", "i'd": " would"}[lower]
            if subject == "they":
                rest = {"i": "", "i'm": " are", "i've": " have", "i'll": " will", "i'd": " would"}[
                    lower
                ]
            out.append(subject + rest)
            conjugate = lower == "i" and subject == name
            continue
        if conjugate:
            if lower in EN_ADVERBS:
                out.append(token)
                continue
            out.append(_third_singular(token))
            conjugate = False
            continue
        if lower in EN_THEY:
            out.append(f"{name}'s" if lower in ("my", "mine") and not named else EN_THEY[lower])
            named = named or lower in ("my", "mine")
            continue
        out.append(token)
    return "".join(out)


def _third_singular(verb: str) -> str:
    lower = verb.lower()
    if lower in EN_THIRD:
        return EN_THIRD[lower]
    if lower in EN_UNCHANGED or lower.endswith("ed") or "'" in lower:
        return verb
    if re.search(r"(s|sh|ch|x|z|o)$", lower):
        return verb + "es"
    if re.search(r"[^aeiou]y$", lower):
        return verb[:-1] + "ies"
    return verb + "s"


def _pt(text: str, subject: str, possessor: str, second: bool) -> str:
    tokens = WORD.findall(text)
    out: list[str] = []
    pending_owner = False  # "meu gato" -> "o gato de ana": the owner follows the noun
    verb_next = True  # a sentence may start with its verb: "torço pelo Vasco"
    said = False  # the subject is in the sentence; if not, it goes before the verb
    for token in tokens:
        lower = token.lower()
        if not token.strip():
            out.append(token)
            continue
        if not token[0].isalpha():
            out.append(token)
            verb_next = verb_next and token.strip() == ""
            continue
        if lower == "eu":
            out.append(subject)
            verb_next = said = True
            continue
        if lower in ("não", "nunca", "sempre", "também", "só", "já", "ainda") and verb_next:
            if not said:
                out.append(f"{subject} ")
                said = True
            out.append(token)
            continue
        if verb_next and lower in PT_VERBS:
            out.append(PT_VERBS[lower] if said else f"{subject} {PT_VERBS[lower]}")
            verb_next, said = False, True
            continue
        verb_next = False
        if second and lower in PT_SECOND:
            out.append(PT_SECOND[lower])
            continue
        if not second and lower in PT_POSSESSIVE:
            out.append(PT_POSSESSIVE[lower])
            pending_owner = True
            continue
        out.append(token)
        if pending_owner:
            out.append(f" {possessor}")
            pending_owner = False
    return "".join(out)


def _words(tokens: list[str]) -> set[str]:
    return {t.lower() for t in tokens if t.strip() and t[0].isalpha()}
