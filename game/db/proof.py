"""The log proves the tables: what standings read, folded from the log and set against
the tables that hold it.

Every write of the pool appends its event in the transaction that makes it
(``UnitOfWork``), so the tables standings read (players, picks, fixtures and their
status, results, goals, jokers, bonus picks, settings, who is an admin) are a fold
of the log. The
hash chain (``game.db.chain``) proves the log was not cut or edited; this proves
the tables were not written around it: ``INSERT OR REPLACE INTO predictions`` by
someone holding the database file shows up as a row the log does not hold.

A match's tie (``first_leg``, ``away_goals``) is written with its fixture and
never logged, and neither is a player's key: they are not proved here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from game import lifecycle
from game.db import log
from game.db.schema import (
    bonus_picks,
    goals,
    jokers,
    matches,
    players,
    predictions,
    settings,
)
from game.events import (
    BonusPicked,
    Event,
    GoalScored,
    JokerPlaced,
    JokerRemoved,
    LifecycleRepaired,
    LoggedEvent,
    MatchKickedOff,
    MatchScheduled,
    PlayerJoined,
    PredictionPlaced,
    ResultRecorded,
    SettingChanged,
)
from game.model import MatchStatus, Score

# The kinds whose events write the tables standings read, and the lifecycle's own.
PROVING = (
    PlayerJoined,
    PredictionPlaced,
    MatchScheduled,
    GoalScored,
    ResultRecorded,
    JokerPlaced,
    JokerRemoved,
    BonusPicked,
    SettingChanged,
    MatchKickedOff,
    LifecycleRepaired,
)
NOTHING = "nothing"

Result = tuple[int | None, ...]  # ft, et and pen, home and away: None where not played
Goal = tuple[str, int, int, str, bool, bool]  # side, minute, added, scorer, penalty, own goal


@dataclass(frozen=True)
class Disagreement:
    """One row where a table and the log differ: ``table`` and the row's ``key``, what
    each holds (``NOTHING`` where one has no such row)."""

    table: str
    key: str
    in_table: str
    in_log: str

    def text(self) -> str:
        return f"{self.table} {self.key}: the table has {self.in_table}, the log {self.in_log}"


@dataclass
class TablesFromLog:
    """What the tables standings read must hold, as the log tells it."""

    handles: dict[str, bool] = field(default_factory=dict)  # every player: an admin?
    picks: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict)
    fixtures: dict[int, tuple[str, str, datetime]] = field(default_factory=dict)
    results: dict[int, Result] = field(default_factory=dict)
    goals: dict[int, Counter[Goal]] = field(default_factory=dict)
    jokers: set[tuple[str, int]] = field(default_factory=set)
    bonus: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    settings: dict[str, str] = field(default_factory=dict)
    lifecycle: lifecycle.LifecycleLog = field(default_factory=lifecycle.LifecycleLog)
    # when each row was placed, for a repair to write it as it was
    pick_at: dict[tuple[str, int], datetime] = field(default_factory=dict)
    joker_at: dict[tuple[str, int], datetime] = field(default_factory=dict)
    bonus_at: dict[tuple[str, str], datetime] = field(default_factory=dict)
    # what a repair writes back beside them, not compared (older logs may lack them)
    result_source: dict[int, str] = field(default_factory=dict)
    local_date: dict[int, str | None] = field(default_factory=dict)

    @classmethod
    def from_log(cls, events: Iterable[LoggedEvent[Event]]) -> TablesFromLog:
        folded = cls()
        for item in events:
            folded.apply(item.id, item.event)
        return folded

    def apply(self, event_id: int, event: Event) -> None:
        self.lifecycle.apply(event_id, event)
        match event:
            case PlayerJoined(player=handle, is_admin=is_admin):
                self.handles[handle] = is_admin
            case PredictionPlaced(player=handle, match=number, home=home, away=away):
                self.picks[(handle, number)] = (home, away)
                self.pick_at[(handle, number)] = event.placed_at
            case MatchScheduled(match=number, team1=team1, team2=team2, kickoff=kickoff):
                self.fixtures[number] = (team1, team2, as_utc(kickoff))
                self.local_date[number] = event.local_date
            case GoalScored():
                goal = (
                    event.side,
                    event.minute,
                    event.added,
                    event.scorer,
                    event.penalty,
                    event.own_goal,
                )
                self.goals.setdefault(event.match, Counter())[goal] += 1
            case ResultRecorded(match=number):
                self.result_source[number] = event.source
                result = event.result()
                self.results[number] = (
                    *_sides(result.full_time),
                    *_sides(result.extra_time),
                    *_sides(result.penalties),
                )
            case JokerPlaced(player=handle, match=number, moved_from=moved_from):
                self.jokers.discard((handle, moved_from or 0))
                self.jokers.add((handle, number))
                self.joker_at[(handle, number)] = event.placed_at
            case JokerRemoved(player=handle, match=number):
                self.jokers.discard((handle, number))
            case BonusPicked(player=handle, pick=kind, value=value, key=key):
                self.bonus[(handle, kind)] = (value, key)
                self.bonus_at[(handle, kind)] = event.placed_at
            case SettingChanged(key=key, value=value):
                self.settings[key] = value


def disagreements(connection: Connection) -> list[Disagreement]:
    """Every row where the tables standings read and the log differ, table by table."""
    kinds = tuple(kind.kind for kind in PROVING)
    folded = TablesFromLog.from_log(log.read(connection, kinds=kinds))
    rows = connection.execute(select(players.c.id, players.c.handle, players.c.is_admin)).all()
    handle_of = {row.id: row.handle for row in rows}
    found: list[Disagreement] = []
    found += _compare(
        "players",
        {row.handle: _role(row.is_admin) for row in rows},
        {handle: _role(admin) for handle, admin in folded.handles.items()},
    )
    picks = {
        (handle_of.get(row.player_id, f"id {row.player_id}"), row.match_number): (row.home, row.away)
        for row in connection.execute(
            select(predictions.c.player_id, predictions.c.match_number, predictions.c.home,
                   predictions.c.away)
        )
    }  # fmt: skip
    found += _compare(
        "predictions",
        {f"{h} #{n}": _score(s) for (h, n), s in picks.items()},
        {f"{h} #{n}": _score(s) for (h, n), s in folded.picks.items()},
    )
    rows = connection.execute(select(matches)).all()
    found += _compare(
        "matches",
        {f"#{r.number}": _fixture((r.team1, r.team2, as_utc(r.kickoff))) for r in rows},
        {f"#{n}": _fixture(f) for n, f in folded.fixtures.items()},
    )
    statuses = folded.lifecycle.statuses
    found += _compare(
        "matches",
        {f"#{r.number} status": r.status for r in rows},
        {f"#{n} status": statuses.get(n, MatchStatus.SCHEDULED).value for n in folded.fixtures},
    )
    table_results = {
        r.number: (r.ft_home, r.ft_away, r.et_home, r.et_away, r.pen_home, r.pen_away)
        for r in rows
        if r.ft_home is not None
    }
    found += _compare(
        "matches",
        {f"#{n} result": _result(r) for n, r in table_results.items()},
        {f"#{n} result": _result(r) for n, r in folded.results.items()},
    )
    table_goals: dict[int, Counter[Goal]] = {}
    for g in connection.execute(select(goals)):
        goal = (g.side, g.minute, g.added, g.scorer, g.penalty, g.own_goal)
        table_goals.setdefault(g.match_number, Counter())[goal] += 1
    found += _compare(
        "goals",
        {f"#{n}": _goals(c) for n, c in table_goals.items()},
        {f"#{n}": _goals(c) for n, c in folded.goals.items()},
    )
    held = connection.execute(select(jokers.c.player_id, jokers.c.match_number))
    found += _compare(
        "jokers",
        {f"{handle_of.get(p, f'id {p}')} #{n}": "a joker" for p, n in held},
        {f"{h} #{n}": "a joker" for h, n in folded.jokers},
    )
    bonus = connection.execute(
        select(bonus_picks.c.player_id, bonus_picks.c.kind, bonus_picks.c.value, bonus_picks.c.key)
    )
    found += _compare(
        "bonus_picks",
        {f"{handle_of.get(p, f'id {p}')} {k}": f"{v!r} ({key})" for p, k, v, key in bonus},
        {f"{h} {k}": f"{v!r} ({key})" for (h, k), (v, key) in folded.bonus.items()},
    )
    found += _compare(
        "settings",
        dict(connection.execute(select(settings.c.key, settings.c.value)).all()),
        folded.settings,
    )
    return found


def repair(connection: Connection) -> list[Disagreement]:
    """The tables standings read written anew from the log, in ``connection``'s
    transaction, when they disagree with it; the disagreements it found. A player or
    a match the log never wrote is left in place, and the log's rows for a player or
    a match the tables lack are not written: the next check names them still (who
    they are is for an admin to judge, not for a fold to delete or invent)."""
    found = disagreements(connection)
    if not found:
        return []
    folded = TablesFromLog.from_log(log.read(connection, kinds=tuple(k.kind for k in PROVING)))
    id_of = {h: i for i, h in connection.execute(select(players.c.id, players.c.handle))}
    # A row for a player or a match the tables lack is not written (its foreign key
    # would refuse it): the next check names it still.
    numbers = set(connection.execute(select(matches.c.number)).scalars())
    for handle, admin in folded.handles.items():  # an admin only as the log made them
        connection.execute(update(players).where(players.c.handle == handle).values(is_admin=admin))
    for table in (predictions, goals, jokers, bonus_picks, settings):
        connection.execute(delete(table))
    for (handle, number), (home, away) in folded.picks.items():
        if handle in id_of and number in numbers:
            connection.execute(
                insert(predictions).values(
                    player_id=id_of[handle], match_number=number, home=home, away=away,
                    placed_at=folded.pick_at[(handle, number)],
                )
            )  # fmt: skip
    for number, (team1, team2, kickoff) in folded.fixtures.items():
        status = folded.lifecycle.statuses.get(number, MatchStatus.SCHEDULED)
        ft, et, pen = _pairs(folded.results.get(number))
        connection.execute(
            update(matches)
            .where(matches.c.number == number)
            .values(
                team1=team1, team2=team2, kickoff=kickoff, status=status.value,
                ft_home=ft[0], ft_away=ft[1], et_home=et[0], et_away=et[1],
                pen_home=pen[0], pen_away=pen[1], result_source=folded.result_source.get(number),
                # a log from before ``local_date`` was kept leaves the table's as it is
                **({"local_date": day} if (day := folded.local_date.get(number)) else {}),
            )
        )  # fmt: skip
    for number, counted in folded.goals.items():
        if number not in numbers:
            continue
        for (side, minute, added, scorer, penalty, own_goal), times in counted.items():
            for _ in range(times):
                connection.execute(
                    insert(goals).values(
                        match_number=number, side=side, minute=minute, added=added,
                        scorer=scorer, penalty=penalty, own_goal=own_goal,
                    )
                )  # fmt: skip
    for handle, number in folded.jokers:
        if handle in id_of and number in numbers:
            at = folded.joker_at[(handle, number)]
            connection.execute(
                insert(jokers).values(player_id=id_of[handle], match_number=number, placed_at=at)
            )
    for (handle, kind), (value, key) in folded.bonus.items():
        if handle in id_of:
            connection.execute(
                insert(bonus_picks).values(
                    player_id=id_of[handle], kind=kind, value=value, key=key,
                    placed_at=folded.bonus_at[(handle, kind)],
                )
            )  # fmt: skip
    for key, value in folded.settings.items():
        connection.execute(insert(settings).values(key=key, value=value))
    return found


def _compare(table: str, held: dict[Any, str], told: dict[Any, str]) -> list[Disagreement]:
    found = []
    for key in sorted(set(held) | set(told), key=str):
        in_table, in_log = held.get(key, NOTHING), told.get(key, NOTHING)
        if in_table != in_log:
            found.append(Disagreement(table, str(key), in_table, in_log))
    return found


def _role(is_admin: bool) -> str:
    return "an admin" if is_admin else "a player"


def as_utc(moment: datetime) -> datetime:
    """A time read from either database as UTC: SQLite hands it back without a zone."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _sides(score: Score | None) -> tuple[int | None, int | None]:
    return (None, None) if score is None else (score.home, score.away)


def _pairs(result: Result | None) -> tuple[tuple[int | None, int | None], ...]:
    values = result or (None,) * 6
    return (values[0], values[1]), (values[2], values[3]), (values[4], values[5])


def _score(score: tuple[int, int]) -> str:
    return f"{score[0]}-{score[1]}"


def _fixture(fixture: tuple[str, str, datetime]) -> str:
    return f"{fixture[0]} v {fixture[1]} at {fixture[2].isoformat()}"


def _result(result: Result) -> str:
    parts = [f"{a}-{b}" for a, b in _pairs(result) if a is not None]
    return " ".join(parts)


def _goals(counted: Counter[Goal]) -> str:
    return ", ".join(
        f"{minute}{f'+{added}' if added else ''}' {side} {scorer}{' pen' if pen else ''}"
        f"{' og' if own else ''}" + (f" x{n}" if n > 1 else "")
        for (side, minute, added, scorer, pen, own), n in sorted(counted.items())
    )
