"""The match lifecycle, scheduled -> live -> finished: in the log's check, at the write,
and in the admin's repair of a log an older version broke."""

from datetime import UTC, datetime

import pytest

from bot.app.cli import main
from game.db import log
from game.events import (
    Event,
    GoalScored,
    LifecycleRepaired,
    LoggedEvent,
    MatchKickedOff,
    MatchScheduled,
    ResultRecorded,
)
from game.history import PoolHistory
from game.lifecycle import LifecycleLog
from game.model import Goal, MatchStatus, Result, Score
from game.pool import Pool
from game.pool.work import update_statement
from game.rules import RuleViolation
from tests.conftest import FakeClock

AT = datetime(2026, 6, 11, 18, 0, tzinfo=UTC)
SCHEDULED = MatchScheduled(1, "Group stage", "Brazil", "Serbia", AT)
KICKOFF = MatchKickedOff(1)
RESULT = ResultRecorded(1, "2-0")


def logged(*events: Event) -> list[LoggedEvent[Event]]:
    return [LoggedEvent(n, AT, event) for n, event in enumerate(events, start=1)]


def test_a_match_played_in_turn_breaks_nothing() -> None:
    folded = LifecycleLog.from_log(
        logged(
            SCHEDULED,
            KICKOFF,
            GoalScored(1, "home", 10),
            RESULT,
            ResultRecorded(1, "3-0", previous="2-0"),
        )
    )
    assert folded.open_breaches() == []
    assert folded.statuses == {1: MatchStatus.FINISHED}


def test_a_result_for_a_match_nobody_saw_kick_off_is_allowed() -> None:
    """A file or an admin entering a match already played: no kick-off to announce."""
    folded = LifecycleLog.from_log(logged(SCHEDULED, GoalScored(1, "home", 10), RESULT))
    assert folded.open_breaches() == []


@pytest.mark.parametrize(
    ("events", "what"),
    [
        ((SCHEDULED, KICKOFF, RESULT, KICKOFF), "event 4 breaks the match lifecycle: "
         "a kick-off after its result (#1)"),
        ((SCHEDULED, KICKOFF, KICKOFF), "event 3 breaks the match lifecycle: a second kick-off (#1)"),
        ((SCHEDULED, KICKOFF, RESULT, GoalScored(1, "away", 93)),
         "event 4 breaks the match lifecycle: a goal after the whistle (#1)"),
        ((SCHEDULED, RESULT, ResultRecorded(1, "1-0")),
         "event 3 breaks the match lifecycle: a second result that is not a correction (#1)"),
        ((SCHEDULED, RESULT, ResultRecorded(1, "1-0", previous="0-0")),
         "event 3 breaks the match lifecycle: a correction of 0-0 when the result was 2-0 (#1)"),
        ((KICKOFF,), "event 1 breaks the match lifecycle: an event for a match never scheduled (#1)"),
    ],
)  # fmt: skip
def test_the_log_check_names_the_event_out_of_turn(events: tuple[Event, ...], what: str) -> None:
    (breach,) = LifecycleLog.from_log(logged(*events)).open_breaches()
    assert breach.text() == what


def test_a_repair_names_the_breach_and_sets_the_status_from_then_on() -> None:
    events = (SCHEDULED, KICKOFF, RESULT, KICKOFF, LifecycleRepaired(1, 4, "finished"))
    folded = LifecycleLog.from_log(logged(*events))
    assert folded.open_breaches() == []
    assert folded.statuses == {1: MatchStatus.FINISHED}


def test_the_desk_refuses_what_the_lifecycle_refuses(tournament_pool: Pool) -> None:
    pool = tournament_pool
    pool.fixtures.kick_off(1)
    with pytest.raises(RuleViolation, match="already live"):
        pool.fixtures.kick_off(1)
    pool.fixtures.record_result(1, Result(Score(1, 0)))
    with pytest.raises(RuleViolation, match="already finished"):
        pool.fixtures.kick_off(1)
    with pytest.raises(RuleViolation, match="no goal after the whistle"):
        pool.fixtures.record_goal(1, Goal("away", 95))
    pool.fixtures.record_result(1, Result(Score(2, 0)))  # a correction, logged as one
    corrected = pool.events_of(ResultRecorded, match_number=1)[-1].event
    assert corrected.previous == "1-0"
    assert pool.lifecycle_breaches() == []
    assert pool.match(1).status is MatchStatus.FINISHED


def test_serve_refuses_a_log_an_older_version_broke_until_an_admin_repairs_it(
    tournament_pool: Pool, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    pool = tournament_pool
    pool.predictions.place("ana", 1, Score(1, 0))
    pool.fixtures.kick_off(1)
    pool.fixtures.record_result(1, Result(Score(1, 0)))
    # What a scheduler racing a feed wrote before the lifecycle was enforced: a second
    # kick-off, 37 ms after the whistle, sending the match back to live.
    with pool.engine.begin() as connection:
        connection.execute(update_statement(1, status=MatchStatus.LIVE.value))
        late = log.append(connection, MatchKickedOff(1), clock())
    assert pool.standings()[0].points == 0  # ana's exact score stopped counting
    url = pool.engine.url.render_as_string(hide_password=False)
    said = f"event {late} breaks the match lifecycle: a kick-off after its result (#1)"

    assert main(["log", "--verify", "--db", url]) == 1
    assert said in capsys.readouterr().err
    assert main(["serve", "--db", url, "--port", "0"]) == 1
    assert f"{said}; `betania log --repair` logs the correction" in capsys.readouterr().err

    assert main(["log", "--repair", "--db", url]) == 0
    assert f"repaired: {said}" in capsys.readouterr().out
    assert main(["log", "--verify", "--db", url]) == 0
    assert "the match lifecycle holds" in capsys.readouterr().out
    assert pool.match(1).status is MatchStatus.FINISHED
    assert pool.standings()[0].player == "ana" and pool.standings()[0].points > 0
    history = PoolHistory.from_log(pool.events())
    assert history.statuses == {m.number: m.status for m in pool.matches()}
    (repair,) = pool.events_of(LifecycleRepaired)
    assert (repair.event.match, repair.event.event, repair.event.status) == (1, late, "finished")
    assert main(["log", "--repair", "--db", url]) == 0  # nothing left to repair
    assert "0 repaired" in capsys.readouterr().out
