"""What memory needs from whoever talks to the model, and nothing more.

Memory builds contexts and keeps shelves; it never talks to a model. When a
shelf needs words (a diary entry, a fused narrative, a merge of facts, the
facts in a chat line), it hands a built ``Context`` and a typed ``Request`` to an
``Asker``: the agent's gateway (``bot.agent.gateway``), which asks the provider,
holds the answer to the output contract, falls back and records the call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from memory.context import Context
from memory.declared import Declared
from memory.requests import Request


class Unanswered(RuntimeError):
    """No usable answer came: the shelf keeps what it had and tries with the next material."""


@dataclass(frozen=True)
class Asked:
    """A model's answer, and the record of the call that got it."""

    text: str
    call_id: int
    replaced: bool = False  # the offline voice's line, after the model's were refused
    claims: tuple[Declared, ...] = ()  # what the text claims, as its writer declared it


class Asker(Protocol):
    def ask(
        self,
        context: Context,
        request: Request,
        variant: tuple[int, int] = (0, 0),
        match: int | None = None,
        event_id: int | None = None,
        fall_back: bool = True,
    ) -> Asked:
        """One recorded call; raises ``Unanswered`` when it fails and ``fall_back`` is off."""
        ...

    def held(
        self, asked: Asked, context: Context, request: Request, event_id: int, match: int | None
    ) -> Asked | None:
        """``asked`` if it keeps the output contract, else a kept replacement, else None."""
        ...

    def settle(self, asked: Asked, outcome: str) -> None:
        """Record what became of an answer ("merged", "refused: ...")."""
        ...
