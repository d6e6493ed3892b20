"""Live events for every connected session, read from the log in order.

The hub tails the event log rather than trusting in-process callbacks: a
result entered from the console, another front end or a feed reaches every
session the same way. What wakes it: a commit in this process, and on
PostgreSQL the database's word of any process's commit (``game.db.notify``);
a slow poll only stands in for a word lost (SQLite: the only way to hear of
another process's commits, so it polls every second).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Hashable

from frontends.notices import Notice, Notices
from game.db.notify import Listener, can_listen
from game.events import Event, LoggedEvent
from game.pool import Pool
from game.words import Words

__all__ = ["Deliver", "Hub", "Notice", "answer_to"]
log = logging.getLogger("betania.hub")
LISTENING_POLL = 30.0  # seconds between safety-net reads when the database gives word
# A commit wakes the hub, which then waits this long for the commits that come with it:
# under a burst of picks the log is read once for many, not once per pick, and a goal
# still reaches every session at once to the eye.
GATHER = 0.02
RETRY_AFTER = 1.0  # seconds before a log that could not be read is read again


Deliver = Callable[[Notice], None]


class Hub:
    def __init__(self, pool: Pool, poll_interval: float = 1.0, words: Words | None = None) -> None:
        self.pool = pool
        self.words = words or Words()
        self.listener = Listener(pool.engine, self._wake_soon) if can_listen(pool.engine) else None
        # With the database's word for every commit, the poll is only a safety net.
        self.poll_interval = max(poll_interval, LISTENING_POLL) if self.listener else poll_interval
        self.subscribers: dict[Hashable, Deliver] = {}  # sessions by id; others by a name
        self.last_id = pool.last_event_id()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping = False
        self._waking = False  # a wake-up is on its way and the log not read since
        self.notices = Notices(pool, self.words)
        pool.subscribe(self._poke)

    def _poke(self, _item: LoggedEvent[Event]) -> None:
        self._wake_soon()

    def _wake_soon(self) -> None:
        # Commits happen in worker threads (the commentator's), words arrive in the
        # listener's: wake the loop safely. Once until the hub reads the log, which then
        # reads what they committed too: not a call into the loop, and a write to its
        # wake-up pipe, for each pick of a burst.
        if self._waking or self._loop is None or self._loop.is_closed():
            return
        self._waking = True
        self._loop.call_soon_threadsafe(self._wake.set)

    def subscribe(self, key: Hashable, deliver: Deliver) -> None:
        self.subscribers[key] = deliver

    def unsubscribe(self, key: Hashable) -> None:
        self.subscribers.pop(key, None)

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._waking = False
        self._task = self._loop.create_task(self._run())
        if self.listener is not None:
            self.listener.start()

    async def stop(self) -> None:
        # A flag and a wake-up, not a cancellation: Python 3.11's wait_for can lose a
        # cancel that races with the event it waits on, and stop() then never returns.
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            await self._task
        if self.listener is not None:
            await asyncio.to_thread(self.listener.stop)

    async def _run(self) -> None:
        while not self._stopping:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.poll_interval):
                    await self._wake.wait()
            woken = not self._stopping  # by a commit or the poll, not by stop()
            if woken:
                await asyncio.sleep(GATHER)
            self._wake.clear()
            self._waking = False  # what commits from here on may not be in the read below
            if woken:  # a stop asked for while gathering still hears what woke it
                await self._deliver_new()

    async def _deliver_new(self) -> None:
        """The notices since the last read, to every subscriber. What fails here fails
        alone: a log that cannot be read now is read again a second later, from where it
        was; a subscriber that raises (a console whose pipe closed) is
        dropped. The hub goes on for everyone else."""
        try:
            # Reading the log never runs on the loop: a worker reads it.
            last_id, notices = await asyncio.to_thread(self.collect, self.last_id)
        except Exception:
            log.exception("the hub could not read the log; it tries again in a second")
            # Not at the next commit or poll alone: with the database's word, the poll is
            # half a minute apart.
            asyncio.get_running_loop().call_later(RETRY_AFTER, self._wake.set)
            return
        self.last_id = last_id
        for notice in notices:
            for key, deliver in list(self.subscribers.items()):
                try:
                    deliver(notice)
                except Exception:
                    log.exception("a subscriber of the hub failed and is dropped: %r", key)
                    self.subscribers.pop(key, None)

    def collect(self, after_id: int) -> tuple[int, list[Notice]]:
        """Every notice after ``after_id`` and the last id read (``Notices.after``)."""
        return self.notices.after(after_id)

    def notice(self, item: LoggedEvent[Event]) -> Notice | None:
        return self.notices.of(item)


async def answer_to(
    answers: asyncio.Queue[Notice], line_id: int, wait: float, words: Words, name: str
) -> str:
    """Her answer to the line logged as ``line_id``, as it arrives in ``answers``; after
    ``wait`` seconds, a line saying it will come in the pool's chat instead."""
    try:
        async with asyncio.timeout(wait):
            while True:
                notice = await answers.get()
                if notice.replies_to == line_id:
                    return notice.text
    except TimeoutError:
        return words(
            "{name} has not answered yet; her answer will be in the pool's chat", name=name
        )
