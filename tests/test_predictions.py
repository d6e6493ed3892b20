from datetime import timedelta

import pytest

from game.model import Score
from game.pool import NotFound, Pool
from game.rules import PredictionLocked, RuleViolation
from tests.conftest import FakeClock


def test_a_pick_can_change_until_kickoff_and_every_change_is_logged(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    first = tournament_pool.predictions.place("ana", 1, Score(1, 0)).placed
    changed = tournament_pool.predictions.place("ana", 1, Score(2, 0)).placed
    assert first is not None and first.previous is None
    assert changed is not None and changed.previous == "1-0"
    placed = [e.event for e in tournament_pool.events() if e.event.kind == "prediction_placed"]
    assert [(e.home, e.away, e.previous) for e in placed] == [(1, 0, None), (2, 0, "1-0")]


def test_the_same_pick_again_logs_nothing(tournament_pool: Pool) -> None:
    tournament_pool.predictions.place("ana", 1, Score(1, 0))
    before = len(tournament_pool.events())
    again = tournament_pool.predictions.place("ana", 1, Score(1, 0))
    assert again.placed is None and again.match.number == 1
    assert len(tournament_pool.events()) == before


def test_picks_close_at_kickoff_by_the_servers_clock(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    kickoff = tournament_pool.match(1).kickoff
    clock.now = kickoff - timedelta(seconds=1)
    tournament_pool.predictions.place("ana", 1, Score(1, 0))
    clock.now = kickoff
    with pytest.raises(PredictionLocked, match="kicked off"):
        tournament_pool.predictions.place("ana", 1, Score(3, 0))
    with pytest.raises(PredictionLocked):
        tournament_pool.predictions.place("bia", 1, Score(3, 0))
    # the refused change left the earlier pick alone
    assert [p.score for p in tournament_pool.predictions_of("ana")] == [Score(1, 0)]


def test_picks_placed_together_are_each_a_pick_and_all_or_none_stand(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    placed = tournament_pool.predictions.place_all(
        [("ana", 1, Score(1, 0)), ("bia", 1, Score(0, 2))]
    )
    assert [p.placed.previous if p.placed else "same" for p in placed] == [None, None]
    kinds = [e.event.kind for e in tournament_pool.events()][-2:]
    assert kinds == ["prediction_placed", "prediction_placed"]
    clock.now = tournament_pool.match(1).kickoff
    with pytest.raises(PredictionLocked):  # #1 has kicked off: #2's pick is not kept either
        tournament_pool.predictions.place_all([("ana", 2, Score(3, 3)), ("ana", 1, Score(4, 0))])
    assert [(p.match_number, p.score) for p in tournament_pool.predictions_of("ana")] == [
        (1, Score(1, 0))
    ]


def test_a_match_kicked_off_early_by_an_admin_is_locked(tournament_pool: Pool) -> None:
    tournament_pool.fixtures.kick_off(2)
    with pytest.raises(PredictionLocked):
        tournament_pool.predictions.place("ana", 2, Score(1, 0))
    with pytest.raises(RuleViolation, match="already live"):
        tournament_pool.fixtures.kick_off(2)


def test_unknown_match_and_player_are_named(tournament_pool: Pool) -> None:
    with pytest.raises(NotFound, match="no match #99"):
        tournament_pool.predictions.place("ana", 99, Score(1, 0))
    with pytest.raises(NotFound, match="no player 'zed'"):
        tournament_pool.predictions.place("zed", 1, Score(1, 0))


def test_handles_are_checked_and_unique(pool: Pool) -> None:
    pool.members.add("ana")
    with pytest.raises(RuleViolation, match="taken"):
        pool.members.add("ana")
    for bad in ("Ana", "1ana", "a b", "", "x" * 33, "ana\x1b[2J"):
        with pytest.raises(RuleViolation, match="bad handle"):
            pool.members.add(bad)


def test_a_key_belongs_to_one_player(pool: Pool) -> None:
    key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTests ana@laptop"
    pool.members.add("ana", keys=[key])
    pool.members.add("bia")
    pool.members.add_key(
        "ana", key.replace("ana@laptop", "other comment")
    )  # the same key again: fine
    with pytest.raises(RuleViolation, match="another player"):
        pool.members.add_key("bia", key)
    player = pool.player("ana")
    assert player is not None and player.keys == (
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTests",
    )
