"""The repetition guard: a check in code, not a wish in the prompt.

A new remark about a player is refused when its wording is too close to one
already made about the same player in the last three days: compared with the
names, the teams and the numbers masked, so "Nothing on Spain 3-0 Austria for
nina" repeats "Nothing on Belgium 2-2 Senegal for nina". Whom a remark is about
is read from its text (``named_in``), not from what was asked for. The
commentator then tries another phrasing or stays silent.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from difflib import SequenceMatcher
from functools import cache, lru_cache
from typing import cast

from game.events import Event, LoggedEvent, RemarkPosted
from game.text import words_form
from prompts import stock_lines_in, stock_lines_said


def similarity(a: str, b: str, masks: Collection[str] = ()) -> float:
    return SequenceMatcher(None, masked(a, masks), masked(b, masks)).ratio()


def similar(a: str, b: str, threshold: float, masks: Collection[str] = ()) -> bool:
    """Whether ``similarity(a, b, masks)`` reaches ``threshold``: the two quick ratios are
    upper bounds of the ratio, so a pair they already put below it is never matched."""
    matcher = SequenceMatcher(None, masked(a, masks), masked(b, masks))
    return (
        matcher.real_quick_ratio() >= threshold
        and matcher.quick_ratio() >= threshold
        and matcher.ratio() >= threshold
    )


def masked(text: str, masks: Collection[str]) -> str:
    """``text`` normalised, each of ``masks`` (names, teams) as "§", each number as "#"."""
    # A remark is masked again for every later line it is held against, with the same
    # masks (the pool's names): kept, with the masks' patterns, until they change.
    return _masked(text, tuple(masks))


@lru_cache(maxsize=4096)
def _masked(text: str, masks: tuple[str, ...]) -> str:
    out = words_form(text)
    for pattern in _masking(masks):
        out = pattern.sub("§", out)
    return re.sub(r"\d+", "#", out)


@lru_cache(maxsize=16)
def _masking(masks: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """Each of ``masks`` normalised, as a whole word, the longest first: one replaced
    after the other, for a shorter name may be part of a longer one."""
    words = sorted({words_form(m) for m in masks if words_form(m)}, key=len, reverse=True)
    return tuple(re.compile(rf"(?<!\w){re.escape(word)}(?!\w)") for word in words)


def named_in(text: str, players: Mapping[str, str]) -> list[str]:
    """The players ``text`` names, by handle or display name, in the order it names them."""
    first: dict[str, int] = {}
    for start, _, handle in named_at(text, players):
        first.setdefault(handle, start)
    return sorted(first, key=first.__getitem__)


def named_at(text: str, players: Mapping[str, str]) -> list[tuple[int, int, str]]:
    """Every place ``text`` names a player, by handle or display name (not an @mention's
    tail, not inside a word): (start, end, handle), in the order of the text."""
    found: list[tuple[int, int, str]] = []
    for handle, name in players.items():
        for spelling in {handle.lower(), (name or handle).lower()}:
            found += [(m.start(), m.end(), handle) for m in _naming(spelling).finditer(text)]
    return sorted(found)


@cache
def _naming(spelling: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w@]){re.escape(spelling)}(?!\w)", re.IGNORECASE)


@dataclass(frozen=True)
class RepetitionGuard:
    threshold: float = 0.75  # a ratio of matching characters; 1.0 is the same line
    window: timedelta = timedelta(hours=72)  # about the same players
    # A stock line of the offline voice (``prompts.stock_lines``), about anyone or no one,
    # is said once a match day (a day in ``zone``), even inside a longer remark ("Picks
    # are crumbling." came 11 times in 31 matches, "Exact scores? Not one left
    # standing." twice in a row); and once in ``window`` about the same player ("That's
    # 4 blanks in a row for carla", then "That's 5 ..." the next day).
    zone: tzinfo = UTC

    def recent(
        self, remarks: Iterable[LoggedEvent[Event]], about: Iterable[str], now: datetime
    ) -> list[LoggedEvent[RemarkPosted]]:
        """Remarks in the window about any of the players in ``about``."""
        wanted = set(about)
        return [
            cast(LoggedEvent[RemarkPosted], item)
            for item in remarks
            if isinstance(item.event, RemarkPosted)
            and now - item.at <= self.window
            and wanted.intersection(item.event.about)
        ]

    def repeats(
        self,
        text: str,
        about: Iterable[str],
        remarks: Iterable[LoggedEvent[Event]],
        now: datetime,
        masks: Collection[str] = (),
    ) -> LoggedEvent[RemarkPosted] | None:
        """The earlier remark whose wording ``text`` repeats: about the same players
        within ``window`` (or a stock line of it said about them), or a stock line of it
        said earlier the same day."""
        remarks = list(remarks)
        said = stock_lines_in(text)  # a stock line anywhere in it, beside anything else
        if said:
            day = now.astimezone(self.zone).date()
            for item in remarks:
                if (
                    isinstance(item.event, RemarkPosted)
                    and item.at.astimezone(self.zone).date() == day
                    and said & stock_lines_in(item.event.text)
                ):
                    return cast(LoggedEvent[RemarkPosted], item)
        told = stock_lines_about(text, about)
        for item in self.recent(remarks, about, now):
            if told & stock_lines_about(item.event.text, about):
                return item
            if similar(text, item.event.text, self.threshold, masks):
                return item
        return None


def stock_lines_about(text: str, about: Iterable[str]) -> set[tuple[str, str]]:
    """(stock line, player) for each stock line ``text`` says naming one of ``about``
    in its own words: "New name at the top: bia" is about bia, not about ana beside it."""
    handles = {handle: handle for handle in about}
    return {
        (template, handle)
        for template, said in stock_lines_said(text)
        for _, _, handle in named_at(said, handles)
    }
