"""Every pick of the pool spread out for her records: each player's picks in the order
played, the scores picked, who picked each match and how.

Her records are read again at each moment of the pool, and between two moments the
picks that change are a few (the players' picks of the next match) among thousands.
So a spread is moved on by the picks that changed since the last one, told apart by
identity: a pick that stands is the same object from read to read
(``Pool.all_predictions``). Many changed picks, another player or another kick-off
time, and it is spread whole again. Either way it is the same spread.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import compress
from operator import is_not

from game.model import Prediction

MOVED_MOST = 64  # picks changed since the last spread past which it is spread whole again

Order = Mapping[int, tuple[datetime, int]]  # match -> its place in the order played


@dataclass(frozen=True)
class Spread:
    """``source`` spread out for the players and kick-offs ``key`` names; shared, its
    parts never changed after it is built."""

    source: tuple[Prediction, ...]
    key: object
    mine: dict[str, list[Prediction]]  # each player's picks, in the order played
    counts: dict[tuple[int, int], int]  # each score picked -> by how many picks
    scores: set[tuple[int, int]]  # the scores picked
    picked: set[tuple[int, int]]  # the scores picked, either way round
    pickers: dict[int, set[str]]  # match -> who picked it
    on: dict[int, list[Prediction]]  # match -> its picks, in the players' order
    # The matches whose picks changed since the spread this one was moved on from
    # (``base``'s): None when spread whole.
    moved: frozenset[int] | None = None
    base: tuple[Prediction, ...] | None = None


def spread(
    every: tuple[Prediction, ...],
    players: Sequence[str],
    order: Order,
    key: object,
    kept: Spread | None = None,
) -> Spread:
    """``every`` pick spread out for ``players``, ``kept`` moved on when it was spread for
    the same ``key`` (the players and kick-off times ``order`` comes from)."""
    if kept is not None and kept.key == key:
        if kept.source is every:
            return kept
        moved = _moved_on(kept, every, players, order)
        if moved is not None:
            return moved
    return _whole(every, players, order, key)


def _whole(
    every: tuple[Prediction, ...], players: Sequence[str], order: Order, key: object
) -> Spread:
    by_player: dict[str, list[Prediction]] = {}
    for prediction in every:
        by_player.setdefault(prediction.handle, []).append(prediction)
    mine: dict[str, list[Prediction]] = {}
    counts: dict[tuple[int, int], int] = {}
    pickers: dict[int, set[str]] = {}
    on: dict[int, list[Prediction]] = {}
    # Read once per pick, into locals: this loop runs over every pick of the pool.
    for handle in players:
        picks = mine[handle] = sorted(
            by_player.get(handle, []), key=lambda p: order.get(p.match_number, ())
        )
        for prediction in picks:
            number, score = prediction.match_number, prediction.score
            pair = (score.home, score.away)
            counts[pair] = counts.get(pair, 0) + 1
            if number in pickers:
                pickers[number].add(handle)
                on[number].append(prediction)
            else:
                pickers[number] = {handle}
                on[number] = [prediction]
    return _spread(every, key, mine, counts, pickers, on)


def _moved_on(
    kept: Spread, every: tuple[Prediction, ...], players: Sequence[str], order: Order
) -> Spread | None:
    """``kept`` moved on to ``every`` by the picks that differ; None when they are many,
    or one is of a match ``order`` does not know (whose place is the read's order)."""
    old = kept.source
    # Position by position, in C: the picks of a pool are read in the order they were
    # first read, a changed pick in its place and a new one at the end (``EveryPick``);
    # in any other order more differ, and past MOVED_MOST it is spread whole.
    changed = list(compress(range(min(len(old), len(every))), map(is_not, old, every)))
    if len(changed) + abs(len(every) - len(old)) > MOVED_MOST:
        return None
    gone = [old[i] for i in changed] + list(old[len(every) :])
    came = [every[i] for i in changed] + list(every[len(old) :])
    moved = frozenset(p.match_number for p in (*gone, *came))
    if not moved <= order.keys():
        return None
    ours = set(players)  # a pick of someone else is in no spread
    gone = [p for p in gone if p.handle in ours]
    came = [p for p in came if p.handle in ours]
    left = {id(p) for p in gone}
    mine, counts = dict(kept.mine), dict(kept.counts)
    for handle in {p.handle for p in (*gone, *came)}:
        picks = [p for p in mine[handle] if id(p) not in left]
        picks += [p for p in came if p.handle == handle]
        # A pick spread whole may be of a match with no place (first, as ``_whole`` has it).
        mine[handle] = sorted(picks, key=lambda p: order.get(p.match_number, ()))
    for prediction in gone:
        pair = (prediction.score.home, prediction.score.away)
        counts[pair] -= 1
        if not counts[pair]:
            del counts[pair]
    for prediction in came:
        pair = (prediction.score.home, prediction.score.away)
        counts[pair] = counts.get(pair, 0) + 1
    pickers, on = dict(kept.pickers), dict(kept.on)
    place = {handle: i for i, handle in enumerate(players)}
    for number in {p.match_number for p in (*gone, *came)}:
        picks = [p for p in on.get(number, []) if id(p) not in left]
        picks += [p for p in came if p.match_number == number]
        if picks:
            on[number] = sorted(picks, key=lambda p: place[p.handle])
            pickers[number] = {p.handle for p in picks}
        else:
            on.pop(number, None)
            pickers.pop(number, None)
    return _spread(every, kept.key, mine, counts, pickers, on, moved, old)


def _spread(
    every: tuple[Prediction, ...],
    key: object,
    mine: dict[str, list[Prediction]],
    counts: dict[tuple[int, int], int],
    pickers: dict[int, set[str]],
    on: dict[int, list[Prediction]],
    moved: frozenset[int] | None = None,
    base: tuple[Prediction, ...] | None = None,
) -> Spread:
    scores = set(counts)
    picked = scores | {(away, home) for home, away in scores}
    return Spread(every, key, mine, counts, scores, picked, pickers, on, moved, base)
