"""Predictions: the picks and the rules for counting them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import Connection, insert, select, update

from game import rules
from game.bets_csv import BetRow, BetsFileError
from game.db.schema import (
    matches,
    players,
    predictions,
    settings,
)
from game.events import (
    Event,
    LoggedEvent,
    PredictionPlaced,
    SettingChanged,
)
from game.history import SCORE_BASIS_KEY, SCORING_KEY
from game.model import (
    Score,
)
from game.pool.members import insert_player
from game.pool.work import UnitOfWork, require_match, require_player_id
from game.rules import RuleViolation
from game.scoring import ScoreBasis, preset
from game.text import clean_line

# A spreadsheet pick without a time is recorded as placed this long before kick-off.
IMPORTED_PICK_LEAD = timedelta(minutes=1)


@dataclass
class BetsReport:
    placed: int = 0
    changed: int = 0
    unchanged: int = 0
    players_created: list[str] = field(default_factory=list)


class Predictions:
    """Picks: placed before kick-off, imported by an admin, and the scoring they count by."""

    def __init__(self, work: UnitOfWork) -> None:
        self._work = work

    def place(self, handle: str, number: int, score: Score) -> PredictionPlaced | None:
        """A player's pick, accepted only before kick-off by this server's clock.

        Returns the logged event, or ``None`` when the pick was already exactly that.
        """

        def work(
            connection: Connection, logged: list[LoggedEvent[Event]]
        ) -> PredictionPlaced | None:
            match = require_match(connection, number, with_goals=False)
            now = self._work.clock()
            rules.check_can_predict(match, now)
            player_id = require_player_id(connection, handle)
            return self._upsert_prediction(
                connection, logged, player_id, handle, number, score, now, "player"
            )

        return self._work.commit(work)

    def _upsert_prediction(
        self,
        connection: Connection,
        logged: list[LoggedEvent[Event]],
        player_id: int,
        handle: str,
        number: int,
        score: Score,
        placed_at: datetime,
        source: str,
    ) -> PredictionPlaced | None:
        """Write one pick and log it; ``None`` when it was already exactly that."""
        key = (predictions.c.player_id == player_id) & (predictions.c.match_number == number)
        current = connection.execute(
            select(predictions.c.home, predictions.c.away).where(key)
        ).one_or_none()
        if current is not None and (current.home, current.away) == (score.home, score.away):
            return None
        values = {"home": score.home, "away": score.away, "placed_at": placed_at}
        if current is None:
            connection.execute(
                insert(predictions).values(player_id=player_id, match_number=number, **values)
            )
            previous = None
        else:
            connection.execute(update(predictions).where(key).values(**values))
            previous = str(Score(current.home, current.away))
        event = PredictionPlaced(
            handle, number, score.home, score.away, placed_at, previous, source
        )
        self._work.append(connection, logged, event)
        return event

    def import_bets(self, rows: list[BetRow], unread: Iterable[str] = ()) -> BetsReport:
        """An admin's spreadsheet: the one path past the kick-off lock, all rows or none.

        ``unread`` are the lines that did not even read; every problem of the file
        is listed together, in line order, and nothing is imported.
        """

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> BetsReport:
            report = BetsReport()
            problems: list[str] = list(unread)
            resolved: list[tuple[BetRow, int, datetime]] = []
            for row in rows:
                found = connection.execute(
                    select(matches.c.number, matches.c.kickoff).where(
                        matches.c.local_date == row.date,
                        matches.c.team1 == row.team1,
                        matches.c.team2 == row.team2,
                    )
                ).one_or_none()
                if found is None:
                    problems.append(
                        f"line {row.line}: no fixture {row.team1} v {row.team2} on {row.date}"
                    )
                    continue
                placed_at = row.placed_at or found.kickoff - IMPORTED_PICK_LEAD
                if placed_at >= found.kickoff:
                    problems.append(
                        f"line {row.line}: placed_at {placed_at.isoformat()} is not before kick-off"
                    )
                    continue
                resolved.append((row, found.number, placed_at))
            handles: dict[str, str] = {}
            for row in rows:
                try:
                    handles[row.player] = rules.handle_from_name(row.player)
                except RuleViolation as error:
                    problems.append(f"line {row.line}: {error}")
            if problems:
                raise BetsFileError(sorted(problems, key=_line_number))
            for row, number, placed_at in resolved:
                handle = handles[row.player]
                player_id = connection.execute(
                    select(players.c.id).where(players.c.handle == handle)
                ).scalar()
                if player_id is None:
                    player_id = insert_player(
                        self._work,
                        connection,
                        logged,
                        handle,
                        clean_line(row.player),
                        False,
                        "import",
                    )
                    report.players_created.append(handle)
                event = self._upsert_prediction(
                    connection, logged, player_id, handle, number, row.score, placed_at, "import"
                )
                if event is None:
                    report.unchanged += 1
                elif event.previous is None:
                    report.placed += 1
                else:
                    report.changed += 1
            return report

        return self._work.commit(work)

    def set_scoring(self, preset_name: str | None = None, basis: ScoreBasis | None = None) -> None:
        changes: list[tuple[str, str]] = []
        if preset_name is not None:
            changes.append((SCORING_KEY, preset(preset_name).name))
        if basis is not None:
            changes.append((SCORE_BASIS_KEY, ScoreBasis(basis).value))

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> None:
            for key, value in changes:
                existing = connection.execute(
                    select(settings.c.value).where(settings.c.key == key)
                ).scalar()
                if existing == value:
                    continue
                if existing is None:
                    connection.execute(insert(settings).values(key=key, value=value))
                else:
                    connection.execute(
                        update(settings).where(settings.c.key == key).values(value=value)
                    )
                self._work.append(connection, logged, SettingChanged(key, value))

        self._work.commit(work)


def _line_number(problem: str) -> int:
    found = re.match(r"line (\d+)", problem)
    return int(found.group(1)) if found else 0
