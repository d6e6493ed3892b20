"""Jokers: a pick that counts double, a few per stage.

A player puts a joker on match #N before it kicks off (by the server's clock)
and may move it until then; once that match has kicked off the joker stays.
How many a player holds is capped per stage: a cup's group stage is one stage
(two jokers by default), each knock-out round another (one each); a league's
rounds ("Matchday 5") one each. The caps are pool settings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from game.league import is_league, round_of
from game.model import Match
from game.rules import RuleViolation

GROUP_STAGE = "group stage"  # lowercase: words.stage reads "Group X" as a group
GROUP_JOKERS_KEY = "jokers_group_stage"  # pool settings: the cap in a cup's group stage
ROUND_JOKERS_KEY = "jokers_per_round"  # ... in each knock-out round or league round
DEFAULT_GROUP_JOKERS = 2
DEFAULT_ROUND_JOKERS = 1
MOST_JOKERS = 99  # a cap an admin may set


class JokerRefused(RuleViolation):
    pass


@dataclass(frozen=True)
class Caps:
    group_stage: int = DEFAULT_GROUP_JOKERS
    per_round: int = DEFAULT_ROUND_JOKERS

    @staticmethod
    def from_settings(settings: Mapping[str, str]) -> Caps:
        return Caps(
            int(settings.get(GROUP_JOKERS_KEY, DEFAULT_GROUP_JOKERS)),
            int(settings.get(ROUND_JOKERS_KEY, DEFAULT_ROUND_JOKERS)),
        )

    def of(self, stage: str) -> int:
        return self.group_stage if stage == GROUP_STAGE else self.per_round


def earned(points: int, jokered: bool) -> int:
    """What a pick that earned ``points`` counts for: twice that under a joker."""
    return points * 2 if jokered else points


def check_cap(text: str) -> int:
    """A cap as an admin types it: a whole number from 0 (no jokers) to ``MOST_JOKERS``."""
    if not text.strip().isdigit() or int(text) > MOST_JOKERS:
        raise JokerRefused(
            "a joker cap is a whole number from 0 to {most}, not {text!r}",
            most=MOST_JOKERS,
            text=text,
        )
    return int(text)


def stage_of(match: Match, league: bool) -> str:
    """The stage a joker of ``match`` counts in: a league's round ("Matchday 5"), a cup's
    group stage as one, each knock-out round by its name (both legs of a tie alike)."""
    if league:
        return f"Matchday {round_of(match)}"
    return match.stage if match.is_knockout else GROUP_STAGE


def stage_in(match: Match, matches: Sequence[Match]) -> str:
    """``stage_of`` ``match`` among the tournament's ``matches`` (a league or a cup)."""
    return stage_of(match, is_league(matches))


@dataclass(frozen=True)
class Move:
    """What ``joker N`` does: put one on ``match``, taking it off ``moved_from`` if set."""

    match: Match
    stage: str
    moved_from: Match | None = None


def place(
    match: Match,
    held: Iterable[Match],
    matches: Sequence[Match],
    caps: Caps,
    now: datetime,
) -> Move | None:
    """The joker ``joker N`` places on ``match``, given the matches the player's jokers
    are on (``held``) and the tournament's ``matches``; None when it is there already.

    Under the cap it is added. At the cap, the stage's one joker whose match has not
    kicked off moves here; a joker on a match that kicked off stays. Refused: a match
    that kicked off, no joker left to move, or two that could move (which one is
    the player's to say, with ``joker off``).
    """
    if any(m.number == match.number for m in held):
        return None
    if match.has_started(now):
        raise JokerRefused("{match} has kicked off: no joker on it now", match=match.label)
    stage = stage_in(match, matches)
    same = [m for m in held if stage_in(m, matches) == stage]
    cap = caps.of(stage)
    if cap == 0:
        raise JokerRefused("this pool plays no jokers in {stage}", stage=stage)
    if len(same) < cap:
        return Move(match, stage)
    movable = sorted((m for m in same if not m.has_started(now)), key=Match.time_order)
    if len(movable) == 1:
        return Move(match, stage, movable[0])
    if movable:
        raise JokerRefused(
            "your {cap} jokers for {stage} are on {matches}: take one off first (joker off N)",
            cap=cap,
            stage=stage,
            matches=", ".join(f"#{m.number}" for m in movable),
        )
    raise JokerRefused(
        "no joker left for {stage}: {cap} per stage, all on matches that kicked off",
        stage=stage,
        cap=cap,
    )


def check_can_remove(match: Match, held: Iterable[Match], now: datetime) -> None:
    """A joker comes off only a match that has not kicked off."""
    if all(m.number != match.number for m in held):
        raise JokerRefused("you have no joker on {match}", match=match.label)
    if match.has_started(now):
        raise JokerRefused("{match} has kicked off: its joker stays", match=match.label)
