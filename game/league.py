"""A league's own table and its rounds, from the results alone.

The pool's standings rank its players; this ranks the teams, the way a league
does: three points a win, one a draw, then goal difference, goals scored and the
name. It counts every match played outside the knock-out rounds (a league's
matchdays, a cup's group games) at its score after 90 minutes, and says which
matches a round ("Matchday 5", "Group, Matchday 5") holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import tzinfo

from game.model import Match, knockout_round

WIN, DRAW = 3, 1
ROUND = re.compile(r"(?:^|,\s*)(?:Matchday|Rodada|Round)\s+(\d{1,3})$", re.IGNORECASE)
# A cup's final ("Final", "Finals, Final", "Final, 2nd leg"): not a semi-final or a quarter-final.
FINAL = re.compile(r"(?:^|,\s*)final(?:$|,)", re.IGNORECASE)


@dataclass(frozen=True)
class TeamRow:
    rank: int
    team: str
    played: int
    won: int
    drawn: int
    lost: int
    scored: int
    conceded: int

    @property
    def points(self) -> int:
        return WIN * self.won + DRAW * self.drawn

    @property
    def difference(self) -> int:
        return self.scored - self.conceded


def round_of(match: Match) -> int | None:
    """The round a match belongs to ("Matchday 5" -> 5); None for a knock-out round."""
    return round_number(match.stage, match.group)


def round_number(stage: str, group: str | None = None) -> int | None:
    """The round a stage names ("Matchday 5", "Group, Matchday 5" -> 5); None for a
    knock-out round."""
    found = ROUND.search(stage)
    return None if found is None or knockout_round(stage, group) else int(found[1])


def in_round(matches: Iterable[Match], number: int) -> list[Match]:
    """The matches of round ``number``, in kick-off order."""
    return sorted((m for m in matches if round_of(m) == number), key=Match.time_order)


def league_table(matches: Iterable[Match], teams: Iterable[str] = ()) -> list[TeamRow]:
    """Every team of the rounds played so far, best first; level teams share a rank.
    ``teams``: listed even before they play (a cup's group, its four from the start)."""
    tally: dict[str, list[int]] = {team: [0, 0, 0, 0, 0] for team in teams}
    for match in matches:
        if match.result is None or match.is_knockout:
            continue
        score = match.result.full_time
        for team, mine, theirs in (
            (match.team1, score.home, score.away),
            (match.team2, score.away, score.home),
        ):
            counts = tally.setdefault(team, [0, 0, 0, 0, 0])
            counts[0 if mine > theirs else 1 if mine == theirs else 2] += 1
            counts[3] += mine
            counts[4] += theirs
    rows = [TeamRow(0, team, sum(t[:3]), *t) for team, t in tally.items()]
    rows.sort(key=_order)
    ranked: list[TeamRow] = []
    for position, row in enumerate(rows, start=1):
        level = ranked and _order(ranked[-1])[:3] == _order(row)[:3]
        ranked.append(replace(row, rank=ranked[-1].rank if level else position))
    return ranked


def group_tables(
    matches: Iterable[Match], counted: Iterable[Match] | None = None
) -> dict[str, list[TeamRow]]:
    """A cup's group stage, one table per group (by its name, in order), every team of
    the group in it from the start; nothing for a league, whose matches have no group.
    ``counted``: the matches whose results count (a table after match N), of ``matches``."""
    groups: dict[str, list[Match]] = {}
    for match in matches:
        if match.group and not match.is_knockout:
            groups.setdefault(match.group, []).append(match)
    kept = None if counted is None else {m.number for m in counted}
    return {
        group: league_table(
            [m for m in every if kept is None or m.number in kept],
            dict.fromkeys(t for m in every for t in (m.team1, m.team2)),
        )
        for group, every in sorted(groups.items())
    }


def _order(row: TeamRow) -> tuple[int, int, int, str]:
    return (-row.points, -row.difference, -row.scored, row.team)


def champions(matches: Iterable[Match]) -> tuple[str, str] | None:
    """(champion, runner-up) of a finished tournament: a league's from the top of its
    table, a cup's from its final (or a final's second leg); None while a match is to be
    played, when the last match or the table's top is level, or when a cup's last match
    is no final (a cut of it, or its group stage alone, crowns nobody)."""
    played = sorted(matches, key=Match.time_order)
    if not played or any(m.result is None for m in played):
        return None
    if not is_league(played):
        return played[-1].decided() if FINAL.search(played[-1].stage) else None
    table = league_table(played)
    if len(table) < 2 or table[1].rank == table[0].rank:
        return None
    return table[0].team, table[1].team


def is_league(matches: Iterable[Match]) -> bool:
    """A league: numbered rounds ("Matchday 5") and no groups or knock-outs (a cup's group
    stage is no league)."""
    listed = list(matches)
    return bool(listed) and all(m.group is None and round_of(m) is not None for m in listed)


def round_day(matches: Iterable[Match], match: Match, zone: tzinfo) -> list[Match]:
    """The matches of ``match``'s round played on its day in ``zone``, in kick-off order:
    what a league plays at once, told as one story."""
    number, day = round_of(match), match.kickoff.astimezone(zone).date()
    return sorted(
        (m for m in matches if round_of(m) == number and m.kickoff.astimezone(zone).date() == day),
        key=Match.time_order,
    )
