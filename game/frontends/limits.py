"""Limits that keep one client from crowding out the others, with clear words past them."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from game.errors import UserError


@dataclass(frozen=True)
class Limits:
    line_length: int = 1000
    commands_per_second: float = 10.0
    command_burst: int = 20
    chat_lines: int = 5  # per connection, within chat_window seconds
    chat_window: float = 10.0
    sessions_per_player: int = 3
    sessions_total: int = 500
    connections_per_player: int = 5  # with or without sessions: exec mode opens one per command
    connections_total: int = 600
    idle_timeout: float = 30 * 60.0
    input_backlog: int = 20  # finished lines waiting to be read; more at once are dropped
    resize_interval: float = 0.1  # the screen is redrawn at most this often on resizes


@dataclass
class TokenBucket:
    """``rate`` tokens a second up to ``burst``; each action takes one."""

    rate: float
    burst: float
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    stamp: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.stamp = self.clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class LimitReached(UserError):
    """An action past one of a player's limits; the message says which and what to do."""


@dataclass
class ConnectionLimits:
    """One player's budgets, shared by all their connections and channels.

    Each ``check_*`` returns the refusal of an action past a limit, or ``None``.
    """

    limits: Limits
    clock: Callable[[], float] = time.monotonic
    commands: TokenBucket = field(init=False)
    chat: TokenBucket = field(init=False)

    def __post_init__(self) -> None:
        self.commands = TokenBucket(
            self.limits.commands_per_second, self.limits.command_burst, self.clock
        )
        self.chat = TokenBucket(
            self.limits.chat_lines / self.limits.chat_window, self.limits.chat_lines, self.clock
        )

    def check_line(self, line: str) -> LimitReached | None:
        if len(line) > self.limits.line_length:
            return LimitReached(
                "line too long: at most {length} characters", length=self.limits.line_length
            )
        if not self.commands.take():
            return LimitReached(
                "too many commands: at most {rate:g} a second; wait a moment",
                rate=self.limits.commands_per_second,
            )
        return None

    def check_chat(self) -> LimitReached | None:
        if not self.chat.take():
            return LimitReached(
                "slow down: at most {lines} chat lines every {seconds:g} seconds",
                lines=self.limits.chat_lines,
                seconds=self.limits.chat_window,
            )
        return None
