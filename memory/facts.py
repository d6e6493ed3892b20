"""Player facts: atomic, dated, sourced, and never lost.

Compaction merges duplicates and groups similar facts, but its contract is the
opposite of the diary's: every distinct fact survives. The model proposes, the
code verifies (every source id covered, every cited id real) and rejects the
whole proposal otherwise. Merged-away facts stay stored, pointing at the fact
that now stands for them.
"""

from __future__ import annotations

import calendar
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from difflib import SequenceMatcher, get_close_matches
from typing import Any

from sqlalchemy import Connection, Row, insert, select, update

from game.addressing import Addressee
from game.teams import TeamBook
from game.text import key_form, plain_letters, unaccented, words_form
from memory import claims
from memory.person import third_person
from memory.schema import fact_compactions, player_facts

MONTHS = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
        start=1,
    )
} | {"fev": 2, "abr": 4, "mai": 5, "ago": 8, "set": 9, "out": 10, "dez": 12}
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
MONTH = (
    r"(?P<month>jan|feb|fev|mar|apr|abr|may|mai|jun|jul|aug|ago|sep|set|oct|out|nov|dec|dez)[a-zç]*"
)
UNTIL = re.compile(
    r"\b(?:until|till|through|até(?: (?:o )?dia)?)\s+(?:(?P<iso>\d{4}-\d{2}-\d{2})"
    r"|(?P<day>\d{1,2})(?:\s+(?:de\s+)?" + MONTH + r"|/(?P<month_number>\d{1,2}))?"
    r"|(?P<month2>[a-z]{3})[a-z]*\s+(?P<day2>\d{1,2}))",
    re.IGNORECASE,
)
# "in early July", "no começo de julho": a part of a month, taken to end on this day.
# A month alone is no end: "born in May" is the past.
PART_OF_MONTH = re.compile(
    r"\b(?P<part>early|mid|late|end of|começo de|início de|meados de|fim de|final de)[\s-]+"
    + MONTH
    + r"\b",
    re.IGNORECASE,
)
PART_ENDS = {"early": 10, "começo de": 10, "início de": 10, "mid": 20, "meados de": 20}
WEEK = re.compile(r"\b(this week|esta semana|essa semana|nesta semana|nessa semana)\b", re.I)
NEXT_WEEK = re.compile(r"\b(next week|semana que vem|próxima semana)\b", re.IGNORECASE)
DAY_WORDS = {"today": 0, "tonight": 0, "hoje": 0, "tomorrow": 1, "amanhã": 1, "amanha": 1}
DAY_WORD = re.compile(r"\b(" + "|".join(DAY_WORDS) + r")\b")
UNTIL_FINAL = re.compile(r"\b(until|till|through|até)\s+(the|a)\s+final\b", re.IGNORECASE)
HOLIDAY = re.compile(
    r"\b(on holiday|on vacation|nas férias|de férias|em férias|away on a trip|viajando)\b",
    re.IGNORECASE,
)
HOLIDAY_LENGTH = timedelta(days=14)  # a holiday told without dates lasts two weeks
NEAR_DUPLICATE = 0.9  # a fact this similar to a current one is that fact, told again
# Words that carry no fact of their own, in English and Portuguese.
COMMON = frozenset(
    """
    the and but for with from that this have has had are was were been being you
    your she her his him they them their our who what when where which about into
    onto over also just very really still always never only some any all one two que
    com por para uma uns umas dos das nos nas num numa ele ela eles elas meu minha
    seu sua são ser estar estou sou tem tenho também muito sempre nunca mas como
    """.split()  # noqa: SIM905  # a word list reads better as text
)


class FactMergeRejected(ValueError):
    """A compaction the code refused; the originals stay as they were."""


@dataclass(frozen=True)
class Fact:
    id: int
    handle: str
    text: str
    learned_on: date
    source: str
    expires_on: date | None = None
    covers: tuple[int, ...] = ()
    confirmed_on: date | None = None  # when last told again; None: told once
    superseded_by: int | None = None  # the merged or newer fact that stands for it now
    withdrawn_on: date | None = None  # when its player took it back
    withdrawn_by: str | None = None  # the log line that did ("log:123")
    subject: str | None = None  # what it is about, when a rule knows ("team:club", "home")
    replaced_on: date | None = None  # the day a newer fact on its subject replaced it

    def held_on(self, day: date) -> bool:
        """Whether the fact was true as far as she knew on ``day``: told by then, not yet
        replaced or expired. A fact taken back is held on no day: its player withdrew it,
        not a change of mind she may tell of the past."""
        if day < self.learned_on or (self.replaced_on is not None and day >= self.replaced_on):
            return False
        if self.withdrawn_on is not None:
            return False
        return not self.expired(day)

    @property
    def last_told(self) -> date:
        return self.confirmed_on or self.learned_on

    def expired(self, today: date) -> bool:
        return self.expires_on is not None and today > self.expires_on


