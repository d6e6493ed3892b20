"""What one connection's input may cost: characters and keys a second, over all its channels.

The input gate (``terminal.InputGate``) bounds what a line may hold; this bounds how
fast a client may make the server work at all. What a channel brings waits here and
is let through, to the gate and the prompt, as the connection's budget allows: never
more keys at once than the budget holds, so no packet, however many keys it packs,
stalls the event loop for longer than the budget's burst. While anything waits, the
channel is not read: asyncssh stops opening the SSH window and the client waits with
its data. A flood slows down to the budget; an honest client loses nothing.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from frontends.limits import Limits, TokenBucket
from frontends.ssh.terminal import PLAIN

# One key as the prompt takes it: a run of plain characters (a paste) or any other
# character (an escape sequence counts a key per character: it errs on the pool's side).
KEY = re.compile(rf"{PLAIN}{{4,}}|.", re.DOTALL)
# Let a resting channel go on once this many keys, or characters, are available.
RESUME_AT = 10
AT_ONCE = 4096


class Readable(Protocol):
    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


@dataclass
class InputMeter:
    """One connection's input budget (``Limits.input_*``), shared by its channels."""

    limits: Limits
    clock: Callable[[], float] = time.monotonic
    chars: TokenBucket = field(init=False)
    keys: TokenBucket = field(init=False)
    let_through: int = 0  # keys that reached the prompt, for whoever watches (tests, benches)

    def __post_init__(self) -> None:
        limits = self.limits
        self.chars = TokenBucket(
            limits.input_chars_per_second, limits.input_chars_burst, self.clock
        )
        self.keys = TokenBucket(limits.input_keys_per_second, limits.input_keys_burst, self.clock)

    def share(self, text: str, counts_keys: bool) -> tuple[int, int]:
        """How much of ``text`` may pass now (a length; 0: none) and the keys it holds,
        taken from the budget. ``counts_keys``: the text goes to a prompt, which pays
        for each key. Nothing passes until a worthwhile share has refilled (``AT_ONCE``
        characters, ``RESUME_AT`` keys) or the whole text fits: a budget spent down
        must not be handed out a character at a time as it trickles back."""
        most = min(len(text), math.floor(self.chars.available()))
        if most < min(len(text), AT_ONCE, self.chars.burst):
            return 0, 0
        keys = 0
        if counts_keys:
            allowed, end = math.floor(self.keys.available()), 0
            for found in KEY.finditer(text, 0, most):
                if keys == allowed:
                    if allowed < min(RESUME_AT, self.keys.burst):
                        return 0, 0
                    break
                keys, end = keys + 1, found.end()
            most = end
        self.chars.tokens -= most
        self.keys.tokens -= keys
        return most, keys

    def refund(self, keys: int) -> None:
        """Keys taken for text the gate then dropped: they never reach the prompt."""
        self.keys.tokens += keys

    def seconds_until_more(self, counts_keys: bool) -> float:
        wait = self.chars.seconds_until(AT_ONCE)
        return max(wait, self.keys.seconds_until(RESUME_AT)) if counts_keys else wait


class MeteredInput:
    """One channel's input, handed to ``deliver`` as the connection's budget allows;
    ``deliver`` returns what it passed on, and only that is paid for: what the gate
    drops (lines past the backlog) costs a scan, not the prompt's keys."""

    def __init__(
        self,
        meter: InputMeter,
        deliver: Callable[[str], str],
        counts_keys: Callable[[], bool],
    ) -> None:
        self.meter = meter
        self.deliver = deliver
        self.counts_keys = counts_keys
        self.waiting = ""  # arrived, not yet let through
        self.channel: Readable | None = None
        self._paused = False
        self._later: asyncio.TimerHandle | None = None
        self._then: Callable[[], None] | None = None  # the input's end, once all is through

    def receive(self, channel: Readable, data: str) -> None:
        self.channel = channel
        self.waiting += data
        if self._later is None:
            self._flow()

    def end(self, then: Callable[[], None]) -> None:
        """The client closed its input: ``then`` once everything before it is through."""
        if self.waiting:
            self._then = then
        else:
            then()

    def close(self) -> None:
        if self._later is not None:
            self._later.cancel()
            self._later = None
        self.waiting = ""

    def _flow(self) -> None:
        self._later = None
        while self.waiting:
            counts_keys = self.counts_keys()
            passing, keys = self.meter.share(self.waiting, counts_keys)
            if not passing:
                if self.channel is not None and not self._paused:
                    self._paused = True
                    self.channel.pause_reading()
                wait = self.meter.seconds_until_more(counts_keys)
                self._later = asyncio.get_running_loop().call_later(wait, self._flow)
                return
            piece, self.waiting = self.waiting[:passing], self.waiting[passing:]
            passed = self.deliver(piece)
            if counts_keys:
                reached = sum(1 for _ in KEY.finditer(passed))
                self.meter.let_through += reached
                self.meter.refund(keys - reached)
        if self._paused and self.channel is not None:
            self._paused = False
            self.channel.resume_reading()
        if self._then is not None:
            then, self._then = self._then, None
            then()
