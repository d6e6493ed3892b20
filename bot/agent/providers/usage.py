"""Recording what each model call cost, as an event in the pool's log."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from game.events import ModelCalled

UsageSink = Callable[[ModelCalled], None]


@dataclass
class Stopwatch:
    started: float = field(default_factory=time.perf_counter)

    @property
    def ms(self) -> int:
        return round((time.perf_counter() - self.started) * 1000)


def discard(_usage: ModelCalled) -> None:
    """A sink for tools that keep no log."""
