"""The output contract: what any text must be before the pool sees it or memory keeps it.

The model proposes, the code disposes. Whatever wrote a line (a real model, a
scripted one, or the offline voice with a template bug), ``Contract.check``
holds it to one contract per kind of text, in code, and names the first rule
it breaks:

- shape: at most ``SHAPES[kind]`` characters and sentences, one paragraph, no
  markup or tags, no degenerate repetition ("Sydney Sydney Sydney"), in the
  pool's language;
- no echo of the prompt: none of its scaffolding (``prompts/contract.txt``) and
  no run of ``ECHO_RUN`` words copied from an instruction template that speaks to the
  model ("your", "you"), and none of ``ECHO_LONG``;
- grounded: every capitalised name is a player, a team, a scorer (of this
  tournament, or a surname of the World Cups the package ships), a word of
  this call's context, of a player's public fact or a name a player said in the chat; words in quotes are words the context holds; a team of
  the team book outside this tournament is refused by name; every ``#N`` is a match of the pool; every year is one the
  context gave; every other number is one the context gave (its prompt, the
  pool's records, or the request's own values) or a difference of two the
  prompt gave;
- true: the claims ``memory.claims`` reads (scores, points, leaders, results
  in words) agree with the log.

Examples of syntax ("bet N 2-1", "palpite 7 1-0") are instructions to the
player, not claims, and are set aside before the checks.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cache, lru_cache
from importlib import resources
from operator import attrgetter
from statistics import median
from typing import Any

from game.cup_scorers import scorers_of
from game.places import places_in, spellings_of
from game.pool import Pool
from game.teams import TeamBook
from game.text import folds_as_lower, key_form
from memory.claims import (
    MATCH_MINUTES,
    NUMBER_WORDS,
    QUOTED,
    SCORE,
    Claims,
    Records,
    answered,
    number_value,
    unstopped,
)
from memory.declared import Declared, DeclaredCheck, vouched
from prompts import load, sections

# Per kind of text (a call's task): characters, then sentences of three words or more
# (her "Suspicious. Very suspicious." is a beat, not two sentences). A remark and an
# answer are asked for in one or two sentences.
SHAPES: dict[str, tuple[int, int]] = {
    # A line, a storyline and an aside: her offline voice at its longest is six short ones.
    "remark": (280, 6),
    "answer": (280, 3),
    "wrap_up": (800, 8),  # the last word of a tournament: champion, podium, the story
    "diary_entry": (480, 6),
    "diary_fusion": (1200, 16),
}
ADVERB = ("ly", "mente")
LIST_JOINS = frozenset({"and", "e", "y", "or", "ou"})  # "diego & elisa": one item of a list
LIST_ITEM = 4  # words of a list's item at most: names, not clauses
# A common word (``common``): wordfreq's Zipf scale, 3.0 is once in a million words; a
# name is about as frequent in every language, a word is well above its median elsewhere.
# Measured on the 368 scorers' name parts of 2018 and 2022: 30 pass as common English
# words ("Hazard", "Blind", "Stones"), 68 as Portuguese ones ("Bruno", "Costa"), at a
# sentence's start only; of her voice's opening words none is refused.
COMMON_ZIPF = 3.0
POOL_LANGUAGES = ("en", "pt")  # what the pool's people chat in, whatever hers
CHEER_WORDS = 3  # a cheer's words at most: "Força Portugal!", "Vamos, Brasil!"
COMMON_MARGIN = 0.45
ELSEWHERE = ("en", "pt", "es", "fr", "de", "it", "nl", "pl", "sv", "tr", "id", "fi")
# Where a sentence opens, so its first word is capitalised anyway: after a sentence's end,
# a colon or semicolon, a dash, a parenthesis or an opening quote, or an emoji that ends
# one ("... out of the group chat 😉 Besides, you're 4th").
OPENING = re.compile(
    r"(?<=[.!?:;\u2026\]])\s+|\s+[-\u2013\u2014]\s+|\(\s*|(?:^|\s)[\"\u201c\u2018\u00ab]\s*"
    # (a subdivision's flag, 🏴󠁧󠁢󠁥󠁮󠁧󠁿, ends in tag characters)
    r"|(?<=[\U0001F1E6-\U0001F1FF\U0001F300-\U0001FAFF\u2600-\u27BF\U000E0020-\U000E007F])"
    r"\ufe0f?\s+"
)
ECHO_RUN = 6  # words in a row copied from an instruction: an echo when it speaks to the model,
ECHO_LONG = 10  # and whatever it says when it is this long
# Words an instruction speaks to the model with (her lines speak to players in the pool's
# own words, seldom six words of a template's).
ADDRESSED = frozenset({"you", "your", "yours", "yourself", "você", "seu", "sua", "seus", "suas"})
SYNTAX = re.compile(
    r"\b(?:bet|palpite|aposta)\s+(?:N|#?\d{1,4})\s+\d{1,2}\s?-\s?\d{1,2}\b", re.IGNORECASE
)
WORD = re.compile(r"[^\W\d_][\w'\u2019.-]*[^\W_]|[^\W\d_]")
MARKUP = re.compile(
    r"<\s*/?\s*[A-Za-z!][^>]*>|\*\*|__|`|^\s*#{1,6}\s|^\s*[-*]\s|\]\(|https?://|\{|\}|\$\w",
    re.MULTILINE,
)
MATCH_REF = re.compile(r"#(\d+)")
CLOCK = re.compile(r"\b\d{1,2}[:h]\d{2}\b")
YEAR = re.compile(r"(?<![\d#])(1[89]\d{2}|20\d{2})(?!\d)")
NUMBER = re.compile(r"(?<![\w#.,:/])(\d+)(?:[.,]\d+)?(?![\d:/])")
# A number in words is a number ("all five of us", "dois pontos"), but "one" is a pronoun
# as often ("the one before", "no one", "one of you") and "um"/"uma" Portuguese's article:
# those are left out, and 1 is rarely a claim of its own.
NOT_COUNTED = frozenset({"one", "um", "uma"})
NUMBER_WORD = re.compile(
    r"(?<![\w'\u2019-])(?:"
    + "|".join(sorted((w for w in NUMBER_WORDS if w not in NOT_COUNTED), key=len, reverse=True))
    + r")(?![\w'\u2019-])",
    re.IGNORECASE,
)
# What only a verb takes after it, opening a sentence: an object no subject is ("Savour it")
IMPERATIVE_OBJECT = re.compile(
    r"\s+(?:it|them|me|us|him)\b(?!['\u2019]|\s+(?:is|was|will|has|does|did|goes|went)\b)"
)
SENTENCE_END = re.compile(r"[.!?]+(?:\s+|$)")
# Everything an instruction template says; the voice files are her lines, not instructions,
# and the records and moments she is handed (notes, moments, lines) are hers to repeat.
NOT_INSTRUCTIONS = (
    "voice_en",
    "voice_pt",
    "contract",
    "languages",
    "person",
    "notes",
    "moments",
    "lines",
)


@dataclass(frozen=True)
class Breach:
    """The first rule a text breaks: ``rule`` counts it, ``detail`` says where."""

    rule: str
    detail: str

    def __str__(self) -> str:
        return f"{self.rule} {self.detail}"


@dataclass(frozen=True)
class Known:
    """Words in any of a few sets, not copied into one: the pool's thousands, kept per
    moment, and the few a call adds (copied, they were most of a call's grounds)."""

    layers: tuple[Container[str], ...]

    def __contains__(self, word: object) -> bool:
        return any(word in layer for layer in self.layers)


@dataclass(frozen=True)
class Spelled:
    """The names players said, by their first ``SPELLED`` letters: a place said in one
    language is said back in hers ("Lisboa", "Lisbon"; "Sevilha", "Seville")."""

    starts: frozenset[str]

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and len(word) >= SPELLED and word[:SPELLED] in self.starts


SPELLED = 5


@dataclass(frozen=True)
class Differences:
    """The differences of two of a call's numbers ("5 clear": 12 and 7), asked one at a
    time rather than all worked out: most lines say no number the call did not give,
    and a season's prompt holds thousands."""

    numbers: frozenset[int]

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, int) or value < 0:
            return False
        return any(n + value in self.numbers for n in self.numbers)


