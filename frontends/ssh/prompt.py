"""A PTY: prompt_toolkit on the channel, its redraws, and the pool's prompt with completion."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from typing import Any, TextIO, cast

from prompt_toolkit import PromptSession
from prompt_toolkit.application import run_in_terminal
from prompt_toolkit.application.current import create_app_session, get_app_session
from prompt_toolkit.completion import Completer, Completion, ThreadedCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory

from frontends.commands import Caller
from frontends.ssh.channel import ChannelOutput, ChannelWriter, SessionChannel
from frontends.ssh.frontend import Frontend
from frontends.ssh.terminal import ChannelInput
from game.model import MatchStatus
from game.text import clean_block


class CommandCompleter(Completer):
    """Command names first; match numbers after ``bet`` and ``match``."""

    def __init__(self, names: Callable[[], list[str]], numbers: Callable[[], list[int]]) -> None:
        self.names = names
        self.numbers = numbers

    def get_completions(self, document: Document, _event: object) -> Any:
        words = document.text_before_cursor.split(" ")
        if len(words) == 1:
            for name in self.names():
                if name.startswith(words[0].lower()):
                    yield Completion(name, start_position=-len(words[0]))
        elif len(words) == 2 and words[0].lower() in ("bet", "b", "match", "game"):
            for number in self.numbers():
                text = str(number)
                if text.startswith(words[1]):
                    yield Completion(text, start_position=-len(words[1]))


class Terminal:
    """prompt_toolkit's session on the channel, redrawn when the client's window changes."""

    def __init__(self, channel: SessionChannel, keys: ChannelInput, resize_interval: float) -> None:
        self.channel = channel
        self.keys = keys
        self.resize_interval = resize_interval
        self.app_session: Any = None
        self.redraws = 0
        self._resize_pending = False
        self._last_redraw = -math.inf

    async def run(self, play: Callable[[], Awaitable[None]]) -> None:
        """prompt_toolkit reads the keys and draws every prompt ``play`` asks, registration included."""
        stdout = cast(TextIO, ChannelWriter(self.channel, crlf=True))
        output = ChannelOutput(
            stdout, self.channel.size, term=self.channel.term_type, enable_cpr=False
        )
        with create_app_session(input=self.keys, output=output) as app_session:
            self.app_session = app_session
            await play()

    def resized(self) -> None:
        # A client may send thousands of resizes a second: redraw at most once an interval.
        if self._resize_pending:
            return
        self._resize_pending = True
        loop = asyncio.get_running_loop()
        wait = self._last_redraw + self.resize_interval - loop.time()
        loop.call_later(max(0.0, wait), self._redraw)

    def _redraw(self) -> None:
        self._resize_pending = False
        self._last_redraw = asyncio.get_running_loop().time()
        if self.app_session is not None and self.app_session.app is not None:
            self.redraws += 1
            self.app_session.app._on_resize()


def pool_prompt(frontend: Frontend, caller: Caller) -> PromptSession[str]:
    """The pool at a prompt: history and completion."""
    return PromptSession(
        history=InMemoryHistory(),
        # In a thread: completing a match number reads the database.
        completer=ThreadedCompleter(
            CommandCompleter(
                lambda: frontend.commands.names(caller),
                lambda: [
                    m.number for m in frontend.pool.matches() if m.status is MatchStatus.SCHEDULED
                ],
            )
        ),
        complete_while_typing=False,
    )


def show(text: str) -> None:
    # Plain text, written as print_formatted_text would without a style: that call
    # builds the whole default style anew each time, a quarter of the server's time
    # when a goal reaches 200 prompts. ``write`` also defuses any escape character.
    output = get_app_session().output
    output.reset_attributes()
    output.write(clean_block(text) + "\n")
    output.reset_attributes()
    output.flush()


async def show_above_prompt(text: str) -> None:
    app = get_app_session().app
    if app is None or not app.is_running:
        show(text)
        return
    await run_in_terminal(lambda: show(text))
