"""One reading of a chat line: what a player said, as a typed utterance.

A line is free chat (``Chat``), or a line to her (``@<her handle> ...``): a fact to
remember (``Remember``, judged once: kept, or why it is refused), a fact to forget
(``Forget``), or anything else (``Question``: the kinds of question it reads as, with
their slots; none, small talk). English and Portuguese alike. The fact shelf stores
what it reads and her answers answer it: both call ``read_line``, once per line, so
she answers a line as her memory took it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from game.addressing import Addressee
from memory import claims
from memory.guard import named_in
from memory.naming import others_named
from memory.person import third_person
from memory.question_kinds import Ask, asks_in, asks_of_self, plain_line
from memory.spoken_dates import expiry_in
from memory.standing import claims_standing

REMEMBER = re.compile(
    r"^(?:remember\b[\s,:]*(?:that\s+)?"
    r"|(?:lembr[ae](?:-se)?(?:\s+de)?|anota(?:\s+a[ií])?|guarda)(?:\s+(?:que|q)\s+|\s*[:,]\s*))"
    r"(?P<fact>.+)$",
    re.IGNORECASE | re.DOTALL,
)
FORGET = re.compile(
    r"^(?:forget\b[\s,:]*(?:that\s+|about\s+)?"
    r"|esque[cç][ae](?:-se)?\b[\s,:]*(?:(?:de\s+)?que\s+|d[oa]s?\s+|[oa]s?\s+)?)(?P<fact>.+)$",
    re.IGNORECASE | re.DOTALL,
)


@dataclass(frozen=True)
class Heard:
    """A fact as read from a chat line, before it is stored."""

    handle: str
    text: str
    expires_on: date | None


def told_to_remember(text: str, listener: Addressee) -> str | None:
    """The fact in ``@handle remember (that) ...`` / ``lembra que ...``, as told; None otherwise."""
    message = listener.message(text)
    found = None if message is None else REMEMBER.match(message)
    return None if found is None else found["fact"]


def told_to_forget(text: str, listener: Addressee) -> str | None:
    """What ``@handle forget (that) ...`` / ``esquece ...`` asks her to forget; None otherwise."""
    message = listener.message(text)
    found = None if message is None else FORGET.match(message)
    return None if found is None else found["fact"].strip().rstrip(".!")


@dataclass(frozen=True)
class Told:
    """A ``remember ...`` line to her, judged once: the fact to keep, or why it is refused."""

    words: str  # as the player told it, spaces folded, no final dot
    kept: Heard | None  # stored in the third person; None when refused
    others: tuple[str, ...] = ()  # other players it names: not the speaker's to tell
    about_the_game: bool = False  # a score, points or a match: the log keeps those
    standing: bool = False  # a role or standing in the pool (admin, rank, prize): the records'
    empty: bool = False  # nothing told ("remember that"): nothing to note


def read_remember(
    text: str,
    speaker: str,
    players: Mapping[str, str],
    today: date,
    listener: Addressee,
    final: date | None = None,
) -> Told | None:
    """``@<her handle> remember ...``: what it told, or ``None`` when it is no such line.

    A fact that names another player is not the speaker's to tell (``ana cheats``):
    it is refused, never stored under anyone; so is a "fact" about the game, and one
    that claims a role or a standing in the pool (``I am the admin``): she would
    repeat it to anyone who asks, in the pool's name.
    """
    told = told_to_remember(text, listener)
    if told is None:
        return None
    fact = " ".join(told.split()).rstrip(".")
    empty = EMPTY_FACT.fullmatch(fact) is not None
    others = tuple(others_named(fact, speaker, players, listener.handle))
    game = about_the_game(fact)
    standing = claims_standing(fact)
    if empty or others or game or standing:
        return Told(fact, None, others, game, standing, empty)
    # Stored in the third person ("ana speaks Japanese"); the line itself is the source.
    return Told(fact, Heard(speaker, third_person(fact, speaker), expiry_in(fact, today, final)))


# A "fact" that tells nothing: "remember that", "remember: ...", "lembra que isso".
EMPTY_FACT = re.compile(r"(?:(?:that|this|it|so|que|isso|isto)\b)?[\W_]*", re.IGNORECASE)
MATCH_NAMED = re.compile(r"\b(?:match|game|jogo|partida)\s*#?\d{1,3}\b|#\d{1,3}\b", re.I)


def about_the_game(fact: str) -> bool:
    """A "fact" that states a score, points or a match: the log keeps those, not chat."""
    return any(p.search(fact) for p in (claims.SCORE, claims.POINTS, MATCH_NAMED))


@dataclass(frozen=True)
class Chat:
    """A line not to her: chat among players (a model may find facts in it)."""

    text: str


@dataclass(frozen=True)
class Remember:
    """``@<her handle> remember ...``, ``lembra que ...``: a fact, as judged."""

    told: Told


@dataclass(frozen=True)
class Forget:
    """``@<her handle> forget ...``, ``esquece ...``: what the player takes back."""

    what: str


@dataclass(frozen=True)
class Question:
    """Anything else said to her: ``words`` (what the line says to her), the kinds of
    question it reads as (``asks``, in the order they are tried), the players it names
    (her excluded), and whether it asks after the asker ("what's my ...?")."""

    words: str
    asks: tuple[Ask, ...]
    named: tuple[str, ...]
    of_self: bool

    @property
    def plain(self) -> str:
        return plain_line(self.words)

    @property
    def small_talk(self) -> bool:
        """No known kind of question: only the asker's facts may answer it."""
        return not self.asks


Utterance = Chat | Remember | Forget | Question


def read_line(
    text: str,
    speaker: str,
    players: Mapping[str, str],
    listener: Addressee,
    today: date,
    final: date | None = None,
) -> Utterance:
    """What ``speaker``'s chat line ``text`` says, and to whom. ``players``: every
    handle -> display name; ``today``: the day it was said, in the pool's zone;
    ``final``: the day of the last match, for "until the final"."""
    message = listener.message(text)
    if message is None:
        return Chat(text)
    told = read_remember(text, speaker, players, today, listener, final)
    if told is not None:
        return Remember(told)
    forget = told_to_forget(text, listener)
    if forget is not None:
        return Forget(forget)
    words = message.strip()
    named = tuple(h for h in named_in(words, players) if h != listener.handle)
    asks = asks_in(words, speaker, players, listener.handle, today)
    return Question(words, asks, named, asks_of_self(words))
