"""Plain-text views of the pool for a terminal: tables of matches and standings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import tzinfo

from game.model import Match, MatchStatus, Score
from game.standings import StandingRow


def table(
    headers: Sequence[str], rows: Sequence[Sequence[object]], right: Sequence[int] = ()
) -> str:
    """Columns padded to fit; the columns numbered in ``right`` are right-aligned."""
    cells = [[str(cell) for cell in row] for row in rows]
    widths = [
        max([len(header), *(len(row[i]) for row in cells)]) for i, header in enumerate(headers)
    ]

    def line(values: Sequence[str]) -> str:
        return "  ".join(
            value.rjust(width) if i in right else value.ljust(width)
            for i, (value, width) in enumerate(zip(values, widths, strict=True))
        ).rstrip()

    return "\n".join([line(headers), line(["-" * width for width in widths]), *map(line, cells)])


def standings_table(rows: Sequence[StandingRow]) -> str:
    if not rows:
        return "No players yet."
    return table(
        ["#", "player", "pts", "exact", "outcome", "picks"],
        [
            (row.rank, row.player, row.points, row.exact, row.outcome, row.predictions)
            for row in rows
        ],
        right=(0, 2, 3, 4, 5),
    )


def match_score(match: Match) -> str:
    if match.result is not None:
        return str(match.result)
    if match.status is MatchStatus.LIVE:
        home = sum(goal.side == "home" for goal in match.goals)
        return f"{home}-{len(match.goals) - home} (live)"
    return ""


def matches_table(
    matches: Sequence[Match], zone: tzinfo, picks: Mapping[int, Score] | None = None
) -> str:
    if not matches:
        return "No matches yet: import fixtures first."
    headers = ["#", f"kick-off ({zone})", "match", "stage", "score"]
    if picks is not None:
        headers.append("your pick")
    rows = []
    for match in matches:
        row = [
            f"#{match.number}",
            match.kickoff.astimezone(zone).strftime("%a %d %b %H:%M"),
            f"{match.team1} v {match.team2}",
            match.group or match.stage,
            match_score(match),
        ]
        if picks is not None:
            pick = picks.get(match.number)
            row.append("" if pick is None else str(pick))
        rows.append(row)
    return table(headers, rows, right=(0,))
