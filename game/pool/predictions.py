"""Predictions: the picks and the rules for counting them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import NamedTuple

from sqlalchemy import Connection, bindparam, insert, select, update

from game import rules
from game.bets_csv import BetRow, BetsFileError
from game.db import log, views
from game.db.proof import as_utc
from game.db.schema import (
    matches,
    player_keys,
    players,
    predictions,
)
from game.events import (
    Event,
    LoggedEvent,
    PlayerJoined,
    PredictionPlaced,
)
from game.history import SCORE_BASIS_KEY, SCORING_KEY
from game.model import (
    Match,
    Score,
)
from game.pool.members import insert_player
from game.pool.work import UnitOfWork, require_match, require_player_id, write_setting
from game.rules import PredictionLocked, RuleViolation
from game.scoring import ScoreBasis, preset
from game.teams import TeamBook
from game.text import clean_line

# A spreadsheet pick without a time is recorded as placed this long before kick-off.
IMPORTED_PICK_LEAD = timedelta(minutes=1)


@dataclass(frozen=True)
class Refused:
    """A row of a spreadsheet the rules refused, as written, and why."""

    line: int
    player: str
    reason: str

    def text(self) -> str:
        return f"line {self.line}: {clean_line(self.player)}: {self.reason}"


@dataclass
class Folded:
    """A name in a spreadsheet that became the handle of a player already in the pool."""

    handle: str
    rows: int = 0
    refused: int = 0


@dataclass
class BetsReport:
    placed: int = 0
    changed: int = 0
    unchanged: int = 0
    players_created: list[str] = field(default_factory=list)
    folded: dict[str, Folded] = field(default_factory=dict)  # by the name as written
    changes: list[str] = field(default_factory=list)  # one line per pick replaced
    refused: list[Refused] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)  # rows skipped (``strict=False``): why
    # Names that fold onto a player who may not be theirs (``_held_folds``), with their
    # rows: not imported, reported apart; ``assigned`` applies them.
    held: dict[str, Folded] = field(default_factory=dict)

    def held_lines(self) -> list[str]:
        """'Ana Paula → ana-paula? 3 picks held: ...': whose look-alike handle was not
        trusted with a colleague's picks."""
        return [
            f"{clean_line(written)} → {folded.handle}? {folded.rows} "
            f"pick{'s' if folded.rows != 1 else ''} held: {folded.handle} registered "
            "themselves and has no key older than these picks; if they are "
            f'theirs, import again with --assign "{clean_line(written)}={folded.handle}"'
            for written, folded in self.held.items()
        ]

    def folded_lines(self) -> list[str]:
        """'BRUNO → bruno (registered): 3 picks': whose picks a spelling touched."""
        lines = []
        for written, folded in self.folded.items():
            picks = f"{folded.rows} pick{'s' if folded.rows != 1 else ''}"
            refused = f", {folded.refused} refused" if folded.refused else ""
            lines.append(f"{clean_line(written)} → {folded.handle} (registered): {picks}{refused}")
        return lines