@dataclass(frozen=True)
class Heard:
    """A fact as read from a chat line, before it is stored."""

    handle: str
    text: str
    expires_on: date | None


@dataclass(frozen=True)
class MergedFact:
    text: str
    covers: tuple[int, ...]


# -- learning -----------------------------------------------------------------


def expiry_in(text: str, today: date, final: date | None = None) -> date | None:
    """When a fact told ``today`` stops being true, as people say it; None: it lasts.

    English and Portuguese: "until 10 Jul", "until July 10", "until 2026-07-10",
    "até dia 10", "até 10/7", "this week", "next week", "today", "tomorrow",
    "until the final" (``final``: the day of the tournament's last match),
    "in early July" (the 10th), "mid July" (the 20th), "late July" (its last day),
    "no começo de julho", "fim de julho", and a holiday told without dates
    ("nas férias", "on holiday": two weeks).
    """
    lowered = text.lower()
    found = UNTIL.search(lowered)
    if found:
        return _until(found, today)
    if UNTIL_FINAL.search(lowered):
        return final
    day = DAY_WORD.search(lowered)
    if day:
        return today + timedelta(days=DAY_WORDS[day[1]])
    if WEEK.search(lowered):
        return today + timedelta(days=6 - today.weekday())
    if NEXT_WEEK.search(lowered):
        return today + timedelta(days=13 - today.weekday())
    part = PART_OF_MONTH.search(lowered)
    if part:
        return _part_of_month(part, today)
    if HOLIDAY.search(lowered):
        return today + HOLIDAY_LENGTH
    return None


DAY = re.compile(r"\b(?P<day>\d{1,2})(?:\s+de)?\s+" + MONTH + r"\b", re.IGNORECASE)


def day_in(text: str, today: date) -> date | None:
    """The day ``text`` names ("12 Jun", "12 de junho"), in ``today``'s year; None if none."""
    found = DAY.search(text)
    if found is None:
        return None
    try:
        return date(today.year, MONTHS[found["month"][:3].lower()], int(found["day"]))
    except ValueError:
        return None


def held(connection: Connection, handle: str, about: str, day: date) -> list[Fact]:
    """``handle``'s facts on a subject starting ``about`` ("team") as she knew them on
    ``day``: told by then, not yet replaced, taken back or expired."""
    query = (
        select(player_facts)
        .where(player_facts.c.handle == handle, player_facts.c.subject.startswith(about))
        .order_by(player_facts.c.id)
    )
    return [f for f in map(_fact, connection.execute(query)) if f.held_on(day)]


def replaced(connection: Connection, fact: Fact) -> Fact | None:
    """The fact on the same subject that ``fact`` replaced, if it replaced one."""
    query = (
        select(player_facts)
        .where(player_facts.c.superseded_by == fact.id, player_facts.c.replaced_on.is_not(None))
        .order_by(player_facts.c.id.desc())
    )
    row = connection.execute(query).first()
    return None if row is None else _fact(row)


def _until(found: re.Match[str], today: date) -> date | None:
    try:
        if found["iso"]:
            return date.fromisoformat(found["iso"])
        if found["month2"]:
            month = MONTHS.get(found["month2"][:3])
            return date(today.year, month, int(found["day2"])) if month else None
        day = int(found["day"])
        if found["month"]:
            return date(today.year, MONTHS[found["month"][:3]], day)
        if found["month_number"]:
            return date(today.year, int(found["month_number"]), day)
        # "até dia 10": the next 10th from today
        month, year = today.month, today.year
        if day < today.day:
            month, year = (1, year + 1) if month == 12 else (month + 1, year)
        return date(year, month, day)
    except ValueError:
        return None


def _part_of_month(found: re.Match[str], today: date) -> date | None:
    month = MONTHS.get(found["month"][:3])
    if month is None:
        return None
    year = today.year + (1 if month < today.month else 0)
    last = calendar.monthrange(year, month)[1]
    return date(year, month, PART_ENDS.get((found["part"] or "").lower(), last))


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


