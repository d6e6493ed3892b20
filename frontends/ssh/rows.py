"""A notice or a reply laid out in rows for the terminal it goes to: only the pool
starts a row.

A terminal wraps a line wider than itself onto a new row at column 0, where the
pool's own lines start. A chat line padded with visible filler ("kkkk...",
"GOOO...L") to the width of the screen would put whatever follows at the start
of a row, and "[16:15] GOAL! ...", "[16:15] BETanIA: ana is out" or
"Live table: ..." would look like the pool's own line there. So a session with
a terminal wraps each notice itself, at the terminal's width, and indents every
row of a line after its first: the terminal never has to wrap, and column 0
holds only what the pool starts a line with. No list of fakes can be complete;
the layout needs none.

Widths are counted as the widest a terminal may draw a character, never less:
a row the server thinks fits but the terminal draws wider would wrap again.
"""

from __future__ import annotations

import re
import unicodedata

from prompt_toolkit.utils import get_cwidth

from game.events import ChatPosted, RemarkPosted

# Notices that are someone's line ("ana: ..."): their rows hang under the words said.
SPOKEN = frozenset({ChatPosted.kind, RemarkPosted.kind})
SHORT_INDENT = 4  # when a hanging indent would leave too little room for the words
NARROWEST = 3  # a terminal narrower than this has no room for an indent and a wide letter
EMOJI_STYLE = "\ufe0f"  # it may draw the symbol before it two columns wide
PIECES = re.compile(r" +|[^ ]+")


def cells(char: str) -> int:
    """The columns a terminal may give ``char``: wcwidth's count, but a character that
    wcwidth draws as nothing and that is no mark on a letter (a Hangul vowel on its own,
    say) as one, and the emoji presentation selector as the column it may add."""
    width = get_cwidth(char)
    if width > 0:
        return width
    if char == EMOJI_STYLE:
        return 1
    return 0 if unicodedata.category(char) in ("Mn", "Me", "Cf") else 1


def text_cells(text: str) -> int:
    if text.isascii():
        return len(text)
    return sum(map(cells, text))


def _fits(line: str, width: int) -> bool:
    return len(line) <= width and (line.isascii() or text_cells(line) <= width)


def hanging(line: str, width: int, indent: int) -> list[str]:
    """``line`` (no line break in it) as rows at most ``width`` columns wide, broken
    between words where it can be: the first row as it starts, each other row after
    ``indent`` spaces, none starting with a space of the line's."""
    if _fits(line, width):
        return [line]
    rows: list[str] = []
    row, used = "", 0
    pad = " " * indent

    def new_row() -> None:
        nonlocal row, used
        rows.append(row.rstrip(" "))
        row, used = pad, indent

    for piece in PIECES.findall(line):
        size = text_cells(piece)
        if piece[0] == " ":
            if used > indent or not rows:  # spaces at the start of a continuation go
                if used + size < width:
                    row, used = row + piece, used + size
                else:
                    new_row()
            continue
        if used + size > width and used > (indent if rows else 0) and size <= width - indent:
            new_row()  # the word fits whole on the next row
        for char in piece:  # a word wider than a row is cut where the row ends
            size = cells(char)
            if used + size > width and used > (indent if rows else 0):
                new_row()
            row, used = row + char, used + size
    if used > indent or not rows:  # not a row of indent alone, after spaces that ended the line
        rows.append(row.rstrip(" "))
    return rows


def notice_rows(stamp: str, text: str, kind: str, width: int) -> str:
    """A notice, stamped, as rows for a terminal ``width`` columns wide (lines of the
    pool's, such as a goal's table, each start a row at column 0; the rest is indented:
    under the words said in a chat line or remark, under the text after the stamp in
    the others, or by ``SHORT_INDENT`` where that would leave less than two thirds of
    the width)."""
    if width < NARROWEST:
        return stamp + text  # no room to indent: the terminal wraps as it will
    indent = text_cells(stamp)
    if kind in SPOKEN:
        speaker, colon, _said = text.partition(": ")
        if colon:
            indent += text_cells(speaker) + len(colon)
    if indent > width // 3:
        indent = min(SHORT_INDENT, width - 2)
    lines = f"{stamp}{text}".split("\n")
    return "\n".join(row for line in lines for row in hanging(line, width, indent))


def reply_rows(text: str, width: int) -> str:
    """A command's reply as rows for a terminal ``width`` columns wide: each of its lines
    starts a row, and what does not fit goes on in rows indented by ``SHORT_INDENT``
    (a table row holding a bonus pick padded to the width, "GOOO...L[16:15] BETanIA: ...",
    never puts the player's words at column 0)."""
    if width < NARROWEST:
        return text
    indent = min(SHORT_INDENT, width - 2)
    return "\n".join(row for line in text.split("\n") for row in hanging(line, width, indent))
