"""The pool's one way in for changes: every write checks the rules, updates the
current state and appends its event to the log, in one transaction.

Front ends (the console, the SSH server, the commentator) call these methods;
none of them writes to the database on its own. Listeners subscribed here hear
each event after it is committed.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from sqlalchemy import Connection, Engine, Update, func, insert, select, update

from game import rules
from game.bets_csv import BetRow, BetsFileError
from game.db import chain, log, views
from game.db.schema import (
    events,
    feed_links,
    goals,
    invites,
    matches,
    player_keys,
    players,
    predictions,
    settings,
)
from game.events import (
    ChatPosted,
    Event,
    FeedProblem,
    GoalScored,
    LoggedEvent,
    MatchKickedOff,
    MatchScheduled,
    ModelCalled,
    PlayerJoined,
    PredictionPlaced,
    RemarkPosted,
    ResultRecorded,
    SettingChanged,
)
from game.feeds import matching
from game.feeds.model import FeedReport, FeedResult, FeedStatus
from game.feeds.teams import TeamBook, is_placeholder
from game.history import SCORE_BASIS_KEY, SCORING_KEY
from game.model import Goal, Match, MatchStatus, Player, Prediction, Result, Score
from game.openfootball import Fixture, Tournament
from game.rules import RuleViolation
from game.scoring import ScoreBasis, ScoringRule, preset
from game.standings import StandingRow, played_by
from game.text import clean_line

T = TypeVar("T")
Clock = Callable[[], datetime]
Listener = Callable[[LoggedEvent], None]

# A spreadsheet pick without a time is recorded as placed this long before kick-off.
IMPORTED_PICK_LEAD = timedelta(minutes=1)
MAX_CHAT_LENGTH = 500
MAX_INVITE_USES = 1000
MAX_INVITE_DAYS = 3650


def utc_now() -> datetime:
    return datetime.now(UTC)


class NotFound(LookupError):
    """A match or player that does not exist; the message names it."""


@dataclass
class FixturesReport:
    tournament: str
    created: int = 0
    updated: int = 0
    results: int = 0
    goals: int = 0
    kept_admin_results: list[int] = field(default_factory=list)
    renumbered: list[tuple[int, int]] = field(default_factory=list)  # (file's num, pool's)


class MatchNumbers:
    """Numbers for new matches: the file's official number (``num``) when it gives one
    and the pool has it free; otherwise the smallest free number, in kick-off order.

    Numbers a pool already uses never move, so an existing pool keeps its own.
    """

    def __init__(self, taken: set[int], fixtures: Iterable[Fixture], known: set[str]) -> None:
        self.taken = set(taken)
        # Official numbers of new matches are held for them before anyone else is numbered.
        self.held = {
            f.number
            for f in fixtures
            if f.number is not None and f.source_key not in known and f.number not in taken
        }
        self.next_free = 1

    def assign(self, fixture: Fixture) -> int:
        if fixture.number is not None and fixture.number in self.held:
            self.held.discard(fixture.number)
            self.taken.add(fixture.number)
            return fixture.number
        while self.next_free in self.taken or self.next_free in self.held:
            self.next_free += 1
        self.taken.add(self.next_free)
        return self.next_free


@dataclass
class BetsReport:
    placed: int = 0
    changed: int = 0
    unchanged: int = 0
    players_created: list[str] = field(default_factory=list)


class Pool:
    def __init__(self, engine: Engine, clock: Clock = utc_now) -> None:
        self.engine = engine
        self.clock = clock
        self._listeners: list[Listener] = []

    # -- plumbing -------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _commit(self, work: Callable[[Connection, list[LoggedEvent]], T]) -> T:
        """Run ``work`` in one transaction; tell listeners about its events once committed."""
        logged: list[LoggedEvent] = []
        with self.engine.begin() as connection:
            outcome = work(connection, logged)
        for item in logged:
            for listener in self._listeners:
                listener(item)
        return outcome

    def _append(self, connection: Connection, logged: list[LoggedEvent], event: Event) -> None:
        at = self.clock()
        logged.append(LoggedEvent(log.append(connection, event, at), at, event))

    # -- reads ----------------------------------------------------------------

    def matches(self) -> list[Match]:
        with self.engine.connect() as connection:
            return views.all_matches(connection)

    def match(self, number: int, with_goals: bool = True) -> Match:
        with self.engine.connect() as connection:
            return _require_match(connection, number, with_goals)

    def player(self, handle: str, with_keys: bool = True) -> Player | None:
        with self.engine.connect() as connection:
            return views.player(connection, handle, with_keys)

    def players(self) -> list[Player]:
        with self.engine.connect() as connection:
            return views.all_players(connection)

    def predictions_of(self, handle: str) -> list[Prediction]:
        with self.engine.connect() as connection:
            return views.predictions_of(connection, handle)

    def predictions_on(self, number: int) -> list[Prediction]:
        with self.engine.connect() as connection:
            return views.predictions_on(connection, number)

    def standings(
        self, up_to_match: int | None = None, before_match: int | None = None
    ) -> list[StandingRow]:
        """The table now; as it stood after match #N (``up_to_match``), or just before it.

        "After" and "before" go by kick-off time, not by number (see ``played_by``).
        """
        with self.engine.connect() as connection:
            mark = up_to_match if up_to_match is not None else before_match
            if mark is None:
                return views.standings(connection)
            kickoffs = views.kickoffs(connection)
            if mark not in kickoffs:
                raise NotFound(f"no match #{mark}")
            counted = played_by(kickoffs, mark, inclusive=up_to_match is not None)
            return views.standings(connection, counted)

    def events(
        self,
        after_id: int = 0,
        kinds: tuple[str, ...] = (),
        match_number: int | None = None,
        since: datetime | None = None,
        up_to_id: int | None = None,
    ) -> list[LoggedEvent]:
        with self.engine.connect() as connection:
            return list(log.read(connection, after_id, kinds, match_number, since, up_to_id))

    def check_finished(self, number: int) -> Match:
        """Match #N, if it has finished: a table "after" it means nothing otherwise."""
        match = self.match(number, with_goals=False)
        if match.status is not MatchStatus.FINISHED:
            raise RuleViolation(f"{match.label} has not finished: there is no table after it yet")
        return match

    def next_match(self) -> Match | None:
        """The next match to kick off, by the server's clock."""
        now = self.clock()
        ahead = [m for m in self.matches() if m.status is MatchStatus.SCHEDULED and m.kickoff > now]
        return min(ahead, key=Match.time_order, default=None)

    def verify_log(self) -> chain.Verdict:
        """Whether every event still follows from the one before it (``game.db.chain``)."""
        with self.engine.connect() as connection:
            return chain.verify(log.chain_rows(connection))

    def last_event_id(self) -> int:
        with self.engine.connect() as connection:
            return connection.execute(select(func.max(events.c.id))).scalar() or 0

    def scoring(self) -> tuple[ScoringRule, ScoreBasis]:
        with self.engine.connect() as connection:
            return views.scoring(connection)

    # -- players --------------------------------------------------------------

    def add_player(
        self,
        handle: str,
        display_name: str | None = None,
        is_admin: bool = False,
        keys: Iterable[str] = (),
        via: str = "console",
    ) -> Player:
        rules.check_handle(handle)
        name = clean_line(display_name or "") or handle

        def work(connection: Connection, logged: list[LoggedEvent]) -> Player:
            if views.player(connection, handle) is not None:
                raise RuleViolation(f"handle {handle!r} is taken")
            self._insert_player(connection, logged, handle, name, is_admin, via)
            for key in keys:
                self._insert_key(connection, handle, key)
            return views.player(connection, handle)

        return self._commit(work)

    def add_key(self, handle: str, public_key: str) -> None:
        def work(connection: Connection, _logged: list[LoggedEvent]) -> None:
            if views.player(connection, handle) is None:
                raise NotFound(f"no player {handle!r}")
            self._insert_key(connection, handle, public_key)

        self._commit(work)

    def _insert_player(
        self,
        connection: Connection,
        logged: list[LoggedEvent],
        handle: str,
        display_name: str,
        is_admin: bool,
        via: str,
    ) -> int:
        result = connection.execute(
            insert(players).values(
                handle=handle, display_name=display_name, is_admin=is_admin, created_at=self.clock()
            )
        )
        self._append(connection, logged, PlayerJoined(handle, display_name, is_admin, via))
        return int(result.inserted_primary_key[0])

    def _insert_key(self, connection: Connection, handle: str, public_key: str) -> None:
        key = key_identity(public_key)
        owner = views.key_owner(connection, key)
        if owner is not None:
            if owner == handle:
                return
            raise RuleViolation("that key already belongs to another player")
        player_id = connection.execute(
            select(players.c.id).where(players.c.handle == handle)
        ).scalar_one()
        connection.execute(
            insert(player_keys).values(player_id=player_id, public_key=key, added_at=self.clock())
        )

    def key_owner(self, public_key: str) -> str | None:
        with self.engine.connect() as connection:
            return views.key_owner(connection, key_identity(public_key))

    def set_time_zone(self, handle: str, zone_name: str) -> None:
        def work(connection: Connection, _logged: list[LoggedEvent]) -> None:
            player_id = _require_player_id(connection, handle)
            connection.execute(
                update(players).where(players.c.id == player_id).values(time_zone=zone_name)
            )

        self._commit(work)

    # -- invites --------------------------------------------------------------

    def create_invite(
        self, created_by: str, uses: int = 1, expires_in_days: int | None = None
    ) -> str:
        if not 1 <= uses <= MAX_INVITE_USES:
            raise RuleViolation(f"an invite has 1 to {MAX_INVITE_USES} uses")
        if expires_in_days is not None and not 1 <= expires_in_days <= MAX_INVITE_DAYS:
            raise RuleViolation(f"an invite lasts 1 to {MAX_INVITE_DAYS} days")
        code = "-".join(secrets.token_hex(2) for _ in range(3))
        expires_at = (
            None if expires_in_days is None else self.clock() + timedelta(days=expires_in_days)
        )

        def work(connection: Connection, _logged: list[LoggedEvent]) -> str:
            connection.execute(
                insert(invites).values(
                    code=code,
                    uses_left=uses,
                    expires_at=expires_at,
                    created_by=created_by,
                    created_at=self.clock(),
                )
            )
            return code

        return self._commit(work)

    def register(
        self, handle: str, public_key: str, code: str | None, via: str = "invite"
    ) -> Player:
        """A newcomer's key joins under ``handle``; without ``code`` only in an open pool."""
        rules.check_handle(handle)

        def work(connection: Connection, logged: list[LoggedEvent]) -> Player:
            if code is not None:
                found = connection.execute(
                    select(invites).where(invites.c.code == code.strip())
                ).one_or_none()
                if found is None or found.uses_left < 1:
                    raise RuleViolation("that invite code is not valid")
                if found.expires_at is not None and found.expires_at <= self.clock():
                    raise RuleViolation("that invite code has expired")
                connection.execute(
                    update(invites)
                    .where(invites.c.code == found.code)
                    .values(uses_left=found.uses_left - 1)
                )
            if views.player(connection, handle) is not None:
                raise RuleViolation(f"handle {handle!r} is taken")
            if views.key_owner(connection, key_identity(public_key)) is not None:
                raise RuleViolation("that key already belongs to another player")
            self._insert_player(connection, logged, handle, handle, False, via)
            self._insert_key(connection, handle, public_key)
            return views.player(connection, handle)

        return self._commit(work)

    # -- predictions ----------------------------------------------------------

    def place_prediction(self, handle: str, number: int, score: Score) -> PredictionPlaced | None:
        """A player's pick, accepted only before kick-off by this server's clock.

        Returns the logged event, or ``None`` when the pick was already exactly that.
        """

        def work(connection: Connection, logged: list[LoggedEvent]) -> PredictionPlaced | None:
            match = _require_match(connection, number, with_goals=False)
            now = self.clock()
            rules.check_can_predict(match, now)
            player_id = _require_player_id(connection, handle)
            return self._upsert_prediction(
                connection, logged, player_id, handle, number, score, now, "player"
            )

        return self._commit(work)

    def _upsert_prediction(
        self,
        connection: Connection,
        logged: list[LoggedEvent],
        player_id: int,
        handle: str,
        number: int,
        score: Score,
        placed_at: datetime,
        source: str,
    ) -> PredictionPlaced | None:
        """Write one pick and log it; ``None`` when it was already exactly that."""
        key = (predictions.c.player_id == player_id) & (predictions.c.match_number == number)
        current = connection.execute(
            select(predictions.c.home, predictions.c.away).where(key)
        ).one_or_none()
        if current is not None and (current.home, current.away) == (score.home, score.away):
            return None
        values = {"home": score.home, "away": score.away, "placed_at": placed_at}
        if current is None:
            connection.execute(
                insert(predictions).values(player_id=player_id, match_number=number, **values)
            )
            previous = None
        else:
            connection.execute(update(predictions).where(key).values(**values))
            previous = str(Score(current.home, current.away))
        event = PredictionPlaced(
            handle, number, score.home, score.away, placed_at, previous, source
        )
        self._append(connection, logged, event)
        return event

    def import_bets(self, rows: list[BetRow], unread: Iterable[str] = ()) -> BetsReport:
        """An admin's spreadsheet: the one path past the kick-off lock, all rows or none.

        ``unread`` are the lines that did not even read; every problem of the file
        is listed together, in line order, and nothing is imported.
        """

        def work(connection: Connection, logged: list[LoggedEvent]) -> BetsReport:
            report = BetsReport()
            problems: list[str] = list(unread)
            resolved: list[tuple[BetRow, int, datetime]] = []
            for row in rows:
                found = connection.execute(
                    select(matches.c.number, matches.c.kickoff).where(
                        matches.c.local_date == row.date,
                        matches.c.team1 == row.team1,
                        matches.c.team2 == row.team2,
                    )
                ).one_or_none()
                if found is None:
                    problems.append(
                        f"line {row.line}: no fixture {row.team1} v {row.team2} on {row.date}"
                    )
                    continue
                placed_at = row.placed_at or found.kickoff - IMPORTED_PICK_LEAD
                if placed_at >= found.kickoff:
                    problems.append(
                        f"line {row.line}: placed_at {placed_at.isoformat()} is not before kick-off"
                    )
                    continue
                resolved.append((row, found.number, placed_at))
            handles: dict[str, str] = {}
            for row in rows:
                try:
                    handles[row.player] = rules.handle_from_name(row.player)
                except RuleViolation as error:
                    problems.append(f"line {row.line}: {error}")
            if problems:
                raise BetsFileError(sorted(problems, key=_line_number))
            for row, number, placed_at in resolved:
                handle = handles[row.player]
                player_id = connection.execute(
                    select(players.c.id).where(players.c.handle == handle)
                ).scalar()
                if player_id is None:
                    player_id = self._insert_player(
                        connection, logged, handle, clean_line(row.player), False, "import"
                    )
                    report.players_created.append(handle)
                event = self._upsert_prediction(
                    connection, logged, player_id, handle, number, row.score, placed_at, "import"
                )
                if event is None:
                    report.unchanged += 1
                elif event.previous is None:
                    report.placed += 1
                else:
                    report.changed += 1
            return report

        return self._commit(work)

    # -- the match itself -----------------------------------------------------

    def kick_off(self, number: int) -> None:
        def work(connection: Connection, logged: list[LoggedEvent]) -> None:
            match = _require_match(connection, number, with_goals=False)
            if match.status is not MatchStatus.SCHEDULED:
                raise RuleViolation(f"{match.label} is already {match.status}")
            self._start(connection, logged, number)

        self._commit(work)

    def _start(self, connection: Connection, logged: list[LoggedEvent], number: int) -> None:
        """A match goes live: its status and its kick-off event, together."""
        connection.execute(update_statement(number, status=MatchStatus.LIVE.value))
        self._append(connection, logged, MatchKickedOff(number))

    def record_goal(self, number: int, goal: Goal) -> None:
        def work(connection: Connection, logged: list[LoggedEvent]) -> None:
            _require_match(connection, number)
            self._insert_goal(connection, logged, number, goal)

        self._commit(work)

    def _insert_goal(
        self, connection: Connection, logged: list[LoggedEvent], number: int, goal: Goal
    ) -> None:
        connection.execute(
            insert(goals).values(
                match_number=number,
                side=goal.side,
                minute=goal.minute,
                added=goal.added,
                scorer=goal.scorer,
                penalty=goal.penalty,
                own_goal=goal.own_goal,
            )
        )
        event = GoalScored(
            number, goal.side, goal.minute, goal.added, goal.scorer, goal.penalty, goal.own_goal
        )
        self._append(connection, logged, event)

    def record_result(self, number: int, result: Result, source: str = "admin") -> None:
        def work(connection: Connection, logged: list[LoggedEvent]) -> None:
            match = _require_match(connection, number)
            self._write_result(connection, logged, match, result, source)

        self._commit(work)

    def _write_result(
        self,
        connection: Connection,
        logged: list[LoggedEvent],
        match: Match,
        result: Result,
        source: str,
    ) -> bool:
        if match.result == result and match.status is MatchStatus.FINISHED:
            return False
        connection.execute(
            update_statement(
                match.number,
                status=MatchStatus.FINISHED.value,
                result_source=source,
                **_score_columns("ft", result.full_time),
                **_score_columns("et", result.extra_time),
                **_score_columns("pen", result.penalties),
            )
        )
        event = ResultRecorded(
            match.number,
            str(result.full_time),
            None if result.extra_time is None else str(result.extra_time),
            None if result.penalties is None else str(result.penalties),
            None if match.result is None else str(match.result),
            source,
        )
        self._append(connection, logged, event)
        return True

    # -- chat and settings ----------------------------------------------------

    def post_chat(self, handle: str, text: str) -> ChatPosted:
        text = clean_line(text)
        if not text:
            raise RuleViolation("nothing to say")
        if len(text) > MAX_CHAT_LENGTH:
            raise RuleViolation(f"chat lines are at most {MAX_CHAT_LENGTH} characters")

        def work(connection: Connection, logged: list[LoggedEvent]) -> ChatPosted:
            _require_player_id(connection, handle)
            event = ChatPosted(handle, text)
            self._append(connection, logged, event)
            return event

        return self._commit(work)

    def post_remark(
        self,
        handle: str,
        text: str,
        about: Iterable[str] = (),
        match: int | None = None,
        trigger: int | None = None,
    ) -> RemarkPosted | None:
        """A commentator's line; ``None`` if a remark on the same ``trigger`` was already made."""
        text = clean_line(text)
        if not text:
            raise RuleViolation("nothing to say")

        def work(connection: Connection, logged: list[LoggedEvent]) -> RemarkPosted | None:
            _require_player_id(connection, handle)
            if trigger is not None:
                earlier = log.read(connection, kinds=(RemarkPosted.kind,))
                if any(item.event.trigger == trigger for item in earlier):
                    return None
            event = RemarkPosted(handle, text, tuple(about), match, trigger)
            self._append(connection, logged, event)
            return event

        return self._commit(work)

    def log_model_call(self, call: ModelCalled) -> None:
        """What a model call cost goes into the log with everything else."""
        self._commit(lambda connection, logged: self._append(connection, logged, call))

    def set_scoring(self, preset_name: str | None = None, basis: ScoreBasis | None = None) -> None:
        changes: list[tuple[str, str]] = []
        if preset_name is not None:
            changes.append((SCORING_KEY, preset(preset_name).name))
        if basis is not None:
            changes.append((SCORE_BASIS_KEY, ScoreBasis(basis).value))

        def work(connection: Connection, logged: list[LoggedEvent]) -> None:
            for key, value in changes:
                existing = connection.execute(
                    select(settings.c.value).where(settings.c.key == key)
                ).scalar()
                if existing == value:
                    continue
                if existing is None:
                    connection.execute(insert(settings).values(key=key, value=value))
                else:
                    connection.execute(
                        update(settings).where(settings.c.key == key).values(value=value)
                    )
                self._append(connection, logged, SettingChanged(key, value))

        self._commit(work)

    # -- fixtures -------------------------------------------------------------

    def import_fixtures(self, tournament: Tournament) -> FixturesReport:
        """Create or update every fixture; results and goals in the file come along.

        Idempotent: a second import of the same file changes nothing and logs
        nothing. A result an admin entered by hand is never overwritten.
        """

        def work(connection: Connection, logged: list[LoggedEvent]) -> FixturesReport:
            report = FixturesReport(tournament.name)
            known = dict(connection.execute(select(matches.c.source_key, matches.c.number)).all())
            numbers = MatchNumbers(set(known.values()), tournament.fixtures, set(known))
            for fixture in sorted(tournament.fixtures, key=lambda f: f.kickoff):
                number = known.get(fixture.source_key)
                if number is None:
                    number = numbers.assign(fixture)
                    if fixture.number is not None and number != fixture.number:
                        report.renumbered.append((fixture.number, number))
                    connection.execute(
                        insert(matches).values(
                            number=number,
                            source_key=fixture.source_key,
                            status=MatchStatus.SCHEDULED.value,
                            **_fixture_columns(fixture),
                        )
                    )
                    report.created += 1
                    self._append(connection, logged, _scheduled(number, fixture))
                elif self._update_fixture(connection, number, fixture):
                    report.updated += 1
                    self._append(connection, logged, _scheduled(number, fixture))
                self._import_outcome(connection, logged, number, fixture, report)
            return report

        return self._commit(work)

    def _update_fixture(self, connection: Connection, number: int, fixture: Fixture) -> bool:
        columns = _fixture_columns(fixture)
        row = connection.execute(select(matches).where(matches.c.number == number)).one()
        if all(getattr(row, name) == value for name, value in columns.items()):
            return False
        connection.execute(update_statement(number, **columns))
        return True

    def _import_outcome(
        self,
        connection: Connection,
        logged: list[LoggedEvent],
        number: int,
        fixture: Fixture,
        report: FixturesReport,
    ) -> None:
        goals, result = self._apply_outcome(
            connection, logged, number, fixture.goals, fixture.result, "import"
        )
        report.goals += goals
        if result == "admin":
            report.kept_admin_results.append(number)
        elif result:
            report.results += 1

    def _apply_outcome(
        self,
        connection: Connection,
        logged: list[LoggedEvent],
        number: int,
        goals_seen: Iterable[Goal] | None,
        result: Result | None,
        source: str,
    ) -> tuple[int, str | None]:
        """New goals and a new result from a file or a feed; an admin's result is kept.

        Returns the goals added and what happened to the result: None (nothing
        new), "admin" (kept the admin's), "new" or "correction".
        """
        match = _require_match(connection, number)
        added = 0
        for goal in goals_seen or ():
            if goal not in match.goals:
                self._insert_goal(connection, logged, number, goal)
                added += 1
        if result is None or result == match.result:
            return added, None
        kept = connection.execute(
            select(matches.c.result_source).where(matches.c.number == number)
        ).scalar()
        if kept == "admin":
            return added, "admin"
        correction = match.result is not None
        self._write_result(connection, logged, match, result, source)
        return added, "correction" if correction else "new"

    def apply_results(self, updates: Iterable[FeedResult], source: str) -> FeedReport:
        """A live feed's view of the matches, in one transaction: kick-offs, goals, results.

        Each feed match is found by ``game.feeds.matching`` and linked by the feed's
        own id; one that fits no match, or several, is reported and never applied.
        Named teams are never renamed; knock-out placeholders (1A, W74) are filled.
        """

        def work(connection: Connection, logged: list[LoggedEvent]) -> FeedReport:
            report = FeedReport(unmatched=[], kept_admin_results=[])
            for seen in updates:
                found = self._feed_match(connection, seen, source)
                if isinstance(found, str):
                    report.unmatched.append(found)
                    continue
                if found.swapped:
                    seen = seen.swapped()
                number = found.number
                match = _require_match(connection, number, with_goals=False)
                if is_placeholder(match.team1) and is_placeholder(match.team2):
                    book = TeamBook.standard()
                    team1 = book.name_of(seen.team1, seen.code1) or seen.team1
                    team2 = book.name_of(seen.team2, seen.code2) or seen.team2
                    connection.execute(update_statement(number, team1=team1, team2=team2))
                    self._append(
                        connection,
                        logged,
                        MatchScheduled(
                            number,
                            match.stage,
                            team1,
                            team2,
                            match.kickoff,
                            match.group,
                            match.venue,
                        ),
                    )
                    report.updated += 1
                if (
                    seen.status is not FeedStatus.SCHEDULED
                    and match.status is MatchStatus.SCHEDULED
                ):
                    self._start(connection, logged, number)
                    report.kicked_off += 1
                if seen.problem is not None:
                    report.unmatched.append(f"#{number} {seen.label}: {seen.problem}")
                final = seen.result if seen.status is FeedStatus.FINISHED else None
                goals, outcome = self._apply_outcome(
                    connection, logged, number, seen.goals, final, source
                )
                report.goals += goals
                if outcome == "admin":
                    report.kept_admin_results.append(number)
                elif outcome == "correction":
                    report.corrections += 1
                elif outcome == "new":
                    report.results += 1
            return report

        return self._commit(work)

    def _feed_match(
        self, connection: Connection, seen: FeedResult, source: str
    ) -> matching.Found | str:
        """Read what ``matching.find`` needs, and remember a new match by the feed's id."""
        linked = None
        if seen.feed_id is not None:
            number = connection.execute(
                select(feed_links.c.match_number).where(
                    feed_links.c.source == source, feed_links.c.feed_id == seen.feed_id
                )
            ).scalar()
            linked = None if number is None else _candidate(connection, number)
        rows = connection.execute(
            select(matches.c.number).where(
                matches.c.kickoff.between(
                    seen.kickoff - matching.SAME_TEAMS_WINDOW,
                    seen.kickoff + matching.SAME_TEAMS_WINDOW,
                )
            )
        ).scalars()
        found = matching.find(seen, linked, [_candidate(connection, n) for n in rows])
        if isinstance(found, matching.Found) and linked is None and seen.feed_id is not None:
            taken = connection.execute(
                select(feed_links.c.feed_id).where(
                    feed_links.c.source == source, feed_links.c.match_number == found.number
                )
            ).scalar()
            if taken is not None:
                return f"{seen.label}: #{found.number} is already feed id {taken}; not applied"
            connection.execute(
                insert(feed_links).values(
                    source=source, feed_id=seen.feed_id, match_number=found.number
                )
            )
        return found

    def report_feed_problem(self, source: str, text: str, once: bool = True) -> bool:
        """Tell the admins (the log keeps it); with ``once``, False when it was said before."""

        def work(connection: Connection, logged: list[LoggedEvent]) -> bool:
            if once:
                for item in log.read(connection, kinds=(FeedProblem.kind,)):
                    if item.event.text == text:
                        return False
            self._append(connection, logged, FeedProblem(source, text))
            return True

        return self._commit(work)


