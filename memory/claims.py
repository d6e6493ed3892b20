"""Every claim in a line checked against the log before it is posted, in code.

A model, or a rule with a bug, can say "ana leads with 999 points" or "Brazil
won 9-7". Before a remark, an answer or a diary entry is kept, ``Claims.check``
reads the claims it can recognise, in English and Portuguese, and compares each
with what the pool's records say now:

- scores ("2-1", "3 x 0"): a result of a match (full time, after extra time,
  penalties, or one since corrected), a running score of one, or somebody's pick;
- points ("ana ... 25 points", "25 pts", "diego on 24", "24 pontos para X"): a
  total, a match's or a run of matches' points of the player the text attributes
  them to (the nearest named before it in the sentence, "I"/"eu" her, "you" the
  player she speaks to by name; never one it is measured against, "2 clear of
  bruno"); when it names none, any player's, or a value of the scoring rule;
- gaps ("the gap is 3 pts", "lead by 5", "3 pontos atrás"): two totals' difference;
- picks ("went 0-1", "apostou 2-1"): a score somebody picked, not a result;
- counts of the pool's people ("all five of us", "todos os 7", "4 of 6"): the
  players with her, without her, or a match's pickers;
- leaders ("ana leads", "ana is top", "ana lidera", "ana está na frente"): a
  player at the top of the table now;
- a moment ("after match 10", "after 10 matches", "before match 5", "before the
  final", "on 13 Jun", and in Portuguese "depois do jogo 10", "após 10 jogos",
  "antes da final", "em 13 de junho", "no dia 13/06"): the points and leaders of
  the sentence that names it, and of the sentences after it until another moment
  or "now" ("agora"), are checked against the table as it stood then (after that
  match, by kick-off time; up to the end of that day by the pool's clock);
  everything else against now. A past total passes only with its moment said;
- "nobody called it" / "ninguém cravou" about a match someone called exactly;
- "everyone scored / called it / blanked" ("todo mundo pontuou / cravou / zerou")
  about a match where somebody did not;
- "again" ("de novo") with a blank or an exact score, "another exact", and "the
  last one" ("o último") with a blank, said of a player (the one whose part of the
  sentence it is in): checked against that player's matches before this one.

The first false claim is returned as a short reason, or None when nothing is
false. A claim it cannot read is not judged: the check refuses lies it can
see; it does not certify the rest.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from functools import cache, lru_cache, partial
from operator import is_not

from game import jokers
from game.addressing import EMOJI
from game.events import ChatPosted, ResultRecorded
from game.league import FINAL, champions
from game.model import Match, MatchStatus, Prediction, Result, Score, tally
from game.pool import Pool
from game.scoring import ScoreBasis, ScoringRule, Tier, classify, scored_score
from game.shares import Shares, shares, shares_of
from game.standings import played_by, top_of
from game.teams import TeamBook
from game.text import folds_as_lower
from memory import pick_spread
from memory.guard import named_at
from memory.ordinals import ORDINAL, ordinal_value

# "2-1", "2 x 1", "2\u20131", "2/1" (a small model's), and the Portuguese "2 a 1"; a
# date's "12/06/2026" is not one.
# (not a split of picks, "2-2-2")
SCORE = re.compile(
    r"(?<![\d:/.])(?<!\d-)(\d{1,2})(?:\s?(?:-|x|\u2013|/)\s?| a )(\d{1,2})(?![\d:/]|-\d)"
)
POINTS = re.compile(r"\b(\d{1,4})\s*(?:points?|pts|pontos?|pontinhos?)\b", re.IGNORECASE)
LEADS = re.compile(
    r"\b([a-z][\w.-]*)\s+(?:leads|is leading|is top|tops the table|is on top|is first"
    r"|lidera|está na frente|esta na frente|está em primeiro|segue no topo|está no topo)\b",
    re.IGNORECASE,
)
# Led, once: said of a moment ("after match 10 ana led", "depois do jogo 10 a ana
# liderava"), checked against the table then; with no moment it says no when.
LED = re.compile(
    r"\b([a-z][\w.-]*)\s+(?:led|was leading|was top|was on top|was first|was in front"
    r"|liderava|estava na frente|estava em primeiro|estava no topo|era o líder|era a líder)\b"
    r"|\b(?:it's|it was)\s+([a-z][\w.-]*)\s+on top\b",
    re.IGNORECASE,
)
NOBODY_CALLED = re.compile(
    r"\b(?:nobody|no one|not one of you) (?:called|got|had) (?:it|the exact|an exact)"
    r"|\bno exact (?:score|pick)s?\b|ningu[eé]m cravou",
    re.IGNORECASE,
)
# "Not everyone", "everyone but ana": not a claim about everyone.
EVERYONE = re.compile(
    r"(?<!not )(?<!nem )\b(?:everyone|everybody|all of you|todo mundo|todos)\b"
    r"(?!,? (?:but|except|menos|exceto)\b)(?P<said>[^.!?;,]*)",
    re.IGNORECASE,
)
ELSE = re.compile(r"\s*(?:else|mais)\b", re.IGNORECASE)  # "everyone else", "todos os mais"
ZEROS_FOR_ALL = re.compile(
    r"\bzero(?:es)? (?:for everyone|all round|para todo mundo)|\bzerou geral", re.IGNORECASE
)
# A player's first points: "his first points of the tournament", "finally off zero"
FIRST_POINTS = re.compile(
    r"\b(?:first points?|first time on the board|off (?:the mark|zero)|finally (?:on the board"
    r"|scores?|scored|gets? (?:on the board|points))|primeiros pontos|primeiro ponto"
    r"|sai[ur]? do zero|desencant\w+)\b",
    re.IGNORECASE,
)
# A player's first pick told: "started with a 3-3", "opened with 2-1", "começou com um 1-0"
OPENED_WITH = re.compile(
    r"\b(?:started (?:off |out )?(?:with|on)|opened (?:with|on)|kicked off with|first pick"
    r" (?:was|of)|comecou com|começou com|abriu com|estreou com|primeir[oa] (?:palpite|aposta)"
    r" (?:foi|de))\s+(?:(?:an?|um|uma|o|a)\s+)?(?P<home>\d{1,2})\s*[-x\u2013]\s*(?P<away>\d{1,2})\b",
    re.IGNORECASE,
)
# "Then again" is "on the other hand", not a second time.
AGAIN = re.compile(
    r"(?<!then )\b(?:again|once more|de novo|outra vez|mais uma vez)\b", re.IGNORECASE
)
_LAST = r"(?:the last one|the one before|(?:last|previous) (?:match|game)|o último|o anterior|jogo anterior)"
# "Neither was the last one", "nothing on the last one", "nem o último": the match before, blank.
LAST_BLANK = re.compile(
    rf"\b(?:neither|nor|nem)\b[^.!?;,]*\b{_LAST}|\b{_LAST}\b[^.!?;,]*"
    r"\b(?:zero|nothing|blank|nada|em branco|zerou|zerado)\b",
    re.IGNORECASE,
)
BLANK = re.compile(
    r"\b(?:zero|zeroes|nothing|blank|blanks|blanked|neither|nada|zerou|zerado|em branco|nem)\b",
    re.IGNORECASE,
)
# (not "exactly like against Japan": a likeness, no exact score)
EXACT = re.compile(
    r"\b(?:called|exact|exactly(?! (?:like|as|what|how|when|where))|cravou|cravaram|exato"
    r"|na mosca)\b",
    re.IGNORECASE,
)
SCORED = re.compile(
    r"\b(?:scored|points|got it|got something|pontuou|pontuaram|acertou|acertaram)\b",
    re.IGNORECASE,
)
# Results told in words, between two teams ("Spain beat Argentina", "o Brasil venceu a
# Sérvia") or of one ("Spain won"); ``{a}`` and ``{b}`` stand for the pool's teams.
BEAT = (
    r"{a},? (?:beat|beats|defeated|defeats|thrashed|edged|stunned|knocked out|eliminated"
    r"|won (?:against|over)|wins? (?:the (?:game|match) )?(?:against|over)|venceu|vence|bateu"
    r"|derrotou|eliminou|goleou|ganhou d[aeo]|ganha d[aeo]|passou por)(?: the| o| a)? {b}"
)
LOST = r"{a},? (?:lost to|loses to|fell to|perdeu para|perdeu d[aeo]|caiu para)(?: the| o| a)? {b}"
DREW = r"{a},? (?:drew with|draws with|tied with|held|empatou com|empata com)(?: the| o| a)? {b}"
# A fixture named: "Brazil v Paraguay", "Brazil vs. Paraguay", "Brasil x Paraguai".
MEETS = r"{a} (?:v|vs|vs\.|versus|x) {b}"
# "A victory for Mexico", "Mexico's win", "vitória do México": a result as much as "Mexico won".
WINS = (
    r"{a},? (?:won|wins|venceu|ganhou)\b(?! (?:against|over|d[aeo]|the (?:game|match)))",
    r"(?:victory|win|vit[oó]ria|triunfo) (?:for|of|d[aeo]s?) {a}",
    r"{a}'s (?:victory|win)\b",
)
# A match over: "it ended 0-1", "the game has ended", "o jogo acabou", "final whistle".
ENDED = re.compile(
    r"\b(?:ended|ends|is over|was over|full[- ]time|final (?:whistle|score)|terminou|acabou"
    r"|fim de jogo|apito final|placar final)\b",
    re.IGNORECASE,
)
NOT_YET = re.compile(r"\b(?:not|never|yet|n[aã]o|nunca|ainda|if|se|when|quando)\b|n't", re.I)
# ... or to come, in the clause that says it: "somebody will look clever at full time"
TO_COME = re.compile(r"\b(?:going to|gonna|will)\b|'ll\b", re.I)
THE_MATCH = re.compile(
    r"\b(?:the|this|that) (?:game|match)\b|\b(?:o|esse|este) jogo\b|\ba partida\b", re.I
)
# The cup won: "Brazil are champions", "Brazil lifted the cup", "o Brasil é campeão";
# with no team, "the winner of the World Cup" says as much.
CHAMPION = (
    r"{a},? (?:(?:is|are|were|was|became|é|são|foi|foram|virou) (?:the |os |o |a )?"
    r"(?:new |world |novos? )?(?:champions?|campe[aãõ]\w*)"
    r"|(?:won|wins|lifted|lifts|levou|leva|ganhou|ergueu) (?:the |a )?"
    r"(?:world cup|cup|trophy|title|taça|copa|título))"
)
CUP_WON = re.compile(
    r"\bwinners? of the (?:world cup|tournament|cup)\b|\b(?:won|wins|lifted) the (?:world cup"
    r"|tournament|trophy)\b|\bcampe[aã]o (?:do mundo|da copa)\b"
    # ("a Poland rout of the world champions": the holders, named by their title)
    r"|(?<!\bthe )(?<!\breigning )(?<!\bdefending )\bworld champions?\b",
    re.IGNORECASE,
)
# Number words, one to twenty and the tens, in both languages: "all five of us", "os cinco", "seis
# jogadores" say a count as much as "5" does. One table for every reader of numbers.
_SPELLED = (
    ("one", "um", "uma"),
    ("two", "dois", "duas"),
    ("three", "três", "tres"),
    ("four", "quatro"),
    ("five", "cinco"),
    ("six", "seis"),
    ("seven", "sete"),
    ("eight", "oito"),
    ("nine", "nove"),
    ("ten", "dez"),
    ("eleven", "onze"),
    ("twelve", "doze"),
    ("thirteen", "treze"),
    ("fourteen", "catorze", "quatorze"),
    ("fifteen", "quinze"),
    ("sixteen", "dezesseis", "dezasseis"),
    ("seventeen", "dezessete", "dezassete"),
    ("eighteen", "dezoito"),
    ("nineteen", "dezenove", "dezanove"),
    ("twenty", "vinte"),
)
NUMBER_WORDS: dict[str, int] = {w: n for n, ws in enumerate(_SPELLED, start=1) for w in ws}
# And the tens, thirty to ninety: "thirty points", "trinta pontos".
_TENS = (
    ("thirty", "trinta"),
    ("forty", "quarenta"),
    ("fifty", "cinquenta"),
    ("sixty", "sessenta"),
    ("seventy", "setenta"),
    ("eighty", "oitenta"),
    ("ninety", "noventa"),
)
NUMBER_WORDS |= {w: 10 * n for n, ws in enumerate(_TENS, start=3) for w in ws}


def number_value(word: str) -> int | None:
    """The number a word says: "5" is 5, "five" and "cinco" are 5 (one to twenty and the tens, English
    or Portuguese, any case); None for a word that is no number."""
    lowered = word.strip().lower()
    if lowered.isascii() and lowered.isdigit():
        return int(lowered)
    return NUMBER_WORDS.get(lowered)


# Who a number is said of. "I"/"me"/"eu" is her; "you", "he", "both", "each" is somebody
# the check cannot name, so the number may be anyone's.
FIRST_PERSON = re.compile(r"\bI\b|\b(?i:me|my|mine|myself|eu|meus?|minhas?|mim|comigo)\b")
SOMEBODY = re.compile(
    r"\b(?i:he|she|they|them|their|his|her|both|each|all three|vocês|voces|ele|ela|eles"
    r"|elas|ambos|ambas|cada)\b"
)
# "You" is the player she speaks to ("Take a bow, ana: ... you jump to 12 pts"), when
# she names one so; somebody she cannot name otherwise.
YOU = re.compile(r"\b(?i:you|your|you're|yours|você|voce|tu|teu|tua)\b")
# A name after these is what a figure is measured against ("2 clear of bruno", "behind
# leader fabio", "à frente de ana"), not whose figure it is; but "foi de ana" ("o dia
# foi de ana (12 pts)") is hers: the Portuguese possessive.
AGAINST = re.compile(
    r"\b(?:of|over|than|behind|beyond|(?<!\bfoi )(?<!\bé )(?<!\bera )(?:de|do|da)|que|sobre)"
    r"\s+(?:(?:the |o |a )?(?:leader|líder)\s+)?$",
    re.IGNORECASE,
)
# What a pick is worth under the pool's rule, said to a player: "is worth 5 points", "vale 7"
WORTH = re.compile(
    r"\b(?:worth|vale|valem|valia|pays?|pagam?|gives?|d[aá])\s+(?:just |only |so |só |apenas )?$",
    re.IGNORECASE,
)
# ... and what the rule gives is named right before its figure: "exact score 10 pts,
# result 5", "placar exato: 10 pontos"
RULE_NAMED = re.compile(
    r"\b(?:exact(?:\s+scores?)?|exato|placar(?:es)?\s+exatos?|cravadas?|(?:goal\s+)?difference"
    r"|saldo(?:\s+de\s+gols)?|(?:right\s+|correct\s+)?(?:result|outcome|winner)|resultado"
    r"|vencedor)\s*(?:[:=\u2013\u2014-]\s*|(?:is|é|gets?|earns?|vale)\s+)?$",
    re.IGNORECASE,
)
# ... or right after its figure: "7 in between for the right goal difference", "5 pelo
# vencedor"
RULE_AFTER = re.compile(
    r"^\s*(?:(?:points?|pts|pontos?)\s+)?(?:in between\s+|each\s+)?(?:for|por|pelo|pela)\s+"
    r"(?:(?:the|a|an|o)\s+)?(?:(?:right|correct|exact|certo|certa)\s+)?(?:acertar\s+(?:o\s+)?)?"
    r"(?:exact(?:\s+score)?|score|goal\s+difference|difference|result|outcome|winner|draw"
    r"|placar(?:\s+exato)?|saldo(?:\s+de\s+gols)?|resultado|vencedor|empate)\b"
    r"(?!\s*(?:on\s+|in\s+|no\s+|na\s+)?(?:\d|(?-i:[A-ZÀ-Ý])))",  # not one pick's: "for the exact 1-1"
    re.IGNORECASE,
)
# ... unless earned: "carla took 7 for the goal difference" is carla's
EARNED = re.compile(
    r"\b(?:took|takes?|got|gets?|earn(?:ed|s)?|scored?|scores|bag\w*|pocket\w*|grab\w*"
    r"|bank\w*|collect\w*|won|wins?|ganh\w+|lev\w+|fez|faz|somou|soma|marcou)\b"
    r"(?:\s+[^\s,;:]+){0,3}\s*$",  # (in its clause: "gets you 5, with 7 in between")
    re.IGNORECASE,
)
# ... but a figure said right after that name is theirs: "behind bia with 15 points",
# "à frente da ana, que tem 10"
OWNED_AFTER = re.compile(
    r"^\s*,?\s*(?:with|on|who has|who'?s on|now on|com|que tem|que está com|\()\s*$",
    re.IGNORECASE,
)
# A list of people: "bruno, diego and carla", "fabio e ana".
LISTED = re.compile(r"^(?:\s*,\s*|\s+(?:and|e|&|or|ou)\s+|\s*,\s*(?:and|e)\s+)$", re.IGNORECASE)
POINTS_WORD = re.compile(r"\b(?:points?|pts|pontos?)\b", re.IGNORECASE)
# "12 pts for bruno", "24 pontos para diego": the owner after the number.
FOR_WHOM = re.compile(r"^\s*(?:(?:points?|pts|pontos?)\s+)?(?:for|to|para|pra|pro)\s+$", re.I)
# A bare number said of a player: "diego on 24", "ana has 15", "bruno (19)", "eu com 12".
BARE = re.compile(
    r"(?<![\w#.:/'\u2019-])(\d{1,4})(?![\w'\u2019%:/-]|[.,]\d)"
    r"(?!\s+(?!(?:and|e|while|enquanto|but|mas|now|agora|at|in|no|na|after|depois)\b)[^\W\d_])"
)
BARE_BEFORE = re.compile(
    r"(?:\b(?:on|with|has|have|com|tem|têm|to|para)\s+|\(\s*)$",
    re.IGNORECASE,
)
# A gap between totals: "the gap is only 3 pts", "2 pts clear", "lead by 5 points", "a
# diferença é de 3 pontos", "3 pontos atrás".
GAP_BEFORE = re.compile(
    r"(?:\b(?:gap|margin|cushion|lead|diferen[çc]a|vantagem|dist[aâ]ncia)\b"
    r"(?:\s+(?!(?:with|on|com|em)\b)\S+){0,5}?"
    r"|\b(?:by|por))\s+(?:(?:only|just|a mere|só|apenas)\s+)?$",
    re.IGNORECASE,
)
GAP_AFTER = re.compile(
    r"^\s*(?:(?:points?|pts|pontos?)\s+)?(?:clear|ahead|behind|back|adrift|short|better|worse"
    r"|more|fewer|less|off the (?:top|pace|lead|podium)|(?:away )?from the podium|d[oa] p[oó]dio|à frente|a frente|na frente|atrás|atras"
    r"|de vantagem|de diferen[çc]a|a mais|a menos|to (?:make up|catch up|close)"
    r"|(?:para|pra|a|por) (?:recuperar|tirar|descontar))\b",
    re.IGNORECASE,
)
# A pick told as one: "fabio and ana both went 0-1", "bia picked 1-0", "apostou 2-1", "you
# went Brazil 2-0 against South Korea".
PICKED = re.compile(
    r"(?:\b(?:(?:went|gone)(?: for| with)?(?:\s+(?-i:[A-ZÀ-Ý])[\w.-]+){0,2}|picked|backed|tipped|called|predicted|guessed|chose"
    r"|apostou(?: n[oa]| em)?|apostaram(?: n[oa]| em)?|foi de|foram de|cravou|cravaram"
    r"|chutou|chutaram|palpitou|(?:turma|clube|galera)\s+do|picks? of|palpites? de|apostas? de)"
    r"(?:\s+(?:a|an|um|uma|o|the))?"
    r"|'s|\u2019s)\s+$",
    re.IGNORECASE,
)
# (a score naming who picked it, "the 0-0 club", is one too; "a turma do 2-1": ``PICKED``)
PICK_AFTER = re.compile(
    r"^\s*(?:picks?|palpites?|calls?|tips?|club|clube|crew|gang|crowd|camp|brigade|brigada)\b",
    re.IGNORECASE,
)
ANOTHER = re.compile(
    r"\b(?:another|yet another|mais uma?|outr[oa])\s+(?:\w+\s+)?"
    r"(?:exact|perfect|blank|zero|wipe-?out|cravada|zerada|zero|placar exato|na mosca)",
    re.IGNORECASE,
)
_N = r"(\d{1,2}|[a-zçêé]+)"
# Counts of the pool's people (and ``COUNTS`` below): "six players", "4 of 6 on zero".
PLAYERS_COUNT = re.compile(
    rf"\b{_N}\s+(?:players|pickers|of us|of you|jogadores|apostadores|participantes|de nós"
    r"|de vocês)\b",
    re.IGNORECASE,
)
N_OF_M = re.compile(
    rf"\b{_N}\s+(?:of|out of|de|dos|das)\s+(?:the\s+|os\s+|as\s+)?{_N}\b"
    r"(?=\s*(?:$|[,.;:!?)\u2014\u2013]|(?:players|pickers|jogadores|apostadores|on|in|at|are"
    r"|were|have|had|got|picked|called|went|backed|agree|no|na|em|com|est[aã]o|ficaram|t[eê]m"
    r"|apostaram|cravaram|acertaram|concordam)\b))",
    re.IGNORECASE,
)
# How a match's pickers split: "only 2 of 9 saw a draw", "3 of the 5 of you backed Brazil",
# "só 2 de 9 apostaram no empate", "2 de vocês foram de vitória do Brasil".
PICKED_SHARE = re.compile(
    r"\b(?P<part>\d{1,2}|[a-zçêé]+)\s+(?:of|out of|de|dos|das)\s+(?:the\s+|os\s+|as\s+)?"
    r"(?:(?P<whole>\d{1,2}|[a-zçêéó]+)\s+)?(?:(?:of|de)\s+(?:you|us|vocês|voces|nós)\s+)?"
    r"(?:saw|picked|backed|went for|went with|went|called|predicted|tipped|expected|bet on"
    r"|fancied|chose|(?:are|were)\s+(?:on|backing|with)|apostaram|apostou|viram|foram"
    r"|acreditaram|palpitaram|escolheram|(?:est[aá]|est[aã]o|estavam?)\s+(?:com|n[oa]))\s+"
    r"(?:(?:in|on|for|no|na|num|numa|em|pelo|pela|de)\s+)?(?:an?\s+|the\s+|o\s+|a\s+|um\s+|uma\s+)?"
    r"(?P<what>[^\W\d_][\w'\u2019.-]*(?:\s+[^\W\d_][\w'\u2019.-]*){0,4})",
    re.IGNORECASE,
)
# A side's backers counted: "both Spain backers", "all three Brazil pickers", "os dois
# apostadores da Espanha", "neither France pick"; "both" and "neither" are two, with her
# or without
BACKERS = re.compile(
    r"\b(?:(?P<both>both|neither|ambos\s+os|os\s+dois|as\s+duas)|(?:all|the|todos\s+os|os)\s+"
    r"(?P<part>\d{1,2}|[a-zçêé]+))\s+(?:(?P<what>[^\W\d_][\w'\u2019.-]*(?:\s+[^\W\d_]"
    r"[\w'\u2019.-]*){0,2}?)\s+(?:backers|pickers|believers|picks?)\b|(?:apostadores|que\s+apostaram)"
    r"\s+(?:d[aeo]|n[aeo])\s+(?P<team>[^\W\d_][\w'\u2019.-]*(?:\s+[^\W\d_][\w'\u2019.-]*)"
    r"{0,2}))"
    # ("the two Brazil backers who kept Serbia out", "in the top two": some of them)
    r"(?!\s+(?:who|that|whose|in|on|with|at|among|que|entre)\b)",
    re.IGNORECASE,
)
DRAW_NAMED = re.compile(r"^(?:draw|tie|empate)\b", re.IGNORECASE)
WIN_OF = re.compile(r"^(?:(?:vit[oó]ria|triunfo)\s+d[aeo]s?|(?:win|victory)\s+for)\s+", re.I)
NOT_A_COUNT = frozenset({"one", "um", "uma"})
SIDE_WIN = {"home win": 1, "away win": -1, "vitória do mandante": 1, "vitória do visitante": -1}
# A moment a sentence is about. "after match 10", "depois do jogo 10": the table once
# #10 was over; "after 10 matches", "depois de 10 jogos": once ten were; "before match
# 5", "before the final": just before it kicked off; a day: once that day was over.
_NO = r"(?:#\s*|n[º°o]\.?\s*|no\.\s*)?"
AFTER_MATCH = re.compile(
    rf"\b(?:after|once|by the end of)\s+(?:(?:match|game)\s+{_NO}|#\s*)(\d{{1,3}})\b"
    rf"|\b(?:depois|ap[oó]s|apos)\s+(?:d?o\s+)?(?:(?:jogo|partida)\s+{_NO}|#\s*)(\d{{1,3}})\b",
    re.IGNORECASE,
)
AFTER_MATCHES = re.compile(
    rf"\b(?:after|through)\s+(?:the\s+first\s+)?{_N}\s+(?:match(?:es)?|games?)\b"
    rf"|\b(?:depois\s+de|ap[oó]s|apos)\s+(?:os?\s+primeiros?\s+)?{_N}\s+(?:jogos?|partidas?)\b",
    re.IGNORECASE,
)
BEFORE_MATCH = re.compile(
    rf"\bbefore\s+(?:(?:match|game)\s+{_NO}|#\s*)(\d{{1,3}})\b"
    rf"|\bantes\s+d[oa]\s+(?:(?:jogo|partida)\s+{_NO}|#\s*)(\d{{1,3}})\b",
    re.IGNORECASE,
)
BEFORE_FINAL = re.compile(r"\bbefore\s+the\s+final\b|\bantes\s+da\s+final\b", re.IGNORECASE)
MONTHS = {
    **dict.fromkeys(("jan", "january", "janeiro"), 1),
    **dict.fromkeys(("feb", "february", "fev", "fevereiro"), 2),
    **dict.fromkeys(("mar", "march", "março", "marco"), 3),
    **dict.fromkeys(("apr", "april", "abr", "abril"), 4),
    **dict.fromkeys(("may", "mai", "maio"), 5),
    **dict.fromkeys(("jun", "june", "junho"), 6),
    **dict.fromkeys(("jul", "july", "julho"), 7),
    **dict.fromkeys(("aug", "august", "ago", "agosto"), 8),
    **dict.fromkeys(("sep", "sept", "september", "set", "setembro"), 9),
    **dict.fromkeys(("oct", "october", "out", "outubro"), 10),
    **dict.fromkeys(("nov", "november", "novembro"), 11),
    **dict.fromkeys(("dec", "december", "dez", "dezembro"), 12),
}
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
# "on 13 Jun", "on June 13", "by 13 June", "em 13 de junho", "no dia 13/06", "até 13/6".
ON_DAY = re.compile(
    # "by 2 out of 7" is no 2 October, and "on 2/1" may be a score: a day in figures only
    # after "no dia" or "até".
    rf"\b(?:on|by|em|no dia|até|ate)\s+(?:(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+de)?\s+"
    rf"(?P<m>{_MONTH})\b(?!\s+of\b)\.?"
    rf"|(?P<m2>{_MONTH})\.?\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\b)"
    r"|\b(?:no dia|até|ate)\s+(?P<d3>\d{1,2})/(?P<m3>\d{1,2})(?![\d/])",
    re.IGNORECASE,
)
# A span of days, no score: "10-11 Dec", "10/11 de dezembro", "December 10-11", "the
# weekend of 10-11", "dias 10 a 11". (A short month that is also a word needs "de":
# "won 2-1 out there", "2-1 may do", "virou 4-2 dez minutos depois" are scores.)
_WORD_MONTHS = ("out", "set", "mar", "may", "march", "dez")
_SPAN_MONTH = "|".join(m for m in sorted(MONTHS, key=len, reverse=True) if m not in _WORD_MONTHS)
DAY_SPAN = re.compile(
    rf"\b\d{{1,2}}\s?(?:-|\u2013|/| a | to )\s?\d{{1,2}}(?:st|nd|rd|th)?"
    rf"(?:(?:\s+of)?\s+(?:{_SPAN_MONTH})|\s+de\s+(?:{_MONTH}))\b"
    rf"|\b(?:{_SPAN_MONTH})\.?\s+\d{{1,2}}\s?(?:-|\u2013| to )\s?\d{{1,2}}\b"
    r"|\b(?:weekend of|fim de semana d[eo]|dias|days)\s+\d{1,2}\s?(?:-|\u2013|/| a | to | e | and )"
    r"\s?\d{1,2}\b",
    re.IGNORECASE,
)


def without_dates(text: str) -> str:
    """``text`` with its dates blanked, so a day ("on 13/6", "10-11 Dec") is read as no score."""
    return DAY_SPAN.sub(" ", ON_DAY.sub(" ", text))


# A moment before a match began: "before kick-off", "pre-match", "antes do apito inicial"
BEFORE_KICKOFF = re.compile(
    r"\b(?:before (?:the )?kick[- ]?off|pre-?match|pre-?game|before (?:the (?:match|game) "
    r"(?:started|began|even started)|a ball was kicked)|antes do (?:jogo|apito inicial|pontap[eé] de sa[ií]da"
    r"|in[ií]cio)|antes de o jogo come[cç]ar|antes de come[cç]ar)\b",
    re.IGNORECASE,
)
QUOTE_LETTERS = 4  # a quote shorter than this ("ok") names no one line


def unstopped(text: str) -> str:
    """``text`` with the stops inside quotes as commas, letter for letter: a player's
    "3-3. i cant breathe!!" ends no sentence of hers."""
    return QUOTED.sub(lambda quote: re.sub(r"[.!?;\u2026]", ",", quote[0]), text)


def _plain(text: str) -> str:
    """``text`` as compared for a quote: lowercase, its words one space apart."""
    return " ".join(re.findall(r"\w+", text.lower()))


# What brings a text back from a moment to the table as it stands.
NOW = re.compile(r"\b(?:now|today|currently|at the moment|agora|hoje|atualmente)\b", re.IGNORECASE)
Moment = tuple[str, int]  # ("up to", #N): after #N; ("before", #N): just before #N
# Where a sentence's clauses part: ", but", ", and", "; ", ", mas"
# A clause of its own about someone named before it: "diego with 12 points, the man who
# had zero after three games"
CLAUSE = re.compile(
    r",\s*(?=(?:the (?:man|woman|one|player|guy|girl|lad) (?:who|that)|who|que|o que|a que"
    r"|aquele que|aquela que)\b)"
)
NOW_CLAUSE = re.compile(r",\s*(?=(?:but|mas|and|e|while|enquanto|yet|porém|porem)\b)|;\s*")

QUOTED = re.compile(r'"[^"]*"|\u201c[^\u201d]*\u201d')
SENTENCE = re.compile(r"[^.!?;]+[.!?;]?")


@dataclass
class Records:
    """What the pool's log says now, gathered once per check."""

    scores: set[tuple[int, int]] = field(default_factory=set)
    points: dict[str, set[int]] = field(default_factory=dict)  # player -> totals, match points
    rule: set[int] = field(default_factory=set)
    tiers: tuple[int, int, int] = (0, 0, 0)  # the rule's exact, goal difference, outcome
    leaders: set[str] = field(default_factory=set)
    called: dict[int, set[str]] = field(default_factory=dict)  # match -> exact pickers
    players: dict[str, str] = field(default_factory=dict)
    # player -> (match, points, exact) for each finished match they picked, in time order
    record: dict[str, list[tuple[int, int, bool]]] = field(default_factory=dict)
    # match -> player -> (points, exact): the same records, looked up by match
    picks: dict[int, dict[str, tuple[int, bool]]] = field(default_factory=dict)
    # {team1, team2} -> each meeting's (winner, level at the end of play), finished or
    # as it stands while live ("" wins a level one)
    meetings: dict[frozenset[str], list[tuple[str, bool]]] = field(default_factory=dict)
    pairs: set[frozenset[str]] = field(default_factory=set)  # the two teams of each match
    # what the matches are called by: stages, groups, venues, scorers ("" for none)
    names: set[str] = field(default_factory=set)
    figures: set[int] = field(default_factory=set)  # ranks, counts, minutes, match numbers
    matches: dict[int, Match] = field(default_factory=dict)  # the pool's, as read with the rest
    results: set[tuple[int, int]] = field(default_factory=set)  # what finished matches ended
    champion: str | None = None  # a cup's final's winner, a league's top: game.league.champions
    totals: dict[str, int] = field(default_factory=dict)  # player -> points in the table now
    ranks: dict[str, int] = field(default_factory=dict)  # player -> place in it (ties share one)
    # player -> points as the live table counts them, while a match is in play
    live: dict[str, int] = field(default_factory=dict)
    picked: set[tuple[int, int]] = field(default_factory=set)  # every pick, both ways
    pickers: dict[int, set[str]] = field(default_factory=dict)  # match -> who picked it
    # match -> how everyone picked it, and everyone but her: only matches kicked off
    shares: dict[int, tuple[Shares, Shares]] = field(default_factory=dict)
    me: str = ""  # her handle when she plays in the pool: whom "I" and "eu" name
    # player -> the score of their first pick, of the first match they picked that kicked off
    openers: dict[str, tuple[int, int]] = field(default_factory=dict)
    placed: dict[int, list[Prediction]] = field(default_factory=dict)  # match -> its picks

    def spans(self, handle: str) -> set[int]:
        """What ``handle`` can be said to have: a total, a match's points, or the points of
        a run of matches in a row ("15 points on 14 Jun": 10 and 5 that day)."""
        running = [0]
        for _, points, _ in self.record.get(handle, []):
            running.append(running[-1] + points)
        # A run from the first match is a total as it stood then: said only with its
        # moment ("after match 10"), which checks it against the records of then.
        runs = {b - a for i, a in enumerate(running) for b in running[i + 1 :] if i > 0}
        return self.points.get(handle, set()) | runs

    def gaps(self, among: Collection[str] = ()) -> set[int]:
        """Every difference of two totals: between two of ``among`` when it names two or
        more, between ``among``'s one and anyone (or any two when empty); and of one named
        player's own totals over time (match points added up)."""
        totals = self.totals or {h: 0 for h in self.players}
        mine = [h for h in among if h in totals] or list(totals)
        # Two players named ("caio sits 10 clear of diego"): the gap is between them.
        others = mine if len(mine) > 1 else list(totals)
        found = {abs(totals[a] - totals[b]) for a in mine for b in others}
        # ... and as the live table counts them ("1 point behind, the match as it stands")
        found |= {
            abs(self.live[a] - self.live[b])
            for a in mine
            for b in others
            if a in self.live and b in self.live
        }
        if len(mine) != 1:
            return found
        for handle in mine:  # one player's own climb: "up 15 points in two matches"
            running = [0]
            for _, points, _ in self.record.get(handle, []):
                running.append(running[-1] + points)
            found |= {abs(a - b) for a in running for b in running}
        return found

    def counts(self, us: bool | None) -> set[int]:
        """How many the pool's people are: with her for "us", without her for "you"; or
        a match's pickers ("all 2 of you picked against it")."""
        found: set[int] = set()
        # She is one of "us" and none of "you"; when she picks nothing in the pool (no
        # handle of hers among the players), "us" is them and her.
        for people in [set(self.players), *self.pickers.values()]:
            with_her, without = len(people | {self.me or "\0her"}), len(people - {self.me})
            found |= {with_her} if us else {without} if us is False else {with_her, without}
        return found

    def numbers(self) -> set[int]:
        """Every number the records hold: what a line may say without a context giving it."""
        found = set(self.rule) | self.figures | {n for s in self.scores for n in s}
        found |= {count * self.tiers[0] for count in self.left() if count}  # "40 still to win"
        return found | {n for points in self.points.values() for n in points} | MATCH_MINUTES

    def left(self) -> set[int]:
        """How many matches are still to play: of the pool, or but the one in play, or of
        a stage of it ("two games left", "the last four of the knock-outs")."""
        unfinished = [m for m in self.matches.values() if m.result is None]
        stages = {m.stage for m in unfinished}
        # (the one in play only while one is: "one game left" the night before two is not)
        playing = any(m.status is MatchStatus.LIVE for m in unfinished)
        left = {len(unfinished), len(unfinished) - 1 if playing else len(unfinished)}
        return left | {sum(1 for m in unfinished if m.stage == stage) for stage in stages}

    def to_play(self) -> set[int]:
        """The points a player can still win: an exact score on every match left, or on
        some of them ("up to 40 points still on the table" with four to play, "10 up for
        grabs tonight")."""
        return {count * self.tiers[0] for count in range(1, max(self.left(), default=0) + 1)}

    def on(self, match: int) -> dict[str, tuple[int, bool]]:
        """Who picked ``match``: their points and whether they called it exactly."""
        return self.picks.get(match, {})

    def before(self, handle: str, match: int) -> tuple[int, bool] | None:
        """``handle``'s points (and exactness) on the match they picked before ``match``."""
        played = self.record.get(handle, [])
        numbers = [number for number, _, _ in played]
        if match not in numbers or numbers.index(match) == 0:
            return None
        _, points, exact = played[numbers.index(match) - 1]
        return points, exact


