"""The kinds of question she answers from the pool's records and her memory, in English
and Portuguese, and what a line to her asks: each kind it reads as, with its slots.

A line may read as several kinds ("how am I doing in match 3?" names a match and asks
after the asker's rank): ``asks_in`` lists them in the order they are tried, and her
answers take the first the records can answer (a pick for a match the pool does not
have, or a club's place in a pool that is no league, is passed over for the next).
Rules read the line lowercased and without accents ("posicao", "voce") where the
patterns say so, and with players' shorthand ("vc", "q", "tô").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta

from game.text import unaccented
from memory.guard import named_in
from memory.naming import players_by_name
from memory.ordinals import AFTER_FIRST, ordinal_value
from memory.spoken_dates import day_in

CASELESS = re.IGNORECASE
HOW_AM_I = re.compile(
    r"how am i|how'?s it going|how do i stand|my (?:rank|position)"
    r"|como (?:eu )?(?:estou|est[aá]|to|tô|vou)|minha posi",
    CASELESS,
)
LEADING = re.compile(
    r"\bwho(?:'s| is)? (?:leading|on top|first|ahead|winning|top)|\bwho leads"
    r"|quem (?:[eé] (?:que|q) )?(?:est[aá] |t[aá] |vai )?(?:na frente|[aà] frente|liderando"
    r"|ganhando|em primeiro|no topo|lidera)|quem [eé] (?:o|a) l[ií]der"
    r"|\b(?:am i|are you|is \w+|i'?m|you'?re)(?: still| now)? (?:on )?top\b"
    r"|\bna lideran[cç]a\b|\bin the lead\b|\bquem (?:[eé] que )?vai (?:a|à) frente"
    r"|\bquem (?:[eé] que )?manda(?: agora)? na tabela",
    CASELESS,
)
# "who led after match 40?", "quem liderava depois do jogo 40?": the table as it stood then
LED_AFTER = re.compile(
    r"\bwho (?:led|was (?:leading|on top|first|ahead))\b.*\bafter\b"
    r"|\bquem (?:liderava|estava (?:na frente|em primeiro|no topo))\b.*\bdepois\b",
    CASELESS,
)
FORECAST = re.compile(
    r"\bwho(?:'ll| will|'s going to| is going to| gonna)? wins?\b(?P<rest>.*)"
    r"|quem (?:vai |ir[aá] )?gan(?:ha|har)\b(?P<resto>.*)",
    CASELESS,
)
# "who's gonna be champion?", "quem vai ser campeao?": the tournament's forecast
CHAMPION = re.compile(
    r"\bwho(?:'s| is)?(?: gonna| going to| will)? (?:be )?(?:the )?champions?\b"
    r"|\bquem (?:vai ser|sera|e) (?:o )?campeao\b"
)
CUP = re.compile(
    r"\b(?:cup|tournament|world cup|copa|mundial|t[ií]tulo|title|league|liga|campeonato"
    r"|brasileir[aã]o|champions?(?:hip)?|campe[aã]o)\b",
    CASELESS,
)
# "match 12", "#12", but not a score: "que jogo 4-1!!"
MATCH_NUMBER = re.compile(
    r"(?:\b(?:match|game|jogo|partida)\s*#?|#)(?P<n>\d{1,3})\b(?!\s*[-x:]\s*\d)", CASELESS
)
LAST_MATCH = re.compile(r"\blast (?:match|game)|[uú]ltimo jogo|jogo anterior", CASELESS)
# "what's the next match?", "quem joga amanhã?", "who's playing tonight and what time?"
# (read plain): the next match to kick off, that day's first when a day is said
NEXT_MATCH = re.compile(
    r"\b(?:next (?:match|game)|proxim[oa] (?:jogo|partida)|(?:jogo|partida) de (?:hoje|amanha)"
    r"|who(?:'?s| is)? play(?:s|ing)\b(?! (?:better|well|worse|for)\b)|quem joga\b(?! (?:melhor|pior|mais|bem|mal)\b)"
    r"|when(?:'?s| is) the next|quando (?:e|eh) o proximo)"
)
NEXT_DAY = {"hoje": 0, "today": 0, "tonight": 0, "amanha": 1, "tomorrow": 1}
# "who called Brazil?", "quem mais cravou o 2-1 além de mim?", "alguém cravou o placar da
# final?", "who else got it exactly?": the match is the rest's team, score or "final",
# else the last one played (read on the line without accents)
WHO_CALLED = re.compile(
    r"\b(?:who (?:else )?(?:called|nailed|got (?:it|that|the score)(?: exact\w*| spot on)?)"
    r"|(?:quem|alguem|ninguem) (?:e (?:que|q) )?(?:mais |ja |tb |tambem )?(?:cravou"
    r"|acertou (?:o placar|em cheio))"
    r"|(?:anyone|anybody) (?:else )?(?:call|called|nail|nailed|get it exact\w*))"
    r"(?P<team>[^?!]*)"
)
KNOW_ABOUT = re.compile(
    r"(?:know|remember)\s+about\s+@?(?P<who>[\w.-]+)"
    r"|(?:sabes?|lembras?|lembre|conheces?|contei|disse|falei)\s+(?:sobre|de|do|da)\s+@?(?P<quem>[\w.-]+)",
    CASELESS,
)
SELF = ("me", "mim", "myself", "eu", "i")
# What goes on after a word asked about when it is a thing, not a person: "do camarão", "coisa"
THING_GOES_ON = re.compile(r"\s+(?!(?:e|and|ou|or|agora|now|ai|aí|hoje|today|mesmo|msm)\b)\w")
# "everything you know about me", "tudo q vc sabe de mim": the facts the handful left out
EVERYTHING = re.compile(
    r"\b(?:everything|all)\b.*?\babout\s+@?(?P<who>[\w.-]+)"
    r"|\btudo\b.*?\b(?:sobre|de|do|da)\s+@?(?P<quem>[\w.-]+)"
)
# "which team does carla support?", "pra quem a ana torce agora?", "qual o time do coracao
# da bia?": the team facts that hold today (read on the line without accents)
SUPPORTS = re.compile(
    r"\b(?:who|whom|which|what)\b(?: team| club)? (?:does|do) @?(?P<who>[\w.-]+)"
    r" (?:support|root for|cheer for)\b"
    r"|\b(?:pra|para|por) quem (?:o |a )?@?(?P<quem>[\w.-]+) torce\b"
    r"|\btime (?:do coracao )?(?:d[oa]|de) @?(?P<de>[\w.-]+)"
)
# "who called the most exact scores?", "quem cravou mais placares?"
MOST_EXACT = re.compile(
    r"\b(?:most|more) (?:exact|exacts|scores? (?:called|right))"
    r"|\b(?:cravou|cravaram|acertou) mais\b|\bmais (?:placar(?:es)? )?exatos?\b|\bmais cravad"
    r"|\bhow many exact(?: scores?)? (?:so far|have been|were there)|\bquem (?:ja )?cravou (?:algum )?placar\b"
    r"|\bquantos (?:placares )?exatos (?:ja )?(?:teve|tivemos|saiu|sairam|houve|ate agora)"
    r"|\b(?:quem|who)\b.{0,15}\b(?:acert\w+|got|has) (?:um |an? )?(?:resultado|placar|exact)\w* exat"
    r"|\bplacar(?:es)? exatos?\b.*\bmais\b|\bexact (?:scores? )?.*\bmost\b"
    # each one's count: "quantos exatos tem cada um?", "how many exact scores each?"
    r"|\bexat\w*\b.{0,25}\bcada um\b|\bcada um\b.{0,25}\bexat|\bexact\w*\b.{0,25}\beach\b"
    r"|\bexact\w*(?: scores?)? so far\b.{0,12}\b(?:whole|all|everyone|pool)"
)
# The pool's table: "manda a classificação", "top 3", "quem tá na lanterna", "final
# podium", "quem levou o bolão?", "who won the pool?" (read without accents)
POOL_TABLE = re.compile(
    r"\b(?:classificacao|standings|ranking|top ?\d|podium|podio|lanterna|last place|table|tabela"
    r"|ultimo lugar|bottom|quem (?:levou|ganhou|venceu)(?: o bolao)?"
    r"|(?:o|a) pi(?:or|ores) do bolao|worst in the pool|dead last"
    r"|who(?:'s| is) last|(?:quem|who|to|tou|estou|sou|am i|i'?m)(?:'s| is| ta| esta| e)?\s+"
    r"(?:em |in )?(?:ultimo|last)\b"
    r"|empatad\w*|tied|(?:quem|who|to|tou|estou|sou|am i|i'?m)(?:'s| is| ta| esta| e)?\s+"
    r"(?:sozinh[oa] |alone |still |ainda )?(?:em |in )?(?:primeiro|segundo|terceiro|quarto"
    r"|quinto|sexto|penultimo|second|third|fourth|fifth|sixth|\d(?:o|st|nd|rd|th))(?: lugar| place)?"
    r"|who won(?: the pool)?|resultado (?:final )?do bolao|the table|a tabela|na tabela"
    r"|placar do bolao|how(?:'s| is) the pool)\b"
)
# Two players' totals set side by side: "quanto eu tô atrás do fabio?", "vc passou na minha
# frente??", "who's got more points, me or you?", "o fabio ainda tá na frente?"
GAP = re.compile(
    r"\b(?:atras d|na (?:minha |tua |sua )?frente|a frente d|passou|passar|passaste|ultrapass"
    r"|alcanc\w*"
    r"|empat(?:ou|ei|amos|ado|ada|aste|as)|nos separa\w*|ahead of|behind|overt[ao]\w*|passed me"
    r"|catch up"
    r"|more points|mais pontos|tied with|level with|me or you|you or me|you or \w+|\w+ or you"
    r"|eu ou (?:vc|voce)|(?:vc|voce) ou (?:eu|\w+)|diferenca (?:pr|entre|d)|gap"
    r"|how far (?:behind|ahead|am i from|from)|by how much|por quanto|de avanco|vantagem|lead over|te levo"
    r"|a quantos pontos|quantos pontos (?:atras|a frente|de (?:ti|voce|vc))|separa\w*|\blevel\b"
    # "quanto falta pro líder?", "quantos pontos faltam pra passar a ana?"
    r"|(?:quanto|quantos pontos?) (?:me )?falta\w*"
    r"|empatad[oa]s)"
)
# Her in Portuguese's second person: "te levo de avanço", "passaste-me"
# ... or "us", the asker and her: "quantos pontos nos separam?", "the gap between us"
SECOND_PERSON = re.compile(
    r"\bte\b|\bti\b|\b\w+(?:aste|este|iste)\b|\bnos separa\w*|\bbetween us\b|\bentre nos\b"
    r"|\bentre a gente\b"
)
# A total asked: "com quanto ele fechou?", "how many points does ana have?"
TOTAL_OF = re.compile(
    r"\b(?:quanto|quantos|how many|how much|pontos|points|pts|total|fechou|terminou|finished)\b"
)
# One side of a gap said by its place: "a diferença entre mim e o último", "the leader"
_THE = r"\b(?:o|a|pro|pra|do|da|ao|the)"
GAP_LAST = re.compile(
    rf"{_THE} ultim[oa]\b|\blanterna\b|\blast place\b|\bthe (?:last one|bottom)\b"
)
GAP_PENULT = re.compile(rf"{_THE} penultim[oa]\b|\bsecond[- ]to[- ]last\b")
GAP_LEADER = re.compile(rf"{_THE} (?:lider|primeir[oa]|leader)\b")
# ... or by its rank: "minha vantagem pro 2º", "behind the 3rd"
GAP_RANK = re.compile(
    r"\b(?:o|a|pro|pra|do|da|the)\s*(?P<n>[2-9])\s*(?:º|°|o|a|nd|rd|th)(?!\w)"
    rf"|\b(?:o|a|pro|pra|do|da|the) (?P<word>{AFTER_FIRST})\b"
)
LAST, LEADER, PENULT = "@last", "@leader", "@penult"  # the sides a GapAsked names by place
# ... or as the one that matters to the other side: "how far ahead am I?" (the second, when
# the asker leads; the leader, when not)
RIVAL = "@rival"
# The asker's place asked: "qual minha posição?", "em que posição eu caí?"
PLACE_ASKED = re.compile(r"\b(?:posicao|position|colocacao|lugar|place|rank)\b")
# The pool's scoring asked: "quanto vale um placar exato?", "do penalties count?", "1x1 e
# ganhei 7 pontos?? explica", "why didn't I get 10?"
# ... of which these are asked of nothing else ("quanto vale", "penalties"): read first
RULES_FIRST = re.compile(
    r"\b(?:quanto vale|vale quanto|worth|penaltis?|penalt(?:y|ies)|prorrogacao|extra[- ]time"
    r"|regras?|rules|pontuacao|scoring|how many points is that|(?:only )?get the winner right"
    r"|acert\w* (?:so )?(?:o (?:vencedor|saldo)|quem ganha))\b"
)
RULES = re.compile(
    r"\b(?:quanto vale|vale quanto|how much is .{0,20}worth|what'?s .{0,20}worth|how many points"
    r" (?:for|is|do you get)|scoring|pontuacao|(?:as |the )?(?:regras?|rules)\b"
    r"|penaltis?|penalt(?:y|ies)|disputa de penaltis|prorrogacao|extra[- ]time)"
    r"|\b(?:pq|por ?que|porque|why)\b.{0,40}\b(?:ganhei|get|got|fiz|levei|nao ganhei|didn'?t get)\b"
    r"|\b(?:explica|explain)\b"
)
# Who picked a team: "quem apostou na França a ganhar?", "who backed Morocco?", "alguém
# botou fé no Japão?" (read without accents; the team is found by the answer)
WHO_PICKED = re.compile(
    r"\b(?:quem|who|alguem|anyone|anybody|ninguem|who else|quem mais)\b(?: (?:e que|mais|else"
    r"|aqui|here))?(?: (?:actually|really|de fato|mesmo))? (?:apostou|apostaram|botou|botaram"
    r"|meteu|meteram|foi|went|picked|pick|backed|back|bet|tipped|tip|chose|escolheu|acreditou"
    r"|believed)(?: (?:fe|all|tudo|todas as fichas))?"
    r"(?: (?:em|na|no|nos|nas|on|in|for|with|pel[oa]))?\b(?! (?:(?:o|a|um|the) )?(?:placar|score"
    r"|empate|draw|\d))"
)
# The day's best: "quem fez mais pontos hoje?", "who won the day?", "o dia foi de quem?"
DAY_BEST = re.compile(
    r"\b(?:quem|who)\b.{0,25}\b(?:mais pontos|most points|more points|pontuou mais|scored most)"
    r"\b.{0,30}\b(?:hoje|today|ontem|yesterday|(?:n)?(?:o|esse|este|nesse|neste) dia|(?:the|that)"
    r" day|(?:a|na|essa|nessa) rodada|(?:a|na) jornada|round)\b"
    r"|\b(?:ganhou|venceu|levou|won|wins|took) (?:o dia|the day|a rodada|a jornada|the round)\b"
    r"|\b(?:best|melhor) (?:of the day|today|do dia|de hoje|da rodada)\b|\bo dia foi de quem\b"
)
DAYS_BACK = {"hoje": 0, "today": 0, "ontem": 1, "yesterday": 1}
# Who scored on a match: "quem pontuou nesse jogo?", "did anyone get points on Morocco Spain?"
SCORED_ON = re.compile(
    r"\b(?:quem|alguem|ninguem) (?:(?:e|eh) (?:que|q) )?(?:mais )?(?:pontuou|fez ponto|fez algum ponto|se deu bem"
    r"|ganhou (?:algum )?ponto|levou ponto)"
    r"|\b(?:who|anyone|anybody|did anyone|did anybody) (?:actually )?(?:get|got|score|scored"
    r"|earn|earned|won) (?:any )?(?:points|pts)\b|\bwho did (?:well|ok|okay)\b"
)
# A player's points on one match: "how many did I get for morocco spain?", "quanto eu fiz
# nesse?", "meu 1-1 deu quanto?": their pick and what it earned
POINTS_ON = re.compile(
    r"\b(?:fiz|ganhei|marquei) (?:algum )?ponto|\bpontuei\b|\bdid i (?:get|score) (?:any )?points"
    # "o meu 0-0 vale alguma coisa?", "my 1-1 gets me anything?"
    r"|\b(?:meu|my)\s+\d+\s*[x-]\s*\d+\b.{0,20}\b(?:vale|valeu|deu|rendeu|worth|gets?|counts?"
    r"|conta)\b"
    r"|\bwhat did (?:i|you) get (?:out of|for|on|from)\b"
    r"|\b(?:how many|how much|quanto|quantos)\b.{0,20}\b(?:did i get|i get|(?<!have )i got|did i score"
    r"|fiz|ganhei|levei|fez|ganhou|levou)\b(?!.*\b(?:total|geral|bolao|overall|so far|now|agora"
    r"|jogos|matches|games|partidas)\b)"
)
# The asker's own place asked: "am I third now?", "ainda tô em último?"
SELF_PLACE = re.compile(
    r"\b(?:am i|i'?m|to|tou|estou|sou|fiquei|terminei|continuo|sigo)\s+(?:sozinh[oa] |alone |still "
    r"|ainda |now )?"
    r"(?:em |in )?(?:primeir[oa]|segund[oa]|terceir[oa]|quart[oa]|quint[oa]|sext[oa]|ultim[oa]"
    r"|penultim[oa]|first|second|third|fourth|fifth|sixth|last|\d(?:o|º|a|st|nd|rd|th))\b"
)
# The pool's table asked in so many words: before the asker's own row
TABLE_ASKED = re.compile(
    r"\b(?:top ?\d|podium|podio|classificacao|standings|ranking|(?:full |final |whole )?table"
    r"|tabela (?:completa|final|toda)|quanto tem cada um|quantos pontos (?:tem )?cada um"
    r"|how many (?:points )?(?:does )?each)\b"
)
# A match asked by its teams: "quem passou, inglaterra ou frança?", "how did Brazil do?"
TEAMS_RESULT = re.compile(
    r"\b(?:passou|ganhou|venceu|won|went through|result|resultado|placar|score|como foi"
    r"|deu quanto|how did|how'?d)\b"
)
# "matches 1 to 4", "jogos 1 a 4", "games 3-7": a run of matches
MATCH_RANGE = re.compile(
    r"\b(?:matches|games|jogos|partidas)\s+(?:from\s+|de\s+|do\s+)?(?P<first>\d{1,3})"
    r"\s*(?:to|through|thru|-|a|ao|ate)\s*(?P<last>\d{1,3})\b"
)
# "before the 80th minute", "antes dos 80 minutos", "at 60'": the score then
BEFORE_MINUTE = re.compile(
    r"\bbefore (?:the )?(?:minute )?(?P<n>\d{1,3})(?:st|nd|rd|th)?(?: minute|')?"
    r"|\bantes d[oa]s? (?:minuto )?(?P<pt>\d{1,3})(?:o|º)?(?: minutos?|')?"
)
# The rules below read the line lowercased and without accents (``_plain``).
HELP = re.compile(
    r"^\W*(?:help|ajuda|socorro|commands|comandos)\W*$"
    r"|\bwhat can (?:you|u) (?:do|answer)|\bo (?:q|que) (?:vc|voce) (?:sabe fazer|faz|responde)"
)
# The asker speaking of themselves: "my", "I'm", "meu", "eu", "tô"
ME = re.compile(
    r"\b(?:i|i'?m|im|my|me|mine|eu|meu|minha|meus|minhas|mim|tenho|fiz|fico|fiquei|terminei|estou"
    r"|to|tou)\b"
)
YOU = re.compile(r"\b(?:you|your|u|ur|voce|vc|tu|teus?|tuas?|seus?|suas?)\b")  # her, asked
# What she has, asked of her: "quantos pontos tens?", "how many have you got?"
YOURS = re.compile(
    r"\b(?:tens|tem (?:tu|voce|vc)|(?:voce|vc|tu) (?:tem|tens)|do you have|have you got"
    r"|you(?:'ve)? got|you have|your (?:points|total|score))\b"
)
PICKED = re.compile(
    r"\b(?:pick(?:ed|s)?|bet|guess(?:ed)?|predict\w*|palp\w*|apost\w*|chut\w*|botei|went"
    r"|go for|gone for|botou|botaram|meteu|meteste|meti|mete|your call|tua aposta|sua aposta"
    r"|(?:eu|i|me) (?:com|with) \d+ ?[x-] ?\d+)\b"
)
# Every player's pick asked at once: "FRA-POL picks pls, everyone's", "mostra os palpites de
# inglaterra x frança", "what did everyone pick?"
EVERYONE_PICKED = re.compile(
    r"\b(?:everyone'?s?|everybody'?s?|all (?:the )?picks|all of (?:you|us)|todos|toda a gente"
    r"|todo (?:o )?mundo|geral|(?:os|the|final) (?:palpites|apostas|picks))\b"
)
# The picks of a match, said in the plural and nobody's: "palpites pro Marrocos-Portugal?",
# "picks for the final?"
PICKS_FOR = re.compile(
    r"\b(?:palpites|apostas|picks|bets)\s+(?:(?:ha|há|tem|there)\s+)?"
    r"(?:pro|pra|para\s+o|para\s+a|do|da|no|na|for|on|in)\b"
)
BEST_WORST = re.compile(
    r"\b(?P<side>best|worst|melhor|pior)\b.*\b(?:match|game|jogo|partida|pick|palpite)"
)
OWN_SCORE = re.compile(
    r"\b(?:quantos (?:eu )?tenho|quanto (?:eu )?tenho|how many (?:do )?i have|my (?:score|total)"
    r"|com quant[oa]s? (?:eu )?(?:fico|fiquei|to|tou|estou)|(?:fico|fiquei|to|tou|estou) com quant[oa]s?"
    r"|exact|exatos?|cravadas?|points?|pts|pontos?|rank\w*|position|place"
    r"|posicao|lugar|colocacao|total|terminei|fiquei|where am i|onde (?:eu )?(?:to|tou|estou))\b"
)
# "who is top of the league?", "quem lidera o campeonato?": the clubs' table, not the pool's
TABLE_TOP = re.compile(
    r"\btop of the (?:league|table)|\b(?:leads?|leading) the (?:league|table)|\bleague leaders?"
    r"|\bquem (?:lidera|esta liderando|ta liderando|e o lider|esta em primeiro|ta em primeiro)"
    r" (?:o |a |do |da |no |na )?(?:campeonato|tabela|brasileirao|liga)"
    r"|\blider (?:do|da) (?:campeonato|tabela|brasileirao|liga)"
)
WHERE_IS = re.compile(
    r"\b(?:where|position|place|rank\w*|standing|table|posicao|lugar|colocacao|tabela|onde"
    r"|como (?:esta|ta))\b"
)
# "whom did ana support on 12 Jun?", "pra quem a ana torcia em 12 de junho?"
SUPPORTED_THEN = re.compile(
    r"\b(?:who|whom|which team)\s+did\s+@?(?P<who>[\w.-]+)\s+(?:support|root for|cheer for)\b"
    r"|\b(?:pra|para|por)\s+quem\s+(?:o\s+|a\s+)?@?(?P<quem>[\w.-]+)\s+torcia\b",
    CASELESS,
)


# How a question is typed in a hurry, spelled out for the rules below: "qto vale",
# "qtos pontos eu tenho", "qnts exatos", "hj"
SPELLED = {
    "qto": "quanto", "qnto": "quanto", "qtos": "quantos", "qntos": "quantos", "qnts": "quantos",
    "qtas": "quantas", "qntas": "quantas", "hj": "hoje", "qdo": "quando", "qm": "quem",
}  # fmt: skip
SHORTHAND = re.compile(rf"\b(?:{'|'.join(SPELLED)})\b")


def plain_line(text: str) -> str:
    """The line as the rules read it: no case, no accents ("posição" as "posicao")."""
    return unaccented(text).lower()


@dataclass(frozen=True)
class Help:
    """ "help", "o que vc sabe fazer?": what she can answer."""


@dataclass(frozen=True)
class PickAsked:
    """A pick: ``who``'s for match ``number``, or for the match of the teams the line names."""

    who: str
    number: int | None


