"""Storylines, derived from the log when she needs one and never stored.

A storyline is a true sentence about the pool that one result makes worth
saying: a new leader (her too), the title race and the last match left, a big
climb or fall, one player passing the one just above, a run of blanks or of
exact scores, an upset nobody picked, her own miss when the crowd saw it, or
her lone right call. Each is computed from the results and the picks as they
stand, so a corrected score corrects the story too.
"""

from __future__ import annotations

from datetime import timedelta, tzinfo

from bot.agent.requests import TOP_STORIES, Recall, Storyline
from game.model import Match
from game.pool import Pool
from game.scoring import Tier, classify, scored_score
from game.standings import StandingRow, top_of
from prompts import phrase

STREAK = 3  # a run worth mentioning: this many in a row
RECALL_GAP = timedelta(days=2)  # an earlier call recalled only from another day, not last night
MOVE = 3  # places climbed or lost in one match that are worth saying
CLOSE = 2  # points between the top two that make a title race (knock-out stage)


def told(storyline: Storyline) -> str:
    """The storyline as a line of notes for a model's prompt (prompts/storyline.txt)."""
    return phrase(
        "storyline",
        storyline.kind,
        who=storyline.who,
        n=storyline.count,
        other=storyline.other,
    )


def recalled(earlier: Recall) -> str:
    """An earlier exact call as a line of notes for a model."""
    day = f"{earlier.day:%d %b}"
    return phrase("storyline", "recall", who=earlier.who, day=day, match=earlier.match)


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
    mine = next((p.score for p in picks if p.handle == her), None)
    # The table just before and just after this match, whatever was played since
    # (a catch-up after a restart tells each result as it stood then).
    before = pool.standings(before_match=match.number)
    after = pool.standings(up_to_match=match.number)
    table = _from_table(pool, match, before, after, about, her)
    if table is not None and table.kind in TOP_STORIES:
        return table
    crowd = sum(1 for p in others if p.score.outcome == actual.outcome)
    if len(others) >= 3 and crowd == 0:
        her_call = mine is not None and mine.outcome == actual.outcome
        # Nobody saw it coming; if she did, the crowd was against her, and wrong. An upset
        # counts every pick the match's story lists, hers too: she missed it as well.
        if her_call:
            return Storyline("her_alone", count=len(others))
        return Storyline("upset", count=len(picks))
    for handle in about:
        blanks, exacts = runs(pool, handle, match)
        if exacts >= 2:
            return Storyline("exacts", handle, exacts)
        if blanks >= STREAK:
            return Storyline("blanks", handle, blanks)
    if table is not None:
        return table
    if mine is not None and mine.outcome != actual.outcome and crowd * 2 > len(others):
        return Storyline("her_miss", count=crowd)  # the crowd saw it and she did not: she admits it
    return None


def _from_table(
    pool: Pool,
    match: Match,
    before: list[StandingRow],
    after: list[StandingRow],
    about: list[str],
    her: str,
) -> Storyline | None:
    """What this result did to the table: the last match left, a new leader, moves, rivals."""
    if not after or after[0].points == 0:
        return None
    leaders = top_of(after)
    lead = after[0].points - next((r.points for r in after if r.player not in leaders), 0)
    left = [m for m in pool.matches() if Match.time_order(m) > Match.time_order(match)]
    if len(left) == 1 and len(leaders) == 1:
        return Storyline("her_final_day" if leaders[0] == her else "final_day", leaders[0], lead)
    was_top = {r.player for r in before if before and r.points == before[0].points > 0}
    if len(leaders) == 1 and leaders[0] not in was_top:
        return Storyline("her_lead" if leaders[0] == her else "lead_change", leaders[0], lead)
    rank_before = {r.player: r.rank for r in before}
    rank_after = {r.player: r.rank for r in after}
    if any(r.points > 0 for r in before):  # before the first points, every rank is a tie
        for handle in about:
            if handle not in rank_before or handle not in rank_after:
                continue
            moved = rank_before[handle] - rank_after[handle]
            passed = [
                r.player
                for r in before
                if r.rank == rank_before[handle] - 1
                and rank_after.get(r.player, 0) > rank_after[handle]
                and r.player != her
            ]
            if moved >= MOVE:
                return Storyline("climb", handle, moved)
            if moved <= -MOVE:
                return Storyline("fall", handle, -moved)
            if passed and moved > 0:
                return Storyline("overtake", handle, rank_after[handle], passed[0])
    chasers = [r.player for r in after if r.points == after[0].points - lead]
    if match.is_knockout and len(leaders) == len(chasers) == 1 and lead <= CLOSE:
        return Storyline("title_race", leaders[0], lead, chasers[0])
    return None


def recall(pool: Pool, match: Match, who: list[str], zone: tzinfo) -> Recall | None:
    """The last earlier day one of ``who`` (exact on ``match``) called a score exactly too:
    what a commentator with a diary says, "like on 15 Jun, when ana called Brazil 2-0"."""
    _, basis = pool.scoring()
    matches = {m.number: m for m in pool.matches()}
    for handle in who:
        earlier = [
            played
            for pick in pool.predictions_of(handle)
            if (played := matches.get(pick.match_number)) is not None
            and played.result is not None
            and played.kickoff <= match.kickoff - RECALL_GAP
            and classify(pick.score, scored_score(played.result, basis)) is Tier.EXACT
        ]
        if earlier:
            last = max(earlier, key=Match.time_order)
            told = f"{last.team1} {last.result} {last.team2}"
            return Recall(handle, last.kickoff.astimezone(zone).date(), told)
    return None