# What every pick's points are scored by: the players, the jokers, the rule and its
# basis, and each match's kick-off time and result.
_PickedKey = tuple[
    tuple[str, ...],
    frozenset[tuple[str, int]],
    ScoringRule,
    ScoreBasis,
    tuple[tuple[int, datetime, Result | None], ...],
]


@dataclass
class _Picked:
    """The records' part the picks make, scored against the results: built from one tuple
    of every pick (``source``) and the rest ``key`` names; shared, never changed after."""

    source: tuple[Prediction, ...]
    key: _PickedKey
    scores: set[tuple[int, int]] = field(default_factory=set)
    picked: set[tuple[int, int]] = field(default_factory=set)
    pickers: dict[int, set[str]] = field(default_factory=dict)
    points: dict[str, list[int]] = field(default_factory=dict)  # match points, in order
    record: dict[str, list[tuple[int, int, bool]]] = field(default_factory=dict)
    picks: dict[int, dict[str, tuple[int, bool]]] = field(default_factory=dict)
    called: dict[int, set[str]] = field(default_factory=dict)
    on: dict[int, list[Prediction]] = field(default_factory=dict)
    # handle -> their picks of finished matches in time order (number, home, away), their
    # record (number, points, exactness) and their points: what a pick of a match still to
    # play leaves as it was, so the next records share them (never changed, as the rest)
    players: dict[str, _Record] = field(default_factory=dict)


_Done = tuple[Prediction, ...]  # a player's picks of finished matches
_Scored = tuple[int, int, bool]  # a pick's match, its points and whether it was exact
_Record = tuple[_Done, list[_Scored], list[int]]  # a player's: their picks, record, points
_Earned = tuple[Result, dict[tuple[int, int, bool], tuple[int, bool]]]  # a match's, by pick
_Split = tuple[Shares, Shares]  # how a match was picked: by everyone, by all but her


