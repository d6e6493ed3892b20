"""The pool's reads kept until its state moves: never served after an event, wherever written."""

from __future__ import annotations

from sqlalchemy import update

from game.db import log
from game.db.engine import open_database
from game.db.schema import predictions
from game.events import ChatPosted, GoalScored, LifecycleRepaired, MatchKickedOff, ResultRecorded
from game.model import Goal, Result, Score
from game.pool import Pool
from tests.conftest import FakeClock, play


def test_a_kept_read_is_never_served_after_another_pools_write(
    played: Pool, database_url: str, clock: FakeClock
) -> None:
    # Another process's pool on the same database: its writes reach ours only by the log.
    other = Pool(open_database(database_url), clock)
    assert played.match(2).result is None
    assert [p.match_number for p in played.predictions_of("caio")] == []
    before = played.matches()
    other.predictions.place("caio", 2, Score(3, 1))
    assert [(p.match_number, p.score) for p in played.predictions_of("caio")] == [(2, Score(3, 1))]
    play(other, clock, 2, "3-1")
    now = {m.number: m for m in played.matches()}
    assert now[2].result == Result(Score(3, 1))
    assert {m.number: m for m in before}[2].result is None  # what was read stays as it was
    other.engine.dispose()


def test_talk_leaves_the_reads_kept_and_a_pick_moves_them(played: Pool) -> None:
    state = played.state_mark()
    played.talk.chat("ana", "who picked Argentina?")
    assert played.state_mark() == state
    played.predictions.place("bia", 2, Score(0, 0))
    assert played.state_mark() > state
    assert Score(0, 0) in [p.score for p in played.predictions_of("bia")]


def test_a_read_is_the_pools_as_it_stands_after_each_write(tournament_pool: Pool) -> None:
    seen = []
    for number, score in ((1, Score(1, 0)), (2, Score(2, 2)), (3, Score(0, 4))):
        tournament_pool.predictions.place("ana", number, score)
        seen.append([(p.match_number, p.score) for p in tournament_pool.predictions_of("ana")])
    assert seen == [
        [(1, Score(1, 0))],
        [(1, Score(1, 0)), (2, Score(2, 2))],
        [(1, Score(1, 0)), (2, Score(2, 2)), (3, Score(0, 4))],
    ]


def test_a_pinned_turn_sees_its_own_writes_and_another_pools_from_the_next_turn(
    played: Pool, database_url: str, clock: FakeClock
) -> None:
    other = Pool(open_database(database_url), clock)

    def on_2(handle: str) -> list[Score]:
        return [p.score for p in played.predictions_of(handle) if p.match_number == 2]

    with played.pinned():
        assert played.predictions_of("caio") == []
        played.predictions.place("caio", 2, Score(3, 1))  # her own write: seen at once
        assert on_2("caio") == [Score(3, 1)]
        assert on_2("bia") == []
        other.predictions.place("bia", 2, Score(0, 2))  # another process's, mid-turn
    with played.pinned():
        assert on_2("bia") == [Score(0, 2)]
    other.predictions.place("bia", 2, Score(1, 1))
    assert on_2("bia") == [Score(1, 1)]  # unpinned: every read asks the log
    other.engine.dispose()


def test_a_matchs_picks_and_the_match_read_among_all_are_never_kept_past_a_write(
    played: Pool, database_url: str, clock: FakeClock
) -> None:
    other = Pool(open_database(database_url), clock)
    assert "caio" not in [p.handle for p in played.predictions_on(2)]
    played.matches()  # every match kept: match(2) is served from them
    assert played.match(2).result is None and played.match(2, with_goals=False).goals == ()
    other.predictions.place("caio", 2, Score(3, 1))
    assert ("caio", Score(3, 1)) in [(p.handle, p.score) for p in played.predictions_on(2)]
    play(other, clock, 2, "3-1")
    assert played.match(2).result == Result(Score(3, 1))
    played.matches()
    assert played.match(2).result == Result(Score(3, 1))
    other.engine.dispose()


def test_the_kinds_kept_as_read_are_what_the_log_says_with_every_filter(
    played: Pool, database_url: str, clock: FakeClock
) -> None:
    other = Pool(open_database(database_url), clock)
    assert [r.event.text for r in played.events_of(ChatPosted)] == []
    other.talk.chat("ana", "Brazil again?")
    assert [r.event.text for r in played.events_of(ChatPosted)] == ["Brazil again?"]
    play(other, clock, 2, "1-1", [Goal("home", 30, scorer="Rodrygo")])
    first_goal = played.events_of(GoalScored)[0]
    asks = [
        {},
        {"match_number": 2},
        {"after_id": first_goal.id},
        {"up_to_id": first_goal.id},
        {"since": first_goal.at},
    ]
    for kind in (GoalScored, ResultRecorded, ChatPosted, MatchKickedOff):
        for ask in asks:
            with other.work.read() as connection:
                told = list(log.read_of(connection, kind, **ask))
            assert played.events_of(kind, **ask) == told
    other.engine.dispose()


