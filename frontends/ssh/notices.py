"""The live notices one session prints: the hub's (goals, her remarks, chat) and the server's.

Notices are stamped in the player's zone; at a prompt they are printed above it
with ``run_in_terminal``, so they never break the line the player is typing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from frontends.hub import Notice
from frontends.ssh.channel import SessionChannel
from frontends.ssh.rows import notice_rows
from game.words import Words


class SessionNotices:
    """What this session is shown of the hub, queued for the one printer of the conversation."""

    def __init__(self, channel: SessionChannel, words: Words) -> None:
        self.channel = channel
        self.words = words
        self.queue: asyncio.Queue[Notice] = asyncio.Queue()
        self.handle: str | None = None  # whose session: a line to them reads "to you"
        self.zone = ZoneInfo("UTC")
        self.is_admin = False
        self.live = False  # in the conversation: notices go above the prompt

    def deliver(self, notice: Notice) -> None:
        if not notice.seen_by(self.handle or "", self.is_admin):
            return
        self.queue.put_nowait(notice)

    def tell(self, text: str) -> None:
        """A line from the server outside any reply: above the prompt when there is one."""
        if self.live:  # the printer runs in the prompt's context; this callback does not
            self.queue.put_nowait(Notice(datetime.now(UTC), text, "server"))
        else:
            self.channel.write(text)

    def text(self, notice: Notice) -> str:
        at = notice.at.astimezone(self.zone)
        zone = "" if self.zone.key == "UTC" else f" {at:%Z}"  # a time with no zone reads as UTC
        stamp = f"[{at:%H:%M}{zone}] "
        text = notice.text_for(self.handle, self.words)
        if not self.channel.pty:  # no terminal here (plain lines): its width is not known
            return stamp + text
        # Wrapped here, not by the terminal, so no row of a player's text starts at column 0.
        return notice_rows(stamp, text, notice.kind, self.channel.size().columns)

    async def print_all(self, show: Callable[[str], Awaitable[None]]) -> None:
        while True:
            notice = await self.queue.get()
            await show(self.text(notice))
