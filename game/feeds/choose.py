"""Which results source a ``--results`` setting names."""

from __future__ import annotations

from game.feeds.football_data import DEFAULT_URL, FootballDataSource
from game.feeds.openfootball_feed import OpenfootballSource
from game.feeds.poller import ResultsSource
from game.sources import SourceError


def source_from(spec: str, token: str | None = None, url: str = DEFAULT_URL) -> ResultsSource:
    """``football-data[:COMPETITION]`` (with its ``token``), or an openfootball file or URL."""
    if spec.startswith("football-data"):
        if not token:
            raise SourceError("football-data needs FOOTBALL_DATA_TOKEN in the environment")
        _, _, competition = spec.partition(":")
        return FootballDataSource(token, competition or "WC", url)
    return OpenfootballSource(spec.removeprefix("openfootball:"))
