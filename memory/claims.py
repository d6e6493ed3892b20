"""Every claim in a line checked against the log before it is posted, in code.

A model, or a rule with a bug, can say "ana leads with 999 points" or "Brazil
won 9-7". Before a remark, an answer or a diary entry is kept, ``Claims.check``
reads the claims it can recognise, in English and Portuguese, and compares each
with what the pool's records say now:

- scores ("2-1", "3 x 0"): a result of a match (full time, after extra time,
  penalties, or one since corrected), a running score of one, or somebody's pick;
- points ("ana ... 25 points", "25 pts", "25 pontos"): a total or a match's
  points of a player the sentence names; when it names none, any player's,
  or a value of the scoring rule;
- leaders ("ana leads", "ana is top", "ana lidera", "ana está na frente"): a
  player at the top of the table now;
- "nobody called it" / "ninguém cravou" about a match someone called exactly;
- "everyone scored / called it / blanked" ("todo mundo pontuou / cravou / zerou")
  about a match where somebody did not;
- "again" ("de novo") with a blank or an exact score, and "the last one" ("o
  último") with a blank, said of a player: checked against that player's match
  before this one.

The first false claim is returned as a short reason, or None when nothing is
false. A claim it cannot read is not judged: the check refuses lies it can
see; it does not certify the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from game.events import ResultRecorded
from game.league import champions
from game.model import Match, tally
from game.pool import Pool
from game.scoring import Tier, classify, scored_score
from game.teams import TeamBook
from memory.guard import named_in

# "2-1", "2 x 1", "2\u20131", "2/1" (a small model's), and the Portuguese "2 a 1"; a
# date's "12/06/2026" is not one.
SCORE = re.compile(r"(?<![\d:/.])(\d{1,2})(?:\s?(?:-|x|\u2013|/)\s?| a )(\d{1,2})(?![\d:/])")
POINTS = re.compile(r"\b(\d{1,4})\s*(?:points?|pts|pontos?)\b", re.IGNORECASE)
LEADS = re.compile(
    r"\b([a-z][\w.-]*)\s+(?:leads|is leading|is top|tops the table|is on top|is first"
    r"|lidera|está na frente|esta na frente|está em primeiro|segue no topo|está no topo)\b",
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
ZEROS_FOR_ALL = re.compile(
    r"\bzero(?:es)? (?:for everyone|all round|para todo mundo)|\bzerou geral", re.IGNORECASE
)
AGAIN = re.compile(r"\b(?:again|once more|de novo|outra vez|mais uma vez)\b", re.IGNORECASE)
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
EXACT = re.compile(r"\b(?:called|exact|exactly|cravou|cravaram|exato|na mosca)\b", re.IGNORECASE)
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
    r"|tournament|trophy)\b|\bcampe[aã]o (?:do mundo|da copa)\b|\bworld champions?\b",
    re.IGNORECASE,
)
# Number words, one to twenty, in both languages: "all five of us", "os cinco", "seis
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


def number_value(word: str) -> int | None:
    """The number a word says: "5" is 5, "five" and "cinco" are 5 (one to twenty, English
    or Portuguese, any case); None for a word that is no number."""
    lowered = word.strip().lower()
    if lowered.isascii() and lowered.isdigit():
        return int(lowered)
    return NUMBER_WORDS.get(lowered)


QUOTED = re.compile(r'"[^"]*"|\u201c[^\u201d]*\u201d')
SENTENCE = re.compile(r"[^.!?;]+[.!?;]?")


@dataclass
class Records:
    """What the pool's log says now, gathered once per check."""

    scores: set[tuple[int, int]] = field(default_factory=set)
    points: dict[str, set[int]] = field(default_factory=dict)  # player -> totals, match points
    rule: set[int] = field(default_factory=set)
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
    figures: set[int] = field(default_factory=set)  # ranks, counts, minutes, match numbers
    matches: dict[int, Match] = field(default_factory=dict)  # the pool's, as read with the rest
    results: set[tuple[int, int]] = field(default_factory=set)  # what finished matches ended
    champion: str | None = None  # the winner of the last match, once every match is finished

    def numbers(self) -> set[int]:
        """Every number the records hold: what a line may say without a context giving it."""
        found = set(self.rule) | self.figures | {n for s in self.scores for n in s}
        return found | {n for points in self.points.values() for n in points}

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


