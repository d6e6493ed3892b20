"""The one small interface between the gateway and any model provider.

A ``ModelCall`` carries the same request two ways: as text (the immutable
system prefix and the assembled prompt) for a language model, and as a typed
``request`` (``memory.requests``, ``bot.agent.requests``) for a rule-based one such as the offline voice.
Tests drive the gateway with scripted models that implement ``complete``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from memory.asking import Unanswered
from memory.requests import Request
from memory.tokens import estimate_tokens

# The attempt of a call whose line replaces a model's refused ones (the offline voice's,
# ``bot.agent.gateway``): it quotes no player's words, for those may be what was refused
REPLACING = -2


class ModelError(Unanswered):
    """The model failed or answered something unusable; the caller keeps what it had."""


@dataclass(frozen=True)
class ModelCall:
    task: str  # "diary_entry", "diary_fusion", "fact_merge", "remark", ...
    system: str  # the immutable layer: byte-identical from call to call
    prompt: str
    request: Request | None = None
    # Which try this is (the event it reacts to, the attempt): a rule-based writer
    # phrases a second try differently, and the same try the same way on a replay.
    variant: tuple[int, int] = (0, 0)
    # The answer's JSON schema when this call wants one besides its request's own: a text
    # with the claims it makes (``memory.declared``)
    schema: dict[str, Any] | None = None

    @property
    def form(self) -> dict[str, Any] | None:
        """The JSON schema the answer is asked in, if any: the call's, else its request's."""
        if self.schema is not None:
            return self.schema
        return self.request.schema if self.request is not None else None

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.system) + estimate_tokens(self.prompt)


class Model(Protocol):
    name: str

    def complete(self, call: ModelCall) -> str:
        """The model's answer as text; raises ``ModelError`` when there is none."""
        ...
