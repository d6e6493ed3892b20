"""What a client types, bounded before anything buffers it, and handed on without blocking.

Two hazards live between the SSH channel and the prompt. A paste has no size
limit, and every character kept costs memory and, in a line editor, time that
grows with the line: so the gate keeps at most one character past the line
limit of each line (the command parser then refuses the line in one sentence)
and at most ``backlog`` finished lines waiting to be read. And prompt_toolkit's
own pipe input writes to an OS pipe whose only reader is this same event loop:
past the pipe's 64 KB the write blocks the loop, and the whole server, for
good. ``ChannelInput`` parses the keys where they arrive instead.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass

from prompt_toolkit.input import Input
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.keys import Keys

# A terminal in bracketed-paste mode wraps a paste in these; the server never asks
# for that mode, and a client that sends them anyway gets its paste read as typing.
PASTE_MARKERS = re.compile(r"\x1b\[20[01]~")
LINE_PIECE = re.compile(r"([^\r\n]*)(\r\n|\r|\n)?")
# An escape sequence (a key such as an arrow), or plain characters, several in one
# packet: a paste. Sequences match first, so a paste never starts inside one.
ESCAPE = r"\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|[^\[O])?"
PLAIN = r"[^\x00-\x1f\x7f-\x9f]"
TOKEN = re.compile(rf"(?P<escape>{ESCAPE})|(?P<plain>{PLAIN}{{4,}})")
# What a line being typed holds, in the order typed: the runs of plain characters that
# lengthen it, the erases that may shorten it, and the other keys (arrows, Home,
# control keys) after which an erase may no longer be at the line's end.
EDIT = re.compile(rf"(?P<plain>{PLAIN}+)|(?P<erase>[\x7f\x08])|(?P<key>{ESCAPE})|.", re.DOTALL)
# The end of a packet that stops inside an escape sequence (ESC, then no final byte yet).
UNFINISHED_ESCAPE = re.compile(r"\x1b(?:[\[O][0-?]*[ -/]*)?$")
ENTER = "\r"


@dataclass
class InputGate:
    """Bounds one client's input: characters per line, finished lines waiting to be read.

    ``admit`` returns what may pass, with every line end (``\\r``, ``\\n`` or
    ``\\r\\n``, as any terminal sends it) written as one ``\\r``.
    """

    line_length: int
    backlog: int
    typed: int = 0  # characters kept on the line being typed
    # Of those, how many an erase can take back: the ones typed last, since the cursor
    # last could have moved (an erase after Home or an arrow erases elsewhere, or nothing).
    erasable: int = 0
    # A prompt reads the keys (a PTY); without one, lines are taken as sent.
    editing: bool = False
    waiting: int = 0  # finished lines passed on and not yet read
    skipping: bool = False  # dropping the rest of this line: the backlog was full
    overflowed: bool = False  # lines were dropped since the backlog was last below full
    after_cr: bool = False  # the last data ended in \r: a \n first thing is its other half

    def admit(self, data: str) -> tuple[str, bool]:
        """The part of ``data`` to pass on, and whether lines began to be dropped here."""
        data = PASTE_MARKERS.sub("", data)
        if self.after_cr and data.startswith("\n"):
            data = data[1:]
        if data:
            self.after_cr = data.endswith("\r")
        began_dropping = False
        kept: list[str] = []
        for found in LINE_PIECE.finditer(data):
            text, end = found.group(1), found.group(2) or ""
            if not (text or end):
                continue
            if self.typed == 0 and not self.skipping and self.waiting >= self.backlog:
                # Full until a line is read, which no call in here does: the rest of
                # ``data`` is dropped at once, not line by line (a flood of bare line
                # ends costs what its characters do, not a turn of this loop each).
                began_dropping, self.overflowed = not self.overflowed, True
                self.skipping = not data.endswith(("\r", "\n"))  # the dropped line goes on
                break
            if self.skipping:
                if end:
                    self.skipping = False
                continue
            kept.append(self._bounded(text))
            if end:
                kept.append(ENTER)
                self.typed = self.erasable = 0
                self.waiting += 1
        return "".join(kept), began_dropping

    @property
    def full(self) -> bool:
        """Whatever comes next is dropped until a line is read (no line is being typed)."""
        return self.typed == 0 and self.waiting >= self.backlog

    def line_read(self) -> None:
        self.waiting = max(0, self.waiting - 1)
        if self.waiting < self.backlog:
            self.overflowed = False

    def settle(self) -> None:
        """Nothing passed on is left unread: a line end the prompt used without
        returning a line (Enter on a completion, say) must not count forever."""
        self.waiting, self.overflowed = 0, False

    def _bounded(self, text: str) -> str:
        """What of ``text`` (no line end in it) the line has room for: one character past
        the limit at most, every character counted, keys and control characters too.
        At a prompt (``editing``) an erase gives back only what it erases: one character,
        the last one typed, and none after a key that may have moved the cursor; an erase
        with nothing to take back is dropped (it would cost the prompt a key for nothing).
        Without one, nothing edits the line: an erase is a character like any other."""
        if text.isprintable() or not self.editing:  # characters only: cut in one slice
            kept = text[: max(0, self.line_length + 1 - self.typed)]
            self.typed += len(kept)
            self.erasable += len(kept) if self.editing else 0
            return kept
        kept_parts: list[str] = []
        for found in EDIT.finditer(text):
            if self.typed > self.line_length and not self.erasable:
                break  # full, and no erase can give room back: the rest goes unread
            if found["erase"] is not None:
                if not self.typed:
                    continue
                piece = found.group()
                if self.erasable:
                    self.typed, self.erasable = self.typed - 1, self.erasable - 1
            elif found["key"] is not None:
                # A key (an arrow, Home): whole, never cut, and no character of the line;
                # but the cursor may have moved.
                piece, self.erasable = found.group(), 0
            else:
                # Typing lengthens the line; a lone control character may be taken in
                # as text too, so it counts, and it may move the cursor (Ctrl-A).
                piece = found.group()[: max(0, self.line_length + 1 - self.typed)]
                self.typed += len(piece)
                self.erasable = self.erasable + len(piece) if found["plain"] else 0
            kept_parts.append(piece)
        return "".join(kept_parts)


_input_ids = itertools.count(1)


class ChannelInput(Input):
    """Keys for prompt_toolkit from an SSH channel: parsed on arrival, no OS pipe, no blocking."""

    def __init__(self) -> None:
        self._keys: list[KeyPress] = []
        self._parser = Vt100Parser(self._key)
        self._callback: Callable[[], None] | None = None
        self._scheduled = False
        self._closed = False
        self._escape_pending = False
        self._id = next(_input_ids)

    def _key(self, key: KeyPress) -> None:
        self._keys.append(key)  # not a bound append: read_keys swaps the list out

    def feed(self, text: str) -> None:
        """Parse ``text`` into keys; runs of plain characters go in whole, as one paste.

        A person types a key a packet; a run of plain characters in one packet is
        a paste, and prompt_toolkit would otherwise look up the key bindings once
        per character (about 0.3 ms each). As one paste key it costs one lookup.
        """
        if not text:
            return
        unfinished = UNFINISHED_ESCAPE.search(text)
        whole = text[: unfinished.start()] if unfinished else text
        if self._escape_pending:  # the last packet stopped inside a sequence: the parser ends it
            self._parser.feed(whole)
        else:
            start = 0
            for token in TOKEN.finditer(whole):
                if token.lastgroup == "plain":
                    self._parser.feed(whole[start : token.start()])
                    self._parser.flush()
                    self._keys.append(KeyPress(Keys.BracketedPaste, token.group()))
                    start = token.end()
            self._parser.feed(whole[start:])
        if unfinished:
            self._parser.feed(unfinished.group())
        self._escape_pending = unfinished is not None
        self._wake()

    def close(self) -> None:
        self._closed = True
        self._wake()

    def _wake(self) -> None:
        # On the next loop turn, not now: data arrives inside asyncssh's callbacks.
        if self._callback is not None and not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._ready)

    def _ready(self) -> None:
        self._scheduled = False
        if self._callback is not None:
            self._callback()

    @property
    def drained(self) -> bool:
        """Every key fed so far has been read by the prompt."""
        return not self._keys and not self._escape_pending

    def read_keys(self) -> list[KeyPress]:
        keys, self._keys = self._keys, []
        return keys

    def flush_keys(self) -> list[KeyPress]:
        self._parser.flush()
        return self.read_keys()

    @property
    def closed(self) -> bool:
        return self._closed

    def raw_mode(self) -> AbstractContextManager[None]:
        return nullcontext()

    def cooked_mode(self) -> AbstractContextManager[None]:
        return nullcontext()

    @contextmanager
    def attach(self, input_ready_callback: Callable[[], None]) -> Iterator[None]:
        previous, self._callback = self._callback, input_ready_callback
        if self._keys or self._closed:
            self._wake()
        try:
            yield
        finally:
            self._callback = previous

    @contextmanager
    def detach(self) -> Iterator[None]:
        previous, self._callback = self._callback, None
        try:
            yield
        finally:
            self._callback = previous
            if self._keys or self._closed:
                self._wake()

    def fileno(self) -> int:
        raise NotImplementedError("an SSH channel has no file descriptor")

    def typeahead_hash(self) -> str:
        return f"ssh-channel-{self._id}"
