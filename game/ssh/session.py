"""One SSH session: a command (exec mode), a prompt_toolkit prompt (with a PTY), or lines.

All three run every line through the same ``Commands.run``. Live notices from
the hub are printed above the prompt with ``run_in_terminal``, so they never
break the line the player is typing.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TextIO, TypeVar, cast
from zoneinfo import ZoneInfo

import asyncssh
from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.application import run_in_terminal
from prompt_toolkit.application.current import create_app_session, get_app_session
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.data_structures import Size
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from game.model import MatchStatus
from game.rules import RuleViolation
from game.ssh.commands import Caller
from game.ssh.hub import Notice
from game.ssh.limits import ConnectionLimits

if TYPE_CHECKING:
    from game.ssh.server import Frontend

T = TypeVar("T")
_session_ids = itertools.count(1)
BARE_NEWLINE = re.compile(r"(?<!\r)\n")


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


class ChannelWriter:
    """A text stream onto the SSH channel; a terminal wants CRLF line ends."""

    def __init__(self, session: PoolSession, crlf: bool) -> None:
        self.session = session
        self.crlf = crlf

    def write(self, data: str) -> None:
        chan = self.session.chan
        if chan is None:
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


class PoolSession(asyncssh.SSHServerSession):
    def __init__(
        self, frontend: Frontend, handle: str | None, username: str, newcomer_key: str | None
    ) -> None:
        self.frontend = frontend
        self.handle = handle
        self.username = username
        self.newcomer_key = newcomer_key
        self.id = next(_session_ids)
        self.chan: asyncssh.SSHServerChannel | None = None
        self.command: str | None = None
        self.pty = False
        self.term_type = "xterm"
        self.limits = ConnectionLimits(frontend.config.limits)
        self.task: asyncio.Task[None] | None = None
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.buffer = ""
        self.pipe: PipeInput | None = None
        self.app_session: Any = None
        self.notices: asyncio.Queue[Notice] = asyncio.Queue()

    # -- asyncssh callbacks ---------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, _term_size: object, _term_modes: object) -> bool:
        self.pty, self.term_type = True, term_type or "xterm"
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def session_started(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._main())

    def data_received(self, data: str, _datatype: object) -> None:
        if self.pipe is not None:
            self.pipe.send_text(data)
            return
        self.buffer += data
        while "\n" in self.buffer:
            line, _, self.buffer = self.buffer.partition("\n")
            self.lines.put_nowait(line.rstrip("\r"))

    def eof_received(self) -> bool:
        if self.pipe is not None:
            self.pipe.send_text("\x04")
        self.lines.put_nowait(None)
        return True  # keep the channel open for the reply: the client only closed its input

    def terminal_size_changed(self, *_size: object) -> None:
        if self.app_session is not None and self.app_session.app is not None:
            self.app_session.app._on_resize()

    def connection_lost(self, _exc: Exception | None) -> None:
        self.frontend.leave(self)
        if self.task is not None and not self.task.done():
            self.task.cancel()

    # -- the session ----------------------------------------------------------

    def write(self, text: str, stderr: bool = False) -> None:
        if self.chan is None or not text:
            return
        end = "\r\n" if self.pty else "\n"
        data = text.replace("\n", end) + end
        with contextlib.suppress(BrokenPipeError, ConnectionError, asyncssh.Error):
            (self.chan.write_stderr if stderr else self.chan.write)(data)

    def exit(self, status: int) -> None:
        with contextlib.suppress(BrokenPipeError, ConnectionError, asyncssh.Error, AttributeError):
            if self.chan is not None:
                self.chan.exit(status)

    async def _main(self) -> None:
        try:
            if self.handle is None and not await self._register():
                return
            refused = self.frontend.admit(self)
            if refused:
                self.write(refused, stderr=True)
                self.exit(1)
                return
            caller = self.caller()
            if self.command is not None:
                reply = self.frontend.commands.run(
                    caller, self.command, self.limits, chat_fallback=False
                )
                self.write(reply.text, stderr=reply.error)
                self.exit(1 if reply.error else 0)
            elif self.pty:
                await self._interactive(caller)
            else:
                await self._lines(caller)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # one session's bug must not reach the others
            self.frontend.log_error(self, error)
            self.write(f"internal error: {type(error).__name__}; the pool goes on", stderr=True)
            self.exit(2)

    def caller(self) -> Caller:
        player = self.frontend.pool.player(self.handle or "", with_keys=False)
        zone = ZoneInfo(player.time_zone) if player and player.time_zone else ZoneInfo("UTC")
        return Caller(self.handle or "", bool(player and player.is_admin), zone)

    def welcome(self, caller: Caller) -> str:
        upcoming = [m for m in self.frontend.pool.matches() if m.status is not MatchStatus.FINISHED]
        lines = [f"Welcome to the pool, {caller.handle}! Type help for the commands."]
        if upcoming:
            nxt = upcoming[0]
            when = nxt.kickoff.astimezone(caller.zone).strftime("%a %d %b %H:%M")
            lines.append(f"Next: #{nxt.number} {nxt.team1} v {nxt.team2}, {when} ({caller.zone}).")
        return "\n".join(lines)

    # -- registration ---------------------------------------------------------

    async def _register(self) -> bool:
        """A newcomer's key: an invite code (or an open pool) and a free handle."""
        pool, open_pool = self.frontend.pool, self.frontend.config.open_registration
        key = cast(str, self.newcomer_key)
        try:
            if open_pool and self.frontend.config.auto_register:
                pool.register(self.username, key, None, via="open")
                self.handle = self.username
                return True
            if self.command is not None:
                words = self.command.split()
                if not words or words[0] != "register" or (len(words) != 2 and not open_pool):
                    self.write(
                        f"unknown key: register first with: ssh -p PORT {self.username}@HOST register CODE",
                        stderr=True,
                    )
                    self.exit(1)
                    return False
                pool.register(self.username, key, words[1] if len(words) > 1 else None)
                self.handle = self.username
                self.write(f"welcome, {self.handle}! you are in the pool")
                self.exit(0)
                return False
            code = None
            if not open_pool:
                self.write("This key is new here. Invite code:")
                code = await self._read_line()
            self.write(f"Handle (Enter for {self.username}):")
            handle = (await self._read_line() or self.username).strip().lower()
            pool.register(handle, key, code, via="invite" if code else "open")
            self.handle = handle
            return True
        except RuleViolation as error:
            self.write(str(error), stderr=True)
            self.exit(1)
            return False

    async def _idle_limited(self, waiting: Awaitable[T]) -> T:
        """``waiting``, unless the player stays idle past the limit (then ``TimeoutError``).

        ``asyncio.timeout`` rather than ``wait_for``: in Python 3.11 a ``wait_for``
        cancelled at the wrong moment can hang the task that awaits it.
        """
        async with asyncio.timeout(self.frontend.config.limits.idle_timeout):
            return await waiting

    async def _read_line(self) -> str:
        try:
            line = await self._idle_limited(self.lines.get())
        except TimeoutError:
            raise RuleViolation(self._idle_message()) from None
        if line is None:
            raise RuleViolation("no answer: bye")
        return line.strip()

    # -- interactive modes ----------------------------------------------------

    def _deliver(self, notice: Notice) -> None:
        self.notices.put_nowait(notice)

    def _notice_text(self, notice: Notice, zone: ZoneInfo) -> str:
        return f"[{notice.at.astimezone(zone):%H:%M}] {notice.text}"

    async def _lines(self, caller: Caller) -> None:
        """No PTY: plain lines in, plain lines out, live notices between them."""
        await self._converse(caller, lambda: self.lines.get(), self.write, self._write_async)

    async def _write_async(self, text: str) -> None:
        self.write(text)

    async def _converse(
        self,
        caller: Caller,
        read: Callable[[], Awaitable[str | None]],
        show: Callable[[str], object],
        show_live: Callable[[str], Awaitable[None]],
    ) -> None:
        """The loop both interactive modes share: a welcome, live notices, a line at a time."""
        show(self.welcome(caller))
        self.frontend.hub.subscribe(self.id, self._deliver)
        printer = asyncio.get_running_loop().create_task(self._print_notices(show_live))
        try:
            while True:
                try:
                    line = await self._idle_limited(read())
                except TimeoutError:
                    show(self._idle_message())
                    break
                except (EOFError, KeyboardInterrupt):
                    break
                if line is None:
                    break
                reply = self.frontend.commands.run(caller, line, self.limits)
                if reply.text:
                    show(reply.text)
                if line.strip().lower().startswith("tz"):
                    caller = self.caller()
                if reply.quit:
                    break
        finally:
            printer.cancel()
            self.frontend.hub.unsubscribe(self.id)
        self.exit(0)

    def _idle_message(self) -> str:
        minutes = self.frontend.config.limits.idle_timeout / 60
        return f"idle for {minutes:g} minutes: bye! (your picks are saved)"

    async def _print_notices(self, show: Callable[[str], Awaitable[None]]) -> None:
        while True:
            notice = await self.notices.get()
            await show(self._notice_text(notice, self.caller().zone))

    async def _interactive(self, caller: Caller) -> None:
        """A PTY: prompt_toolkit draws the prompt, history and completion."""
        if hasattr(self.chan, "set_line_mode"):
            self.chan.set_line_mode(False)
        stdout = cast(TextIO, ChannelWriter(self, crlf=True))
        output = Vt100_Output(stdout, self._size, term=self.term_type, enable_cpr=False)
        with (
            create_pipe_input() as self.pipe,
            create_app_session(input=self.pipe, output=output) as app_session,
        ):
            self.app_session = app_session
            prompt = PromptSession(
                history=InMemoryHistory(),
                completer=CommandCompleter(
                    lambda: self.frontend.commands.names(caller),
                    lambda: [
                        m.number
                        for m in self.frontend.pool.matches()
                        if m.status is MatchStatus.SCHEDULED
                    ],
                ),
                complete_while_typing=False,
            )
            await self._converse(
                caller,
                lambda: prompt.prompt_async(f"{caller.handle}> "),
                print_formatted_text,
                self._print_above_prompt,
            )

    async def _print_above_prompt(self, text: str) -> None:
        if get_app_session().app is None:
            print_formatted_text(text)
            return
        await run_in_terminal(lambda: print_formatted_text(text))

    def _size(self) -> Size:
        if self.chan is None:
            return Size(rows=24, columns=80)
        width, height, *_ = self.chan.get_terminal_size()
        return Size(rows=height or 24, columns=width or 80)
