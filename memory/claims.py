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
- "nobody called it" / "ninguém cravou" about a match someone called exactly.

The first false claim is returned as a short reason, or None when nothing is
false. A claim it cannot read is not judged: the check refuses lies it can
see; it does not certify the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from game.events import ResultRecorded
from game.model import Match, Score
from game.pool import Pool
from game.scoring import Tier, classify, scored_score
from memory.guard import named_in

SCORE = re.compile(r"(?<![\d:/.])(\d{1,2})\s?(?:-|x|\u2013)\s?(\d{1,2})(?![\d:/])")
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


class Claims:
    def __init__(self, pool: Pool) -> None:
        self.pool = pool

    def records(self) -> Records:
        found = Records()
        rule, basis = self.pool.scoring()
        found.rule = {rule.exact, rule.difference, rule.outcome, 0}
        found.players = {p.handle: p.display_name for p in self.pool.players()}
        matches = {m.number: m for m in self.pool.matches()}
        for match in matches.values():
            found.scores |= _scores_of(match)
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
        for handle in found.players:
            for prediction in self.pool.predictions_of(handle):
                found.scores.add((prediction.score.home, prediction.score.away))
                played = matches.get(prediction.match_number)
                if played is None or played.result is None:
                    continue
                tier = classify(prediction.score, scored_score(played.result, basis))
                found.points.setdefault(handle, set()).add(rule.points(tier))
                if tier is Tier.EXACT:
                    found.called.setdefault(played.number, set()).add(handle)
        return found

    def check(self, text: str, match: int | None = None) -> str | None:
        """The first false claim in ``text`` as a reason ("score 9-7: no such score"), or None."""
        records = self.records()
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
        if match is not None and NOBODY_CALLED.search(text) and records.called.get(match):
            return f"nobody: {', '.join(sorted(records.called[match]))} called #{match} exactly"
        return None


def _scores_of(match: Match) -> set[tuple[int, int]]:
    """Every score a match has stood at: each running score, and its results."""
    scores = {(0, 0)} if match.status.value != "scheduled" else set()
    home = away = 0
    for goal in match.goals:
        home, away = (home + 1, away) if goal.side == "home" else (home, away + 1)
        scores.add((home, away))
    if match.result is not None:
        for part in (match.result.full_time, match.result.extra_time, match.result.penalties):
            if isinstance(part, Score):
                scores.add((part.home, part.away))
    # Told from either side ("Serbia lost 0-2 to Brazil"): the mirror is the same score.
    return scores | {(b, a) for a, b in scores}


def _handle(word: str, players: dict[str, str]) -> str | None:
    lowered = word.lower()
    for handle, name in players.items():
        if lowered in (handle, (name or handle).lower()):
            return handle
    return None
