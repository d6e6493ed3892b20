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
# Nothing in a message may ping anyone: not @everyone, @here, a role or a user.
NO_MENTIONS: dict[str, Any] = {"parse": []}
# Read anywhere in a line: emphasis, code, spoilers, links, mentions.
INLINE = re.compile(r"([\\*_~`|\[\]<@])")
# Read at a line's start only: headings, quotes, lists ("1. bruno" would be one).
LINE_START = re.compile(r"^(\s*)([#>+-]|\d+\.)", re.MULTILINE)


def escape(text: str) -> str:
    """``text`` shown as typed: every character Discord's markdown reads is escaped."""
    return LINE_START.sub(_escape_start, INLINE.sub(r"\\\1", text))


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
    across messages keeps its code block in each.
    """
    fenced = text.startswith("```\n") and text.endswith("\n```")
    if fenced:
        text, limit = text[4:-4], limit - 8
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:limit])
            line = line[limit:]
        if current and len(current) + 1 + len(line) > limit:
            parts.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current or not parts:
        parts.append(current)
    return [f"```\n{part}\n```" for part in parts] if fenced else parts


def message(content: str, ephemeral: bool = False) -> dict[str, Any]:
    """A message body as Discord takes it, with pings refused."""
    body: dict[str, Any] = {"content": content, "allowed_mentions": NO_MENTIONS}
    if ephemeral:
        body["flags"] = EPHEMERAL
    return body