class Claims:
    def __init__(self, pool: Pool, me: str = "") -> None:
        self.pool = pool
        self.me = me  # her handle: "I've earned 12 pts" is checked as hers when she plays
        self._kept: tuple[tuple[int, int], Records] | None = None  # at one moment of the pool
        self._results: set[tuple[int, int]] = set()  # every score a result event has said
        self._results_seen = 0  # the last result event read into them
        self._ended: list[Result | None] | None = None  # the matches' results read with them
        self._scored: _Picked | None = None  # every pick scored, kept while nothing it reads moves
        # every pick spread out, moved on while the players and kick-offs stand
        self._spread: pick_spread.Spread | None = None
        # match -> its picks, her handle and how they split, while its picks stay the same
        self._splits: dict[int, tuple[list[Prediction], str, _Split]] = {}
        # What a pick earns, by match: its result, and (home, away, joker) -> (points,
        # exact), under the rule and basis named; a pick is scored once per result.
        self._earned: tuple[tuple[ScoringRule, ScoreBasis], dict[int, _Earned]] | None = None
        self._tallies: list[_Tally] = []  # what the matches told, by runs, as read last

    def records(self) -> Records:
        """What the pool's log says now: built once per moment of the pool (until the next
        event that is not talk, or the next kick-off), so every text of a moment and its
        retries share them. Nothing reading them may change them."""
        # Seen before the reads, so never older than the records; and how the pool picked
        # a match is told from its kick-off on, which the clock reaches with no event.
        state = self.pool.state_mark()
        now = self.pool.clock()
        matches = self.pool.matches()  # read after the mark: no older than it, read once
        moment = (state, sum(1 for m in matches if m.has_started(now)))
        kept = self._kept
        if kept is not None and kept[0] == moment:
            return kept[1]
        found = self._read(now, matches)
        if self._kept is None or self._kept[0] < moment:
            self._kept = (moment, found)
        return found

    def _read(self, now: datetime, read: list[Match]) -> Records:
        found = Records()
        rule, basis = self.pool.scoring()
        found.rule = {rule.exact, rule.difference, rule.outcome, 0}
        found.tiers = (rule.exact, rule.difference, rule.outcome)
        found.players = self.pool.names()
        found.me = self.me if self.me in found.players else ""
        matches = found.matches = {m.number: m for m in read}
        tallies = self._tallied(read)
        found.scores = set().union(*[t.scores for t in tallies])
        found.pairs = set().union(*[t.pairs for t in tallies])
        found.names = set().union(*[t.names for t in tallies])
        found.figures = set().union(*[t.figures for t in tallies])
        found.results = set().union(*[t.results for t in tallies])
        for told in tallies:
            for pair, meeting in told.meetings:
                found.meetings.setdefault(pair, []).append(meeting)
        finished = sum(1 for m in matches.values() if m.result is not None)
        if matches and finished == len(matches):
            decided = champions(matches.values())
            found.champion = decided[0] if decided else None
        found.figures |= {len(found.players), len(matches), finished}
        self._read_results(read)
        found.scores |= self._results
        table = self.pool.standings()
        if table and table[0].points > 0:
            found.leaders = set(top_of(table))
        for row in table:
            found.points.setdefault(row.player, set()).add(row.points)
            found.totals[row.player] = row.points
            found.ranks[row.player] = row.rank
            found.figures.add(row.rank)
        screen = self.pool.live_table()
        if screen.in_play:  # the live table every screen shows: its totals are true too
            live = screen.rows
            if live and live[0].points > 0:
                found.leaders |= set(top_of(live))
            for row in live:
                found.points.setdefault(row.player, set()).add(row.points)
                found.figures.add(row.rank)
                found.live[row.player] = row.points
        picked = self._picked(found, rule, basis)
        found.scores |= picked.scores
        found.picked, found.pickers = picked.picked, picked.pickers
        found.record, found.picks, found.called = picked.record, picked.picks, picked.called
        found.placed = picked.on
        for handle, earned in picked.points.items():
            found.points.setdefault(handle, set()).update(earned)
        for _, number in sorted((m.kickoff, n) for n, m in matches.items() if m.has_started(now)):
            for pick in picked.on.get(number, []):
                found.openers.setdefault(pick.handle, (pick.score.home, pick.score.away))
        for number, picks in picked.on.items():
            split = self._split(matches.get(number), picks, found.me, now)
            if split is not None:  # hidden before kick-off, counted or not
                found.shares[number] = split
        return found

    def _read_results(self, read: list[Match]) -> None:
        """Every result ever recorded, corrected ones too ("Correction: 2-0, not 1-0"):
        the log only grows, so the results since the last look are read, added to those
        before. A result recorded has its match read again, with a new result: while
        every match's result is the one read last time, none was recorded since."""
        ended = [m.result for m in read]
        kept = self._ended
        if kept is not None and len(ended) == len(kept) and not any(map(is_not, ended, kept)):
            return
        for item in self.pool.events_of(ResultRecorded, after_id=self._results_seen):
            said = " ".join(
                s for s in (item.event.full_time, item.event.extra_time, item.event.penalties) if s
            )
            for a, b in SCORE.findall(f"{said} {item.event.previous or ''}"):
                self._results |= {(int(a), int(b)), (int(b), int(a))}
            self._results_seen = max(self._results_seen, item.id)
        self._ended = ended

    def _tallied(self, read: list[Match]) -> list[_Tally]:
        """What ``read``'s matches tell the records, added up by runs of ``TALLIED``: a
        run the pool has not read again is the same matches (``Pool.matches``), told apart
        by identity, so a goal tells its match's run again, not every match."""
        kept, found = self._tallies, []
        for place, start in enumerate(range(0, len(read), TALLIED)):
            run = read[start : start + TALLIED]
            known = kept[place] if place < len(kept) else None
            if (
                known is None
                or len(known.matches) != len(run)
                or any(map(is_not, known.matches, run))
            ):
                known = _tally(run)
            found.append(known)
        self._tallies = found
        return found

    def _split(
        self, match: Match | None, picks: list[Prediction], me: str, now: datetime
    ) -> _Split | None:
        """How the pool picked ``match`` (None before its kick-off), counted again only
        when its picks change: most moments come with picks of matches still to play."""
        if match is None:
            return None
        known = self._splits.get(match.number)
        # The picks compared last: a match still to play is counted afresh anyway.
        if known is not None and known[1] == me and match.has_started(now) and known[0] == picks:
            return known[2]
        everyone = shares_of(match, picks, now)
        if everyone is None:
            return None
        split = (everyone, shares(p for p in picks if p.handle != me))
        self._splits[match.number] = (picks, me, split)
        return split

    def _picked(self, found: Records, rule: ScoringRule, basis: ScoreBasis) -> _Picked:
        """Every pick scored: the same while no pick, result, kick-off time, player or
        rule changes (a goal in a match changes none of them), so kept until one does."""
        every = self.pool.all_predictions()  # the same tuple while no pick changes
        jokered = self.pool.all_jokers()  # a joker's pick earns twice, as in the table
        matches = found.matches
        key = (
            tuple(found.players),
            jokered,
            rule,
            basis,
            tuple([(m.number, m.kickoff, m.result) for m in matches.values()]),
        )
        kept = self._scored
        if kept is not None and kept.source is every and kept.key == key:
            return kept
        spread = self._spread_of(every, found.players, matches)
        picked = _Picked(
            every,
            key,
            scores=spread.scores,
            picked=spread.picked,
            pickers=spread.pickers,
            on=spread.on,
        )
        finished = {number for number, m in matches.items() if m.result is not None}
        before = _standing(kept, key)
        if (
            kept is not None
            and kept.key == key
            and spread.base is kept.source
            and spread.moved is not None
            and spread.moved.isdisjoint(finished)
        ):
            # Only picks of matches still to play changed: every player's record stands,
            # and what is gathered from them.
            picked.players = kept.players
            _share(kept, picked)
            self._scored = picked
            return picked
        earned = self._earned_by_match(rule, basis, matches, finished)
        added: dict[str, list[_Scored]] = {}  # handle -> their record's new end
        whole = not before
        for handle in found.players:
            # A pick that stands is the same object from read to read (Pool.all_predictions):
            # the picks compared are mostly compared by identity.
            said = tuple([p for p in spread.mine.get(handle, ()) if p.match_number in finished])
            known = before.get(handle)
            if known is not None and known[0] == said:
                pass  # their record as it was
            elif known is not None and said[: len(known[0])] == known[0]:
                # The matches just finished come after those before (most results): the
                # record before stands, with theirs added at its end.
                more = _scored(handle, said[len(known[0]) :], earned, jokered, rule, basis)
                known = (said, known[1] + more, known[2] + [points for _, points, _ in more])
                added[handle] = more
            else:
                record = _scored(handle, said, earned, jokered, rule, basis)
                known = (said, record, [points for _, points, _ in record])
                whole = True
            picked.players[handle] = known
        if kept is not None and not whole:
            # Every record as it was, or added to at its end: what is gathered from them
            # is kept's, with the ends added (a match's picks and exact callers).
            _share(kept, picked)
            _add(picked, added)
            self._scored = picked
            return picked
        for handle, known in picked.players.items():
            said = known[0]
            if not said:  # no pick of a finished match: no points, no record
                continue
            _, record, picked.points[handle] = known
            picked.record[handle] = record
            for number, points, exact in record:
                picked.picks.setdefault(number, {})[handle] = (points, exact)
                if exact:
                    picked.called.setdefault(number, set()).add(handle)
        self._scored = picked
        return picked

    def _spread_of(
        self, every: tuple[Prediction, ...], players: dict[str, str], matches: dict[int, Match]
    ) -> pick_spread.Spread:
        """``every`` pick spread out for ``players``, moved on from the last spread by the
        picks that changed (a result changes none of it)."""
        key = (tuple(players), tuple([(m.number, m.kickoff) for m in matches.values()]))
        kept = self._spread
        if kept is None or kept.source is not every or kept.key != key:
            order = {m.number: Match.time_order(m) for m in matches.values()}
            self._spread = kept = pick_spread.spread(every, tuple(players), order, key, kept)
        return kept

    def _earned_by_match(
        self,
        rule: ScoringRule,
        basis: ScoreBasis,
        matches: dict[int, Match],
        finished: set[int],
    ) -> dict[int, _Earned]:
        """Each finished match's result and what its picks earned, as scored so far: kept
        while the rule, the basis and the match's result stay the same."""
        kept = self._earned
        if kept is None or kept[0] != (rule, basis):
            kept = self._earned = ((rule, basis), {})
        by_match = kept[1]
        found: dict[int, _Earned] = {}
        for number in finished:
            result = matches[number].result
            assert result is not None  # ``finished``: matches with a result
            known = by_match.get(number)
            if known is None or known[0] != result:
                known = by_match[number] = (result, {})
            found[number] = known
        return found

    def check(
        self,
        text: str,
        match: int | None = None,
        records: Records | None = None,
        sure: Collection[int] = (),
    ) -> str | None:
        """The first false claim in ``text`` as a reason ("score 9-7: no such score"), or None;
        against ``records`` when the caller has just read them. ``sure``: points its writer
        declared whose they are, and were found true (``memory.declared``): not guessed at."""
        records = records or self.records()
        told = self._quoted_before(text, records, match)
        if told is not None:
            return told
        text = QUOTED.sub('""', text)  # a player's words, quoted, are theirs, not her claims
        text = DAY_SPAN.sub(" ", text)  # "your 10-11 Dec trip": days, no score of any rule
        for home, away in ((int(a), int(b)) for a, b in SCORE.findall(without_dates(text))):
            if (home, away) not in records.scores:
                return f"score {home}-{away}: no result, running score or pick says so"
        told = (
            _counts(text, records)
            or _picks(text, records)
            or _shares(text, records, match)
            or _split_ways(text, records, match)
        )
        if told is not None:
            return told
        sentences = SENTENCE.findall(text)
        addressed = spoken_to(text, records)
        # "ana led after match 1 with 10, but bia has 15 now": a moment and "now", each its
        # clause's; read apart
        # ... and so does a moment said in a later clause ("the day belonged to diego with
        # 12 points, the man who had zero after three games"): each clause its own, the
        # ones before it as the sentence before had them
        sentences = [
            part
            for sentence in sentences
            for part in (
                (NOW_CLAUSE if NOW.search(sentence) else CLAUSE).split(sentence)
                if _moments(sentence, records)
                else [sentence]
            )
        ]
        speaks_points = bool(POINTS_WORD.search(text))
        then: dict[Moment, Records] = {}  # each moment's records, built once per check
        moments: list[Moment] = []
        for sentence in sentences:
            said = _moments(sentence, records)
            moments = said or ([] if NOW.search(sentence) else moments)
            views = [self._then(records, m, then) for m in moments] or [records]
            # True at any moment the sentence names ("from 5 after #3 to 9 after #6").
            told = None
            for view in views:
                told = _table_claims(sentence, view, speaks_points, addressed, bool(moments), sure)
                if told is None:
                    break
            if told is not None:
                return told
        told = self._shared_once(text, records, addressed, then)
        if told is not None:
            return told
        # what a place said kept is kept since: before the match the line is about (an
        # answer's "you stay 5th", the last match played)
        kept_since = partial(self._played_before, records, match or _last_played(records), then)
        told = (
            _results(text, records, match)
            or _ended(text, records, match)
            or _opened(text, records, addressed)
            or _in_a_row(text, records, addressed)
            or _best_day(text, records, addressed)
            or _day_next_to(text, records)
            or _bottom(text, records, addressed, lambda: self._played_before(records, match, then))
            or _stays_placed(text, records, addressed, kept_since, match)
            or _off_podium(text, records, addressed)
            or _podium_kept(text, records, addressed, kept_since)
            or _only_exact(text, records)
            or _ladder(text, records, addressed)
            or _team_goals(text, records)
            or _penalties(text, records, match)
            or _goals_within(text, records, match)
            or _exact_until(text, records, match)
            or _off_difference(text, records, match)
            or _draw_worth(text, records)
        )
        if told is not None:
            return told
        if match is None:
            return None
        if NOBODY_CALLED.search(text) and records.called.get(match):
            return f"nobody: {', '.join(sorted(records.called[match]))} called #{match} exactly"
        return _everyone(text, records, match) or _before(text, records, match)

    def _quoted_before(self, text: str, records: Records, match: int | None) -> str | None:
        """A player's words quoted as said before the kick-off of the match a line is
        about ("carla's 'ouvi dizer 4-0' before kick-off"): a chat line holding them came
        before it (a line the chat does not hold is the quote rule's)."""
        if match is None or match not in records.matches:
            return None
        kickoff = records.matches[match].kickoff
        for sentence in SENTENCE.finditer(unstopped(text)):
            said_when = BEFORE_KICKOFF.search(sentence[0])
            quotes = list(QUOTED.finditer(text, sentence.start(), sentence.end()))
            if said_when is None or not quotes:
                continue
            # the quote "before kick-off" is said of: the nearest to it
            start, end = sentence.start() + said_when.start(), sentence.start() + said_when.end()
            quote = min(
                quotes, key=lambda q: q.start() - end if q.start() >= end else start - q.end()
            )[0]
            words = _plain(quote[1:-1])
            if len(words) < QUOTE_LETTERS:
                continue
            said = [
                item.at
                for item in self.pool.events_of(ChatPosted)
                if words in _plain(item.event.text)
            ]
            if said and min(said) >= kickoff:
                return (
                    f"quote {quote}: said at {min(said):%H:%M}, after #{match} kicked off"
                    f" at {kickoff:%H:%M}"
                )
        return None

    def _shared_once(
        self, text: str, records: Records, addressed: str, known: dict[Moment, Records]
    ) -> str | None:
        """A lead said shared in the past with no moment named ("fabio, who shared it with
        me"): after some match played, the table ranked its players level at the top."""
        played = [m.number for m in records.matches.values() if m.result is not None]
        for sentence in SENTENCE.findall(text):
            if _moments(sentence, records):
                continue  # a moment named: read against it, as said
            for whose, past in _shared_said(sentence, records, addressed):
                if not past or len(whose) < 2:
                    continue
                views = (self._then(records, ("up to", n), known) for n in played)
                if not any(len(v.leaders) > 1 and whose <= v.leaders for v in views):
                    return f"shared lead: {', '.join(sorted(whose))} never led level"
        return None

    def _played_before(
        self, now: Records, match: int | None, known: dict[Moment, Records]
    ) -> Records | None:
        """The records just before ``match`` kicked off, when it is over: what the table
        was before a line about it says it changed."""
        if match is None or match not in now.matches or now.matches[match].result is None:
            return None
        return self._then(now, ("before", match), known)

    def _then(self, now: Records, moment: Moment, known: dict[Moment, Records]) -> Records:
        """The records as they stood at ``moment``: the table then (its totals, its
        leaders), and the matches counted then; the rest as now."""
        if moment in known:
            return known[moment]
        kind, number = moment
        kickoffs = {m.number: m.kickoff for m in now.matches.values()}
        counted = played_by(kickoffs, number, inclusive=kind == "up to")
        if kind == "up to":
            table = self.pool.standings(up_to_match=number)
        else:
            table = self.pool.standings(before_match=number)
        record = {h: [r for r in rs if r[0] in counted] for h, rs in now.record.items()}
        points = {h: {p for _, p, _ in rs} for h, rs in record.items()}
        for row in table:
            points.setdefault(row.player, set()).add(row.points)
        found = known[moment] = replace(
            now,
            points=points,
            leaders=set(top_of(table)),
            totals={r.player: r.points for r in table},
            ranks={r.player: r.rank for r in table},
            record=record,
            picks={n: p for n, p in now.picks.items() if n in counted},
            called={n: c for n, c in now.called.items() if n in counted},
        )
        return found


def _earned(
    score: Score, result: Result, rule: ScoringRule, basis: ScoreBasis, joker: bool
) -> tuple[int, bool]:
    """What a pick of ``score`` earned on ``result`` (a joker's twice, as in the table),
    and whether it was exact."""
    tier = classify(score, scored_score(result, basis))
    return jokers.earned(rule.points(tier), joker), tier is Tier.EXACT


def _scored(
    handle: str,
    picks: tuple[Prediction, ...],
    earned: dict[int, _Earned],
    jokered: Collection[tuple[str, int]],
    rule: ScoringRule,
    basis: ScoreBasis,
) -> list[_Scored]:
    """``handle``'s ``picks`` of finished matches scored, each pick once per result."""
    record = []
    for prediction in picks:
        number, score = prediction.match_number, prediction.score
        result, by_pick = earned[number]
        pick = (score.home, score.away, (handle, number) in jokered)
        got = by_pick.get(pick)
        if got is None:
            got = by_pick[pick] = _earned(score, result, rule, basis, pick[2])
        record.append((number, *got))
    return record


def _standing(kept: _Picked | None, key: _PickedKey) -> dict[str, _Record]:
    """Each player's record ``kept`` holds, when it still stands for ``key``: the same
    players, jokers, rule and kick-off times, and no result changed but those of matches
    just finished (a result corrected changes the points of picks scored before)."""
    if kept is None:
        return {}
    if kept.key == key:
        return kept.players
    if kept.key[:4] != key[:4]:
        return {}
    matches_before, matches_now = kept.key[4], key[4]
    if len(matches_before) != len(matches_now):
        return {}
    for (number, kickoff, result), now in zip(matches_before, matches_now, strict=True):
        if number != now[0] or kickoff != now[1] or (result is not None and result != now[2]):
            return {}
    return kept.players


def _share(kept: _Picked, picked: _Picked) -> None:
    """``picked`` gathers from its players' records what ``kept`` did: theirs as they were."""
    picked.points, picked.record = kept.points, kept.record
    picked.picks, picked.called = kept.picks, kept.called


def _add(picked: _Picked, added: dict[str, list[_Scored]]) -> None:
    """What ``picked`` gathers, moved on by the picks ``added`` at its players' records'
    ends: what it shared is copied where it changes, never changed."""
    points, record = dict(picked.points), dict(picked.record)
    picks, called = dict(picked.picks), dict(picked.called)
    copied: set[int] = set()
    for handle, more in added.items():
        _, record[handle], points[handle] = picked.players[handle]
        for number, got, exact in more:
            if number not in copied:
                copied.add(number)
                picks[number] = dict(picks.get(number, {}))
                if number in called:
                    called[number] = set(called[number])
            picks[number][handle] = (got, exact)
            if exact:
                called.setdefault(number, set()).add(handle)
    picked.points, picked.record, picked.picks, picked.called = points, record, picks, called


def _table_claims(
    sentence: str,
    records: Records,
    speaks_points: bool,
    you: str,
    then: bool,
    sure: Collection[int] = (),
) -> str | None:
    """The points and leaders ``sentence`` says, against ``records`` (now's, or a moment's
    when ``then``: "led" and "it's ana on top" are read too)."""
    told = _points(sentence, records, speaks_points, you, sure)
    if told is not None:
        return told
    said = LEADS.findall(sentence)
    if then:
        said += [a or b for a, b in LED.findall(sentence)]
    for word in said:
        leader = _handle(word, records.players)
        if leader is not None and leader not in records.leaders:
            top = ", ".join(sorted(records.leaders)) or "nobody yet"
            return f"leader {leader}: the table's top is {top}"
    return _shared_lead(sentence, records, you, then) or _gap_closed(sentence, records, you)


