"""One typed way to follow the log: each reader declares, in one table, the events it
handles and the handler for each, the way a message bus maps events to handlers.

    notices = Handlers[Notice | None]().on(GoalScored, goal).on(ChatPosted, chat)
    notice = notices.dispatch(item)  # None for a kind the table does not name

A handler receives the logged event typed by its kind (``LoggedEvent[GoalScored]``),
so it reads ``item.event.minute`` with the type checker's blessing. Readers keep
their own cursors: the table only says what each event means to them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

from game.events import Event, LoggedEvent

E = TypeVar("E", bound=Event)
R = TypeVar("R")


class Handlers(Generic[R]):
    def __init__(self) -> None:
        self._table: dict[type[Event], Callable[[LoggedEvent[Any]], R]] = {}

    def on(self, kind: type[E], handler: Callable[[LoggedEvent[E]], R]) -> Handlers[R]:
        """Handle events of ``kind`` with ``handler``; one handler per kind."""
        if kind in self._table:
            raise ValueError(f"{kind.__name__} already has a handler here")
        self._table[kind] = cast(Callable[[LoggedEvent[Any]], R], handler)
        return self

    @property
    def kinds(self) -> tuple[str, ...]:
        """The log's names of the kinds handled: what a reader needs to read."""
        return tuple(kind.kind for kind in self._table)

    def handles(self, item: LoggedEvent[Event]) -> bool:
        return type(item.event) in self._table

    def dispatch(self, item: LoggedEvent[Event]) -> R | None:
        """The handler's answer for ``item``, or None when its kind is not in the table."""
        handler = self._table.get(type(item.event))
        return None if handler is None else handler(item)
