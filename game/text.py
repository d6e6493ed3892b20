"""Player-written text made safe to show on someone else's terminal.

A chat line must not clear a screen, set a window title, move a cursor or hide
text: escape sequences go whole, then every remaining control character, and
the Unicode controls that reorder or hide text.
"""

from __future__ import annotations

import re
import unicodedata

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), other ESC sequences, and
# their 8-bit forms (CSI 0x9b, OSC 0x9d).
ESCAPE_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
    r"|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[P^_X][^\x1b\x9c]*(?:\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
)
HIDING = {"\u200b", "\u200c", "\u200e", "\u200f", "\u2060", "\ufeff"}  # zero-width, marks
REORDERING = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}  # bidi controls


def clean(text: str) -> str:
    """``text`` without escape sequences or control characters; tabs become spaces."""
    text = ESCAPE_SEQUENCE.sub("", text.replace("\t", " "))
    return "".join(
        char
        for char in text
        if unicodedata.category(char) != "Cc" and char not in HIDING and char not in REORDERING
    )


def clean_line(text: str) -> str:
    """One line of player text: cleaned, newlines folded, spaces squeezed."""
    return " ".join(clean(text.replace("\r", " ").replace("\n", " ")).split())
