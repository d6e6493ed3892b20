"""One SSH session: a command (exec mode), a prompt_toolkit prompt (with a PTY), or lines.

All three run every line through the same ``Commands.prepare``, and the pool's
work through ``Frontend.perform``, which never waits on the event loop. Live
notices from the hub are printed above the prompt with ``run_in_terminal``, so
they never break the line the player is typing. Everything written to the
channel goes through ``clean_block``: whoever wrote it, it arrives inert.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, TextIO, TypeVar, cast
from zoneinfo import ZoneInfo

import asyncssh
from prompt_toolkit import PromptSession
from prompt_toolkit.application import run_in_terminal
from prompt_toolkit.application.current import create_app_session, get_app_session
from prompt_toolkit.completion import Completer, Completion, ThreadedCompleter
from prompt_toolkit.data_structures import Size
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.output.vt100 import Vt100_Output
from sqlalchemy.exc import OperationalError

from frontends.commands import Caller, database_trouble
from frontends.hub import Notice, answer_to
from frontends.limits import ConnectionLimits
from frontends.ssh.frontend import Frontend
from frontends.ssh.rows import notice_rows
from frontends.ssh.terminal import ChannelInput, InputGate
from game.model import MatchStatus, Player
from game.reminders import LOGIN_WINDOW
from game.rules import RuleViolation
from game.text import clean_block, clean_line

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


class ChannelOutput(Vt100_Output):
    """prompt_toolkit's terminal output, without asking the client for bracketed paste.

    A paste then arrives as typing, line by line, through the same input gate.
    """

    def enable_bracketed_paste(self) -> None:
        pass


def _retrieved(future: asyncio.Future[Player | None]) -> None:
    """A read nobody awaits (the client left first) must not log "never retrieved"."""
    if not future.cancelled():
        future.exception()


class PoolSession(asyncssh.SSHServerSession[str]):
    def __init__(
        self,
        frontend: Frontend,
        handle: str | None,
        username: str,
        newcomer_key: str | None,
        joined: Callable[[str], str | None],
        known: Player | None = None,
    ) -> None:
        self.frontend = frontend
        # Told when this newcomer registers; answers why there is no room, if there is none.
        self.joined = joined
        self.handle = handle
        self.known = known  # the player as the login just read them, if it did
        self.reading: asyncio.Future[Player | None] | None = None  # else: being read
        self.username = username
        self.newcomer_key = newcomer_key
        self.id = next(_session_ids)
        self.chan: asyncssh.SSHServerChannel[str] | None = None
        self.command: str | None = None
        self.pty = False
        self.term_type = "xterm"
        limits = frontend.config.limits
        # A newcomer's budget is the connection's until the pool knows who it is.
        self.limits = frontend.limits_for(handle) if handle else ConnectionLimits(limits)
        self.gate = InputGate(limits.line_length, limits.input_backlog)
        self.keys: ChannelInput | None = None  # with a PTY: what prompt_toolkit reads
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()  # without one: whole lines
        self.partial = ""
        self.task: asyncio.Task[None] | None = None
        self.app_session: Any = None
        self.notices: asyncio.Queue[Notice] = asyncio.Queue()
        self.zone = ZoneInfo("UTC")
        self.is_admin = False
        self.redraws = 0
        self._resize_pending = False
        self._last_redraw = -math.inf
        self._live = False  # in the conversation: notices go above the prompt
        self.ended = False  # its channel closed

    # -- asyncssh callbacks ---------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[str]) -> None:
        self.chan = chan
        if self.handle is not None and self.known is None:
            # Who this is, read while the client sends its request: one wait fewer.
            self.reading = asyncio.ensure_future(self.frontend.read(self._player))
            self.reading.add_done_callback(_retrieved)

    def pty_requested(self, term_type: str, _term_size: object, _term_modes: object) -> bool:
        self.pty, self.term_type = True, term_type or "xterm"
        self.keys = ChannelInput()
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def session_started(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._main())

    def data_received(self, data: str, _datatype: object) -> None:
        self._settle_gate()
        passed, dropping = self.gate.admit(data)
        if dropping:
            self.tell(
                self.frontend.words(
                    "too much at once: more than {backlog} lines waiting; the rest is dropped",
                    backlog=self.gate.backlog,
                )
            )
        if self.keys is not None:
            self.keys.feed(passed)
            return
        *finished, self.partial = (self.partial + passed).split("\r")
        for line in finished:
            self.lines.put_nowait(line)

    def eof_received(self) -> bool:
        if self.keys is not None:
            self.keys.close()
        self.lines.put_nowait(None)
        return True  # keep the channel open for the reply: the client only closed its input

    def terminal_size_changed(self, *_size: object) -> None:
        # A client may send thousands of resizes a second: redraw at most once an interval.
        if self._resize_pending:
            return
        self._resize_pending = True
        loop = asyncio.get_running_loop()
        wait = self._last_redraw + self.frontend.config.limits.resize_interval - loop.time()
        loop.call_later(max(0.0, wait), self._redraw)

    def _redraw(self) -> None:
        self._resize_pending = False
        self._last_redraw = asyncio.get_running_loop().time()
        if self.app_session is not None and self.app_session.app is not None:
            self.redraws += 1
            self.app_session.app._on_resize()

    def connection_lost(self, _exc: Exception | None) -> None:
        self.ended = True
        self.frontend.leave(self)
        if self.keys is not None:
            self.keys.close()
        if self.task is not None and not self.task.done():
            self.task.cancel()

    # -- the session ----------------------------------------------------------

    def write(self, text: str, stderr: bool = False) -> None:
        if self.chan is None or not text:
            return
        end = "\r\n" if self.pty else "\n"
        data = clean_block(text).replace("\n", end) + end
        with contextlib.suppress(BrokenPipeError, ConnectionError, asyncssh.Error):
            (self.chan.write_stderr if stderr else self.chan.write)(data)

    def tell(self, text: str) -> None:
        """A line from the server outside any reply: above the prompt when there is one."""
        if self._live:  # the printer runs in the prompt's context; this callback does not
            self.notices.put_nowait(Notice(datetime.now(UTC), text, "server"))
        else:
            self.write(text)

    def exit(self, status: int) -> None:
        with contextlib.suppress(BrokenPipeError, ConnectionError, asyncssh.Error, AttributeError):
            if self.chan is not None:
                self.chan.exit(status)

    async def _main(self) -> None:
        try:
            if self.keys is not None:
                await self._in_terminal(self._play)
            else:
                await self._play()
        except asyncio.CancelledError:
            raise
        except Exception as error:  # one session's bug must not reach the others
            self.frontend.log_error(self, error)
            self.write(
                self.frontend.words("something went wrong on our side; the pool goes on"),
                stderr=True,
            )
            self.exit(2)

    async def _play(self) -> None:
        if self.handle is None and not await self._register():
            return
        refused = self.frontend.admit(self)
        if refused:
            self.write(refused, stderr=True)
            self.exit(1)
            return
        if self.known is None:
            self.known = await (self.reading or self.frontend.read(self._player))
        caller = self.caller_of(self.known)
        if self.command is not None:
            await self._run_command(caller, self.command)
        elif self.keys is not None:
            await self._interactive(caller)
        else:
            await self._lines(caller)

    async def _run_command(self, caller: Caller, command: str) -> None:
        """Exec mode: one command, its reply, an exit code; a line to her waits for her answer."""
        answers: asyncio.Queue[Notice] = asyncio.Queue()
        # Listening starts before the line is posted: her answer cannot slip past.
        self.frontend.hub.subscribe(self.id, answers.put_nowait)
        try:
            prepared = self.frontend.commands.prepare(
                caller, command, self.limits, chat_fallback=False
            )
            reply = await self.frontend.perform(prepared)
            self.write(reply.text, stderr=reply.error)
            if reply.awaits is not None:
                self.write(await self._answer_to(reply.awaits, answers))
        finally:
            self.frontend.hub.unsubscribe(self.id)
        self.exit(1 if reply.error else 0)

    async def _answer_to(self, line_id: int, answers: asyncio.Queue[Notice]) -> str:
        config = self.frontend.config
        return await answer_to(
            answers, line_id, config.answer_wait, self.frontend.words, config.addressee.name
        )

    def _player(self) -> Player | None:
        return self.frontend.pool.player(self.handle or "", with_keys=False)

    def caller_of(self, player: Player | None) -> Caller:
        caller = Caller.of(player) if player else Caller(self.handle or "")
        self.zone, self.is_admin = caller.zone, caller.is_admin
        return caller

    def welcome(self, caller: Caller) -> str:
        words = self.frontend.words
        lines = [
            words(
                "Welcome to the pool, {handle}! Type help for the commands.", handle=caller.handle
            )
        ]
        nxt = self.frontend.pool.next_match()
        if nxt is not None:
            lines.append(
                words(
                    "Next: #{number} {match}, {when} ({zone}).",
                    number=nxt.number,
                    match=f"{nxt.team1} v {nxt.team2}",
                    when=words.when(nxt.kickoff, caller.zone),
                    zone=caller.zone,
                )
            )
        lines.extend(self.reminders(caller))
        return "\n".join(lines)

    def reminders(self, caller: Caller) -> list[str]:
        """The matches closing within a day without the caller's pick, in their zone;
        nothing when they have picked them all or turned reminders off."""
        closing = self.frontend.pool.members.closing_unpicked(caller.handle)
        if not closing:
            return []
        words = self.frontend.words
        shown = ", ".join(f"{m.label} ({words.when(m.kickoff, caller.zone)})" for m in closing)
        return [
            words(
                "No pick yet, closing within {hours} hours ({zone}): {matches}. "
                "bet N 2-1 picks; remind off stops these",
                hours=round(LOGIN_WINDOW.total_seconds() / 3600),
                zone=caller.zone,
                matches=shown,
            )
        ]

    # -- registration ---------------------------------------------------------

    async def _register(self) -> bool:
        """A newcomer's key: an invite code (or an open pool) and a free handle."""
        pool, open_pool = self.frontend.pool, self.frontend.config.open_registration
        words = self.frontend.words
        key = cast(str, self.newcomer_key)
        try:
            if open_pool and self.frontend.config.auto_register:
                await self.frontend.write(
                    lambda: pool.members.register(self.username, key, None, via="open")
                )
                return self._become(self.username)
            if self.command is not None:
                typed = self.command.split()
                if not typed or typed[0] != "register" or (len(typed) != 2 and not open_pool):
                    self.write(
                        words(
                            "unknown key: register first with: ssh -p PORT {user}@HOST register CODE",
                            user=self.username,
                        ),
                        stderr=True,
                    )
                    self.exit(1)
                    return False
                code = typed[1] if len(typed) > 1 else None
                await self.frontend.write(lambda: pool.members.register(self.username, key, code))
                if self._become(self.username):
                    self.write(words("welcome, {handle}! you are in the pool", handle=self.handle))
                    self.exit(0)
                return False
            invite = None
            if not open_pool:
                invite = await self._ask(words("This key is new here. Invite code: "))
            asked = words("Handle (Enter for {user}): ", user=self.username)
            handle = (await self._ask(asked) or self.username).lower()
            await self.frontend.write(
                lambda: pool.members.register(
                    handle, key, invite, via="invite" if invite else "open"
                )
            )
            return self._become(handle)
        except RuleViolation as error:
            self.write(words.error(error), stderr=True)
            self.exit(1)
            return False
        except OperationalError as error:
            self.write(database_trouble(error, words), stderr=True)
            self.exit(1)
            return False

    def _settle_gate(self) -> None:
        """At rest (the prompt waits, no key unread anywhere) no line is still owed.

        The gate counts line ends passed on and lines returned; a line end the
        prompt uses without returning a line (Enter in Ctrl-R search) would
        otherwise count against the player for the rest of the session.
        """
        app = self.app_session.app if self.app_session is not None else None
        if (
            self.keys is not None
            and self.keys.drained
            and app is not None
            and app.is_running
            and not app.key_processor.input_queue
        ):
            self.gate.settle()

    def _become(self, handle: str) -> bool:
        """Registered as ``handle``: a player from now on, if the pool has room for one more."""
        refused = self.joined(handle)
        if refused is not None:
            self.write(refused, stderr=True)
            self.exit(1)
            return False
        self.handle = handle
        self.limits = self.frontend.limits_for(handle)
        return True

    async def _idle_limited(self, waiting: Awaitable[T]) -> T:
        """``waiting``, unless the player stays idle past the limit (then ``TimeoutError``).

        ``asyncio.timeout`` rather than ``wait_for``: in Python 3.11 a ``wait_for``
        cancelled at the wrong moment can hang the task that awaits it.
        """
        async with asyncio.timeout(self.frontend.config.limits.idle_timeout):
            return await waiting

    async def _ask(self, question: str) -> str:
        """One answer to a question, on a terminal (echoed, editable) or as a plain line."""
        try:
            if self.app_session is not None:
                answer: str | None = await self._idle_limited(
                    PromptSession[str]().prompt_async(question)
                )
            else:
                self.write(question.rstrip())
                answer = await self._idle_limited(self.lines.get())
        except TimeoutError:
            raise RuleViolation(self._idle_message()) from None  # already in the pool's words
        except (EOFError, KeyboardInterrupt):
            answer = None
        finally:
            self.gate.line_read()
        if answer is None:
            raise RuleViolation("no answer: bye")
        return clean_line(answer)

    # -- interactive modes ----------------------------------------------------

    def _deliver(self, notice: Notice) -> None:
        if not notice.seen_by(self.handle or "", self.is_admin):
            return
        self.notices.put_nowait(notice)

    def _notice_text(self, notice: Notice) -> str:
        at = notice.at.astimezone(self.zone)
        zone = "" if self.zone.key == "UTC" else f" {at:%Z}"  # a time with no zone reads as UTC
        stamp = f"[{at:%H:%M}{zone}] "
        text = notice.text_for(self.handle, self.frontend.words)
        if self.keys is None:  # no terminal here (plain lines): its width is not known
            return stamp + text
        # Wrapped here, not by the terminal, so no row of a player's text starts at column 0.
        return notice_rows(stamp, text, notice.kind, self._size().columns)

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
        show(await self.frontend.read(lambda: self.welcome(caller)))
        self.frontend.hub.subscribe(self.id, self._deliver)
        printer = asyncio.get_running_loop().create_task(self._print_notices(show_live))
        self._live = True
        try:
            while True:
                try:
                    line = await self._idle_limited(read())
                except TimeoutError:
                    show(self._idle_message())
                    break
                except KeyboardInterrupt:  # Ctrl-C drops the line typed, as a shell does
                    continue
                except EOFError:  # Ctrl-D on an empty line leaves
                    break
                finally:
                    self.gate.line_read()
                if line is None:
                    break
                prepared = self.frontend.commands.prepare(caller, line, self.limits)
                reply = await self.frontend.perform(prepared)
                if reply.text:
                    show(reply.text)
                if reply.zone is not None:
                    caller = replace(caller, zone=ZoneInfo(reply.zone))
                    self.zone = caller.zone
                if reply.quit:
                    break
        finally:
            self._live = False
            printer.cancel()
            self.frontend.hub.unsubscribe(self.id)
        self.exit(0)

    def _idle_message(self) -> str:
        minutes = self.frontend.config.limits.idle_timeout / 60
        return self.frontend.words(
            "idle for {minutes:g} minutes: bye! (your picks are saved)", minutes=minutes
        )

    async def _print_notices(self, show: Callable[[str], Awaitable[None]]) -> None:
        while True:
            notice = await self.notices.get()
            await show(self._notice_text(notice))

    async def _in_terminal(self, play: Callable[[], Awaitable[None]]) -> None:
        """A PTY: prompt_toolkit reads the keys and draws every prompt, registration included."""
        stdout = cast(TextIO, ChannelWriter(self, crlf=True))
        output = ChannelOutput(stdout, self._size, term=self.term_type, enable_cpr=False)
        with create_app_session(input=self.keys, output=output) as app_session:
            self.app_session = app_session
            await play()

    async def _interactive(self, caller: Caller) -> None:
        """The pool at a prompt: history and completion."""
        prompt: PromptSession[str] = PromptSession(
            history=InMemoryHistory(),
            # In a thread: completing a match number reads the database.
            completer=ThreadedCompleter(
                CommandCompleter(
                    lambda: self.frontend.commands.names(caller),
                    lambda: [
                        m.number
                        for m in self.frontend.pool.matches()
                        if m.status is MatchStatus.SCHEDULED
                    ],
                )
            ),
            complete_while_typing=False,
        )
        await self._converse(
            caller,
            lambda: prompt.prompt_async(f"{caller.handle}> "),
            self._print,
            self._print_above_prompt,
        )

    def _print(self, text: str) -> None:
        # Plain text, written as print_formatted_text would without a style: that call
        # builds the whole default style anew each time, a quarter of the server's time
        # when a goal reaches 200 prompts. ``write`` also defuses any escape character.
        output = get_app_session().output
        output.reset_attributes()
        output.write(clean_block(text) + "\n")
        output.reset_attributes()
        output.flush()

    async def _print_above_prompt(self, text: str) -> None:
        app = get_app_session().app
        if app is None or not app.is_running:
            self._print(text)
            return
        await run_in_terminal(lambda: self._print(text))

    def _size(self) -> Size:
        if self.chan is None:
            return Size(rows=24, columns=80)
        width, height, *_ = self.chan.get_terminal_size()
        limits = self.frontend.config.limits
        return Size(
            rows=min(height or 24, limits.terminal_rows),
            columns=min(width or 80, limits.terminal_columns),
        )
