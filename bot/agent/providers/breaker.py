"""A provider that is down costs nothing: a circuit breaker in front of it.

After ``failures`` calls in a row fail (each after the provider's own retries),
the circuit opens: calls fail at once with a ``ModelError``, which the
gateway answers with the offline voice as it answers any failure, for a
cool-down that doubles while failures last (``cooldown`` up to ``longest``).
Then one call goes through as a probe: an answer closes the circuit, a failure
opens it again for longer. Each change of state is logged once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from enum import Enum

from bot.agent.providers.base import Model, ModelCall, ModelError

log = logging.getLogger("betania.providers")
OPEN_ERROR = "circuit open"  # in a skipped call's error: memory stats counts them


class Circuit(Enum):
    CLOSED = "closed"  # calls go through
    OPEN = "open"  # calls fail at once until the cool-down ends
    PROBING = "probing"  # one call goes through to see if the provider is back


class CircuitBreaker:
    def __init__(
        self,
        model: Model,
        *,
        failures: int = 3,
        cooldown: float = 30.0,
        longest: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.model = model
        self.name = model.name
        self.threshold = failures
        self.first_cooldown = cooldown
        self.longest = longest
        self.clock = clock
        self.state = Circuit.CLOSED
        self.failed = 0  # in a row
        self.cooldown = cooldown
        self.until = 0.0
        self.skipped = 0  # calls answered at once while open
        self.changes: list[tuple[Circuit, str]] = []  # each change of state and why

    def complete(self, call: ModelCall) -> str:
        if self.state is Circuit.OPEN:
            if self.clock() < self.until:
                self.skipped += 1
                wait = self.until - self.clock()
                raise ModelError(f"{self.name}: {OPEN_ERROR}, next try in {wait:.0f} s")
            self._change(Circuit.PROBING, "the cool-down is over: one call probes")
        try:
            answer = self.model.complete(call)
        except ModelError as error:
            self.failed += 1
            if self.state is Circuit.PROBING:
                self.cooldown = min(self.cooldown * 2, self.longest)
                self._open(f"the probe failed ({error})")
            elif self.failed >= self.threshold:
                self.cooldown = self.first_cooldown
                self._open(f"{self.failed} calls in a row failed ({error})")
            raise
        self.failed = 0
        if self.state is not Circuit.CLOSED:
            self._change(Circuit.CLOSED, "the provider answered")
        return answer

    def _open(self, why: str) -> None:
        self.until = self.clock() + self.cooldown
        self._change(
            Circuit.OPEN, f"{why}; calls go to the offline voice for {self.cooldown:.0f} s"
        )

    def _change(self, state: Circuit, why: str) -> None:
        self.state = state
        self.changes.append((state, why))
        log.warning("%s: circuit %s: %s", self.name, state.value, why)
