"""What the joker and bonus commands answer, in the caller's language.

Only words: the commands (``frontends.commands``) parse and call the pool;
this turns what the pool did into the lines a player reads, and into JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from game import bonus
from game.errors import UserError
from game.jokers import GROUP_STAGE, JokerRefused
from game.model import Match
from game.pool.extras import BonusPick, BonusPlaced, ExtrasSettings, JokerMove
from game.render import table
from game.words import Words

JOKER_MARK = "\u00d72"  # times two, beside a pick with a joker, in every language
KIND_NAMES = {bonus.CHAMPION: "champion", bonus.SCORER: "top scorer"}
SQUADLESS_SHOWN = 3  # teams named when a scorer pick stands unchecked for want of their squads


def said(error: UserError, words: Words) -> str:
    """A refusal in ``words``; a joker's stage is said as the language names it."""
    if isinstance(error, JokerRefused) and isinstance(error.values.get("stage"), str):
        values = {**error.values, "stage": stage_name(str(error.values["stage"]), words)}
        return words(error.template, **values)
    return words.error(error)


def stage_name(stage: str, words: Words) -> str:
    """A joker's stage: a cup's group stage as one, else the round as the fixtures name it."""
    return words("group stage") if stage == GROUP_STAGE else words.stage(stage)


def joker_placed(move: JokerMove, words: Words) -> str:
    stage = stage_name(move.stage, words)
    if not move.placed:
        return words("your joker is already on {match}", match=move.match.label)
    if move.moved_from is not None:
        return words(
            "joker moved from #{old} to {match} ({stage}): your pick there counts double",
            old=move.moved_from.number,
            match=move.match.label,
            stage=stage,
        )
    return words(
        "joker on {match} ({stage}): your pick there counts double",
        match=move.match.label,
        stage=stage,
    )


def jokers_held(held: Sequence[int], settings: ExtrasSettings, words: Words) -> str:
    caps = words(
        "jokers per stage: {group} in a cup's group stage, {round} in each other round",
        group=settings.caps.group_stage,
        round=settings.caps.per_round,
    )
    if not held:
        return f"{words('no jokers yet: joker N')}\n{caps}"
    return f"{words('your jokers: {matches}', matches=_numbers(held))}\n{caps}"


def bonus_placed(placed: BonusPlaced, words: Words) -> str:
    pick = placed.pick
    kind = words(KIND_NAMES[pick.kind])
    if not placed.changed:
        line = words("your {kind} pick is already {value}", kind=kind, value=pick.value)
    elif placed.previous is not None:
        line = words(
            "your {kind} pick: {value} (was {previous})",
            kind=kind,
            value=pick.value,
            previous=placed.previous,
        )
    else:
        line = words("your {kind} pick: {value}", kind=kind, value=pick.value)
    if placed.squadless:
        others = len(placed.squadless) - SQUADLESS_SHOWN
        teams = ", ".join(placed.squadless[:SQUADLESS_SHOWN])
        teams += words(" and {count} more", count=others) if others > 0 else ""
        line += " " + words("(not checked: in no squad listed; no squad for {teams})", teams=teams)
    elif not placed.checked:
        line += " " + words("(not checked: the pool knows no scorers yet)")
    return line


def bonus_listing(
    picks: Iterable[BonusPick],
    shown_all: bool,
    hidden: int,
    first_kickoff: datetime | None,
    settings: ExtrasSettings,
    zone: ZoneInfo,
    words: Words,
    settled: BonusEnd | None = None,
) -> str:
    """The bonus picks a player may see: their own before the first kick-off, with how
    many others are hidden; everyone's after it; and once the tournament is over
    (``settled``), the champion, the top scorers and what each pick earned."""
    by_player: dict[str, dict[str, str]] = {}
    for pick in picks:
        by_player.setdefault(pick.handle, {})[pick.kind] = pick.value
    points = words(
        "bonus points: champion {champion}, top scorer {scorer}",
        champion=settings.champion_points,
        scorer=settings.scorer_points,
    )
    lines = []
    if settled is not None:
        lines.append(
            words(
                "the tournament is over: champion {champion}; top scorer {scorers}",
                champion=settled.champion or "-",
                scorers=", ".join(settled.scorers) or "-",
            )
        )
    if by_player:
        header = (
            words.each("player", "champion", "top scorer", "pts")
            if settled
            else words.each("player", "champion", "top scorer")
        )
        lines.append(
            table(
                header,
                [
                    (
                        handle,
                        kinds.get(bonus.CHAMPION, "-"),
                        kinds.get(bonus.SCORER, "-"),
                        *([settled.earned.get(handle, 0)] if settled else []),
                    )
                    for handle, kinds in sorted(by_player.items())
                ],
                right=(3,) if settled else (),
            )
        )
    else:
        lines.append(words("no bonus picks yet: bonus champion TEAM, bonus scorer NAME"))
    if not shown_all and first_kickoff is not None:
        lines.append(
            words(
                "others' bonus picks are hidden until the first kick-off ({when}): {count} made",
                when=words.when(first_kickoff, zone),
                count=hidden,
            )
        )
    lines.append(points)
    return "\n".join(lines)


@dataclass(frozen=True)
class BonusEnd:
    """The bonus picks settled: the champion, the top scorers as the goals name them,
    and each player's bonus points."""

    champion: str | None
    scorers: tuple[str, ...]
    earned: Mapping[str, int]


def bonus_json(picks: Iterable[BonusPick], shown_all: bool, settings: ExtrasSettings) -> str:
    shown: list[dict[str, Any]] = [
        {"player": p.handle, "kind": p.kind, "value": p.value, "key": p.key} for p in picks
    ]
    return json.dumps(
        {
            "picks": shown,
            "all_shown": shown_all,
            "points": {
                bonus.CHAMPION: settings.champion_points,
                bonus.SCORER: settings.scorer_points,
            },
        },
        ensure_ascii=False,
    )


def my_extras(picks: Sequence[BonusPick], held: Sequence[int], words: Words) -> list[str]:
    """``mybets``' lines under the picks: the bonus picks and the jokers."""
    kinds = {pick.kind: pick.value for pick in picks}
    lines = []
    if kinds:
        lines.append(
            words(
                "bonus: champion {champion}, top scorer {scorer}",
                champion=kinds.get(bonus.CHAMPION, "-"),
                scorer=kinds.get(bonus.SCORER, "-"),
            )
        )
    if held:
        lines.append(words("jokers ({mark}): {matches}", mark=JOKER_MARK, matches=_numbers(held)))
    return lines


def marked(text: str, joker: bool) -> str:
    return f"{text} {JOKER_MARK}" if joker else text


def first_kickoff(matches: Iterable[Match]) -> datetime | None:
    return min((m.kickoff for m in matches), default=None)


def _numbers(held: Iterable[int]) -> str:
    return ", ".join(f"#{number}" for number in held)
