"""One session's SSH channel: what is written to it, the size of its terminal, its end.

Everything written to the channel goes through ``clean_block``: whoever wrote
it, it arrives inert.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable

from prompt_toolkit.data_structures import Size
from prompt_toolkit.output.vt100 import Vt100_Output

from frontends.limits import Limits
from frontends.ssh.library import asyncssh
from game.text import clean_block

BARE_NEWLINE = re.compile(r"(?<!\r)\n")


class SessionChannel:
    """The channel once asyncssh opens it, and whether the client asked for a terminal.

    A client that stops reading makes everything written to it wait in the server's
    memory (3 such sessions held 16 MB more within 85 s under a flood of chat). Past
    ``Limits.output_buffer`` waiting, asyncssh says to pause (``paused``): what would
    be written is dropped, not kept; after ``Limits.output_stalled`` seconds still
    paused, the session ends.
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.chan: asyncssh.SSHServerChannel[str] | None = None
        self.pty = False
        self.term_type = "xterm"
        self.paused = False
        self.dropped = 0  # characters not written while paused, for whoever watches
        self._stalled: asyncio.TimerHandle | None = None
        # Told when writing resumes after a pause: a terminal's screen, whose redraws
        # were dropped, is drawn again whole (a prompt draws only what it thinks changed).
        self.on_resume: Callable[[], None] | None = None

    def opened(self, chan: asyncssh.SSHServerChannel[str]) -> None:
        self.chan = chan
        chan.set_write_buffer_limits(high=self.limits.output_buffer)

    def pause(self) -> None:
        """The client is not reading: stop writing, and end the session if it stays so."""
        self.paused = True
        if self._stalled is None:
            wait = self.limits.output_stalled
            self._stalled = asyncio.get_running_loop().call_later(wait, self._stall)

    def resume(self) -> None:
        was_paused, self.paused = self.paused, False
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None
        if was_paused and self.chan is not None and self.on_resume is not None:
            self.on_resume()

    def _stall(self) -> None:
        self._stalled = None
        if self.chan is not None:
            with contextlib.suppress(BrokenPipeError, ConnectionError, asyncssh.Error):
                self.chan.get_extra_info("connection").disconnect(
                    asyncssh.DISC_BY_APPLICATION, "not reading what the pool writes"
                )

    def writable(self, text: str) -> bool:
        """Whether ``text`` may be written now: not while the client is not reading."""
        if self.paused:
            self.dropped += len(text)
            return False
        return True

    def write(self, text: str, stderr: bool = False) -> None:
        if self.chan is None or not text or not self.writable(text):
            return
        end = "\r\n" if self.pty else "\n"
        data = clean_block(text).replace("\n", end) + end
        with contextlib.suppress(BrokenPipeError, ConnectionError, asyncssh.Error):
            (self.chan.write_stderr if stderr else self.chan.write)(data)

    def exit(self, status: int) -> None:
        with contextlib.suppress(BrokenPipeError, ConnectionError, asyncssh.Error, AttributeError):
            if self.chan is not None:
                self.chan.exit(status)

    def size(self) -> Size:
        """The terminal's size as the client gives it, within the limits (a lie costs nothing)."""
        if self.chan is None:
            return Size(rows=24, columns=80)
        width, height, *_ = self.chan.get_terminal_size()
        return Size(
            rows=min(height or 24, self.limits.terminal_rows),
            columns=min(width or 80, self.limits.terminal_columns),
        )


class ChannelWriter:
    """A text stream onto the SSH channel; a terminal wants CRLF line ends."""

    def __init__(self, channel: SessionChannel, crlf: bool) -> None:
        self.channel = channel
        self.crlf = crlf

    def write(self, data: str) -> None:
        chan = self.channel.chan
        if chan is None or not self.channel.writable(data):
            return
        with contextlib.suppress(BrokenPipeError, ConnectionError, asyncssh.Error):
            chan.write(BARE_NEWLINE.sub("\r\n", data) if self.crlf else data)

    def isatty(self) -> bool:
        return self.crlf

    def flush(self) -> None:
        pass

    @property
    def encoding(self) -> str:
        return "utf-8"


class ChannelOutput(Vt100_Output):
    """prompt_toolkit's terminal output, without asking the client for bracketed paste.

    A paste then arrives as typing, line by line, through the same input gate.
    """

    def enable_bracketed_paste(self) -> None:
        pass
