"""What happens on the clock: her picks ahead of kick-off, kick-offs, catching up, the
digest, and the results feed.

Jobs are derived from the database at start (every match not yet finished gets
its jobs), and each job checks the state before acting, so a restart loses no
job and runs none twice. Model calls run in a worker thread: the SSH sessions
never wait on her.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime, tzinfo

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.agent.commentator import Commentator
from game.feeds.poller import ResultsPoller
from game.model import MatchStatus
from game.rules import RuleViolation

log = logging.getLogger("betania.scheduler")


class PoolScheduler:
    def __init__(
        self,
        commentator: Commentator,
        zone: tzinfo,
        digest_hour: int = 22,
        catch_up_every: float = 2.0,
        results: ResultsPoller | None = None,
        results_tick: float = 1.0,
    ) -> None:
        self.commentator = commentator
        self.pool = commentator.pool
        self.zone = zone
        self.digest_hour = digest_hour
        self.catch_up_every = catch_up_every
        self.results = results
        self.results_tick = results_tick
        self.scheduler = AsyncIOScheduler(timezone=zone)
        self._busy = asyncio.Lock()

    def start(self) -> None:
        self.rebuild()
        self.scheduler.add_job(
            self.catch_up,
            "interval",
            seconds=self.catch_up_every,
            id="catch-up",
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
        self.scheduler.add_job(
            self.digest,
            "cron",
            hour=self.digest_hour,
            id="digest",
            coalesce=True,
            misfire_grace_time=3600,
        )
        self.scheduler.start()

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    def rebuild(self) -> int:
        """One pick job and one kick-off job per unfinished match; overdue ones run now."""
        now = self.pool.clock()
        lead = self.commentator.policy.picks_ahead
        count = 0
        for match in self.pool.matches():
            if match.status is MatchStatus.FINISHED:
                continue
            for job_id, at, job in (
                (f"pick-{match.number}", match.kickoff - lead, self.picks),
                (f"kickoff-{match.number}", match.kickoff, self.kick_off),
            ):
                if job_id.startswith("kickoff") and match.status is not MatchStatus.SCHEDULED:
                    continue
                run_at = max(at, now)
                args = [match.number] if job == self.kick_off else []
                self.scheduler.add_job(
                    job,
                    "date",
                    run_date=run_at,
                    args=args,
                    id=job_id,
                    replace_existing=True,
                    misfire_grace_time=None,
                )
                count += 1
        return count

    async def picks(self) -> None:
        await self._in_worker(self.commentator.predict_upcoming)

    async def kick_off(self, number: int) -> None:
        """The match goes live (predictions are already locked by the clock)."""
        with contextlib.suppress(RuleViolation):  # already live or finished: an admin was quicker
            await asyncio.to_thread(self.pool.fixtures.kick_off, number)

    async def catch_up(self) -> None:
        await self._in_worker(self.commentator.catch_up)

    async def poll_results(self) -> None:
        """The feed when it is due (it backs off by itself while failing)."""
        if self.results is not None:
            try:
                await asyncio.to_thread(self.results.poll_if_due)
            except Exception:
                log.exception("the results poll failed; the pool goes on")

    async def digest(self) -> None:
        day = self.pool.clock().astimezone(self.zone).date()
        await self._in_worker(lambda: self.commentator.digest(day))

    async def _in_worker(self, work: Callable[[], object]) -> None:
        if self._busy.locked():
            return  # she is still on the last job; the next tick catches up
        async with self._busy:
            try:
                await asyncio.to_thread(work)
            except Exception:
                log.exception("the commentator's job failed; the pool goes on")