# A role or a standing in the pool, in English and Portuguese, as ``folded`` text reads
# it (a word ending in * takes any ending; each spelled as ``spelled`` allows, so
# "a.d.m.i.n" is admin). The pool's records say who is admin, who leads, who wins and
# who was disqualified; a player's word stored as a fact would let her repeat the claim.
STANDING_WORDS = """
    leader* lider* rank* ranqueado* position posicao colocacao classificacao standings
    winner* winnings vencedor* ganhador* points pontos pts
    prize* premio premios premiacao jackpot payout* bolada
    disqualif* desqualific* desclassific* rigged rigging marmelada manipulad* armacao
""".split()  # noqa: SIM905  # a word list reads better as text
# The roles a pool has, in English and Portuguese: who runs it, hosts it, holds its money
# or takes its bets. A role given no place of its own is the pool's ("I am the treasurer",
# "sou o adm"); one given another ("a mod for Skyrim", "administradora de empresas", "I
# moderate a book club") is the teller's own life.
ROLE_WORDS = """
    admin* adm moderat* moderad* mod mods organiser* organizer* organizador* superuser
    host hosts hosting manage manages managing manager managers gerente* gerenci*
    treasurer* tesoureir* responsavel responsaveis banca bookie* bookmaker*
""".split()  # noqa: SIM905  # a word list reads better as text
# What follows a role to place it: a preposition or an article and a word ("of my club",
# "a book club", "de empresas"); or what comes before it: "a bank manager".
PLACED = re.compile(
    r" (?:(?:of|at|in|for|on|with|from|to|de|da|do|das|dos|na|no|nas|nos|em|numa|num|pela"
    r"|pelo|pelas|pelos|para|pra)(?: the| an?| os?| as?| uma?)?|the|an?|my|our|his|her|their"
    r"|os?|as?|uma?|minha|meu|sua|seu) [^\W\d_]"
)
QUALIFIED = re.compile(r"\b(?:an?|um|uma) [^\W\d_]+ $")
# Standing words in another sense: "points of interest", "ponto de vista".
OTHER_SENSE = re.compile(
    r"\bpoints? of (?:interest|view|sale|reference|order|light)\b"
    r"|\bpontos? (?:de (?:vista|interesse|onibus|venda|referencia|encontro)|turisticos?)\b"
)
STANDING_PHRASES = (
    r"(?:first|second|third|last|\d+(?:st|nd|rd|th)) place|top of the (?:table|pool|standings)"
    r"|(?:primeiro|segundo|terceiro|ultimo|\d+o?) lugar|(?:no )?topo da tabela|in charge"
    r"|(?:the|all the) (?:money|cash|pot|kitty)|(?:o|todo o) dinheiro|(?:a|toda a) (?:grana|caixinha)"
)
# Words that claim a standing or accuse only beside the pool: "I lead the pool", "cheats
# in this pool", "o bolão é roubado"; not "I am leading a project", "my bike was roubada".
BESIDE_POOL_WORDS = """
    lead leads leading won win wins top first ganhei ganhou venci venceu primeiro primeira
    boss chefe own owns owner dono dona run runs rules regras manda mando created criei criou
    champion* campea* campeo* money cash pot kitty dinheiro grana caixinha
    cheat* trapac* roub* fraud* fix* ban banned bann* banid*
""".split()  # noqa: SIM905  # a word list reads better as text
POOL = re.compile(
    r"\b(?:pools?|bolao|bolaozinho|sweepstakes?|here|aqui|daqui|the bets|as apostas|os palpites"
    r"|th(?:is|e) (?:group|chat|table)"
    r"|(?:este|esse|nesse|neste|deste|desse|o|no|do) (?:grupo|chat)|a tabela|na tabela|da tabela)\b"
)
# A role placed elsewhere, in the same clause: "an admin at my company", "líder da minha
# banda", "I work as a system administrator".
ELSEWHERE = re.compile(
    r"[^,.;:!?]*?\b(?:(?:at|in|for|of|on|with|from) (?:my|a|an|our|his|her|their)"
    r"|at (?:work|school|uni|university|college|church|home|the office|the gym)"
    r"|(?:na|no|numa|num|em|da|do|de|pela|pelo|para|pra) (?:minha|meu|minhas|meus|uma|um"
    r"|nossa|nosso|sua|seu)|no trabalho|na escola|na faculdade|na igreja|em casa|na empresa"
    r"|no escritorio|na academia)\b"
)
WORKS_AS = re.compile(r"\b(?:works?|worked|working|trabalh\w*) (?:as|como) (?:\S+ ){0,3}$")


def _word_pattern(words: Iterable[str]) -> re.Pattern[str]:
    """One pattern for a list of ``STANDING_WORDS``-like words, each ``spelled``."""
    found = []
    for word in words:
        pattern = spelled(word.rstrip("*"))
        found.append(
            pattern.removesuffix(r"(?![^\W_])") + r"\w*" if word.endswith("*") else pattern
        )
    return re.compile("|".join(found))


