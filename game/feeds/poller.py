"""Polling a results source on the clock: more often while a match is on, backing off
while the source fails, and telling the admins once about what it could not apply."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from game.model import FeedReport, MatchStatus
from game.pool import Pool
from game.sources import SourceError

log = logging.getLogger("betania.feeds")


class ResultsSource(Protocol):
    name: str

    def poll(self, pool: Pool) -> FeedReport:
        """Fetch and apply; a failure is a ``SourceError`` and changes nothing."""
        ...


@dataclass
class ResultsPoller:
    pool: Pool
    source: ResultsSource
    interval: timedelta = timedelta(seconds=60)
    live_interval: timedelta = timedelta(seconds=15)  # while a match is on, or about to be
    longest_wait: timedelta = timedelta(minutes=30)
    clock: Callable[[], datetime] | None = None
    failures: int = 0
    next_attempt: datetime | None = None

    def now(self) -> datetime:
        return (self.clock or self.pool.clock)()

    def due(self) -> bool:
        return self.next_attempt is None or self.now() >= self.next_attempt

    def poll_if_due(self) -> FeedReport | None:
        """One poll when it is time; after failures, wait twice as long each time."""
        if not self.due():
            return None
        try:
            report = self.source.poll(self.pool)
        except SourceError as error:
            self._failed(error)
            return None
        if self.failures:
            self.tell(f"{self.source.name} answers again", once=False)
        self.failures = 0
        self.next_attempt = self.now() + self.wait()
        for problem in report.unmatched or ():
            self.tell(problem)
        if report.corrections:
            log.warning("results feed corrected %s final score(s)", report.corrections)
        return report

    def wait(self) -> timedelta:
        """The regular pause: shorter while a match is live or kicks off within it."""
        soon = self.now() + self.interval
        for match in self.pool.matches():
            if match.status is MatchStatus.LIVE or (
                match.status is MatchStatus.SCHEDULED and match.kickoff <= soon
            ):
                return min(self.interval, self.live_interval)
        return self.interval

    def _failed(self, error: SourceError) -> None:
        self.failures += 1
        wait = min(self.interval * 2**self.failures, self.longest_wait)
        if error.retry_after is not None:
            wait = max(wait, timedelta(seconds=error.retry_after))
        self.next_attempt = self.now() + wait
        log.warning(
            "results feed failed (%s); the last good state stays; next try in %s", error, wait
        )
        if self.failures == 1:  # one line a streak, not one a retry
            self.tell(f"{error}; the last good state stays; retrying with backoff", once=False)

    def tell(self, text: str, once: bool = True) -> None:
        """A line for the admins (in the log, so their sessions show it) and the console."""
        if self.pool.fixtures.report_feed_problem(self.source.name, text, once=once):
            log.warning("results feed: %s", text)
