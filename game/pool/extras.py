"""Jokers and bonus picks: written with their rules checked in the same transaction.

The rules are ``game.jokers`` and ``game.bonus``; this desk reads what they need
(the matches, the player's jokers, the settings) inside the transaction that
writes, which holds the writer's lock, so two racing commands cannot both pass
a cap that only one fits under.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, Delete, delete, insert, select, update

from game import bonus, jokers, squads
from game.db import views
from game.db.schema import bonus_picks, players, settings, squad_players
from game.db.schema import jokers as joker_rows
from game.events import (
    BonusPicked,
    Event,
    JokerPlaced,
    JokerRemoved,
    LoggedEvent,
    SquadListed,
)
from game.model import Match
from game.pool.talk import faked_line
from game.pool.work import (
    UnitOfWork,
    require_match,
    require_player_id,
    write_setting,
)
from game.rules import RuleViolation
from game.squads import SquadRow
from game.text import clean_line


class BonusClosed(RuleViolation):
    pass


@dataclass(frozen=True)
class JokerMove:
    """A joker placed: on ``match``, in ``stage``, moved from ``moved_from`` if it was;
    ``placed`` False when it was there already."""

    match: Match
    stage: str
    moved_from: Match | None
    placed: bool


@dataclass(frozen=True)
class BonusPick:
    handle: str
    kind: str  # bonus.CHAMPION or bonus.SCORER
    value: str  # as the player named it (a champion: the team as the fixtures name it)
    key: str  # what it is scored by
    placed_at: datetime


@dataclass(frozen=True)
class BonusPlaced:
    pick: BonusPick
    previous: str | None
    changed: bool
    checked: bool  # a scorer checked against the names the pool knows
    # a scorer no listed squad holds, taken unchecked: the teams with no squad listed
    squadless: tuple[str, ...] = ()


@dataclass(frozen=True)
class SquadsImported:
    listed: dict[str, int]  # each team listed (as the fixtures name it): its players
    refused: list[str]  # a line for each row not taken (its team is not in the tournament)


@dataclass(frozen=True)
class ExtrasSettings:
    caps: jokers.Caps
    champion_points: int
    scorer_points: int


class Extras:
    """Jokers (a pick that counts double) and bonus picks (champion, top scorer)."""

    def __init__(self, work: UnitOfWork) -> None:
        self._work = work

    # -- jokers ---------------------------------------------------------------

    def joker(self, handle: str, number: int) -> JokerMove:
        """Put the player's joker on match #N, before it kicks off, within the stage's cap
        (at the cap, the stage's one joker still movable moves here)."""

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> JokerMove:
            match = require_match(connection, number, with_goals=False)
            player_id = require_player_id(connection, handle)
            every = views.all_matches(connection)
            held = _held(connection, player_id, every)
            now = self._work.clock()
            move = jokers.place(match, held, every, _settings(connection).caps, now)
            if move is None:
                return JokerMove(match, jokers.stage_in(match, every), None, False)
            if move.moved_from is not None:
                connection.execute(_joker_of(player_id, move.moved_from.number))
            connection.execute(
                insert(joker_rows).values(player_id=player_id, match_number=number, placed_at=now)
            )
            moved = None if move.moved_from is None else move.moved_from.number
            self._work.append(connection, logged, JokerPlaced(handle, number, now, moved))
            return JokerMove(match, move.stage, move.moved_from, True)

        return self._work.commit(work)

    def joker_off(self, handle: str, number: int) -> Match:
        """Take the player's joker off match #N, before it kicks off."""

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> Match:
            match = require_match(connection, number, with_goals=False)
            player_id = require_player_id(connection, handle)
            held = _held(connection, player_id, [match])
            jokers.check_can_remove(match, held, self._work.clock())
            connection.execute(_joker_of(player_id, number))
            self._work.append(connection, logged, JokerRemoved(handle, number))
            return match

        return self._work.commit(work)

    def jokers_of(self, handle: str) -> list[int]:
        """The matches the player's jokers are on, by number."""
        query = (
            select(joker_rows.c.match_number)
            .join(players, players.c.id == joker_rows.c.player_id)
            .where(players.c.handle == handle)
            .order_by(joker_rows.c.match_number)
        )
        with self._work.read() as connection:
            return list(connection.execute(query).scalars())

    def all_jokers(self) -> frozenset[tuple[str, int]]:
        """Every joker of the pool, as (player, match number)."""
        query = select(players.c.handle, joker_rows.c.match_number).join(
            players, players.c.id == joker_rows.c.player_id
        )
        with self._work.read() as connection:
            return frozenset((row.handle, row.match_number) for row in connection.execute(query))

    def jokers_on(self, number: int) -> set[str]:
        """The handles of the players with a joker on match #N."""
        query = (
            select(players.c.handle)
            .join(joker_rows, players.c.id == joker_rows.c.player_id)
            .where(joker_rows.c.match_number == number)
        )
        with self._work.read() as connection:
            return set(connection.execute(query).scalars())

    # -- bonus picks ----------------------------------------------------------

    def bonus(self, handle: str, kind: str, named: str) -> BonusPlaced:
        """Name the champion or the top scorer, until the tournament's first kick-off.

        A champion must be one of the tournament's teams, in any spelling the team
        book knows; a scorer one of those the goals name, when the pool knows any, else
        one of the squads listed, as ``game.squads.check_scorer`` reads them (a team
        with no squad never refuses a name). Either way the pick is stored as the player
        wrote it; at the end one a squad lists is read as that team's player
        (``game.squads.earned``).
        """
        if kind not in bonus.KINDS:
            raise RuleViolation("a bonus pick is champion or scorer, not {kind!r}", kind=kind)

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> BonusPlaced:
            player_id = require_player_id(connection, handle)
            every = views.all_matches(connection)
            now = self._work.clock()
            check_bonus_open(every, now)
            checked, squadless = True, tuple[str, ...]()
            if kind == bonus.CHAMPION:
                value = key = bonus.champion_pick(named, bonus.teams_of(every))
            else:
                value = clean_line(" ".join(named.split()))
                # Free text in everyone's bonus table: held to what a chat line is.
                faked = faked_line(connection, value)
                if faked is not None:
                    raise RuleViolation(
                        "a bonus pick cannot hold {faked!r}: it reads as someone's line",
                        faked=faked,
                    )
                key, checked = bonus.scorer_pick(value, bonus.scorers_of(every))
                listed = views.listed_squads(connection) if not checked else {}
                if listed:  # no goals yet: the squads check the name, and only check it
                    check = squads.check_scorer(value, listed, bonus.teams_of(every))
                    checked, squadless = check.found, check.squadless
            where = (bonus_picks.c.player_id == player_id) & (bonus_picks.c.kind == kind)
            before = connection.execute(select(bonus_picks.c.value).where(where)).scalar()
            pick = BonusPick(handle, kind, value, key, now)
            if before == value:
                return BonusPlaced(pick, before, False, checked, squadless)
            row = {"value": value, "key": key, "placed_at": now}
            if before is None:
                connection.execute(
                    insert(bonus_picks).values(player_id=player_id, kind=kind, **row)
                )
            else:
                connection.execute(update(bonus_picks).where(where).values(**row))
            event = BonusPicked(handle, kind, value, key, now, before)
            self._work.append(connection, logged, event)
            return BonusPlaced(pick, before, True, checked, squadless)

        return self._work.commit(work)

    def import_squads(self, rows: Iterable[SquadRow]) -> SquadsImported:
        """List the teams' squads: each team named replaces its earlier list whole (logged
        as ``SquadListed``); a row whose team is not in the tournament is refused by its
        line, and a team listing more than ``squads.SQUAD_LARGEST`` players whole; the
        rest taken."""

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> SquadsImported:
            teams = bonus.teams_of(views.all_matches(connection))
            by_team: dict[str, list[str]] = {}
            refused: list[str] = []
            known: dict[str, str | RuleViolation] = {}  # each spelling read once
            for row in rows:
                if row.team not in known:
                    try:
                        known[row.team] = bonus.champion_pick(row.team, teams)
                    except RuleViolation as error:
                        known[row.team] = error
                team = known[row.team]
                if isinstance(team, RuleViolation):
                    refused.append(f"line {row.line}: {team}")
                    continue
                by_team.setdefault(team, []).append(row.name)
            now = self._work.clock()
            listed: dict[str, int] = {}
            for team, written in sorted(by_team.items()):
                names = squads.distinct(written)
                if len(names) > squads.SQUAD_LARGEST:
                    largest = squads.SQUAD_LARGEST
                    refused.append(f"{team}: {len(names)} players, a squad lists at most {largest}")
                    continue
                connection.execute(delete(squad_players).where(squad_players.c.team == team))
                connection.execute(
                    insert(squad_players), [{"team": team, "name": name} for name in names]
                )
                self._work.append(connection, logged, SquadListed(team, names, now))
                listed[team] = len(names)
            return SquadsImported(listed, refused)

        return self._work.commit(work)

    def squads(self) -> dict[str, tuple[str, ...]]:
        """{team: its players} of every squad listed."""
        with self._work.read() as connection:
            return views.listed_squads(connection)

    def bonus_picks(self, handle: str | None = None) -> list[BonusPick]:
        """Everyone's bonus picks (or one player's), by player then kind."""
        query = select(
            players.c.handle,
            bonus_picks.c.kind,
            bonus_picks.c.value,
            bonus_picks.c.key,
            bonus_picks.c.placed_at,
        ).join(players, players.c.id == bonus_picks.c.player_id)
        if handle is not None:
            query = query.where(players.c.handle == handle)
        with self._work.read() as connection:
            rows = connection.execute(query.order_by(players.c.handle, bonus_picks.c.kind))
            return [BonusPick(*row) for row in rows]

    # -- settings -------------------------------------------------------------

    def settings(self) -> ExtrasSettings:
        with self._work.read() as connection:
            return _settings(connection)

    def configure(
        self,
        group_stage_jokers: int | None = None,
        round_jokers: int | None = None,
        champion_points: int | None = None,
        scorer_points: int | None = None,
    ) -> ExtrasSettings:
        """An admin's settings: the joker caps and the bonus picks' points."""
        wanted = {
            jokers.GROUP_JOKERS_KEY: group_stage_jokers,
            jokers.ROUND_JOKERS_KEY: round_jokers,
            bonus.CHAMPION_POINTS_KEY: champion_points,
            bonus.SCORER_POINTS_KEY: scorer_points,
        }
        for value in wanted.values():
            if value is not None and not 0 <= value <= jokers.MOST_JOKERS:
                raise RuleViolation(
                    "a setting here is a whole number from 0 to {most}, not {value}",
                    most=jokers.MOST_JOKERS,
                    value=value,
                )

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> ExtrasSettings:
            for key, value in wanted.items():
                if value is not None:
                    write_setting(self._work, connection, logged, key, str(value))
            return _settings(connection)

        return self._work.commit(work)


def check_bonus_open(matches: Iterable[Match], now: datetime) -> None:
    """Bonus picks close when the tournament's first match kicks off (by the server's
    clock, or an admin's kick-off before it)."""
    started = [m for m in matches if m.has_started(now)]
    if started:
        first = min(started, key=Match.time_order)
        raise BonusClosed("bonus picks closed when {match} kicked off", match=first.label)


def bonus_open(matches: Iterable[Match], now: datetime) -> bool:
    try:
        check_bonus_open(matches, now)
    except BonusClosed:
        return False
    return True


def _held(connection: Connection, player_id: int, every: Iterable[Match]) -> list[Match]:
    numbers = set(
        connection.execute(
            select(joker_rows.c.match_number).where(joker_rows.c.player_id == player_id)
        ).scalars()
    )
    return [m for m in every if m.number in numbers]


def _joker_of(player_id: int, number: int) -> Delete:
    return delete(joker_rows).where(
        (joker_rows.c.player_id == player_id) & (joker_rows.c.match_number == number)
    )


def _settings(connection: Connection) -> ExtrasSettings:
    rows = connection.execute(select(settings.c.key, settings.c.value))
    stored = {key: value for key, value in rows}
    return ExtrasSettings(jokers.Caps.from_settings(stored), *bonus.points(stored))
