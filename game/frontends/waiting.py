"""The pool's work from the event loop: now if no lock is in the way, else in a thread.

The event loop serves every session; a database lock held by someone else (a
console command, a backup, another process) must never stall it. SQLite in WAL
mode almost never makes anyone wait, and then a call takes about a millisecond:
handing every call to a thread was measured, and the handoffs cost more than
the work. So the first try runs here and fails at once on a lock; only then
does the call go to a thread, where it may wait up to the busy timeout.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy.exc import OperationalError

from game.db.engine import is_locked, without_lock_waits

T = TypeVar("T")


async def promptly(work: Callable[[], T], waiting_room: ThreadPoolExecutor | None = None) -> T:
    """``work`` now if no lock is in the way; else in ``waiting_room``, where it may wait.

    A first try that meets a lock has rolled back whole (every pool call is one
    transaction, and listeners hear only what committed), so trying again is safe.
    """
    try:
        with without_lock_waits():
            return work()
    except OperationalError as error:
        if not is_locked(error):
            raise
    return await asyncio.get_running_loop().run_in_executor(waiting_room, work)