@dataclass(frozen=True)
class Grounds:
    """What one call gave: its words and numbers, on top of the pool's own, read once."""

    words: Known  # lowercased: the context's, the pool's names, the common ones
    numbers: frozenset[int]  # every number the context or the records gave
    differences: Differences  # of two numbers its prompt gave
    text: str  # the context, lowercased: times and quoted spans are looked up in it
    records: Records  # the pool's, for the claims and its matches
    asked: frozenset[str] = frozenset()  # teams the call named (the book's names): groundable
    # The pool's teams and the call's, normalized: ``_teams`` refuses the book's others
    # (None: read from the records and ``asked``).
    playing: frozenset[str] | None = None


def limits(kind: str) -> tuple[int, int]:
    """The characters and sentences a ``kind`` of text may have (a remark's, if unknown)."""
    return SHAPES.get(kind, SHAPES["remark"])


@dataclass(frozen=True)
class _Said:
    """What one piece of a call's context gives: its words, its numbers, the teams it names."""

    words: frozenset[str]
    numbers: frozenset[int]
    teams: frozenset[str]


@dataclass(frozen=True)
class _PoolNames:
    """What the pool gives every call at one state of it: its records and its names' words."""

    records: Records
    names: frozenset[str]  # its players', its matches', hers
    words: frozenset[str]  # their words, with the words any call may capitalise
    teams: frozenset[str]  # the teams of its matches
    numbers: frozenset[int]
    playing: frozenset[str]  # those teams, normalized


SYSTEMS_KEPT = 8  # system blocks read for their words: one per kind of call, each stable