@dataclass(frozen=True)
class MostExactAsked:
    """Who called the most exact scores."""


@dataclass(frozen=True)
class PointsOverAsked:
    """The asker's points over matches ``first`` to ``last``."""

    first: int
    last: int


@dataclass(frozen=True)
class BestWorstAsked:
    """The asker's best and worst match."""


@dataclass(frozen=True)
class OwnStanding:
    """The asker's points, exact scores and rank."""


@dataclass(frozen=True)
class TableTop:
    """Who tops a league's table (the clubs', not the pool's)."""


@dataclass(frozen=True)
class ClubPlace:
    """Where a club the line names stands in a league's table."""


@dataclass(frozen=True)
class LeadingAsked:
    """Who leads the pool, or who led once match ``after`` was over."""

    after: int | None = None


@dataclass(frozen=True)
class ForecastAsked:
    """Who will win: the cup (``cup``), match ``number``, or the match of the teams
    ``rest`` (the words after "who wins") names, else the next match."""

    rest: str
    cup: bool
    number: int | None


@dataclass(frozen=True)
class ScoreAtAsked:
    """Match ``number``'s score before ``minute``."""

    number: int
    minute: int


@dataclass(frozen=True)
class MatchAsked:
    """Match ``number`` (None: the last one played): its result, or when it kicks off."""

    number: int | None


