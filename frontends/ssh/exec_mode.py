"""Exec mode (``ssh host bet 3 2-1``): one command, its reply, an exit code."""

from __future__ import annotations

import asyncio

from frontends.commands import Caller
from frontends.hub import Notice, answer_to
from frontends.limits import ConnectionLimits
from frontends.ssh.channel import SessionChannel
from frontends.ssh.frontend import Frontend


async def run_command(
    frontend: Frontend,
    session_id: int,
    caller: Caller,
    command: str,
    limits: ConnectionLimits,
    channel: SessionChannel,
) -> None:
    """The command's reply on stdout (stderr for an error); a line to her waits for her answer."""
    answers: asyncio.Queue[Notice] = asyncio.Queue()
    # Listening starts before the line is posted: her answer cannot slip past.
    frontend.hub.subscribe(session_id, answers.put_nowait)
    try:
        prepared = frontend.commands.prepare(caller, command, limits, chat_fallback=False)
        reply = await frontend.perform(prepared)
        channel.write(reply.text, stderr=reply.error)
        if reply.awaits is not None:
            config = frontend.config
            channel.write(
                await answer_to(
                    answers, reply.awaits, config.answer_wait, frontend.words, config.addressee.name
                )
            )
    finally:
        frontend.hub.unsubscribe(session_id)
    channel.exit(1 if reply.error else 0)
