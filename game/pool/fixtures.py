"""The matches themselves: fixtures, kick-offs, goals, results, live feeds."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from sqlalchemy import Connection, insert, select, update

from game import lifecycle, matchdays, matching
from game.db import log, views
from game.db.schema import (
    feed_links,
    goals,
    matches,
)
from game.events import (
    Event,
    FeedProblem,
    GoalScored,
    LifecycleRepaired,
    LoggedEvent,
    MatchKickedOff,
    MatchScheduled,
    ResultRecorded,
)
from game.league import round_number
from game.model import (
    FeedReport,
    FeedResult,
    FeedStatus,
    Goal,
    InvalidScore,
    Match,
    MatchStatus,
    Result,
    Score,
)
from game.openfootball import Fixture, Tournament
from game.pool.work import UnitOfWork, require_match, update_statement
from game.rules import RuleViolation
from game.teams import TeamBook, is_placeholder


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


def numbering(fixtures: Iterable[Fixture]) -> dict[str, int]:
    """The number an empty pool gives each fixture (by source key) when they are imported."""
    ordered = sorted(fixtures, key=lambda f: f.kickoff)
    numbers = MatchNumbers(set(), ordered, set())
    return {fixture.source_key: numbers.assign(fixture) for fixture in ordered}


class Fixtures:
    """The match lifecycle: fixtures imported, kick-offs, goals, results, and what feeds report."""

    def __init__(self, work: UnitOfWork) -> None:
        self._work = work

    def import_tournament(self, tournament: Tournament) -> FixturesReport:
        """Create or update every fixture; results and goals in the file come along.

        Idempotent: a second import of the same file changes nothing and logs
        nothing. A result an admin entered by hand is never overwritten.
        """

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> FixturesReport:
            report = FixturesReport(tournament.name)
            known = dict(connection.execute(select(matches.c.source_key, matches.c.number)).all())
            numbers = MatchNumbers(set(known.values()), tournament.fixtures, set(known))
            arriving = {
                f.source_key
                for f in tournament.fixtures
                if f.source_key not in known and not set(f.former_keys) & set(known)
            }
            if len(known) + len(arriving) > views.MOST_MATCHES:
                raise RuleViolation(
                    "a pool holds at most {most} matches; this file would make it {total}",
                    most=views.MOST_MATCHES,
                    total=len(known) + len(arriving),
                )
            # By kick-off: a tie's first leg has its number before its second leg needs it.
            for fixture in sorted(tournament.fixtures, key=lambda f: f.kickoff):
                columns = _fixture_columns(fixture, known)
                number = known.get(fixture.source_key)
                former = next((k for k in fixture.former_keys if k in known), None)
                if number is None and former is not None:  # imported under an older key
                    number = known.pop(former)
                    known[fixture.source_key] = number
                    connection.execute(
                        update(matches)
                        .where(matches.c.number == number)
                        .values(source_key=fixture.source_key)
                    )
                if number is None:
                    number = numbers.assign(fixture)
                    if fixture.number is not None and number != fixture.number:
                        report.renumbered.append((fixture.number, number))
                    connection.execute(
                        insert(matches).values(
                            number=number,
                            source_key=fixture.source_key,
                            status=MatchStatus.SCHEDULED.value,
                            **columns,
                        )
                    )
                    known[fixture.source_key] = number
                    report.created += 1
                    self._work.append(connection, logged, _scheduled(number, fixture))
                elif self._update_fixture(connection, number, columns):
                    report.updated += 1
                    self._work.append(connection, logged, _scheduled(number, fixture))
                self._import_outcome(connection, logged, number, fixture, report)
            return report

        return self._work.commit(work)

    def _update_fixture(
        self, connection: Connection, number: int, columns: dict[str, object]
    ) -> bool:
        row = connection.execute(select(matches).where(matches.c.number == number)).one()
        if all(getattr(row, name) == value for name, value in columns.items()):
            return False
        connection.execute(update_statement(number, **columns))
        return True

    def _import_outcome(
        self,
        connection: Connection,
        logged: list[LoggedEvent[Event]],
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
        logged: list[LoggedEvent[Event]],
        number: int,
        goals_seen: Iterable[Goal] | None,
        result: Result | None,
        source: str,
    ) -> tuple[int, str | None]:
        """New goals and a new result from a file or a feed; an admin's result is kept.

        Returns the goals added and what happened to the result: None (nothing
        new), "admin" (kept the admin's), "new" or "correction".
        """
        match = require_match(connection, number)
        added = 0
        # A finished match takes no goal (``game.lifecycle``): a file or a feed that
        # shows more goals after the whistle can only correct the result.
        seen = goals_seen if match.status in lifecycle.TAKES_GOALS else ()
        for goal in seen or ():
            if goal not in match.goals:
                self._insert_goal(connection, logged, number, goal)
                added += 1
        if result is not None:
            result = _against_first_leg(connection, match, result)
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

    def kick_off(self, number: int) -> None:
        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> None:
            self._start(connection, logged, require_match(connection, number, with_goals=False))

        self._work.commit(work)

    def _start(
        self, connection: Connection, logged: list[LoggedEvent[Event]], match: Match
    ) -> None:
        """A match goes live: its status and its kick-off event, together."""
        self._move(connection, match, MatchStatus.LIVE)
        self._work.append(connection, logged, MatchKickedOff(match.number))

    def _move(
        self, connection: Connection, match: Match, to: MatchStatus, **values: object
    ) -> None:
        """The one writer of a match's status: a move ``game.lifecycle`` allows, or a refusal.

        The UPDATE itself says from which statuses it may move, and its row count
        decides: a state read before the write can never send a match back.
        """
        moved = connection.execute(
            update_statement(match.number, status=to.value, **values).where(
                matches.c.status.in_(lifecycle.moving_to(to))
            )
        )
        if moved.rowcount != 1:
            now = require_match(connection, match.number, with_goals=False)
            raise RuleViolation("{match} is already {status}", match=now.label, status=now.status)

    def record_goal(self, number: int, goal: Goal) -> None:
        """A goal as it happens. A match still scheduled kicks off with it: a goal means
        the ball is rolling, and bets must not stay open on a score already known.
        A finished match takes no goal: the whistle has gone."""

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> None:
            match = require_match(connection, number, with_goals=False)
            if match.status not in lifecycle.TAKES_GOALS:
                raise RuleViolation("{match} is over: no goal after the whistle", match=match.label)
            if match.status is MatchStatus.SCHEDULED:
                self._start(connection, logged, match)
            self._insert_goal(connection, logged, number, goal)

        self._work.commit(work)

    def _insert_goal(
        self, connection: Connection, logged: list[LoggedEvent[Event]], number: int, goal: Goal
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
        self._work.append(connection, logged, event)

    def record_result(self, number: int, result: Result, source: str = "admin") -> None:
        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> None:
            match = require_match(connection, number)
            self._write_result(connection, logged, match, result, source)

        self._work.commit(work)

    def record_score(
        self,
        number: int,
        full_time: Score,
        extra_time: Score | None = None,
        penalties: Score | None = None,
        source: str = "admin",
    ) -> Result:
        """A match's score as a person types it: a tie's second leg is read against its
        first leg as the pool holds it, in the same transaction. Returns the result."""

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> Result:
            match = require_match(connection, number)
            played, away_goals = _first_leg_of(connection, match)
            result = Result(full_time, extra_time, penalties, played, away_goals)
            self._write_result(connection, logged, match, result, source)
            return result

        return self._work.commit(work)

    def _write_result(
        self,
        connection: Connection,
        logged: list[LoggedEvent[Event]],
        match: Match,
        result: Result,
        source: str,
    ) -> bool:
        result = _against_first_leg(connection, match, result)
        if match.result == result and match.status is MatchStatus.FINISHED:
            return False
        _check_second_leg(connection, match, result)
        self._move(
            connection,
            match,
            MatchStatus.FINISHED,
            result_source=source,
            **_score_columns("ft", result.full_time),
            **_score_columns("et", result.extra_time),
            **_score_columns("pen", result.penalties),
        )
        event = ResultRecorded(
            match.number,
            str(result.full_time),
            None if result.extra_time is None else str(result.extra_time),
            None if result.penalties is None else str(result.penalties),
            None if match.result is None else str(match.result),
            source,
            None if result.first_leg is None else str(result.first_leg),
            result.away_goals,
        )
        self._work.append(connection, logged, event)
        return True

    def apply_results(self, updates: Iterable[FeedResult], source: str) -> FeedReport:
        """A live feed's view of the matches, in one transaction: kick-offs, goals, results.

        Each feed match is found by ``game.matching`` and linked by the feed's
        own id; one that fits no match, or several, is reported and never applied.
        Named teams are never renamed; knock-out placeholders (1A, W74) are filled.
        """

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> FeedReport:
            report = FeedReport(unmatched=[], kept_admin_results=[])
            for seen in updates:
                found = self._feed_match(connection, seen, source)
                if isinstance(found, str):
                    report.unmatched.append(found)
                    continue
                if found.swapped:
                    seen = seen.swapped()
                number = found.number
                match = require_match(connection, number, with_goals=False)
                if is_placeholder(match.team1) and is_placeholder(match.team2):
                    book = TeamBook.standard()
                    team1 = book.name_of(seen.team1, seen.code1) or seen.team1
                    team2 = book.name_of(seen.team2, seen.code2) or seen.team2
                    connection.execute(update_statement(number, team1=team1, team2=team2))
                    named = replace(match, team1=team1, team2=team2)
                    local_date = _local_date(connection, number)
                    self._work.append(connection, logged, _scheduled_again(named, local_date))
                    report.updated += 1
                if _rescheduled(match, seen):
                    # Postponed or rearranged: the match keeps its number and its picks,
                    # which stay open until the new kick-off, as after a file's move.
                    # Its day moves with it (``matchdays.moved``): the day it counts for.
                    local_date = matchdays.moved(
                        _local_date(connection, number), match.kickoff, seen.kickoff
                    )
                    connection.execute(
                        update_statement(number, kickoff=seen.kickoff, local_date=local_date)
                    )
                    moved = replace(match, kickoff=seen.kickoff)
                    self._work.append(connection, logged, _scheduled_again(moved, local_date))
                    report.updated += 1
                if (
                    seen.status is not FeedStatus.SCHEDULED
                    and match.status is MatchStatus.SCHEDULED
                ):
                    self._start(connection, logged, match)
                    report.kicked_off += 1
                if seen.problem is not None:
                    report.unmatched.append(f"#{number} {seen.label}: {seen.problem}")
                final = seen.result if seen.status is FeedStatus.FINISHED else None
                try:
                    goals, outcome = self._apply_outcome(
                        connection, logged, number, seen.goals, final, source
                    )
                except RuleViolation as refused:  # a second leg before its first: this one
                    report.unmatched.append(f"#{number} {seen.label}: {refused}")
                    continue
                report.goals += goals
                if outcome == "admin":
                    report.kept_admin_results.append(number)
                elif outcome == "correction":
                    report.corrections += 1
                elif outcome == "new":
                    report.results += 1
            return report

        return self._work.commit(work)

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
        if isinstance(found, str) and linked is None and seen.matchday is not None:
            every = connection.execute(
                select(matches.c.number, matches.c.team1, matches.c.team2, matches.c.kickoff,
                       matches.c.stage, matches.c.group_name)
            ).all()  # fmt: skip
            in_round = [
                matching.Candidate(row.number, row.team1, row.team2, row.kickoff)
                for row in every
                if round_number(row.stage, row.group_name) == seen.matchday
            ]
            found = matching.moved(seen, in_round) or found
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

    def repair_lifecycle(self, by: str = "console") -> list[lifecycle.LifecycleBreach]:
        """An admin's repair of a log that breaks the lifecycle (an older version's race).

        Each breach the log holds and no repair named yet gets one logged
        correction, ``LifecycleRepaired``: the match takes the status the log tells
        without the breaking event (a kick-off after its result leaves it finished).
        The breaking events stay in the log, as everything does. Returns the
        breaches repaired.
        """

        def work(
            connection: Connection, logged: list[LoggedEvent[Event]]
        ) -> list[lifecycle.LifecycleBreach]:
            folded = lifecycle.LifecycleLog.from_log(log.read(connection))
            breaches = folded.open_breaches()
            for breach in breaches:
                status = folded.statuses.get(breach.match, MatchStatus.SCHEDULED)
                # the one write of a status outside ``_move``: a correction, logged
                connection.execute(update_statement(breach.match, status=status.value))
                repaired = LifecycleRepaired(breach.match, breach.event_id, status.value, by)
                self._work.append(connection, logged, repaired)
            return breaches

        return self._work.commit(work)

    def report_feed_problem(self, source: str, text: str, once: bool = True) -> bool:
        """Tell the admins (the log keeps it); with ``once``, False when it was said before."""

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> bool:
            if once:
                for item in log.read_of(connection, FeedProblem):
                    if item.event.text == text:
                        return False
            self._work.append(connection, logged, FeedProblem(source, text))
            return True

        return self._work.commit(work)


def _against_first_leg(connection: Connection, match: Match, result: Result) -> Result:
    """``result`` read as a second leg's (the aggregate over its first leg, as the pool
    holds that leg), or as it is for a match that is no tie's second leg.

    A source that gives a second leg's score alone (an admin, a feed) gets the tie
    filled in; one that names a different first leg is refused, not believed.
    """
    played, away_goals = _first_leg_of(connection, match)
    if played is None:
        if result.first_leg is not None:
            raise RuleViolation("{match} is not a tie's second leg", match=match.label)
        # Read as the one match it is: a score only a second leg could have is refused here.
        return replace(result, pending_first_leg=False)
    if result.first_leg is not None and result.first_leg != played:
        raise RuleViolation(
            "{match}: the first leg ended {given} by this result, {held} by the pool",
            match=match.label,
            given=result.first_leg.swapped(),
            held=played.swapped(),
        )
    return replace(result, first_leg=played, away_goals=away_goals, pending_first_leg=False)


def _first_leg_of(connection: Connection, match: Match) -> tuple[Score | None, bool]:
    """A second leg's first leg at the end of play, from its home side, and whether away
    goals count; (None, False) for a match that is no tie's second leg."""
    if match.first_leg is None:
        return None, False
    first = require_match(connection, match.first_leg, with_goals=False)
    if first.result is None:
        raise RuleViolation(
            "{match} is a second leg: the first leg (#{first}) needs its result first",
            match=match.label,
            first=first.number,
        )
    return first.result.end_of_play.swapped(), match.away_goals