# A gap said gone: "I cut fabio's lead to nothing", "the gap is down to zero", "zerou a
# diferença"
GAP_CLOSED = re.compile(
    r"\b(?:lead|gap|margin|deficit|advantage|diferen[çc]a|vantagem)\b(?:\s+\S+){0,3}?"
    r"\s+(?:to|down to|a|para)\s+(?:nothing|zero|nada)\b"
    r"|\bzer\w*\s+(?:a\s+)?(?:diferen[çc]a|vantagem)\b",
    re.IGNORECASE,
)


def _gap_closed(sentence: str, records: Records, you: str) -> str | None:
    """The players of a gap said gone (two or more named in its clause) are level."""
    found = GAP_CLOSED.search(sentence)
    if found is None:
        return None
    opened = max((m.end() for m in re.finditer(r"[,;:]", sentence[: found.start()])), default=0)
    closed = re.search(r"[,;:]", sentence[found.end() :])
    clause = sentence[opened : found.end() + closed.start() if closed else len(sentence)]
    whose = {h for group in _groups(clause, records, you=you) for h in group[2] if h}
    totals = {h: records.totals.get(h, 0) for h in sorted(whose)}
    if len(totals) > 1 and len(set(totals.values())) > 1:
        told = ", ".join(f"{h} on {points}" for h, points in totals.items())
        return f"gap 0: {told}"
    return None


# The lead said shared: "fabio and I share the lead", "joint leaders", "dividem a liderança";
# of the past, "fabio, who shared it with me" (the lead named in its sentence)
SHARED_LEAD = re.compile(
    r"\b(?:share[sd]?|sharing)\s+(?:the\s+)?(?:lead|top spot|top|first place)\b"
    r"|\b(?:joint|co)[- ]?(?:leaders?|top|first)\b|\btied for (?:the lead|first|top)\b"
    r"|\bdivid\w*\s+(?:a\s+)?lideran[cç]a\b|\bco-?l[ií]deres\b",
    re.IGNORECASE,
)
SHARED_IT = re.compile(r"\bshared\s+it(?=\s+with\b)", re.IGNORECASE)
THE_LEAD = re.compile(r"\b(?:lead|top spot|top|first place|lideran[cç]a)\b", re.IGNORECASE)
SHARED_THEN = re.compile(
    r"\b(?:shared|were|was|used to)\b|\bdividi(?:ram|am|u)\b|\bforam\b", re.IGNORECASE
)
WHO_OF = re.compile(r"^\s*(?:who|whom|que|quem)\b", re.IGNORECASE)


def _shared_said(sentence: str, records: Records, you: str) -> Iterator[tuple[set[str], bool]]:
    """Each lead said shared in ``sentence``: the players said to share it (named in its
    clause, or the clause a "who" opening it follows; "I", "you", "with ana" after it) and
    whether it is said of the past ("shared", "were joint leaders")."""
    said = list(SHARED_LEAD.finditer(sentence))
    if THE_LEAD.search(sentence):
        said += SHARED_IT.finditer(sentence)
    for found in said:
        clauses = re.split(r"[,;:\u2014]", sentence[: found.start()])
        clause = clauses[-1]
        after = re.match(r"\s*with\s+(\w+)", sentence[found.end() :])
        whose = {h for _, _, h in named_at(clause + (after[1] if after else ""), records.players)}
        if WHO_OF.match(clause) and len(clauses) > 1:
            # "the lead went from bruno to fabio, who shared it with me": the one named last
            named = named_at(clauses[-2], records.players)
            whose |= {named[-1][2]} if named else set()
        if records.me and FIRST_PERSON.search(clause + (after[0] if after else "")):
            whose.add(records.me)
        if you and YOU.search(clause):
            whose.add(you)
        yield whose, SHARED_THEN.search(clause + found[0]) is not None


def _shared_lead(sentence: str, records: Records, you: str, then: bool) -> str | None:
    """The players said to share the lead are level at the top of the table as it ranks
    them: level on points, the tie-break (exact scores) puts one alone on top. Of the past
    with no moment named, ``Claims._shared_once`` reads it."""
    for whose, past in _shared_said(sentence, records, you):
        if past and not then:
            continue
        alone = len(records.leaders) == 1
        for handle in sorted(whose):
            if handle not in records.leaders or alone:
                top = ", ".join(sorted(records.leaders)) or "nobody yet"
                return (
                    f"shared lead: the table's top is {top} (level on points, exact scores decide)"
                )
    return None


def _moments(sentence: str, records: Records) -> list[Moment]:
    """The moments ``sentence`` names that the pool has: after a match, after N matches,
    before a match or the final, on a day. One the pool cannot place (a match it does
    not have, more matches than were played) is none: the sentence is read as of now."""
    found: list[Moment] = []
    for said in AFTER_MATCH.finditer(sentence):
        number = int(said[1] or said[2])
        if number in records.matches:
            found.append(("up to", number))
    played = sorted(
        (m for m in records.matches.values() if m.result is not None), key=Match.time_order
    )
    for said in AFTER_MATCHES.finditer(sentence):
        count = number_value(said[1] or said[2])
        if count is not None and 0 < count <= len(played):
            found.append(("up to", played[count - 1].number))
    for said in BEFORE_MATCH.finditer(sentence):
        number = int(said[1] or said[2])
        if number in records.matches:
            found.append(("before", number))
    if BEFORE_FINAL.search(sentence):
        finals = [m for m in records.matches.values() if FINAL.search(m.stage)]
        if finals:
            found.append(("before", min(finals, key=Match.time_order).number))
    for said in ON_DAY.finditer(sentence):
        if TOLD_ON.search(sentence[: said.start()]):
            continue  # "what bia told me on 11 Jun": a day of her notes, not of the table
        moment = _on_day(said, records)
        if moment is not None:
            found.append(moment)
    return found


# A day said of what someone told her, not of the table: "what fabio told me on 3 Dec"
TOLD_ON = re.compile(
    r"\b(?:told|said|mentioned|wrote|shared|disse|contou|falou|escreveu|mencionou)\b"
    r"(?:\s+\S+){0,2}\s*$",
    re.IGNORECASE,
)


def _on_day(said: re.Match[str], records: Records) -> Moment | None:
    """The end of the day ``said`` names, as the last match kicked off by then (the pool's
    clock; the year is the pool's); before the first match when none had."""
    month = said["m"] or said["m2"]
    number = MONTHS.get(month.lower().rstrip(".")) if month else int(said["m3"])
    ordered = sorted(records.matches.values(), key=Match.time_order)
    when = _day_said(said["d"] or said["d2"] or said["d3"], number, records)
    if when is None:
        return None
    by_then = [m for m in ordered if m.kickoff.date() <= when]
    return ("up to", by_then[-1].number) if by_then else ("before", ordered[0].number)


def _day_said(day: str, month: int | None, records: Records) -> date | None:
    """The day of ``month`` said, in the pool's year (its first match's)."""
    if month is None or not records.matches:
        return None
    first = min(records.matches.values(), key=Match.time_order)
    try:
        return date(first.kickoff.year, month, int(day))
    except ValueError:
        return None


# A day said next to a stage's match: "the 15th ... the day before the third-place match",
# "on 17 Dec, the day after the semis", "na véspera da final"
DAY_NEXT_TO = re.compile(
    r"\b(?:(?:the\s+)?day\s+(?P<rel>before|after)|(?P<eve>v[ée]spera)|(?:o\s+)?dia\s+"
    r"(?P<rel_pt>antes|depois|seguinte))\s+(?:the\s+|d[ao]s?\s+|[àa]s?\s+)?"
    r"(?P<what>final|third[- ]place|bronze|semi-?finals?|semis|quarter-?finals?|quarters"
    r"|disputa\s+(?:do|de)\s+terceiro|terceiro\s+lugar|semifina(?:l|is)|quartas)\b",
    re.IGNORECASE,
)
STAGE_WORDS = (
    ("third", re.compile(r"third|bronze|terceiro", re.I)),
    ("semi", re.compile(r"semi", re.I)),
    ("quarter", re.compile(r"quarter|quartas", re.I)),
    ("final", re.compile(r"final", re.I)),
)
IT_IS = re.compile(r"\b(?:it's|it is|that's|that is|which is|é|será|cai)\s+(?:\w+\s+)?$", re.I)
# (a day: "the 15th," not "the 2nd to pick"; a month that is also a word, "2 out", none)
DAY_SAID = re.compile(
    rf"\b(?:the\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)|dia\s+(?P<d1>\d{{1,2}}))\b"
    r"(?!\s*[-:/x]|\s+[a-z])"
    rf"|\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:de\s+)?(?P<m2>{_SPAN_MONTH})\b"
    rf"|\b(?P<m3>{_SPAN_MONTH})\.?\s+(?P<d3>\d{{1,2}})\b",
    re.IGNORECASE,
)


def _day_next_to(text: str, records: Records) -> str | None:
    """A day said to be the day before or after a stage's match: a day of that stage's
    matches, one day off (the day said last before it; said none, not judged)."""
    for found in DAY_NEXT_TO.finditer(text):
        # the day said last before it in its sentence, or in the one before when this one
        # says that day is it ("on the 15th! At least it's the day before the final")
        sentences = [m for m in SENTENCE.finditer(text) if m.start() <= found.start()]
        own = sentences[-1].start() if sentences else 0
        start = (
            sentences[-2].start()
            if len(sentences) > 1 and IT_IS.search(text, own, found.start())
            else own
        )
        days = list(DAY_SAID.finditer(text, start, found.start()))
        if not days:
            continue
        said = days[-1]
        stage = next(k for k, p in STAGE_WORDS if p.search(found["what"]))
        pattern = dict(STAGE_WORDS)[stage]
        matches = [
            m
            for m in records.matches.values()
            if (FINAL.search(m.stage) if stage == "final" else pattern.search(m.stage))
        ]
        if not matches:
            continue
        before = (
            (found["rel"] or "").lower() == "before"
            or found["eve"]
            or ((found["rel_pt"] or "").lower() == "antes")
        )
        month = said["m2"] or said["m3"]
        for m in matches:
            number = MONTHS.get(month.lower()) if month else m.kickoff.month
            day = _day_said(said["d"] or said["d1"] or said["d2"] or said["d3"], number, records)
            if day is not None and (m.kickoff.date() - day).days == (1 if before else -1):
                break
        else:
            dates = ", ".join(sorted({f"{m.kickoff:%d %b}" for m in matches}))
            return f"day: {said[0]} is not the day {'before' if before else 'after'} {dates}"
    return None


def _everyone(text: str, records: Records, match: int) -> str | None:
    """ "Everyone scored", "todo mundo cravou", "zero for everyone", about ``match``."""
    picked = records.on(match)
    if not picked:
        return None
    blanks = sorted(h for h, (points, _) in picked.items() if points == 0)
    if ZEROS_FOR_ALL.search(text) and len(blanks) < len(picked):
        return f"everyone: not everyone blanked #{match}"
    for found in EVERYONE.finditer(text):
        said = found.group("said")
        if ELSE.match(said):  # "everyone else": all but the players the text names
            named = {h for _, _, h in named_at(text, records.players)}
            picked = {h: got for h, got in picked.items() if h not in named}
            blanks = [h for h in blanks if h not in named]
        if EXACT.search(said):
            missed = sorted(h for h, (_, exact) in picked.items() if not exact)
            if missed:
                return f"everyone: {', '.join(missed)} did not call #{match} exactly"
        elif BLANK.search(said) and len(blanks) < len(picked):
            return f"everyone: not everyone blanked #{match}"
        elif SCORED.search(said) and blanks:
            return f"everyone: {', '.join(blanks)} scored nothing on #{match}"
    return None


def _before(text: str, records: Records, match: int) -> str | None:
    """ "Zero again", "neither was the last one", "another exact": said of a player, true of
    their match before. Each claim is the player's whose part of the sentence it is in
    ("ana called it again, bia got 5" says nothing of bia's last match); a sentence naming
    nobody speaks of the last player named before it."""
    picked = records.on(match)
    last: set[str] = set()
    for sentence in SENTENCE.findall(text):
        groups = [g for g in _groups(sentence, records, somebody=False) if g[2] - {""}]
        parts = [
            (
                sentence[
                    (0 if i == 0 else g[0]) : (groups[i + 1][0] if i + 1 < len(groups) else None)
                ],
                g[2] - {""},
            )
            for i, g in enumerate(groups)
        ] or [(sentence, last)]
        named = {h for g in groups for h in g[2]} - {""}
        for part, handles in parts:
            # "carla and I took 5 each, her first points": not mine
            first_said = FIRST_POINTS.search(part)
            if first_said and THEIRS.search(part, 0, first_said.start()):
                earlier = _named_last(sentence[: sentence.find(part)], records, but=records.me)
                handles = handles - {records.me} or earlier - {records.me} or handles
            told = _again(part, handles, records, match, picked) or _first(
                part, handles, records, match
            )
            # "she" may be any one the sentence named ('carla, when ana asked, "..." - and
            # she got her first points'): false only when it is false of each
            pronoun, first = THIRD_PERSON.search(part), FIRST_POINTS.search(part)
            subject = bool(pronoun and first and pronoun.start() < first.start())
            if (
                told is not None
                and subject
                and any(_first(part, {h}, records, match) is None for h in named - handles)
            ):
                told = None
            if told is not None:
                return told
        last = parts[-1][1]
    return None


# A third person's, right before what it owns: "her first points", "dele"
THEIRS = re.compile(r"\b(?:her|his|their|dela|dele)\s+$", re.IGNORECASE)
NEAR = 5  # words between two parts of one claim ("zero for bia again")
# A match's length, a half's, extra time's end: "Spain didn't score in 120 minutes"
MATCH_MINUTES = frozenset({45, 90, 120})


def _near(one: re.Match[str], other: re.Match[str]) -> bool:
    """Whether two matches in one text have at most ``NEAR`` words between them, and no
    emoji, which ends a sentence as a full stop does ("done it AGAIN 😱 There goes my
    exact 0-1")."""
    start, end = sorted((one, other), key=lambda m: m.start())
    between = start.string[start.end() : end.start()]
    return len(between.split()) <= NEAR and re.search(EMOJI, between) is None


# A count in figures or words ("2", "two", "duas"), longest words first
COUNTED = rf"\d{{1,2}}|{'|'.join(sorted(NUMBER_WORDS, key=len, reverse=True))}"
# A first said over a run after it: "first points in four matches", "em três jogos"
DROUGHT = re.compile(
    rf"\s+(?:in|for|em|nos|nos últimos|in the last)\s+(?P<n>{COUNTED})\s+"
    r"(?:matches|games|jogos)\b",
    re.IGNORECASE,
)
SINCE = re.compile(r"\s+(?:(?:dela|dele|deles|delas)\s+)?(?:since|desde)\b", re.IGNORECASE)
# ... a day said: "first points since 04 Dec", "desde 4 de dezembro"
SINCE_DAY = re.compile(
    rf"\s+(?:(?:dela|dele|deles|delas)\s+)?(?:since|desde)\s+(?:the\s+|o\s+dia\s+)?(?:(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+de)?"
    rf"\s+(?P<m>{_MONTH})\b|(?P<m2>{_MONTH})\.?\s+(?P<d2>\d{{1,2}})\b)",
    re.IGNORECASE,
)
# A run told: "two 0-1 blanks in a row", "three exacts in a row", "três zeros seguidos"
_RUN_OF = (
    r"(?P<what>blanks?|flops?|misses|duds?|zero(?:e)?s|exacts?"
    r"|(?P<score>\d{1,2})[-\u2013](?P<other>\d{1,2})(?:'?s)?"
    r"|exact (?:calls|scores)|scoring (?:games|matches)|zeradas|cravadas|jogos sem pontuar)"
)
IN_A_ROW = re.compile(
    rf"\b(?P<n>{COUNTED})\s+"
    # (the words between count nothing: "ends on 29 after four blanks in a row" is four)
    rf"(?:(?!(?:{COUNTED})\b(?![-\u2013]\d))[\w-]+\s+){{0,2}}?{_RUN_OF}"
    r"\s+(?:in a row|on the trot|running|seguid[oa]s|consecutiv[oa]s)\b",
    re.IGNORECASE,
)
# ... or said before its things: "two straight blanks", "three back-to-back exacts"
STRAIGHT_RUN = re.compile(
    rf"\b(?P<n>{COUNTED})\s+(?:straight|consecutive|successive|back-to-back)\s+{_RUN_OF}",
    re.IGNORECASE,
)


# ... or by the last matches it covers: "points in your last two games too", "nada nos
# últimos três jogos"
LAST_RUN = re.compile(
    r"\b(?P<what>points?|pontos?|blanks?|nothing|nada|zeros?|exacts?)\s+(?:in|from|on|nos|nas)\s+"
    r"(?:(?:your|his|her|their|my|the|os|as|seus|suas|teus|tuas|meus|minhas)\s+)?"
    rf"(?:last|[uú]ltim[oa]s)\s+(?P<n>{COUNTED})\s+(?:games|matches|picks|jogos|partidas)\b",
    re.IGNORECASE,
)
# ... or some of the last matches: "two blanks in your last three", "one exact in his last
# four games", "dois zeros nos últimos três jogos"
IN_THE_LAST = re.compile(
    rf"\b(?P<k>{COUNTED})\s+(?P<what>blanks?|zeros?|zeradas?|exacts?|exact (?:calls|scores)"
    r"|cravadas?|scoring (?:games|matches))\s+(?:in|from|out of|nos|nas|em)\s+"
    r"(?:(?:your|his|her|their|my|the|os|as|seus|suas|teus|tuas|meus|minhas)\s+)?"
    rf"(?:last|[uú]ltim[oa]s)\s+(?P<n>{COUNTED})\b",
    re.IGNORECASE,
)
RUN_OF = re.compile(
    r"\s+(?:from|for|by|de|da|do|para|pra|pro)\s+(?P<who>(?:(?:our|nosso|nossa)\s+)?[^\W\d_]+)",
    re.I,
)
RUN_FROM = re.compile(r"\bfrom\s+$", re.IGNORECASE)
LET_ME = re.compile(
    r"(?:\s+\S+){0,6}?\s+(?:let|lets|allowed|helped|handed|gave)\s+me\b"
    r"|(?:\s+\S+){0,6}?\s+(?:me\s+deixaram|me\s+deixou|me\s+ajudaram)\b",
    re.IGNORECASE,
)
# ... or of days: "after two blank days", "três dias seguidos em branco"
BLANK_DAYS = (
    re.compile(
        rf"\b(?P<n>{COUNTED})\s+(?:straight\s+|consecutive\s+|successive\s+)?"
        r"(?P<what>blank|pointless|scoreless|barren|(?:0|zero|no)[- ]points?)\s+(?:match\s*)?days\b",
        re.IGNORECASE,
    ),
    # "two days of zeros", "two days on zero", "two days without a point"
    re.compile(
        rf"\b(?P<n>{COUNTED})\s+(?:straight\s+|consecutive\s+)?(?:match\s*)?days\s+"
        r"(?P<what>of\s+zeros?|on\s+zero|of\s+blanks|without\s+(?:a\s+)?points?)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\b(?P<n>{COUNTED})\s+dias\s+(?:seguidos\s+)?(?P<what>em branco|sem pontos|sem pontuar"
        r"|a zero|zerad[oa]s)\b",
        re.IGNORECASE,
    ),
)
# A run said to end with the last match: "that ends four straight blanks", "snapping a run
# of three blanks", "acaba com três zeros seguidos": the run before it
RUN_ENDED = re.compile(
    r"\b(?:ends?|ended|ending|snaps?|snapped|snapping|breaks?|broke|breaking|stops?|stopped"
    r"|stopping|acaba(?:m|ram|ou)?\s+com|encerra(?:m|ram|ou)?|quebra(?:m|ram|ou)?"
    r"|interromp\w+|first points?\s+(?:after|since)|primeiros pontos\s+(?:depois|ap[oó]s)"
    r"(?:\s+d[eo]s?)?)\s+(?:(?:a|an|the|his|her|your|their|that|uma|a\s+sua)\s+)?"
    r"(?:(?:run|streak|sequ[eê]ncia|s[ée]rie)\s+(?:of|de)\s+)?$",
    re.IGNORECASE,
)


