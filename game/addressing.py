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
        # "@betania ..." anywhere it starts a line; her name without the @ only as people
        # call someone: followed by a comma, a colon, ! or ?, or alone ("betania, who
        # leads?", "BETanIA: oi"), not "betania is so smug today", which is about her.
        names = "|".join(re.escape(name) for name in dict.fromkeys((self.handle, self.name)))
        pattern = re.compile(
            rf"^\s*(?:@{re.escape(self.handle)}\b[\s,:]*|(?:{names})\s*(?:[,:!?]+\s*|$))",
            re.IGNORECASE,
        )
        object.__setattr__(self, "_pattern", pattern)

    @property
    def mention(self) -> str:
        return f"@{self.handle}"

    def message(self, text: str) -> str | None:
        """What a line addressed to her (``@handle ...``, or her name called: ``handle,
        ...``) says to her, or None if it is not."""
        found = self._pattern.match(text)
        return None if found is None else text[found.end() :]
