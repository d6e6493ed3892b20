"""Whether a told fact claims a role or a standing in the pool ("I am the admin", "I
lead the pool"): the pool's records say who is who, so such a claim is never kept as a
player's fact, nor told again from one kept before the rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memory.naming import folded, spelled

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
    worst best pior piores melhor melhores
    boss chefe own owns owner dono dona run runs rules regras manda mando created criei criou
    champion* campea* campeo* money cash pot kitty dinheiro grana caixinha
    cheat* trapac* roub* fraud* fix* ban banned bann* banid*
""".split()  # noqa: SIM905  # a word list reads better as text
POOL = re.compile(
    r"\b(?:pools?|bolao|bolaozinho|sweepstakes?|here|aqui|daqui|the bets|as apostas|os palpites"
    r"|th(?:is|e) (?:group|chat|table)"
    r"|(?:este|esse|nesse|neste|deste|desse|o|no|do) (?:grupo|chat)|a tabela|na tabela|da tabela)\b"
)
# Another pool than this one: a past year's, a first one, another group's ("I lost my
# first bolão in 2014 by one point"): the teller's own history, not a claim here.
OTHER_POOL = re.compile(
    r"\b(?:(?:my|meu|our|nosso) (?:first|primeiro|old|antigo|last|ultimo)|another|other|outro"
    r"|last year'?s|previous|antigo|old) (?:pools?|bolao|bolaozinho|sweepstakes?)\b"
    r"|\b(?:pools?|bolao|bolaozinho)\b[^,.;:!?]*\b(?:in|em|of|de|do|da|back in) (?:19|20)\d\d\b"
    r"|\b(?:in|em) (?:19|20)\d\d\b[^,.;:!?]*\b(?:pools?|bolao)\b"
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


# The foot of the table claimed: "já não sou a última", "I'm last again", "tô na lanterna"
LAST_PLACE = re.compile(
    r"\b(?:sou|to|tou|estou|i'?m|am|fiquei|continuo|sigo)\s+(?:a |o |em |in |na |no )?"
    r"(?:ultim[oa]|last|lanterna|lanterninha)\b"
)


def claims_standing(fact: str) -> bool:
    """Whether ``fact`` claims a role or a standing in the pool: a role of ``ROLE_WORDS``
    (admin, host, treasurer, adm, responsável...), points, rank, lead, winnings or prize,
    a disqualification or a rigging; beside the pool, a lead, a win, its money or an
    accusation of cheating. A role or standing the fact places elsewhere in the same
    clause ("an admin at my company", "I work as a system administrator"; a role followed
    by a place or an object of its own, "I moderate a book club") is the teller's own
    life, kept; so is a word in another sense ("points of interest")."""
    said = OTHER_SENSE.sub("-", " ".join(folded(fact).split()))
    if LAST_PLACE.search(said):
        return True
    beside_the_pool = POOL.search(said) is not None and OTHER_POOL.search(said) is None
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