class Predictions:
    """Picks: placed before kick-off, imported by an admin, and the scoring they count by."""

    def __init__(self, work: UnitOfWork) -> None:
        self._work = work

    def place(self, handle: str, number: int, score: Score) -> Pick:
        """A player's pick, accepted only before kick-off by this server's clock.

        Returns the match and the logged event (``None`` when the pick was already
        exactly that). The match, the player and their pick are read in one query:
        a bet is most of what a pool writes.
        """
        return self._work.commit(
            lambda connection, logged: self._place(connection, logged, handle, number, score)
        )

    def place_all(self, picks: Iterable[tuple[str, int, Score]]) -> list[Pick]:
        """Several players' picks, each as ``place`` takes it, in one transaction: all
        of them or, when one breaks a rule, none (a replay's simulated players, who
        pick a match together)."""
        return self._work.commit(
            lambda connection, logged: [
                self._place(connection, logged, handle, number, score)
                for handle, number, score in picks
            ]
        )

    def _place(
        self,
        connection: Connection,
        logged: list[LoggedEvent[Event]],
        handle: str,
        number: int,
        score: Score,
    ) -> Pick:
        row = None
        if 0 < number < views.ALL_MATCHES:  # else too large for the database to compare
            found = connection.execute(_PICK_CONTEXT, {"number": number, "handle": handle})
            row = found.one_or_none()
        if row is None:  # which of the two is missing, in the error
            require_match(connection, number, with_goals=False)
            require_player_id(connection, handle)
            raise AssertionError("an existing match and player always make a row")
        match = views.match_from_row(row)
        now = self._work.clock()
        rules.check_can_predict(match, now)
        current = None if row.pick_home is None else Score(row.pick_home, row.pick_away)
        placed = self._write_pick(
            connection, logged, row.player_id, handle, number, score, now, "player", current
        )
        return Pick(match, placed)

    def _write_pick(
        self,
        connection: Connection,
        logged: list[LoggedEvent[Event]],
        player_id: int,
        handle: str,
        number: int,
        score: Score,
        placed_at: datetime,
        source: str,
        current: Score | None,
    ) -> PredictionPlaced | None:
        """Write one pick over ``current`` and log it; ``None`` when it is already that."""
        if current == score:
            return None
        if current is None:
            connection.execute(
                _INSERT_PICK,
                {
                    "player_id": player_id,
                    "match_number": number,
                    "home": score.home,
                    "away": score.away,
                    "placed_at": placed_at,
                },
            )
        else:
            changed = {"pick_player": player_id, "pick_match": number}
            values = {"new_home": score.home, "new_away": score.away, "new_at": placed_at}
            connection.execute(_UPDATE_PICK, changed | values)
        previous = None if current is None else str(current)
        event = PredictionPlaced(
            handle, number, score.home, score.away, placed_at, previous, source
        )
        self._work.append(connection, logged, event)
        return event

    def import_bets(
        self,
        rows: list[BetRow],
        unread: Iterable[str] = (),
        *,
        strict: bool = True,
        assigned: Mapping[str, str] | None = None,
    ) -> BetsReport:
        """An admin's spreadsheet: picks for anyone, held to the kick-off lock by their time.

        A file that does not read (``unread``, a fixture or a name it cannot
        place) imports nothing: every problem is listed, in line order; not
        ``strict``, those rows are skipped, named in ``unread``, and the others
        imported. A row the rules refuse (made after kick-off, or older than the
        player's own pick) is named in ``refused`` with its reason, and the rest
        of the file is imported.

        A name that lands on a registered handle ("Ana Paula" folded onto ``ana-paula``,
        or "ana" as written) whose player registered themselves and holds no key older
        than the name's picks is held, not imported (a newcomer with an office's shared invite could
        have registered it to take a colleague's picks): reported in ``held``.
        ``assigned`` ("Ana Paula" -> "ana-paula") says whose a name's rows are.
        """
        assigned = dict(assigned or {})

        book = TeamBook.standard()  # "Brasil;Marrocos" is Brazil v Morocco

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> BetsReport:
            report = BetsReport()
            problems: list[str] = list(unread)
            resolved: list[tuple[BetRow, int]] = []
            on_days = _fixtures_on(connection, {row.date for row in rows}, book)
            for row in rows:
                number = on_days.get((row.date, book.key(row.team1), book.key(row.team2)))
                if number is None:
                    problems.append(
                        f"line {row.line}: no fixture {row.team1} v {row.team2} on {row.date}"
                    )
                    continue
                resolved.append((row, number))
            handles: dict[str, str] = {}
            for row in rows:
                try:
                    handles[row.player] = assigned.get(row.player) or rules.handle_from_name(
                        row.player
                    )
                except RuleViolation as error:
                    problems.append(f"line {row.line}: {error}")
            for name, handle in assigned.items():
                if views.player(connection, handle) is None:
                    problems.append(f"--assign {name}={handle}: no player {handle!r}")
            # "Betânia" is a colleague's name and her handle: her picks are her own.
            hers = {
                item.event.player
                for item in log.read_of(connection, PlayerJoined)
                if item.event.via == "bot"
            }
            problems += [
                f"line {row.line}: {row.player} is {handles[row.player]}, the commentator: "
                "her picks are her own; write the player's full name"
                for row in rows
                if handles.get(row.player) in hers
            ]
            if problems and strict:
                raise BetsFileError(sorted(problems, key=line_number))
            report.unread = sorted(problems, key=line_number)
            registered = set(
                connection.execute(
                    select(players.c.handle).where(players.c.handle.in_(set(handles.values())))
                ).scalars()
            )
            now = self._work.clock()
            held = _held_folds(connection, rows, handles, registered, set(assigned))
            for row, number in resolved:
                if row.player not in handles:  # a name that makes no handle: in ``unread``
                    continue
                handle = handles[row.player]
                if row.player in held:
                    report.held.setdefault(row.player, Folded(handle)).rows += 1
                    continue
                refusal = self._import_row(connection, logged, report, row, handle, number, now)
                if refusal:
                    report.refused.append(Refused(row.line, row.player, refusal))
                if handle in registered and row.player != handle:  # "BRUNO" is bruno's
                    folded = report.folded.setdefault(row.player, Folded(handle))
                    folded.rows += 1
                    folded.refused += bool(refusal)
            return report

        return self._work.commit(work)

    def _import_row(
        self,
        connection: Connection,
        logged: list[LoggedEvent[Event]],
        report: BetsReport,
        row: BetRow,
        handle: str,
        number: int,
        now: datetime,
    ) -> str:
        """One row of a spreadsheet written, or the reason it is refused."""
        match = require_match(connection, number, with_goals=False)
        try:
            rules.check_made_in_time(match, row.placed_at, now)
        except PredictionLocked as error:
            if row.placed_at is None:
                return f"{error}, and the row has no placed_at saying it was made before"
            return f"placed_at {row.placed_at.isoformat()}: {error}"
        placed_at = row.placed_at or match.kickoff - IMPORTED_PICK_LEAD
        player_id = connection.execute(
            select(players.c.id).where(players.c.handle == handle)
        ).scalar()
        if player_id is None:
            player_id = insert_player(
                self._work, connection, logged, handle, clean_line(row.player), False, "import"
            )
            report.players_created.append(handle)
        current = _current_pick(connection, player_id, number)
        if current is not None and current.score != row.score and current.at > placed_at:
            # The latest pick before kick-off counts: an older one from a sheet is not it.
            return (
                f"{handle}'s pick {current.score} for {match.label}, placed at "
                f"{current.at.isoformat()}, is newer than this row's {row.score}"
            )
        event = self._write_pick(
            connection,
            logged,
            player_id,
            handle,
            number,
            row.score,
            placed_at,
            "import",
            None if current is None else current.score,
        )
        if event is None:
            report.unchanged += 1
        elif event.previous is None:
            report.placed += 1
        else:
            report.changed += 1
            report.changes.append(
                f"line {row.line}: {handle}'s pick for {match.label}, {event.previous} → {row.score}"
            )
        return ""

    def set_scoring(self, preset_name: str | None = None, basis: ScoreBasis | None = None) -> None:
        changes: list[tuple[str, str]] = []
        if preset_name is not None:
            changes.append((SCORING_KEY, preset(preset_name).name))
        if basis is not None:
            changes.append((SCORE_BASIS_KEY, ScoreBasis(basis).value))

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> None:
            for key, value in changes:
                write_setting(self._work, connection, logged, key, value)

        self._work.commit(work)


