"""Plain-text views of the pool for a terminal: tables of matches and standings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import tzinfo
from functools import lru_cache

from game.league import TeamRow
from game.model import Match, MatchStatus, Score
from game.standings import StandingRow
from game.words import Words


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


def standings_table(rows: Sequence[StandingRow], words: Words | None = None) -> str:
    return _standings_text(tuple(rows), words or Words())


@lru_cache(maxsize=16)
def _standings_text(rows: tuple[StandingRow, ...], words: Words) -> str:
    """Rendered once per table and language: every session that shows it shares the text."""
    if not rows:
        return words("No players yet.")
    return table(
        words.each("#", "player", "pts", "exact", "outcome", "picks", "bonus", "days won"),
        [
            (
                row.rank,
                row.player,
                row.points,
                row.exact,
                row.outcome,
                row.predictions,
                row.bonus,
                row.days,
            )
            for row in rows
        ],
        right=(0, 2, 3, 4, 5, 6, 7),
    )


def day_text(
    title: str,
    rows: Sequence[StandingRow],
    leaders: Sequence[str],
    left: int = 0,
    words: Words | None = None,
) -> str:
    """A day's or a round's table (``Pool.day_table``) under who won it, or who leads
    it while ``left`` of its matches are still to finish: the points scored on its
    matches, jokers included, and nothing from the bonus picks."""
    words = words or Words()
    players = ", ".join(leaders)
    if leaders and left:
        won = words(
            "{title}: led by {players}, {left} match(es) to finish",
            title=title, players=players, left=left,
        )  # fmt: skip
    elif leaders:
        won = words("{title}: won by {players}", title=title, players=players)
    else:
        won = words("{title}: nobody has scored yet", title=title)
    shown = table(
        words.each("#", "player", "pts", "exact", "outcome", "picks", "joker"),
        [(r.rank, r.player, r.points, r.exact, r.outcome, r.predictions, r.joker) for r in rows],
        right=(0, 2, 3, 4, 5, 6),
    )
    return f"{won}\n{shown}"


def league_text(rows: Sequence[TeamRow], words: Words | None = None) -> str:
    """The league's own table: teams, their record and points."""
    words = words or Words()
    if not rows:
        return words("No league match played yet.")
    return table(
        words.each("#", "team", "P", "W", "D", "L", "goals", "pts"),
        [
            (r.rank, r.team, r.played, r.won, r.drawn, r.lost, f"{r.scored}:{r.conceded}", r.points)
            for r in rows
        ],
        right=(0, 2, 3, 4, 5, 6, 7),
    )


def groups_text(tables: Mapping[str, Sequence[TeamRow]], words: Words | None = None) -> str:
    """A cup's group tables, each under its group's name in the pool's language."""
    words = words or Words()
    return "\n\n".join(
        f"{words.stage(group)}\n{league_text(rows, words)}" for group, rows in tables.items()
    )


def in_play_line(in_play: Sequence[Match], words: Words | None = None) -> str:
    """Above a provisional table: which matches it counts at their running score."""
    words = words or Words()
    counted = ", ".join(
        f"#{m.number} {m.team1} {match_score(m, mark_live=False)} {m.team2}" for m in in_play
    )
    return words("Live table, with {matches} as it stands", matches=counted)


GLANCE_TOP = 3  # players named in the one-line table a goal or a result brings


@dataclass(frozen=True)
class TableGlance:
    """The table in one line, made once for every session; each adds its own player's place."""

    line: str  # "Live table: 1. ana 17 · 2. bia 10 · 3. caio 7"
    rows: Mapping[str, StandingRow]
    named: frozenset[str]  # the players the line names

    @classmethod
    def of(cls, rows: Sequence[StandingRow], live: bool, words: Words | None = None) -> TableGlance:
        words = words or Words()
        top = " · ".join(f"{r.rank}. {r.player} {r.points}" for r in rows[:GLANCE_TOP])
        line = words("Live table: {top}", top=top) if live else words("Table: {top}", top=top)
        named = frozenset(row.player for row in rows[:GLANCE_TOP])
        return cls(line, {row.player: row for row in rows}, named)

    def line_for(self, handle: str | None, words: Words | None = None) -> str:
        """The line, and where ``handle`` stands when the top does not name them."""
        row = self.rows.get(handle or "")
        if row is None or row.player in self.named:
            return self.line
        words = words or Words()
        mine = words("you: {rank}. with {points}", rank=row.rank, points=row.points)
        return f"{self.line} · {mine}"


def match_score(match: Match, mark_live: bool = True, words: Words | None = None) -> str:
    """The result, or the running score of a live match ("1-0 (live)" unless said elsewhere)."""
    words = words or Words()
    if match.result is not None:
        return words.result(match.result)
    if match.status is MatchStatus.LIVE:
        running = str(match.score_at())
        return words("{score} (live)", score=running) if mark_live else running
    return ""


def matches_table(
    matches: Sequence[Match],
    zone: tzinfo,
    picks: Mapping[int, Score] | None = None,
    words: Words | None = None,
) -> str:
    words = words or Words()
    if not matches:
        return words("No matches yet: import fixtures first.")
    headers = ["#", words("kick-off ({zone})", zone=zone), words("match"), words("stage")]
    headers.append(words("score"))
    if picks is not None:
        headers.append(words("your pick"))
    rows = []
    for match in sorted(matches, key=Match.time_order):
        row = [
            f"#{match.number}",
            words.when(match.kickoff, zone),
            f"{match.team1} v {match.team2}",
            words.stage(match.group or match.stage),
            match_score(match, words=words),
        ]
        if picks is not None:
            pick = picks.get(match.number)
            row.append("" if pick is None else str(pick))
        rows.append(row)
    return table(headers, rows, right=(0,))


SPARKS = "▁▂▃▄▅▆▇█"


def race_chart(
    series: Mapping[str, Sequence[int]], width: int = 40, words: Words | None = None
) -> str:
    """Points after each match, one line per player, drawn with block characters."""
    words = words or Words()
    if not series or not any(series.values()):
        return words("No finished matches yet: the race starts at the first final whistle.")
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
