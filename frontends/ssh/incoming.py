"""What the client sends, through the input gate: keys for a prompt (with a PTY) or lines."""

from __future__ import annotations

import asyncio
from typing import Any

from frontends.limits import Limits
from frontends.ssh.terminal import ChannelInput, InputGate


class Incoming:
    """The gate, and behind it the prompt's keys or the queue of whole lines."""

    def __init__(self, limits: Limits) -> None:
        self.gate = InputGate(limits.line_length, limits.input_backlog)
        self.keys: ChannelInput | None = None  # with a PTY: what prompt_toolkit reads
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()  # without one: whole lines
        self.partial = ""

    def use_keys(self) -> ChannelInput:
        """A PTY was asked for: from now on what passes is keys for prompt_toolkit."""
        self.keys = ChannelInput()
        self.gate.editing = True
        return self.keys

    def feed(self, passed: str) -> None:
        """What passed the gate, to the prompt, or cut into lines at each carriage return."""
        if self.keys is not None:
            self.keys.feed(passed)
            return
        *finished, self.partial = (self.partial + passed).split("\r")
        for line in finished:
            self.lines.put_nowait(line)

    def end(self) -> None:
        """The client closed its input: the prompt and the line reader both hear it."""
        self.close()
        self.lines.put_nowait(None)

    def close(self) -> None:
        if self.keys is not None:
            self.keys.close()

    def settle(self, app_session: Any) -> None:
        """At rest (the prompt waits, no key unread anywhere) no line is still owed.

        The gate counts line ends passed on and lines returned; a line end the
        prompt uses without returning a line (Enter in Ctrl-R search) would
        otherwise count against the player for the rest of the session.
        """
        app = app_session.app if app_session is not None else None
        if (
            self.keys is not None
            and self.keys.drained
            and app is not None
            and app.is_running
            and not app.key_processor.input_queue
        ):
            self.gate.settle()
