"""Talk: chat lines and remarks."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import cast

from sqlalchemy import Connection, select
from sqlalchemy.dialects import postgresql, sqlite

from game.db.schema import players, remarks_said
from game.events import (
    ChatPosted,
    Event,
    LoggedEvent,
    RemarkPosted,
)
from game.pool.work import UnitOfWork, require_player_id
from game.rules import RuleViolation
from game.text import clean_line, speaker_prefix

MAX_CHAT_LENGTH = 500


def _names(connection: Connection) -> Iterator[str]:
    """Every handle and display name, read when first asked for: most chat lines hold no
    time, and need none of them (``speaker_prefix``)."""
    for row in connection.execute(select(players.c.handle, players.c.display_name)):
        yield from (name for name in row if name)


def faked_line(connection: Connection, text: str) -> str | None:
    """What in ``text``, which a player wrote and others will see (a chat line, a bonus
    pick in everyone's table), reads as the start of someone's line (``speaker_prefix``),
    with the pool's names; None when nothing does."""
    return speaker_prefix(text, _names(connection))


class Talk:
    """What is said in the pool: players' chat and the commentator's remarks."""

    def __init__(self, work: UnitOfWork) -> None:
        self._work = work

    def chat(self, handle: str, text: str) -> LoggedEvent[ChatPosted]:
        text = clean_line(text)
        if not text:
            raise RuleViolation("nothing to say")
        if len(text) > MAX_CHAT_LENGTH:
            raise RuleViolation(
                "chat lines are at most {length} characters", length=MAX_CHAT_LENGTH
            )

        def work(
            connection: Connection, logged: list[LoggedEvent[Event]]
        ) -> LoggedEvent[ChatPosted]:
            require_player_id(connection, handle)
            # On another's terminal the line reads "[13:47] ana: <text>": <text> must not
            # read as a line of someone's of its own, where it wraps onto a new row.
            faked = faked_line(connection, text)
            if faked is not None:
                raise RuleViolation(
                    "a chat line cannot hold {faked!r}: it reads as someone's line", faked=faked
                )
            self._work.append(connection, logged, ChatPosted(handle, text))
            return cast(LoggedEvent[ChatPosted], logged[-1])

        return self._work.commit(work)

    def remark(
        self,
        handle: str,
        text: str,
        about: Iterable[str] = (),
        match: int | None = None,
        trigger: int | None = None,
        topic: str = "",
    ) -> RemarkPosted | None:
        """A commentator's line; ``None`` if one on the same ``trigger`` and ``topic`` was made."""
        text = clean_line(text)
        if not text:
            raise RuleViolation("nothing to say")

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> RemarkPosted | None:
            require_player_id(connection, handle)
            if trigger is not None and not _first_on(connection, trigger, topic):
                return None  # said already, by this process or another front end's
            event = RemarkPosted(handle, text, tuple(about), match, trigger, topic)
            self._work.append(connection, logged, event)
            return event

        return self._work.commit(work)

    def said_on(self, trigger: int, topic: str = "") -> bool:
        """Whether a remark on ``trigger`` and ``topic`` was made: then no other may be."""
        with self._work.read() as connection:
            return _said_on(connection, trigger, topic)


def _said_on(connection: Connection, trigger: int, topic: str) -> bool:
    found = select(remarks_said.c.trigger).where(
        remarks_said.c.trigger == trigger, remarks_said.c.topic == topic
    )
    return connection.execute(found).first() is not None


def _first_on(connection: Connection, trigger: int, topic: str) -> bool:
    """Claim ``trigger`` and ``topic`` for a remark; False when one was made already.

    The database keeps it (a primary key), not a scan: two processes racing to
    remark on one goal cannot both win, and the loser's transaction goes on.
    """
    dialect = connection.dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    claim = (
        insert(remarks_said)
        .values(trigger=trigger, topic=topic)
        .on_conflict_do_nothing()
        .returning(remarks_said.c.trigger)
    )
    return connection.execute(claim).first() is not None