def test_a_pinned_turn_reads_again_after_it_reads_the_logs_events(
    played: Pool, database_url: str, clock: FakeClock
) -> None:
    other = Pool(open_database(database_url), clock)
    last = played.last_event_id()
    with played.pinned():
        assert played.events_of(ChatPosted) == [] and played.match(2).status.value == "scheduled"
        other.talk.chat("bia", "kick-off soon")
        other.fixtures.kick_off(2)
        new = played.events(after_id=last)  # what she reacts to
        assert [type(item.event) for item in new] == [ChatPosted, MatchKickedOff]
        assert played.match(2).status.value == "live"
        assert [r.event.text for r in played.events_of(ChatPosted)] == ["kick-off soon"]
    other.engine.dispose()


def test_a_pinned_turn_that_sees_a_kick_off_in_the_log_reads_the_match_live(
    played: Pool, database_url: str, clock: FakeClock
) -> None:
    other = Pool(open_database(database_url), clock)
    with played.pinned():
        assert played.match(2).status.value == "scheduled"
        other.fixtures.kick_off(2)
        assert 2 in [k.event.match for k in played.events_of(MatchKickedOff)]
        assert played.match(2).status.value == "live"
    other.engine.dispose()


def test_a_pinned_turn_reads_the_kept_kinds_at_one_moment_and_after_the_last_id(
    played: Pool, database_url: str, clock: FakeClock
) -> None:
    other = Pool(open_database(database_url), clock)
    with played.pinned():
        played.events_of(ResultRecorded)  # looked at once this turn
        play(other, clock, 2, "1-0")  # #2 kicks off and ends, elsewhere
        ended = {e.event.match for e in played.events_of(ResultRecorded)}
        started = {e.event.match for e in played.events_of(MatchKickedOff)}
        assert started - ended == set()  # no match taken for live with its result read
        other.talk.chat("bia", "hello")
        last = played.last_event_id()  # the chat's id, seen
        told = [c.event.text for c in played.events_of(ChatPosted, up_to_id=last)]
        assert told == ["hello"]
    other.engine.dispose()


def _every(pool: Pool) -> list[tuple[str, int, Score]]:
    return sorted((p.handle, p.match_number, p.score) for p in pool.all_predictions())


def test_every_pick_moved_on_by_the_log_is_every_pick_read_whole(
    tournament_pool: Pool, database_url: str, clock: FakeClock
) -> None:
    pool = tournament_pool
    other = Pool(open_database(database_url), clock)  # another process, the same database

    def read_whole() -> list[tuple[str, int, Score]]:
        return _every(Pool(pool.engine, clock))  # a pool that has read nothing yet

    pool.predictions.place("ana", 1, Score(2, 0))
    assert _every(pool) == read_whole() == [("ana", 1, Score(2, 0))]
    pool.predictions.place("ana", 1, Score(3, 0))  # changed: the same key, a new score
    other.predictions.place("bia", 2, Score(1, 1))  # written elsewhere: known by the log
    pool.predictions.place_all([("caio", 1, Score(0, 0)), ("bia", 1, Score(1, 2))])
    assert _every(pool) == read_whole()
    assert ("ana", 1, Score(3, 0)) in _every(pool)
    standing = pool.all_predictions()
    pool.extras.joker("ana", 1)  # moves the picks' mark and changes no pick
    assert pool.all_predictions() is standing
    pool.predictions.place("ana", 1, Score(3, 0))  # the pick it already is: no event
    assert pool.all_predictions() is standing
    other.engine.dispose()


def test_an_event_that_may_change_picks_it_does_not_name_has_them_read_whole(
    tournament_pool: Pool,
) -> None:
    pool = tournament_pool
    pool.predictions.place("ana", 1, Score(2, 0))
    assert _every(pool) == [("ana", 1, Score(2, 0))]
    # A write the log tells by a kind that names no pick: the picks are read again.
    with pool.engine.begin() as connection:
        connection.execute(update(predictions).values(home=5))
        log.append(connection, LifecycleRepaired(1, 1, "scheduled"), pool.clock())
    assert _every(pool) == [("ana", 1, Score(5, 0))]
