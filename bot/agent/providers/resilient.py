"""A provider that never leaves the pool waiting: on failure, the offline writer answers."""

from __future__ import annotations

import logging

from bot.agent.providers.usage import UsageSink
from memory.model import Model, ModelCall, ModelError
from memory.usage import ModelUsage

log = logging.getLogger("betania.model")


class Resilient:
    def __init__(self, primary: Model, fallback: Model, on_usage: UsageSink) -> None:
        self.primary = primary
        self.fallback = fallback
        self.on_usage = on_usage
        self.name = primary.name
        self.fallbacks = 0

    def complete(self, call: ModelCall) -> str:
        try:
            return self.primary.complete(call)
        except ModelError as error:
            self.fallbacks += 1
            log.warning(
                "%s failed on %s (%s); the offline writer answers",
                self.primary.name,
                call.task,
                error,
            )
            answer = self.fallback.complete(call)
            self.on_usage(ModelUsage(self.fallback.name, "rules", call.task, fallback=True))
            return answer