def _in_a_row(text: str, records: Records, addressed: str) -> str | None:
    """ "after two 0-1 blanks in a row": the run is true of the player's last finished
    picks, now (``_whose``)."""
    for said in SENTENCE.finditer(text):
        sentence = said[0]
        some = list(IN_THE_LAST.finditer(sentence))
        runs = [
            *IN_A_ROW.finditer(sentence),
            *STRAIGHT_RUN.finditer(sentence),
            # ("two blanks in your last three games" is some of them, not a run)
            *(r for r in LAST_RUN.finditer(sentence) if not any(_within(r, m) for m in some)),
            *some,
            *(found for days in BLANK_DAYS for found in days.finditer(sentence)),
        ]
        for found in runs:
            count = number_value(found["n"])
            if count is None or count < 2:
                continue
            what = found["what"].lower()
            # "ana's 1-1 makes it four blanks in a row ..., and carla's 0-0 ...": the run
            # is of the player named last before it, when one is
            # (not the one it speaks to, when another is named before it: "ana's propping
            # up the table now, elis: four straight blanks"; "diego, three blanks in a row
            # now, and bruno just slipped past you" is diego's)
            before = sentence[: found.start()]
            whose = (
                _named_last(before, records, but=_vocative(sentence, records))
                or _named_last(before, records)
                or _whose(sentence, records, addressed, text[: said.start()], found.start())
            )
            # ... a run of blanks that let her in is another's: "two blanks in a row let me
            # in", the one spoken to's when one is
            if addressed and _of_run(what, 0, False) and LET_ME.match(sentence, found.end()):
                whose = {addressed}
            # ... unless said right after it: "two blanks in a row from you", "... for bia"
            of = RUN_OF.match(sentence, found.end())
            if of is not None:
                named = named_at(of["who"], records.players)
                you = {addressed} if addressed and YOU.fullmatch(of["who"]) else set()
                # ("... for our captain": someone called by what they are, not named)
                epithet = set() if re.match(r"(?i:our|nosso|nossa)\s", of["who"]) else whose
                whose = {h for _, _, h in named} or you or epithet
            if found.re in BLANK_DAYS:
                # ("first points after two blank days": the days before this one)
                ended_days = RUN_ENDED.search(sentence[: found.start()]) is not None
                for handle in sorted(whose):
                    days = _day_points(records, handle)[: -1 if ended_days else None][-count:]
                    if len(days) < count or any(days):
                        return f"run: {handle}'s last {count} match days are not all blank"
                continue
            ended = RUN_ENDED.search(sentence[: found.start()]) is not None
            # "from three straight blanks to 17": a run as it once was, any of theirs
            once = RUN_FROM.search(sentence[: found.start()]) is not None
            for handle in sorted(whose):
                played = records.record.get(handle, [])
                if once and found.groupdict().get("score") is None:
                    if not _ever_ran(what, count, played):
                        return f"run: {handle} never had {count} {what} in a row"
                    continue
                if ended and played:
                    # the run before the last match, which ended it
                    _, points, exact = played[-1]
                    if found.groupdict().get("score") is None and _of_run(what, points, exact):
                        return f"run: {handle}'s last match did not end a run of {what}"
                    played = played[:-1]
                last = played[-count:]
                if found.groupdict().get("score") is not None:
                    # "two 1-1s in a row": the score of each of their last picks
                    picked = (int(found["score"]), int(found["other"]))
                    scores = [_pick_score(records, number, handle) for number, _, _ in last]
                    if len(last) < count or any(score != picked for score in scores):
                        return f"run: {handle}'s last {count} picks are not {what} in a row"
                elif found.groupdict().get("k") is not None:
                    some_of = number_value(found["k"])
                    told = sum(1 for _, p, e in last if _of_run(what, p, e))
                    if len(last) < count or told != some_of:
                        return f"run: {handle} has {told} {what} in their last {len(last)}"
                elif len(last) < count or not all(_of_run(what, p, e) for _, p, e in last):
                    return f"run: {handle}'s last {count} matches are not {what} in a row"
    return None


# A player's best day: "your best day in the pool so far", "ana's best day yet", "o seu
# melhor dia no bolão", "o melhor dia da bia" (not "not your best day", "nem foi o ...")
BEST_DAY = re.compile(
    r"\b(?:(?P<own>your|his|her|my|seu|teu|meu|sua|tua)\s+|(?P<of>[a-z][\w.-]*)['\u2019]s\s+)?"
    r"(?:best|melhor)\s+(?:day|night|matchday|dia|noite|rodada)\b"
    r"(?:\s+d[oa]\s+(?P<after>[a-z][\w.-]*))?",
    re.IGNORECASE,
)


# Not a claim of the last day: denied, past, or what may be ("that wasn't your best day",
# "win this and it's your best day yet" is hoped; "your best day was 12 Jun")
NOT_NOW = re.compile(
    r"\b(?:not|n't|isn't|wasn't|hardly|far from|nem|n[aã]o|nunca|never|could|can|might|may"
    r"|would|will|if|se|pode|poderia|seria|ser[aá])\b|\bwin\b|\bwins\b",
    re.IGNORECASE,
)
BEST_THEN = re.compile(r"\s*(?:\w+\s+){0,4}?(?:was|came|were|foi|tinha sido)\b", re.IGNORECASE)


def _best_day(text: str, records: Records, addressed: str) -> str | None:
    """A day said to be a player's best: their last day's points beat every earlier day's."""
    for said in SENTENCE.finditer(text):
        sentence = said[0]
        for found in BEST_DAY.finditer(sentence):
            if not (found["own"] or found["of"] or found["after"]):
                continue  # "the best day of the cup": nobody's
            before, rest = sentence[: found.start()], sentence[found.end() :]
            if NOT_NOW.search(before) or BEST_THEN.match(rest):
                continue  # "not your best day", "could be your best day", "... was 12 Jun"
            named = found["of"] or found["after"]
            if named:
                whose = {h for _, _, h in named_at(named, records.players)}
            elif FIRST_PERSON.fullmatch(found["own"]):
                whose = {records.me} - {""}
            elif YOU.fullmatch(found["own"]) or found["own"].lower() in ("seu", "sua"):
                whose = {addressed} - {""} or _named_last(sentence[: found.start()], records)
            else:
                whose = _named_last(text[: said.start() + found.start()], records, but=addressed)
            for handle in sorted(whose):
                *earlier, last = _day_points(records, handle) or [0]
                if last <= max(earlier, default=0) or last == 0:
                    return f"best day: {handle}'s last day's {last} beats no earlier day's"
    return None


def _ever_ran(what: str, count: int, played: list[tuple[int, int, bool]]) -> bool:
    """Whether ``count`` matches in a row of ``played`` were each of the run ``what``."""
    return any(
        all(_of_run(what, p, e) for _, p, e in played[i : i + count])
        for i in range(len(played) - count + 1)
    )


def _day_points(records: Records, handle: str) -> list[int]:
    """``handle``'s points on each day they had a finished pick, in time order."""
    days: dict[object, int] = {}
    for number, points, _ in records.record.get(handle, []):
        day = records.matches[number].kickoff.date() if number in records.matches else number
        days[day] = days.get(day, 0) + points
    return list(days.values())


def _within(inner: re.Match[str], outer: re.Match[str]) -> bool:
    return outer.start() <= inner.start() and inner.end() <= outer.end()


def _pick_score(records: Records, match: int, handle: str) -> tuple[int, int] | None:
    return next(
        ((p.score.home, p.score.away) for p in records.placed.get(match, ()) if p.handle == handle),
        None,
    )


# The foot of the table told: "climbed off the bottom", "saiu da lanterna" (off), "dead
# last", "na lanterna" (on); unless denied just before ("not last", "nem é lanterna")
BOTTOM = re.compile(
    r"\b(?:(?P<off>off the bottom|(?:up|out|away) from the bottom|off (?:the )?foot of the table"
    r"|off the floor|(?:climb\w*|rise|rose|risen|way) (?:up )?from the bottom(?: of the (?:table|pool|pile))?"
    # "from the bottom of the table to the top half": a climb told by where it went
    r"|from the bottom(?: of the (?:table|pool|pile|standings))? (?:to|into|up to)"
    r"|da lanterna (?:para|pra|ao|à|até)"
    r"|out of (?:last(?: place)?|the"
    r" basement|the cellar)|no longer (?:last|bottom|in last)|(?:saiu|sai|saindo|largou|deixou"
    r"|deixa|larga) (?:d?a )?lanterna)|(?P<on>(?P<stays>(?:stays?|remains?|still)\s+(?:at\s+)?"
    r"(?:the\s+)?(?:bottom(?!\s+of\s+the\s+(?!table|pool|standings|pile))|in last place)"
    r"|(?:stays?|remains?)\s+last(?=\s*(?:[,.;!?]|on\b|with\b|$))|(?:segue|continua) na lanterna"
    # "stay locked together at the foot of the table"
    r"|(?:stays?|remains?)\s+(?:[a-z]+\s+){0,2}(?:at|on)\s+the\s+(?:foot|bottom)\s+of\s+the"
    r"\s+(?:table|pool|standings))"
    r"|(?:rock|dead)[- ]bottom|bottom of the (?:table|pool"
    r"|standings|pile)|in last place|dead last|(?:na|é a|é o) lanterna"
    r"|lanterninha|(?:no|em) [uú]ltimo lugar|na [uú]ltima posi[cç][aã]o))\b",
    re.IGNORECASE,
)
# What is hoped for or spoken of, not done: "about climbing off the bottom", "to climb"
HOPED = re.compile(
    r"\b(?:about|to|for|de|para|pra|sobre)\s+(?:\w+ing|\w+(?:ar|er|ir))\s+"
    r"(?:(?:you|him|her|them|me|us|te|o|a)\s+)?$"
    r"|\bto\s+(?:get|climb|move|crawl|climb up|get up)\s+$"
    # ... or what may yet be: "an exact or two could still get you off the bottom"
    r"|\b(?:could|can|might|may|would|will|should|pode|poderia|podem)\s+(?:still\s+|yet\s+|ainda\s+)?"
    r"(?:get|lift|pull|take|move|tirar|levar)\s+(?:\w+\s+)?$",
    re.I,
)
DENIED = re.compile(
    r"\b(?:not|no longer|isn't|aren't|hasn't|haven't|nem|n[aã]o|nunca|never|yet)\b\W+"
    r"(?:\w+\W+){0,2}$",
    re.I,
)
# The foot of the table as it was ("bia was dead last after the opener"): not now's
WAS = re.compile(r"\b(?:was|were|went from|had been|used to be|era|estava|esteve|foi)\b", re.I)
# Leaving the foot of the table told as what a match did ("its 7 points pulled you up from
# the bottom", "o 2-1 tirou-a da lanterna"): last before that match
LIFTED = re.compile(
    r"\b(?:pull|lift|haul|drag|took|bring|brought|move|propel|tir|livr)\w*\b",
    re.I,
)


LIFT_REACH = 30  # characters between "pulled you" and "up from the bottom"
FURTHER = re.compile(r"\b(?:further|farther|even|well|still|stays?|mais longe|ainda)\b", re.I)


def _bottom(
    text: str,
    records: Records,
    addressed: str,
    earlier: Callable[[], Records | None] = lambda: None,
) -> str | None:
    """ "Off the bottom" of a player not last any more; "dead last" of one at the foot
    of the table now (level with others counts): the players it names, else "I" her,
    else "you" the one spoken to. Lifted off it by the match a line is about: last
    ``earlier``, before it, too (read only then: it is a table of the past)."""
    if not records.totals:
        return None
    lowest = min(records.totals.values())
    for said in SENTENCE.finditer(text):
        sentence = said[0]
        for found in BOTTOM.finditer(sentence):
            before = sentence[: found.start()]
            if WAS.search(before) or _team_subject(before, records):
                continue  # the table then, or a team's group ("Serbia, dead last")
            if HOPED.search(before):
                continue  # "about climbing off the bottom", "time to get off it": to come
            # "still hasn't climbed off the bottom" says last, "not last" says off it
            last_said = bool(found["on"]) != bool(DENIED.search(before))
            whose = _placed(sentence, before, records, addressed, text[: said.start()])
            for handle in sorted(whose):
                last = records.totals[handle] == lowest
                if not last_said and last:
                    return f"bottom: {handle} is still last, on {lowest}"
                if last_said and not last:
                    return f"bottom: {handle} has {records.totals[handle]}, the last have {lowest}"
                if found["stays"] and not DENIED.search(before):
                    # "bruno stays bottom": last before the match the line is about too
                    table = earlier()
                    before_it = table.totals if table is not None else {}
                    if handle in before_it and before_it[handle] != min(before_it.values()):
                        return f"bottom: {handle} was not last before the match"
                    continue
                lifted = LIFTED.search(sentence, max(0, found.start() - LIFT_REACH), found.start())
                if last_said or not lifted or FURTHER.search(sentence, lifted.end(), found.start()):
                    continue  # "took bia even further off the bottom": off it before
                table = earlier()
                if table is not None and handle in table.totals:
                    then = min(table.totals.values())
                    if table.totals[handle] != then:
                        return (
                            f"bottom: {handle} had {table.totals[handle]} before the match,"
                            f" the last {then}"
                        )
    return None


THEY = re.compile(r"\b(?:they|they're|eles|elas)\b", re.IGNORECASE)


def _team_subject(before: str, records: Records) -> bool:
    """Whether what is said next is of a team: the last clause said before it names a team
    or "they", and no player ("Serbia, dead last"; "you backed Serbia and they finished
    dead last"; not "Your 1-1 on Morocco v Spain earned 7, and it lifts you off the
    bottom")."""
    clauses = [c for c in re.split(r"[,;:\u2014]|\s+(?:and|but|e|mas)\s+", before) if c.strip()]
    if not clauses:
        return False
    last = clauses[-1]
    if named_at(last, records.players) or _pronoun_last(last):
        return False
    return bool(THEY.search(last) or _teams_in(last, records))


def _placed(sentence: str, before: str, records: Records, addressed: str, told: str) -> set[str]:
    """Whom a place in the table said in ``sentence`` (after ``before``) is of: the
    players named last before it ("Brace yourself, diego: bottom of the table, 22 behind
    fabio" is diego's), else whom the sentence names (``_whose``: after ``told``, the
    text before it), the one spoken to only when "you" is said ("Japan, dead last" is no
    one's); not the one it speaks to beside others named ("Bottom of the pile, bruno:
    carla and diego, sharing last place")."""
    spoken_to = addressed if YOU.search(sentence) else ""
    named = named_at(before, records.players)
    if named and SUBJECT_VERB.match(before[named[-1][1] :]):
        # "three blanks for diego, and carla is still bottom": the one its verb follows
        return {named[-1][2]} & set(records.totals)
    pronoun = _pronoun_last(before)
    whose = _named_last(before, records) or (
        # "you're 6th now, off the floor and ahead of diego": yours, not diego's
        {spoken_to} - {""} if pronoun == "you" else _whose(sentence, records, spoken_to, told)
    )
    whose = whose - {_vocative(sentence, records)} or whose
    return {h for h in whose if h in records.totals}


# The verb right after a player, making them the subject: "carla is still bottom"
SUBJECT_VERB = re.compile(
    r"(?:['\u2019]s\b|\s+(?:is|was|stays|remains|sits|finishes|ends|é|está|esta|segue|continua"
    r"|fica)\b)",
    re.IGNORECASE,
)


# A place in the table said to be kept: "bruno stays 5th on 12", "you remain third",
# "segue em 4º". Only where it ends ("stays first to score" is no place).
STAYS_PLACE = re.compile(
    r"\b(?:(?P<still>still|ainda)|stays?|stayed|remains?|remained"
    r"|(?:segue|continua|fica)(?:\s+(?:em|no|na))?)"
    rf"\s+(?:in\s+|at\s+)?(?:the\s+)?(?P<place>{ORDINAL})(?:\s+(?:place|spot|lugar))?"
    r"(?=\s*(?:[,.;:!?)\u2014\u2013]|on\b|with\b|in the (?:table|pool|standings)\b|com\b"
    r"|na tabela\b|no bol[aã]o\b|$))",
    re.IGNORECASE,
)


def _places(totals: dict[str, int], handle: str) -> range:
    """The places ``handle`` holds in ``totals``: one, or the span of those level."""
    above = sum(1 for t in totals.values() if t > totals[handle])
    level = sum(1 for t in totals.values() if t == totals[handle])
    return range(above + 1, above + level + 1)


def _stays_placed(
    text: str,
    records: Records,
    addressed: str,
    earlier: Callable[[], Records | None],
    match: int | None,
) -> str | None:
    """ "bruno stays 5th": his place now, in the table (or the live one; level with others,
    any of theirs), and the same place in the table ``earlier``, before the match the
    line is about; an answer's "still 5th" is now's alone (still, since they asked)."""
    if not records.totals:
        return None
    for said in SENTENCE.finditer(text):
        sentence = said[0]
        for found in STAYS_PLACE.finditer(sentence):
            before = sentence[: found.start()]
            place = ordinal_value(found["place"])
            if place is None or WAS.search(before) or HOPED.search(before) or DENIED.search(before):
                continue
            if place > len(records.totals) and re.search(r"(?i)\bthe\s+\S+$", found[0]):
                continue  # a day, "still the 15th with the 8º ano": no such place
            for handle in sorted(_kept_by(sentence, before, records, addressed)):
                tables = [records.totals] + ([records.live] if records.live else [])
                if not any(place in _places(t, handle) for t in tables if handle in t):
                    return f"place: {handle} is {records.ranks[handle]}, not {place}"
                if found["still"] and match is None:
                    continue
                table = earlier()
                if table is not None and table.ranks.get(handle, 0) != records.ranks[handle]:
                    return f"place: {handle} was {table.ranks.get(handle)} before the match"
    return None


def _kept_by(sentence: str, before: str, records: Records, addressed: str) -> set[str]:
    """Whom a place said kept is of: the players named last before it ("bruno stays 5th"),
    else the one called by name ("Still third, elis, on 43"), else the one spoken to when
    "you" comes before it; not someone named after it in another clause."""
    whose = _named_last(before, records) or {_vocative(sentence, records)} - {""}
    if not whose and YOU.search(before) and addressed:
        whose = {addressed}
    return {h for h in whose if h in records.totals and h in records.ranks}


def _last_played(records: Records) -> int | None:
    """The last match finished, by kick-off: None before any."""
    done = [m for m in records.matches.values() if m.result is not None]
    return max(done, key=Match.time_order).number if done else None


# The podium said kept: "kept you on the podium", "stays on the podium", "segue no pódio"
PODIUM_KEPT = re.compile(
    r"\b(?:kept|keeps?|keeping|stays?|stayed|remains?|still)\s+(?:(?:you|him|her|them|me)\s+)?"
    r"on\s+the\s+podium\b|\b(?:segue|continua|fica|manteve)\s+(?:\w+\s+)?no\s+p[oó]dio\b",
    re.IGNORECASE,
)


def _podium_kept(
    text: str, records: Records, addressed: str, earlier: Callable[[], Records | None]
) -> str | None:
    """ "Your 2-0 kept you on the podium": in the top three now and before the match."""
    for said in SENTENCE.finditer(text):
        sentence = said[0]
        for found in PODIUM_KEPT.finditer(sentence):
            before = sentence[: found.start()]
            whose = _placed(sentence, before, records, addressed, text[: said.start()])
            if YOU.search(found[0]) and addressed:
                whose = {addressed} & set(records.ranks)
            for handle in sorted(whose):
                if records.ranks.get(handle, 0) > PODIUM:
                    return f"podium: {handle} is {records.ranks[handle]}"
                table = earlier()
                if table is not None and table.ranks.get(handle, 0) > PODIUM:
                    return f"podium: {handle} was {table.ranks[handle]} before the match"
    return None


# How far one is from the podium, the top three: "10 off the podium", "a 9 pontos do pódio"
PODIUM_GAP = re.compile(
    r"\b(?P<gap>\d{1,3}|[a-z]+)\s+(?:points?\s+|pts\s+)?(?:off|short of|behind|away from|from"
    r"|outside)\s+(?:the\s+)?(?:podium|top three|top 3)\b"
    r"|\ba\s+(?P<gap_pt>\d{1,3}|[a-z]+)\s+(?:pontos?\s+|pts\s+)?d[oa]\s+(?:p[oó]dio|top 3)\b",
    re.IGNORECASE,
)
PODIUM = 3


