"""A model's reading of a line to her: what it does to memory and what it asks, checked.

With a model that hears (``MemoryConfig.model_hears``), each line addressed to her is
read once, by one structured call: the model is shown the author's current facts with
their ids and answers with memory operations (add a fact, replace fact N, withdraw
fact N, keep fact N private) and, for a question, its kind and slots. The model
proposes; this module disposes, by the rules the grammar's readings meet too:

- only the author's own facts: an id must be one of theirs, current; a fact's text
  names no other player, states no score, points or match, and claims no standing in
  the pool;
- a fact says what the line said (``facts.keeps``): two thirds of its words are the
  line's, and every name and number in it is: a model's invention is refused;
- a withdrawal is always honoured; a replacement keeps the old fact, pointing at the new.

Each operation refused is named; what passes is written in the transaction that
moves memory's cursor past the line (``FactShelf.write_for``). The question is kept
(``MEMORY_STATE``, "heard:<line id>") for her answer, so the line is read once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any

from game.text import unaccented
from memory import facts
from memory.naming import others_named
from memory.question_kinds import (
    RIVAL,
    Ask,
    DayBestAsked,
    GapAsked,
    Help,
    KnownAbout,
    LeadingAsked,
    MatchAsked,
    MostExactAsked,
    OwnStanding,
    PickAsked,
    PoolTable,
    RulesAsked,
    ScoredOnAsked,
    TeamsMatchAsked,
    WhoCalledAsked,
    WhoPickedAsked,
    forecast_asked,
)
from memory.spoken_dates import expiry_in
from memory.standing import claims_standing
from memory.utterance import about_the_game, told_in_confidence

OPS = ("add", "replace", "withdraw", "private")
# What a question may ask, as the model names it; each is one kind the records answer.
KINDS = (
    "my_standing", "leader", "table", "gap", "pick", "match", "who_called", "scored",
    "most_exact", "day_best", "who_picked", "rules", "forecast", "facts_about", "help", "other",
)  # fmt: skip


class HearingRejected(ValueError):
    """An answer that is no reading at all: the grammar reads the line instead."""


@dataclass(frozen=True)
class Op:
    """One memory operation the model proposes."""

    op: str
    id: int | None = None
    text: str = ""
    private: bool = False


@dataclass(frozen=True)
class HeardQuestion:
    """A question as the model read it: its kind and slots."""

    kind: str
    who: str | None = None  # a player's handle, when it asks after one
    match: int | None = None
    team: str | None = None
    score: str | None = None


@dataclass(frozen=True)
class Reading:
    ops: tuple[Op, ...]
    question: HeardQuestion | None


def _nullable(kind: str) -> dict[str, Any]:
    return {"type": [kind, "null"]}


SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "memory": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "op": {"type": "string", "enum": list(OPS)},
                    "id": _nullable("integer"),
                    "text": _nullable("string"),
                    "private": {"type": "boolean"},
                },
                "required": ["op", "id", "text", "private"],
                "additionalProperties": False,
            },
        },
        "question": {
            "anyOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "properties": {
                        "kind": {"type": "string", "enum": list(KINDS)},
                        "who": _nullable("string"),
                        "match": _nullable("integer"),
                        "team": _nullable("string"),
                        "score": _nullable("string"),
                    },
                    "required": ["kind", "who", "match", "team", "score"],
                    "additionalProperties": False,
                },
            ]
        },
    },
    "required": ["memory", "question"],
    "additionalProperties": False,
}


def parse(answer: str) -> Reading:
    """The model's JSON answer as a reading; ``HearingRejected`` says what is wrong."""
    try:
        raw: Any = json.loads(facts.unfenced(answer))
    except json.JSONDecodeError as error:
        raise HearingRejected(f"the answer is not JSON ({error.msg})") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("memory", []), list):
        raise HearingRejected("the answer is not an object with a 'memory' list")
    ops = []
    for item in raw.get("memory") or []:
        if not isinstance(item, dict) or item.get("op") not in OPS:
            raise HearingRejected(f"not a memory operation: {item!r}")
        number, said = item.get("id"), item.get("text")
        if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
            raise HearingRejected(f"an id that is no number: {item!r}")
        ops.append(
            Op(item["op"], number, " ".join(str(said or "").split()), item.get("private") is True)
        )
    question = raw.get("question")
    asked = None
    if isinstance(question, dict) and question.get("kind") in KINDS:
        match = question.get("match")
        asked = HeardQuestion(
            question["kind"],
            _text(question.get("who")),
            match if isinstance(match, int) and not isinstance(match, bool) else None,
            _text(question.get("team")),
            _text(question.get("score")),
        )
    return Reading(tuple(ops), asked)


def heard_handles(who: str | None) -> list[str]:
    """The handles a reading's "who" holds: one, or several joined ("carla, elis")."""
    return [h for h in re.split(r"\s*(?:,|&|\band\b|\be\b)\s*", who or "") if h]


def _text(value: object) -> str | None:
    return " ".join(value.split()) or None if isinstance(value, str) else None