ROLE = _word_pattern(ROLE_WORDS)
STANDING = re.compile(
    rf"{ROLE.pattern}|{_word_pattern(STANDING_WORDS).pattern}|\b(?:{STANDING_PHRASES})\b"
)
BESIDE_POOL = _word_pattern(BESIDE_POOL_WORDS)


def claims_standing(fact: str) -> bool:
    """Whether ``fact`` claims a role or a standing in the pool: a role of ``ROLE_WORDS``
    (admin, host, treasurer, adm, responsável...), points, rank, lead, winnings or prize,
    a disqualification or a rigging; beside the pool, a lead, a win, its money or an
    accusation of cheating. A role or standing the fact places elsewhere in the same
    clause ("an admin at my company", "I work as a system administrator"; a role followed
    by a place or an object of its own, "I moderate a book club") is the teller's own
    life, kept; so is a word in another sense ("points of interest")."""
    said = OTHER_SENSE.sub("-", " ".join(folded(fact).split()))
    beside_the_pool = POOL.search(said) is not None
    if beside_the_pool and BESIDE_POOL.search(said):
        return True
    for found in STANDING.finditer(said):
        if beside_the_pool:
            return True
        role = ROLE.fullmatch(found[0])
        placed = role and (
            PLACED.match(said, found.end()) or QUALIFIED.search(said, 0, found.start())
        )
        if not (
            placed or ELSEWHERE.match(said, found.end()) or WORKS_AS.search(said, 0, found.start())
        ):
            return True
    return False


MAX_FACT_LENGTH = 200


def parse_extracted(
    answer: str,
    author: str,
    today: date,
    players: Mapping[str, str] | None = None,
    listener: str | None = None,
    final: date | None = None,
    line: str | None = None,
) -> list[Heard]:
    """Facts a model found in free chat, kept only if they are the author's own and short,
    and, given the chat ``line`` they came from, say what it said (``keeps``).

    Anything else (prose, another player, a fact naming another player or claiming a
    standing in the pool, an empty text, a fact the line never told: a model's
    invention) is dropped, not stored.
    """
    try:
        raw = unlisted(json.loads(answer.strip().strip("`").removeprefix("json").strip()), "facts")
    except json.JSONDecodeError:
        return []
    if not isinstance(raw, list):
        return []
    found = []
    for item in raw:
        if not isinstance(item, dict) or item.get("player") != author:
            continue
        text = item.get("text")
        if isinstance(text, str) and 0 < len(text.strip()) <= MAX_FACT_LENGTH:
            fact = " ".join(text.split())
            if players and others_named(fact, author, players, listener):
                continue
            if claims_standing(fact):  # "bruno is the admin": the records say who is
                continue
            if line is not None and not keeps(fact.replace(author, ""), line):
                continue
            found.append(Heard(author, fact, expiry_in(fact, today, final)))
    return found


def suggest(name: str, players: Mapping[str, str]) -> list[str]:
    """Close handles for a name that matches no player: suggestions, never a guess."""
    candidates = {h: h for h in players} | {n.lower(): h for h, n in players.items()}
    close = get_close_matches(name.lower(), list(candidates), n=3, cutoff=0.6)
    return sorted({candidates[c] for c in close})


# -- storing and reading ------------------------------------------------------


def _fact(row: Row[Any]) -> Fact:
    return Fact(
        row.id,
        row.handle,
        row.text,
        row.learned_on,
        row.source,
        row.expires_on,
        tuple(row.covers),
        row.confirmed_on,
        row.superseded_by,
        row.withdrawn_on,
        row.withdrawn_by,
        row.subject,
        row.replaced_on,
    )


def add(
    connection: Connection,
    handle: str,
    text: str,
    learned_on: date,
    source: str,
    now: datetime,
    expires_on: date | None = None,
    covers: tuple[int, ...] = (),
    confirmed_on: date | None = None,
) -> int:
    """Stores a fact. A fact told on a subject the player had another fact on ("ana
    supports Argentina now" after "ana supports Brazil") replaces it as of ``learned_on``:
    the old one leaves every prompt and answer, and stays stored with its dates."""
    about = None if covers else subject(text, handle)
    result = connection.execute(
        insert(player_facts).values(
            handle=handle,
            text=text,
            learned_on=learned_on,
            confirmed_on=confirmed_on,
            source=source,
            expires_on=expires_on,
            covers=list(covers),
            subject=about,
            created_at=now,
        )
    )
    new_id = int(result.inserted_primary_key[0])  # type: ignore[index]  # one key, never None
    if about is not None:
        connection.execute(
            update(player_facts)
            .where(
                player_facts.c.handle == handle,
                player_facts.c.subject == about,
                player_facts.c.id != new_id,
                player_facts.c.superseded_by.is_(None),
                player_facts.c.withdrawn_on.is_(None),
            )
            .values(superseded_by=new_id, replaced_on=learned_on)
        )
    return new_id


