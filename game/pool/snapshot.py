"""Reads kept until the pool's state moves: what one turn of hers reads a hundred times
(the matches, each player's picks) is read once.

Every write of the pool appends its event in the transaction that makes it
(``UnitOfWork``), so the log's position names a state. A value read after the
log was seen at position N is no older than N: kept under N, it is served until
a later position is seen, and never after. Talk (chat, her remarks) changes no
match, pick, player or table: it leaves the position where it was.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import TypeVar, cast

from game.events import (
    AccountLinked,
    AccountUnlinked,
    BonusPicked,
    ChatPosted,
    Event,
    FeedProblem,
    GoalScored,
    JokerPlaced,
    JokerRemoved,
    KeyRemoved,
    MatchKickedOff,
    MatchScheduled,
    PickReminder,
    PlayerJoined,
    PlayerRemoved,
    PredictionPlaced,
    RemarkPosted,
    RemindersSet,
    ResultRecorded,
    SquadListed,
)

T = TypeVar("T")
MOST_KEPT = 1024  # reads kept for one position: the matches, and the picks of each player


def changes_reads(event: Event) -> bool:
    """Whether reads of the pool's state (matches, picks, players, tables) may differ
    after ``event``: anything but talk, known or not."""
    return not isinstance(event, ChatPosted | RemarkPosted)


# What leaves every pick as it was: talk, and the fixtures desk's writes (matches and
# goals, never a pick: a match's game moves the table and leaves the picks).
LEAVES_PICKS = (
    ChatPosted,
    RemarkPosted,
    MatchScheduled,
    MatchKickedOff,
    GoalScored,
    ResultRecorded,
)


def changes_picks(event: Event) -> bool:
    """Whether the picks read (``views.predictions_of``, every pick) may differ after
    ``event``: any but those ``LEAVES_PICKS`` names, a kind not known here too."""
    return not isinstance(event, LEAVES_PICKS)


def match_moved(event: Event) -> tuple[bool, int | None]:
    """Whether the matches read may differ after ``event``, and when only one may (with
    a second leg that carries it), its number: a kick-off, a goal or a result moves
    the match it names; the players' doings and talk move none; anything else, a
    kind not known here too, may move any."""
    if isinstance(event, MatchKickedOff | GoalScored | ResultRecorded):
        return True, event.match_number
    players = PredictionPlaced | PlayerJoined | AccountLinked | AccountUnlinked | RemindersSet
    players |= PlayerRemoved | KeyRemoved
    extras = PickReminder | JokerPlaced | JokerRemoved | BonusPicked | SquadListed
    return not isinstance(event, ChatPosted | RemarkPosted | FeedProblem | players | extras), None


class Snapshot:
    """Values read at one position of the log, each read once, all dropped when it moves."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._position = -1
        self._kept: dict[Hashable, object] = {}

    def kept(self, position: int, key: Hashable) -> object | None:
        """The value kept under ``key`` at ``position``, if one is; None otherwise."""
        with self._lock:
            return self._kept.get(key) if position == self._position else None

    def read(self, position: int, key: Hashable, read: Callable[[], T]) -> T:
        """The value ``read`` gives at ``position``: read now unless it was at this one.

        ``position`` must be seen before ``read`` runs, so what is kept under it is
        never older than it; keep values immutable (tuples), for every caller shares them.
        """
        with self._lock:
            if position == self._position and key in self._kept:
                return cast(T, self._kept[key])
        value = read()
        with self._lock:
            if position > self._position:
                self._position, self._kept = position, {}
            if position == self._position and len(self._kept) < MOST_KEPT:
                self._kept[key] = value
        return value


class Pin(threading.local):
    """One thread's pinned view of the log (``Pool.pinned``): when its marks and the
    kinds kept as read last looked at the log, by the count of this process's commits
    then, so that no commit since goes unseen. Each thread has its own."""

    depth = 0  # pinned() blocks entered and not left
    marks: int | None = None  # the commit count when the marks last looked
    tails: int | None = None  # the commit count when the kept kinds last looked
    seen: int | None = None  # the last event the marks had seen then

    def holds_marks(self, commits: int) -> bool:
        return bool(self.depth) and self.marks == commits

    def holds_tails(self, commits: int) -> bool:
        return bool(self.depth) and self.tails == commits

    def marks_looked(self, commits: int, seen: int | None) -> None:
        """The marks looked (at ``commits``, taken before the look) and had seen ``seen``:
        if that moved, the kept kinds are older than the marks and look again."""
        if self.depth:
            if self.seen != seen:
                self.tails = None
            self.marks, self.seen = commits, seen

    def tails_looked(self, commits: int, moved: bool) -> None:
        """The kept kinds looked; if they found new events, the marks look again."""
        if self.depth:
            self.tails = commits
            if moved:
                self.marks = None

    def forget(self) -> None:
        """Something newer than the pinned reads was read: every read after it looks."""
        self.marks = self.tails = self.seen = None