def _line_number(problem: str) -> int:
    found = re.match(r"line (\d+)", problem)
    return int(found.group(1)) if found else 0


def update_statement(number: int, **values: object) -> Update:
    return update(matches).where(matches.c.number == number).values(**values)


def key_identity(public_key: str) -> str:
    """A public key as stored: type and base64; the comment is not part of who you are."""
    parts = public_key.split()
    if len(parts) < 2:
        raise RuleViolation("not an OpenSSH public key (expected 'TYPE BASE64 [COMMENT]')")
    return " ".join(parts[:2])


def _require_match(connection: Connection, number: int, with_goals: bool = True) -> Match:
    match = views.match(connection, number, with_goals)
    if match is None:
        raise NotFound(f"no match #{number}")
    return match


def _candidate(connection: Connection, number: int) -> matching.Candidate:
    row = connection.execute(
        select(matches.c.team1, matches.c.team2, matches.c.kickoff).where(
            matches.c.number == number
        )
    ).one()
    return matching.Candidate(number, row.team1, row.team2, row.kickoff)


def _require_player_id(connection: Connection, handle: str) -> int:
    player_id = connection.execute(select(players.c.id).where(players.c.handle == handle)).scalar()
    if player_id is None:
        raise NotFound(f"no player {handle!r}")
    return int(player_id)


def _score_columns(prefix: str, score: Score | None) -> dict[str, int | None]:
    return {
        f"{prefix}_home": None if score is None else score.home,
        f"{prefix}_away": None if score is None else score.away,
    }


def _fixture_columns(fixture: Fixture) -> dict[str, object]:
    return {
        "stage": fixture.stage,
        "group_name": fixture.group,
        "kickoff": fixture.kickoff,
        "local_date": fixture.local_date,
        "venue": fixture.venue,
        "team1": fixture.team1,
        "team2": fixture.team2,
    }


def _scheduled(number: int, fixture: Fixture) -> MatchScheduled:
    return MatchScheduled(
        number,
        fixture.stage,
        fixture.team1,
        fixture.team2,
        fixture.kickoff,
        fixture.group,
        fixture.venue,
    )