class Contract:
    def __init__(
        self,
        pool: Pool,
        language: str = "en",
        names: tuple[str, ...] = (),
        told: Callable[[], Iterable[str]] = tuple,
        heard: Callable[[], frozenset[str]] = frozenset,
    ) -> None:
        self.pool = pool
        # What players told her and may be said back (their public facts): "Alvalade",
        # the club they support, are known names though no call's context holds them.
        self.told = told
        # ... and the names and years they said in the chat, lowercased ("o Livaković é um
        # monstro", "a camisa de 2002"): a keeper, a city, a friend a player named is no
        # name she made up
        self.heard = heard
        self.language = language
        self.claims = Claims(pool, names[0] if names else "")  # "I" in her lines is her handle
        self.declared_check = DeclaredCheck(
            pool, names[0] if names else ""
        )  # what a model declares
        self.own_names = names  # hers: her handle and her display name
        # Built once per moment, not once per text: the pool's part per state of the pool
        # (the records' own mark), a system block's per text (it is the same call after
        # call), a whole call's per state and context (a retry, another attempt).
        self._pool: _PoolNames | None = None
        self._systems: dict[str, _Said] = {}
        self._calls: dict[tuple[str, str, tuple[str, ...], frozenset[str]], Grounds] = {}

    # -- grounds ------------------------------------------------------------------

    def grounds(self, system: str, prompt: str, request: object = None) -> Grounds:
        """The call's context (``system`` and ``prompt``) and its typed request, with the
        pool's names: players, this tournament's teams (every spelling the team book
        knows), scorers, stages and venues, and her own names."""
        values = tuple(_values(request))
        pool = self._pool_names()
        told_texts = tuple(self.told())  # what players told her may change between calls
        heard = self.heard()
        key = (system, prompt, values + told_texts, heard)
        known = self._calls.get(key)
        if known is not None and known.records is pool.records:
            return known
        if self._calls and next(iter(self._calls.values())).records is not pool.records:
            self._calls.clear()  # the pool moved on: no call of before is asked again
        said = self._system(system)
        # Each distinct value once: a diary fusion's stories say each player and score
        # hundreds of times, and what is said is the same read once.
        rest = _said("\n".join([prompt, *dict.fromkeys(values)]))
        book = TeamBook.standard()
        # A team the call names, in any spelling ("Brasil"), may be named back in any
        # ("Sorry, bruno, no records on Brazil yet"); the pool's teams' people too.
        asked = said.teams | rest.teams
        others = asked - pool.teams
        # ... and the people of a team players spoke of ("a certain Welsh fan" of one who
        # told her "wales already out"), though no call names it
        spoken_of = _said("\n".join([*told_texts, " ".join(sorted(heard))])).teams
        theirs = frozenset(_words([*book.spellings(others), *book.people_of(others | spoken_of)]))
        named = frozenset(map(_team_key, asked))
        told = frozenset(_words(list(told_texts)))
        spelled = Spelled(frozenset(w[:SPELLED] for w in heard if len(w) >= SPELLED))
        # a city said one way may be named another ("Lisbon" of a player's "lisboa")
        places = spellings_of(told | heard | rest.words)
        found = Grounds(
            Known((pool.words, said.words, rest.words, theirs, told, heard, spelled, places)),
            pool.numbers | said.numbers | rest.numbers,
            Differences(rest.numbers),
            # (a club a player told her they support is theirs to be teased with)
            "\n".join([system, prompt, *values, *told_texts]).lower(),
            pool.records,
            named,
            pool.playing | named,
        )
        self._calls[key] = found
        return found

    def _pool_names(self) -> _PoolNames:
        records = self.claims.records()  # the same object while the pool's state stands
        if self._pool is not None and self._pool.records is records:
            return self._pool
        names = frozenset(
            {*self.own_names, *records.names, *records.players}
            | {display_name or "" for display_name in records.players.values()}
        )
        playing = frozenset().union(*records.pairs)
        before = self._pool
        if before is not None and before.teams == playing and before.names <= names:
            # A scorer or a player more (most moments that bring a name): their words
            # added to the words before, not every name's gathered again.
            words = before.words.union(*map(_name_words, names - before.names))
        else:
            words = _pool_words(names, playing)
        self._pool = _PoolNames(
            records,
            names,
            words,
            playing,
            frozenset(records.numbers()),
            frozenset(map(_team_key, playing)),
        )
        return self._pool

    def _system(self, system: str) -> _Said:
        known = self._systems.get(system)
        if known is None:
            if len(self._systems) >= SYSTEMS_KEPT:
                self._systems.clear()
            known = self._systems[system] = _said(system)
        return known

    # -- the check ----------------------------------------------------------------

    def check(
        self,
        text: str,
        kind: str,
        grounds: Grounds,
        match: int | None = None,
        declared: tuple[Declared, ...] = (),
    ) -> Breach | None:
        """The first rule ``text`` breaks as a ``kind`` of text, or None when it keeps them
        all; ``declared``: the claims its writer says it makes, each checked exactly."""
        return next(self._breaches(text, kind, grounds, match, declared), None)

    def breaches(
        self,
        text: str,
        kind: str,
        grounds: Grounds,
        match: int | None = None,
        declared: tuple[Declared, ...] = (),
    ) -> list[Breach]:
        """Every rule ``text`` breaks, one breach each: what a corpus of bad texts is kept by."""
        return list(self._breaches(text, kind, grounds, match, declared))

    def _breaches(
        self,
        text: str,
        kind: str,
        grounds: Grounds,
        match: int | None,
        declared: tuple[Declared, ...] = (),
    ) -> Iterator[Breach]:
        # a question she suggests asking is her own words, read as hers ('try something
        # like "who leads?"'), not a quote somebody must have said
        said = _suggested_unquoted(SYNTAX.sub(" ", text))
        # A true declared claim vouches for its figure: whose it is, the grammar need not
        # guess; a false one is the line's first fault.
        # an answer may tell the one it answers their own pick; a remark tells the room
        answering = answered(said, grounds.records) if kind == "answer" else ""
        false = (
            self.declared_check.falsehood(declared, grounds.records, answering)
            if declared
            else None
        )
        if false is not None:
            yield Breach("declared", false)
        sure = vouched(declared)
        checks: tuple[Callable[[], Breach | None], ...] = (
            lambda: _shape(text, kind),
            lambda: _markup(text),
            # a player's words quoted are theirs ("2-1 2-1 2-1 segura"), and a quote is
            # checked as one (``_quotes``): no loop of hers
            lambda: _repetition(QUOTED.sub(" ", said)),
            lambda: self._language(said, grounds),
            lambda: _echo(said),
            lambda: _untold(said),
            lambda: _teams(said, grounds),
            lambda: _names(said, grounds, self.language),
            lambda: _quotes(said, grounds),
            lambda: _numbers(said, grounds, sure),
            lambda: _claims(self.claims, said, match, grounds, sure),
        )
        for rule in checks:  # in order, each run only when asked for: the first costs least
            found = rule()
            if found is not None:
                yield found

    def _language(self, text: str, grounds: Grounds) -> Breach | None:
        foreign = sum(1 for c in text if c.isalpha() and not _latin(c))
        if foreign > len(text) // 5:
            return Breach("language", "not in the Latin script of the pool's language")
        words = _own_words(QUOTED.sub(" ", text), grounds)
        ours, theirs = _function_words_of(self.language)
        mine, other = sum(w in ours for w in words), sum(w in theirs for w in words)
        if other >= 3 and other > mine:
            return Breach("language", f"not in the pool's language ({self.language})")
        return None


SCARE_WORDS = 3  # words a label of her own in quotes may have


def _teams(text: str, grounds: Grounds) -> Breach | None:
    """A national team the book knows that plays no match of this pool."""
    playing = grounds.playing
    if playing is None:
        playing = grounds.asked.union(
            _team_key(t) for m in grounds.records.matches.values() for t in (m.team1, m.team2)
        )
    # A spelling's pattern is searched only when the text has its first word: hundreds
    # of spellings, and a line names a team or two. Not where a pattern's case folding
    # meets letters that lower() does not ("İRAN", a long s): all then.
    odd = not folds_as_lower(text)
    tokens = set(_TOKEN.findall(text.lower()))
    for spelling, lowered, team, first, pattern in _written():
        if team in playing or (first and not odd and first not in tokens):
            continue
        # A team is named with a capital: "uma vitória" and "all of us" name no club, no USA.
        # The text is short and the context long: it is searched first, the context after.
        found = pattern.search(text)
        if found is not None and found[0][0].isupper() and lowered not in grounds.text:
            if any(place.startswith("city:") for place in places_in(found[0])):
                continue  # a club named as its city is: "the São Paulo bar crowd"
            return Breach("team", f"{spelling}: not in this tournament")
    return None


