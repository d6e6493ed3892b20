"""The knock-out rounds as they were known before they were played.

A fixtures file written after a tournament names every knock-out side; before
it, the bracket only said "1A v 2B", "3A/B/C/D/F", "W74", "L101". A replay that
imports the file as it is tells her on day one who reaches the final. ``blind``
gives the fixtures as the bracket named them, and for each knock-out match the
matches whose results decide its sides: once those are finished, the real
fixture can be told.

The slots are read from the results: a side that came from the groups is its
group's winner or runner-up ("1A", "2B"), or one of the best third-placed teams
("3" and every group's letter, since which groups' thirds meet whom is FIFA's
table, not the file's); a side that came from a knock-out match is its winner
or loser ("W74", "L101"), by the number the pool gives that match.

A spreadsheet of real picks names a knock-out match by its teams, as every office
sheet does: ``sort_picks`` holds such a row until its match is told, and names
the rows for knock-out matches whose teams never met.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from game.bets_csv import BetRow
from game.model import Score, knockout_round
from game.openfootball import Fixture


@dataclass(frozen=True)
class Unknown:
    """A knock-out match whose sides the bracket had not named yet."""

    blind: Fixture  # as the bracket named it: placeholders, no result
    real: Fixture  # as the file tells it, without its result
    after: frozenset[str]  # the source keys of the matches that decide its sides


def blind(
    fixtures: Sequence[Fixture], numbers: Mapping[str, int]
) -> tuple[list[Fixture], list[Unknown]]:
    """Every fixture without its result, knock-out sides as slots; and the unknown ones.

    ``numbers`` is the pool's number of each fixture (by source key), for "W74".
    """
    ordered = sorted(fixtures, key=lambda f: f.kickoff)
    groups: dict[str, list[Fixture]] = defaultdict(list)
    for fixture in ordered:
        if not _knockout(fixture):
            groups[fixture.group or fixture.stage].append(fixture)
    letters = "/".join(sorted(letter(group) for group in groups))
    came_from: dict[str, tuple[str, frozenset[str]]] = {}  # team -> (slot, decided after)
    for group, played in groups.items():
        keys = frozenset(f.source_key for f in played)
        ranked = _table(played)
        for place, team in enumerate(ranked[:3], start=1):
            slot = f"{place}{letter(group)}" if place < 3 else f"3{letters}"
            # A best third is known only when every group has finished.
            after = (
                keys if place < 3 else frozenset(f.source_key for f in ordered[: _last(ordered)])
            )
            came_from[team] = (slot, after)
    shown: list[Fixture] = []
    unknown: list[Unknown] = []
    for fixture in ordered:
        plain = replace(fixture, result=None, goals=())
        if not _knockout(fixture):
            shown.append(plain)
            continue
        sides = [
            came_from.get(team, (team, frozenset())) for team in (fixture.team1, fixture.team2)
        ]
        blinded = replace(plain, team1=sides[0][0], team2=sides[1][0])
        shown.append(blinded)
        after = sides[0][1] | sides[1][1]
        if after:
            unknown.append(Unknown(blinded, plain, after))
        decided = _decided(fixture)
        if decided is not None:
            number = numbers[fixture.source_key]
            mine = frozenset({fixture.source_key})
            came_from[decided[0]] = (f"W{number}", mine)
            came_from[decided[1]] = (f"L{number}", mine)
    return shown, unknown


@dataclass
class Sorted:
    """A spreadsheet's rows against the bracket as it was known before the first match."""

    ready: list[BetRow] = field(default_factory=list)  # the import judges them now
    held: dict[str, list[BetRow]] = field(default_factory=dict)  # by the match's source key
    never: list[tuple[BetRow, str]] = field(default_factory=list)  # with the reason


def sort_picks(
    rows: Iterable[BetRow], shown: Sequence[Fixture], unknown: Sequence[Unknown]
) -> Sorted:
    """Each row for a match the bracket has not told yet is held for it; a row on a
    knock-out day naming teams that did not play each other then never will be."""
    known = {(f.local_date, f.team1, f.team2) for f in shown}
    waiting = {(u.real.local_date, u.real.team1, u.real.team2): u.real.source_key for u in unknown}
    days: dict[str, list[str]] = defaultdict(list)
    for told in unknown:
        days[told.real.local_date].append(f"{told.real.team1} v {told.real.team2}")
    result = Sorted()
    for row in rows:
        key = (row.date, row.team1, row.team2)
        if key in waiting:
            result.held.setdefault(waiting[key], []).append(row)
        elif key not in known and row.date in days:
            played = ", ".join(days[row.date])
            reason = f"{row.team1} v {row.team2} never met on {row.date} (that day: {played})"
            result.never.append((row, reason))
        else:  # a match known from the start, or none at all: the import says which
            result.ready.append(row)
    return result


@dataclass
class Row:
    """A team's line in a group table."""

    team: str
    points: int = 0
    difference: int = 0
    scored: int = 0


def record(table: dict[str, Row], team1: str, team2: str, score: Score | None) -> None:
    """One group match into ``table``; both teams have a line, played or not."""
    one, two = table.setdefault(team1, Row(team1)), table.setdefault(team2, Row(team2))
    if score is None:
        return
    for row, mine, theirs in ((one, score.home, score.away), (two, score.away, score.home)):
        row.points += 3 if mine > theirs else 1 if mine == theirs else 0
        row.difference += mine - theirs
        row.scored += mine


def ranked(rows: Iterable[Row], lots: Mapping[str, float] | None = None) -> list[Row]:
    """A group's order: points, goal difference, goals scored, then ``lots`` (a draw of
    lots; head to head is not read)."""
    drawn = lots or {}
    return sorted(rows, key=lambda r: (-r.points, -r.difference, -r.scored, drawn.get(r.team, 0.0)))


def letter(group: str) -> str:
    """ "Group A" -> "A": the letter the knock-out slots name."""
    return group.split()[-1]


def _knockout(fixture: Fixture) -> bool:
    return knockout_round(fixture.stage, fixture.group)


def _last(ordered: Sequence[Fixture]) -> int:
    """How many fixtures there are up to the last group match, in kick-off order."""
    return max((i + 1 for i, f in enumerate(ordered) if not _knockout(f)), default=0)


def _table(played: Sequence[Fixture]) -> list[str]:
    """A group's teams in order, from the results the file gives."""
    table: dict[str, Row] = {}
    for fixture in played:
        score = None if fixture.result is None else fixture.result.end_of_play
        record(table, fixture.team1, fixture.team2, score)
    return [row.team for row in ranked(table.values())]


def _decided(fixture: Fixture) -> tuple[str, str] | None:
    """(winner, loser) of a knock-out fixture with a result."""
    if fixture.result is None or fixture.result.winner == 0:
        return None
    one, two = fixture.team1, fixture.team2
    return (one, two) if fixture.result.winner > 0 else (two, one)
