"""Text from anyone made safe to show on a terminal or hand to a model.

Players, fixtures files, results feeds and the model itself all write text that
ends up on other people's terminals and in her prompts. None of it may clear a
screen, set a window title, write the clipboard (OSC 52), move a cursor, or
hide or reorder what is shown: escape sequences go whole, then every control
character (C0 and C1), and every Unicode format character (bidi controls,
zero-width joiners, soft hyphens, invisible operators, tag characters...).
One function does it for every path, so no path can forget a case.
"""

from __future__ import annotations

import re
import unicodedata

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/PM/APC/SOS strings,
# other ESC sequences, and their 8-bit forms (CSI 0x9b, OSC 0x9d, DCS 0x90...).
ESCAPE_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
    r"|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|(?:\x1b[P^_X]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
)
# Categories never shown: controls (Cc), format characters (Cf: bidi controls,
# zero-width characters, soft hyphen, tags), surrogates (Cs), unassigned (Cn).
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Cn"})
# Line and paragraph separators break a line on some terminals: a space instead.
SEPARATORS = {"\u2028": " ", "\u2029": " ", "\x85": " "}


def _visible(char: str) -> bool:
    return unicodedata.category(char) not in HIDDEN_CATEGORIES


def clean(text: str) -> str:
    """``text`` without escape sequences, controls or invisible characters; tabs become spaces."""
    text = ESCAPE_SEQUENCE.sub("", text.replace("\t", " "))
    if text.isascii() and text.isprintable():
        return text  # the common case, at C speed
    return "".join(
        SEPARATORS.get(char, char) for char in text if char in SEPARATORS or _visible(char)
    )


def clean_line(text: str) -> str:
    """One line of player text: cleaned, newlines folded, spaces squeezed."""
    return " ".join(clean(text.replace("\r", " ").replace("\n", " ")).split())


def clean_block(text: str) -> str:
    """Several lines (a table, a reply, a prompt): each line cleaned, the line breaks kept."""
    text = text.replace("\r\n", "\n")
    if text.isascii() and text.replace("\n", "").isprintable():
        return text  # the common case (a table of 10,000 rows), at C speed
    return "\n".join(clean(line) for line in text.split("\n"))
