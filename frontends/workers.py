"""Worker threads for an event loop's blocking calls, handed over in batches."""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
Call = tuple[Callable[[], Any], "asyncio.Future[Any]"]
Answer = tuple["asyncio.Future[Any]", Any, BaseException | None]


class Workers:
    """Up to ``threads`` threads running an event loop's calls, in the order they come.

    ``run_in_executor`` hands each call over on its own: it wakes a thread for it,
    and the loop again for its answer. Under a crowd of SSH sessions those wake-ups,
    and the GIL passed to and fro with each, cost more than the calls themselves (a
    pick is a quarter of a millisecond). Here a thread that is woken goes on with
    every call queued behind it before it sleeps again, and the answers that finish
    before the loop has taken the last ones go back with them, in one wake-up. A
    call still gets a thread of its own when one is free: one that waits for a lock
    holds up only the calls that came after it on its own thread, as with an executor.
    """

    def __init__(self, threads: int, name: str) -> None:
        self._threads = threads
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix=name)
        self._lock = threading.Lock()  # guards the three below
        self._calls: deque[Call] = deque()
        self._taking = 0  # threads taking calls from _calls
        self._answers: list[Answer] = []  # finished, not yet taken by the loop
        self._closed = False

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` in one of the threads; its result or its exception."""
        if self._closed:
            raise RuntimeError("cannot run calls after the workers are closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._lock:
            self._calls.append((work, future))
            wake = self._taking < self._threads
            if wake:
                self._taking += 1
        if wake:
            try:
                self._executor.submit(self._take_calls, loop)
            except RuntimeError:  # the interpreter is shutting down: no thread will take it
                with self._lock:
                    self._taking -= 1
                    if (work, future) in self._calls:
                        self._calls.remove((work, future))
                raise
        return await future

    def _take_calls(self, loop: asyncio.AbstractEventLoop) -> None:
        while True:
            with self._lock:
                if not self._calls:
                    # Under the lock: a call queued after this sees one thread fewer taking.
                    self._taking -= 1
                    return
                work, future = self._calls.popleft()
            if future.cancelled():  # its caller left before it started: not run, as an executor's
                continue
            try:
                answer: Answer = (future, work(), None)
            except StopIteration as error:  # a future refuses it: a RuntimeError, as PEP 479's
                wrapped = RuntimeError("the call raised StopIteration")
                wrapped.__cause__ = error
                answer = (future, None, wrapped)
            except BaseException as error:  # the caller's to see, as an executor hands it on
                answer = (future, None, error)
            with self._lock:
                self._answers.append(answer)
                first = len(self._answers) == 1
            if first:  # else a wake-up is on its way, and takes this one too
                try:
                    loop.call_soon_threadsafe(self._hand_back)
                except RuntimeError:  # the loop is closed: nobody waits for them
                    with self._lock:
                        self._answers.clear()

    def _hand_back(self) -> None:
        with self._lock:
            answers, self._answers = self._answers, []
        for future, result, error in answers:
            if future.done():  # its caller gave up on it meanwhile
                continue
            if error is None:
                future.set_result(result)
            else:
                future.set_exception(error)

    def close(self) -> None:
        """Calls not started are cancelled; the running ones are waited for."""
        self._closed = True
        with self._lock:
            waiting, self._calls = self._calls, deque()
        for _, future in waiting:
            future.cancel()
        self._executor.shutdown(wait=True)
