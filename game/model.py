"""The tournament's nouns: scores, results, matches, players, predictions, and what a
results feed says about a match before the pool decides what to do with it."""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Protocol

from game.errors import UserError
from game.text import clean_line

MAX_GOALS = 99
# Two counts of goals and what people put between them: hyphen, the dashes and minus
# sign autocorrect makes of it, a colon, an x (or a times sign), or only spaces.
SCORE_FORM = re.compile(
    r"(?P<home>\d{1,3})\s*(?:[-\u2010-\u2015\u2212:xX\u00d7]|\s)\s*(?P<away>\d{1,3})"
)


class InvalidScore(UserError, ValueError):
    """A score that cannot stand: negative, too large, or not a score at all."""


@dataclass(frozen=True, order=True)
class Score:
    home: int
    away: int

    def __post_init__(self) -> None:
        for goals in (self.home, self.away):
            if isinstance(goals, bool) or not isinstance(goals, int):
                raise InvalidScore("goals must be whole numbers, got {goals!r}", goals=goals)
            if not 0 <= goals <= MAX_GOALS:
                raise InvalidScore(
                    "goals must be between 0 and {most}, got {goals}", most=MAX_GOALS, goals=goals
                )

    @classmethod
    def parse(cls, text: str) -> Score:
        """Read ``2-1`` as people type it: ``2 - 1``, ``2x1``, ``2 x 1`` (a Brazilian's),
        ``2:1``, ``2\u20131`` (the en dash autocorrect makes), ``2 1``."""
        found = SCORE_FORM.fullmatch(text.strip())
        if found is None:
            raise InvalidScore("not a score: {text!r} (write it like 2-1)", text=text)
        return cls(int(found["home"]), int(found["away"]))

    @property
    def outcome(self) -> int:
        """1 for a home win, 0 for a draw, -1 for an away win."""
        return (self.home > self.away) - (self.home < self.away)

    @property
    def difference(self) -> int:
        return self.home - self.away

    def __str__(self) -> str:
        return f"{self.home}-{self.away}"

    def swapped(self) -> Score:
        return Score(self.away, self.home)

    def __sub__(self, other: Score) -> Score:
        return Score(self.home - other.home, self.away - other.away)

    def __add__(self, other: Score) -> Score:
        return Score(self.home + other.home, self.away + other.away)


@dataclass(frozen=True)
class Result:
    """How a match ended: the 90 minutes, extra time when played, penalties when needed.

    A two-legged tie's second leg also carries its ``first_leg``: the first leg's
    score at the end of play, from this match's home side (who played away then).
    Extra time and a shoot-out then follow a level aggregate, not a level match,
    and under ``away_goals`` (a competition's rule until its season of abolition:
    ``game.ties``) a level aggregate goes first to the side with more goals away.
    """

    full_time: Score
    extra_time: Score | None = None
    penalties: Score | None = None
    first_leg: Score | None = None
    away_goals: bool = False
    # A score only a tie's second leg can have (a shoot-out after a won match), as a feed
    # gives it before the pool reads it against the first leg: its draw checks wait.
    pending_first_leg: bool = False

    def __post_init__(self) -> None:
        if self.extra_time is not None and (
            self.extra_time.home < self.full_time.home or self.extra_time.away < self.full_time.away
        ):
            raise InvalidScore(
                "the score after extra time ({extra}) cannot be lower than after 90 minutes ({full})",
                extra=self.extra_time,
                full=self.full_time,
            )
        if self.away_goals and self.first_leg is None:
            raise InvalidScore("away goals only count in a tie's second leg")
        if self.pending_first_leg:
            return
        if self.extra_time is not None and self._level(self.full_time) != 0:
            raise InvalidScore(
                "extra time is only played after a draw, not after {score}",
                score=self._tie(self.full_time),
            )
        if self.penalties is not None:
            if self._level(self.end_of_play) != 0:
                raise InvalidScore(
                    "penalties only follow a draw, not {score} at the end of play",
                    score=self._tie(self.end_of_play),
                )
            if self.penalties.outcome == 0:
                raise InvalidScore("a shoot-out has a winner, not {score}", score=self.penalties)

    def _tie(self, played: Score) -> Score:
        """The score that decides: this match's, or the aggregate over both legs."""
        return played if self.first_leg is None else self.first_leg + played

    def _level(self, played: Score) -> int:
        """Who leads when ``played`` is this match's score: by the aggregate, then
        (where the rule stands) by goals away from home; 0 when nobody does."""
        lead = self._tie(played).outcome
        if lead == 0 and self.away_goals and self.first_leg is not None:
            # This match's home side played the first leg away; its opponent is away now.
            lead = Score(self.first_leg.home, played.away).outcome
        return lead

    def swapped(self) -> Result:
        return Result(
            self.full_time.swapped(),
            None if self.extra_time is None else self.extra_time.swapped(),
            None if self.penalties is None else self.penalties.swapped(),
            None if self.first_leg is None else self.first_leg.swapped(),
            self.away_goals,
            self.pending_first_leg,
        )

    @property
    def end_of_play(self) -> Score:
        """The score when the ball stopped rolling: after extra time when it was played."""
        return self.extra_time or self.full_time

    @property
    def aggregate(self) -> Score | None:
        """Both legs at the end of play, from this match's home side; None for one match."""
        return None if self.first_leg is None else self.first_leg + self.end_of_play

    @property
    def scores(self) -> tuple[Score, ...]:
        """Every score this result names, in the order ``str`` writes them: full time,
        after extra time, the aggregate, the shoot-out."""
        named = (self.full_time, self.extra_time, self.aggregate, self.penalties)
        return tuple(score for score in named if score is not None)

    @property
    def winner(self) -> int:
        """Who won (a second leg: the tie): 1 the home side, -1 the away side (after
        extra time, on away goals where they count, then on penalties), 0 a draw
        that stood."""
        lead = self._level(self.end_of_play)
        if lead == 0 and self.penalties is not None:
            lead = self.penalties.outcome
        return lead

    def __str__(self) -> str:
        text = str(self.full_time)
        if self.extra_time is not None:
            text += f" (aet {self.extra_time})"
        if self.aggregate is not None:
            text += f" (agg {self.aggregate})"
        if self.penalties is not None:
            text += f" (pens {self.penalties})"
        return text


