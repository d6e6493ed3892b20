"""Player facts: the store, what fits a prompt or a question, and the merges.

Atomic, dated, sourced, and never lost. Reading a chat line (what it tells, takes
back or asks, the dates it names, the players it names, a claimed standing) is
``memory.utterance``'s; this module keeps what was read.

Compaction merges duplicates and groups similar facts, but its contract is the
opposite of the diary's: every distinct fact survives. The model proposes, the
code verifies (every source id covered, every cited id real) and rejects the
whole proposal otherwise. Merged-away facts stay stored, pointing at the fact
that now stands for them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from difflib import SequenceMatcher
from typing import Any

from sqlalchemy import Connection, Row, insert, select, update

from game.places import places_in, places_named, without_places
from game.teams import TeamBook
from game.text import unaccented, words_form
from memory.naming import others_named
from memory.person import third_person
from memory.question_kinds import plain_line
from memory.schema import fact_compactions, player_facts
from memory.spoken_dates import expiry_in
from memory.standing import claims_standing
from memory.utterance import HEALTH_MATTER, Heard

# A remember line's judgement, read here by callers from before the reading moved out
# (tests/test_security_text.py): the one rule stays in memory.utterance.

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
    private: bool = False  # told as a secret or of a sensitive kind: its owner's alone

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
class MergedFact:
    text: str
    covers: tuple[int, ...]


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
        row.private,
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
    private: bool = False,
    replaces: Fact | None = None,
    as_told: bool = False,
) -> int:
    """Stores a fact. A fact told on a subject the player had another fact on ("ana
    supports Argentina now" after "ana supports Brazil") replaces it as of ``learned_on``:
    the old one leaves every prompt and answer, and stays stored with its dates; so does
    ``replaces``, the fact a change of mind updates ("full vegan now"). A fact replacing
    a private one stays private. A fact read by rules loses the clauses that say the old
    value is over (``past_cut``); one a model wrote (``as_told``) is stored as written."""
    about = None if covers else subject(text, handle)
    old = [replaces] if replaces is not None else []
    if about is not None:
        old += [f for f in current(connection, handle) if f.subject == about]
    if any(f.private for f in old):
        private = True  # what replaces a secret is told in confidence too
    if not covers and not as_told:
        text = past_cut(text, old, handle)
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
            private=private,
            created_at=now,
        )
    )
    new_id = int(result.inserted_primary_key[0])  # type: ignore[index]  # one key, never None
    if replaces is not None:
        connection.execute(
            update(player_facts)
            .where(player_facts.c.id == replaces.id, player_facts.c.superseded_by.is_(None))
            .values(superseded_by=new_id, replaced_on=learned_on)
        )
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
    (
        "home",
        r"\b(?:(?:we|i) (?:\w+ )?moved|mudamos|nos mudamos|we'?re (?:now )?(?:living )?in)\b"
        r"(?!.*\b(?:shifts?|turnos?|team|time|department)\b)",
    ),
    (
        "diet",
        r"\b(?:vegan\w*|vegetarian\w*|pescatarian\w*|pescetarian\w*|carn[ií]vor\w*|plant[- ]based"
        r"|(?:doesn'?t|don'?t|does not|do not|n[aã]o) (?:eat|come|como) (?:meat|carne|fish|peixe))\b",
    ),
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
# What a move is to when it is no home: "moved to day shifts", "mudou pro turno da noite".
NOT_A_PLACE = re.compile(
    r"\s+(?:the\s+|a\s+|o\s+)?(?:day|night|morning|late|early|weekend)?\s*"
    r"(?:shifts?|team|department|squad|role|position|turno|setor|time|equipe|cargo|plant[aã]o)\b",
    re.IGNORECASE,
)
# Who owns what follows the name: "the brother of ana", "o irmão de ana" is not ana.
OWNED = re.compile(r"\b(?:of|de|do|da|dos|das)\s*$", re.IGNORECASE)


def subject(text: str, handle: str | None = None) -> str | None:
    """What ``text`` (``handle``'s fact) is about, when a cue says: "team:national",
    "team:club", "home", "work", "cat", "dog"; None when no rule knows."""
    who = r"(?:^|\b" + re.escape(handle) + r"\s+)" if handle else r"(?:^|\b)"
    for name, cues in CUES.items():
        for found in re.finditer(who + LEAD + r"(?:" + cues + r")\b", text, re.IGNORECASE):
            if OWNED.search(text, 0, found.start()) or NOT_A_PLACE.match(text, found.end()):
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


def named(
    connection: Connection, handle: str, what: str, held: list[Fact] | None = None
) -> list[Fact]:
    """The player's current facts (or those of ``held``) that ``what`` names ("that I
    run Gentoo", "o gato", "morar em sumare", "the pregnancy thing"): those holding two
    thirds of its words, told in the third person, a word counting when its first four
    letters are a word's of the fact, accents aside ("pregnancy", "pregnant"; "sumare",
    "Sumaré")."""
    said = _untold(third_person(what, handle))
    # the day it was told names no fact by its words ("o que te contei no domingo" is no
    # "sócio ... todos os domingos"): ``_told_on`` reads it
    said = _WHEN_TOLD.sub(" ", unaccented(said).lower())
    # a place names a fact of it, or of a city in it ("a história de França" of "Lyon"),
    # not by its letters ("França" is no "francesinha")
    spots = places_named(said)
    wanted = _word_stems(without_places(said), handle) - TAKING_BACK_STEMS | spots
    if not wanted:
        return []

    raw, wanted = wanted, {SAME_THING.get(w, w) for w in wanted}

    def shared(fact: Fact) -> int:
        own = _word_stems(fact.text, handle, held=True) | _short_words(fact.text, handle)
        # "Brasílio Itiberê 2210, ap 34" is an address, though no word of it says so
        own |= {"ende"} if ADDRESS_SHAPE.search(fact.text) else set()
        # "a Matilde de bruno tem 4 anos" is someone of theirs by name: "my daughter's
        # name", "o nome do meu cachorro" name it, though no word of it says which
        own |= KIN | {"name"} if _someone_of(fact.text, handle) else set()
        # "aquilo da minha saúde" of "carla é diabética tipo 1": a matter of health
        own |= {"health"} if HEALTH_MATTER.search(plain_line(fact.text)) else set()
        return len(wanted & ({SAME_THING.get(w, w) for w in own} | places_in(fact.text)))

    held = current(connection, handle) if held is None else held
    found = [f for f in held if shared(f) * 3 >= len(wanted) * 2]
    # Those holding every word named win: "forget that I run Gentoo on my laptop" names
    # the laptop fact, not "ana runs Gentoo" beside it.
    whole = [f for f in found if shared(f) == len(wanted)] or found
    # "the address I posted" of three facts of home: the one with a street in it
    street = [
        f
        for f in whole
        if len(whole) > 1
        and ADDRESS & raw
        and (ADDRESS & _word_stems(f.text, handle, held=True) or ADDRESS_SHAPE.search(f.text))
    ]
    if street or whole:
        return street or whole
    # "os nomes das gêmeas" of "tenho gêmeas, Lia e Lua": the one fact sharing any word,
    # a word of its own (not one it names in other words: "support" is every club's)
    own = wanted - set(SAME_THING.values())
    loose = [
        f
        for f in held
        if own & (_word_stems(f.text, handle, held=True) | _short_words(f.text, handle))
    ]
    return loose if len(loose) == 1 else []


# Of a home, the words of a street address: said of one, they name it among the others
ADDRESS = frozenset({"addr", "ende", "rua", "stre", "aven"})
# An address by its shape: a flat's number, a street's ("Weserstraße 58", "ap 34")
ADDRESS_SHAPE = re.compile(
    r"\b(?:ap|apto|apt|apartment|flat|andar|floor)\.?\s*\d+|\b\d{1,5}[,\s]+(?:ap|apto|apt)\b"
    # a street by its name or number: "Rua dos Navegantes", "14 Burton Road", "Weserstraße 58"
    r"|\b(?:rua|avenida|av|travessa|alameda)\.?\s+(?:d[aeo]s?\s+)?(?-i:[A-ZÀ-Ý])"
    r"|\b\d{1,5}\s+(?-i:[A-Z])\w+\s+(?:street|road|st|rd|avenue|ave|lane)\b"
    r"|\w+(?:straße|strasse|weg)\s+\d+",
    re.IGNORECASE,
)

# Who a player's own people and pets are, by their words' first four letters (or the word)
KIN = frozenset(
    """daug filh son sons kid kids crian baby bebe nene meni wife husb espo mari mulh namo
    boyf girl part dog dogs cat cats gato gata cach cade cao pet pets""".split()  # noqa: SIM905
)
# A person named as theirs, as ``third_person`` tells it: "a Matilde de bruno", "bruno's Leo"
# ("o Flamengo de bruno" is his club: a team is nobody's kin)
SOMEONE_OF = (
    r"\b(?-i:([A-ZÀ-Ý][a-zà-ÿ]+)) d[eoa] {handle}\b|\b{handle}'s (?-i:([A-ZÀ-Ý][a-zà-ÿ]+))\b"
)


def _someone_of(text: str, handle: str) -> bool:
    found = re.finditer(SOMEONE_OF.format(handle=re.escape(handle)), text, re.IGNORECASE)
    book = TeamBook.standard()
    return any(book.name_of(m[1] or m[2]) is None for m in found)


# Words that name one thing in other words, by their first four letters: a take-back of
# "meu bairro" names where they live ("mora no Batel"), "o nome" what something is called.
SAME_THING = {
    stem: thing
    for thing, stems in (
        ("home", "mora moro morar live livi bair neig addr ende rua stre casa home"),
        ("name", "nome name call cham"),
        ("club", "torc supp time team club"),
        # a job named by its trade: "o que eu disse do meu trabalho" of "é professora"
        ("work", "trab work job emp prof teac enfe nurs enge engi advo lawy anal demi"),
        ("diet", "vega vege dieta diet carn meat"),
        ("wedding", "casam casar casei casou casad noiv wedd marr enga fian"),
        ("faith", "igre chur reli evan cato jewi jude musl espir"),
        # a break-up by its other names: "aquela história do meu ex" of "terminou com o Rafa"
        ("split", "divo sepa brok spli ex termi"),
        # a condition by its name in either language: "o TDAH" of "diagnosed with ADHD"
        ("adhd", "adhd tdah"),
        ("anxiety", "anxi ansi"),
        ("smoking", "smok fuma ciga cigs"),
        # an organ for its condition: "o que te disse sobre o coração" of "uma arritmia"
        ("heart", "corac hear arri arrh"),
        # a matter of health by its medicines, or a body part for it: "do remédio" of
        # "comecei sertralina", "aquilo das minhas costas" of "uma hérnia discal", "the
        # stomach thing" of "i'm coeliac"
        (
            "health",
            "saud heal remed medic pills compr antid insul losar costa colun spine stom estom"
            " barri tumm glut coel celi",
        ),
        # a feast by any of its names: "my christmas plans" of "xmas plan: flying to Recife"
        ("christmas", "xmas chri natal"),
    )
    for stem in stems.split()
}


def _word_stems(text: str, handle: str, held: bool = False) -> set[str]:
    """Its words' first four letters; its short words when it has no other ("my ex")."""
    found = _stems_of(content_words(unaccented(text), (handle,)), held)
    return found or _short_words(text, handle)


def _stems_of(words: Iterable[str], held: bool = False) -> set[str]:
    """Each word's first four letters, or five where four name another thing ("casamento"
    is no "casa"). A diminutive names its word ("cafezinho" the "cafe"; "docinhos" the
    "doces", by the three letters before "inho", which a ``held`` fact's words give too)."""
    found: set[str] = set()
    for word in words:
        small = DIMINUTIVE.fullmatch(word)
        if small and not held:
            base = small["base"]
            found.add(base[:4] if len(base) >= 4 else f"{base}~")
            continue
        found.add(word[:5] if word[:5] in SAME_THING else word[:4])
        if held and len(word) >= 4:
            found.add(f"{word[:3]}~")
    return found


DIMINUTIVE = re.compile(r"(?P<base>\w{3,}?)z?inh[oa]s?")


def _short_words(text: str, handle: str) -> set[str]:
    words = re.findall(r"[^\W\d_]{2,}", unaccented(text).lower())
    return {w for w in words if w != handle.lower() and w not in COMMON and w not in SHORT_COMMON}


# Short words of either language no fact is named by ("my ex" names "ex").
SHORT_COMMON = frozenset("my me is it to of in on at do da de o a as os um eu".split())  # noqa: SIM905


# A take-back naming when it was told: "aquilo que eu te falei ontem", "what I said today"
DAY_SAID = {"anteontem": 2, "ontem": 1, "yesterday": 1, "hoje": 0, "today": 0}
# ... or by its weekday: "o que te contei domingo", "what I told you on Tuesday"
WEEKDAYS = (
    ("monday", "segunda"), ("tuesday", "terca"), ("wednesday", "quarta"), ("thursday", "quinta"),
    ("friday", "sexta"), ("saturday", "sabado"), ("sunday", "domingo"),
)  # fmt: skip


BEFORE_LAST = re.compile(r"\b(?:retrasad[oa]|before last|passad[oa] (?:do|da) passad[oa])\b")
# A take-back of what was told in confidence: "aquilo q te contei em off", "my secret"
IN_CONFIDENCE = re.compile(
    r"\b(?:em off|off the record|in private|in confidence|entre nos|em segredo|segredo|secret)\b"
)


def _in_confidence(held: list[Fact], what: str) -> list[Fact]:
    """The one private fact a take-back of "what I told you in confidence" names."""
    if not IN_CONFIDENCE.search(unaccented(what).lower()):
        return []
    private = [f for f in held if f.private]
    return private if len(private) == 1 else []


def _told_on(held: list[Fact], what: str, on: date) -> list[Fact]:
    """The facts of the one line that told any on the day ``what`` names; [] if none, or
    if several lines told some that day."""
    plain = unaccented(what).lower()
    said = [days for word, days in DAY_SAID.items() if re.search(rf"\b{word}\b", plain)]
    before_last = 7 if BEFORE_LAST.search(plain) else 0  # "domingo retrasado"
    said += [
        ((on.weekday() - weekday) % 7 or 7) + before_last  # the last one before today
        for weekday, names in enumerate(WEEKDAYS)
        if any(re.search(rf"\b{name}\b", plain) for name in names)
    ]
    if not said:
        return []
    day = on - timedelta(days=said[0])
    # a night runs past midnight: "o que te contei na quarta à noite", told at 01:00 on
    # Thursday, is of either day (and the one line of both)
    days = {day, day + timedelta(days=1)} if NIGHT.search(plain) else {day}
    that_day = [f for f in held if f.learned_on in days]
    # "aquilo que eu te contei no domingo, vc sabe o que": of two lines that day, the one
    # told as a secret, when the take-back says it was one
    secret = [f for f in that_day if f.private] if KEPT_QUIET.search(plain) else []
    for told in (that_day, secret):
        if len({f.source for f in told}) == 1:
            return told
    # one line's facts only: of two told that day, the day alone does not say which
    return []


NIGHT = re.compile(r"\b(?:a noite|de noite|noite|night|late|madrugada|evening)\b")
_WHEN_TOLD = re.compile(
    r"\b(?:(?:n[oa]|on|last|passad[oa]|retrasad[oa])\s+)?(?:"
    + "|".join(name for names in WEEKDAYS for name in names)
    + "|"
    + "|".join(DAY_SAID)
    + r")\b(?:\s+(?:passad[oa]|retrasad[oa]|a noite|night))?"
)


def _telling_day(line: str) -> str:
    """The words after "te contei", "I told you" in ``line``: where the day it was told is
    said ("aquilo que eu te contei no domingo, vc sabe o que"), not a reason's day."""
    told = TOLD_YOU.search(unaccented(line).lower())
    return "" if told is None else told.string[told.end() : told.end() + 40]


TOLD_YOU = re.compile(r"\b(?:te (?:contei|falei|disse)|(?:i )?told you|mentioned)\b")


# A take-back speaking of a secret: "vc sabe o que", "não quero isso rodando por aí"
KEPT_QUIET = re.compile(
    r"\b(?:(?:vc|voce|tu) sabes? (?:o que|do que|qual)|you know (?:what|which)|segredo|secret"
    r"|rodando por ai|espalh\w*|entre nos|between us|private|privad[oa])\b"
)


# Where a take-back names two things: "o bar e o canto", "the bird and the pigeons"
BOTH = re.compile(r"\s+(?:e|and|&)\s+|\s*,\s*", re.IGNORECASE)


def withdraw(
    connection: Connection,
    handle: str,
    what: str,
    on: date,
    source: str,
    everything: bool = False,
    line: str = "",
) -> list[Fact]:
    """The one current fact ``what`` names, withdrawn: out of every prompt. When it names
    several, none is: she asks which (an ambiguous "forget" must not take two). ``what``
    empty ("forget that", "esquece isso") is the fact the player told her last;
    ``everything``, every current fact of theirs. ``line``: the whole line to her, whose
    words pick the one fact they share most with when ``what`` is empty ("não precisas
    de te lembrar de onde trabalho, tira isso").

    Withdrawn facts stay stored, with ``source``, the log line that withdrew them; the
    line itself stays in the log.
    """
    held = current(connection, handle)
    if everything:
        found = held
    elif not what:
        found = closest(held, line, handle)
        if not found and not any(naming(line, handle)):
            # "forget that": nothing named, the last fact told. A line naming something
            # none of theirs holds ("keto's over, just wipe that") takes nothing.
            found = sorted(held, key=lambda f: (f.last_told, f.id))[-1:]
    else:
        found = (
            named(connection, handle, what)
            or _told_on(held, what, on)
            or _told_on(held, _telling_day(line), on)
            or _in_confidence(held, what)
        )
        if len(found) != 1:  # "aquilo do bar e do canto": each thing named, one fact each
            parts = [named(connection, handle, part) for part in BOTH.split(what)]
            found = [f for part in parts if len(part) == 1 for f in part] if len(parts) > 1 else []
        if not found:
            # "forget that I lived in Recife" after "I moved to Lisbon" replaced it: the
            # older version, which "what do you know" tells as "before that", goes.
            found = named(connection, handle, what, _replaced_versions(connection, handle))
        if not found:
            # what it names, by its rare words; else the line's rare words, not the things
            # its reasons name ("forget my religion pls, it's not a work-chat thing")
            found = closest(held, what, handle) or closest(held, line, handle, things=False)
    if not found or (what and len(found) != len({f.id for f in found})):
        return []
    connection.execute(
        update(player_facts)
        .where(player_facts.c.id.in_([f.id for f in found]))
        .values(withdrawn_on=on, withdrawn_by=source)
    )
    return found


# The words of taking back, none of which names what is taken back
TAKING_BACK = frozenset(
    """
    forget delete erase remove drop scratch scrap wipe unremember take back bring thing
    stuff story bit part said told shared mentioned mention please thanks anymore again
    esquece esqueca esquecer apaga apagar deleta deletar tira tirar retira retirar deixa
    lembrar lembra guarda guardes anota mencionar mencione fala falar falei contei disse
    coisa historia lance parada negocio assunto papo memoria notas notes favor obrigado pode
    podes precisa precisas mais betania beta sff pfv pls onde where olha aquilo isso
    largar
    """.split()  # noqa: SIM905
)
TAKING_BACK_STEMS = _stems_of(TAKING_BACK)
# ... and the words of the telling itself, whole ("the address I posted here the other
# day"): by their stems they would take "escritório" and "Mandarin" out of a take-back
TELLING = frozenset(
    """
    posted post postei postou wrote escrevi escreveu typed sent mandei mandou enviei enviou
    here aqui earlier other day outro dia aquele naquele yesterday ontem chat grupo group
    """.split()  # noqa: SIM905
)


def _untold(what: str) -> str:
    """``what`` without the words of its telling ("posted here the other day")."""
    return " ".join(w for w in what.split() if unaccented(w).lower().strip(".,!?;:") not in TELLING)


def naming(line: str, handle: str, things: bool = True) -> tuple[set[str], set[str]]:
    """What in ``line`` may name one of ``handle``'s facts, past the words of taking back:
    its rare words ("lactose", not "não" or "gente") and, with ``things``, those naming a
    thing (a home, a job), as stems; and its short names ("Ju" of "Juliana")."""
    # (a place by what it is, not by its letters: ``named``)
    spots = places_named(line)
    words = {
        unaccented(w)
        for w in content_words(without_places(line) if spots else line, (handle,))
        if unaccented(w) not in TAKING_BACK | TELLING
        and ((things and _stems_of([unaccented(w)]) & SAME_THING.keys()) or rare(w))
    }
    short = {w.lower() for w in re.findall(r"(?<=\w )([A-Z][a-z]{1,2})\b", line)}
    return {SAME_THING.get(stem, stem) for stem in _stems_of(words)} | spots, short


def closest(held: list[Fact], line: str, handle: str, things: bool = True) -> list[Fact]:
    """The one fact of ``held`` sharing the most of what ``line`` names (``naming``), when
    one shares more than every other; [] otherwise."""
    wanted, short = naming(line, handle, things)
    if not wanted and not short:
        return []

    def shared(fact: Fact) -> int:
        own = {SAME_THING.get(w, w) for w in _word_stems(fact.text, handle, held=True)}
        own |= places_in(fact.text)
        names = {w.lower() for w in re.findall(r"\b[A-Z]\w+", fact.text)}
        return len(wanted & own) + sum(any(n.startswith(s) for n in names) for s in short)

    ranked = sorted(held, key=shared, reverse=True)
    if not ranked or shared(ranked[0]) == 0:
        return []
    return [] if len(ranked) > 1 and shared(ranked[1]) == shared(ranked[0]) else ranked[:1]


# A word as frequent as this (wordfreq's Zipf scale) in English or Portuguese names no
# fact of its own: "não" is 7.1, "gente" 5.6; "entrevista" 4.9, "lactose" 3.3.
RARE_ZIPF = 5.0


def rare(word: str) -> bool:
    """Whether ``word`` is rarer than everyday words in both languages."""
    # Imported here: wordfreq costs 0.17 s to import, and most lines take nothing back.
    from wordfreq import zipf_frequency

    return max(zipf_frequency(word, language) for language in ("en", "pt")) < RARE_ZIPF


def _replaced_versions(connection: Connection, handle: str) -> list[Fact]:
    """``handle``'s facts a newer one on their subject replaced, not withdrawn."""
    query = (
        select(player_facts)
        .where(
            player_facts.c.handle == handle,
            player_facts.c.replaced_on.is_not(None),
            player_facts.c.withdrawn_on.is_(None),
        )
        .order_by(player_facts.c.id)
    )
    return [_fact(row) for row in connection.execute(query)]


def withdraw_naming(
    connection: Connection, handle: str, names: Iterable[str], on: date, source: str
) -> list[Fact]:
    """Every current fact of a player other than ``handle`` that names ``handle`` (or
    one of ``names``, their display name), withdrawn by ``source``: a fact stored before
    the player it names joined, which the pool now refuses to take (facts about a
    player come from that player). Kept, marked as the join withdrew it."""
    players = {handle: next(iter(names), handle)}
    found = [
        fact
        for fact in current(connection)
        if fact.handle != handle and others_named(fact.text, fact.handle, players)
    ]
    if found:
        connection.execute(
            update(player_facts)
            .where(player_facts.c.id.in_([f.id for f in found]))
            .values(withdrawn_on=on, withdrawn_by=source)
        )
    return found


def past_cut(text: str, old: list[Fact], handle: str) -> str:
    """``text`` without its clauses that say what ``old`` held is over ("ana moved to
    Barão Geraldo, Valinhos is history", "viagem pra Buenos Aires cancelada"): the new
    fact keeps the change, the old one stays in the old fact. Told whole when every
    clause would go."""
    if not old:
        return text
    said = {w[:5] for fact in old for w in content_words(unaccented(fact.text), (handle,))}
    said -= CHANGE_WORDS

    def over(clause: str) -> bool:
        plain = unaccented(clause).lower()
        words = {w[:5] for w in content_words(plain, (handle,))}
        return PAST.search(plain) is not None and bool(words & said)

    clauses = re.split(r"(?<=[,.;!])\s+", text)
    kept = [c for c in clauses if not over(c)]
    if not kept or len(kept) == len(clauses):
        return text
    new = " ".join(kept).strip(" ,;")
    return new if re.search(rf"\b{re.escape(handle)}\b", new) else f"{handle}: {new}"


# What says a thing held is over: "ficou no passado", "cancelada", "sold", "no longer".
PAST = re.compile(
    r"\b(?:ficou (?:no passado|pra tras)|cancel\w*|desisti\w*|vend(?:i|eu)|sold|gave up"
    r"|no longer|not anymore|anymore|nao \w+ mais|instead of|em vez d\w*|ao inves d\w*"
    r"|left|sai(?:u)? d\w*|deix(?:ei|ou)|larg(?:uei|ou)|quit|dropped|used to|history)\b"
)


def withdraw_ids(
    connection: Connection, handle: str, ids: list[int], on: date, source: str
) -> None:
    """``handle``'s facts of those ids withdrawn by the log line ``source`` (a model named
    them by id; another player's id withdraws nothing)."""
    connection.execute(
        update(player_facts)
        .where(
            player_facts.c.id.in_(ids),
            player_facts.c.handle == handle,
            player_facts.c.withdrawn_on.is_(None),
        )
        .values(withdrawn_on=on, withdrawn_by=source)
    )


def make_private(connection: Connection, handle: str, fact_id: int | None) -> None:
    """``handle``'s fact ``fact_id`` kept to its owner from now on."""
    connection.execute(
        update(player_facts)
        .where(player_facts.c.id == fact_id, player_facts.c.handle == handle)
        .values(private=True)
    )


def hushed(connection: Connection, handle: str, what: str) -> Fact | None:
    """The fact a plea for secrecy names ("o lance do Buritis fica entre nós"; "" the
    last one told), if it names one alone."""
    held = sorted(current(connection, handle), key=lambda f: (f.last_told, f.id))
    found = named(connection, handle, what) if what else held[-1:]
    return found[0] if len(found) == 1 else None


def keep_private(connection: Connection, handle: str, what: str) -> None:
    """The fact ``what`` names kept to its owner from now on."""
    fact = hushed(connection, handle, what)
    if fact is not None:
        make_private(connection, handle, fact.id)


def updated_by(connection: Connection, handle: str, text: str, named_as: str | None) -> Fact | None:
    """The current fact of ``handle``'s that a change of mind told as ``text`` updates: the
    one ``named_as`` names ("scratch what I said about paris"), else the newest that shares
    a word of what it is about ("full vegan now" after "vegetarian" is the diet's subject,
    which ``add`` replaces by itself; "day shifts" after "night shifts"). None: a new fact."""
    if named_as:
        found = named(connection, handle, named_as)
        return found[0] if len(found) == 1 else None
    held = current(connection, handle)
    about = subject(text, handle)
    if about is not None:
        if any(f.subject == about for f in held):
            return None  # ``add`` replaces the fact on its subject
        # told on that subject before the cue could be read ("ana é a ana. mora em X")
        sharing = [f for f in held if f.subject is None and about in subjects_within(f.text)]
    else:
        sharing = []
    shared: dict[int, int] = {}
    if not sharing:  # what it is about, by a word both say ("estágio", "estagiária")
        stems = _stems(unaccented(text)) - CHANGE_WORDS - _stems(handle)
        shared = {f.id: len(stems & _stems(unaccented(f.text)) - CHANGE_WORDS) for f in held}
        sharing = [f for f in held if shared[f.id]]
    # the one that shares the most of what it says, the newest of those
    return max(sharing, key=lambda f: (shared.get(f.id, 0), f.last_told, f.id), default=None)


def subjects_within(text: str) -> set[str]:
    """The subjects whose cues ``text`` holds anywhere, whoever it says they are of."""
    return {name for name, cues in CUES.items() if re.search(rf"\b(?:{cues})\b", text, re.I)}


# Words of a change of mind, not of what changed: "now", "anymore", "agora".
CHANGE_WORDS = frozenset(
    w[:5]
    # (and its negations and fillers: "já não estou na Polana" shares "não" with any fact)
    for w in [
        "now",
        "anymore",
        "longer",
        "instead",
        "actually",
        "agora",
        "mais",
        "more",
        "update",
        "atualiza",
        "nao",
        "not",
        "never",
        "nunca",
        "pra",
        "para",
        "fim",
    ]
)


def made_by(connection: Connection, source: str) -> list[Fact]:
    """The facts the log line ``source`` stored."""
    query = select(player_facts).where(player_facts.c.source == source)
    return [_fact(row) for row in connection.execute(query.order_by(player_facts.c.id))]


def withdrawn_by(connection: Connection, source: str) -> list[Fact]:
    """The facts the log line ``source`` withdrew."""
    query = select(player_facts).where(player_facts.c.withdrawn_by == source)
    return [_fact(row) for row in connection.execute(query.order_by(player_facts.c.id))]


def held(
    connection: Connection, handle: str, about: str, day: date, private: bool = False
) -> list[Fact]:
    """``handle``'s facts on a subject starting ``about`` ("team") as she knew them on
    ``day``: told by then, not yet replaced, taken back or expired; a private one only
    with ``private`` (its owner asks)."""
    query = (
        select(player_facts)
        .where(player_facts.c.handle == handle, player_facts.c.subject.startswith(about))
        .order_by(player_facts.c.id)
    )
    found = map(_fact, connection.execute(query))
    return [f for f in found if f.held_on(day) and (private or not f.private)]


def replaced(connection: Connection, fact: Fact) -> Fact | None:
    """The fact on the same subject that ``fact`` replaced, if it replaced one."""
    query = (
        select(player_facts)
        .where(
            player_facts.c.superseded_by == fact.id,
            player_facts.c.replaced_on.is_not(None),
            player_facts.c.withdrawn_on.is_(None),  # taken back: never told as "before that"
        )
        .order_by(player_facts.c.id.desc())
    )
    row = connection.execute(query).first()
    return None if row is None else _fact(row)


# -- what fits a prompt or a question ----------------------------------------


def for_prompt(
    connection: Connection, handle: str, today: date, private: bool = False
) -> list[Fact]:
    """The facts she may use and tell: current, not expired, and none claiming a standing
    in the pool (one stored before ``claims_standing`` refused them stays, untold). A
    private fact only with ``private``: when she answers its owner."""
    return [
        fact
        for fact in current(connection, handle)
        if not fact.expired(today)
        and not claims_standing(fact.text)
        and (private or not fact.private)
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


# -- what a model proposes, checked: a merge, facts found in free chat -----------


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


def unfenced(answer: str) -> str:
    """A model's JSON answer without the Markdown fence some models put round it."""
    text = answer.strip()
    return text.strip("`").removeprefix("json").strip() if text.startswith("```") else text


def parse_merge(answer: str) -> list[MergedFact]:
    """The model's JSON answer, or a rejection saying what is wrong with it."""
    text = unfenced(answer)
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
        raw = unlisted(json.loads(unfenced(answer)), "facts")
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