def line_number(problem: str) -> int:
    """The line a problem names ("line 12: ..."), to list problems in the file's order."""
    found = re.match(r"line (\d+)", problem)
    return int(found.group(1)) if found else 0


class _Current(NamedTuple):
    score: Score
    at: datetime


def _current_pick(connection: Connection, player_id: int, number: int) -> _Current | None:
    key = (predictions.c.player_id == player_id) & (predictions.c.match_number == number)
    columns = (predictions.c.home, predictions.c.away, predictions.c.placed_at)
    row = connection.execute(select(*columns).where(key)).one_or_none()
    return None if row is None else _Current(Score(row.home, row.away), row.placed_at)


class Pick(NamedTuple):
    """A pick as placed: its match, and what the log recorded (``None``: unchanged)."""

    match: Match
    placed: PredictionPlaced | None


# Built once, with their values bound at each bet: building a statement cost as much
# as running it.
_PICK_CONTEXT = (
    select(
        matches,
        *views.FIRST_LEG,
        players.c.id.label("player_id"),
        predictions.c.home.label("pick_home"),
        predictions.c.away.label("pick_away"),
    )
    .select_from(
        views.with_first_leg(
            matches.join(players, players.c.handle == bindparam("handle")).outerjoin(
                predictions,
                (predictions.c.player_id == players.c.id)
                & (predictions.c.match_number == matches.c.number),
            )
        )
    )
    .where(matches.c.number == bindparam("number"))
)
_INSERT_PICK = insert(predictions)  # built once, as the update below
_UPDATE_PICK = (
    update(predictions)
    .where(
        (predictions.c.player_id == bindparam("pick_player"))
        & (predictions.c.match_number == bindparam("pick_match"))
    )
    .values(home=bindparam("new_home"), away=bindparam("new_away"), placed_at=bindparam("new_at"))
)