@cache
def _written() -> tuple[tuple[str, str, str, str, re.Pattern[str]], ...]:
    """The book's spellings, in its order: each lowercased, its team normalized, its
    first word lowercased (empty when it opens with no word), its pattern."""
    return tuple(
        (
            spelling,
            spelling.lower(),
            key_form(team),
            _first_word(spelling),
            re.compile(rf"(?<!\w){re.escape(spelling)}(?!\w)", re.IGNORECASE),
        )
        for spelling, team in TeamBook.standard().written
    )


def _first_word(spelling: str) -> str:
    found = _TOKEN.match(spelling.lower())
    return found[0] if found else ""


_TOKEN = re.compile(r"\w+")


# A question in quotes after a word suggesting it: "ask me", "try", "e.g."; or "like",
# "tipo" in a sentence that asks to ask ("try one pick, like ..."), for "bia was like
# "..."" is speech
SUGGESTED = re.compile(
    r"(?P<lead>\b(?:(?P<like>like|such as|tipo|say)|e\.g\.|for example|for instance|try"
    r"|ask(?:ing)?(?: me)?|por exemplo|experimenta|pergunta-me|me pergunta)\s*[:,]?\s*)"
    r"(?:\"(?P<asked>[^\"]*\?)\"|\u201c(?P<curly>[^\u201d]*\?)\u201d)",
    re.IGNORECASE,
)
ASKS_TO_ASK = re.compile(r"\b(?:ask(?:ing)?|try|pergunt\w*|experiment\w*)\b[^.!?]*$", re.I)


def _suggested_unquoted(text: str) -> str:
    """``text`` with the quote marks of a question she suggests asking taken off: her
    own words, read and checked as hers."""

    def unquoted(found: re.Match[str]) -> str:
        asks = not found["like"] or ASKS_TO_ASK.search(text, 0, found.start()) is not None
        return found["lead"] + (found["asked"] or found["curly"]) if asks else found[0]

    return SUGGESTED.sub(unquoted, text)


def _quotes(text: str, grounds: Grounds) -> Breach | None:
    """Words in quotes are a player's, and the claim check leaves them to their author: so
    they must be words somebody said, found in the call's context."""
    if QUOTED.fullmatch(text.strip()):
        return Breach("quote", "the whole line is a quote: hers are her own words")
    for found in QUOTED.finditer(text):
        said = found[0].strip('"\u201c\u201d')
        quoted = " ".join(said.lower().split())
        if _scare_quotes(said) or len(WORD.findall(quoted)) < 2:
            continue
        # (a quote ends where it is cut: "One goal might be all it takes," of "... takes.";
        # and each part of one cut short inside is said: "inside out... he looked like a cone")
        parts = [p.strip(".!?,;:… ") for p in ELIDED.split(quoted)]
        if any(p and p not in grounds.text for p in parts):
            return Breach("quote", f"{found[0][:60]}: nobody said it")
    return None


ELIDED = re.compile(r"\s*(?:\.\.\.|…|\[\.\.\.\]|\(\.\.\.\))\s*")


def _scare_quotes(said: str) -> bool:
    """Her own label in quotes ("from 'tight' to 'in trouble'"): a few lowercase words,
    no figure and no name, so no claim the claim check would have to read."""
    words = WORD.findall(said)
    return len(words) <= SCARE_WORDS and said == said.lower() and not re.search(r"\d", said)


def _numbers(text: str, grounds: Grounds, sure: frozenset[int] = frozenset()) -> Breach | None:
    for found in MATCH_REF.finditer(text):
        if int(found[1]) not in grounds.records.matches:
            return Breach("match", f"#{found[1]}: no such match in the pool")
    for found in CLOCK.finditer(text):
        # (or one a player said in the chat: "dormir até 7h40")
        if not _clock_given(found[0], grounds.text) and found[0].replace("h", ":") not in (
            grounds.words
        ):
            return Breach("number", f"{found[0]}: a time the context did not give")
    rest = CLOCK.sub(" ", MATCH_REF.sub(" ", SCORE.sub(" ", text)))
    # a year after the pool's last match ("same pool in 2026") tells no record of it
    last = max((m.kickoff.year for m in grounds.records.matches.values()), default=0)
    for found in YEAR.finditer(rest):
        # (a year a player said in the chat is a word of theirs: "a camisa de 2002")
        if (
            int(found[1]) not in grounds.numbers
            and int(found[1]) <= last
            and (found[1] not in grounds.words)
        ):
            return Breach("year", f"{found[1]}: not this tournament's")
    unyeared = YEAR.sub(" ", rest)
    for found in NUMBER.finditer(unyeared):
        value = int(found[1])
        if value in sure or _given(value, grounds):
            continue
        # what is left of a match from a minute the call gave ("the next 73 minutes" at 17')
        if _left(value, grounds) and _minutes_left(unyeared, found.start(1), found.end(1)):
            continue
        # a round figure said as one ("50-odd minutes" of 52, "nearly 70%" of 69)
        if _rounded(value, unyeared, found.start(1), found.end(1), grounds):
            continue
        return Breach("number", f"{value}: not a number the context gave")
    for found in NUMBER_WORD.finditer(rest):
        value = number_value(found[0]) or 0
        if value in sure or _given(value, grounds):
            continue
        if NEAR_BEFORE.search(rest, 0, found.start()) and _near_given(value, grounds):
            continue  # "nearly seventy" of 69, as "nearly 70"
        return Breach("number", f"{found[0]} ({value}): not a number the context gave")
    return None


# Minutes still to play, said as such: "the next 73 minutes", "73 minutes left", "faltam 73
# minutos", "73 minutos pela frente", "85 long minutes to hold it"
MINUTES_LEFT = re.compile(
    r"(?:\b(?:next|another|remaining|faltam|restam|mais)\s+)\d+\s+(?:minutes|mins|minutos)\b"
    r"|\d+\s+(?:more\s+|[^\W\d_]+\s+)?(?:minutes|mins|minutos)\s+(?:of\s+\w+\s+|de\s+\w+\s+)?(?:left|to \w+"
    r"|remaining|restantes|pela frente|para \w+|pra \w+)\b",
    re.IGNORECASE,
)
FULL_TIME = timedelta(hours=2)  # a kick-off and its match's end, as anyone reckons it