class Claims:
    def __init__(self, pool: Pool) -> None:
        self.pool = pool

    def records(self) -> Records:
        found = Records()
        rule, basis = self.pool.scoring()
        found.rule = {rule.exact, rule.difference, rule.outcome, 0}
        found.players = {p.handle: p.display_name for p in self.pool.players()}
        matches = found.matches = {m.number: m for m in self.pool.matches()}
        for match in matches.values():
            found.scores |= _scores_of(match)
            meeting = _meeting(match)
            if meeting is not None:
                found.meetings.setdefault(frozenset((match.team1, match.team2)), []).append(meeting)
            found.figures |= {match.number, *(goal.minute for goal in match.goals)}
            found.results |= _ends_of(match)
        finished = sum(1 for m in matches.values() if m.result is not None)
        if matches and finished == len(matches):
            decided = champions(matches.values())
            found.champion = decided[0] if decided else None
        found.figures |= {len(found.players), len(matches), finished}
        # Every result ever recorded, corrected ones too: "Correction: 2-0, not 1-0".
        for item in self.pool.events_of(ResultRecorded):
            said = " ".join(
                s for s in (item.event.full_time, item.event.extra_time, item.event.penalties) if s
            )
            for a, b in SCORE.findall(f"{said} {item.event.previous or ''}"):
                found.scores |= {(int(a), int(b)), (int(b), int(a))}
        table = self.pool.standings()
        if table and table[0].points > 0:
            found.leaders = {r.player for r in table if r.points == table[0].points}
        for row in table:
            found.points.setdefault(row.player, set()).add(row.points)
            found.figures.add(row.rank)
        order = {m.number: Match.time_order(m) for m in matches.values()}
        for handle in found.players:
            for prediction in sorted(
                self.pool.predictions_of(handle), key=lambda p: order.get(p.match_number, ())
            ):
                found.scores.add((prediction.score.home, prediction.score.away))
                played = matches.get(prediction.match_number)
                if played is None or played.result is None:
                    continue
                tier = classify(prediction.score, scored_score(played.result, basis))
                points, exact = rule.points(tier), tier is Tier.EXACT
                found.points.setdefault(handle, set()).add(points)
                found.record.setdefault(handle, []).append((played.number, points, exact))
                found.picks.setdefault(played.number, {})[handle] = (points, exact)
                if exact:
                    found.called.setdefault(played.number, set()).add(handle)
        return found

    def check(
        self, text: str, match: int | None = None, records: Records | None = None
    ) -> str | None:
        """The first false claim in ``text`` as a reason ("score 9-7: no such score"), or None;
        against ``records`` when the caller has just read them."""
        records = records or self.records()
        text = QUOTED.sub('""', text)  # a player's words, quoted, are theirs, not her claims
        for home, away in ((int(a), int(b)) for a, b in SCORE.findall(text)):
            if (home, away) not in records.scores:
                return f"score {home}-{away}: no result, running score or pick says so"
        for sentence in SENTENCE.findall(text):
            named = named_in(sentence, records.players)
            for number in (int(n) for n in POINTS.findall(sentence)):
                # The scoring rule's values ("10 points for the exact score") stand on
                # their own; said of a player, a number is that player's.
                allowed = set() if named else set(records.rule)
                for handle in named or records.points:
                    allowed |= records.points.get(handle, set())
                if number not in allowed:
                    who = ", ".join(named) or "anyone"
                    return f"points {number}: not what {who} has"
            for word in LEADS.findall(sentence):
                leader = _handle(word, records.players)
                if leader is not None and leader not in records.leaders:
                    top = ", ".join(sorted(records.leaders)) or "nobody yet"
                    return f"leader {leader}: the table's top is {top}"
        told = _results(text, records, match) or _ended(text, records, match)
        if told is not None:
            return told
        if match is None:
            return None
        if NOBODY_CALLED.search(text) and records.called.get(match):
            return f"nobody: {', '.join(sorted(records.called[match]))} called #{match} exactly"
        return _everyone(text, records, match) or _before(text, records, match)


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
    """ "Zero again", "neither was the last one": said of a player, true of their match before."""
    everyone_named = named_in(text, records.players)
    picked = records.on(match)
    for sentence in SENTENCE.findall(text):
        last_blank, again = LAST_BLANK.search(sentence), AGAIN.search(sentence)
        blank, exact = BLANK.search(sentence), EXACT.search(sentence)
        if not (last_blank or (again and (blank or exact))):
            continue
        for handle in named_in(sentence, records.players) or everyone_named:
            previous = records.before(handle, match)
            if previous is None or handle not in picked:
                return f"again: {handle} has no match before #{match} to compare"
            (now, now_exact), (before, before_exact) = picked[handle], previous
            if (last_blank or (again and blank)) and before != 0:
                return f"again: {handle} scored {before} on the match before #{match}"
            if again and blank and now != 0:
                return f"again: {handle} scored {now} on #{match}"
            if again and exact and not blank and not (now_exact and before_exact):
                return f"again: {handle} did not call #{match} and the one before exactly"
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


