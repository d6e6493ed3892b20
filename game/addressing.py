"""Who the commentator is in the pool: the handle she answers to and signs with.

The name is configuration, set once (``bot.app.settings``, from ``BETANIA_HANDLE``
and ``BETANIA_NAME``) and handed to the parser, memory and the agent; nothing
below that setting spells it out. ``message`` is the one test of whether a line
is addressed to her.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

DEFAULT_HANDLE = "betania"
DEFAULT_NAME = "BETanIA"


@dataclass(frozen=True)
class Addressee:
    handle: str = DEFAULT_HANDLE
    name: str = DEFAULT_NAME  # how her lines are signed: her display name in the pool
    _pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pattern = re.compile(rf"^\s*@{re.escape(self.handle)}\b[\s,:]*", re.IGNORECASE)
        object.__setattr__(self, "_pattern", pattern)

    @property
    def mention(self) -> str:
        return f"@{self.handle}"

    def message(self, text: str) -> str | None:
        """What a line addressed to her (``@handle ...``) says to her, or None if it is not."""
        found = self._pattern.match(text)
        return None if found is None else text[found.end() :]
