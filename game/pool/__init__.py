"""The pool's one way in for changes: every write checks the rules, updates the
current state and appends its event to the log, in one transaction.

Front ends (the console, the SSH server, the commentator) call the desks'
methods; none of them writes to the database on its own. Listeners subscribed
here hear each event after it is committed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import date, datetime
from typing import NamedTuple, TypeVar, cast

from sqlalchemy import Connection, Engine, select

from game import matchdays
from game.db import chain, log, proof, views
from game.db.schema import matches
from game.events import Event, GoalScored, LoggedEvent, MatchKickedOff, moves_table
from game.lifecycle import LifecycleBreach, LifecycleLog
from game.model import Match, MatchStatus, Player, Prediction
from game.pool.every_pick import EveryPick
from game.pool.extras import Extras
from game.pool.fixtures import Fixtures, FixturesReport, MatchNumbers
from game.pool.members import MAX_INVITE_DAYS, MAX_INVITE_USES, Members, key_identity
from game.pool.predictions import IMPORTED_PICK_LEAD, BetsReport, Predictions
from game.pool.snapshot import Pin, Snapshot, changes_picks, changes_reads, match_moved
from game.pool.tails import Tails
from game.pool.talk import MAX_CHAT_LENGTH, Talk
from game.pool.work import (
    Clock,
    Listener,
    NotFound,
    UnitOfWork,
    require_match,
    utc_now,
    write_setting,
)
from game.rules import RuleViolation
from game.scoring import ScoreBasis, ScoringRule
from game.standings import StandingRow, played_by

E = TypeVar("E", bound=Event)
TABLES_KEPT = 64  # tables kept of each kind, live or not (now, after or before each match)

__all__ = [
    "IMPORTED_PICK_LEAD",
    "MAX_CHAT_LENGTH",
    "MAX_INVITE_DAYS",
    "MAX_INVITE_USES",
    "BetsReport",
    "Clock",
    "DayTable",
    "Extras",
    "Fixtures",
    "FixturesReport",
    "Listener",
    "LiveTable",
    "MatchNumbers",
    "Members",
    "NotFound",
    "Pool",
    "Predictions",
    "Talk",
    "UnitOfWork",
    "key_identity",
    "utc_now",
]


class DayTable(NamedTuple):
    """The points scored on one day's or one round's finished matches, who leads it
    (everyone level at the top; nobody while no one has scored), and whether it is
    over: every one of its matches finished."""

    rows: list[StandingRow]
    matches: list[Match]
    leaders: list[str]
    left: int  # its matches not yet finished

    @property
    def winners(self) -> list[str]:
        """Who won it: its leaders once it is over, nobody before."""
        return self.leaders if not self.left else []


class LiveTable(NamedTuple):
    """The table as it stands, counting the matches in play, and those matches."""

    rows: list[StandingRow]
    in_play: list[Match]


class Pool:
    """The pool: its desks for every change, and reads of the current state and the log.

    Each desk guards one part of the state and writes through the one unit of
    work they share: ``members`` (players, keys, invites), ``predictions``
    (picks and scoring), ``fixtures`` (the match lifecycle and feeds) and
    ``talk`` (chat and remarks).
    """

    def __init__(self, engine: Engine, clock: Clock = utc_now) -> None:
        self.engine = engine
        self.clock = clock
        self.work = UnitOfWork(engine, clock)
        self.members = Members(self.work)
        self.predictions = Predictions(self.work)
        self.fixtures = Fixtures(self.work)
        self.talk = Talk(self.work)
        self.extras = Extras(self.work)  # jokers and bonus picks
        # Tables by (mark, up to, before, live): never stored, computed once per mark, the
        # table mark for a live table and ``_finished`` for one of finished matches.
        self._tables: dict[tuple[int, int | None, int | None, bool], tuple[StandingRow, ...]] = {}
        self._tables_lock = threading.Lock()
        self._mark_seen: int | None = None  # the last event looked at for ``_table_mark``
        self._mark = 0
        self._state = 0  # the last event that may have changed any read (``changes_reads``)
        self._picks = 0  # the last event that may have changed a pick (``changes_picks``)
        self._snapshot = Snapshot()  # the matches, read once per ``_state``
        self._picks_kept = Snapshot()  # the picks, read once per ``_picks``
        self._every_pick = EveryPick()  # every pick, moved on by the log's picks placed
        self._playing: tuple[int, tuple[Match, ...]] | None = None  # by table mark
        self._settled = 0  # the last event that may have moved a settled table (``_settles``)
        self._settled_kept = Snapshot()  # the live table's settled part, per ``_settled``
        self._finished = 0  # the last event that may have moved a table of finished matches
        self._pin = Pin()  # each thread's pinned view: see ``pinned``
        self._tails = Tails()  # the log's remarks, chat and match events, kept as read
        # Every match as last read, and the log position then: ``_read_matches``.
        self._matches_read: tuple[int, tuple[Match, ...]] | None = None
        self._race: tuple[tuple[int, int], dict[str, list[int]]] | None = None  # by (mark, top)

    @contextmanager
    def pinned(self) -> Iterator[None]:
        """This thread's reads at the log position its first read saw, until this
        process writes: one turn of hers reads the matches and picks a hundred times,
        and each read would otherwise ask the log whether anything moved (and the
        kinds kept as read, ``game.pool.tails``, whether any came). A write through
        this pool (hers, or any thread's) makes the next read look again, and so does
        this thread's reading of the log's events (``events``): what it reacts to is
        never newer than what it reads next. Another process's write is otherwise
        seen from the next pinned turn on."""
        self._pin.depth += 1
        try:
            yield
        finally:
            self._pin.depth -= 1
            if not self._pin.depth:
                self._pin.forget()

    def subscribe(self, listener: Listener) -> None:
        """Hear each event after its transaction commits."""
        self.work.subscribe(listener)

    def matches(self) -> list[Match]:
        with self.work.read() as connection:
            state = self._state_mark(connection)
            kept = self._snapshot.read(state, "matches", lambda: self._read_matches(connection))
            return list(kept)

    def _read_matches(self, connection: Connection) -> tuple[Match, ...]:
        """Every match: after a kick-off, a goal or a result since the last read (most of
        what moves a match), those it named read again and the rest kept as they were;
        after anything else that may move one, all of them read again."""
        with self._tables_lock:
            last = self._matches_read
        position = log.last_id(connection)
        every: tuple[Match, ...] | None = None
        if last is not None:
            named: set[int] = set()
            for item in log.read(connection, after_id=last[0], up_to_id=position):
                moved, number = match_moved(item.event)
                if moved and number is None:
                    break
                named |= {number} if number is not None else set()
            else:
                every = self._with_read_again(connection, last[1], named)
        if every is None:
            every = tuple(views.all_matches(connection))
        with self._tables_lock:
            if self._matches_read is None or self._matches_read[0] <= position:
                self._matches_read = (position, every)
        return every

    @staticmethod
    def _with_read_again(
        connection: Connection, before: tuple[Match, ...], named: set[int]
    ) -> tuple[Match, ...] | None:
        """``before`` with the matches ``named`` read again, and the second legs that
        carry their score; None when one is not among them (all are read again then)."""
        known = {m.number for m in before}
        again = named | {m.number for m in before if m.first_leg in named}
        if not again <= known:
            return None
        fresh = {n: views.match(connection, n) for n in sorted(again)}
        if any(m is None for m in fresh.values()):
            return None
        return tuple(fresh.get(m.number) or m for m in before)

    def match(self, number: int, with_goals: bool = True) -> Match:
        with self.work.read() as connection:
            state = self._state_mark(connection)
            every = self._snapshot.kept(state, "matches")
            if isinstance(every, tuple) and 0 < number <= len(every):
                # Every match read at this state already: the one asked for is among them.
                found: Match = every[number - 1]
                if found.number == number:
                    return found if with_goals else replace(found, goals=())
            return self._snapshot.read(
                state,
                ("match", number, with_goals),
                lambda: require_match(connection, number, with_goals),
            )

    def _in_play(self, connection: Connection, mark: int) -> tuple[Match, ...]:
        # What is in play changes only with events that move the table (a kick-off, a
        # goal, a result): read once per table mark, like the tables.
        with self._tables_lock:
            if self._playing is not None and self._playing[0] == mark:
                return self._playing[1]
        playing = tuple(views.in_play(connection))
        with self._tables_lock:
            if self._playing is None or self._playing[0] <= mark:
                self._playing = (mark, playing)
        return playing

    def player(self, handle: str, with_keys: bool = True) -> Player | None:
        with self.work.read() as connection:
            return views.player(connection, handle, with_keys)

    def players(self) -> list[Player]:
        with self.work.read() as connection:
            return views.all_players(connection)

    def names(self) -> dict[str, str]:
        """Each player's handle -> display name, by handle (as ``players`` orders them).

        Read once per state mark: a player, and the name they are shown by, comes only
        with ``PlayerJoined``; what else a player's row holds (their time zone, set with
        no event) is not in it.
        """
        with self.work.read() as connection:
            state = self._state_mark(connection)
            kept = self._snapshot.read(
                state,
                "names",
                lambda: tuple((p.handle, p.display_name) for p in views.all_players(connection)),
            )
            return dict(kept)

    def predictions_of(self, handle: str) -> list[Prediction]:
        with self.work.read() as connection:
            state = self._state_mark(connection, picks=True)
            kept = self._picks_kept.read(
                state, ("picks", handle), lambda: tuple(views.predictions_of(connection, handle))
            )
            return list(kept)

    def all_predictions(self) -> tuple[Prediction, ...]:
        """Every pick of the pool, in no order to rely on: one read where a loop over the
        players would be one each. The same tuple while no pick changes, and a pick that
        stands the same object: what is worked out from it may be kept while it is the
        one returned (``EveryPick``)."""
        with self.work.read() as connection:
            state = self._state_mark(connection, picks=True)
            return self._picks_kept.read(state, "all", lambda: self._every_pick.read(connection))

    def predictions_on(self, number: int) -> list[Prediction]:
        """Every pick on match #``number``, by handle: read once per picks mark."""
        with self.work.read() as connection:
            state = self._state_mark(connection, picks=True)
            kept = self._picks_kept.read(
                state, ("on", number), lambda: tuple(views.predictions_on(connection, number))
            )
            return list(kept)

    def standings(
        self, up_to_match: int | None = None, before_match: int | None = None, live: bool = False
    ) -> list[StandingRow]:
        """The table now; as it stood after match #N (``up_to_match``), or just before it.

        "After" and "before" go by kick-off time, not by number (see ``played_by``).
        ``live``: the provisional table, with the matches in play counted at their
        running score (the same as the table when none is in play).
        """
        with self.work.read() as connection:
            mark = self._table_mark(connection)
            live = live and up_to_match is None and before_match is None
            live = live and bool(self._in_play(connection, mark))
            return self._table(connection, mark, up_to_match, before_match, live)

    def live_table(self) -> LiveTable:
        """The table now with the matches in play at their running score, and those
        matches: what every session shows, read in one go."""
        with self.work.read() as connection:
            mark = self._table_mark(connection)
            in_play = self._in_play(connection, mark)
            rows = self._table(connection, mark, None, None, live=bool(in_play))
            return LiveTable(rows, list(in_play))

    def _table(
        self,
        connection: Connection,
        mark: int,
        up_to_match: int | None,
        before_match: int | None,
        live: bool,
    ) -> list[StandingRow]:
        with self._tables_lock:
            # A table of the finished matches alone is the same after a kick-off or a goal:
            # kept by their own mark (``_moves_finished``), it is not read again at each.
            key = (mark if live else self._finished, up_to_match, before_match, live)
            known = self._tables.get(key)
        if known is not None:
            return list(known)
        match_mark = up_to_match if up_to_match is not None else before_match
        if match_mark is None and live:
            # At every goal: only the days in play read again, the rest kept (``_settles``).
            with self._tables_lock:
                settled_mark = self._settled
            settled = self._settled_kept.read(
                settled_mark, "settled", lambda: views.settled_table(connection)
            )
            table = views.live_standings(connection, settled)
        elif match_mark is None:
            table = views.standings(connection)
        else:
            kickoffs, finished = views.timetable(connection)
            if match_mark not in kickoffs:
                raise NotFound("no match #{number}", number=match_mark)
            counted = played_by(kickoffs, match_mark, inclusive=up_to_match is not None)
            if finished <= counted:
                # Every finished match counted: the table now, computed once for both
                # (the storylines ask for the table after the match just ended, her
                # claims for the table now).
                table = self._table(connection, mark, None, None, live=False)
            else:
                table = views.standings(connection, counted)
        with self._tables_lock:
            # A table kept by an older mark than its kind's now is never asked again: both
            # kinds are swept, for a goal moves the live tables' mark alone, and the others'
            # would fill the room the live ones need.
            marks = {True: self._mark, False: self._finished}
            for older in [k for k in self._tables if k[0] < marks[k[3]]]:
                del self._tables[older]
            # Room for each kind: a race's table after every match leaves the live one some.
            if sum(1 for k in self._tables if k[3] == live) < TABLES_KEPT:
                self._tables[key] = tuple(table)
        return table

    def match_days(self) -> dict[int, date]:
        """Each match's day (``game.matchdays.day_of``)."""
        with self.work.read() as connection:
            return views.match_days(connection)

    def day_table(self, day: date | None = None) -> tuple[date, DayTable]:
        """The table of ``day``'s matches (by default the last day with a finished one)."""
        with self.work.read() as connection:
            days = views.match_days(connection)
            if day is None:
                finished = connection.execute(
                    select(matches.c.number).where(matches.c.status == MatchStatus.FINISHED.value)
                ).scalars()
                day = matchdays.latest_day(days, finished)
                if day is None:
                    raise RuleViolation("no match has finished yet")
            numbers = matchdays.on_day(days, day)
            if not numbers:
                raise NotFound("no match on {day}", day=day.isoformat())
            return day, self._counted_table(connection, numbers)

    def round_table(self, number: int) -> DayTable:
        """The table of round ``number``'s matches (``game.league.round_of``)."""
        with self.work.read() as connection:
            numbers = matchdays.in_round(views.all_matches(connection), number)
            if not numbers:
                raise NotFound("no round {n}", n=number)
            return self._counted_table(connection, numbers)

    def _counted_table(self, connection: Connection, numbers: set[int]) -> DayTable:
        rows = views.standings(connection, numbers, with_bonus=False)
        played = [
            m
            for m in (views.match(connection, n, with_goals=False) for n in sorted(numbers))
            if m is not None and m.status is MatchStatus.FINISHED
        ]
        leaders = matchdays.winners({row.player: row.points for row in rows})
        return DayTable(
            rows, sorted(played, key=Match.time_order), leaders, len(numbers) - len(played)
        )

    def race(self, top: int) -> dict[str, list[int]]:
        """Points after each finished match, in the order played, of the ``top`` players
        now: a table a finished match, read once per state of the log (past 64 finished
        matches it took 60 ms a call, 130 ms on a whole cup)."""
        key = (self.state_mark(), top)  # seen first: what is kept is never older than it
        with self._tables_lock:
            kept = self._race
        if kept is not None and kept[0] == key:
            return {handle: list(points) for handle, points in kept[1].items()}
        series = self._race_now(top)
        with self._tables_lock:
            if self._race is None or self._race[0][0] <= key[0]:
                self._race = (key, series)
        return {handle: list(points) for handle, points in series.items()}

    def _race_now(self, top: int) -> dict[str, list[int]]:
        finished = [
            m.number
            for m in sorted(self.matches(), key=Match.time_order)
            if m.status is MatchStatus.FINISHED
        ]
        leaders = [row.player for row in self.standings()[:top]]
        series: dict[str, list[int]] = {handle: [] for handle in leaders}
        for number in finished:
            points = {row.player: row.points for row in self.standings(up_to_match=number)}
            for handle in leaders:
                series[handle].append(points.get(handle, 0))
        return series if finished else {}

    def _table_mark(self, connection: Connection) -> int:
        """The log position of the last event that may have moved the table.

        Tables are kept by it, so the picks placed before a kick-off (most of what
        a pool writes) leave the table every session shows computed once. Only
        the events since the last look are read; the first look takes the whole
        log as having moved it.
        """
        commits = self.work.commits  # taken before the look: a commit since looks again
        if self._pin.holds_marks(commits):
            with self._tables_lock:
                return self._mark
        with self._tables_lock:
            seen, mark, state, picks = self._mark_seen, self._mark, self._state, self._picks
            settled, finished = self._settled, self._finished
        if seen is None:
            position = log.last_id(connection)
            seen = mark = state = picks = settled = finished = position
        else:
            for item in log.read(connection, after_id=seen):
                seen = item.id
                if moves_table(item.event):
                    mark = item.id
                if _settles(item.event):
                    settled = item.id
                if _moves_finished(item.event):
                    finished = item.id
                if changes_reads(item.event):
                    state = item.id
                if changes_picks(item.event):
                    picks = item.id
        with self._tables_lock:
            if self._mark_seen is None or seen > self._mark_seen:
                self._mark_seen = seen
                self._mark = max(self._mark, mark)
                self._state = max(self._state, state)
                self._picks = max(self._picks, picks)
                self._settled = max(self._settled, settled)
                self._finished = max(self._finished, finished)
            self._pin.marks_looked(commits, self._mark_seen)
            return self._mark

    def state_mark(self) -> int:
        """The log position of the last event that may have changed a read of the pool
        (talk changes none): what is read at one mark may be kept until the next."""
        with self.work.read() as connection:
            return self._state_mark(connection)

    def _state_mark(self, connection: Connection, picks: bool = False) -> int:
        # Seen before the read it keys, so a read kept under it is never older than it.
        # Picks are kept by their own mark, so the picks' reads are keyed apart.
        self._table_mark(connection)
        with self._tables_lock:
            return self._picks if picks else self._state

    def events(
        self,
        after_id: int = 0,
        kinds: tuple[str, ...] = (),
        match_number: int | None = None,
        since: datetime | None = None,
        up_to_id: int | None = None,
    ) -> list[LoggedEvent[Event]]:
        with self.work.read() as connection:
            found = list(log.read(connection, after_id, kinds, match_number, since, up_to_id))
        # What was just read may be newer than the pinned reads: a goal another process
        # logged, about to be reacted to. Every read after it looks again.
        self._pin.forget()
        return found

    def events_of(
        self,
        kind: type[E],
        after_id: int = 0,
        match_number: int | None = None,
        since: datetime | None = None,
        up_to_id: int | None = None,
    ) -> list[LoggedEvent[E]]:
        """The events of one kind, typed as that kind."""
        if not self._tails.keeps(kind):
            with self.work.read() as connection:
                return list(log.read_of(connection, kind, after_id, match_number, since, up_to_id))
        commits = self.work.commits  # taken before the look, as the marks'
        if not self._pin.holds_tails(commits):
            with self.work.read() as connection:
                self._pin.tails_looked(commits, self._tails.catch_up(connection))
        found = self._tails.select(kind, after_id, match_number, since, up_to_id)
        return cast(list[LoggedEvent[E]], found)

    def check_finished(self, number: int) -> Match:
        """Match #N, if it has finished: a table "after" it means nothing otherwise."""
        match = self.match(number, with_goals=False)
        if match.status is not MatchStatus.FINISHED:
            raise RuleViolation(
                "{match} has not finished: there is no table after it yet", match=match.label
            )
        return match

    def next_match(self) -> Match | None:
        """The next match to kick off, by the server's clock."""
        now = self.clock()
        ahead = [m for m in self.matches() if m.status is MatchStatus.SCHEDULED and m.kickoff > now]
        return min(ahead, key=Match.time_order, default=None)

    def verify_log(self, expect: chain.Head | None = None) -> chain.Verdict:
        """Whether every event still follows from the one before it (``game.db.chain``),
        and the log still holds ``expect``, a head kept from an earlier look."""
        with self.work.read() as connection:
            return chain.verify(log.chain_rows(connection), expect)

    def lifecycle_breaches(self) -> list[LifecycleBreach]:
        """The events that break the match lifecycle and no repair has named yet."""
        with self.work.read() as connection:
            return LifecycleLog.from_log(log.read(connection)).open_breaches()

    def table_disagreements(self) -> list[proof.Disagreement]:
        """The rows where the tables standings read differ from the log (``game.db.proof``)."""
        with self.work.read() as connection:
            return proof.disagreements(connection)

    def repair_tables(self) -> list[proof.Disagreement]:
        """The tables standings read written anew from the log where they differ; the
        rows it mended. The log is the record: nothing is appended to it. For a pool
        nobody serves (``serve`` refuses to start on such tables): a serving process keeps
        reads by the log's position, which a repair does not move."""
        with self.work.engine.begin() as connection:
            log.hold_writes(connection)
            return proof.repair(connection)

    def last_event_id(self) -> int:
        with self.work.read() as connection:
            last = log.last_id(connection)
        self._pin.forget()  # as ``events``: what comes next looks again
        return last

    def scoring(self) -> tuple[ScoringRule, ScoreBasis]:
        with self.work.read() as connection:
            # Settings are written with their ``SettingChanged``: read once per state mark.
            state = self._state_mark(connection)
            return self._snapshot.read(state, "scoring", lambda: views.scoring(connection))

    def all_jokers(self) -> frozenset[tuple[str, int]]:
        """Every joker of the pool, as (player, match number): ``extras.all_jokers``, read
        once per picks mark (a joker is placed or taken off with an event that moves it)."""
        with self.work.read() as connection:
            state = self._state_mark(connection, picks=True)
        return self._picks_kept.read(state, "jokers", self.extras.all_jokers)

    def set_tiebreak(self, tiebreak: str) -> None:
        """How the table breaks a tie on points: exact hits first (the default), or days
        won first (``game.matchdays.TIEBREAKS``)."""
        if tiebreak not in matchdays.TIEBREAKS:
            known = ", ".join(matchdays.TIEBREAKS)
            raise RuleViolation(
                "unknown tie-break {name!r} (one of {known})", name=tiebreak, known=known
            )

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> None:
            write_setting(self.work, connection, logged, matchdays.TIEBREAK_KEY, tiebreak)

        self.work.commit(work)


def _settles(event: Event) -> bool:
    """Whether ``event`` may move the live table's settled part (``views.settled_table``):
    whatever moves a table (``moves_table``), but a goal. A goal goes to a match in
    play (a match still scheduled kicks off with it, an event of its own), whose day
    the settled part leaves out; a kick-off, a result, a correction, an admin's
    imported pick, a joker, a bonus pick, a setting, a player joining do move it, and
    so does any kind not known here (``tests/test_live_table_kept.py`` plays each)."""
    return moves_table(event) and not isinstance(event, GoalScored)


def _moves_finished(event: Event) -> bool:
    """Whether ``event`` may move a table of the finished matches alone (not live; after
    or before a match too): whatever moves the settled part, but a kick-off, which only
    sends a match still scheduled into play (``Fixtures._start``), where no such table
    counts it."""
    return _settles(event) and not isinstance(event, MatchKickedOff)
