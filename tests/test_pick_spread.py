"""A spread moved on by the picks that changed is the spread of every pick, whole."""

import random
from datetime import UTC, datetime, timedelta

from game.model import Prediction, Score
from memory.pick_spread import MOVED_MOST, Spread, spread

PLAYERS = ("ana", "bia", "caio", "duda", "eli")
START = datetime(2026, 6, 11, 19, tzinfo=UTC)
# Twelve matches, two kicking off together, and numbers out of kick-off order.
ORDER = {n: (START + timedelta(hours=3 * ((n * 7) % 12) - (n == 5) * 3), n) for n in range(1, 13)}
KEY = (PLAYERS, "kick-offs")


def parts(found: Spread) -> tuple[object, ...]:
    return (found.mine, found.counts, found.scores, found.picked, found.pickers, found.on)


def a_pick(draw: random.Random, handle: str, number: int) -> Prediction:
    return Prediction(handle, number, Score(draw.randint(0, 4), draw.randint(0, 4)))


def test_a_spread_moved_on_pick_by_pick_is_the_whole_spread() -> None:
    draw = random.Random(2026)
    picks = {(h, n): a_pick(draw, h, n) for h in PLAYERS for n in range(1, 7)}
    every = tuple(picks.values())
    kept = spread(every, PLAYERS, ORDER, KEY)
    assert kept.moved is None  # spread whole: nothing to move on from
    for _ in range(300):
        # As the pool's picks move: some changed in place, some new at the end, now and
        # then someone's pick of a match no player may pick (another pool's player).
        for _ in range(draw.randint(1, 6)):
            handle, number = draw.choice((*PLAYERS, "outsider")), draw.randint(1, 12)
            picks[handle, number] = a_pick(draw, handle, number)
        before, every = every, tuple(picks.values())
        moved = spread(every, PLAYERS, ORDER, KEY, kept)
        assert parts(moved) == parts(spread(every, PLAYERS, ORDER, KEY))
        assert moved.base is before and moved.moved is not None
        changed = {p.match_number for p in set(every) ^ set(before)}
        assert changed <= moved.moved
        kept = moved
    # Each player's picks in the order played, whatever order they came in.
    assert [p.match_number for p in kept.mine["ana"]] == sorted(
        (p.match_number for p in kept.mine["ana"]), key=ORDER.__getitem__
    )


def test_the_same_picks_are_the_same_spread() -> None:
    draw = random.Random(7)
    every = tuple(a_pick(draw, h, n) for h in PLAYERS for n in (1, 2))
    kept = spread(every, PLAYERS, ORDER, KEY)
    assert spread(every, PLAYERS, ORDER, KEY, kept) is kept


def test_many_changed_picks_another_key_or_an_unknown_match_spread_whole() -> None:
    draw = random.Random(11)
    every = tuple(a_pick(draw, h, n) for h in (*PLAYERS, "fabio", "gil") for n in range(1, 13))
    kept = spread(every, PLAYERS, ORDER, KEY)
    shuffled = tuple(draw.sample(every, len(every)))  # read whole again, in another order
    assert len(every) > MOVED_MOST
    assert spread(shuffled, PLAYERS, ORDER, KEY, kept).moved is None
    replaced = (*every[:-1], a_pick(draw, "ana", 12))
    assert spread(replaced, PLAYERS, ORDER, (PLAYERS, "other kick-offs"), kept).moved is None
    unknown = (*every, Prediction("ana", 99, Score(1, 0)))  # a match with no place
    moved = spread(unknown, PLAYERS, ORDER, KEY, kept)
    assert moved.moved is None and parts(moved) == parts(spread(unknown, PLAYERS, ORDER, KEY))


def test_a_pick_gone_leaves_no_trace_of_its_score_or_its_picker() -> None:
    every = (Prediction("ana", 1, Score(3, 2)), Prediction("bia", 2, Score(0, 0)))
    kept = spread(every, PLAYERS, ORDER, KEY)
    assert kept.picked == {(3, 2), (2, 3), (0, 0)}
    moved = spread(every[1:], PLAYERS, ORDER, KEY, kept)
    assert moved.moved == {1, 2}  # every pick moved a place
    assert (3, 2) not in moved.scores and (2, 3) not in moved.picked
    assert 1 not in moved.pickers and 1 not in moved.on and moved.mine["ana"] == []


def test_a_pick_of_a_match_with_no_place_kept_from_the_whole_spread_stays_first() -> None:
    """Found in review: it was sorted by a place it does not have, and raised."""
    every = (Prediction("ana", 1, Score(1, 0)), Prediction("ana", 99, Score(2, 2)))
    kept = spread(every, PLAYERS, ORDER, KEY)
    more = (*every, Prediction("ana", 2, Score(0, 0)))
    moved = spread(more, PLAYERS, ORDER, KEY, kept)
    assert moved.moved == {2} and parts(moved) == parts(spread(more, PLAYERS, ORDER, KEY))
    assert moved.mine["ana"][0].match_number == 99