def _off_podium(text: str, records: Records, addressed: str) -> str | None:
    """ "you're 10 off the podium": the points between one's total and third place's."""
    totals = records.totals
    if len(totals) <= PODIUM:
        return None
    third = sorted(totals.values(), reverse=True)[PODIUM - 1]
    for said in SENTENCE.finditer(text):
        sentence = said[0]
        for found in PODIUM_GAP.finditer(sentence):
            gap = number_value(found["gap"] or found["gap_pt"])
            before = sentence[: found.start()]
            if gap is None or WAS.search(before) or _moments(sentence, records):
                continue
            for handle in sorted(
                _placed(sentence, before, records, addressed, text[: said.start()])
            ):
                if totals[handle] >= third:
                    return f"podium: {handle} is on it, with {totals[handle]}"
                if third - totals[handle] != gap:
                    return f"podium: {handle} is {third - totals[handle]} off it"
    return None


# "carla's exact 1-2, the only one in the pool": the only exact anyone called so far
ONLY_EXACT = re.compile(
    r"\b(?:exact|cravad\w*|placar exato)\b[^.;!?]*?\bthe only (?:one|exact(?: score| hit| call)?)"
    r"\s+(?:in|of) (?:the (?:whole )?(?:pool|tournament)|our pool)(?=\s*(?:[,.;:!?)\u2014\u2013]|$))"
    r"|\b(?:o [uú]nico|a [uú]nica)(?: cravad\w*| placar exato)? d[oa] (?:bol[aã]o|torneio|copa)\b"
    r"(?=\s*(?:[,.;:!?)\u2014\u2013]|$))",
    re.IGNORECASE,
)


def _only_exact(text: str, records: Records) -> str | None:
    """ "the only one in the pool" of an exact score: nobody else called one, ever."""
    for found in ONLY_EXACT.finditer(text):
        if found[0].lower().startswith(("o ", "a ")) and not EXACT.search(
            text[max(0, found.start() - 80) : found.start()]
        ):
            continue  # "o único do bolão" of no exact score
        calls = sorted((n, h) for n, called in records.called.items() for h in called)
        if len(calls) > 1:
            said = ", ".join(f"{h} on #{n}" for n, h in calls)
            return f"only exact: {len(calls)} exact calls in the pool ({said})"
    return None


# Two players next to each other in the table: "ana, right behind bia", "logo atrás da
# ana" (the named after it is the one measured against); "diego, the next one up the
# ladder" from the one spoken to (or her)
NEXT_TO = re.compile(
    r"\b(?:right|just|directly|immediately|one (?:place|spot|rung)|logo|mesmo)\s+(?:(?P<below>"
    r"behind|below|under|atr[aá]s\s+d[aeo]|abaixo\s+d[aeo])|(?P<above>ahead of|above|in front of"
    r"|[àa] frente d[aeo]|acima d[aeo]))\s+(?=\w)",
    re.IGNORECASE,
)
NEXT_UP = re.compile(
    r"\b(?:the\s+)?next\s+(?:one\s+|man\s+|woman\s+|player\s+|name\s+|rung\s+|target\s+)?"
    r"(?:up|above)\s+(?:the\s+)?(?:ladder|table|standings)\b|\bnext\s+rung\s+up\b"
    r"|\bo\s+pr[oó]ximo\s+(?:acima|na\s+escada|na\s+tabela)\b",
    re.IGNORECASE,
)
# ... or where one is: "caio sits right behind ana", "you're just ahead of dani"
SITS = re.compile(
    r"\b(?:sits?|sitting|is|are|was|i'?m|you'?re|he'?s|she'?s|est[aá]s?|fica|ficou|segue"
    r"|continua)\s*$",
    re.IGNORECASE,
)
# What says the table is meant: points, a place, the ladder
TABLE_TALK = re.compile(
    r"\b(?:points?|pts|pontos?|table|ladder|standings|place|spot|rank\w*|tabela|lugar"
    r"|classifica\w*|posi[cç][aã]o|\d+(?:st|nd|rd|th|º|ª)|(?:on|with|com)\s+\d+)\b",
    re.IGNORECASE,
)


def _ladder(text: str, records: Records, addressed: str) -> str | None:
    """Two players said to sit next to each other in the table now: nobody's total
    between theirs (level counts), the one said behind not above the other."""
    totals = records.totals
    if not totals:
        return None
    for said in SENTENCE.finditer(text):
        sentence = said[0]
        if WAS.search(sentence) or _moments(sentence, records):
            continue  # the table as it was: not now's
        # "the next one up" is from the one spoken to, named or not; "right behind" is
        # theirs when "you" is said
        spoken = addressed if YOU.search(sentence) else ""
        mover = spoken or (records.me if FIRST_PERSON.search(sentence) else "")
        for found in NEXT_TO.finditer(sentence):
            if not (TABLE_TALK.search(sentence) or SITS.search(sentence, 0, found.start())):
                continue  # "got her 1-1 in just ahead of caio": of the clock, not the table
            after = named_at(sentence[found.end() :], records.players)
            if not after or after[0][0] > 0:
                continue  # "right behind the leaders": nobody named
            if re.match(r"['\u2019]s\b", sentence[found.end() + after[0][1] :]):
                continue  # "right under dani's nose": a thing of theirs, not them
            other = after[0][2]
            # (not the one spoken to, with "I" after: "Your commentator did, ana: I
            # finished top on 56, just ahead of fabio")
            before = sentence[: found.start()]
            whose = _named_last(before, records) - {other}
            if whose == {_vocative(sentence, records)}:
                whose = set()
            pronoun = _last_said(before, addressed, records.me) or mover
            for handle in sorted(whose or ({pronoun} - {"", other})):
                low, high = (handle, other) if found["below"] else (other, handle)
                told = _next_to(low, high, totals)
                if told is not None:
                    return told
        for found in NEXT_UP.finditer(sentence):
            lower = addressed or mover
            above = _named_last(sentence[: found.start()], records) - {lower}
            if lower:
                for handle in sorted(above):
                    told = _next_to(lower, handle, totals)
                    if told is not None:
                        return told
    return None


def _last_said(before: str, addressed: str, me: str) -> str:
    """Whom the pronoun said last in ``before`` names: the one spoken to for "you", her
    for "I"; "" for none."""
    yours = [m.start() for m in YOU.finditer(before)]
    mine = [m.start() for m in FIRST_PERSON.finditer(before)]
    if not yours and not mine:
        return ""
    return addressed if max(yours, default=-1) > max(mine, default=-1) else me


def _next_to(low: str, high: str, totals: dict[str, int]) -> str | None:
    """Why ``low`` does not sit right below ``high`` in ``totals``, or None when it does."""
    if low not in totals or high not in totals:
        return None
    between = sorted(h for h, t in totals.items() if totals[low] < t < totals[high])
    if totals[low] > totals[high] or between:
        return f"next to: {low} has {totals[low]}, {high} {totals[high]}" + (
            f", {', '.join(between)} between" if between else ""
        )
    return None


# A goal said to be a penalty, by its minute: "a penalty at 80 and another at 81",
# "pênalti aos 23"
PENALTY_AT = re.compile(
    r"\b(?:penalty|penalties|pen|spot[- ]kick|p[eê]nalti|pen[aá]lti)\b(?:\s+[\w']+){0,3}?\s+"
    r"(?:at|on|aos|ao|no|in\s+the)\s+(?:the\s+)?(?P<minute>\d{1,3})\b(?![-:])(?!\s+min)"
    r"(?P<more>(?:\s*(?:'|th|min\w*|minutes?))?\s+(?:and|e)\s+(?:another|outro)\s+"
    r"(?:at|on|aos|ao|no|in\s+the)\s+(?:the\s+)?(?P<next>\d{1,3})\b)?",
    re.IGNORECASE,
)


def _penalties(text: str, records: Records, match: int | None) -> str | None:
    """A goal of the match a line is about said to be a penalty at a minute: a goal was
    scored then, and from the spot (a minute with no goal may be a penalty missed)."""
    if match is None or match not in records.matches:
        return None
    goals = records.matches[match].goals
    for found in PENALTY_AT.finditer(text):
        for minute in (found["minute"], found["next"]):
            then = [g for g in goals if minute is not None and g.minute == int(minute)]
            if then and not any(g.penalty for g in then):
                return f"penalty at {minute}: the goal then was not a penalty"
    return None


# Goals said to come close together: "two goals in eight minutes", "2 golos em 2 minutos"
GOALS_WITHIN = re.compile(
    rf"\b(?P<n>{COUNTED})\s+(?:goals?|gol(?:o)?s)\s+(?:in|within|em)\s+(?:(?:just|only|the space of"
    rf"|apenas|só)\s+)?(?P<m>{COUNTED}|\d{{1,3}})\s+(?:minutes?|mins?|minutos?)\b",
    re.IGNORECASE,
)


def _goals_within(text: str, records: Records, match: int | None) -> str | None:
    """ "Two goals in eight minutes": so many goals of the match a line is about, one after
    another, the first and the last no more minutes apart (90+11 is the 101st)."""
    if match is None or match not in records.matches:
        return None
    minutes = sorted(g.minute + g.added for g in records.matches[match].goals)
    for found in GOALS_WITHIN.finditer(text):
        count, span = number_value(found["n"]), number_value(found["m"])
        if count is None or span is None or count < 2 or count > len(minutes):
            continue
        if not any(
            minutes[i + count - 1] - minutes[i] <= span for i in range(len(minutes) - count + 1)
        ):
            return f"goals: no {count} goals of #{match} within {span} minutes"
    return None


# A pick said exact until a goal: "Your 1-2 was exact until Weghorst's 83rd minute"
EXACT_UNTIL = re.compile(
    # (the score nearest the words: "ana 1-0, diego 0-2, and my 0-1, which was exact ...")
    r"\b(?P<home>\d{1,2})-(?P<away>\d{1,2})\b(?:(?!\d{1,2}-\d)[^.!?;]){0,40}?\b(?:was|stayed|looked|had been"
    r"|remained)\s+(?:exact|spot[- ]on|perfect|bang on)\s+until\s+(?:[^\W\d_][\w.-]*['\u2019]s\s+)?"
    r"(?:the\s+)?(?P<minute>\d{1,3})(?:\+(?P<added>\d{1,2}))?(?:st|nd|rd|th|')?(?=[\s,.;!?-]|$)",
    re.IGNORECASE,
)


def _exact_until(text: str, records: Records, match: int | None) -> str | None:
    """A pick exact until a goal at a minute was the score just before that goal: of the
    match a line is about, or of any match with a goal then."""
    for found in EXACT_UNTIL.finditer(text):
        pick = (int(found["home"]), int(found["away"]))
        minute, added = int(found["minute"]), int(found["added"] or 0)
        numbers = [match] if match in records.matches else list(records.matches)
        befores = [
            before for n in numbers for before in _scores_before(records.matches[n], minute, added)
        ]
        if befores and pick not in befores:
            return f"exact until {minute}': {pick[0]}-{pick[1]} was not the score before it"
    return None


# A goal said to take picks off the goal difference: "Mbappé's 90+1' knocked my 1-0 off the
# goal difference", "diego's 2-1 just drifted off the goal difference at 3-0"
OFF_DIFFERENCE = re.compile(
    r"\b(?:off|lost|loses?|losing|out of)\s+(?:the\s+)?goal\s+difference\b"
    r"|\b(?:fora do|perde[um]?|perdeu)\s+(?:o\s+)?saldo\b",
    re.IGNORECASE,
)
GOAL_MINUTE = re.compile(r"\b(?P<minute>\d{1,3})(?:\+(?P<added>\d{1,2}))?(?:'|\u2019|\s*min)")


def _off_difference(text: str, records: Records, match: int | None) -> str | None:
    """Picks a goal took off the goal difference had it just before that goal, and not
    after: the goal at the minute the sentence says, else the match's last."""
    now = records.matches.get(match) if match is not None else None
    if now is None or not now.goals:
        return None
    goals = sorted(now.goals, key=lambda g: (g.minute, g.added))
    for sentence in SENTENCE.findall(text):
        if not OFF_DIFFERENCE.search(sentence):
            continue
        said = GOAL_MINUTE.search(sentence)
        at = (
            [i for i, g in enumerate(goals) if g.minute == int(said["minute"])]
            if said
            else [len(goals) - 1]
        )
        if not at:
            continue
        index = at[-1]
        before = sum(1 if g.side == "home" else -1 for g in goals[:index])
        after = before + (1 if goals[index].side == "home" else -1)
        picks = [
            (int(f[1]), int(f[2]))
            for f in SCORE.finditer(sentence)
            if _a_pick(sentence, f, records)
        ]
        if picks and not any(a - b == before != after for a, b in picks):
            return (
                f"difference: no pick named had the goal difference before {goals[index].minute}'"
            )
    return None


def _scores_before(match: Match, minute: int, added: int) -> list[tuple[int, int]]:
    """The running score just before each goal of ``match`` at ``minute`` (``added`` into
    stoppage time, or none said: any)."""
    found, home, away = [], 0, 0
    for goal in sorted(match.goals, key=lambda g: (g.minute, g.added)):
        if goal.minute == minute and (added == 0 or goal.added == added):
            found.append((home, away))
        home, away = (home + 1, away) if goal.side == "home" else (home, away + 1)
    return found


# What a draw pick earns on a draw, said: "your 2-2 earns 5 points for the draw", "a 0-0
# is a draw pick: if it ends level, that's 5 for you"
DRAW_WORTH = re.compile(
    r"(?<!\bno )(?<!\bnot a )(?<!\bsem )(?<!\bnada de )"
    r"\b(?:draw|empate|level|empatad[oa])\b[^.!?:]{0,60}?\b(?:earns?|gets?|worth|pays?|that'?s|vale|d[aá]"
    r"|rende|ganha)\s+(?:you\s+|te\s+|only\s+|just\s+|s[oó]\s+)?(?P<n>\d{1,2})\b"
    r"|\b(?P<m>\d{1,2})\s*(?:points?|pts|pontos?)?\s+(?:for|pel[oa]|pro|pra|por)\s+"
    r"(?:(?:calling|getting|picking|predicting|acertar|cravar|prever)\s+)?(?:the\s+|o\s+|a\s+)?"
    r"(?:draw|empate)\b",
    re.IGNORECASE,
)


OUTCOME_OR = re.compile(
    r"\b(?:winner|result|outcome|vencedor|resultado)\s*\(?\s*(?:or|ou)\s+(?:a\s+|o\s+|um\s+)?$",
    re.IGNORECASE,
)


def _draw_worth(text: str, records: Records) -> str | None:
    """A draw pick on a draw has its goal difference (0): it earns the difference's points
    or the exact's, never the outcome's alone (when the rule tells them apart)."""
    exact, difference, outcome = records.tiers
    if outcome in (difference, exact):
        return None
    for found in DRAW_WORTH.finditer(text):
        said = int(found["n"] or found["m"])
        if OUTCOME_OR.search(text, 0, found.start()):
            continue  # "the right winner (or a draw) gets you 5": the outcome's tier, told
        if said == outcome:
            return f"draw worth {said}: a draw pick on a draw earns {difference} or {exact}"
    return None


# A team's goals told: "a five-goal Brazil", "Brazil scored four", "os 6 gols de Portugal"
# (not a margin, "a three-goal Spain cushion", "two goals down", nor a part of the match,
# "scored 1 in each half", "netted 5 penalties", nor the pool's picks: "two-goal England
# picks")
_NOT_A_TOTAL = (
    r"(?!\s+(?:lead|cushion|margin|advantage|win|down|up|ahead|behind|clear|in (?:each|the|a)"
    r"|picks?\b|bets?\b|calls?\b|predictions?|palpites?|apostas?|backers"
    r"|penalt|pens|spot[- ]kicks|times|em cada|nos? p[eê]naltis|de vantagem|de diferen))"
)
GOALS_TOLD = (
    rf"(?P<n>{COUNTED})[- ]goals?\s+{{team}}\b{_NOT_A_TOTAL}",
    rf"{{team}}(?:'s)?\s+(?P<n>{COUNTED})\s+goals\b{_NOT_A_TOTAL}",
    rf"{{team}}\s+(?:scored|netted|put in|hit|banged in|fez|marcou|meteu|enfiou)\s+(?P<n>{COUNTED})\b"
    rf"(?!\s*(?:-|x|a)\s*\d){_NOT_A_TOTAL}",
    rf"(?P<n>{COUNTED})\s+gol(?:o)?s\s+d[aoe]s?\s+{{team}}\b{_NOT_A_TOTAL}",
)


@lru_cache(maxsize=16)
def _goals_told(teams: frozenset[str]) -> tuple[re.Pattern[str], ...]:
    spelled = _spellings(teams)
    team = (
        "(?P<team>" + "|".join(re.escape(s) for s in sorted(spelled, key=len, reverse=True)) + ")"
    )
    return tuple(re.compile(rf"\b{p.replace('{team}', team)}\b", re.IGNORECASE) for p in GOALS_TOLD)


def _team_goals(text: str, records: Records) -> str | None:
    """A team's goals in words ("a five-goal Brazil"): what it scored in one of its
    matches (at the end of 90 minutes or of extra time), finished or as it stands live."""
    teams = frozenset(_teams(records))
    if not teams:
        return None
    spelled = _spelled(records)
    for pattern in _goals_told(teams):
        for found in pattern.finditer(text):
            value, team = number_value(found["n"]), spelled.get(found["team"].lower())
            if value is None or team is None or found["n"].lower() in NOT_A_COUNT:
                continue
            scored = _goals_of(team, records)
            if value not in scored:
                said = ", ".join(str(g) for g in sorted(scored)) or "none"
                return f"goals {value}: {team} scored {said} in its matches"
    return None


def _goals_of(team: str, records: Records) -> set[int]:
    """What ``team`` scored in each of its matches: at 90 minutes, after extra time, or now."""
    scored: set[int] = set()
    for match in records.matches.values():
        if team not in (match.team1, match.team2):
            continue
        home = team == match.team1
        if match.result is not None:
            ends = [match.result.full_time, match.result.end_of_play]
        elif match.status.value == "live":
            ends = [match.score_at()]
        else:
            continue
        scored |= {end.home if home else end.away for end in ends}
    return scored


def _of_run(what: str, points: int, exact: bool) -> bool:
    """Whether a match's ``points`` (and exactness) are of the run ``what`` names."""
    if what.startswith(("blank", "zer", "jogos sem", "flop", "miss", "dud", "nothing", "nada")):
        return points == 0
    if what.startswith(("exact", "cravad")):
        return exact
    return points > 0


def _whose(
    sentence: str, records: Records, addressed: str, before: str = "", at: int | None = None
) -> set[str]:
    """Whom a sentence's claim of a player's own history is about: the players it names,
    else her for "I", else for "she"/"ele" the player named last ``before`` it (never the
    one spoken to: that one is "you"), else the one the text speaks to. With the claim's
    place ``at``, the pronoun said last before it decides ("what I can report is his pick
    sheet: four straight blanks" is his)."""
    named = {h for _, _, h in named_at(sentence, records.players)}
    if named:
        return named
    if at is not None:
        pronoun = _pronoun_last(sentence[:at])
        earlier = _named_last(before, records, but=addressed) if pronoun == "them" else set()
        if earlier:
            return earlier
        if pronoun == "me" and records.me:
            return {records.me}
        if pronoun == "you" and addressed:
            return {addressed}
    if records.me and FIRST_PERSON.search(sentence):
        return {records.me}
    earlier = (
        _named_last(before, records, but=addressed) if THIRD_PERSON.search(sentence) else set()
    )
    return earlier or ({addressed} if addressed else set())


# Of a third person, in any case: "she", "his", "dele"
THIRD_ANY = re.compile(r"\b(?i:she|he|she's|he's|his|him|her|hers|ela|ele|dele|dela)\b")


def _pronoun_last(text: str) -> str:
    """Which pronoun ``text`` says last: "me" for "I", "you", "them" for a third person;
    "" for none."""
    said = [
        (m.start(), who)
        for pattern, who in ((FIRST_PERSON, "me"), (YOU, "you"), (THIRD_ANY, "them"))
        for m in pattern.finditer(text)
    ]
    return max(said)[1] if said else ""


