"""The openfootball JSON, fetched again: results, goals, knock-out teams filled in."""

from __future__ import annotations

from datetime import tzinfo

import httpx

from game.model import FeedReport
from game.openfootball import FixtureError, parse_tournament
from game.pool import Pool
from game.sources import LIMITS, SourceError, SourceLimits, read_json


class OpenfootballSource:
    name = "openfootball"

    def __init__(
        self,
        location: str,
        zone: tzinfo | None = None,
        transport: httpx.BaseTransport | None = None,
        limits: SourceLimits = LIMITS,
    ) -> None:
        self.location = location
        self.zone = zone
        self.transport = transport
        self.limits = limits

    def poll(self, pool: Pool) -> FeedReport:
        try:
            tournament = parse_tournament(
                read_json(self.location, self.transport, self.limits), self.zone
            )
        except FixtureError as error:
            raise SourceError(f"{self.location}: {error}") from None
        before = {m.number: m.result for m in pool.matches()}
        imported = pool.fixtures.import_tournament(tournament)
        corrections = sum(1 for m in pool.matches() if before.get(m.number) not in (None, m.result))
        return FeedReport(
            updated=imported.updated,
            goals=imported.goals,
            results=imported.results - corrections,
            corrections=corrections,
            kept_admin_results=imported.kept_admin_results,
        )
