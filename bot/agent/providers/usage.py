"""Timing model calls and reporting what each cost (``memory.usage`` keeps it)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from memory.usage import ModelUsage

UsageSink = Callable[[ModelUsage], None]


@dataclass
class Stopwatch:
    started: float = field(default_factory=time.perf_counter)

    @property
    def ms(self) -> int:
        return round((time.perf_counter() - self.started) * 1000)


def discard(_usage: ModelUsage) -> None:
    """A sink for tools that keep no log."""
