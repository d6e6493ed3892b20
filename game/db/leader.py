"""Which of the processes on one database runs the commentator, the scheduler and the feed.

Any number of ``betania serve`` may serve players from one database, but one
voice must speak. The one that holds the lead is chosen through the database
itself, with a lock that dies with the process that holds it, kill -9
included, so no lease needs renewing and no clock needs trusting:

- PostgreSQL: a session advisory lock, held on a connection of its own;
- SQLite (one machine): an exclusive ``flock`` on a file beside the database.

The others keep trying; whoever gets the lock next resumes from the log's
cursors, so nothing is said twice and nothing is lost.
"""

from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path
from typing import IO, Any

from sqlalchemy import Engine

from game.db.engine import libpq_url

log = logging.getLogger("betania.db")

# pg_try_advisory_lock takes a 64-bit key: this one is "betania" in ASCII.
LOCK_KEY = 0x62657461_6E6961


class Leadership:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._held: Any = None  # the connection or the open file that holds the lock
        self._asking: Any = None  # PostgreSQL: the connection that asks, kept between tries

    @property
    def held(self) -> bool:
        return self._held is not None

    def try_take(self) -> bool:
        """Take the lead if nobody holds it; True while this process holds it."""
        if self._held is not None:
            return True
        if self.engine.dialect.name == "postgresql":
            self._held = self._take_postgresql()
        else:
            self._held = exclusive_lock(self._lock_path())
        return self._held is not None

    def release(self) -> None:
        for held in (self._held, self._asking):
            if held is not None:
                held.close()  # the lock goes with the connection, or with the file's descriptor
        self._held = self._asking = None

    def _take_postgresql(self) -> Any:
        import psycopg

        url = libpq_url(self.engine.url)
        try:
            if self._asking is None or self._asking.closed:
                self._asking = psycopg.connect(url, autocommit=True)
            row = self._asking.execute("SELECT pg_try_advisory_lock(%s)", (LOCK_KEY,)).fetchone()
        except psycopg.Error as error:  # the server is away: not the leader; ask again later
            log.warning("cannot ask the database who leads (%s)", error)
            if self._asking is not None:
                self._asking.close()
            self._asking = None
            return None
        if row is None or not row[0]:
            return None
        held, self._asking = self._asking, None
        return held

    def _lock_path(self) -> Path:
        database = self.engine.url.database
        if not database or database == ":memory:":
            raise RuntimeError("a pool in memory has one process: it needs no leader")
        return Path(database).with_name(Path(database).name + ".leader")


def exclusive_lock(path: Path) -> IO[str] | None:
    """An exclusive ``flock`` on ``path`` (made if missing), held while the returned file
    is open and gone with the process, kill -9 included; None while another holds it."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        return None
    return os.fdopen(descriptor, "r+")
