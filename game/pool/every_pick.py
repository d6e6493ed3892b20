"""Every pick of the pool, kept as read: read whole once, then moved on by the log.

Her records score every pick of the pool again whenever one changes, and read them
all to do it: a tournament's thousands of picks, read whole at every match's picks.
But a pick is written with its ``PredictionPlaced`` event, in one transaction, and
the event holds the pick's whole new state (player, match, score). So after the
first read, the events since the last look say every change, and the picks are
moved on by them. Any other event that may change a pick (``changes_picks``), known
here as leaving them as they were or not, has them read whole again.

A log id is taken under the writer's lock and committed before the next writer
takes one (``game.pool.tails``): the events after the last one seen are every
change since. The whole read comes after its log position is seen, so it is no
older than that position; an event read again that it already holds sets a pick to
what it is, and the events after set it on to the last.
"""

from __future__ import annotations

import threading

from sqlalchemy import Connection, select

from game.db import log, schema
from game.events import (
    AccountLinked,
    AccountUnlinked,
    BonusPicked,
    Event,
    FeedProblem,
    JokerPlaced,
    JokerRemoved,
    KeyRemoved,
    PickReminder,
    PlayerJoined,
    PlayerRemoved,
    PredictionPlaced,
    RemindersSet,
    SettingChanged,
    SquadListed,
)
from game.model import Prediction, Score
from game.pool.snapshot import LEAVES_PICKS, changes_picks

# What may change a pick by the rules of ``changes_picks`` but writes none: a new
# player has no pick yet; the extras, the players' settings and the pool's are rows
# of their own.
_NO_PICK_WRITTEN = (
    PlayerJoined,
    AccountLinked,
    AccountUnlinked,
    PlayerRemoved,
    KeyRemoved,
    RemindersSet,
    PickReminder,
    JokerPlaced,
    JokerRemoved,
    BonusPicked,
    SquadListed,
    SettingChanged,
    FeedProblem,
)

_Picks = dict[tuple[str, int], Prediction]  # (player, match) -> their pick
_LEFT = tuple(kind.kind for kind in LEAVES_PICKS)


class EveryPick:
    """Every pick, as the log has moved it on since it was read whole."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: int | None = None  # the last event the picks hold; None: never read
        self._picks: _Picks = {}
        self._every: tuple[Prediction, ...] = ()

    def read(self, connection: Connection) -> tuple[Prediction, ...]:
        """Every pick: the same tuple while none has changed, and a pick that stands is
        the same object from read to read, so what compares two reads finds them so."""
        with self._lock:
            seen, picks, every = self._seen, self._picks, self._every
        moved = None if seen is None else _moved_on(connection, seen, picks)
        if moved is None:
            seen = log.last_id(connection)  # seen first: the picks read are no older
            picks = _read_whole(connection, picks)
            every = tuple(picks.values())
        else:
            seen, changed = moved
            if changed is not None:
                picks, every = changed, tuple(changed.values())
        with self._lock:
            if self._seen is None or seen > self._seen:
                self._seen, self._picks, self._every = seen, picks, every
        return every


def _moved_on(connection: Connection, seen: int, picks: _Picks) -> tuple[int, _Picks | None] | None:
    """The last event read after ``seen`` and ``picks`` as those events leave them (None
    when they change none); None if one of them may have changed a pick it does not
    name, for the picks to be read whole."""
    changed: _Picks | None = None
    # What leaves the picks is not read at all: a match's goals and her remarks are most
    # of the log between two looks at the picks.
    for item in log.read(connection, after_id=seen, without=_LEFT):
        event: Event = item.event
        if isinstance(event, PredictionPlaced):
            key = (event.player, event.match)
            known = picks.get(key) if changed is None else changed.get(key)
            score = Score(event.home, event.away)
            if known is None or known.score != score:
                changed = dict(picks) if changed is None else changed
                changed[key] = Prediction(event.player, event.match, score)
        elif changes_picks(event) and not isinstance(event, _NO_PICK_WRITTEN):
            return None
        seen = item.id
    return seen, changed


def _read_whole(connection: Connection, known: _Picks) -> _Picks:
    """Every pick, by player and match; a pick ``known`` as it is now is that one."""
    found: _Picks = {}
    for handle, number, home, away in connection.execute(_EVERY_PICK):
        pick = known.get((handle, number))
        if pick is None or pick.score.home != home or pick.score.away != away:
            pick = Prediction(handle, number, Score(home, away))
        found[handle, number] = pick
    return found


_EVERY_PICK = (  # built once: read at the first look and after any event it cannot follow
    select(
        schema.players.c.handle,
        schema.predictions.c.match_number,
        schema.predictions.c.home,
        schema.predictions.c.away,
    )
    .join(schema.players, schema.players.c.id == schema.predictions.c.player_id)
    .order_by(schema.players.c.handle, schema.predictions.c.match_number)
)
