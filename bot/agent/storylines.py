"""Storylines, derived from the log when she needs one and never stored.

A storyline is a true sentence about the pool that one result makes worth
saying: a run of blanks or of exact scores, an upset nobody picked, her own
miss. Each is computed from the results and the picks as they stand, so a
corrected score corrects the story too.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.model import Match
from game.pool import Pool
from game.scoring import Tier, classify, scored_score
from prompts import phrase

STREAK = 3  # a run worth mentioning: this many in a row


@dataclass(frozen=True)
class Storyline:
    kind: str  # "upset", "blanks", "exacts", "her_miss"
    who: str = ""
    count: int = 0


def told(storyline: Storyline) -> str:
    """The storyline as a line of notes for a model's prompt (prompts/storyline.txt)."""
    return phrase("storyline", storyline.kind, who=storyline.who, n=storyline.count)


def runs(pool: Pool, handle: str, upto: Match) -> tuple[int, int]:
    """(blanks, exact scores) in a row for ``handle`` up to ``upto``, over the matches they picked."""
    rule, basis = pool.scoring()
    picked = {p.match_number: p.score for p in pool.predictions_of(handle)}
    played = sorted(
        (m for m in pool.matches() if m.result is not None and m.number in picked),
        key=Match.time_order,
    )
    played = [m for m in played if Match.time_order(m) <= Match.time_order(upto)]
    blanks = exacts = 0
    for match in reversed(played):
        assert match.result is not None
        tier = classify(picked[match.number], scored_score(match.result, basis))
        if rule.points(tier) != 0:
            break
        blanks += 1
    for match in reversed(played):
        assert match.result is not None
        if classify(picked[match.number], scored_score(match.result, basis)) is not Tier.EXACT:
            break
        exacts += 1
    return blanks, exacts


def for_result(pool: Pool, match: Match, about: list[str], her: str) -> Storyline | None:
    """The storyline this result makes worth saying, if any, most telling first."""
    assert match.result is not None
    _, basis = pool.scoring()
    actual = scored_score(match.result, basis)
    picks = pool.predictions_on(match.number)
    others = [p for p in picks if p.handle != her]
    if len(others) >= 3 and not any(p.score.outcome == actual.outcome for p in others):
        return Storyline("upset", count=len(others))
    for handle in about:
        blanks, exacts = runs(pool, handle, match)
        if exacts >= 2:
            return Storyline("exacts", handle, exacts)
        if blanks >= STREAK:
            return Storyline("blanks", handle, blanks)
    mine = next((p.score for p in picks if p.handle == her), None)
    if mine is not None and mine.outcome != actual.outcome:
        crowd = sum(1 for p in others if p.score.outcome == actual.outcome)
        if crowd * 2 > len(others):  # the crowd saw it and she did not: she admits it
            return Storyline("her_miss", count=crowd)
    return None