# What a fact is about, by rules in both languages: a new fact on the same subject
# replaces the old one ("ana moved to Recife" is where ana lives now). A subject's cues are
# what a stored, third-person fact says right after the player's name (or at its start),
# past a few words that keep it theirs ("now", "agora", "has"): "ana's brother lives in
# Recife" is the brother's home, not ana's, and "ana also supports Vasco" a second team.
# No cue that is as often something else: "joined" (a choir), "entrou na" (a gym).
# A team the team book knows is a national side; any other, a club (one of each).
SUBJECT_CUES = """
    team: supports | roots for | cheers for | is a fan of | is a * fan | became a fan of
    team: switched to | torce pelo | torce pela | torce pro | torce pra | torce para
    team: é torcedor do | é torcedora do | é torcedor da | é torcedora da
    team: virou torcedor do | virou torcedora do | passou a torcer pelo | passou a torcer pela
    home: lives in | is living in | is based in | moved to | moved back to | relocated to
    home: mora em | mora no | mora na | está morando em | tá morando em | vive em
    home: se mudou para | se mudou pra | se mudou pro | se mudou de volta para
    home: acabou de se mudar para | acabou de se mudar pra | foi morar em | foi morar no
    home: foi morar na | mudou-se para | mudou para | mudou pra
    home: mora com * em | mora com * no | mora com * na | lives with * in
    work: works at | works for | works as | is working at | started at | started working at
    work: started a new job at | started a job at | got a job at | now works at
    work: trabalha na | trabalha no | trabalha em | trabalha como | trabalha para
    work: está trabalhando na | está trabalhando no | tá trabalhando na | tá trabalhando no
    work: começou a trabalhar na | começou a trabalhar no | começou a trabalhar em
    work: foi contratado pela
    work: foi contratada pela | foi contratado pelo | foi contratada pelo
    work: conseguiu um emprego na | conseguiu um emprego no | conseguiu um emprego em
"""
# Words between the name and a cue that keep the fact the player's own and current.
SUBJECT_LEAD = (
    "now just recently finally has have had currently officially "
    "agora atualmente recentemente finalmente já ja hoje"
)
KEPT_SUBJECTS = (
    ("cat", r"\b(?:cat|gat[oa])\b.*\b(?:called|named|chama)\b"),
    (
        "dog",
        r"\b(?:dog|cachorr[oa]|cadel[oa])\b.*\b(?:called|named|chama)\b",
    ),
)


def _cues() -> dict[str, str]:
    """``SUBJECT_CUES`` as one pattern per subject ("*" is one word or two)."""
    found: dict[str, list[str]] = {}
    for line in SUBJECT_CUES.strip().splitlines():
        name, cues = line.split(":", 1)
        for cue in cues.split("|"):
            words = [r"\S+(?:\s+\S+)?" if w == "*" else re.escape(w) for w in cue.split()]
            found.setdefault(name.strip(), []).append(r"\s+".join(words))
    return {name: "|".join(cues) for name, cues in found.items()}


CUES = _cues()
LEAD = r"(?:(?:" + "|".join(SUBJECT_LEAD.split()) + r")\s+){0,2}"
# Who owns what follows the name: "the brother of ana", "o irmão de ana" is not ana.
OWNED = re.compile(r"\b(?:of|de|do|da|dos|das)\s*$", re.IGNORECASE)


def subject(text: str, handle: str | None = None) -> str | None:
    """What ``text`` (``handle``'s fact) is about, when a cue says: "team:national",
    "team:club", "home", "work", "cat", "dog"; None when no rule knows."""
    who = r"(?:^|\b" + re.escape(handle) + r"\s+)" if handle else r"(?:^|\b)"
    for name, cues in CUES.items():
        for found in re.finditer(who + LEAD + r"(?:" + cues + r")\b", text, re.IGNORECASE):
            if OWNED.search(text, 0, found.start()):
                continue
            if name == "team":
                book = TeamBook.standard()
                named = book.named_in(text[found.end() :])
                return "team:national" if named - book.clubs else "team:club"
            return name
    for name, pattern in KEPT_SUBJECTS:
        if re.search(pattern, text, re.IGNORECASE):
            return name
    return None


def same_as(connection: Connection, handle: str, text: str) -> Fact | None:
    """A current fact of ``handle`` that ``text`` repeats, word for word or nearly."""
    wanted = words_form(text)
    for fact in current(connection, handle):
        known = words_form(fact.text)
        if known == wanted or SequenceMatcher(None, known, wanted).ratio() >= NEAR_DUPLICATE:
            return fact
    return None