def _minutes_left(text: str, start: int, end: int) -> bool:
    """Whether the number at ``start``-``end`` is said as minutes still to play."""
    return any(
        m.start() <= start and end <= m.end()
        for m in MINUTES_LEFT.finditer(text, max(0, start - 12), end + 30)
    )


def _clock_given(said: str, context: str) -> bool:
    """A time the call gave, or two hours after one: "done by 17:00" of a 15:00 kick-off."""
    if said.replace("h", ":") in context:
        return True
    hours, minutes = map(int, re.split(r"[:h]", said))
    ended = (datetime(2000, 1, 1, hours % 24, minutes % 60) - FULL_TIME).strftime("%H:%M")
    return ended in context or ended.lstrip("0") in context


# A figure said as a round one: "50-odd", "50-plus", "50 e poucos" (up to nine over it);
# "nearly 70", "quase 70", "about 70", "uns 70" (within ``ROUNDED`` of it)
ODD_AFTER = re.compile(r"(?:-| )?(?:odd\b|plus\b|\+|e poucos\b|e tal\b)", re.IGNORECASE)
NEAR_BEFORE = re.compile(
    r"\b(?:nearly|almost|about|around|roughly|some|quase|cerca de|perto de|uns|umas|mais ou menos)"
    r"\s+$",
    re.IGNORECASE,
)
ROUNDED = 5


def _given(value: int, grounds: Grounds) -> bool:
    return value in grounds.numbers or value in grounds.differences


def _left(value: int, grounds: Grounds) -> bool:
    """Whether ``value`` is what is left of a match from a minute the call gave ("52
    minutes to find an answer" at 38')."""
    return any(end - value in grounds.numbers for end in MATCH_MINUTES if end > value)


def _rounded(value: int, text: str, start: int, end: int, grounds: Grounds) -> bool:
    """Whether the round figure at ``start``-``end`` stands for a number the call gave."""
    if ODD_AFTER.match(text, end):
        return any(_given(v, grounds) or _left(v, grounds) for v in range(value + 1, value + 10))
    return NEAR_BEFORE.search(text, 0, start) is not None and _near_given(value, grounds)


def _near_given(value: int, grounds: Grounds) -> bool:
    return any(_given(v, grounds) for v in range(value - ROUNDED, value + ROUNDED + 1))


def _said(text: str) -> _Said:
    # Line by line, for a context is mostly the lines of the call before (the table, the
    # schedule, the diary), and no word, number or team's name runs across a line's end.
    # ``map``, not generators: a long context is hundreds of lines, each a step of each.
    lines = list(map(_line, text.split("\n")))
    return _Said(
        frozenset().union(*map(_WORDS_OF, lines)),
        frozenset().union(*map(_NUMBERS_OF, lines)),
        frozenset().union(*map(_TEAMS_OF, lines)),
    )


_WORDS_OF, _NUMBERS_OF, _TEAMS_OF = attrgetter("words"), attrgetter("numbers"), attrgetter("teams")


@lru_cache(maxsize=16384)
def _line(text: str) -> _Said:
    return _Said(
        frozenset(_words([text])),
        frozenset(_figures(text)),
        frozenset(TeamBook.standard().named_in(text)),
    )


@lru_cache(maxsize=4096)
def _name_words(name: str) -> frozenset[str]:
    # A pool's names are the same from moment to moment: a scorer is added, none changes.
    return frozenset(_words([name]))


@lru_cache(maxsize=8)
def _pool_words(names: frozenset[str], teams: frozenset[str]) -> frozenset[str]:
    """Every word of the pool's ``names`` and ``teams``: the same from moment to moment
    until a player joins or a scorer, a stage or a venue is new."""
    return _teams_words(teams).union(_capitalised(), *map(_name_words, names))


@lru_cache(maxsize=64)
def _teams_words(teams: frozenset[str]) -> frozenset[str]:
    """Every word the team book spells ``teams`` and their people with, and the surnames
    of their scorers in the World Cups the package ships."""
    book = TeamBook.standard()
    return frozenset(_words([*book.spellings(teams), *book.people_of(teams), *scorers_of(teams)]))


def _words(texts: list[str]) -> set[str]:
    """Every word of ``texts``, lowercased, and the parts of a compound ("jean-pierre")."""
    words = {w.lower() for text in texts for w in WORD.findall(text)}
    return words | {part for w in list(words) for part in re.split(r"[-.'\u2019]", w) if part}


def _figures(text: str) -> set[int]:
    """The numbers ``text`` gives, in figures or in words ("5", "five", "cinco")."""
    words = {number_value(found[0]) for found in NUMBER_WORD.finditer(text)}
    return {int(n) for n in NUMBER.findall(text)} | {n for n in words if n is not None}


def _claims(
    claims: Claims,
    text: str,
    match: int | None,
    grounds: Grounds,
    sure: frozenset[int] = frozenset(),
) -> Breach | None:
    # A player's words in quotes are theirs; her own label in quotes ('Serbia "won it"')
    # is her claim like any other, so the claim check reads it without its quote marks.
    text = QUOTED.sub(lambda q: q[0][1:-1] if _scare_quotes(q[0][1:-1]) else q[0], text)
    reason = claims.check(text, match, grounds.records, sure)
    if reason is None:
        return None
    rule, _, detail = reason.partition(" ")
    return Breach(rule, detail)


def _shape(text: str, kind: str) -> Breach | None:
    characters, most = limits(kind)
    if len(text) > characters:
        return Breach("length", f"{len(text)} characters, at most {characters} for a {kind}")
    if "\n" in text.strip():
        return Breach("paragraphs", "more than one paragraph")
    # A sentence has a verb somewhere in three words; "Suspicious." is a beat, not one.
    # A player's words quoted are one thing she says, their full stops theirs ('diego, "3-3.
    # i cant breathe."').
    count = len([s for s in SENTENCE_END.split(unstopped(text)) if len(WORD.findall(s)) >= 3])
    if count > most:
        return Breach("sentences", f"{count} sentences, at most {most} for a {kind}")
    if count == 0:  # "2-1, 5 pts.": numbers and a word or two say nothing to anyone
        return Breach("sentences", "no sentence: nothing said")
    return None


