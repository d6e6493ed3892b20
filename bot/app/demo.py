"""``betania demo``: a pool alive within a minute, on the project's own tournament.

Sixteen teams, four groups, then knock-outs, on an accelerated clock (by
default a match lasts about a minute). House players bet and chat, goals come
minute by minute, and BETanIA comments, bets and keeps her diary: the same
server, commentator and memory as ``betania serve``. Registration is open and
silent: an unknown key joins under the SSH user name it connects with.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from importlib import resources
from pathlib import Path

from bot.agent.commentator import Commentator
from bot.app.config import ModelConfig
from bot.app.demo_cup import (
    CLUBS,
    SQUADS,
    TEAMS,
    group_fixtures,
    group_table,
    knockout_fixtures,
    league_fixtures,
    play,
    winner,
)
from bot.app.lifecycle import (
    Running,
    StartError,
    check_free,
    commentator_for,
    in_worker,
    open_server,
)
from bot.app.simulation import (
    AcceleratedClock,
    Deck,
    SimulatedBettor,
    final_whistle,
    goal_time,
)
from frontends.hub import Notice
from frontends.ssh.frontend import ServerConfig
from game.addressing import Addressee
from game.bonus import CHAMPION, SCORER
from game.db.engine import open_database, private_directory
from game.db.leader import exclusive_lock
from game.model import MatchStatus, Result, Score, knockout_round
from game.openfootball import Fixture, Tournament
from game.pool import Pool
from game.reminders import DEFAULT_LEAD
from game.rules import RuleViolation

DEMO_DATABASE = "demo.db"
DEMO_LOCK = "demo.lock"  # held while a demo runs on its data dir
TOURNAMENT = "BETanIA Demo Cup"
LEAGUE = "BETanIA Demo League"
HOUSE_PLAYERS = ("ana", "bruno", "carla", "diego", "elis")
START = datetime(2026, 6, 11, 15, 0, tzinfo=UTC)
SPACING = timedelta(hours=2, minutes=30)  # one match after another
# Real time before the first kick-off: enough to join and bet on the opening match.
FIRST_KICKOFF_IN = timedelta(minutes=3)
SIMULATED_MATCH = timedelta(minutes=120)  # kick-off to final whistle, half-time included
PICKS_BEFORE = timedelta(minutes=15)
REMIND_BEFORE = DEFAULT_LEAD  # as ``betania serve --remind-before`` by default
CHAT_CHANCE = 0.35


def default_speed(match_seconds: float = 60.0) -> float:
    """How many times faster than real time, for a match to last ``match_seconds``."""
    return SIMULATED_MATCH.total_seconds() / match_seconds


def house_lines(language: str = "en") -> list[str]:
    """What the house players say, in the pool's language (game/sample/house_chat*.txt)."""
    name = "house_chat.txt" if language == "en" else f"house_chat_{language}.txt"
    text = resources.files("game").joinpath("sample", name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


@dataclass(order=True)
class Step:
    at: datetime
    order: int
    run: Callable[[], object] = field(compare=False)
    result_of: int | None = field(default=None, compare=False)


@dataclass
class DemoStatus:
    finished: int = 0
    running: bool = True


class Demo:
    """Plays the tournament on the accelerated clock, one step at a time."""

    def __init__(
        self,
        pool: Pool,
        clock: AcceleratedClock,
        commentator: Commentator,
        seed: int = 7,
        first_kickoff_in: timedelta = FIRST_KICKOFF_IN,
        league: bool = False,
    ) -> None:
        # The demo clock runs ``speed`` times faster: the real lead, in tournament time.
        self.first_kickoff = START + first_kickoff_in * clock.speed
        self.pool = pool
        self.clock = clock
        self.commentator = commentator
        self.rng = random.Random(seed)
        self.lines = Deck(house_lines(commentator.keeper.config.language), self.rng)
        self.bettors = [SimulatedBettor.make(handle, seed) for handle in HOUSE_PLAYERS]
        self.seed = seed
        self.steps: list[Step] = []
        self.order = itertools.count()
        self.league = league
        self.name = LEAGUE if league else TOURNAMENT
        self.knockouts = (
            {}
            if league
            else {
                f.source_key: f
                for f in knockout_fixtures(self.first_kickoff + SPACING * 25, SPACING)
            }
        )
        self.played: dict[int, tuple[str, str, Score]] = {}
        self.status = DemoStatus()

    def setup(self) -> None:
        if self.league:
            opening = league_fixtures(self.first_kickoff, SPACING)
        else:
            opening = group_fixtures(self.first_kickoff, SPACING)
        self.pool.fixtures.import_tournament(
            Tournament(self.name, (*opening, *self.knockouts.values()))
        )
        strengths = CLUBS if self.league else {t: s for g in TEAMS.values() for t, s in g.items()}
        for handle in HOUSE_PLAYERS:
            self.pool.members.add(handle, handle.capitalize(), via="demo")
            # They pick on cue (``PICKS_BEFORE``), after the reminder: it is for those
            # who joined, as it is for a real pool's players.
            self.pool.members.set_reminders(handle, False)
            # Their bonus picks at once, as a keen player's: a champion drawn by the
            # teams' strengths, and one of its players as the top scorer.
            rng = random.Random(f"{self.seed}:bonus:{handle}")
            champion = rng.choices(list(strengths), weights=list(strengths.values()))[0]
            try:
                self.pool.extras.bonus(handle, CHAMPION, champion)
                self.pool.extras.bonus(handle, SCORER, rng.choice(SQUADS[champion]))
            except RuleViolation:
                continue  # a clock so fast the first kick-off came first: no bonus picks
        for fixture in opening:
            self.schedule(fixture)

    def number_of(self, fixture: Fixture) -> int:
        """The pool's number of ``fixture``: a league plays three at one kick-off."""
        return next(
            m.number
            for m in self.pool.matches()
            if (m.kickoff, m.team1, m.team2) == (fixture.kickoff, fixture.team1, fixture.team2)
        )

    def add(self, at: datetime, run: Callable[[], object], result_of: int | None = None) -> None:
        heapq.heappush(self.steps, Step(at, next(self.order), run, result_of))

    def schedule(self, fixture: Fixture) -> None:
        """Picks, kick-off, goals minute by minute, chat, and the final whistle of one match."""
        number = self.number_of(fixture)
        knockout = knockout_round(fixture.stage, fixture.group)
        played = play(fixture.team1, fixture.team2, self.rng, knockout)
        self.add(fixture.kickoff - REMIND_BEFORE, lambda: self.remind(number))
        self.add(fixture.kickoff - PICKS_BEFORE, lambda: self.picks(number))
        self.add(fixture.kickoff, lambda: self.kick_off(number))
        for goal in played.goals:
            self.add(
                goal_time(fixture.kickoff, goal),
                partial(self.pool.fixtures.record_goal, number, goal),
            )
            if self.rng.random() < CHAT_CHANCE:
                talker, line = self.rng.choice(HOUSE_PLAYERS), self.lines.draw()
                self.add(
                    goal_time(fixture.kickoff, goal) + timedelta(minutes=1),
                    partial(self.pool.talk.chat, talker, line),
                )
        whistle = final_whistle(fixture.kickoff, played.result, played.goals)
        self.add(
            whistle,
            lambda: self.final(number, fixture, played.result),
            number,
        )

    def remind(self, number: int) -> None:
        """The reminder ``betania serve`` sends before each kick-off, to who joined and
        has no pick for it (the pool logs it once, and every session shows it)."""
        self.pool.members.remind(number, REMIND_BEFORE)

    def picks(self, number: int) -> None:
        for bettor in self.bettors:
            try:
                self.pool.predictions.place(bettor.handle, number, bettor.pick(number, self.seed))
            except RuleViolation:
                continue  # the clock ran past kick-off while the demo was busy

    def kick_off(self, number: int) -> None:
        if self.pool.match(number, with_goals=False).status is MatchStatus.SCHEDULED:
            self.pool.fixtures.kick_off(number)

    def final(self, number: int, fixture: Fixture, result: Result) -> None:
        self.pool.fixtures.record_result(number, result)
        self.played[number] = (fixture.team1, fixture.team2, result.end_of_play)
        self.status.finished += 1
        self.fill_bracket()

    def fill_bracket(self) -> None:
        """Knock-out placeholders become teams as soon as the results say who they are."""
        if not self.knockouts:
            return  # a league, or a cup whose bracket is full
        results = list(self.played.values())
        seeds: dict[str, str] = {}
        if len(self.played) >= 24:
            for group in ("A", "B", "C", "D"):
                ranked = group_table(results, f"Group {group}")
                seeds[f"1{group}"], seeds[f"2{group}"] = ranked[0], ranked[1]
        for number, (team1, team2, _) in self.played.items():
            match = self.pool.match(number, with_goals=False)
            if match.result is not None and match.group is None:
                seeds[f"W{number}"] = winner(team1, team2, match.result)
        for key, fixture in list(self.knockouts.items()):
            if fixture.team1 in seeds and fixture.team2 in seeds:
                filled = replace(fixture, team1=seeds[fixture.team1], team2=seeds[fixture.team2])
                self.pool.fixtures.import_tournament(Tournament(self.name, (filled,)))
                del self.knockouts[key]
                self.schedule(filled)

    def her_turn(self) -> None:
        """Her turn, the one a real pool's scheduler gives her."""
        self.commentator.turn()

    def next_kickoff(self) -> str:
        match = self.pool.next_match()
        if match is None:
            return "no more matches"
        in_real = self.clock.real_seconds_until(match.kickoff)
        return (
            f"#{match.number} {match.team1} v {match.team2} at {match.kickoff:%a %d %b %H:%M}"
            f", in {in_real:.0f} s"
        )

    async def run(self, stop_after: int | None = None) -> None:
        """Play every step at its moment, letting her catch up after each."""
        while self.steps and (stop_after is None or self.status.finished < stop_after):
            step = self.steps[0]
            wait = self.clock.real_seconds_until(step.at)
            if wait > 0:
                await asyncio.sleep(min(wait, 0.5))
                await in_worker(self.commentator.catch_up)  # chat and newcomers between steps
                continue
            heapq.heappop(self.steps)
            step.run()
            await in_worker(self.her_turn)
        self.status.running = False


CONSOLE = 0  # the hub's subscriber key for the console (sessions count from 1)
ON_CONSOLE = {"kickoff", "goal", "result", "player_joined"}


def console_line(notice: Notice, demo: Demo, say: Callable[[str], None]) -> None:
    """What the operator sees: kick-offs, goals, results and who joined, as they happen."""
    if notice.kind not in ON_CONSOLE:
        return
    say(f"[{notice.at:%a %d %b %H:%M}] {notice.text}")
    if notice.kind == "result":
        say(f"  next kick-off: {demo.next_kickoff()}")


async def run_demo(
    data_dir: Path,
    host: str,
    port: int,
    speed: float,
    config: ModelConfig,
    stop_after: int | None = None,
    say: Callable[[str], None] = print,
    first_kickoff_in: timedelta = FIRST_KICKOFF_IN,
    addressee: Addressee | None = None,
    opened: Callable[[Running], Awaitable[None]] | None = None,
    league: bool = False,
    other_ports: Sequence[int] = (),
) -> tuple[Demo, Running]:
    """The demo pool served and played to the end (or ``stop_after`` matches);
    ``opened`` runs once the SSH server listens, before the first match.

    The demo starts over, but only once it is sure to start: another demo on the same
    data dir (its lock) or a port taken (``port``, ``other_ports``) stops it before it
    removes a file, so a running demo never goes on writing to deleted ones."""
    directory = private_directory(data_dir)
    database = directory / DEMO_DATABASE
    holds = exclusive_lock(directory / DEMO_LOCK)
    if holds is None:
        raise StartError(
            f"a demo is already running on {directory}: stop it first, or give another --data-dir and --port"
        )
    try:
        check_free(host, [port, *other_ports])
    except StartError:
        holds.close()
        raise
    for leftover in (
        database,
        directory / f"{DEMO_DATABASE}-wal",
        directory / f"{DEMO_DATABASE}-shm",
    ):
        leftover.unlink(missing_ok=True)  # the demo starts over; a real pool lives in betania.db
    clock = AcceleratedClock(START, speed)
    pool = Pool(open_database(f"sqlite:///{database}"), clock)
    addressee = addressee or Addressee()
    commentator = commentator_for(pool, config, addressee)
    demo = Demo(pool, clock, commentator, config.seed or 7, first_kickoff_in, league)
    demo.setup()
    running = await open_server(
        pool,
        directory,
        ServerConfig(
            host,
            port,
            open_registration=True,
            auto_register=True,
            addressee=addressee,
            language=config.language,
        ),
    )
    running.holds = holds
    teams = len(CLUBS) if league else 16
    every = SPACING.total_seconds() / speed
    say(
        f"{demo.name}: {teams} teams, {len(pool.matches())} matches, a kick-off every {every:.0f} s"
    )
    say(f"join the pool: {running.join_command(host).replace('HANDLE', 'zeca')}")
    say(f"commentator: {commentator.gateway.model.name}")
    say(f"first kick-off: {demo.next_kickoff()}: join now and bet on it")
    running.frontend.hub.subscribe(CONSOLE, lambda notice: console_line(notice, demo, say))
    if opened is not None:
        await opened(running)
    await demo.run(stop_after)
    if stop_after is None:
        say("the tournament is over; the pool stays open (Ctrl-C to leave)")
    return demo, running
