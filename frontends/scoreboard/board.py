"""What the scoreboard shows, read from the pool in one go: nothing private in it.

Handles, team names, scores, picks of matches already kicked off, her remarks:
what any player of the pool already sees. No keys, no invite or link codes, no
facts players told her, no picks before kick-off.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from game.events import RemarkPosted
from game.model import Match, MatchStatus
from game.pool import Pool
from game.shares import Shares, shares_of
from game.standings import StandingRow

RACE_PLAYERS = 5
UPCOMING = 5
REMARKS = 2


@dataclass(frozen=True)
class InPlay:
    match: Match
    home: int
    away: int
    alive: tuple[str, ...]  # players whose pick can still be exact: no side past it yet
    shares: Shares | None = None  # how the pool picked it: None until its kick-off


@dataclass(frozen=True)
class PostedRemark:
    at: datetime
    speaker: str
    text: str


@dataclass(frozen=True)
class Board:
    table: tuple[StandingRow, ...]
    live: bool  # the table counts the matches in play at their running score
    in_play: tuple[InPlay, ...]
    upcoming: tuple[Match, ...]
    remarks: tuple[PostedRemark, ...]
    race: dict[str, list[int]]


class RaceCache:
    """The race is a table per finished match: read again only when it can differ.

    A goal in a match in play moves the live table, not the race: the race
    changes with a result (or a correction) and with the table of finished
    matches, which is what the key holds.
    """

    def __init__(self) -> None:
        self.key: object = None
        self.race: dict[str, list[int]] = {}

    def read(self, pool: Pool, matches: list[Match]) -> dict[str, list[int]]:
        finished = tuple(
            (m.number, str(m.result)) for m in matches if m.status is MatchStatus.FINISHED
        )
        key = (finished, tuple(pool.standings()))
        if key != self.key:
            self.race, self.key = pool.race(RACE_PLAYERS), key
        return self.race


def read_board(pool: Pool, races: RaceCache | None = None) -> Board:
    table, playing = pool.live_table()
    in_play = tuple(_in_play(pool, match) for match in playing)
    matches = pool.matches()
    scheduled = [m for m in matches if m.status is MatchStatus.SCHEDULED]
    upcoming = tuple(sorted(scheduled, key=Match.time_order)[:UPCOMING])
    return Board(
        table=tuple(table),
        live=bool(in_play),
        in_play=in_play,
        upcoming=upcoming,
        remarks=_remarks(pool),
        race=(races or RaceCache()).read(pool, matches),
    )


def _in_play(pool: Pool, match: Match) -> InPlay:
    now = match.score_at()
    home, away = now.home, now.away
    picks = pool.predictions_on(match.number)  # shown only once the match has kicked off
    alive = tuple(p.handle for p in picks if p.score.home >= home and p.score.away >= away)
    return InPlay(match, home, away, alive, shares_of(match, picks, pool.clock()))


def _remarks(pool: Pool) -> tuple[PostedRemark, ...]:
    said = pool.events_of(RemarkPosted)[-REMARKS:]
    names = {p.handle: p.display_name for p in pool.players()}
    return tuple(
        PostedRemark(item.at, names.get(item.event.player, item.event.player), item.event.text)
        for item in reversed(said)
    )
