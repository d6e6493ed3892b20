from datetime import timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DatabaseError

from game.history import PoolHistory
from game.model import Goal, Result, Score
from game.scoring import ScoreBasis
from game.service import Pool
from tests.conftest import FakeClock


def test_the_database_refuses_to_update_or_delete_the_log(tournament_pool: Pool) -> None:
    tournament_pool.post_chat("ana", "first!")
    for statement in ("UPDATE events SET kind = 'chat'", "DELETE FROM events"):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            tournament_pool.engine.begin() as db,
        ):
            db.execute(text(statement))
    assert tournament_pool.events()[-1].event.payload() == {"player": "ana", "text": "first!"}


def test_ids_and_times_increase(tournament_pool: Pool, clock: FakeClock) -> None:
    tournament_pool.post_chat("ana", "one")
    clock.advance(minutes=1)
    tournament_pool.post_chat("bia", "two")
    logged = tournament_pool.events()
    assert [e.id for e in logged] == sorted({e.id for e in logged})
    assert logged[-1].at - logged[-2].at == timedelta(minutes=1)
    assert [e.id for e in tournament_pool.events(after_id=logged[-2].id)] == [logged[-1].id]


def test_every_kind_of_event_is_logged(tournament_pool: Pool) -> None:
    tournament_pool.place_prediction("ana", 1, Score(2, 0))
    tournament_pool.kick_off(1)
    tournament_pool.record_goal(1, Goal("home", 90, added=4, scorer="Vini"))
    tournament_pool.record_result(1, Result(Score(1, 0)))
    tournament_pool.post_chat("bia", "bah")
    tournament_pool.set_scoring("kicktipp")
    kinds = [e.event.kind for e in tournament_pool.events()]
    for kind in ("match_scheduled", "player_joined", "prediction_placed", "kickoff", "goal"):
        assert kind in kinds
    assert kinds[-3:] == ["result", "chat", "setting_changed"]


def test_listeners_hear_events_after_commit_and_not_after_a_rollback(
    tournament_pool: Pool,
) -> None:
    heard = []
    tournament_pool.subscribe(lambda item: heard.append(item.event.kind))
    tournament_pool.post_chat("ana", "hello")
    with pytest.raises(LookupError):
        tournament_pool.post_chat("nobody", "hello")
    assert heard == ["chat"]


def test_the_log_alone_rebuilds_the_same_standings(tournament_pool: Pool, clock: FakeClock) -> None:
    pool = tournament_pool
    picks = {
        "ana": ["2-0", "1-1", "0-1"],
        "bia": ["1-0", "2-2", "3-1"],
        "caio": ["0-2", "0-0", "0-1"],
    }
    for handle, scores in picks.items():
        for number, pick in enumerate(scores, start=1):
            pool.place_prediction(handle, number, Score.parse("9-9"))  # later changed
            pool.place_prediction(handle, number, Score.parse(pick))
    pool.record_result(1, Result(Score(2, 0)))
    pool.record_result(2, Result(Score(1, 1), extra_time=Score(2, 2), penalties=Score(5, 4)))
    pool.record_result(3, Result(Score(0, 1)))
    pool.record_result(3, Result(Score(0, 2)))  # a correction

    history = PoolHistory.from_log(pool.events())
    assert history.standings() == pool.standings()
    assert history.standings(up_to_match=1) == pool.standings(up_to_match=1)

    pool.set_scoring("kicktipp", ScoreBasis.NINETY)
    history = PoolHistory.from_log(pool.events())
    assert history.standings() == pool.standings()
    assert [(r.rank, r.player, r.points) for r in pool.standings()] == [
        (1, "ana", 10),
        (2, "bia", 5),
        (2, "caio", 5),
    ]
