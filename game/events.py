"""Everything that happens in the pool, as facts for the append-only log.

Events are the seam between the game and whoever listens (the SSH sessions, the
commentator's memory). Each is a small frozen record; ``kind`` names it in the
log and ``payload`` is what the log stores as JSON.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from datetime import datetime
from typing import Any, ClassVar, Generic, TypeVar

from game.model import Result, Score


@dataclass(frozen=True)
class Event:
    kind: ClassVar[str] = ""
    # Every kind, by the name the log stores it under: a new kind registers itself.
    types: ClassVar[dict[str, type[Event]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.kind in Event.types:
            raise TypeError(f"two event kinds named {cls.kind!r}")
        Event.types[cls.kind] = cls

    @property
    def match_number(self) -> int | None:
        return getattr(self, "match", None)

    @property
    def handle(self) -> str | None:
        return getattr(self, "player", None)

    def payload(self) -> dict[str, Any]:
        return {
            name: value.isoformat() if isinstance(value, datetime) else value
            for name, value in asdict(self).items()
        }


@dataclass(frozen=True)
class MatchScheduled(Event):
    """A match entered the fixtures, or its teams or kick-off changed."""

    kind: ClassVar[str] = "match_scheduled"
    match: int
    stage: str
    team1: str
    team2: str
    kickoff: datetime
    group: str | None = None
    venue: str | None = None
    # The date where it is played, as the fixtures write it: the day it counts for
    # (``game.matchdays.day_of``). None in a log written before it was kept.
    local_date: str | None = None


@dataclass(frozen=True)
class PlayerJoined(Event):
    kind: ClassVar[str] = "player_joined"
    player: str
    display_name: str
    is_admin: bool = False
    via: str = "console"


@dataclass(frozen=True)
class PredictionPlaced(Event):
    """A pick placed or changed; ``previous`` holds the pick it replaced, if any."""

    kind: ClassVar[str] = "prediction_placed"
    player: str
    match: int
    home: int
    away: int
    placed_at: datetime
    previous: str | None = None
    source: str = "player"  # "player", or "import" for an admin's spreadsheet


@dataclass(frozen=True)
class MatchKickedOff(Event):
    kind: ClassVar[str] = "kickoff"
    match: int


@dataclass(frozen=True)
class GoalScored(Event):
    kind: ClassVar[str] = "goal"
    match: int
    side: str
    minute: int
    added: int = 0
    scorer: str = ""
    penalty: bool = False
    own_goal: bool = False


@dataclass(frozen=True)
class ResultRecorded(Event):
    """The final whistle; ``previous`` is set when this corrects an earlier result."""

    kind: ClassVar[str] = "result"
    match: int
    full_time: str
    extra_time: str | None = None
    penalties: str | None = None
    previous: str | None = None
    source: str = "admin"
    first_leg: str | None = None  # a second leg: the first leg, from this match's home side
    away_goals: bool = False

    def result(self) -> Result:
        return Result(
            Score.parse(self.full_time),
            None if self.extra_time is None else Score.parse(self.extra_time),
            None if self.penalties is None else Score.parse(self.penalties),
            None if self.first_leg is None else Score.parse(self.first_leg),
            self.away_goals,
        )


@dataclass(frozen=True)
class LifecycleRepaired(Event):
    """An admin's repair of an event that broke the match lifecycle (``game.lifecycle``).

    The log keeps the breaking event, as it keeps everything; this one names it
    (``event``, its log id) and the status the match has from now on.
    """

    kind: ClassVar[str] = "lifecycle_repaired"
    match: int
    event: int
    status: str
    by: str = "admin"


@dataclass(frozen=True)
class ChatPosted(Event):
    kind: ClassVar[str] = "chat"
    player: str
    text: str


@dataclass(frozen=True)
class RemarkPosted(Event):
    """A commentator's line: chat with a memory of whom it was about and what prompted it."""

    kind: ClassVar[str] = "remark"
    player: str
    text: str
    about: tuple[str, ...] = ()
    match: int | None = None
    trigger: int | None = None  # the log id of the event it reacts to
    # What about the trigger it says ("" the event itself, "table" what it did to the
    # standings): one remark per trigger and topic.
    topic: str = ""

    def payload(self) -> dict[str, Any]:
        return {**super().payload(), "about": list(self.about)}


@dataclass(frozen=True)
class FeedProblem(Event):
    """Something a results feed said that the pool did not apply; told to admins once."""

    kind: ClassVar[str] = "feed_problem"
    source: str
    text: str


@dataclass(frozen=True)
class SettingChanged(Event):
    kind: ClassVar[str] = "setting_changed"
    key: str
    value: str


@dataclass(frozen=True)
class AccountLinked(Event):
    """A player's account on another service (a Discord user) now acts as that player."""

    kind: ClassVar[str] = "account_linked"
    player: str
    service: str
    account: str
    name: str = ""  # the account's name on the service, as it said then (older logs: none)