@dataclass(frozen=True)
class NextMatchAsked:
    """The next match to kick off (the first of ``day``, when the line says one): its
    teams and when."""

    day: date | None


@dataclass(frozen=True)
class GapAsked:
    """Two players' totals side by side: ``first``'s and ``second``'s (handles; hers too)."""

    first: str
    second: str


@dataclass(frozen=True)
class RulesAsked:
    """The pool's scoring: what an exact score, a goal difference and a winner are worth,
    and which score counts (extra time, penalties)."""


@dataclass(frozen=True)
class ScoredOnAsked:
    """Who scored points on the match ``team`` names (a team, a result), else the last one."""

    team: str


@dataclass(frozen=True)
class PoolTable:
    """The pool's table: its top, the asker's row, its bottom."""


@dataclass(frozen=True)
class TeamsMatchAsked:
    """The last match of the teams the line names: its result, or when it kicks off."""


@dataclass(frozen=True)
class WhoPickedAsked:
    """Who picked the team the line names to win its match (the last one started, else
    the next): "quem apostou na França?", "who backed Morocco?"."""


@dataclass(frozen=True)
class DayBestAsked:
    """Who scored the most on a day's matches: ``day``, else the last day played."""

    day: date | None = None


@dataclass(frozen=True)
class WhoCalledAsked:
    """Who called the exact score of ``team``'s last match."""

    team: str


