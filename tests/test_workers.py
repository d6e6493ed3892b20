import asyncio
import threading

import pytest

from frontends.workers import Workers


def test_calls_run_in_the_threads_and_answer_in_order_asked() -> None:
    async def scenario() -> None:
        workers = Workers(2, "test-workers")
        try:
            loop_thread = threading.get_ident()
            ran: list[int] = []

            def call(number: int) -> tuple[int, bool]:
                ran.append(number)
                return number * number, threading.get_ident() != loop_thread

            answers = await asyncio.gather(*(workers.run(lambda n=n: call(n)) for n in range(50)))
            assert answers == [(n * n, True) for n in range(50)]
            assert sorted(ran) == list(range(50))
        finally:
            workers.close()

    asyncio.run(scenario())


def test_a_call_that_raises_raises_for_its_caller_alone() -> None:
    def broken() -> int:
        raise ValueError("no")

    async def scenario() -> None:
        workers = Workers(1, "test-workers")
        try:
            failing, fine = workers.run(broken), workers.run(lambda: 7)
            results = await asyncio.gather(failing, fine, return_exceptions=True)
            assert isinstance(results[0], ValueError) and results[1] == 7
        finally:
            workers.close()

    asyncio.run(scenario())


def test_a_call_blocked_in_one_thread_holds_up_no_call_while_another_is_free() -> None:
    async def scenario() -> None:
        workers = Workers(2, "test-workers")
        release = threading.Event()
        try:
            blocked = asyncio.ensure_future(workers.run(lambda: release.wait(5)))
            await asyncio.sleep(0.05)  # the first thread is in it
            assert await asyncio.wait_for(workers.run(lambda: "through"), 2) == "through"
            assert not blocked.done()
            release.set()
            assert await blocked is True
        finally:
            release.set()
            workers.close()

    asyncio.run(scenario())


def test_a_call_its_caller_gave_up_on_before_it_started_is_not_run() -> None:
    async def scenario() -> None:
        workers = Workers(1, "test-workers")
        release = threading.Event()
        ran: list[str] = []
        try:
            busy = asyncio.ensure_future(workers.run(lambda: release.wait(5)))
            await asyncio.sleep(0.05)
            waiting = asyncio.ensure_future(workers.run(lambda: ran.append("late")))
            await asyncio.sleep(0)
            waiting.cancel()
            release.set()
            await busy
            assert await workers.run(lambda: "after") == "after"
            assert ran == []
        finally:
            release.set()
            workers.close()

    asyncio.run(scenario())


def test_closing_cancels_the_calls_not_started_and_refuses_new_ones() -> None:
    async def scenario() -> None:
        workers = Workers(1, "test-workers")
        release = threading.Event()
        busy = asyncio.ensure_future(workers.run(lambda: release.wait(5)))
        await asyncio.sleep(0.05)
        waiting = asyncio.ensure_future(workers.run(lambda: "never"))
        await asyncio.sleep(0)
        threading.Timer(0.05, release.set).start()
        workers.close()  # waits for the running call
        assert await busy is True
        with pytest.raises(asyncio.CancelledError):
            await waiting
        with pytest.raises(RuntimeError):
            await workers.run(lambda: "refused")

    asyncio.run(scenario())


def test_a_call_that_raises_stop_iteration_fails_alone_and_its_batch_is_answered() -> None:
    """A future refuses StopIteration: passed on as it is, it lost every answer handed
    back with it, and their callers waited for good."""

    def empty() -> int:
        return next(iter([]))

    async def scenario() -> None:
        workers = Workers(1, "test-workers")
        release = threading.Event()
        try:
            busy = asyncio.ensure_future(workers.run(lambda: release.wait(5)))
            await asyncio.sleep(0.05)
            queued = [workers.run(empty), *(workers.run(lambda n=n: n) for n in range(3))]
            behind = asyncio.gather(*queued, return_exceptions=True)
            release.set()
            await busy
            results = await asyncio.wait_for(behind, 5)
            assert isinstance(results[0], RuntimeError) and results[1:] == [0, 1, 2]
        finally:
            release.set()
            workers.close()

    asyncio.run(scenario())