def _markup(text: str) -> Breach | None:
    found = MARKUP.search(text)
    return None if found is None else Breach("markup", f"{found[0].strip()!r}")


# "split 2-2-2", "two-two-two": a match's picks
_SPLIT_PART = r"(?:\d{1,2}|one|two|three|four|five|six|um|uma|dois|duas|tr[eê]s|quatro|cinco|seis)"
SPLIT = re.compile(rf"\b{_SPLIT_PART}(?:[-\u2013/]{_SPLIT_PART}){{2,}}\b")


def _repetition(text: str) -> Breach | None:
    """A word or a pair of words looping, or a phrase said again and again: a model stuck.
    A list is not a loop: "betania, diego & elisa, diego, diego & elisa" names who led, in
    turn, so its items are read as items (the same one three times running is a loop) and
    its words are left out of the word counts; so is a split of picks ("2-2-2")."""
    items = _items(SPLIT.sub(" ", text.lower()))
    pieces = [item for item, _mark in items]
    for first, second, third in zip(pieces, pieces[1:], pieces[2:], strict=False):
        if first and first == second == third:
            return Breach("repetition", f"{' '.join(first)!r} three times in a row")
    listed = _listed_items(items)
    words = [w for index, (item, _) in enumerate(items) if index not in listed for w in item]
    for said in pieces:
        for a, b, c in zip(said, said[1:], said[2:], strict=False):
            if a == b == c:
                return Breach("repetition", f"{a!r} three times in a row")
        for i in range(len(said) - 5):
            if said[i : i + 2] == said[i + 2 : i + 4] == said[i + 4 : i + 6]:
                return Breach("repetition", f"{' '.join(said[i : i + 2])!r} three times in a row")
    # A diary comes back to a phrase ("the sharpest eyes were", once a stage); a model in
    # a loop says a whole clause again and again, until it is most of what it says.
    runs: dict[tuple[str, ...], int] = {}
    for i in range(len(words) - 4):
        run = tuple(words[i : i + 5])
        runs[run] = runs.get(run, 0) + 1
        if runs[run] >= 3 and runs[run] * len(run) >= 0.3 * len(words):
            return Breach("repetition", f"{' '.join(run)!r} {runs[run]} times")
    if len(words) >= 15 and len(set(words)) < 0.4 * len(words):
        return Breach("repetition", f"{len(set(words))} distinct words of {len(words)}")
    return None


def _items(text: str) -> list[tuple[tuple[str, ...], str]]:
    """``text``'s words between commas and sentence ends (numbers too: "28 Jun, 30 Jun" is
    no loop), each piece with the mark that ends it."""
    pieces = re.split(r"\s*([,;]|[.!?:]+(?=\s|$)|\s[-\u2013\u2014]\s)\s*", text)
    return [
        (tuple(re.findall(r"\w+", piece)), mark)
        for piece, mark in zip(pieces[::2], [*pieces[1::2], ""], strict=True)
    ]


def _listed_items(items: list[tuple[tuple[str, ...], str]]) -> set[int]:
    """The indexes of items in a list: three or more short ones in a row, comma-separated
    ("diego & elisa" is one item: who shared the lead)."""
    listed: set[int] = set()
    run: list[int] = []
    for index, (item, mark) in enumerate(items):
        if 0 < len([w for w in item if w not in LIST_JOINS]) <= LIST_ITEM:
            run.append(index)
            if mark in (",", ";"):
                continue
        if len(run) >= 3:
            listed |= set(run)
        run = []
    return listed


def _untold(text: str) -> Breach | None:
    """What a player never told her is not hers to say: her notes hold what her hearing
    kept, and a line it missed was told all the same."""
    found = _untold_said().search(QUOTED.sub(" ", text).lower())
    return (
        None if found is None else Breach("untold", f"{found[0]!r}: her notes, not what was told")
    )


@cache
def _untold_said() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{'|'.join(map(re.escape, _listed('untold')))})\b")


def _echo(text: str) -> Breach | None:
    lowered = text.lower()
    for pattern in _scaffolding():
        found = pattern.search(lowered)
        if found is not None:
            return Breach("echo", f"the prompt's own {found[0]!r}")
    words = [w.lower() for w in WORD.findall(text)]
    runs = _instruction_runs()
    for i in range(len(words) - ECHO_RUN + 1):
        if tuple(words[i : i + ECHO_RUN]) not in runs:
            continue
        end = i + 1  # the copy goes on while each next run of words is the template's too
        while end + ECHO_RUN <= len(words) and tuple(words[end : end + ECHO_RUN]) in runs:
            end += 1
        copied = words[i : end - 1 + ECHO_RUN]
        # "the pick worth the most points" is how anyone says it; "say it again in your
        # own words" is the instruction talking to the model, and ten words are a copy.
        if len(copied) >= ECHO_LONG or ADDRESSED & set(copied):
            return Breach("echo", f"copies the instructions: {' '.join(copied[:ECHO_RUN])!r}")
    return None


def _names(text: str, grounds: Grounds, language: str) -> Breach | None:
    """Every capitalised word names something the pool or the call gave, or is common."""
    for sentence in OPENING.split(text):
        for index, found in enumerate(WORD.finditer(sentence)):
            word = re.sub(r"['\u2019]s$", "", found[0]).rstrip(".")
            if not word or not word[0].isupper():
                continue
            # a word shouted in capitals ("YOU DID, carla!") is capitalised anyway, as
            # a sentence's first is: a common word may be one
            lowered, opening = word.lower(), index == 0 or (word.isupper() and len(word) > 1)
            cheer = opening and len(sentence.split()) <= CHEER_WORDS and "!" in sentence
            if opening and lowered.endswith(ADVERB):  # "Truly", "Honestly", "Claramente"
                continue
            # a part written in lowercase is no name: "Braga-style" is Braga's; beside
            # one, a common word is as common capitalised ("Christmas-dinner")
            written = [p for p in re.split(r"[-.'\u2019]", word) if p]
            described = opening or any(p.islower() for p in written)
            known = [_known(lowered, grounds, opening, language, cheer)] + [
                p.islower()
                # a letter beside a common word is no name: "B-side", "U-turn"
                or (len(p) == 1 and described)
                or _known(p.lower(), grounds, described, language)
                for p in written
            ]
            if (known[0] or all(known[1:])) and not _acts(
                lowered, sentence[found.end() :], grounds
            ):
                continue
            if opening and word == found[0] and IMPERATIVE_OBJECT.match(sentence[found.end() :]):
                continue  # "Savour it", "Christen it with a lasagne": a verb, told to do
            if _spelled_otherwise(lowered, grounds.records):
                continue  # "Weghorst", as the world spells him, where the data has "Werghost"
            if _in_title(sentence, found, grounds, language):
                continue  # "You'll Never Walk Alone": a title of common words, no name
            return Breach("name", f"{word}: nobody and nothing in this pool or its notes")
    return None


