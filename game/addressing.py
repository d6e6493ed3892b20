"""Who the commentator is in the pool: the handle she answers to and signs with.

The name is configuration, set once (``bot.app.settings``, from ``BETANIA_HANDLE``
and ``BETANIA_NAME``) and handed to the parser, memory and the agent; nothing
below that setting spells it out. ``message`` is the one test of whether a line
is addressed to her.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

DEFAULT_HANDLE = "betania"
DEFAULT_NAME = "BETanIA"
# What opens a line before her name: "oi betania", "hey @betania", "bom dia betania".
GREETING = (
    r"(?:hi|hey|hello|hiya|yo|ok|okay|so|oi|ola|olá|ei|ô|o|ow|e a[ií]|eai|bom dia|boa tarde"
    r"|boa noite|fala|salve|opa|ah|oh|ops|oops|pera[ií]?|wait|also|and|e|btw|fyi|actually|hmm+"
    r"|aliás|alias|seriously|anyway|enfim|então|entao|kkk+|haha\w*|lol|ó)"
)
# What follows a short name when it is a word, not her: "bet you", "bet on France", "bet
# me a fiver" (not "bet me lembra qual é o próximo jogo": Portuguese, asking her)
IDIOM = (
    r"you|u|ya|that|on|it|it's|the|my|your"
    r"|me(?!\s+(?:lembra|diz|diga|fala|conta|explica|ajuda|responde|mostra|recorda)\b)"
)
# What stands before her name when a question is of her, not to her: "quem liga pra betania"
OF_HER = "".join(
    rf"(?<!\b{word})"
    for word in "pra para for com sem que than like of to da de is about with sobre beat".split()  # noqa: SIM905
)
EMOJI = r"[\U0001F300-\U0001FAFF\u2600-\u27BF\ufe0f]"
# What opens a question: "who's top rn betania", "quanto falta pro líder bet"
QUESTION_WORD = (
    r"who|who's|whos|what|what's|whats|where|when|how|which|quem|qual|quais|quanto|quantos"
    r"|quantas|onde|como|cad[eê]"
)
# ... of which these say the rest is told to her: "btw betania tenho um gato"
TELLING = re.compile(r"\b(?:btw|fyi|actually|aliás|alias)\b", re.IGNORECASE)
# What follows her name when a line is about her, not to her: "betania is so smug today",
# "betania tá quieta hoje", "betania acha que ...".
ABOUT_HER = (
    r"is|was|has|had|does|did|will|would|can|could|should|might|must|seems|just|really"
    r"|always|never|knows|thinks|says|said|got|gets|keeps|picked|picks|bet|leads|loves|hates"
    r"|and|or|é|era|foi|tá|ta|está|esta|estava|tinha|ia|disse|falou"
    # ("betania só fala besteira" is about her; "betania só entre nós: ..." is to her)
    r"|nunca|sempre|só(?!\s+(?:entre\s+(?:n[óo]s|a\s+gente)|pr[ao]\s+(?:ti|voc[êe]|vc)"
    r"|para\s+(?:ti|voc[êe]|vc)|aqui\s+entre))"
    r"|também|tambem|ainda|já|ja|apostou|cravou|errou|acertou"
    r"|ganhou|perdeu|lidera|adora|odeia|com|de|do|da|'s|\u2019s"
)


@dataclass(frozen=True)
class Addressee:
    handle: str = DEFAULT_HANDLE
    name: str = DEFAULT_NAME  # how her lines are signed: her display name in the pool
    _pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _later: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _closing: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # "@betania ..." at the start (after a greeting: "oi @betania"); her name without
        # the @ as people call someone: followed by a comma, a colon, ! or ?, alone, or
        # before what they say to her ("betania quem tá ganhando?", "betaniaaa cravei?"),
        # but not before a verb about her: "betania is so smug today" is about her.
        # her name as typed: any case, any accent ("Betânia"), its last letter held
        # ("betaniaaa"), or cut short to its first three letters or more ("bet quanto eu
        # fiz?", "beta"), though not in "bet you", "bet on"
        short = [self.handle[:n] for n in range(len(self.handle) - 1, 2, -1)]
        whole = "|".join(
            _accented(name) + f"(?:{_accented(name[-1])})*"
            for name in dict.fromkeys((self.handle, self.name))
        )
        # (and its pet form: "Betinha")
        short += [f"{self.handle[:3]}inh[ao]"] if len(self.handle) > 5 else []
        cut = (
            "|".join(name if name.endswith("[ao]") else _accented(name) for name in short)
            if len(self.handle) > 5
            else ""
        )
        names = rf"{whole}|(?:{cut})(?!\s+(?:{IDIOM})\b)" if cut else whole
        pattern = re.compile(
            rf"^\s*(?P<greeting>(?:{GREETING}[\s,!.]+){{0,2}})"
            rf"(?P<name>@{re.escape(self.handle)}\b[\s,:!]*|(?:{names})(?:\s*(?:[,:!?]+\s*|$)"
            rf"|\s+(?!(?:{ABOUT_HER})\b(?![^?]*\?))))",
            re.IGNORECASE,
        )
        object.__setattr__(self, "_pattern", pattern)
        # "@betania" later in the line: "quem ta ganhando @betania?", "e aí @betania, ..."
        # ... or her name asked at the line's end: "quem passou, betania?" (searched on a
        # chat line, at most 500 characters: on 4,000 it takes a quarter of a second)
        # ... or her name opening a later sentence: "TOMAAA. betania quem ta liderando??",
        # "acabou o mundo 💀 betania quem se deu bem" (after a sentence's end or an emoji,
        # and again not before a verb about her: "kkk betania is on fire").
        # ... or called mid-line, a comma, a colon or a "?" after her name: "pergunta séria
        # betania: ...", "e quem acerta leva quanto, betania? pq ..."
        later = re.compile(
            rf"(?<![\w@])@{re.escape(self.handle)}\b[\s,:!]*"
            rf"|[,.!?\s]+(?:{names})\s*\?[?!.]*\s*$"
            # ... or her name after the question it closes: "do I get anything?? betania"
            rf"|(?<=\?)\s+(?:{names})\s*[!.]*\s*$"
            # ... or her name closing a question without its "?": "tô em último né bet"
            rf"|\s+(?:n[eé]|right|please|pls|pfv|aren't i|isn't it|am i|do i|did i)"
            rf"\s*,?\s+(?:{names})\s*[!.]*\s*{EMOJI}*\s*$"
            # ... or after a laugh, opening what it asks: "saí do zero kkk betania quanto
            # falta pro líder?"
            rf"|\s(?:kkk+|haha\w*|rs+|lol)\s+(?:{names})\s+(?=[^?]*\?\s*\W*$)"
            # ... or after a colon, opening what it asks of her: "bah, lembrei: betania
            # esquece meu aniversário"
            rf"|(?<=:)\s+(?:{names})\s+(?!(?:{ABOUT_HER})\b)(?=\S)"
            # ... or after a comma, before a question: "foi empate, bet isso dá pontos?"
            rf"|,\s*(?:{names})\s+(?!(?:{ABOUT_HER})\b)(?=[^?]*\?\s*\W*$)"
            rf"|[\s,]+(?:{names})\s*[:,?!]+\s+(?=\S)"
            rf"|(?<=[^\w\s,;:'\"()-])\s+(?:{names})\b(?:\s*[,:!]+)?\s+"
            rf"(?!(?:{ABOUT_HER})\b(?![^?]*\?))(?=\S)",
            re.IGNORECASE,
        )
        object.__setattr__(self, "_later", later)
        # ... or her name closing a question asked without its "?": "who's top rn betania",
        # "outcome right! where am I now betania" (the question its last sentence)
        closing = re.compile(
            rf"^(?P<before>(?:.*[.!?]\s+)?\W*(?:{QUESTION_WORD})\b[^.!?]*?"
            # (not her name as what the question is of: "quem liga pra betania")
            rf"{OF_HER})\s*,?\s+(?:{names})"
            rf"\s*[!.]*\s*{EMOJI}*\s*$",
            re.IGNORECASE,
        )
        object.__setattr__(self, "_closing", closing)

    @property
    def mention(self) -> str:
        return f"@{self.handle}"

    def after(self, text: str) -> str | None:
        """What follows her name when she is called mid-line ("2-1!! betania, quem
        lidera?"): what is asked of her, the line's start being its writer's reaction;
        None when her name opens the line or is not in it."""
        if self._pattern.match(text) is not None:
            return None
        later = self._later.search(text)
        if later is None:
            closing = self._closing.match(text)
            return None if closing is None else _last_sentence(closing["before"])
        rest = text[later.end() :].strip()
        return rest or None

    def message(self, text: str) -> str | None:
        """What a line addressed to her (``@handle ...``, or her name called: ``handle,
        ...``) says to her, or None if it is not."""
        found = self._pattern.match(text)
        if found is not None:
            # "btw betania ...": the opener before her name tells how the rest is meant
            told = TELLING.search(found["greeting"])
            return f"{told[0]} {text[found.end() :]}" if told else text[found.end() :]
        later = self._later.search(text)
        if later is None:
            closing = self._closing.match(text)
            return None if closing is None else closing["before"].strip()
        said = f"{text[: later.start()].rstrip()} {text[later.end() :]}"
        return re.sub(r"\s+(?=[?!.,]|$)", "", said).strip()


def _last_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s+", text.strip())[-1]


ACCENTED = {"a": "aáàâãä", "e": "eéèêë", "i": "iíìîï", "o": "oóòôõö", "u": "uúùûü", "c": "cç"}


def _accented(name: str) -> str:
    """A pattern of ``name`` with any accent on its letters: "betania" matches "Betânia"."""
    return "".join(
        f"[{ACCENTED[ch.lower()]}]" if ch.lower() in ACCENTED else re.escape(ch) for ch in name
    )
