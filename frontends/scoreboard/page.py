"""The scoreboard as HTML: the whole page, and the board alone for live updates.

Every value from the pool is escaped here (``html.escape``): a handle, a team
or one of her remarks is text on the page, never markup.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import re
from collections.abc import Mapping, Sequence
from datetime import UTC
from functools import cache
from html import escape
from importlib import resources
from string import Template

from frontends.scoreboard.board import Board, InPlay
from game.shares import shares_lines
from game.words import Words

CHART_WIDTH, CHART_HEIGHT = 800, 300
COLOURS = ("#ffd24a", "#5ec8ff", "#ff8a5e", "#b48cff", "#7cf29a")


@cache
def _template() -> Template:
    text = resources.files("frontends.scoreboard").joinpath("page.html").read_text("utf-8")
    return Template(text)


def _policy() -> str:
    """The page's Content-Security-Policy: its own inline script and style (by their
    hashes, taken from the template, so an edit to either keeps them allowed), its event
    stream, and nothing else; no frame of another site may hold it."""
    text = _template().template
    hashes = {}
    for element in ("script", "style"):
        inline = re.findall(rf"<{element}>(.*?)</{element}>", text, flags=re.DOTALL)
        if len(inline) != 1:
            raise ValueError(f"page.html: one inline {element} expected, {len(inline)} found")
        digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
        hashes[element] = f"'sha256-{digest}'"
    return (
        f"default-src 'none'; script-src {hashes['script']}; style-src {hashes['style']}; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )


PAGE_POLICY = _policy()


def render_page(board_html: str, words: Words, title: str) -> str:
    """The whole page around a rendered board: it reads without JavaScript."""
    return _template().substitute(lang=escape(words.language), title=escape(title), main=board_html)


def render_board(board: Board, words: Words, title: str) -> str:
    """The board alone: what a live update replaces."""
    return "\n".join(
        (
            f"<h1>{escape(title)}<small>{escape(_table_title(board, words))}</small></h1>",
            _table(board, words),
            _in_play(board.in_play, words),
            _remarks(board, words),
            _right_column(board, words),
        )
    )


def _table_title(board: Board, words: Words) -> str:
    return words("live table") if board.live else words("table")


# The table a TV shows: the days won too, the pool's running contest within the contest.
COLUMNS = (("#", "n"), ("player", ""), ("pts", "n"), ("exact", "n"), ("days won", "n"))


def _table(board: Board, words: Words) -> str:
    if not board.table:
        rows = f'<p class="empty">{escape(words("No players yet."))}</p>'
    else:
        head = "".join(f'<th class="{cls}">{escape(words(name))}</th>' for name, cls in COLUMNS)
        body = "".join(
            f'<tr class="{"top" if row.rank == 1 else ""}"><td class="n">{row.rank}</td>'
            f'<td>{escape(row.player)}</td><td class="n">{row.points}</td>'
            f'<td class="n">{row.exact}</td><td class="n">{row.days}</td></tr>'
            for row in board.table[:16]  # what a TV shows from across a room
        )
        rows = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    return f'<section id="table"><h2>{escape(words("Standings"))}</h2>{rows}</section>'


def _in_play(in_play: Sequence[InPlay], words: Words) -> str:
    if not in_play:
        inner = f'<p class="empty">{escape(words("No match in play."))}</p>'
    else:
        inner = "".join(_one_match(m, words) for m in in_play)
    return f'<section id="in-play"><h2>{escape(words("In play"))}</h2>{inner}</section>'


def _one_match(live: InPlay, words: Words) -> str:
    match = live.match
    alive = ", ".join(live.alive) if live.alive else words("nobody")
    return (
        f'<div class="match" data-match="{match.number}">'
        f'<span class="live">{escape(words("LIVE"))}</span> #{match.number} '
        f'<span class="score">{escape(match.team1)} {live.home}-{live.away} {escape(match.team2)}</span>'
        f'<p class="alive">{escape(words("picks still alive: {players}", players=alive))}</p>'
        f"{_shares(live, words)}</div>"
    )


def _shares(live: InPlay, words: Words) -> str:
    """How the pool picked the match in play, once it has kicked off."""
    told = shares_lines(live.shares, live.match, words) if live.shares else []
    return "".join(f'<p class="shares">{escape(line)}</p>' for line in told)


def _right_column(board: Board, words: Words) -> str:
    upcoming = (
        "".join(
            f"<li>#{m.number} {escape(m.team1)} v {escape(m.team2)}, "
            f'<time datetime="{m.kickoff.isoformat()}">{escape(words.when(m.kickoff, UTC))} UTC</time></li>'
            for m in board.upcoming
        )
        or f'<li class="empty">{escape(words("No matches to come."))}</li>'
    )
    return (
        f'<section id="side"><h2>{escape(words("Next kick-offs"))}</h2><ul>{upcoming}</ul>'
        f"<h2>{escape(words('The race'))}</h2>{race_svg(board.race, words)}</section>"
    )


def _remarks(board: Board, words: Words) -> str:
    said = "".join(
        f"<blockquote><cite>{escape(r.speaker)}</cite>: {escape(r.text)}</blockquote>"
        for r in board.remarks
    )
    return f'<section id="remarks">{said}</section>' if said else ""


def race_svg(series: Mapping[str, Sequence[int]], words: Words) -> str:
    """Points after each match for the leaders, one line each, as an SVG chart."""
    if not series or not any(series.values()):
        return (
            f'<p class="empty">{escape(words("The race starts at the first final whistle."))}</p>'
        )
    steps = max(len(points) for points in series.values())
    top = max(max(points, default=0) for points in series.values()) or 1
    left, right, bottom = 10, 170, 20

    def x(i: int) -> float:
        return left + (CHART_WIDTH - left - right) * (i / max(1, steps - 1))

    def y(points: int) -> float:
        return CHART_HEIGHT - bottom - (CHART_HEIGHT - 2 * bottom) * points / top

    drawn = list(zip(COLOURS, series.items(), strict=False))
    labels = _apart([y(points[-1] if points else 0) + 9 for _, (_, points) in drawn])
    lines = []
    for (colour, (name, points)), label_y in zip(drawn, labels, strict=True):
        path = " ".join(f"{x(i):.1f},{y(p):.1f}" for i, p in enumerate(points))
        last = points[-1] if points else 0
        lines.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="5" points="{path}"/>'
            f'<text x="{x(len(points) - 1) + 12:.1f}" y="{label_y:.1f}" fill="{colour}" '
            f'font-size="26">{escape(name)} {last}</text>'
        )
    label = escape(words("points after each match"))
    return (
        f'<svg viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" role="img" aria-label="{label}">'
        + "".join(lines)
        + "</svg>"
    )


LABEL_GAP = 28.0  # the chart's units between two names at its right edge


def _apart(heights: Sequence[float]) -> list[float]:
    """Label heights moved apart just enough that tied players' names do not overlap."""
    order = sorted(range(len(heights)), key=lambda i: heights[i])
    placed = list(heights)
    for before, after in itertools.pairwise(order):
        placed[after] = max(placed[after], placed[before] + LABEL_GAP)
    return placed