# Capitalised common words in a row that make a title ("You'll Never Walk Alone"): three,
# for two are as often a name made of words ("Mark Stone")
TITLE_WORDS = 3


def _in_title(sentence: str, found: re.Match[str], grounds: Grounds, language: str) -> bool:
    """Whether ``found`` is one of a run of capitalised words, each a common word of the
    language, that does nothing a player or a scorer does ("You'll Never Walk Alone
    indeed"; not "Big Mark Stone scored twice"): a song's or a book's title."""
    words = list(CAPITALISED.finditer(sentence))
    at = next((i for i, w in enumerate(words) if w.start() == found.start()), None)
    if at is None:
        return False
    first = last = at
    while first > 0 and sentence[words[first - 1].end() : words[first].start()].isspace():
        first -= 1
    while last + 1 < len(words) and sentence[words[last].end() : words[last + 1].start()].isspace():
        last += 1
    run = words[first : last + 1]
    common_all = all(common(w[0].lower().replace("\u2019", "'"), language) for w in run)
    acting = _acts(run[-1][0].lower(), sentence[run[-1].end() :], grounds)
    return len(run) >= TITLE_WORDS and common_all and not acting


CAPITALISED = re.compile(r"\b[A-Z][\w'\u2019]*")
# A surname spelled otherwise: at least this long (shorter ones are too alike to tell),
# at most this many letters changed, swapped, added or dropped
SURNAME_LETTERS = 7
SPELLING_SLIPS = 2


def _spelled_otherwise(word: str, records: Records) -> bool:
    """A scorer's surname spelled another way: its first letter, and a letter or two
    changed, swapped, added or dropped (a data file's "Werghost" is the world's
    "Weghorst")."""
    if len(word) < SURNAME_LETTERS:
        return False
    return any(
        w[0] == word[0] and _slips(word, w) <= SPELLING_SLIPS
        for name in records.names
        for w in name.lower().split()
        if len(w) >= SURNAME_LETTERS
    )


def _slips(one: str, other: str) -> int:
    """The letters changed, added, dropped or swapped with a neighbour between two words
    (their optimal string alignment distance)."""
    rows = [list(range(len(other) + 1))]
    for i, a in enumerate(one, 1):
        row = [i]
        for j, b in enumerate(other, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (a != b))
            if i > 1 and j > 1 and a == other[j - 2] and one[i - 2] == b:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        rows.append(row)
    return rows[-1][-1]


# A word bound to its verb: "you've", "we'll", "they're", "i'd", "don't"
CONTRACTED = re.compile(r"['\u2019](?:ve|ll|re|d|m)$|n['\u2019]t$")


def _acts(word: str, after: str, grounds: Grounds) -> bool:
    """A common word that opens a sentence only as its subject does what a player or a
    scorer does ("Mark leads the pool", "Rose scored twice", "Hope called it"): a name the
    pool does not know, however common the word. Her own words ("Nobody called it",
    "Everyone picked against me") and the call's are not; nor is a noun its word stands
    before, a clause ending on it ("Opposite picks, same ending"); nor a pronoun bound to
    its verb ("You've scored more than something")."""
    if word in grounds.words or word in _vocabulary() or CONTRACTED.search(word):
        return False
    acts = rf"\s+(?:{'|'.join(_listed('acts'))})\b(?!\s*[,;:.!?])"
    return re.match(acts, after, re.IGNORECASE) is not None


SUPERLATIVE = re.compile(r"(?:(\w)\1)?est$|iest$")  # "fittest" of "fit", "happiest" of "happy"
MIN_STEM = 3  # "Forrest" is no superlative of "fo"
GERUND = re.compile(r"(?:(\w)\1)?ing$")  # "running" of "run", "taming" of "tam(e)"


def _known(word: str, grounds: Grounds, opening: bool, language: str, cheer: bool = False) -> bool:
    """A word the call or the pool gave, or its plural ("IPAs" of a fact's "IPA"), or held
    long ("GOOOOL"); a sentence's first word is capitalised anyway, so any word of her
    prompts and voice, or a common word of the pool's language, may open one."""
    held = re.sub(r"(\w)\1{2,}", r"\1", word)  # "gooool": "gol", said long
    # a common word's superlative opening a sentence ("Fittest isn't top", "Happiest")
    plain = SUPERLATIVE.sub(lambda m: "y" if m[0] == "iest" else m[1] or "", word)
    plain = plain if opening and len(plain) >= MIN_STEM else word
    # ... or its -ing form ("Taming jaguars is one thing": "tame"; "Running": "run")
    stem = GERUND.sub(lambda m: m[1] or "", word)
    verbs = (stem, f"{stem}e") if opening and stem != word and len(stem) >= MIN_STEM else ()
    # a cheer of a few words may be in either language the pool's people chat in ("Força
    # Portugal!", "GOLOOO!"); a sentence is in hers, where "Carla" and "Costa" are names
    languages = {language, *POOL_LANGUAGES} if cheer else {language}
    for said in dict.fromkeys((word, held, plain, *verbs)):
        if said in grounds.words or (said.endswith("s") and said[:-1] in grounds.words):
            return True
        if opening and (said in _vocabulary() or any(common(said, one) for one in languages)):
            return True
    return False