def confirm(connection: Connection, fact: Fact, told_on: date) -> None:
    """The fact was told again: it is not stored twice; it is now confirmed as of ``told_on``."""
    if told_on > fact.last_told:
        connection.execute(
            update(player_facts).where(player_facts.c.id == fact.id).values(confirmed_on=told_on)
        )


def current(connection: Connection, handle: str | None = None) -> list[Fact]:
    """Facts not merged away nor withdrawn (expired ones included), oldest first."""
    query = (
        select(player_facts)
        .where(player_facts.c.superseded_by.is_(None), player_facts.c.withdrawn_on.is_(None))
        .order_by(player_facts.c.id)
    )
    if handle is not None:
        query = query.where(player_facts.c.handle == handle)
    return [_fact(row) for row in connection.execute(query)]


def stored(connection: Connection) -> list[Fact]:
    """Every fact ever stored, merged-away ones too."""
    return [
        _fact(row) for row in connection.execute(select(player_facts).order_by(player_facts.c.id))
    ]


def named(connection: Connection, handle: str, what: str) -> list[Fact]:
    """The player's current facts that ``what`` names ("that I run Gentoo", "o gato"):
    those that keep two thirds of its words, told in the third person, and every name
    and number in it (the test merges pass, ``keeps``)."""
    wanted = third_person(what, handle)
    names = (handle,)
    words = {w[:5] for w in content_words(wanted, names)}
    if not words:
        return []
    found = [f for f in current(connection, handle) if keeps(wanted, f.text, names)]
    # Those holding every word named win: "forget that I run Gentoo on my laptop" names
    # the laptop fact, not "ana runs Gentoo" beside it.
    whole = [f for f in found if words <= {w[:5] for w in content_words(f.text, names)}]
    return whole or found


def withdraw(connection: Connection, handle: str, what: str, on: date, source: str) -> list[Fact]:
    """The one current fact ``what`` names, withdrawn: out of every prompt. When it names
    several, none is: she asks which (an ambiguous "forget" must not take two).

    Withdrawn facts stay stored, with ``source``, the log line that withdrew them; the
    line itself stays in the log.
    """
    found = named(connection, handle, what)
    if len(found) != 1:
        return []
    connection.execute(
        update(player_facts)
        .where(player_facts.c.id == found[0].id)
        .values(withdrawn_on=on, withdrawn_by=source)
    )
    return found


def withdrawn_by(connection: Connection, source: str) -> list[Fact]:
    """The facts the log line ``source`` withdrew."""
    query = select(player_facts).where(player_facts.c.withdrawn_by == source)
    return [_fact(row) for row in connection.execute(query.order_by(player_facts.c.id))]


def for_prompt(connection: Connection, handle: str, today: date) -> list[Fact]:
    """The facts she may use and tell: current, not expired, and none claiming a standing
    in the pool (one stored before ``claims_standing`` refused them stays, untold)."""
    return [
        fact
        for fact in current(connection, handle)
        if not fact.expired(today) and not claims_standing(fact.text)
    ]


def fitting(known: list[Fact], topic: str, limit: int) -> list[Fact]:
    """At most ``limit`` of a player's facts for one prompt, those that fit ``topic`` first.

    A fact fits when it shares a content word with the topic (the teams playing,
    the line being answered): "I support Mexico" when Mexico plays. The rest go by
    when they were last told, newest first. Shown in the order they were learned.
    Every fact stays stored; a prompt needs the few that matter now, and a
    player who tells her thirty things must not make every prompt longer.
    """
    stems = _stems(topic)
    ranked = sorted(known, key=lambda f: (_shares(f, stems), f.last_told, f.id), reverse=True)
    return sorted(ranked[:limit], key=lambda f: (f.learned_on, f.id))


def fits(fact: Fact, topic: str) -> bool:
    """Whether ``fact`` shares a content word with ``topic`` ("ana supports Mexico", "Mexico v Peru")."""
    return _shares(fact, _stems(topic))


def _stems(text: str) -> set[str]:
    """What a text is about, for fitting facts: its content words' first five letters, and
    each team it names, however it spells it ("Brasil", "Seleção", "Brazil": one team)."""
    return {w[:5] for w in content_words(text)} | _teams_named(text)


def _shares(fact: Fact, stems: set[str]) -> bool:
    # The player's own name is in every fact about them ("ana keeps bees"): no clue.
    own = {w[:5] for w in content_words(fact.text, (fact.handle,))} | _teams_named(fact.text)
    return bool(own & stems)


