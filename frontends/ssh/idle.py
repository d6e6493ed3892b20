"""How long a player may sit idle at a question or a prompt, and what they read when it ends."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from game.words import Words

T = TypeVar("T")


class IdleWatch:
    def __init__(self, timeout: float, words: Words) -> None:
        self.timeout = timeout
        self.words = words

    async def limited(self, waiting: Awaitable[T]) -> T:
        """``waiting``, unless the player stays idle past the limit (then ``TimeoutError``).

        ``asyncio.timeout`` rather than ``wait_for``: in Python 3.11 a ``wait_for``
        cancelled at the wrong moment can hang the task that awaits it.
        """
        async with asyncio.timeout(self.timeout):
            return await waiting

    def message(self) -> str:
        return self.words(
            "idle for {minutes:g} minutes: bye! (your picks are saved)", minutes=self.timeout / 60
        )