THIRD_PERSON = re.compile(r"\b(?i:she|he|she's|he's|ela|ele)\b")


def _named_last(text: str, records: Records, but: str = "") -> set[str]:
    """The player ``text`` names last, with those listed beside them ("ana and bia"); not
    ``but``, the one it speaks to ("ana's propping up the table now, elis: ...")."""
    found = [named for named in named_at(text, records.players) if named[2] != but]
    if not found:
        return set()
    last = [found[-1]]
    for start, end, handle in reversed(found[:-1]):
        if not LISTED.match(text[end : last[-1][0]]):
            break
        last.append((start, end, handle))
    return {handle for _, _, handle in last}


def _opened(text: str, records: Records, addressed: str) -> str | None:
    """ "started with a 3-3", "a primeira aposta dele foi 2-1": a player's first pick, of
    the first match they picked (``_whose``)."""
    for sentence in SENTENCE.findall(text):
        for found in OPENED_WITH.finditer(sentence):
            said = (int(found["home"]), int(found["away"]))
            for handle in sorted(_whose(sentence, records, addressed)):
                first = records.openers.get(handle)
                if first is not None and said not in (first, first[::-1]):
                    return f"first pick {said[0]}-{said[1]}: {handle} opened with {first[0]}-{first[1]}"
    return None


def _first(part: str, handles: set[str], records: Records, match: int) -> str | None:
    """ "His first points", "finally off zero", "primeiros pontos": said of a player about
    ``match``, they scored on it and on no match of theirs before it."""
    said = FIRST_POINTS.search(part)
    if said is None:
        return None
    # "first points in four matches": since the three before it, not ever; "first points
    # since 06 Dec", "since the Round of 16": a drought of one match at least
    since = DROUGHT.match(part, said.end())
    within = number_value(since["n"]) if since else None
    day = SINCE_DAY.match(part, said.end())
    after = (
        _day_said(day["d"] or day["d2"], MONTHS.get((day["m"] or day["m2"]).lower()), records)
        if day
        else None
    )
    if since is None and after is None and SINCE.match(part, said.end()):
        within = 2
    for handle in sorted(handles):
        played = records.record.get(handle, [])
        numbers = [number for number, _, _ in played]
        if match not in numbers:
            return f"first: {handle} has no points on #{match}"
        earlier = played[: numbers.index(match)]
        if after is not None:  # the matches after that day
            earlier = [
                e
                for e in earlier
                if e[0] in records.matches and records.matches[e[0]].kickoff.date() > after
            ]
        elif within is not None:
            earlier = earlier[-(within - 1) :] if within > 1 else []
        scored = [number for number, points, _ in earlier if points > 0]
        if scored:
            return f"first: {handle} scored on #{scored[0]} before #{match}"
        if played[numbers.index(match)][1] == 0:
            return f"first: {handle} has no points on #{match}"
    return None


def _again(
    part: str,
    handles: set[str],
    records: Records,
    match: int,
    picked: dict[str, tuple[int, bool]],
) -> str | None:
    last_blank, again = LAST_BLANK.search(part), AGAIN.search(part)
    blank, exact, another = BLANK.search(part), EXACT.search(part), ANOTHER.search(part)
    # "zero again", "exact again": said of the blank or the exact it is near, not of
    # "Mbappé again ... my 1-0 exact score" or "split evenly again" after an exact named
    again_of = again is not None and any(
        said is not None and _near(again, said) for said in (blank, exact)
    )
    if not (last_blank or another or again_of):
        return None
    for handle in sorted(handles):
        previous = records.before(handle, match)
        if previous is None or handle not in picked:
            return f"again: {handle} has no match before #{match} to compare"
        (now, now_exact), (before, _) = picked[handle], previous
        earlier = [r for r in records.record.get(handle, []) if r[0] != match]
        if another and not again:  # "another exact": one before, not the one just before
            if EXACT.search(another[0]) and not (now_exact and any(r[2] for r in earlier)):
                return f"again: {handle} has no exact call before #{match} and on it"
            if not EXACT.search(another[0]) and not (now == 0 and any(r[1] == 0 for r in earlier)):
                return f"again: {handle} has no blank before #{match} and on it"
            continue
        if (last_blank or (again and blank)) and before != 0:
            return f"again: {handle} scored {before} on the match before #{match}"
        if again and blank and now != 0:
            return f"again: {handle} scored {now} on #{match}"
        # "Called it exactly again" is a second exact call, not two in a row: "a third
        # bullseye" may come two matches after the last one.
        if again and exact and not blank and not (now_exact and any(r[2] for r in earlier)):
            return f"again: {handle} has no exact call before #{match} and on it"
    return None


def _meeting(match: Match) -> tuple[str, bool] | None:
    """(winner, level at the end of play) of a finished match, or of a live one as it stands."""
    if match.result is not None:
        decided = match.decided()
        level = match.result.end_of_play.outcome == 0
        return (decided[0] if decided else ""), level
    if match.status.value != "live":
        return None
    now = match.score_at()
    home, away = now.home, now.away
    return (match.team1 if home > away else match.team2 if away > home else ""), home == away


# A win supposed, not told: "either Brazil wins or ...", "if Spain win", "se o Brasil
# ganhar" (in the clause before the words)
SUPPOSED = re.compile(
    r"\b(?:either|if|whether|unless|until|once|hope|hoping|needs?|se|caso|quando|tomara"
    r"|espero)\b[^.!?;:]*$",
    re.IGNORECASE,
)


def _results(text: str, records: Records, match: int | None) -> str | None:
    """Results in words ("Spain beat Argentina", "Spain won"): true of a meeting in the log."""
    teams = frozenset(_teams(records))
    spelled = _spellings(teams)
    if not spelled:
        return None
    held, starts = _spelled_in(text, teams)

    def told(template: str) -> Iterator[re.Match[str]]:
        return _told(template, text, held, starts)

    def team_of(written: str) -> str:
        return spelled[_spelling_of(written, held)]

    for found in told(MEETS):
        one, two = team_of(found["a"]), team_of(found["b"])
        if frozenset((one, two)) not in records.pairs:
            return f"match {one} v {two}: no such match in the pool"
    checks = ((BEAT, "beat"), (LOST, "lost to"), (DREW, "drew with"))
    for template, said in checks:
        for found in told(template):
            one, two = team_of(found["a"]), team_of(found["b"])
            meetings = records.meetings.get(frozenset((one, two)), [])
            if said == "beat" and (one, False) not in meetings and (one, True) not in meetings:
                return f"result {one} beat {two}: no match between them says so"
            if said == "lost to" and not any(w == two for w, _ in meetings):
                return f"result {one} lost to {two}: no match between them says so"
            if said == "drew with" and not any(level for _, level in meetings):
                return f"result {one} drew with {two}: no match between them says so"
    for found in told(CHAMPION):
        team = team_of(found["a"])
        if team != records.champion:
            return f"champion {team}: {records.champion or 'the cup is not decided yet'}"
    if records.champion is None and CUP_WON.search(text):
        return "champion nobody: the cup is not decided yet"
    now = records.matches.get(match) if match is not None else None
    said_won = (found for template in WINS for found in told(template))
    for found in said_won:
        if SUPPOSED.search(text, 0, found.start()):
            continue  # "either the Seleção wins or your points do": what may be
        team = team_of(found["a"])
        if now is not None and team in (now.team1, now.team2):
            meeting = _meeting(now)
            won = meeting is not None and meeting[0] == team
        else:
            won = any(
                w == team for key, ms in records.meetings.items() if team in key for w, _ in ms
            )
        if not won:
            return f"result {team} won: the log does not say so"
    return None


@dataclass(frozen=True)
class _Result:
    """A pattern of a result told in words, and whether it opens with a team (``{a}``)."""

    pattern: re.Pattern[str]
    opens: bool

    def finditer(self, text: str, starts: list[int]) -> Iterator[re.Match[str]]:
        """What ``pattern.finditer(text)`` finds, given every place a team's spelling
        starts in ``text`` (``starts``, in order). Scanned at every place, an alternation
        of a few hundred spellings was most of the claim check; one opening with a team
        can only match where one is written, so it is tried there alone, each next try
        past the last match as ``finditer`` goes on."""
        if not self.opens:
            yield from self.pattern.finditer(text)
            return
        end = 0
        for start in starts:
            if start >= end and (found := self.pattern.match(text, start)) is not None:
                yield found
                end = found.end()


@lru_cache(maxsize=16)
def _literals(teams: frozenset[str]) -> tuple[tuple[str, str | None, re.Pattern[str]], ...]:
    """Every spelling of ``teams``, longest first: lowercased where the patterns' case
    folding is ``lower``'s (``folds_as_lower``; else None), and with a pattern finding
    every place it starts (overlapping ones too), with the case folding of the patterns
    of ``_result``."""
    spelled = sorted(_spellings(teams), key=len, reverse=True)
    return tuple(
        (
            s,
            s.lower() if folds_as_lower(s) else None,
            re.compile(f"(?={re.escape(s)})", re.IGNORECASE),
        )
        for s in spelled
    )


def _spelled_in(text: str, teams: frozenset[str]) -> tuple[tuple[str, ...], list[int]]:
    """The spellings of ``teams`` that ``text`` holds, longest first, and every place one
    starts: only those can be the team of a result found, so its patterns are compiled
    with them alone (``_result``), and tried only there."""
    held = []
    starts: set[int] = set()
    # A substring test passes over the hundreds of spellings a text does not hold, where
    # the patterns' case folding is ``lower``'s (``folds_as_lower``); else each is scanned.
    lowered = text.lower() if folds_as_lower(text) else None
    for spelling, plain, literal in _literals(teams):
        if lowered is not None and plain is not None and plain not in lowered:
            continue
        found = [f.start() for f in literal.finditer(text)]
        if found:
            held.append(spelling)
            starts.update(found)
    return tuple(held), sorted(starts)


def _spelling_of(written: str, spellings: tuple[str, ...]) -> str:
    """The spelling a pattern matched as ``written``: lowercased, mostly; else the one the
    pattern's case folding took it for, which ``lower`` may not give ("BRAZİL", whose
    dotted I lowers to two letters, matched "brazil")."""
    lowered = written.lower()
    if lowered in spellings:
        return lowered
    return next(s for s in spellings if re.fullmatch(re.escape(s), written, re.IGNORECASE))


def _told(
    template: str, text: str, spellings: tuple[str, ...], starts: list[int]
) -> Iterator[re.Match[str]]:
    """What the pattern of ``template`` finds in ``text``, a team any of the pool's
    ``spellings`` the text holds (longest first, as ``_literals`` has them; ``starts``:
    where one starts). A text with no match of its part without teams holds no match of
    it either, and most say no "beat" nor "champions": those compile nothing."""
    if not spellings or _core(template).search(text) is None:
        return iter(())
    return _result(template, spellings).finditer(text, starts)


@cache
def _core(template: str) -> re.Pattern[str]:
    """``template`` without the team it opens with or ends with: any match of the whole
    holds a match of this part."""
    core = template.removeprefix("{a}").removesuffix("{b}").removesuffix("{a}")
    return re.compile(core, re.IGNORECASE)


@lru_cache(maxsize=1024)
def _result(template: str, spellings: tuple[str, ...]) -> _Result:
    """The pattern of ``template``, ``{a}`` and ``{b}`` any of ``spellings``, tried in their
    order. Compiled with the spellings a text holds, not every spelling of the pool's
    teams: a spelling the text does not hold matches nowhere in it, so the matches are
    the same, and an alternation of a few hundred spellings took a hundredth of a second
    to compile, again whenever a knock-out team became known."""
    either = "|".join(re.escape(s) for s in spellings)
    pattern = template.format(a=f"(?P<a>{either})", b=f"(?P<b>{either})")
    return _Result(re.compile(pattern, re.IGNORECASE), template.startswith("{a}"))


# What else may be "over" in a clause: someone's dream, hopes, run or night
NOT_THE_MATCH = re.compile(
    r"(?:'s|s')\s+(?:\w+\s+){0,2}(?:dream|dreams|hopes?|run|streak|night|chances?|party|luck)\b"
    r"|\b(?:sonho|esperan\w+|sequencia|festa|sorte)\b",
    re.IGNORECASE,
)


CLAUSE_OF_ENDED = re.compile(r"[,;:]|\s+(?:and|e|but|mas)\s+")


EARNED_AFTER = re.compile(
    r"\s+(?:just\s+|only\s+|still\s+)?(?:earned|earns|gave|gives|brought|landed|paid|pays"
    r"|rendeu|deu)\s+(?:\w+\s+){0,2}\d{1,2}\s*(?:points?|pts|pontos?)\b",
    re.IGNORECASE,
)


def _ended(text: str, records: Records, match: int | None) -> str | None:
    """ "It ended 0-1", "the game is over": a score a match ended at, and a match over only
    once its result is in."""
    now = records.matches.get(match) if match is not None else None
    for sentence in SENTENCE.findall(text):
        if not ENDED.search(sentence) or NOT_YET.search(sentence):
            continue
        # the clause that says it ended: "will" there is to come; "dream" there is no match's
        over = next((c for c in CLAUSE_OF_ENDED.split(sentence) if ENDED.search(c)), sentence)
        if TO_COME.search(over):
            continue
        at = sentence.find(over)
        for found in SCORE.finditer(sentence):
            home, away = int(found[1]), int(found[2])
            # (outside the clause that says it ended, a score that earned a player points
            # is their pick: "Full time, ... and that 4-2 just earned bruno 7 points")
            earned = not at <= found.start() < at + len(over) and EARNED_AFTER.match(
                sentence, found.end()
            )
            if (
                not earned
                and not _a_pick(sentence, found, records)
                and (home, away) not in records.results
            ):
                return f"ended {home}-{away}: no finished match ended so"
        if now is None or now.result is not None:
            continue
        # "elis's goalless dream is over": a dream's end, not the match's
        if NOT_THE_MATCH.search(over):
            continue
        named = _teams_in(sentence, records)
        if named <= {now.team1, now.team2} and (named or THE_MATCH.search(sentence)):
            return f"ended #{now.number}: it has not ended"
    return None


def _a_pick(text: str, found: re.Match[str], records: Records) -> bool:
    """Whether the score ``found`` is told as somebody's pick: "went 0-1", "bia picked 1-0",
    "apostou 2-1", "my 1-0 pick", "bruno's 4-2"."""
    before, after = text[: found.start()], text[found.end() :]
    if PICK_AFTER.match(after):
        return True
    # (a score between two teams is a result, however it is brought in: "yesterday went
    # Netherlands 3-1 USA")
    named_next = re.match(r"\s*((?:[A-ZÀ-Ý][\w.'\u2019-]*\s?){1,3})", after)
    ahead = _teams_in(named_next[1], records) if named_next else set()
    behind = _teams_in(before[-TEAM_REACH:], records)
    if ahead and behind and not ahead & behind:
        return False
    # (a word may stand between: "bruno's wild 4-2")
    owner = re.search(r"(\w+)['\u2019]s\s+(?:[a-z]+\s+)?$", before)
    if owner is not None:  # "bruno's 4-2" is a pick; "Portugal's 6-1 over Switzerland" is not
        return _handle(owner[1], records.players) is not None
    # ... and so is "your 0-1 Croatia", "o teu 2-1", and one in brackets after its picker:
    # "diego (4-0), fabio (3-0), bruno and I (1-0) took 5 each"
    picker = re.search(r"(\w+)\s*(?:\(|\bwith\b|\bcom\b)\s*$", before)
    if picker is not None and (
        _handle(picker[1], records.players) is not None or FIRST_PERSON.fullmatch(picker[1])
    ):
        return True
    return PICKED.search(before) is not None or POSSESSED.search(before) is not None


TEAM_REACH = 25  # characters a team's name takes beside a score ("South Korea")
POSSESSED = re.compile(
    r"\b(?:my|your|(?:o|a)\s+(?:teu|tua|meu|minha)|teu|tua|meu|minha)"
    r"\s+(?:[a-z]+\s+){0,2}$",
    re.IGNORECASE,
)


def _picks(text: str, records: Records) -> str | None:
    """A score told as a pick is a score somebody picked."""
    for sentence in SENTENCE.findall(text):
        for found in SCORE.finditer(sentence):
            home, away = int(found[1]), int(found[2])
            if _a_pick(sentence, found, records) and (home, away) not in records.picked:
                return f"pick {home}-{away}: nobody picked it"
    return None


def spoken_to(text: str, records: Records) -> str:
    """The player ``text`` speaks to by name in its first sentence, or ""."""
    sentences = SENTENCE.findall(text)
    return _vocative(sentences[0], records) if sentences else ""


def answered(text: str, records: Records) -> str:
    """The one player an answer's first sentence speaks to by name, set off anywhere in it
    ("Pessimistic is putting it kindly, ana: ...", "You went 1-1, ana — a draw"), or ""."""
    sentences = SENTENCE.findall(text)
    if not sentences:
        return ""
    told = {
        handle
        for handle, name in records.players.items()
        for spelling in {handle, name or handle}
        if _set_off(spelling).search(sentences[0])
    }
    return told.pop() if len(told) == 1 else ""


@lru_cache(maxsize=1024)
def _set_off(spelling: str) -> re.Pattern[str]:
    """``spelling`` set off by punctuation on both sides, as one is called by name."""
    said = re.escape(spelling)
    return re.compile(
        rf"(?:^\W*|[,:;\u2014\u2013]\s*){said}\s*(?:[,:;!?.\u2014\u2013](?!\s*\d)|{EMOJI}(?!\s*\d)|$)",
        re.IGNORECASE,
    )


def _vocative(sentence: str, records: Records) -> str:
    """The one player ``sentence`` speaks to by name ("Take a bow, ana: ...", "bruno, you
    ...", "... well played, ana!"), or ""."""
    told = set()
    stripped = sentence.strip()
    for handle, name in records.players.items():
        for spelling in {handle, name or handle}:
            if _calling(spelling).search(stripped):
                told.add(handle)
    return told.pop() if len(told) == 1 else ""


@lru_cache(maxsize=1024)
def _calling(spelling: str) -> re.Pattern[str]:
    """A sentence that speaks to ``spelling`` by name, at its start or its end."""
    said = re.escape(spelling)
    return re.compile(
        rf"^\W*(?:[^,:!?.]{{0,25}},\s*)?{said}\s*(?:[,:!\u2014\u2013]|{EMOJI})|,\s*{said}\W*$"
        # ... or mid-sentence, between a comma and a colon: "ana's bottom now, elis: 27"
        rf"|,\s*{said}\s*:",
        re.IGNORECASE,
    )


CALLED = re.compile(r"\s*(?::|\s[\u2014\u2013-]\s)")


def _people(
    sentence: str, records: Records, somebody: bool = True, you: str = ""
) -> list[tuple[int, int, str]]:
    """Who ``sentence`` speaks of, where: (start, end, handle), "" for somebody the check
    cannot name ("both", "you" said to nobody named, or "I" when she plays no part in the
    pool)."""
    # one called by name before a colon ("fabio again, ana: 12 points") is spoken to,
    # not spoken of: "you" is them, the figures after are not
    named = named_at(sentence, records.players)
    called = [
        f for f in named if CALLED.match(sentence, f[1]) and sentence[: f[0]].rstrip().endswith(",")
    ]
    # (one of them, after another named: "Standings, bia: 10, ana: 15" is a list)
    spoken_to = called if len(called) == 1 and named[0] is not called[0] else []
    found = [f for f in named if f not in spoken_to]
    found += [(m.start(), m.end(), records.me) for m in FIRST_PERSON.finditer(sentence)]
    if somebody:
        found += [(m.start(), m.end(), "") for m in SOMEBODY.finditer(sentence)]
        found += [(m.start(), m.end(), you) for m in YOU.finditer(sentence)]
    kept: list[tuple[int, int, str]] = []
    for item in sorted(found, key=lambda f: (f[0], -f[1])):
        if not kept or item[0] >= kept[-1][1]:
            kept.append(item)
    return kept


