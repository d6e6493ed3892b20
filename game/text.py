"""Text from anyone made safe to show on a terminal or hand to a model.

Players, fixtures files, results feeds and the model itself all write text that
ends up on other people's terminals and in her prompts. None of it may clear a
screen, set a window title, write the clipboard (OSC 52), move a cursor, hide
or reorder what is shown, or lay a line out as if it were two: escape sequences
go whole, then every control character (C0 and C1), every Unicode format
character (bidi controls, zero-width characters, soft hyphens, tag characters...),
private-use and unassigned code points, and whatever is invisible though Python
calls it printable (variation selectors, the combining grapheme joiner). What
looks like a space (unusual spaces, line and paragraph separators, the Braille
blank, the Hangul fillers) becomes a plain space, so a line squeezes them to one
and cannot be padded to wrap a fake line onto a row of its own. What a language
or an emoji needs stays: combining marks on a letter (a few per letter), the
joiner inside an emoji sequence, the one presentation selector after a symbol,
the tags of the England, Scotland and Wales flags. One function does it for
every path, so no path can forget a case.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/PM/APC/SOS strings,
# other ESC sequences, and their 8-bit forms (CSI 0x9b, OSC 0x9d, DCS 0x90...).
ESCAPE_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
    r"|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|(?:\x1b[P^_X]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
)
# Categories never shown: controls (Cc), format characters (Cf: bidi controls,
# zero-width characters, soft hyphen, tags), surrogates (Cs), private use (Co: a
# glyph only some fonts have, anything from a logo to nothing), unassigned (Cn).
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
# Spaces of every width (Zs), line and paragraph separators (Zl, Zp, and NEL):
# a plain space, which a line then squeezes with its neighbours.
SPACE_CATEGORIES = frozenset({"Zs", "Zl", "Zp"})
# Letters and symbols that draw nothing, so read as spaces: the Braille blank, the
# Hangul fillers (choseong, jungseong, compatibility, halfwidth), the ideographic
# half fill space, the musical null notehead.
BLANK_LOOKING = frozenset("\u2800\u115f\u1160\u3164\uffa0\u303f\U0001d159")
# Marks that draw nothing (Unicode's Default_Ignorable_Code_Point outside the C
# categories, and the Khitan filler): dropped. Variation selectors are among them:
# a run of them after one letter smuggles bytes no reader sees.
INVISIBLE_MARKS = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors
    (0xFE00, 0xFE0F),  # variation selectors (the emoji ones are kept in place, below)
    (0x16FE4, 0x16FE4),  # Khitan small script filler
    (0xE0100, 0xE01EF),  # variation selectors supplement
)
TEXT_STYLE, EMOJI_STYLE = "\ufe0e", "\ufe0f"  # one may follow a symbol or a letter
ZWJ = "\u200d"  # kept only between two emoji ("👩‍💻", "🏳️‍🌈"): it is what joins them
SKIN_TONES = range(0x1F3FB, 0x1F400)  # emoji modifiers (Sk), ending a person emoji
# Tag characters spell a subdivision flag after U+1F3F4; only the three Unicode
# recommends draw a flag (and a football pool needs them). Any other tag is hidden text.
TAG_FLAGS = tuple(
    "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in code) + "\U000e007f"
    for code in ("gbeng", "gbsct", "gbwls")
)
MAX_MARKS = 4  # combining marks on one letter: Hindi, Vietnamese, Hebrew need fewer


def _invisible_mark(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in INVISIBLE_MARKS)


def _emoji_end(char: str) -> bool:
    """Whether ``char`` can end an emoji that a ZWJ joins to the next one."""
    return unicodedata.category(char) == "So" or ord(char) in SKIN_TONES or char == EMOJI_STYLE


def clean(text: str) -> str:
    """``text`` without escape sequences, controls or invisible characters; every
    kind of space (tabs, the Braille blank...) a plain one."""
    text = ESCAPE_SEQUENCE.sub("", text.replace("\t", " "))
    if text.isascii() and text.isprintable():
        return text  # the common case, at C speed
    out: list[str] = []
    marks = MAX_MARKS  # marks the last character may still take: none at the start
    i, end = 0, len(text)
    while i < end:
        char = text[i]
        category = unicodedata.category(char)
        if char == "\U0001f3f4" and text.startswith(TAG_FLAGS, i):
            out.append(text[i : i + 7])  # 🏴 + five tags + cancel tag
            i, marks = i + 7, MAX_MARKS
            continue
        i += 1
        if category in SPACE_CATEGORIES or char in BLANK_LOOKING or char == "\x85":
            out.append(" ")
            marks = MAX_MARKS  # a mark on a space would show alone
        elif category in HIDDEN_CATEGORIES:
            joins = char == ZWJ and out and _emoji_end(out[-1]) and i < end
            if joins and unicodedata.category(text[i]) == "So":
                out.append(char)
                marks = MAX_MARKS
        elif category[0] == "M":
            if _invisible_mark(char):
                # The one presentation selector a symbol or letter may take, right after it.
                if char in (TEXT_STYLE, EMOJI_STYLE) and marks == 0:
                    out.append(char)
                    marks = MAX_MARKS - 1  # a keycap's enclosing mark may follow
            elif marks < MAX_MARKS:
                out.append(char)
                marks += 1
        else:
            out.append(char)
            marks = 0
    return "".join(out)


def clean_line(text: str) -> str:
    """One line of player text: cleaned, newlines folded, spaces squeezed."""
    return " ".join(clean(text.replace("\r", " ").replace("\n", " ")).split())


def clean_block(text: str) -> str:
    """Several lines (a table, a reply, a prompt): each line cleaned, the line breaks kept."""
    text = text.replace("\r\n", "\n")
    if text.isascii() and text.replace("\n", "").isprintable():
        return text  # the common case (a table of 10,000 rows), at C speed
    return "\n".join(clean(line) for line in text.split("\n"))


# -- a line that reads as one of the pool's -------------------------------------

# Letters drawn as Latin ones: "ana" with a Cyrillic a reads "ana". Cyrillic and Greek;
# small capitals and IPA letters ("ana" in small capitals, with a Latin alpha); Cherokee
# capitals (a Cherokee A; a small Cherokee letter casefolds to its capital, so
# ``plain_letters`` reads the table again after casefolding).
LOOKALIKES = (
    str.maketrans(
        "аАВеЕКкМНоОрРсСТуХхіІјЈѕЅԁӏɡαΑβΒεΕΗιΙκΚΜνΝοΟρΡτΤυΥχΧΖ",
        "aABeEKkMHoOpPcCTyXxiIjJsSdlgaABBeEHiIkKMvNoOpPtTuYxXZ",
    )
    | str.maketrans("ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢɑⱭɩıȷɛ", "abcdefghijklmnoprstuvwyzaaiije")
    | str.maketrans("ᎠᎡᎢᎥᎩᎪᎫᎬᎳᎷᎻᏀᏂᏃᏟᏒᏚᏞᏢᏦᏧᏴᏙᏔᎾ", "drtiyajewmhghzcrslpkdbvwo")
)


# -- forms of text compared, not shown ------------------------------------------
# Each form says what a comparison ignores; the text itself is never changed by them.


def key_form(text: str) -> str:
    """``text`` as a key: no case, accents, punctuation or spaces ("Côte d'Ivoire" and
    "cote divoire" alike, "&" read as "and"), for looking a name up."""
    plain = unicodedata.normalize("NFKD", text.replace("&", " and "))
    return "".join(c for c in plain.casefold() if c.isalnum())


def words_form(text: str) -> str:
    """``text`` as words to compare wordings: lowercased, punctuation dropped, spaces kept."""
    return re.sub(r"[^\w ]+", "", text.lower()).strip()


def folds_as_lower(text: str) -> bool:
    """Whether a case-insensitive pattern meets ``text``'s letters as ``lower`` does: true
    unless it holds a letter past Latin-1, which a pattern's case folding may take for
    another letter that ``lower`` does not give ("İ" for "i", the long s for "s", the
    Kelvin sign for "k"). Between two such texts, a spelling matches where the
    lowercased one holds it lowercased: a substring test may pass over the patterns."""
    return text.isascii() or not any(ord(c) > 0xFF and c.isalpha() for c in text)


def unaccented(text: str) -> str:
    """``text`` without accents: "Seleção" and "Selecao" are spelt alike."""
    if text.isascii():  # no accent, and what every normal form leaves as it is
        return text
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain if not unicodedata.combining(c))


def plain_letters(text: str) -> str:
    """``text`` as a name check reads it: compatibility forms plain (fullwidth letters),
    lookalike letters Latin (Cyrillic, Greek, small capitals, Cherokee), no case."""
    once = unicodedata.normalize("NFKC", text).translate(LOOKALIKES).casefold()
    return once.translate(LOOKALIKES)


# How a terminal shows a line of the pool's: "[13:47] ana: ..." or "[13:47 BRT] ana: ...".
# A bracketed time before a name and a colon reads as such a line whatever the name; a
# bare time, only before a name of the pool's. A name and a colon alone is how chat
# addresses someone ("ana: nice pick", "betania: who leads?"): no line of the pool's
# on a terminal lacks its time, so it fakes nothing and goes through.
STAMPED = re.compile(
    r"\[\s*\d{1,2}\s*[:.h]\s*\d{2}(?::\d{2})?(?:\s+[^\]\s]{1,8})?\s*\]\s*[^\s:]+(?:\s+[^\s:]+){0,2}\s*:"
)
CLOCK = r"\d{1,2}\s*[:.h]\s*\d{2}(?::\d{2})?(?:\s*[ap]m)?\s+"
_BARE_CLOCK = re.compile(CLOCK)
# The stamp alone, before more words: "[16:15] GOAL! #1 ...", "[16:15] bia joined the
# pool" are how the pool's notices that name no speaker read. Chat has no use for a
# bracketed time before more words; odds ("[1.50]") and a stamp that ends the line
# fake nothing and go through.
STAMP = re.compile(r"\[\s*\d{1,2}\s*:\s*[0-5]\d(?::\d{2})?(?:\s+[^\]\s]{1,8})?\s*\](?=\s*\S)")
# Punctuation drawn as a colon: Unicode's confusables for ":" that NFKC leaves as they
# are ("BETanIA\ua789" reads "BETanIA:"), the visarga of Indic scripts among them.
COLON_LOOKALIKES = frozenset(
    "\u02d0\u02f8\u0589\u05c3\u0703\u0704\u0903\u0983\u0a03\u0a83\u0b03\u0c03\u0c83"
    "\u0d03\u0d83\u1038\u1361\u16ec\u1803\u1809\u205a\u2236\u2982\ua4fd\ua789\ufe30"
)


def _layout_char(char: str) -> str:
    if char in COLON_LOOKALIKES:
        return ":"
    category = unicodedata.category(char)
    # Every opening and closing bracket ("\u27e6", "\u3014", "\u3010"...) reads square,
    # but round and curly ones, which no line of the pool's could be taken for.
    if category == "Ps" and char not in "({":
        return "["
    if category == "Pe" and char not in ")}":
        return "]"
    return char


def layout_letters(text: str) -> str:
    """``text`` as ``speaker_prefix`` reads it (``plain_letters``), with lookalike colons
    read as ":" and brackets as "[" and "]". The reading only: what is shown stays."""
    folded = plain_letters(text)
    return folded if folded.isascii() else "".join(map(_layout_char, folded))


def speaker_prefix(text: str, names: Iterable[str]) -> str | None:
    """What in ``text`` reads as the start of someone's line ("[13:47] BETanIA:",
    "13:47 ana:"), for any of ``names`` (the pool's handles and display names, read
    only when ``text`` holds a time), or a bracketed time before more words ("[16:15]
    GOAL!"); None when nothing does. Anywhere in the line, not only at its start: a line
    wraps, and a row of its own can start with whatever it holds (a session with a
    terminal indents such rows, ``ssh.rows``; Discord, exec output and plain lines rely
    on this check alone)."""
    folded = layout_letters(text)
    stamped = STAMPED.search(folded) or STAMP.search(folded)
    if stamped:
        return stamped.group()
    if not _BARE_CLOCK.search(folded):
        return None  # most lines: ``names`` is never read (a query, for Talk.chat)
    spellings = sorted({plain_letters(n) for n in names if n}, key=len)
    if not spellings:
        return None
    alternatives = "|".join(r"\s+".join(map(re.escape, s.split())) for s in reversed(spellings))
    found = re.search(rf"(?<![^\W_]){CLOCK}@?(?:{alternatives})\s*:", folded)
    return None if found is None else found.group()
