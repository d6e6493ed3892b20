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
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from game.db.notify import Listener, can_listen
from game.events import (
    ChatPosted,
    Event,
    FeedProblem,
    GoalScored,
    LoggedEvent,
    MatchKickedOff,
    PlayerJoined,
    RemarkPosted,
    ResultRecorded,
)
from game.following import Handlers
from game.frontends.waiting import promptly
from game.pool import Pool
from game.render import TableGlance
from game.words import Words

LISTENING_POLL = 30.0  # seconds between safety-net reads when the database gives word
TABLE_NEWS = (GoalScored.kind, ResultRecorded.kind)  # notices that bring the table along


@dataclass(frozen=True)
class Notice:
    """An event as one line for a terminal; each session adds the time in its own zone."""

    at: datetime
    text: str
    kind: str
    admins_only: bool = False
    replies_to: int | None = None  # for her answer: the log id of the line it answers
    table: TableGlance | None = None  # after a goal or a result: the table as it moved

    def text_for(self, handle: str | None, words: Words) -> str:
        """The notice as ``handle`` reads it: with their place when it brings the table."""
        if self.table is None:
            return self.text
        return f"{self.text}\n{self.table.line_for(handle, words)}"


Deliver = Callable[[Notice], None]


class Hub:
    def __init__(self, pool: Pool, poll_interval: float = 1.0, words: Words | None = None) -> None:
        self.pool = pool
        self.words = words or Words()
        self.listener = Listener(pool.engine, self._wake_soon) if can_listen(pool.engine) else None
        # With the database's word for every commit, the poll is only a safety net.
        self.poll_interval = max(poll_interval, LISTENING_POLL) if self.listener else poll_interval
        self.subscribers: dict[int, Deliver] = {}
        self.last_id = pool.last_event_id()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping = False
        # The events a terminal shows, and how: the one place to add a kind of notice.
        self.notices = (
            Handlers[Notice]()
            .on(MatchKickedOff, self._kickoff)
            .on(GoalScored, self._goal)
            .on(ResultRecorded, self._result)
            .on(RemarkPosted, self._remark)
            .on(ChatPosted, self._chat)
            .on(PlayerJoined, self._joined)
            .on(FeedProblem, self._feed_problem)
        )
        pool.subscribe(self._poke)

    def _poke(self, _item: LoggedEvent[Event]) -> None:
        self._wake_soon()

    def _wake_soon(self) -> None:
        # Commits happen in worker threads (the commentator's), words arrive in the
        # listener's: wake the loop safely.
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake.set)

    def subscribe(self, key: int, deliver: Deliver) -> None:
        self.subscribers[key] = deliver

    def unsubscribe(self, key: int) -> None:
        self.subscribers.pop(key, None)

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
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
            self._wake.clear()
            if not self._stopping:
                # Reading the log never waits on the loop: promptly, or in a worker.
                last_id, notices = await promptly(lambda: self.collect(self.last_id))
                self.last_id = last_id
                for notice in notices:
                    for deliver in list(self.subscribers.values()):
                        deliver(notice)

    def collect(self, after_id: int) -> tuple[int, list[Notice]]:
        """Every notice for the events logged after ``after_id``, and the last id read.

        The last goal or result among them brings the table as it now stands (the
        live one while a match is in play): computed once here for every session.
        """
        notices = []
        for item in self.pool.events(after_id=after_id):
            after_id = item.id
            notice = self.notice(item)
            if notice is not None:
                notices.append(notice)
        moved = [i for i, n in enumerate(notices) if n.kind in TABLE_NEWS]
        if moved:
            live = bool(self.pool.in_play())
            rows = self.pool.standings(live=live)
            glance = TableGlance.of(rows, live, self.words)
            notices[moved[-1]] = replace(notices[moved[-1]], table=glance)
        return after_id, notices

    def notice(self, item: LoggedEvent[Event]) -> Notice | None:
        """The line a terminal shows for ``item``; None for events players do not see."""
        return self.notices.handle(item)

    def _line(self, item: LoggedEvent[Event], text: str) -> Notice:
        return Notice(item.at, text, item.event.kind)

    def _kickoff(self, item: LoggedEvent[MatchKickedOff]) -> Notice:
        match = self.pool.match(item.event.match)
        return self._line(
            item,
            self.words(
                "Kick-off! #{number} {match}",
                number=match.number,
                match=f"{match.team1} v {match.team2}",
            ),
        )

    def _goal(self, item: LoggedEvent[GoalScored]) -> Notice:
        event = item.event
        match = self.pool.match(event.match)
        upto = [g for g in match.goals if (g.minute, g.added) <= (event.minute, event.added)]
        home = sum(g.side == "home" for g in upto)
        scorer = f" {event.scorer}" if event.scorer else ""
        # The side is the one that benefited; an own goal says whose player it was.
        if event.own_goal:
            scorer += self.words(" (own goal)")
        elif event.penalty:
            scorer += self.words(" (pen)")
        clock = f"{event.minute}+{event.added}'" if event.added else f"{event.minute}'"
        score = f"{match.team1} {home}-{len(upto) - home} {match.team2}"
        return self._line(
            item,
            self.words(
                "GOAL! #{number} {score} ({clock}{scorer})",
                number=match.number,
                score=score,
                clock=clock,
                scorer=scorer,
            ),
        )

    def _result(self, item: LoggedEvent[ResultRecorded]) -> Notice:
        event = item.event
        match = self.pool.match(event.match)
        result = self.words.result(match.result or "")
        line = f"#{match.number} {match.team1} {result} {match.team2}"
        if event.previous:
            was = self.words.result(event.previous)
            text = self.words("Correction: {line} (was {was})", line=line, was=was)
        else:
            text = self.words("Full time: {line}", line=line)
        return self._line(item, text)

    def _remark(self, item: LoggedEvent[RemarkPosted]) -> Notice:
        speaker = self.pool.player(item.event.player, with_keys=False)  # signed as she is named
        name = speaker.display_name if speaker else item.event.player
        notice = self._line(item, f"{name}: {item.event.text}")
        return replace(notice, replies_to=item.event.trigger)

    def _chat(self, item: LoggedEvent[ChatPosted]) -> Notice:
        return self._line(item, f"{item.event.player}: {item.event.text}")

    def _joined(self, item: LoggedEvent[PlayerJoined]) -> Notice:
        return self._line(item, self.words("{player} joined the pool", player=item.event.player))

    def _feed_problem(self, item: LoggedEvent[FeedProblem]) -> Notice:
        text = self.words(
            "[admins] results feed {source}: {problem}",
            source=item.event.source,
            problem=item.event.text,
        )
        return Notice(item.at, text, item.event.kind, admins_only=True)
