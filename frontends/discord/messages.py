"""Text for Discord: markdown made literal, mentions made inert, and the 2,000 limit.

Whatever a player wrote (a display name, a quote in her remark) must reach the
channel as it was typed: not as bold text, a spoiler, a link or a ping. Markdown
is escaped here; pings are refused by every message's ``allowed_mentions``.
"""

from __future__ import annotations

import re
from typing import Any

CONTENT_LIMIT = 2000  # characters in a message's content, Discord's limit
EPHEMERAL = 1 << 6  # a message flag: only the user who asked sees it
# A message flag: no link previews. A URL a player typed would otherwise unfurl into
# a card Discord fetches and shows (a page's picture and text, under the pool's name).
SUPPRESS_EMBEDS = 1 << 2
# Nothing in a message may ping anyone: not @everyone, @here, a role or a user.
NO_MENTIONS: dict[str, Any] = {"parse": []}
# Read anywhere in a line: emphasis, code, spoilers, links, mentions. The backslash
# comes first: the ones added for the others are not escaped again.
INLINE = "\\*_~`|[]<@"
# Read at a line's start only: headings, quotes, lists ("1. bruno" would be one).
LINE_START = re.compile(r"^(\s*)([#>+-]|\d+\.)", re.MULTILINE)


def escape(text: str) -> str:
    """``text`` shown as typed: every character Discord's markdown reads is escaped."""
    # str.replace per mark: cutting a 108 KB line took 40 ms, against 400 with a regex.
    for mark in INLINE:
        text = text.replace(mark, f"\\{mark}")
    return LINE_START.sub(_escape_start, text)


def _escape_start(found: re.Match[str]) -> str:
    indent, mark = found.groups()
    # A backslash escapes punctuation only: "1\." stays a number, "\-" a dash.
    return f"{indent}{mark[:-1]}\\." if mark.endswith(".") else f"{indent}\\{mark}"


def code_block(text: str) -> str:
    """A table as monospaced text; a backtick inside could close the block, so none stays."""
    return "```\n" + text.replace("`", "\N{MODIFIER LETTER GRAVE ACCENT}") + "\n```"


def split(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """``text`` in messages of at most ``limit`` characters, cut at line boundaries.

    A single line longer than the limit is cut where it must be. A table split
    across messages keeps its code block in each. For text that is not a table,
    ``escaped_parts``: this cuts characters, not escapes.
    """
    fenced = text.startswith("```\n") and text.endswith("\n```")
    if fenced:
        text, limit = text[4:-4], limit - 8
    pieces: list[str] = []
    for line in text.split("\n"):
        pieces.extend([line[start : start + limit] for start in range(0, len(line), limit)] or [""])
    parts = _packed(pieces, limit)
    return [f"```\n{part}\n```" for part in parts] if fenced else parts


def escaped_parts(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """``text`` escaped (``escape``), in messages of at most ``limit`` characters.

    The cuts are made in the text as typed, and each piece is escaped on its own: a
    cut never falls between a backslash and what it escapes, and a piece of a long
    line that starts a message is escaped as a line's start (a "# " or "1." in the
    middle of a line would be a heading or a list at the top of the next message).
    """
    pieces: list[str] = []
    for line in text.split("\n"):
        # Escaping only lengthens: a line longer than the limit is not escaped whole to
        # learn that it does not fit (a 100 KB line would be, once per message).
        while len(line) > limit or len(escape(line)) > limit:
            cut = _longest_fitting(line, limit)
            pieces.append(escape(line[:cut]))
            line = line[cut:]
        pieces.append(escape(line))
    return _packed(pieces, limit)


def _longest_fitting(line: str, limit: int) -> int:
    """The most characters of ``line`` whose escaped form fits in ``limit`` (at least one)."""
    low, high = 1, min(len(line), limit)  # the longest fitting prefix, by halves
    while low < high:
        middle = (low + high + 1) // 2
        if len(escape(line[:middle])) <= limit:
            low = middle
        else:
            high = middle - 1
    return low


def _packed(pieces: list[str], limit: int) -> list[str]:
    """Lines (each at most ``limit``) joined into as few messages as fit, in order.

    Pieces of one long line are each too long to share a message with the next,
    so no line break is added inside a line. A part of blanks alone is dropped.
    """
    parts: list[str] = []
    current: str | None = None
    for piece in pieces:
        if current is None:
            current = piece
        elif len(current) + 1 + len(piece) > limit:
            parts.append(current)
            current = piece
        else:
            current = f"{current}\n{piece}"
    parts.append(current or "")
    # Discord refuses a message of nothing but blanks (the tail of a cut line, say).
    return [part for part in parts if part.strip()] or [parts[0]]


def message(content: str, ephemeral: bool = False) -> dict[str, Any]:
    """A message body as Discord takes it, with pings refused and no link previews."""
    return {"content": content, "allowed_mentions": NO_MENTIONS, "flags": flags(ephemeral)}


def flags(ephemeral: bool = False) -> int:
    """A message's flags: every message suppresses embeds; some are for the asker alone."""
    return SUPPRESS_EMBEDS | (EPHEMERAL if ephemeral else 0)
