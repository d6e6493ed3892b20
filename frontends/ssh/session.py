"""One SSH session: a command (exec mode), a prompt_toolkit prompt (with a PTY), or lines.

``PoolSession`` answers asyncssh's callbacks and hands each concern to its part:
the channel (``channel``), what the client types (``incoming``), a newcomer's
registration (``registration``), exec mode (``exec_mode``), the conversation of
both interactive modes (``conversation``, with ``prompt`` on a terminal), the
live notices (``notices``) and the idle limit (``idle``).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import cast

from frontends.commands import Caller
from frontends.limits import ConnectionLimits
from frontends.ssh.channel import SessionChannel
from frontends.ssh.conversation import Conversation
from frontends.ssh.exec_mode import run_command
from frontends.ssh.frontend import Frontend
from frontends.ssh.idle import IdleWatch
from frontends.ssh.incoming import Incoming
from frontends.ssh.library import asyncssh
from frontends.ssh.metering import InputMeter, MeteredInput
from frontends.ssh.notices import SessionNotices
from frontends.ssh.prompt import Terminal
from frontends.ssh.registration import Registration
from game.model import Player

_session_ids = itertools.count(1)


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
        meter: InputMeter | None = None,
    ) -> None:
        self.frontend = frontend
        # Keys cost a prompt (with a PTY); lines are the commands' budget, and what a
        # full gate drops is dropped whole, for the cost of its characters.
        self.metered = MeteredInput(
            meter or InputMeter(frontend.config.limits), self._let_through, self._counts_keys
        )
        self.handle = handle
        self.known = known  # the player as the login just read them, if it did
        self.reading: asyncio.Future[Player | None] | None = None  # else: being read
        self.id = next(_session_ids)
        self.command: str | None = None
        limits = frontend.config.limits
        # A newcomer's budget is the connection's until the pool knows who it is.
        self.limits = frontend.limits_for(handle) if handle else ConnectionLimits(limits)
        self.channel = SessionChannel(limits)
        self.incoming = Incoming(limits)
        self.terminal: Terminal | None = None  # with a PTY
        self.notices = SessionNotices(self.channel, frontend.words)
        self.idle = IdleWatch(limits.idle_timeout, frontend.words)
        # Told when this newcomer registers; answers why there is no room, if there is none.
        self.registration = Registration(
            frontend,
            username,
            cast(str, newcomer_key),
            joined,
            self._became,
            self.channel,
            self.incoming,
            self.idle,
        )
        self.task: asyncio.Task[None] | None = None
        self.ended = False  # its channel closed

    # -- asyncssh callbacks ---------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[str]) -> None:
        self.channel.opened(chan)
        if self.handle is not None and self.known is None:
            # Who this is, read while the client sends its request: one wait fewer.
            self.reading = asyncio.ensure_future(self.frontend.read(self._player))
            self.reading.add_done_callback(_retrieved)

    def pty_requested(self, term_type: str, _term_size: object, _term_modes: object) -> bool:
        self.channel.pty, self.channel.term_type = True, term_type or "xterm"
        keys = self.incoming.use_keys()
        self.terminal = Terminal(self.channel, keys, self.frontend.config.limits.resize_interval)
        self.channel.on_resume = self.terminal.resized
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def session_started(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._main())

    def data_received(self, data: str, _datatype: object) -> None:
        if self.channel.chan is not None:
            self.metered.receive(self.channel.chan, data)

    def _counts_keys(self) -> bool:
        """Whether what passes next reaches a prompt, key by key: with a PTY, unless the
        gate is full (read at rest, as the gate will read it: ``Incoming.settle``)."""
        self.incoming.settle(self.terminal.app_session if self.terminal else None)
        return self.incoming.keys is not None and not self.incoming.gate.full

    def _let_through(self, data: str) -> str:
        """What the connection's input budget let through (``metering``), to the gate;
        returns what passed it (the gate was settled as ``_counts_keys`` read it)."""
        passed, dropping = self.incoming.gate.admit(data)
        if dropping:
            self.tell(
                self.frontend.words(
                    "too much at once: more than {backlog} lines waiting; the rest is dropped",
                    backlog=self.incoming.gate.backlog,
                )
            )
        self.incoming.feed(passed)
        return passed

    def pause_writing(self) -> None:
        self.channel.pause()

    def resume_writing(self) -> None:
        self.channel.resume()

    def eof_received(self) -> bool:
        self.metered.end(self.incoming.end)
        return True  # keep the channel open for the reply: the client only closed its input

    def terminal_size_changed(self, *_size: object) -> None:
        if self.terminal is not None:
            self.terminal.resized()

    def connection_lost(self, _exc: Exception | None) -> None:
        self.ended = True
        self.channel.on_resume = None
        self.channel.resume()  # nothing left to end
        self.metered.close()
        self.frontend.leave(self)
        self.incoming.close()
        if self.task is not None and not self.task.done():
            self.task.cancel()

    # -- the session ----------------------------------------------------------

    def write(self, text: str, stderr: bool = False) -> None:
        self.channel.write(text, stderr)

    def tell(self, text: str) -> None:
        self.notices.tell(text)

    def exit(self, status: int) -> None:
        self.channel.exit(status)

    async def _main(self) -> None:
        try:
            if self.terminal is not None:
                await self.terminal.run(self._play)
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
        if self.handle is None:
            app_session = self.terminal.app_session if self.terminal else None
            if not await self.registration.register(self.command, app_session):
                return
        refused = self.frontend.admit(self)
        if refused:
            self.write(refused, stderr=True)
            self.exit(1)
            return
        if self.known is None:
            self.known = await (self.reading or self.frontend.read(self._player))
        player = self.known
        caller = Caller.of(player) if player else Caller(self.handle or "")
        self.notices.handle = self.handle
        self.notices.zone, self.notices.is_admin = caller.zone, caller.is_admin
        if self.command is not None:
            await run_command(
                self.frontend, self.id, caller, self.command, self.limits, self.channel
            )
            return
        conversation = Conversation(
            self.frontend,
            self.id,
            self.limits,
            self.channel,
            self.incoming,
            self.notices,
            self.idle,
        )
        if self.terminal is not None:
            await conversation.at_prompt(caller)
        else:
            await conversation.in_lines(caller)

    def _player(self) -> Player | None:
        return self.frontend.pool.player(self.handle or "", with_keys=False)

    def _became(self, handle: str) -> None:
        self.handle = handle
        self.limits = self.frontend.limits_for(handle)