@cache
def common(word: str, language: str) -> bool:
    """A common word of ``language`` (wordfreq's word list), not a name: frequent in it
    (Zipf ``COMMON_ZIPF`` or more: "heartbreak" is 3.4) and ``COMMON_MARGIN`` above its
    median in other languages, for a name is written alike in all of them ("nine" 1.7
    above, "hop" 0.46, but "carla" -0.3, "diego" 0.3, "martin" 0.2)."""
    # Imported here: wordfreq costs 0.17 s to import, and a console command never asks.
    from wordfreq import zipf_frequency

    own = zipf_frequency(word, language, wordlist="small")
    if own < COMMON_ZIPF:
        return False
    elsewhere = [zipf_frequency(word, other, wordlist="small") for other in ELSEWHERE]
    return (
        own - median(o for other, o in zip(ELSEWHERE, elsewhere, strict=True) if other != language)
        >= COMMON_MARGIN
    )


def _own_words(text: str, grounds: Grounds) -> list[str]:
    """``text``'s words, less the runs of four or more it copies from its context: a
    player's fact in their own language is theirs ("o gato de elis se chama Pelé")."""
    words = [w.lower() for w in WORD.findall(text)]
    copied = set()
    for i in range(len(words) - 3):
        if " ".join(words[i : i + 4]) in grounds.text:
            copied |= set(range(i, i + 4))
    return [w for i, w in enumerate(words) if i not in copied]


def _latin(character: str) -> bool:
    return "LATIN" in unicodedata.name(character, "")


def _values(request: object) -> list[str]:
    """Every value a typed request carries, as text: what the code asked to be said."""
    # Walked with a stack of its own, not by recursion, and each type told how to read
    # once: read on every call, and a request holds hundreds of values (a table, a
    # schedule; a diary fusion's stories, thousands) where a call each was most of it.
    # ``Any``: each item's type is told apart by ``_HOW``, not by the type checker.
    found: list[str] = []
    waiting: list[Any] = [request]
    while waiting:
        item = waiting.pop()
        kind = type(item)
        how = _HOW.get(kind) or _how(kind)
        if how is _TEXT:
            found.append(item)
        elif how is _SCALAR:
            found.append(str(item))
        elif how is _SEQUENCE:
            waiting.extend(reversed(list(item)))
        elif how is _MAPPING:
            waiting.extend(reversed([part for pair in item.items() for part in pair]))
        elif how is _FIELDS:
            waiting.extend(reversed(_FIELDS_OF[kind](item)))
        elif how is _OTHER:
            found.append(str(item))
    return found


# How ``_values`` reads a value of a type: as it is, as ``str`` gives it, its items,
# a mapping's keys and values, a dataclass's fields, or not at all (None).
_TEXT, _SCALAR, _SEQUENCE, _MAPPING, _FIELDS, _OTHER, _NOTHING = (object() for _ in range(7))
_HOW: dict[type, object] = {}
_FIELDS_OF: dict[type, Callable[[Any], tuple[Any, ...]]] = {}  # a dataclass's, in order


def _how(kind: type) -> object:
    """How ``_values`` reads a value of ``kind``: told once per type, in the order the
    checks ask (a str first; a bool is an int; a dataclass before a tuple)."""
    if kind is type(None):
        how = _NOTHING
    elif issubclass(kind, str):
        how = _TEXT
    elif issubclass(kind, int | float | date | datetime):
        how = _SCALAR
    elif dataclasses.is_dataclass(kind):
        how = _FIELDS
        _FIELDS_OF[kind] = _fields_of(tuple(item.name for item in dataclasses.fields(kind)))
    elif issubclass(kind, dict):
        how = _MAPPING
    elif issubclass(kind, list | tuple | set | frozenset):
        how = _SEQUENCE
    else:
        how = _OTHER
    _HOW[kind] = how
    return how


def _fields_of(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """What reads ``names`` off an object, as a tuple: ``attrgetter``'s own, in one call,
    where it gives one (two names or more)."""
    if len(names) > 1:
        return attrgetter(*names)
    return lambda item: tuple(getattr(item, name) for name in names)


@cache
def _team_key(team: str) -> str:
    """``key_form`` of a team: the same few dozen, asked for call after call."""
    return key_form(team)


@cache
def _listed(section: str) -> tuple[str, ...]:
    return tuple(word.lower() for word in sections("contract").get(section, ()))


@cache
def _function_words() -> dict[str, frozenset[str]]:
    return {
        name.split(".", 1)[1]: frozenset(_listed(name))
        for name in sections("contract")
        if name.startswith("function.")
    }


@cache
def _function_words_of(language: str) -> tuple[frozenset[str], frozenset[str]]:
    """``language``'s function words, and the other languages' that are not its own."""
    ours = frozenset(_listed(f"function.{language}"))
    theirs = {w for name, ws in _function_words().items() if name != language for w in ws}
    return ours, frozenset(theirs - ours)


@cache
def _capitalised() -> frozenset[str]:
    return frozenset(_listed("capitalised"))


@cache
def _vocabulary() -> frozenset[str]:
    """Words that may open a sentence beside the common ones: every word of her prompts
    and voice files in either language, and the openers a model writes as a beat."""
    words = {w for ws in _function_words().values() for w in ws} | set(_listed("openers"))
    for name in ("voice_en", "voice_pt", "persona", "context", "remark", "answer"):
        words |= {w.lower() for w in WORD.findall(re.sub(r"\$\{?\w+\}?", " ", load(name)))}
    return frozenset(words)


@cache
def _scaffolding() -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(line.lower()) for line in sections("contract")["scaffolding"])


@cache
def _instruction_runs() -> frozenset[tuple[str, ...]]:
    """Every run of ``ECHO_RUN`` words of an instruction template, placeholders apart."""
    runs: set[tuple[str, ...]] = set()
    for path in resources.files("prompts").iterdir():
        name = path.name.removesuffix(".txt")
        if not path.name.endswith(".txt") or name in NOT_INSTRUCTIONS:
            continue
        lines = [line for line in load(name).splitlines() if not line.startswith(("#", "["))]
        for piece in re.split(r"\$\{?\w+\}?", " ".join(lines)):
            words = [w.lower() for w in WORD.findall(piece)]
            runs |= {tuple(words[i : i + ECHO_RUN]) for i in range(len(words) - ECHO_RUN + 1)}
    return frozenset(runs)