def _results(text: str, records: Records, match: int | None) -> str | None:
    """Results in words ("Spain beat Argentina", "Spain won"): true of a meeting in the log."""
    spelled = _spelled(records)
    if not spelled:
        return None
    either = "|".join(re.escape(s) for s in sorted(spelled, key=len, reverse=True))
    a, b = f"(?P<a>{either})", f"(?P<b>{either})"
    pairs = {frozenset((m.team1, m.team2)) for m in records.matches.values()}
    for found in re.finditer(MEETS.format(a=a, b=b), text, re.IGNORECASE):
        one, two = spelled[found["a"].lower()], spelled[found["b"].lower()]
        if frozenset((one, two)) not in pairs:
            return f"match {one} v {two}: no such match in the pool"
    checks = ((BEAT, "beat"), (LOST, "lost to"), (DREW, "drew with"))
    for pattern, said in checks:
        for found in re.finditer(pattern.format(a=a, b=b), text, re.IGNORECASE):
            one, two = spelled[found["a"].lower()], spelled[found["b"].lower()]
            meetings = records.meetings.get(frozenset((one, two)), [])
            if said == "beat" and (one, False) not in meetings and (one, True) not in meetings:
                return f"result {one} beat {two}: no match between them says so"
            if said == "lost to" and not any(w == two for w, _ in meetings):
                return f"result {one} lost to {two}: no match between them says so"
            if said == "drew with" and not any(level for _, level in meetings):
                return f"result {one} drew with {two}: no match between them says so"
    for found in re.finditer(CHAMPION.format(a=a), text, re.IGNORECASE):
        team = spelled[found["a"].lower()]
        if team != records.champion:
            return f"champion {team}: {records.champion or 'the cup is not decided yet'}"
    if records.champion is None and CUP_WON.search(text):
        return "champion nobody: the cup is not decided yet"
    now = records.matches.get(match) if match is not None else None
    said_won = (f for p in WINS for f in re.finditer(p.format(a=a), text, re.IGNORECASE))
    for found in said_won:
        team = spelled[found["a"].lower()]
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


def _ended(text: str, records: Records, match: int | None) -> str | None:
    """ "It ended 0-1", "the game is over": a score a match ended at, and a match over only
    once its result is in."""
    now = records.matches.get(match) if match is not None else None
    for sentence in SENTENCE.findall(text):
        if not ENDED.search(sentence) or NOT_YET.search(sentence):
            continue
        for home, away in ((int(a), int(b)) for a, b in SCORE.findall(sentence)):
            if (home, away) not in records.results:
                return f"ended {home}-{away}: no finished match ended so"
        if now is None or now.result is not None:
            continue
        named = _teams_in(sentence, records)
        if named <= {now.team1, now.team2} and (named or THE_MATCH.search(sentence)):
            return f"ended #{now.number}: it has not ended"
    return None


def _teams_in(text: str, records: Records) -> set[str]:
    """The pool's teams ``text`` names, by any spelling the team book knows."""
    return TeamBook.standard().named_in(text, _teams(records))


def _teams(records: Records) -> set[str]:
    return {t for m in records.matches.values() for t in (m.team1, m.team2)}


def _spelled(records: Records) -> dict[str, str]:
    """Every spelling of the pool's teams, lowercased, to the team's name."""
    return TeamBook.standard().spellings(_teams(records))


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