def _fixtures_on(
    connection: Connection, days: set[str], book: TeamBook
) -> dict[tuple[str, str, str], int]:
    """The matches played on ``days``, by (day, home, away) in the team book's key form,
    so that a row may name its teams in any spelling the book knows."""
    rows = connection.execute(
        select(matches.c.number, matches.c.local_date, matches.c.team1, matches.c.team2).where(
            matches.c.local_date.in_(days)
        )
    )
    return {(row.local_date, book.key(row.team1), book.key(row.team2)): row.number for row in rows}


def _held_folds(
    connection: Connection,
    rows: list[BetRow],
    handles: Mapping[str, str],
    registered: set[str],
    assigned: set[str],
) -> set[str]:
    """The names written in a sheet that land on a registered handle not theirs to
    trust, folded ("Ana Paula" onto ``ana-paula``) or as written ("ana"): its player
    registered themselves (an invite, open registration, a service:
    anyone holding an office's shared code could have taken the look-alike handle) and
    holds no key older than the name's earliest pick. A row with no time proves no
    key older than it. A player the admin added (console, an earlier import) is trusted."""
    folds = {
        name: handle
        for name, handle in handles.items()
        if handle in registered and name not in assigned
    }
    if not folds:
        return set()
    joined = {
        item.event.player: item.event.via
        for item in log.read_of(connection, PlayerJoined)
        if item.event.player in set(folds.values())
    }
    held = set()
    for name, handle in folds.items():
        if joined.get(handle, "console") in ADMIN_MADE:
            continue
        times = [row.placed_at for row in rows if row.player == name]
        if None in times:
            held.add(name)
            continue
        earliest = min(as_utc(t) for t in times if t is not None)
        keys = connection.execute(
            select(player_keys.c.added_at)
            .join(players, players.c.id == player_keys.c.player_id)
            .where(players.c.handle == handle)
        ).scalars()
        if not any(as_utc(added) < earliest for added in keys):
            held.add(name)
    return held


ADMIN_MADE = frozenset({"console", "import"})  # ``PlayerJoined.via`` of a player an admin added
