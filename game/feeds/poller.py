"""Polling a results source on the clock, backing off while it fails."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

from game.feeds.model import FeedReport
from game.service import Pool
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
    interval: timedelta = timedelta(minutes=1)
    longest_wait: timedelta = timedelta(minutes=30)
    clock: Callable[[], datetime] | None = None
    failures: int = 0
    next_attempt: datetime | None = None
    last_error: str | None = None
    reports: list[FeedReport] = field(default_factory=list)

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
            self.failures += 1
            self.last_error = str(error)
            wait = min(self.interval * 2**self.failures, self.longest_wait)
            self.next_attempt = self.now() + wait
            log.warning(
                "results feed failed (%s); the last good state stays; next try in %s", error, wait
            )
            return None
        self.failures, self.last_error = 0, None
        self.next_attempt = self.now() + self.interval
        self.reports.append(report)
        if report.corrections:
            log.warning("results feed corrected %s final score(s)", report.corrections)
        return report