def _teams_named(text: str) -> set[str]:
    """The teams ``text`` names, as "team:<key>", by any spelling of the team book."""
    book = TeamBook.standard()
    return {f"team:{book.key(name)}" for name in book.named_in(text)}


# Words a question is made of, not what it is about: "what is my cat called?" is about "cat".
QUESTION_WORDS = frozenset(
    """
    what whats where who whom how does did called call name named tell know live lives
    qual quais onde quem como chama chamado chamada nome mora diz sabe sobre isso
    """.split()  # noqa: SIM905  # a word list reads better as text
)


def asked_about(known: list[Fact], question: str, names: Iterable[str] = ()) -> list[Fact]:
    """The facts a question asks after ("what is my cat called?" -> "ana's cat is called
    Tom"; "where does bruno live?" -> "bruno lives in Recife"): those sharing a word of
    what it asks (a word counting when one is the start of the other, "cat" and "cats");
    "where" asks after the player's home, however it was told ("caio se mudou para Recife")."""
    wanted = content_words(question, names) - QUESTION_WORDS
    asked_where = bool(re.search(r"\b(?:where|onde)\b", question, re.IGNORECASE))
    asked = {unaccented(w) for w in wanted}

    def matches(fact: Fact) -> bool:
        words = content_words(fact.text, (fact.handle, *names))
        if asked_where and (fact.subject == "home" or words & {"lives", "live", "mora", "based"}):
            return True
        # "alergia" asks after "alérgico": words compared without accents
        bare = {unaccented(w) for w in words}
        return any(a.startswith(b[:5]) or b.startswith(a[:5]) for a in asked for b in bare)

    if not wanted and not asked_where:
        return []
    return [fact for fact in known if matches(fact)]


def has_source(connection: Connection, source: str) -> bool:
    return (
        connection.execute(select(player_facts.c.id).where(player_facts.c.source == source)).first()
        is not None
    )


# -- compaction ---------------------------------------------------------------


def candidates(connection: Connection, handle: str, today: date) -> list[Fact]:
    """What a compaction may merge: current, lasting facts. Perishable ones are left to
    expire; one on a subject is never a duplicate (a newer one replaces it) and stays apart,
    so the next fact on its subject finds it."""
    return [
        fact
        for fact in for_prompt(connection, handle, today)
        if fact.expires_on is None and fact.subject is None
    ]


def unlisted(raw: Any, key: str) -> Any:
    """The list of a structured answer (``{key: [...]}``, the shape the request's schema
    asks for), or the answer as it came (a bare list from the text path)."""
    if isinstance(raw, dict) and set(raw) == {key}:
        return raw[key]
    return raw


def parse_merge(answer: str) -> list[MergedFact]:
    """The model's JSON answer, or a rejection saying what is wrong with it."""
    text = answer.strip()
    if text.startswith("```"):
        text = text.strip("`").removeprefix("json").strip()
    try:
        raw: Any = unlisted(json.loads(text), "merged")
    except json.JSONDecodeError as error:
        raise FactMergeRejected(f"the answer is not JSON ({error.msg})") from None
    if not isinstance(raw, list) or not raw:
        raise FactMergeRejected("the answer is not a non-empty list of facts")
    merged = []
    for item in raw:
        if not isinstance(item, dict):
            raise FactMergeRejected(f"not a fact object: {item!r}")
        fact_text, covers = item.get("text"), item.get("covers")
        if not isinstance(fact_text, str) or not fact_text.strip():
            raise FactMergeRejected(f"a fact without text: {item!r}")
        if (
            not isinstance(covers, list)
            or not covers
            or not all(isinstance(i, int) and not isinstance(i, bool) for i in covers)
        ):
            raise FactMergeRejected(f"a fact without the ids it covers: {item!r}")
        merged.append(MergedFact(" ".join(fact_text.split()), tuple(covers)))
    return merged


def content_words(text: str, names: Iterable[str] = ()) -> set[str]:
    """The words that carry a fact: letters only, three or more, not a common word of
    either language, and not the player's ``names`` (their handle and display name: a
    fact about ana says "ana" whatever it says)."""
    ignored = {w for name in names for w in re.findall(r"[^\W\d_]+", name.lower())}
    words = re.findall(r"[^\W\d_]+", text.lower())
    return {w for w in words if len(w) >= 3 and w not in COMMON and w not in ignored}


def objects(text: str, names: Iterable[str] = ()) -> set[str]:
    """What a fact is about, beyond its verb: the names it gives (capitalised words
    past a sentence's first) and its numbers, lowercased, less the player's ``names``."""
    ignored = {w for name in names for w in re.findall(r"\w+", name.lower())}
    found = set(re.findall(r"\d+", text))
    for sentence in re.split(r"(?<=[.!?;:])\s+", text):
        words = re.findall(r"[^\W\d_][\w'\u2019-]*", sentence)
        found |= {w.lower() for w in words[1:] if w[0].isupper() and len(w) > 1}
    return found - ignored