@dataclass(frozen=True)
class Checked:
    """The operations that pass, and each refused one with why."""

    ops: tuple[Op, ...]
    refused: tuple[str, ...]


def check(
    reading: Reading,
    author: str,
    line: str,
    held: list[facts.Fact],
    players: Mapping[str, str],
    her: str,
) -> Checked:
    """The reading's operations that keep the rules (this module's docstring), in order."""
    own = {fact.id: fact for fact in held if fact.handle == author}
    kept: list[Op] = []
    refused: list[str] = []
    for op in reading.ops:
        why = _refusal(op, author, line, own, players, her)
        if why:
            refused.append(f"{op.op} {op.id if op.id is not None else op.text!r}: {why}")
        else:
            kept.append(op)
    return Checked(tuple(kept), tuple(refused))


def _refusal(
    op: Op,
    author: str,
    line: str,
    own: Mapping[int, facts.Fact],
    players: Mapping[str, str],
    her: str,
) -> str:
    if op.op != "add" and op.id not in own:
        return "no current fact of the author's has that id"
    if op.op in ("withdraw", "private"):
        return ""
    if not op.text or len(op.text) > facts.MAX_FACT_LENGTH:
        return "a fact needs a text of at most 200 characters"
    named = others_named(op.text, author, players, her)
    if named:
        return f"names {', '.join(named)}: not the author's to tell"
    if about_the_game(op.text):
        return "a score, points or a match: the log keeps those"
    if claims_standing(op.text):
        return "a role or standing in the pool: the records say who is who"
    # a replacement may keep what the fact it replaces said ("the twins, not their names")
    source = line if op.op == "add" or op.id is None else f"{line} {own[op.id].text}"
    if not said_in(op.text, source, (author, players.get(author) or "")):
        return "says what the line did not"
    return ""


MONTHS = r"(?:jan|feb|fev|mar|apr|abr|may|mai|jun|jul|aug|ago|sep|set|oct|out|nov|dec|dez)[a-z]*"
# (with the year it adds to date a telling: "as of 03 Dec 2022", "18 de março (2023)",
# "(April 2023)"; not a year of the fact itself, "since May 2018")
_YEAR = r"(?:\s*\((?:19|20)\d\d\))?"
DATED = re.compile(
    rf"\bas of (?:\d{{1,2}} )?{MONTHS}(?: (?:19|20)\d\d)?\b"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?(?: de)? {MONTHS}\b{_YEAR}"
    rf"|\b{MONTHS} \d{{1,2}}(?:st|nd|rd|th)?\b{_YEAR}|\({MONTHS}(?: de)? (?:19|20)\d\d\)"
    r"|\b\d{4}-\d{2}-\d{2}\b",
    re.IGNORECASE,
)


WEEKDAY = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:segunda|ter[cç]a|quarta|quinta|sexta)"
    r"(?:s|-feiras?)?\b|\b(?:s[aá]bado|domingo)s?\b",
    re.IGNORECASE,
)


# A weekday in either language, by the first four letters the other's name shares with it
WEEKDAY_OF = {
    "mond": "segu", "tues": "terc", "wedn": "quar", "thur": "quin", "frid": "sext",
    "satu": "saba", "sund": "domi",
}  # fmt: skip


def _weekdays_said(text: str, line: str) -> str:
    """``text`` without the weekdays ``line`` names in either language ("Tuesdays" of
    "terças"): a model's translation, not a day it made up."""

    def said(found: re.Match[str]) -> str:
        day = found[0].lower()[:4]
        return " " if day in line or WEEKDAY_OF.get(day, "\0") in line else found[0]

    return WEEKDAY.sub(said, text)


# A month by its number, in either language, written out: "setembro" is "September"
MONTH_NAMES = (
    ("january", "janeiro"), ("february", "fevereiro"), ("march", "marco"), ("april", "abril"),
    ("may", "maio"), ("june", "junho"), ("july", "julho"), ("august", "agosto"),
    ("september", "setembro"), ("october", "outubro"), ("november", "novembro"),
    ("december", "dezembro"),
)  # fmt: skip
MONTH_OF = {name: number for number, names in enumerate(MONTH_NAMES) for name in names}
MONTH = re.compile(rf"\b(?:{'|'.join(MONTH_OF)})\b", re.IGNORECASE)


def _months_said(text: str, line: str) -> str:
    """``text`` without the months ``line`` names in either language ("since September"
    of "desde setembro")."""
    said = {MONTH_OF[m.lower()] for m in MONTH.findall(line)}
    return MONTH.sub(lambda m: " " if MONTH_OF[m[0].lower()] in said else m[0], text)