def knockout_round(stage: str, group: str | None) -> bool:
    """A match of the knock-out rounds: no group, and not a group stage's or a league's
    matchday, whatever part of the season the round names first ("Group, Matchday 1",
    "1° Semestre, Matchday 5" are not; "Finals, Round of 16", "Qualifying, Round 1" are)."""
    parts = (part.strip() for part in stage.split(","))
    return group is None and not any(part.startswith(("Group", "Matchday")) for part in parts)


class MatchStatus(enum.StrEnum):
    SCHEDULED = "scheduled"
    LIVE = "live"
    FINISHED = "finished"


class InvalidGoal(UserError, ValueError):
    """A goal no match can have: the message says what is wrong with it."""


class Sided(Protocol):
    """A goal, as the pool keeps it or as the log told it."""

    @property
    def side(self) -> str: ...  # "home" or "away"


def tally(goals: Iterable[Sided]) -> Score:
    """The score the ``goals`` make: the one count of a running score."""
    sides = [goal.side for goal in goals]
    return Score(sides.count("home"), sides.count("away"))


@dataclass(frozen=True)
class Goal:
    side: str  # "home" or "away"
    minute: int
    added: int = 0  # stoppage time: 90+4 is minute 90, added 4
    scorer: str = ""
    penalty: bool = False
    own_goal: bool = False

    def __post_init__(self) -> None:
        if self.side not in ("home", "away"):
            raise InvalidGoal("a goal is scored by home or away, not {side!r}", side=self.side)
        if not 0 <= self.minute <= 130 or not 0 <= self.added <= 30:
            raise InvalidGoal("no match has a minute {clock}", clock=self.clock)
        # Scorers come from files and feeds nobody here wrote: shown to every player.
        object.__setattr__(self, "scorer", clean_line(self.scorer))

    @property
    def clock(self) -> str:
        return f"{self.minute}+{self.added}'" if self.added else f"{self.minute}'"