def _check_second_leg(connection: Connection, match: Match, result: Result) -> None:
    """A first leg's correction must leave its second leg's result a possible one."""
    second = connection.execute(
        select(matches.c.number).where(matches.c.first_leg == match.number)
    ).scalar()
    if second is None:
        return
    later = require_match(connection, second, with_goals=False).result
    if later is None or later.first_leg is None:
        return
    try:
        replace(later, first_leg=result.end_of_play.swapped())
    except InvalidScore as error:
        raise RuleViolation(
            "the second leg of #{match} (#{second}) would no longer stand: {why}",
            match=match.number,
            second=second,
            why=str(error),
        ) from None


def _rescheduled(match: Match, seen: FeedResult) -> bool:
    """A match to come that the feed shows at another time: more than the hours two
    sources may disagree by (``matching.SAME_TEAMS_WINDOW``), so a real move."""
    return (
        match.status is MatchStatus.SCHEDULED
        and seen.status is FeedStatus.SCHEDULED
        and abs(seen.kickoff - match.kickoff) > matching.SAME_TEAMS_WINDOW
    )


def _scheduled_again(match: Match, local_date: str | None) -> MatchScheduled:
    """The log's record of a match whose teams or kick-off a feed changed."""
    return MatchScheduled(
        match.number,
        match.stage,
        match.team1,
        match.team2,
        match.kickoff,
        match.group,
        match.venue,
        local_date,
    )


def _local_date(connection: Connection, number: int) -> str | None:
    found: str | None = connection.execute(
        select(matches.c.local_date).where(matches.c.number == number)
    ).scalar_one()
    return found


def _candidate(connection: Connection, number: int) -> matching.Candidate:
    row = connection.execute(
        select(matches.c.team1, matches.c.team2, matches.c.kickoff).where(
            matches.c.number == number
        )
    ).one()
    return matching.Candidate(number, row.team1, row.team2, row.kickoff)


def _score_columns(prefix: str, score: Score | None) -> dict[str, int | None]:
    return {
        f"{prefix}_home": None if score is None else score.home,
        f"{prefix}_away": None if score is None else score.away,
    }


def _fixture_columns(fixture: Fixture, known: dict[str, int]) -> dict[str, object]:
    """The match row's columns a file gives; ``known`` numbers the matches by key."""
    return {
        "first_leg": None if fixture.first_leg_key is None else known[fixture.first_leg_key],
        "away_goals": fixture.away_goals,
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
        fixture.local_date,
    )
