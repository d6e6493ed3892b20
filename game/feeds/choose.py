"""Which results source a ``--results`` setting names."""

from __future__ import annotations

import os

from game.feeds.football_data import DEFAULT_URL, FootballDataSource
from game.feeds.openfootball_feed import OpenfootballSource
from game.feeds.poller import ResultsSource
from game.sources import SourceError


def source_from(spec: str) -> ResultsSource:
    """``football-data[:COMPETITION]`` (token in FOOTBALL_DATA_TOKEN), or an openfootball file or URL."""
    if spec.startswith("football-data"):
        token = os.environ.get("FOOTBALL_DATA_TOKEN")
        if not token:
            raise SourceError("football-data needs FOOTBALL_DATA_TOKEN in the environment")
        _, _, competition = spec.partition(":")
        return FootballDataSource(
            token, competition or "WC", os.environ.get("FOOTBALL_DATA_URL", DEFAULT_URL)
        )
    return OpenfootballSource(spec.removeprefix("openfootball:"))
