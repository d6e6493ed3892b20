"""What happens on the clock: kick-offs, her turn, and the results feed.

Kick-off jobs (and the reminders before them) are derived from the database at
start (every match not yet started gets one), then follow the log's fixture
events (``MatchScheduled``: a fixture imported, a kick-off moved, by this process
or any other on the database); each job checks the state before acting, so a
restart loses no job and runs none twice. Her turn (``Commentator.turn``: picks when
due, reactions, the digest when its hour has come) runs every few seconds, the
same turn the demo and replays give her. Model calls run in a worker thread:
the SSH sessions never wait on her.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.agent.commentator import Commentator
from game.events import MatchScheduled
from game.feeds.poller import ResultsPoller
from game.model import Match, MatchStatus
from game.reminders import DEFAULT_LEAD, remind_at
from game.rules import RuleViolation

log = logging.getLogger("betania.scheduler")


class PoolScheduler:
    def __init__(
        self,
        commentator: Commentator,
        catch_up_every: float = 2.0,
        results: ResultsPoller | None = None,
        results_tick: float = 1.0,
        remind_before: timedelta | None = DEFAULT_LEAD,
    ) -> None:
        self.commentator = commentator
        self.pool = commentator.pool
        self.catch_up_every = catch_up_every
        self.results = results
        self.results_tick = results_tick
        self.remind_before = remind_before  # None: no reminders before kick-offs
        # The pool's zone, the one her "today" and digest hour use: one setting, not two.
        self.scheduler = AsyncIOScheduler(timezone=commentator.keeper.config.zone)
        self._busy = asyncio.Lock()
        self._followed = 0  # the last log id whose fixture events have their jobs

    def start(self) -> None:
        self.rebuild()
        self.scheduler.add_job(
            self.her_turn,
            "interval",
            seconds=self.catch_up_every,
            id="her-turn",
            max_instances=1,
            coalesce=True,
        )
        self.scheduler.add_job(
            self.follow_fixtures,
            "interval",
            seconds=self.catch_up_every,
            id="fixtures",
            max_instances=1,
            coalesce=True,
        )
        if self.results is not None:
            # A short tick; the poller itself decides when it is due (interval, live
            # matches, backoff), so a change of pace needs no rescheduling.
            self.scheduler.add_job(
                self.poll_results,
                "interval",
                seconds=self.results_tick,
                id="results",
                max_instances=1,
                coalesce=True,
                next_run_time=datetime.now(UTC),
            )
        self.scheduler.start()

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    def rebuild(self) -> int:
        """One kick-off job per match not started yet; overdue ones run now."""
        # Read first: a fixture logged while the matches are read is followed again.
        self._followed = self.pool.last_event_id()
        now = self.pool.clock()
        return sum(self.schedule(match, now) for match in self.pool.matches())

    def fixtures_logged(self) -> list[Match]:
        """The matches whose fixture was logged since the last look (imported, teams or
        kick-off changed), as they stand now; the look moves on past them."""
        logged = self.pool.events_of(MatchScheduled, after_id=self._followed)
        if not logged:
            return []
        numbers = sorted({item.event.match for item in logged})
        matches = [self.pool.match(number, with_goals=False) for number in numbers]
        self._followed = logged[-1].id
        return matches

    async def follow_fixtures(self) -> None:
        """The jobs of the fixtures logged since start: made for a new match, moved with
        its kick-off (the pool itself never reminds of a match twice)."""
        try:
            matches = await asyncio.to_thread(self.fixtures_logged)
        except Exception:
            log.exception("reading the fixtures logged failed; tried again next tick")
            return
        now = self.pool.clock()
        for match in matches:
            self.schedule(match, now)

    def schedule(self, match: Match, now: datetime) -> bool:
        """Its kick-off job and the reminder before it, for a match not started yet
        (replacing the ones it had); False for a match under way or over."""
        if match.status is not MatchStatus.SCHEDULED:
            return False
        self.scheduler.add_job(
            self.kick_off,
            "date",
            run_date=max(match.kickoff, now),
            args=[match.number],
            id=f"kickoff-{match.number}",
            replace_existing=True,
            misfire_grace_time=None,
        )
        if self.remind_before is not None and match.kickoff > now:
            # Overdue (a start inside the lead) runs now; the pool logs it once.
            self.scheduler.add_job(
                self.remind,
                "date",
                run_date=max(remind_at(match, self.remind_before), now),
                args=[match.number],
                id=f"remind-{match.number}",
                replace_existing=True,
                misfire_grace_time=None,
            )
        return True

    async def remind(self, number: int) -> None:
        """Tell the players without a pick on match #N (every session, the channel)."""
        if self.remind_before is None:
            return
        try:
            await asyncio.to_thread(self.pool.members.remind, number, self.remind_before)
        except Exception:
            log.exception("the reminder of match #%s failed; the pool goes on", number)

    async def kick_off(self, number: int) -> None:
        """The match goes live (predictions are already locked by the clock)."""
        with contextlib.suppress(RuleViolation):  # already live or finished: an admin was quicker
            await asyncio.to_thread(self.pool.fixtures.kick_off, number)

    async def her_turn(self) -> None:
        await self._in_worker(self.commentator.turn)

    async def poll_results(self) -> None:
        """The feed when it is due (it backs off by itself while failing)."""
        if self.results is not None:
            try:
                await asyncio.to_thread(self.results.poll_if_due)
            except Exception:
                log.exception("the results poll failed; the pool goes on")

    async def _in_worker(self, work: Callable[[], object]) -> None:
        if self._busy.locked():
            return  # she is still on the last job; the next tick catches up
        async with self._busy:
            try:
                await asyncio.to_thread(work)
            except Exception:
                log.exception("the commentator's job failed; the pool goes on")