@dataclass(frozen=True)
class Match:
    number: int
    stage: str
    kickoff: datetime
    team1: str
    team2: str
    group: str | None = None
    venue: str | None = None
    status: MatchStatus = MatchStatus.SCHEDULED
    result: Result | None = None
    goals: tuple[Goal, ...] = field(default=())
    first_leg: int | None = None  # a two-legged tie's second leg: its first leg's number
    away_goals: bool = False  # a second leg: whether away goals decide a level aggregate

    def __post_init__(self) -> None:
        if self.kickoff.tzinfo is None:
            raise ValueError(f"match #{self.number} needs a time-zone-aware kick-off")

    @property
    def label(self) -> str:
        return f"#{self.number} {self.team1} v {self.team2}"

    def time_order(self) -> tuple[datetime, int]:
        """Sort key for "in the order they are played": official numbers (FIFA's) are
        not always in kick-off order; matches kicking off together go by number."""
        return (self.kickoff, self.number)

    def decided(self) -> tuple[str, str] | None:
        """(winner, loser) of a finished match (a second leg: of the tie, on aggregate):
        after extra time, then on penalties; None for a draw that stood, or no result."""
        if self.result is None or self.result.winner == 0:
            return None
        return (self.team1, self.team2) if self.result.winner > 0 else (self.team2, self.team1)

    @property
    def is_knockout(self) -> bool:
        return knockout_round(self.stage, self.group)

    def score_at(self, moment: tuple[int, int] | None = None) -> Score:
        """The running score: every goal so far, or those up to ``moment`` (minute, added),
        as a goal's own moment gives it. Every reader of a running score asks here."""
        return tally(g for g in self.goals if moment is None or (g.minute, g.added) <= moment)

    def running_result(self) -> Result:
        """The goals so far as a result: how the provisional table scores a match in play.

        Goals after the 90th minute (stoppage is minute 90 plus added) are extra
        time, which only follows a level 90 minutes.
        """
        full_time = tally(g for g in self.goals if g.minute <= 90)
        if full_time.outcome != 0 or all(g.minute <= 90 for g in self.goals):
            return Result(full_time)
        return Result(full_time, extra_time=tally(self.goals))

    def has_started(self, now: datetime) -> bool:
        """Kicked off by the server's clock, or marked live or finished by an admin."""
        return now >= self.kickoff or self.status is not MatchStatus.SCHEDULED


@dataclass(frozen=True)
class Player:
    handle: str
    display_name: str
    is_admin: bool = False
    keys: tuple[str, ...] = ()
    time_zone: str | None = None


@dataclass(frozen=True)
class Prediction:
    handle: str
    match_number: int
    score: Score


# -- what a results feed says ---------------------------------------------------


class FeedStatus(enum.StrEnum):
    SCHEDULED = "scheduled"
    LIVE = "live"
    FINISHED = "finished"


@dataclass(frozen=True)
class FeedResult:
    kickoff: datetime
    team1: str
    team2: str
    status: FeedStatus
    result: Result | None = None
    goals: tuple[Goal, ...] | None = None  # None: the feed does not report goals
    feed_id: str | None = None  # the feed's own id for the match, remembered once matched
    code1: str | None = None  # the teams' codes as the feed gives them (FIFA-style, "USA")
    code2: str | None = None
    problem: str | None = None  # a finished match whose result the feed does not fully give
    matchday: int | None = None  # a league's round, when the feed says it plays one

    def __post_init__(self) -> None:
        # A feed is player input too: a compromised one must not reach a terminal raw.
        object.__setattr__(self, "team1", clean_line(self.team1))
        object.__setattr__(self, "team2", clean_line(self.team2))

    @property
    def label(self) -> str:
        seen = f"{self.team1} v {self.team2}, {self.kickoff:%d %b %H:%M} UTC"
        return f"{seen} (feed id {self.feed_id})" if self.feed_id else seen

    def swapped(self) -> FeedResult:
        """The same match with home and away the other way round, as the pool lists it."""
        flip = {"home": "away", "away": "home"}
        return replace(
            self,
            team1=self.team2,
            team2=self.team1,
            code1=self.code2,
            code2=self.code1,
            result=None if self.result is None else self.result.swapped(),
            goals=None
            if self.goals is None
            else tuple(replace(goal, side=flip[goal.side]) for goal in self.goals),
        )


@dataclass
class FeedReport:
    updated: int = 0
    kicked_off: int = 0
    goals: int = 0
    results: int = 0
    corrections: int = 0
    unmatched: list[str] = field(default_factory=list)
    kept_admin_results: list[int] = field(default_factory=list)

    def summary(self) -> str:
        parts = [
            f"{self.results} results",
            f"{self.corrections} corrections",
            f"{self.goals} goals",
            f"{self.kicked_off} kick-offs",
            f"{self.updated} teams filled",
        ]
        if self.unmatched:
            parts.append(f"{len(self.unmatched)} unmatched")
        return ", ".join(parts)