def said_in(text: str, line: str, names: tuple[str, ...]) -> bool:
    """Whether a fact holds nothing the line did not say: every number in it is the
    line's, and at least half the names it gives are (a word of the line starting with
    the name's first four letters, accents and case aside: "cruzeirense" gives
    "Cruzeiro", "novembro" "November"). Its other words may be the model's own: a
    capable model tells "toco bateria numa banda" as "plays drums in a band", and a
    word-for-word test refused such facts (18 of 62 readings in a held-out run). A
    small model's invention ("a 16-year-old soccer player from Sydney" from "I keep
    bees") names what the line never did."""
    said = unaccented(line).lower()
    # a day the model dated ("yesterday" as "05 Dec") is no number nor name the line lacks;
    # nor is a weekday it put in its own language ("terças" as "Tuesdays")
    undated = _months_said(_weekdays_said(DATED.sub(" ", unaccented(text)), said), said)
    numbers = set(re.findall(r"\d+", undated))
    if not numbers <= set(re.findall(r"\d+", said)):
        return False
    words = re.findall(r"[^\W\d_]+", said)
    given = {n for n in facts.objects(unaccented(undated), names) if not n.isdigit()}
    found = sum(
        1 for name in given if any(w.startswith(name[:4]) for w in words) or _initials(name, words)
    )
    return found * 2 >= len(given)


INITIALISM = 5  # letters of an abbreviation at most: "IVF", "TDAH"


def _initials(name: str, words: list[str]) -> bool:
    """Whether ``name`` abbreviates words the line said in a row, in any order: "IVF" of
    "fertilização in vitro"."""
    size = len(name)
    return size <= INITIALISM and any(
        sorted(w[0] for w in words[i : i + size]) == sorted(name)
        for i in range(len(words) - size + 1)
    )


def apply(
    connection: Any,
    author: str,
    line: str,
    checked: Checked,
    today: date,
    source: str,
    now: Any,
    final: date | None = None,
) -> None:
    """Write what passed: in the transaction that moves memory past the line. A fact is
    private when the model says so, or when the line tells it as a secret or of a
    sensitive kind (the rules' reading of the line: a model that forgets it keeps none
    of them public); each expires when its own words say (``final``: the last match's day)."""
    secret = told_in_confidence(line)
    held = {fact.id: fact for fact in facts.current(connection, author)}
    for op in checked.ops:
        if op.op == "withdraw":
            facts.withdraw_ids(
                connection, author, [op.id] if op.id is not None else [], today, source
            )
        elif op.op == "private":
            facts.make_private(connection, author, op.id)
        else:
            same = facts.same_as(connection, author, op.text)
            if same is not None and op.op == "add":
                facts.confirm(connection, same, today)
                continue
            replaced = held.get(op.id) if op.op == "replace" and op.id is not None else None
            facts.add(
                connection, author, op.text, today, source, now,
                expiry_in(op.text, today, final), private=op.private or secret,
                replaces=replaced, as_told=True,
            )  # fmt: skip


def asks(
    asked: HeardQuestion, author: str, players: Mapping[str, str], her: str
) -> tuple[Ask, ...]:
    """The kinds of question the records answer, as the model read the line."""
    who = asked.who if asked.who in players and asked.who != her else None
    match asked.kind:
        case "my_standing":
            return (OwnStanding(),)
        case "leader":
            return (LeadingAsked(after=asked.match), LeadingAsked())
        case "table":
            return (PoolTable(),)
        case "gap":
            other = asked.who if asked.who in players else None
            if other and other != author:
                return (GapAsked(other, author),)
            return (GapAsked(author, RIVAL), OwnStanding())  # "how far ahead am I?"
        case "day_best":
            return (DayBestAsked(),)
        case "who_picked":  # the team is read off the line itself
            return (WhoPickedAsked(),)
        case "scored":
            return (ScoredOnAsked(asked.team or asked.score or ""),)
        case "rules":
            return (RulesAsked(),)
        case "pick":  # hers too: "e o teu palpite pra final?"; several: "carla, elis"
            pickers = [h for h in heard_handles(asked.who) if h in players] or [author]
            return tuple(PickAsked(picker, asked.match) for picker in pickers)
        case "match":
            return (MatchAsked(asked.match),) if asked.match else (TeamsMatchAsked(),)
        case "who_called":
            return (WhoCalledAsked(asked.team or asked.score or ""),)
        case "most_exact":
            return (MostExactAsked(),)
        case "forecast":
            return (forecast_asked(asked.team or "", asked.team or ""),)
        case "facts_about":
            named = who or author
            return (KnownAbout(named, named),)
        case "help":
            return (Help(),)
    return ()


@dataclass(frozen=True)
class Kept:
    """What her answer needs of a reading once memory applied it: the question, and
    whether a fact was only made private (nothing stored or withdrawn to tell of)."""

    question: HeardQuestion | None
    hushed: bool = False


def saved(asked: HeardQuestion | None, checked: Checked) -> str:
    """The reading as kept for her answer (JSON)."""
    hushed = any(op.op == "private" for op in checked.ops)
    return json.dumps({"question": None if asked is None else asdict(asked), "hushed": hushed})


def restored(value: str) -> Kept:
    raw = json.loads(value)
    question = raw.get("question") if isinstance(raw, dict) else None
    asked = HeardQuestion(**question) if isinstance(question, dict) else None
    return Kept(asked, bool(isinstance(raw, dict) and raw.get("hushed")))