def keeps(source: str, merged: str, names: Iterable[str] = ()) -> bool:
    """Whether ``merged`` still says what ``source`` said.

    Two thirds of the source's content words must be found in the merged text,
    a word counting as found when a merged word shares its first five letters
    (so "marathons" keeps "marathon", "keeps" keeps "keep"), and every object
    of the source (a name, a number) must be in it as it was: "ana supports
    Palmeiras" does not keep "ana supports Corinthians". The player's ``names``
    count for nothing. "ana has a few hobbies" keeps nothing of "I keep bees" and
    is refused; "keeps bees and runs marathons" keeps both facts it stands for. A
    rewording that keeps no word ("beekeeper") is refused too: the code cannot
    check it, so it does not trust it.
    """
    if not objects(source, names) <= objects(merged, names) | content_words(merged):
        return False
    words = content_words(source, names)
    if not words:
        return True
    merged_stems = {w[:5] for w in content_words(merged, names)}
    found = sum(1 for w in words if w[:5] in merged_stems)
    return found * 3 >= len(words) * 2


def verify_merge(sources: list[Fact], merged: list[MergedFact], names: Iterable[str] = ()) -> None:
    """Every source covered, every citation real, every source's content and objects
    kept; the player's ``names`` (handle, display name) count as no content."""
    source_ids = {fact.id for fact in sources}
    cited = {i for fact in merged for i in fact.covers}
    invented = sorted(cited - source_ids)
    if invented:
        raise FactMergeRejected(f"cites facts that are not among the sources: {invented}")
    dropped = sorted(source_ids - cited)
    if dropped:
        raise FactMergeRejected(f"drops facts {dropped}")
    if len(merged) > len(sources):
        raise FactMergeRejected(f"turns {len(sources)} facts into {len(merged)}")
    by_id = {fact.id: fact for fact in sources}
    for fact in merged:
        if claims_standing(fact.text) and not any(
            claims_standing(by_id[i].text) for i in fact.covers
        ):
            raise FactMergeRejected(f"claims a standing in the pool: {fact.text!r}")
        for source_id in fact.covers:
            if not keeps(by_id[source_id].text, fact.text, names):
                raise FactMergeRejected(
                    f"loses what fact {source_id} said ({by_id[source_id].text!r})"
                )


def apply_merge(
    connection: Connection,
    handle: str,
    sources: list[Fact],
    merged: list[MergedFact],
    now: datetime,
) -> list[int]:
    """Store the merged facts and point the sources at them; call inside one transaction."""
    by_id = {fact.id: fact for fact in sources}
    new_ids = []
    for fact in merged:
        if len(fact.covers) == 1 and by_id[fact.covers[0]].text == fact.text:
            continue  # unchanged: the original stays as it is
        told = [by_id[i] for i in fact.covers]
        first = min(f.learned_on for f in told)  # a merged fact was told when its oldest was
        last = max(f.last_told for f in told)
        new_id = add(
            connection,
            handle,
            fact.text,
            first,
            "merge",
            now,
            covers=tuple(sorted(set(fact.covers))),
            confirmed_on=last if last > first else None,
        )
        connection.execute(
            update(player_facts)
            .where(player_facts.c.id.in_(fact.covers), player_facts.c.superseded_by.is_(None))
            .values(superseded_by=new_id)
        )
        new_ids.append(new_id)
    return new_ids


def record_compaction(
    connection: Connection,
    handle: str,
    accepted: bool,
    reason: str,
    sources: list[Fact],
    output: object,
    now: datetime,
) -> None:
    connection.execute(
        insert(fact_compactions).values(
            handle=handle,
            at=now,
            accepted=accepted,
            reason=reason,
            source_ids=[fact.id for fact in sources],
            output=output,
        )
    )


def last_compaction(connection: Connection, handle: str) -> tuple[datetime, int] | None:
    """When a merge of ``handle``'s facts was last tried, and over how many facts."""
    row = connection.execute(
        select(fact_compactions.c.at, fact_compactions.c.source_ids)
        .where(fact_compactions.c.handle == handle)
        .order_by(fact_compactions.c.id.desc())
        .limit(1)
    ).first()
    return None if row is None else (row.at, len(row.source_ids))


def rejected_count(connection: Connection) -> int:
    rows = connection.execute(
        select(fact_compactions.c.id).where(fact_compactions.c.accepted.is_(False))
    )
    return len(rows.all())
