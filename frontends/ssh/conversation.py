"""The conversation of both interactive modes: a welcome, live notices, a line at a time.

Every line runs through ``Commands.prepare``, and the pool's work through
``Frontend.perform``, which never waits on the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from zoneinfo import ZoneInfo

from frontends.commands import Caller
from frontends.limits import ConnectionLimits
from frontends.ssh.channel import SessionChannel
from frontends.ssh.frontend import Frontend
from frontends.ssh.idle import IdleWatch
from frontends.ssh.incoming import Incoming
from frontends.ssh.notices import SessionNotices
from frontends.ssh.prompt import pool_prompt, show, show_above_prompt
from frontends.ssh.rows import reply_rows
from frontends.ssh.welcome import welcome


class Conversation:
    def __init__(
        self,
        frontend: Frontend,
        session_id: int,
        limits: ConnectionLimits,
        channel: SessionChannel,
        incoming: Incoming,
        notices: SessionNotices,
        idle: IdleWatch,
    ) -> None:
        self.frontend = frontend
        self.session_id = session_id
        self.limits = limits
        self.channel = channel
        self.incoming = incoming
        self.notices = notices
        self.idle = idle

    async def in_lines(self, caller: Caller) -> None:
        """No PTY: plain lines in, plain lines out, live notices between them."""
        await self.converse(caller, self.incoming.lines.get, self.channel.write, self._write)

    async def _write(self, text: str) -> None:
        self.channel.write(text)

    async def at_prompt(self, caller: Caller) -> None:
        """A PTY: the pool's prompt, with history and completion, notices printed above it."""
        prompt = pool_prompt(self.frontend, caller)

        # The server's Ctrl-C stays the server's (``until_stopped``): a prompt would take it
        # for its own application, on the loop every session shares.
        def ask() -> Awaitable[str]:
            return prompt.prompt_async(f"{caller.handle}> ", handle_sigint=False)

        def laid_out(text: str) -> None:
            # Wrapped here, as notices are, so no row of a reply (a bonus table holding a
            # player's free text, a list) starts at column 0 but the reply's own lines.
            show(reply_rows(text, self.channel.size().columns))

        await self.converse(caller, ask, laid_out, show_above_prompt)

    async def converse(
        self,
        caller: Caller,
        read: Callable[[], Awaitable[str | None]],
        show: Callable[[str], object],
        show_live: Callable[[str], Awaitable[None]],
    ) -> None:
        """The loop both interactive modes share: a welcome, live notices, a line at a time."""
        frontend = self.frontend
        show(await frontend.read(lambda: welcome(frontend, caller)))
        frontend.hub.subscribe(self.session_id, self.notices.deliver)
        printer = asyncio.get_running_loop().create_task(self.notices.print_all(show_live))
        self.notices.live = True
        try:
            while True:
                try:
                    line = await self.idle.limited(read())
                except TimeoutError:
                    show(self.idle.message())
                    break
                except KeyboardInterrupt:  # Ctrl-C drops the line typed, as a shell does
                    continue
                except EOFError:  # Ctrl-D on an empty line leaves
                    break
                finally:
                    self.incoming.gate.line_read()
                if line is None:
                    break
                prepared = frontend.commands.prepare(caller, line, self.limits)
                reply = await frontend.perform(prepared)
                if reply.text:
                    show(reply.text)
                if reply.zone is not None:
                    caller = replace(caller, zone=ZoneInfo(reply.zone))
                    self.notices.zone = caller.zone
                if reply.quit:
                    break
        finally:
            self.notices.live = False
            printer.cancel()
            frontend.hub.unsubscribe(self.session_id)
        self.channel.exit(0)
