"""The tournament told once it is over: champion, the pool's winner and podium, her finish, the story.

Derived from the log on demand, like every storyline: nothing here is stored.
"""

from __future__ import annotations

from bot.agent.requests import WrapUp
from game.league import champions, is_league
from game.model import Match, MatchStatus
from game.pool import Pool
from game.scoring import Tier, classify, scored_score
from game.standings import top_of


def is_over(pool: Pool) -> bool:
    matches = pool.matches()
    return bool(matches) and all(m.status is MatchStatus.FINISHED for m in matches)


def wrap_up(pool: Pool, her: str) -> WrapUp:
    matches = sorted(pool.matches(), key=Match.time_order)
    final = matches[-1]
    # A cut of a cup, or its group stage alone, has no final: nobody is crowned.
    winner, runner_up = champions(matches) or (None, "")
    table = pool.standings()
    top = table[0].points
    podium = tuple((r.player, r.points) for r in table if r.rank <= 3)
    mine = next((r for r in table if r.player == her), None)

    # Who led after each match, in order: the lead changes and who held it, as the table
    # ranks them (level on points, the tie-break may give one the lead alone).
    leaders: list[str] = []
    for match in matches:
        first = " & ".join(top_of(pool.standings(up_to_match=match.number)))
        if first and (not leaders or leaders[-1] != first):
            leaders.append(first)

    rule, basis = pool.scoring()
    best: tuple[int, int, str, str] | None = None  # (fewest callers, latest, who, match)
    # (blanks, points handed out, match, picks): most blanks, then fewest points (of two
    # with 6 of 7 on zero, the one whose seventh got least)
    worst: tuple[int, int, str, int] | None = None
    for match in matches:
        if match.result is None:
            continue
        actual = scored_score(match.result, basis)
        picks = pool.predictions_on(match.number)
        # Her own exact call is no "best call" of the pool's; a blank is everyone's, hers too,
        # so "4 of 7 on zero" counts the seven picks the match's story lists.
        exact = [
            p.handle for p in picks if p.handle != her and classify(p.score, actual) is Tier.EXACT
        ]
        earned = [rule.points(classify(p.score, actual)) for p in picks]
        blanks = earned.count(0)
        label = f"#{match.number} {match.team1} {match.result} {match.team2}"
        if exact and (best is None or (len(exact), -match.number) <= (best[0], -best[1])):
            best = (len(exact), match.number, " & ".join(exact), label)
        if picks and (worst is None or (blanks, -sum(earned)) > (worst[0], -worst[1])):
            worst = (blanks, sum(earned), label, len(picks))
    return WrapUp(
        champion=winner,
        runner_up=runner_up,
        final=f"{final.team1} {final.result} {final.team2}",
        stage=final.stage,
        winners=tuple(top_of(table)),
        points=top,
        podium=podium,
        her_rank=mine.rank if mine else 0,
        mine=her in top_of(table),
        of=len(table),
        leaders=tuple(leaders),
        best_call=(best[2], best[3], best[0]) if best else None,
        worst_blank=(worst[2], worst[0], worst[3]) if worst else None,
        league=is_league(matches),
    )