@dataclass(frozen=True)
class AccountUnlinked(Event):
    """A player's account on another service no longer acts as that player."""

    kind: ClassVar[str] = "account_unlinked"
    player: str
    service: str
    account: str


@dataclass(frozen=True)
class PlayerRemoved(Event):
    """An admin let a player go: their keys and linked accounts no longer open the pool,
    their sessions end; their picks, points and words stay, as the log keeps everything,
    and so does their handle (no newcomer takes it)."""

    kind: ClassVar[str] = "player_removed"
    player: str
    by: str = "console"


@dataclass(frozen=True)
class KeyRemoved(Event):
    """One of a player's keys no longer opens the pool (``key``: its fingerprint, as
    ``ssh-keygen -l`` shows it); the sessions it opened end."""

    kind: ClassVar[str] = "key_removed"
    player: str
    key: str
    by: str = "console"


@dataclass(frozen=True)
class RemindersSet(Event):
    """A player turned their reminders of matches closing without their pick on or off."""

    kind: ClassVar[str] = "reminders_set"
    player: str
    on: bool


@dataclass(frozen=True)
class PickReminder(Event):
    """The players told, ``minutes`` before its kick-off, that match #N has no pick of
    theirs: logged once per match, so every front end and every restart tells it once."""

    kind: ClassVar[str] = "pick_reminder"
    match: int
    players: tuple[str, ...]
    minutes: int

    def payload(self) -> dict[str, Any]:
        return {**super().payload(), "players": list(self.players)}


@dataclass(frozen=True)
class JokerPlaced(Event):
    """A player's joker on match #N (it doubles their pick's points there); ``moved_from``
    names the match it left, when it was moved rather than added."""

    kind: ClassVar[str] = "joker_placed"
    player: str
    match: int
    placed_at: datetime
    moved_from: int | None = None


@dataclass(frozen=True)
class JokerRemoved(Event):
    """A player took their joker off match #N before its kick-off."""

    kind: ClassVar[str] = "joker_removed"
    player: str
    match: int


@dataclass(frozen=True)
class BonusPicked(Event):
    """A bonus pick named or changed: ``kind`` "champion" or "scorer", ``value`` as the
    player wrote it, ``key`` what it is scored by, ``previous`` the value it replaced."""

    kind: ClassVar[str] = "bonus_picked"
    player: str
    pick: str
    value: str
    key: str
    placed_at: datetime
    previous: str | None = None


@dataclass(frozen=True)
class SquadListed(Event):
    """A team's squad as an admin listed it (``betania squads import``): the players a
    top scorer pick is checked against before any goal. It replaces the team's earlier
    list whole."""

    kind: ClassVar[str] = "squad_listed"
    team: str
    names: tuple[str, ...]
    listed_at: datetime

    def payload(self) -> dict[str, Any]:
        return {**super().payload(), "names": list(self.names)}


@dataclass(frozen=True)
class Retired(Event):
    """An event of a kind the pool no longer logs, read back from an older log as it is.

    The log is append-only: ``model_call`` events (what a model call cost, now in
    memory's own record) stay in older logs. No reader handles this kind.
    """

    kind: ClassVar[str] = "retired"
    name: str
    values: dict[str, Any]


def moves_table(event: Event) -> bool:
    """Whether the standings may read differently after ``event``.

    Talk never does, and neither does a player's own pick: it is placed before
    kick-off, on a match no table counts yet (the kick-off that makes it count is
    an event of its own). An admin's imported pick may be on a finished match.
    Any other kind, known or not, is taken to move it.
    """
    if isinstance(event, PredictionPlaced):
        return event.source != "player"
    talk = (
        ChatPosted
        | RemarkPosted
        | FeedProblem
        | AccountLinked
        | AccountUnlinked
        | PlayerRemoved
        | KeyRemoved
        | RemindersSet
        | PickReminder
    )  # a squad listed moves it: at the end a pick a squad lists is read as its player
    return not isinstance(event, talk)


def event_from_payload(kind: str, payload: dict[str, Any]) -> Event:
    """Rebuild an event read back from the log."""
    if kind not in Event.types:
        return Retired(kind, payload)
    cls = Event.types[kind]
    values = dict(payload)
    for field in fields(cls):
        value = values.get(field.name)
        if field.type == "datetime" and isinstance(value, str):
            values[field.name] = datetime.fromisoformat(value)
        elif isinstance(value, list):
            values[field.name] = tuple(value)
    return cls(**values)


E = TypeVar("E", bound=Event, covariant=True)


@dataclass(frozen=True)
class LoggedEvent(Generic[E]):
    """An event as the log holds it: with its place in the order and its time."""

    id: int
    at: datetime
    event: E