@dataclass(frozen=True)
class SupportedThen:
    """Whom ``who`` (a handle, or the name as said when it is nobody's) supported on ``day``."""

    who: str
    day: date


@dataclass(frozen=True)
class KnownAbout:
    """What she remembers of the player ``name`` names (``who``: their handle, None when
    it is nobody's): the newest few, or with ``everything`` the older ones too."""

    name: str
    who: str | None
    everything: bool = False


@dataclass(frozen=True)
class Supports:
    """Which team ``who`` supports today."""

    who: str


Ask = (
    Help
    | PickAsked
    | MostExactAsked
    | PointsOverAsked
    | BestWorstAsked
    | OwnStanding
    | TableTop
    | ClubPlace
    | LeadingAsked
    | ForecastAsked
    | ScoreAtAsked
    | MatchAsked
    | NextMatchAsked
    | WhoCalledAsked
    | DayBestAsked
    | WhoPickedAsked
    | PoolTable
    | GapAsked
    | ScoredOnAsked
    | RulesAsked
    | TeamsMatchAsked
    | SupportedThen
    | KnownAbout
    | Supports
)


def asks_in(
    words: str, asker: str, players: Mapping[str, str], her: str, today: date
) -> tuple[Ask, ...]:
    """Every kind of question ``words`` (a line to her, ``her`` her handle) reads as, in
    the order her answers try them; () when it reads as none (small talk, or a question
    only the asker's facts may answer). ``players``: handle -> display name."""
    plain = SHORTHAND.sub(lambda m: SPELLED[m[0]], plain_line(words))
    if HELP.search(plain):
        return (Help(),)
    scored = SCORED_ON.search(plain)
    # "marrocos nos pênaltis, 0-0... alguém pontuou nessa?": who scored, not the rules
    if RULES_FIRST.search(plain) and not (
        MATCH_NUMBER.search(plain) or scored or WHO_PICKED.search(plain)
    ):
        return (RulesAsked(),)  # before a pick: "apostei 1-1, quem pontuou nesse?"
    found: list[Ask] = [ScoredOnAsked(plain[scored.end() :])] if scored else []
    if WHO_PICKED.search(plain):  # before a pick: "quem apostou na França?"
        found.append(WhoPickedAsked())
    if DAY_BEST.search(plain):  # before a gap: "quem fez mais pontos hoje?"
        back = next((n for word, n in DAYS_BACK.items() if re.search(rf"\b{word}\b", plain)), None)
        named_day = day_in(words, today)
        found.insert(
            0, DayBestAsked(named_day or (None if back is None else today - timedelta(back)))
        )
    if TABLE_ASKED.search(plain):  # "top 3 right now with points pls, I'm making a meme"
        found.append(PoolTable())
    if SELF_PLACE.search(plain):  # "am I third now?", "tô em último?": their own row
        found.append(OwnStanding())
    found += _own_game(plain, asker, players, her)
    if TABLE_TOP.search(plain):
        found.append(TableTop())
    elif WHERE_IS.search(plain) and not FORECAST.search(words):
        found.append(ClubPlace())
    if HOW_AM_I.search(words):
        found.append(OwnStanding())
    numbered = MATCH_NUMBER.search(words)
    number = int(numbered["n"]) if numbered else None
    if number is not None and LED_AFTER.search(words):
        found.append(LeadingAsked(after=number))
    if LEADING.search(words):
        found.append(LeadingAsked())
    if CHAMPION.search(plain):
        found.append(forecast_asked(words, ""))
    wins = FORECAST.search(words)
    if wins:
        found.append(forecast_asked(words, wins["rest"] or wins["resto"] or ""))
    minute = BEFORE_MINUTE.search(plain)
    if number is not None and minute:
        found.append(ScoreAtAsked(number, int(minute["n"] or minute["pt"])))
    if number is not None or LAST_MATCH.search(words):
        found.append(MatchAsked(number))
    elif NEXT_MATCH.search(plain):
        ahead = next((n for word, n in NEXT_DAY.items() if re.search(rf"\b{word}\b", plain)), None)
        said_day = day_in(words, today)
        found.append(
            NextMatchAsked(said_day or (None if ahead is None else today + timedelta(ahead)))
        )
    called = WHO_CALLED.search(plain)
    if called:
        # as written (its capitals), where the plain reading kept the letters' places
        written = words if len(words) == len(plain) else plain
        found.append(WhoCalledAsked(written[called.start("team") : called.end("team")].strip()))
    if POOL_TABLE.search(plain):
        found.append(PoolTable())
    if RULES.search(plain):
        found.append(RulesAsked())
    if number is None and TEAMS_RESULT.search(plain):
        found.append(TeamsMatchAsked())
    then = SUPPORTED_THEN.search(words)
    day = day_in(words, today)
    if then and day is not None:
        named = (then["who"] or then["quem"]).lower()
        who = asker if named in SELF else players_by_name(named, players) or named
        found.append(SupportedThen(who, day))
    everything = EVERYTHING.search(plain)
    if everything:
        name = (everything["who"] or everything["quem"]).rstrip("?.!")
        found.append(KnownAbout(name, _who(name, asker, players), everything=True))
    supports = SUPPORTS.search(plain)
    if supports:
        fan = _who((supports["who"] or supports["quem"] or supports["de"]).lower(), asker, players)
        if fan is not None:
            found.append(Supports(fan))
    about = KNOW_ABOUT.search(words)
    if about:
        said = (about["who"] or about["quem"]).rstrip("?.!")
        name, who = said.lower(), _who(said.lower(), asker, players)
        # "lembra do lance do camarão?", "sabe de alguma coisa?": a thing, said with what
        # it is of, not someone she does not know ("what do you know about zeca?")
        if who is not None or not THING_GOES_ON.match(words[about.end() :]):
            found.append(KnownAbout(name, who))
    return tuple(found)


