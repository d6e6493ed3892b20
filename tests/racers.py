"""Writers that race for one rule, in threads or in separate processes.

Each racer is a plain function ``(pool, round) -> str`` at module level, so a
spawned process can run it too. Every round, all racers wait at one barrier and
then act at once on that round's own match, invite, code or handle; each says
what it was told ("ok ..." or "refused ..."). Anything else a racer meets (a
crash, a driver's error, "busy") is reported as "error ..." and fails the test:
a player must only ever be told yes or no.
"""

from __future__ import annotations

import multiprocessing
import queue
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from game.bets_csv import BetRow
from game.db.engine import open_database
from game.errors import UserError
from game.model import FeedResult, FeedStatus, Goal, Result, Score
from game.openfootball import Tournament
from game.pool import Pool
from tests.conftest import fixture

Racer = Callable[[Pool, int], str]
ROUNDS_IN_THREADS = 16
ROUNDS_IN_PROCESSES = 8
FIRST_KICKOFF = datetime(2030, 6, 11, 18, 0, tzinfo=UTC)  # far ahead: the clock never closes bets
TEAMS = ("Brazil", "Serbia")


class _Barrier(Protocol):
    def wait(self) -> Any: ...


class _Outbox(Protocol):
    def put(self, item: Any) -> None: ...


def kickoff_of(round_: int) -> datetime:
    return FIRST_KICKOFF + timedelta(days=3 * round_)  # days apart: the feed finds each alone


def tournament(rounds: int) -> Tournament:
    """One match a round, numbered from 1."""
    return Tournament(
        "Race Cup",
        tuple(
            fixture(f"r{r}", *TEAMS, kickoff_of(r), number=r + 1, venue="Maracanã")
            for r in range(rounds)
        ),
    )


def run(
    url: str, racers: list[Racer], rounds: int, in_processes: bool
) -> list[list[tuple[int, str]]]:
    """Every racer's answers, round by round: ``[round][racer] -> (racer, answer)``."""
    if in_processes:
        context = multiprocessing.get_context("spawn")
        barrier: _Barrier = context.Barrier(len(racers))
        outbox: Any = context.Queue()
        workers: list[Any] = [
            context.Process(target=_work, args=(url, i, racer, rounds, barrier, outbox))
            for i, racer in enumerate(racers)
        ]
    else:
        barrier = threading.Barrier(len(racers))
        outbox = queue.Queue()
        engine = open_database(url)
        shared = Pool(engine)  # one pool for every thread, as a front end has it
        workers = [
            threading.Thread(
                target=_race, args=(shared, i, racer, rounds, barrier, outbox), daemon=True
            )
            for i, racer in enumerate(racers)
        ]
    for worker in workers:
        worker.start()
    answers = [outbox.get(timeout=120) for _ in range(len(racers) * rounds)]
    for worker in workers:
        worker.join(timeout=60)
    if not in_processes:
        engine.dispose()
    by_round: list[list[tuple[int, str]]] = [[] for _ in range(rounds)]
    for round_, racer, answer in answers:
        by_round[round_].append((racer, answer))
    for answered in by_round:
        answered.sort()
    return by_round


def _work(
    url: str, index: int, racer: Racer, rounds: int, barrier: _Barrier, outbox: _Outbox
) -> None:
    engine = open_database(url)
    try:
        _race(Pool(engine), index, racer, rounds, barrier, outbox)
    finally:
        engine.dispose()


def _race(
    pool: Pool, index: int, racer: Racer, rounds: int, barrier: _Barrier, outbox: _Outbox
) -> None:
    for round_ in range(rounds):
        barrier.wait()
        try:
            answer = racer(pool, round_)
        except UserError as refusal:
            answer = f"refused {refusal}"
        except Exception as error:  # anything but yes or no fails the test
            answer = f"error {type(error).__name__}: {error}"
        outbox.put((round_, index, answer))


# -- the racers ------------------------------------------------------------------


def kick_off(pool: Pool, round_: int) -> str:
    """The scheduler's job: the match goes live."""
    pool.fixtures.kick_off(round_ + 1)
    return "ok kicked off"


def bettor(handle: str) -> Racer:
    return _Bettor(handle)


class _Bettor:
    """A player changing their mind, three picks in a row, against the kick-off."""

    def __init__(self, handle: str) -> None:
        self.handle = handle

    def __call__(self, pool: Pool, round_: int) -> str:
        told = []
        for home in range(3):
            try:
                pool.predictions.place(self.handle, round_ + 1, Score(home, 1))
                told.append(f"{home}-1")
            except UserError:
                break
        return f"ok {' '.join(told)}" if told else "refused every pick"


def finishing_feed(pool: Pool, round_: int) -> str:
    """A feed's batch that sees the match already over, 2-1 with its goals."""
    seen = FeedResult(
        kickoff_of(round_),
        *TEAMS,
        FeedStatus.FINISHED,
        Result(Score(2, 1)),
        (Goal("home", 10), Goal("away", 30), Goal("home", 80)),
        feed_id=f"feed-{round_}",
    )
    report = pool.fixtures.apply_results([seen], "football-data")
    return f"ok {report.results} result"


def admin_result(home: int, away: int) -> Racer:
    return _AdminResult(home, away)


class _AdminResult:
    def __init__(self, home: int, away: int) -> None:
        self.score = Score(home, away)

    def __call__(self, pool: Pool, round_: int) -> str:
        pool.fixtures.record_result(round_ + 1, Result(self.score))
        return f"ok {self.score}"


def spreadsheet(player: str) -> Racer:
    return _Spreadsheet(player)


class _Spreadsheet:
    """An admin's import of one player's pick on the round's match, 4-4."""

    def __init__(self, player: str) -> None:
        self.player = player

    def __call__(self, pool: Pool, round_: int) -> str:
        kickoff = kickoff_of(round_)
        row = BetRow(1, self.player, kickoff.date().isoformat(), *TEAMS, Score(4, 4))
        report = pool.predictions.import_bets([row])
        return f"ok placed {report.placed} changed {report.changed} refused {len(report.refused)}"


def newcomer(codes: list[str | None], handle_of: Callable[[int, int], str]) -> Racer:
    return _Newcomer(codes, handle_of)


class _Newcomer:
    """Someone registering with the round's invite (``None``: an open pool), under a handle."""

    count = 0

    def __init__(self, codes: list[str | None], handle_of: Callable[[int, int], str]) -> None:
        _Newcomer.count += 1
        self.me = _Newcomer.count
        self.codes = codes
        self.handle_of = handle_of

    def __call__(self, pool: Pool, round_: int) -> str:
        key = f"ssh-ed25519 AAAAC3Nza{self.me:04d}r{round_:04d} racer"
        handle = self.handle_of(self.me, round_)
        pool.members.register(handle, key, self.codes[round_])
        return f"ok {handle}"


def own_handle(me: int, round_: int) -> str:
    return f"n{me}-r{round_}"


def one_handle(_me: int, round_: int) -> str:
    return f"same-{round_}"


def linker(account: str, codes: list[str]) -> Racer:
    return _Linker(account, codes)


class _Linker:
    """A Discord account typing the round's link code."""

    def __init__(self, account: str, codes: list[str]) -> None:
        self.account = account
        self.codes = codes

    def __call__(self, pool: Pool, round_: int) -> str:
        return f"ok {pool.members.link_account('discord', self.account, self.codes[round_])}"
