"""The pool's state folded from the event log alone.

The log is the source of truth: everything the tables hold can be derived from
it. This is that derivation, in plain Python, for rebuilding and for checking
that the tables never drifted from the log.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from game import squads
from game.events import (
    BonusPicked,
    Event,
    JokerPlaced,
    JokerRemoved,
    LoggedEvent,
    MatchScheduled,
    PlayerJoined,
    PredictionPlaced,
    ResultRecorded,
    SettingChanged,
    SquadListed,
)
from game.lifecycle import LifecycleLog
from game.matchdays import DAYS_FIRST, TIEBREAK_KEY, day_of
from game.model import MatchStatus, Prediction, Result, Score
from game.scoring import DEFAULT_PRESET, ScoreBasis, preset
from game.standings import StandingRow, compute_standings, played_by

# The keys under which the pool's settings are stored and logged.
SCORING_KEY = "scoring"
SCORE_BASIS_KEY = "score_basis"


@dataclass
class PoolHistory:
    players: list[str] = field(default_factory=list)
    picks: dict[tuple[str, int], Score] = field(default_factory=dict)
    results: dict[int, Result] = field(default_factory=dict)
    settings: dict[str, str] = field(default_factory=dict)
    kickoffs: dict[int, datetime] = field(default_factory=dict)
    local_dates: dict[int, str | None] = field(default_factory=dict)  # the day each counts for
    lifecycle: LifecycleLog = field(default_factory=LifecycleLog)
    jokers: set[tuple[str, int]] = field(default_factory=set)  # (player, match)
    bonus: dict[tuple[str, str], str] = field(default_factory=dict)  # (player, kind) -> key
    squads: dict[str, tuple[str, ...]] = field(default_factory=dict)  # team -> its players

    @classmethod
    def from_log(cls, events: Iterable[LoggedEvent[Event] | Event]) -> PoolHistory:
        history = cls()
        for item in events:
            if isinstance(item, LoggedEvent):
                history.apply(item.event, item.id)
            else:
                history.apply(item)
        return history

    @property
    def statuses(self) -> dict[int, MatchStatus]:
        """Each match's status as the log tells it (``game.lifecycle``)."""
        return self.lifecycle.statuses

    def apply(self, event: Event, event_id: int = 0) -> None:
        self.lifecycle.apply(event_id, event)
        match event:
            case PlayerJoined(player=handle):
                self.players.append(handle)
            case PredictionPlaced(player=handle, match=number, home=home, away=away):
                self.picks[(handle, number)] = Score(home, away)
            case ResultRecorded(match=number):
                self.results[number] = event.result()
            case SettingChanged(key=key, value=value):
                self.settings[key] = value
            case MatchScheduled(match=number, kickoff=kickoff, local_date=local_date):
                self.kickoffs[number] = kickoff
                self.local_dates[number] = local_date
            case JokerPlaced(player=handle, match=number, moved_from=moved_from):
                self.jokers.discard((handle, moved_from or 0))
                self.jokers.add((handle, number))
            case JokerRemoved(player=handle, match=number):
                self.jokers.discard((handle, number))
            case BonusPicked(player=handle, pick=kind, key=key):
                self.bonus[(handle, kind)] = key
            case SquadListed(team=team, names=names):
                self.squads[team] = squads.ordered(names)

    def standings(self, up_to_match: int | None = None) -> list[StandingRow]:
        return compute_standings(
            self.players,
            (Prediction(handle, number, score) for (handle, number), score in self.picks.items()),
            self.results,
            preset(self.settings.get(SCORING_KEY, DEFAULT_PRESET)),
            ScoreBasis(self.settings.get(SCORE_BASIS_KEY, ScoreBasis.END_OF_PLAY.value)),
            None if up_to_match is None else played_by(self.kickoffs, up_to_match),
            jokers=self.jokers,
            days={
                number: day_of(self.local_dates.get(number), kickoff)
                for number, kickoff in self.kickoffs.items()
            },
            days_first=self.settings.get(TIEBREAK_KEY) == DAYS_FIRST,
        )