def _own_game(plain: str, asker: str, players: Mapping[str, str], her: str) -> list[Ask]:
    """A player's own game: a pick for a match (theirs, hers, or another's), who called
    the most exact scores, and, asked of the asker alone, their points over a run of
    matches, their best and worst match, their standing."""
    found: list[Ask] = []
    named = [h for h in named_in(plain, players) if h != her]
    # another's total asked ("e o fabio fechou com quanto?"): set beside the asker's
    total_of = bool(named and TOTAL_OF.search(plain) and not PICKED.search(plain))
    # hers and theirs asked side by side: "qto tu tem e qto eu tenho?"; hers alone: "quantos
    # pontos tens?", "how many points have you got?"
    total_of = total_of or bool(
        len(TOTAL_OF.findall(plain)) > 1 and YOU.search(plain) and ME.search(plain)
    )
    total_of = total_of or bool(
        TOTAL_OF.search(plain) and YOURS.search(plain) and not ME.search(plain)
    )
    if (GAP.search(plain) or total_of) and not PLACE_ASKED.search(plain):
        # "te levo", "passaste-me": her, in the second person
        you = [her] if YOU.search(plain) or SECOND_PERSON.search(plain) else []
        placed = _placed(plain)
        mine = [asker] if ME.search(plain) or not you else []
        pair = list(dict.fromkeys([h for h in named if h != asker] + placed + you + mine))
        if len(pair) == 1 and pair[0] != asker:
            pair.append(asker)
        elif pair == [asker] and ME.search(plain):  # "how far ahead am I?"
            pair.append(RIVAL)
        if len(pair) >= 2:
            found.append(GapAsked(pair[0], pair[1]))
    if PICKED.search(plain) or POINTS_ON.search(plain):
        # whose pick, read in the sentence asking it: "qual foi o teu palpite? pra eu saber"
        asking = next(
            (s for s in re.split(r"[?!.]+", plain) if PICKED.search(s) or POINTS_ON.search(s)),
            plain,
        )
        hers = YOU.search(asking) and not ME.search(asking)
        # each one named: "what did carla and elis pick?" asks two picks; "everyone's", all
        # (not "diz a toda a gente quanto é que eu fiz": the audience of one's own)
        plural = PICKS_FOR.search(asking) and not YOU.search(asking)
        everyone = (
            not named and not ME.search(asking) and (EVERYONE_PICKED.search(asking) or plural)
        )
        whose = named or (list(players) if everyone else [her if hers else asker])
        numbered = MATCH_NUMBER.search(plain)
        found += [PickAsked(who, int(numbered["n"]) if numbered else None) for who in whose]
    if MOST_EXACT.search(plain):
        found.append(MostExactAsked())
    if PLACE_ASKED.search(plain) and ME.search(plain) and not PICKED.search(plain):
        found.append(OwnStanding())  # "em que posição eu caí? a carla me passou"
    if named or not ME.search(plain):
        return found
    run = MATCH_RANGE.search(plain)
    if run and OWN_SCORE.search(plain):
        found.append(PointsOverAsked(int(run["first"]), int(run["last"])))
    if BEST_WORST.search(plain):
        found.append(BestWorstAsked())
    if OWN_SCORE.search(plain) and not MATCH_NUMBER.search(plain):
        found.append(OwnStanding())
    return found