def _groups(
    sentence: str, records: Records, somebody: bool = True, you: str = ""
) -> list[tuple[int, int, set[str], bool]]:
    """The people of ``sentence`` in lists ("bruno, diego and carla" is one): (start, end,
    who, measured against: "2 clear of bruno")."""
    groups: list[tuple[int, int, set[str], bool]] = []
    for start, end, who in _people(sentence, records, somebody, you):
        # ("ana and me, and ana's first points ...": one owning a thing opens a clause)
        owns = re.match(r"['\u2019]s\b", sentence[end:]) is not None
        if groups and not owns and LISTED.match(sentence[groups[-1][1] : start]):
            first, _, all_of, against = groups[-1]
            groups[-1] = (first, end, all_of | {who}, against)
        else:
            groups.append((start, end, {who}, bool(AGAINST.search(sentence[:start]))))
    return groups


def _owners(
    sentence: str, start: int, end: int, groups: list[tuple[int, int, set[str], bool]]
) -> set[str] | None:
    """Whose the number at ``start``-``end`` is: the people right after it ("24 for diego",
    "24 pontos para diego"), else the nearest before it in the sentence that it is not
    measured against ("ana has 15", "I've earned 12 pts"); None when nobody is."""
    for first, _, who, _ in groups:
        if first >= end and FOR_WHOM.match(sentence[end:first]):
            return who
        if first >= end:
            break
    before = [g for g in groups if g[1] <= start]
    if before and before[-1][3] and OWNED_AFTER.match(sentence[before[-1][1] : start]):
        return before[-1][2]  # "right behind bia with 15": measured against, and on 15
    near = [g for g in groups if g[1] <= start and not g[3]]
    return near[-1][2] if near else None


# Points said still to be won, nobody's: "up to 40 points still on the table", "30
# pontos em jogo"
TO_PLAY = re.compile(
    r"\s*(?:points?|pts|pontos?)?\s+(?:still\s+|ainda\s+)?(?:on the table|up for grabs"
    r"|to play for|left to (?:win|play for)|available|in play|em jogo|em disputa|por disputar"
    r"|a disputar|para (?:ganhar|disputar)|(?:max(?:imum)?\s+|at most\s+|no m[aá]ximo\s+)?"
    r"(?:each\s+|apiece\s+|cada\s+)?(?:left|remaining|on offer|restantes?|que faltam))\b",
    re.IGNORECASE,
)


def _points(
    sentence: str, records: Records, speaks_points: bool, you: str, sure: Collection[int] = ()
) -> str | None:
    """Points said of a player are that player's (a total or a match's); a gap is a
    difference of two totals; points said of nobody are anyone's or the rule's."""
    masked = SCORE.sub(lambda m: " " * len(m[0]), sentence)
    said = [(m.start(1), m.end(1)) for m in POINTS.finditer(masked)]
    # "diego on 24", "bruno (19)": bare numbers said of a player
    bare = list(BARE.finditer(masked)) if speaks_points else []
    if not said and not bare:
        return None  # no points said: whom the sentence names does not matter
    groups = _groups(masked, records, you=_vocative(sentence, records) or you)
    for m in bare:
        near = [g for g in groups if g[1] <= m.start(1) and not g[3]]
        between = masked[near[-1][1] : m.start(1)] if near else ""
        if near and len(between.split()) <= 4 and BARE_BEFORE.search(between):
            said.append((m.start(1), m.end(1)))
    for start, end in sorted(said):
        number = int(masked[start:end])
        if number in sure:
            continue  # declared, and true: whose it is was said, not guessed
        if GAP_BEFORE.search(masked[:start]) or GAP_AFTER.match(masked[end:]):
            among = {h for g in groups for h in g[2] if h}
            if number not in records.gaps(among):
                return f"points {number}: no two totals differ by {number}"
            continue
        if TO_PLAY.match(masked[end:]) and number in records.to_play():
            continue  # the points still to win: nobody's
        owners = _owners(masked, start, end, groups)
        if (
            WORTH.search(masked[:start])
            or RULE_NAMED.search(masked[:start])
            # (read with its scores: "for the exact 1-1" is one pick's)
            or (RULE_AFTER.match(sentence[end:]) and not EARNED.search(masked[:start]))
        ):
            # "getting the winner right is worth 5 points, bruno": the rule's, whoever hears
            if number not in records.rule:
                return f"points {number}: the pool's scoring gives no {number}"
            continue
        if owners is None or "" in owners:
            # The scoring rule's values ("10 points for the exact score") stand on their own;
            # so does the gap of the players named, said before their totals ("Just 3
            # points, dani: you're on 7 and ana is on 10").
            among = {h for g in groups for h in g[2] if h}
            allowed = set(records.rule).union(*records.points.values())
            allowed |= records.gaps(among) if len(among) > 1 else set()
        else:
            allowed = set().union(*(records.spans(h) for h in owners))
        if number not in allowed:
            who = ", ".join(sorted(owners or ())) or "anyone"
            return f"points {number}: not what {who} has"
    return None


COUNTS = (
    # (pattern, the people it counts: "us" with her, "you" without, or the pool's)
    # "the four of you who went against them", "the three of you on 0-0" are some of
    # them, not a count of all.
    re.compile(
        rf"\b(?:all|the)\s+{_N}\s+of\s+(?P<who>us|you)\b"
        r"(?!\s+(?:who|that|whose|on|with|backing|behind)\b)",
        re.I,
    ),
    re.compile(rf"\b(?:os|as)\s+{_N}\s+de\s+(?P<who>nós|vocês|voces)\b", re.I),
    re.compile(
        rf"\ball\s+{_N}\s+(?:players|pickers|(?=(?:are|were|have|got|picked|went|blanked)\b))",
        re.I,
    ),
    re.compile(
        rf"\b(?:todos|todas)\s+(?:os|as)\s+{_N}(?:\s+(?:de\s+)?(?P<who>nós|vocês|voces)\b"
        r"|\s+(?:jogadores|apostadores|participantes)\b|(?=\s+(?:estão|estamos|seguem|seguimos"
        r"|continuam|continuamos|ficaram|ficamos|têm|temos|apostaram|zeraram|erraram|acertaram"
        r"|cravaram|somos|são)\b)|(?=\s+(?:ainda|já|seguem|continuam)\b)|(?=\s*(?:[,.;:!?]|$)))",
        re.I,
    ),
)


def _counts(text: str, records: Records) -> str | None:
    """Counts of the pool's people: "all five of us" is every player (with her), "all 7 of
    you" every one without her; "six players" no more than there are; "4 of 6 on zero"
    out of a real count (of players, of a match's pickers, of matches)."""
    players = len(records.players)
    for pattern in COUNTS:
        for found in pattern.finditer(text):
            value = number_value(found[1])
            who = (found.groupdict().get("who") or "").lower()
            us = True if who in ("us", "nós") else False if who else None
            if value is None or value in records.counts(us):
                continue
            # "carla ... bruno ...: the two of you": the players the text names, counted
            # (read only for a count no group of the pool's is: most texts have none);
            # "between the two of us" to elis: her and the one named
            # (those of its own sentence, else those named before it: "..., and I sneak
            # past fabio" after it names no more of them)
            start = max(text.rfind(mark, 0, found.start()) for mark in ".!?;")
            end = min(
                [i for i in map(text.find, ".!?;", [found.end()] * 4) if i >= 0] or [len(text)]
            )
            own = {h for _, _, h in named_at(text[start + 1 : end], records.players)}
            before = {h for _, _, h in named_at(text[: found.start()], records.players)}
            named = len((own or before) - {records.me})
            if value != named + (1 if us else 0):
                return f"count {value}: the pool has {players} players"
    for found in PLAYERS_COUNT.finditer(text):
        value = number_value(found[1])
        if value is not None and value > max(records.counts(None)):
            return f"count {value}: the pool has {players} players"
    finished = sum(1 for m in records.matches.values() if m.result is not None)
    wholes = records.counts(None) | {len(records.matches), finished}
    for found in N_OF_M.finditer(text):
        part, whole = number_value(found[1]), number_value(found[2])
        if part is None or whole is None:
            continue
        if whole not in wholes or part > whole:
            return f"count {part} of {whole}: no count of players or pickers is {whole}"
    return _matches_left(text, records)


# Matches still to play told: "two games left", "faltam três jogos", "3 matches to go"
MATCHES_LEFT = re.compile(
    rf"\b(?P<n>{COUNTED})\s+"
    r"(?:more\s+)?(?:games?|match(?:es)?|jogos?|partidas?)\s+(?:left|to go|remaining|restantes?"
    rf"|pela frente|por jogar|por disputar)\b|\bfalta(?:m)?\s+(?P<m>{COUNTED})\s+"
    r"(?:jogos?|partidas?)\b",
    re.IGNORECASE,
)


# A past tense before it: "snatched", "took", "was", "fiquei", "passou"
PAST = re.compile(
    r"\b(?:took|snatched|grabbed|clinched|sealed|won|went|was|were|led|overtook|passed"
    r"|fiquei|passou|passei|tomei|tomou|assumiu|ganhou)\b",
    re.I,
)


def _matches_left(text: str, records: Records) -> str | None:
    """ "Two games left": the matches not finished, of the pool or of a stage of it (or
    but the one in play)."""
    left = records.left()
    for found in MATCHES_LEFT.finditer(text):
        value = number_value(found["n"] or found["m"])
        # "I only snatched it at the third-place match with one game to go": then, not now
        opened = max((m.end() for m in re.finditer(r"[.!?;]", text[: found.start()])), default=0)
        if PAST.search(text, opened, found.start()):
            continue
        if value is not None and value not in left:
            return f"matches left {value}: {max(left)} to play"
    return None


def _shares(text: str, records: Records, match: int | None) -> str | None:
    """How a match's pickers split ("2 of 9 saw a draw"), against its picks: the match
    the line is about, or, about none, any match kicked off. Of "you" the count is without
    her, of "us" with her, of a number either way; before kick-off nothing is told."""
    for part_word, whole_word, what in _shares_said(text):
        most = part_word.lower() in MOST  # "most of you are on France": more than half
        part = 0 if most else number_value(part_word)
        whole = number_value(whole_word) if whole_word else None
        if part_word.lower() in NOT_A_COUNT or part is None:
            continue  # "one of you backed Brazil" is somebody, not a count
        if whole_word and whole is None and whole_word not in _WHO:
            continue
        numbers = [match] if match is not None else list(records.matches)
        named = [
            (n, side)
            for n in numbers
            if n in records.matches
            and (side := _side_named(what, records.matches[n], records)) is not None
        ]
        if not named:
            continue  # no outcome of this match read: not judged
        counted = [(records.shares[n], side) for n, side in named if n in records.shares]
        if not counted:
            return f"share #{named[0][0]}: its picks are hidden until kick-off"
        framings = _WHO.get(whole_word, (0, 1))
        if not any(
            (2 * split[f].of(side) > split[f].picks if most else part == split[f].of(side))
            and whole in (None, split[f].picks)
            for split, side in counted
            for f in framings
        ):
            (split, side), f = counted[0], framings[-1]
            said = (
                f"{part_word if most else part} of {whole or whole_word}"
                if whole_word
                else str(part)
            )
            return f"share {said}: {split[f].of(side)} of {split[f].picks} picked it"
    return None


# The pickers said split some ways: "split evenly three ways", "a three-way split", "you're
# split down the middle", "dividido em três"; of "you" without her, of "us" with her,
# else either
SPLIT_WAYS = re.compile(
    r"\b(?:split|divided|dividid[oa]s?|rachad[oa]s?)\s+(?:(?P<even>evenly|equally|neatly"
    r"|(?:right\s+)?down\s+the\s+middle|certinho|igualmente|por\s+igual|ao\s+meio)\s*)?"
    r"(?:(?P<n>two|three|2|3)\s+ways\b|em\s+(?P<pt>duas|dois|tr[eê]s|2|3)\b)?"
    r"|\b(?P<way>two|three|2|3)-way\s+split\b",
    re.IGNORECASE,
)
YOU_ALL = re.compile(r"\b(?:vocês|voces|you lot|you all|y'all)\b", re.IGNORECASE)
# ("the pool is split evenly", as her lines say it, may be the others': 2-2-2 beside her
# own pick; "we", "us" are with her)
SPLIT_WITH_HER = re.compile(r"\b(?:we|we're|us|nós)\b", re.IGNORECASE)
REST_OF = re.compile(
    r"\b(?:the\s+rest|the\s+others|everyone\s+else|o\s+resto|os\s+outros)\b", re.IGNORECASE
)


def _split_ways(text: str, records: Records, match: int | None) -> str | None:
    """Pickers said split so many ways, or evenly: the outcomes picked (home win, draw,
    away win), that many, each by as many, of the match the line is about. The ways are
    said ("three ways") or listed ("between Japan, a draw and Croatia"); "the rest" are
    the pickers but her and those named before it, or, named none, those on her pick."""
    if match is None or match not in records.shares or match not in records.matches:
        return None
    for said in SENTENCE.finditer(text):
        sentence = said[0]
        for found in SPLIT_WAYS.finditer(sentence):
            ways_word = found["n"] or found["pt"] or found["way"]
            after = sentence[found.end() :]
            even = found["even"] is not None or EACH.search(after) is not None
            if ways_word is None and not even:
                continue  # "the pool is split": some disagree, no count said
            if SCORE.search(after) or DENIED.search(sentence[: found.start()]):
                continue  # split by scores ("2-0, 1-0 and 3-1"), or "not split evenly"
            listed = _outcomes_named(after, records.matches[match])
            ways = number_value(ways_word) if ways_word else None
            ways = ways or (listed if listed > 1 else None)
            if REST_OF.search(sentence[: found.start()]):
                views = [_the_rest(text[: said.start() + found.start()], records, match)]
            else:
                framings = (
                    (1,)
                    if YOU.search(sentence) or YOU_ALL.search(sentence)
                    else (0,)
                    if SPLIT_WITH_HER.search(sentence)
                    else (0, 1)
                )
                views = [records.shares[match][f] for f in framings]
            if not any(_split_so(view, ways, even) for view in views):
                view = views[0]
                return f"split #{match}: {view.home} home, {view.draw} draw, {view.away} away"
    return None


EACH = re.compile(r"^[^.;]{0,12}?\b(?:two|three|2|3|one|1)\s+each\b|\bcada\b", re.IGNORECASE)


def _outcomes_named(said: str, match: Match) -> int:
    """How many of ``match``'s outcomes ``said`` names: its teams (or their people, "the
    Swiss"), and a draw."""
    book = TeamBook.standard()
    named = book.named_in(said, {match.team1, match.team2})
    lowered = said.lower()
    for team in {match.team1, match.team2} - named:
        if any(re.search(rf"\b{re.escape(p.lower())}\b", lowered) for p in book.people_of([team])):
            named.add(team)
    return len(named) + (DRAW_SAID.search(said) is not None)


DRAW_SAID = re.compile(r"\b(?:draws?|empates?|tie)\b", re.IGNORECASE)


def _the_rest(before: str, records: Records, match: int) -> Shares:
    """How the pickers but her and those named ``before`` picked ``match`` (named none:
    but her and those on her own pick, "two of you share it with me; the rest ...")."""
    picks = [p for p in records.placed.get(match, []) if p.handle != records.me]
    named = {h for _, _, h in named_at(before, records.players)} - {records.me}
    if not named:
        mine = _pick_score(records, match, records.me)
        named = {p.handle for p in picks if (p.score.home, p.score.away) == mine}
    return shares(p for p in picks if p.handle not in named)


def _split_so(split: Shares, ways: int | None, even: bool) -> bool:
    picked = [n for n in (split.home, split.draw, split.away) if n]
    return (ways is None or len(picked) == ways) and (not even or len(set(picked)) == 1)


MOST = {"most", "maioria"}  # a part that is more than half
_WHO = {"you": (1,), "vocês": (1,), "voces": (1,), "us": (0,), "nós": (0,)}


def _shares_said(text: str) -> Iterator[tuple[str, str, str]]:
    """Each split of a match's pickers ``text`` tells: the part, the whole ("" for
    none) and the words naming the side ("2 of 9 saw a draw", "both Spain backers")."""
    for found in PICKED_SHARE.finditer(text):
        yield found["part"], (found["whole"] or "").lower(), found["what"]
    for found in BACKERS.finditer(text):
        yield "two" if found["both"] else found["part"], "", found["what"] or found["team"]


def _side_named(what: str, match: Match, records: Records) -> int | None:
    """The outcome of ``match`` that ``what`` names (1 home, 0 draw, -1 away), or None."""
    if DRAW_NAMED.match(what):
        return 0
    lowered = what.lower()
    for said, side in SIDE_WIN.items():
        if lowered.startswith(said):
            return side
    lowered = WIN_OF.sub("", lowered)
    for spelling, team in sorted(_spelled(records).items(), key=lambda s: -len(s[0])):
        if re.match(rf"{re.escape(spelling)}\b", lowered):
            return 1 if team == match.team1 else -1 if team == match.team2 else None
    return None


def _teams_in(text: str, records: Records) -> set[str]:
    """The pool's teams ``text`` names, by any spelling the team book knows."""
    return TeamBook.standard().named_in(text, _teams(records))


def _teams(records: Records) -> set[str]:
    return {t for m in records.matches.values() for t in (m.team1, m.team2)}


def _spelled(records: Records) -> dict[str, str]:
    """Every spelling of the pool's teams, lowercased, to the team's name (not to change:
    shared by every check while the pool's teams stand)."""
    return _spellings(frozenset(_teams(records)))


@lru_cache(maxsize=16)
def _spellings(teams: frozenset[str]) -> dict[str, str]:
    return TeamBook.standard().spellings(teams)


TALLIED = 8  # matches told together: a goal tells its match's eight again, not all


@dataclass(frozen=True)
class _Tally:
    """What a run of matches gives the records: the scores they stood at, their teams,
    their meetings in order, their names, their figures (numbers, goals' minutes) and
    the scores they ended at. Never changed after."""

    matches: tuple[Match, ...]
    scores: frozenset[tuple[int, int]]
    pairs: frozenset[frozenset[str]]
    meetings: tuple[tuple[frozenset[str], tuple[str, bool]], ...]
    names: frozenset[str]
    figures: frozenset[int]
    results: frozenset[tuple[int, int]]


def _tally(matches: list[Match]) -> _Tally:
    scores: set[tuple[int, int]] = set()
    pairs: set[frozenset[str]] = set()
    meetings: list[tuple[frozenset[str], tuple[str, bool]]] = []
    names: set[str] = set()
    figures: set[int] = set()
    results: set[tuple[int, int]] = set()
    for match in matches:
        scores |= _scores_of(match)
        pair = frozenset((match.team1, match.team2))
        pairs.add(pair)
        meeting = _meeting(match)
        if meeting is not None:
            meetings.append((pair, meeting))
        names |= {match.stage, match.group or "", match.venue or ""}
        names |= {goal.scorer or "" for goal in match.goals}
        # (a goal in added time by the minute it was scored too: 90+11 is "the 101st minute")
        figures |= {match.number, *(goal.minute for goal in match.goals)}
        figures |= {goal.minute + goal.added for goal in match.goals if goal.added}
        results |= _ends_of(match)
    return _Tally(
        tuple(matches),
        frozenset(scores),
        frozenset(pairs),
        tuple(meetings),
        frozenset(names),
        frozenset(figures),
        frozenset(results),
    )


def _ends_of(match: Match) -> set[tuple[int, int]]:
    """The scores a finished match ended at (full time, extra time, aggregate, shoot-out),
    both ways."""
    if match.result is None:
        return set()
    ends = {(part.home, part.away) for part in match.result.scores}
    return ends | {(b, a) for a, b in ends}


def _scores_of(match: Match) -> set[tuple[int, int]]:
    """Every score a match has stood at: each running score, and its results."""
    scores = {(0, 0)} if match.status.value != "scheduled" else set()
    for upto in range(1, len(match.goals) + 1):
        now = tally(match.goals[:upto])
        scores.add((now.home, now.away))
    if match.result is not None:
        scores |= {(part.home, part.away) for part in match.result.scores}
    # Told from either side ("Serbia lost 0-2 to Brazil"): the mirror is the same score.
    return scores | {(b, a) for a, b in scores}


def _handle(word: str, players: dict[str, str]) -> str | None:
    lowered = word.lower()
    for handle, name in players.items():
        if lowered in (handle, (name or handle).lower()):
            return handle
    return None
