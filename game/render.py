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
    layout = "  ".join(
        f"{{:{'>' if i in right else '<'}{width}}}" for i, width in enumerate(widths)
    )
    lines = [headers, ["-" * width for width in widths], *cells]
    return "\n".join(layout.format(*line).rstrip() for line in lines)


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


def match_score(match: Match, mark_live: bool = True) -> str:
    """The result, or the running score of a live match ("1-0 (live)" unless said elsewhere)."""
    if match.result is not None:
        return str(match.result)
    if match.status is MatchStatus.LIVE:
        home = sum(goal.side == "home" for goal in match.goals)
        running = f"{home}-{len(match.goals) - home}"
        return f"{running} (live)" if mark_live else running
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
    for match in sorted(matches, key=Match.time_order):
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


SPARKS = "▁▂▃▄▅▆▇█"


def race_chart(series: Mapping[str, Sequence[int]], width: int = 40) -> str:
    """Points after each match, one line per player, drawn with block characters."""
    if not series or not any(series.values()):
        return "No finished matches yet: the race starts at the first final whistle."
    top = max((points[-1] for points in series.values() if points), default=0) or 1
    name_width = max(len(name) for name in series)
    lines = []
    for name, points in series.items():
        step = max(1, -(-len(points) // width))  # sample long tournaments down to the width
        sampled = list(points[step - 1 :: step])
        if sampled and points and sampled[-1] != points[-1]:
            sampled.append(points[-1])
        bars = "".join(SPARKS[min(len(SPARKS) - 1, p * len(SPARKS) // (top + 1))] for p in sampled)
        lines.append(f"{name.ljust(name_width)}  {bars}  {points[-1] if points else 0}")
    return "\n".join(lines)


def match_json(match: Match, pick: Score | None = None) -> dict[str, object]:
    """A match as scripts read it (``matches --json``), with the caller's pick if any."""
    return {
        "number": match.number,
        "kickoff": match.kickoff.isoformat(),
        "team1": match.team1,
        "team2": match.team2,
        "stage": match.stage,
        "group": match.group,
        "status": match.status.value,
        "result": None if match.result is None else str(match.result),
        "score": match_score(match, mark_live=False) or None,  # the running score while live
        "pick": None if pick is None else str(pick),
    }