def _placed(plain: str) -> list[str]:
    """The sides of a gap named by their place in the table ("o último", "o 2º"), in the
    order said: "o primeiro do terceiro" is the leader and the third."""
    found = [
        (rank.start(), f"@rank:{int(rank['n']) if rank['n'] else ordinal_value(rank['word'])}")
        for rank in GAP_RANK.finditer(plain)
    ]
    for pattern, side in ((GAP_PENULT, PENULT), (GAP_LAST, LAST), (GAP_LEADER, LEADER)):
        found += [(said.start(), side) for said in pattern.finditer(plain)]
    return list(dict.fromkeys(side for _, side in sorted(found)))


def forecast_asked(words: str, rest: str) -> ForecastAsked:
    """Who wins what ``rest`` names (a match number, a team, the cup) in the line ``words``."""
    numbered = MATCH_NUMBER.search(rest)
    cup = bool(CUP.search(rest) or CUP.search(words))
    return ForecastAsked(rest, cup, int(numbered["n"]) if numbered else None)


def _who(name: str, asker: str, players: Mapping[str, str]) -> str | None:
    """The handle ``name`` (as a question says it: "me", "bia", "Bia Souza") is."""
    return asker if name in SELF else players_by_name(name, players)


def asks_of_self(words: str) -> bool:
    """Whether a question speaks of the asker ("my", "eu", "tô"...) and asks ("?")."""
    return bool(ME.search(plain_line(words))) and "?" in words
