"""Word of a new event from the database itself, to every process on it (PostgreSQL).

Each append on PostgreSQL sends ``NOTIFY betania_events`` in its transaction,
so the word goes out at commit, whichever process wrote: another front end,
the console, the feed poller. A ``Listener`` holds one connection of its own
that LISTENs, in a thread, and calls back on each word; the hub then reads the
log from its cursor. SQLite has no such channel: there the hub's poll stands in.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import ColumnElement, Engine, Text, cast, func

from game.db.engine import libpq_url

CHANNEL = "betania_events"
log = logging.getLogger("betania.db")


def word_of(event_id: ColumnElement[int]) -> ColumnElement[Any]:
    """``NOTIFY betania_events, event_id`` as an expression: the statement that appends
    an event returns it, so the word costs no round trip of its own. Sent at commit."""
    return func.pg_notify(CHANNEL, cast(event_id, Text))


def can_listen(engine: Engine) -> bool:
    return engine.dialect.name == "postgresql"


class Listener:
    """LISTENs on its own connection in a thread; ``on_word`` is called from that thread."""

    def __init__(self, engine: Engine, on_word: Callable[[], None], wait: float = 1.0) -> None:
        self.conninfo = libpq_url(engine.url)
        self.on_word = on_word
        self.wait = wait  # how often the thread looks up to see whether it should stop
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pool-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=self.wait + 5)

    def _run(self) -> None:
        import psycopg

        while not self._stopping.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self.on_word()  # words sent while it was not listening: read the log now
                    while not self._stopping.is_set():
                        for _ in connection.notifies(timeout=self.wait, stop_after=1):
                            self.on_word()
            except psycopg.Error as error:  # the server went away: listen again shortly
                log.warning("listening for new events failed (%s); trying again", error)
                self._stopping.wait(self.wait)
