"""``betania replay``: a whole tournament, headless, through the server's code path.

Events -> game -> commentator -> memory, on a simulated clock, as fast as it
can: picks before each kick-off, goals in minute order, results. The report
says what memory made of it: diary, facts, model calls, context sizes.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, tzinfo
from functools import partial
from pathlib import Path
from typing import Any

from bot.agent.commentator import Commentator, Policy
from bot.agent.gateway import remembering
from bot.agent.providers.base import Model
from bot.app.config import ModelConfig, make_model
from bot.app.simulation import (
    SimulatedBettor,
    SimulatedClock,
    final_whistle,
    goal_time,
    simulated_handles,
)
from game import bracket
from game.bets_csv import BetRow, BetsFileError, read_bets
from game.db.engine import open_database
from game.errors import UserError
from game.events import ChatPosted, RemarkPosted
from game.openfootball import Tournament
from game.pool import BetsReport, Pool
from game.pool.fixtures import numbering
from game.pool.predictions import Refused, line_number
from game.sources import read_text
from game.text import clean_line
from memory import diary, facts
from memory.context import Context
from memory.keeper import MemoryConfig, MemoryKeeper
from memory.store import MemoryStore
from memory.tokens import estimate_tokens
from memory.usage import CallRecord, UsageMeter, recorded


class ReplayError(UserError, ValueError):
    pass


@dataclass(frozen=True)
class ChatLine:
    at: datetime
    player: str
    text: str


@dataclass
class ReplayOptions:
    tournament: Tournament
    bets_csv: str | None = None
    chat: list[ChatLine] = field(default_factory=list)
    players: int = 0
    seed: int = 0
    resume_at: int | None = None
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    # How long before kick-off the simulated players pick; None: when she picks (her
    # policy's ``picks_ahead``). A bench whose chat asks about picks in the morning sets it.
    picks_ahead: timedelta | None = None


@dataclass
class ContextSample:
    """The largest final-whistle remark's prompt for one match, beside a diary that never forgets."""

    match: int
    tokens: int
    naive_tokens: int


@dataclass
class SheetReport:
    """What became of a spreadsheet's rows in a replay, told once at its end.

    A row for a knock-out match named by its teams waits until the matches that
    decide its sides are over; a row bad in itself is named and the rest kept.
    """

    rows: int = 0
    placed: int = 0  # picks taken as the replay began
    held: int = 0  # rows for knock-out matches whose sides were not known yet
    held_placed: int = 0  # of those, taken when their teams were known
    never: list[str] = field(default_factory=list)  # held rows never matched, each with why
    problems: list[str] = field(default_factory=list)  # rows bad in themselves, one line each

    def took(self, imported: BetsReport, held: bool = False) -> None:
        taken = imported.placed + imported.changed + imported.unchanged
        if held:
            self.held_placed += taken
        else:
            self.placed += taken
        self.problems += imported.unread + [refused.text() for refused in imported.refused]

    def as_dict(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "placed": self.placed,
            "held": self.held,
            "held_placed": self.held_placed,
            "never_matched": self.never,
            "problems": self.problems,
        }

    def lines(self) -> list[str]:
        """The summary line, then one line for each row not taken."""
        head = (
            f"bets: {self.rows} rows, {self.placed} picks placed at the start; "
            f"{self.held} held for knock-out matches, {self.held_placed} placed when their "
            f"teams were known, {len(self.never)} never matched because those teams never met; "
            f"{len(self.problems)} problem(s)"
        )
        return [
            head,
            *(f"  {line}" for line in sorted(self.never + self.problems, key=line_number)),
        ]


@dataclass
class ReplayReport:
    pool: Pool
    keeper: MemoryKeeper
    commentator: Commentator
    elapsed_s: float
    samples: list[ContextSample]
    sheet: SheetReport | None = None

    @property
    def calls(self) -> list[CallRecord]:
        """Every model call of the replay, in order, as memory recorded it."""
        with self.keeper.store.read() as connection:
            return recorded(connection)

    def as_dict(self) -> dict[str, Any]:
        with self.keeper.store.read() as connection:
            narrative, entries = diary.read(connection)
            kept = [*([narrative] if narrative else []), *entries]
            stored = facts.stored(connection)
            current = facts.current(connection)
            rejected = facts.rejected_count(connection)
        by_player: dict[str, int] = {}
        for fact in current:
            by_player[fact.handle] = by_player.get(fact.handle, 0) + 1
        # What changes from call to call: the prompt after the stable, cached layer.
        per_call = [estimate_tokens(record.prompt) for record in self.calls]
        return {
            "matches": len(self.pool.matches()),
            "players": len(self.pool.players()),
            "standings": [
                {
                    "rank": r.rank,
                    "player": r.player,
                    "points": r.points,
                    "exact": r.exact,
                    "outcome": r.outcome,
                }
                for r in self.pool.standings()
            ],
            "diary": {
                "entries": len(kept),
                "covers_matches": len({n for e in kept for n in e.covers}),
            },
            "facts": {
                "stored": len(stored),
                "by_player": by_player,
                "rejected_compactions": rejected,
            },
            "model_calls": len(self.calls),
            "context_tokens": {
                "per_call": per_call,
                "median": statistics.median(per_call) if per_call else 0,
                "max": max(per_call, default=0),
            },
            "remarks": {
                "count": self.commentator.stats.count,
                "refused_repeats": self.commentator.stats.refused_repeats,
            },
            "bets": None if self.sheet is None else self.sheet.as_dict(),
            "elapsed_s": round(self.elapsed_s, 3),
        }


def read_chat(location: str) -> list[ChatLine]:
    """``{"at": ISO-8601, "player": "...", "text": "..."}`` per line; a bad line is named."""
    lines = []
    for number, raw in enumerate(read_text(location).splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
            at = datetime.fromisoformat(item["at"].replace("Z", "+00:00"))
            if at.tzinfo is None:
                raise ValueError("'at' needs a UTC offset")
            lines.append(ChatLine(at, str(item["player"]), str(item["text"])))
        except (json.JSONDecodeError, KeyError, TypeError, AttributeError, ValueError) as error:
            raise ReplayError(f"{location} line {number}: {error}") from None
    return lines


@dataclass(frozen=True)
class Action:
    at: datetime
    order: int  # actions at the same moment run in the order they were listed
    run: Callable[[], object]
    result_of: int | None = None  # the match this action ends


def timeline(
    pool: Pool,
    options: ReplayOptions,
    bettors: list[SimulatedBettor],
    commentator: Commentator | None = None,
) -> list[Action]:
    """Every action of the tournament, in the order it happens."""
    actions: list[Action] = []
    hers = (commentator.policy if commentator else Policy()).picks_ahead
    lead = options.picks_ahead or hers

    def add(at: datetime, run: Callable[[], object], result_of: int | None = None) -> None:
        actions.append(Action(at, len(actions), run, result_of))

    numbers = numbering(options.tournament.fixtures)
    for fixture in options.tournament.fixtures:
        number = numbers[fixture.source_key]

        def picks(number: int = number) -> None:
            pool.predictions.place_all(
                (bettor.handle, number, bettor.pick(number, options.seed)) for bettor in bettors
            )

        add(fixture.kickoff - lead, picks)
        if lead != hers:  # her turn comes after each action: one when she picks
            add(fixture.kickoff - hers, lambda: None)
        add(fixture.kickoff, partial(pool.fixtures.kick_off, number))
        for goal in sorted(fixture.goals, key=lambda g: (g.minute, g.added)):
            add(
                goal_time(fixture.kickoff, goal),
                partial(pool.fixtures.record_goal, number, goal),
            )
        if fixture.result is not None:
            result = fixture.result
            add(
                final_whistle(fixture.kickoff, fixture.result, fixture.goals),
                partial(pool.fixtures.record_result, number, result, "replay"),
                number,
            )
    for line in options.chat:
        add(line.at, partial(_chat, pool, line))
    return sorted(actions, key=lambda action: (action.at, action.order))


def _chat(pool: Pool, line: ChatLine) -> None:
    if pool.player(line.player) is None:
        pool.members.add(line.player, via="replay")
    pool.talk.chat(line.player, line.text)


def replay(
    options: ReplayOptions,
    database: Path | str,  # a SQLite file, or the URL of an empty database
    model: Model | ModelConfig,
    zone: tzinfo | None = None,
    on_result: Callable[[int], None] | None = None,
    clock: SimulatedClock | None = None,
) -> ReplayReport:
    """Play the tournament; ``model`` is a model, or the configuration to make one.

    ``clock``, when given, is the one the replay moves (a model server judging
    cache lifetimes by tournament time reads it too).
    """
    started = time.perf_counter()
    if isinstance(database, Path):  # a SQLite file of the replay's own, made afresh
        database.unlink(missing_ok=True)
    url = f"sqlite:///{database}" if isinstance(database, Path) else database
    fixtures = tuple(sorted(options.tournament.fixtures, key=lambda f: f.kickoff))
    if not fixtures:
        raise ReplayError("the tournament has no matches")
    numbers = numbering(fixtures)
    # Resuming at #N adopts every match decided by then: #N and those kicking off with it
    # or before (#59 kicked off with #60: a resume at 60 has no story to write for it).
    adopted: set[str] | None = None
    if options.resume_at is not None:
        resumed = next((f for f in fixtures if numbers[f.source_key] == options.resume_at), None)
        if resumed is None:
            raise ReplayError(f"--resume-at {options.resume_at}: no such match")
        adopted = {f.source_key for f in fixtures if f.kickoff <= resumed.kickoff}
    start = fixtures[0].kickoff - timedelta(days=1)
    if clock is None:
        clock = SimulatedClock(start)
    clock.now = start
    pool = Pool(open_database(url), clock)
    # The tournament as it was known: knock-out sides as the bracket named them, each
    # told once the matches that decide it are over (a file written after the cup knows
    # who reached the final; she must not).
    shown, unknown = bracket.blind(fixtures, numbers)
    pool.fixtures.import_tournament(Tournament(options.tournament.name, tuple(shown)))
    over: set[str] = set()
    key_of = {number: key for key, number in numbers.items()}
    sheet: SheetReport | None = None
    held: dict[str, list[BetRow]] = {}

    def reveal(number: int) -> None:
        over.add(key_of[number])
        told = [u for u in unknown if u.after <= over]
        if told:
            pool.fixtures.import_tournament(
                Tournament(options.tournament.name, tuple(u.real for u in told))
            )
            unknown[:] = [u for u in unknown if u not in told]
        waited = [row for u in told for row in held.pop(u.real.source_key, [])]
        if sheet is not None and waited:  # their teams are known now, before their kick-off
            sheet.took(pool.predictions.import_bets(waited, strict=False), held=True)

    handles = simulated_handles(options.players)
    for handle in handles:
        pool.members.add(handle, handle.capitalize(), via="replay")
    if options.bets_csv:
        rows, unread = read_bets(options.bets_csv)
        if not rows and unread:  # not a sheet of picks at all
            raise BetsFileError(unread)
        picks = bracket.sort_picks(rows, shown, unknown)
        held = picks.held
        sheet = SheetReport(len(rows) + len(unread), held=sum(map(len, held.values())))
        sheet.never = [Refused(row.line, row.player, why).text() for row, why in picks.never]
        sheet.took(pool.predictions.import_bets(picks.ready, unread, strict=False))
    memory = options.memory if zone is None else replace(options.memory, zone=zone)
    meter = UsageMeter()
    if isinstance(model, ModelConfig):
        memory = replace(
            memory,
            learn_from_chat=model.chosen() != "offline",
            model_hears=model.model_hears(),
            declares_claims=model.declares_claims(),
            language=model.language,
        )
        model = make_model(model, meter.report)
    samples: dict[int, ContextSample] = {}
    all_entries: list[int] = []  # tokens of every diary entry ever written, for the naive context

    def measure(record: CallRecord, context: Context | None) -> None:
        number = record.match_number
        if record.task != "remark" or context is None or number is None:
            return
        if pool.match(number).result is None:
            return  # the remark that reads every shelf is the one at the final whistle
        # The prompt after the stable layer (persona and schedule, cached and the
        # same for every call): the part a diary that never forgets would grow.
        tokens = estimate_tokens(record.prompt)
        naive = tokens - context.section("diary").tokens + sum(all_entries)
        if number not in samples or samples[number].tokens < tokens:
            samples[number] = ContextSample(number, tokens, naive)

    keeper, gateway = remembering(pool, model, memory, on_call=measure, meter=meter)
    commentator = Commentator(keeper, gateway)
    commentator.start()
    if options.resume_at is None:
        keeper.enable()
    bettors = [SimulatedBettor.make(handle, options.seed) for handle in handles]
    for action in timeline(pool, options, bettors, commentator):
        clock.advance_to(action.at)
        action.run()
        if action.result_of is not None:
            reveal(action.result_of)
        if action.result_of is not None and on_result is not None:
            on_result(action.result_of)
        if not keeper.enabled():
            if action.result_of is not None and adopted is not None and adopted <= over:
                keeper.enable()  # from here on; what came before is adopted untold
            continue
        commentator.turn()  # the turn serve's scheduler gives her, on the replay's clock
        if action.result_of is not None:
            entry = _entry_for(keeper.store, action.result_of)
            if entry is not None:
                all_entries.append(estimate_tokens(f"{entry.dates} {entry.text}") + 1)
    commentator.catch_up()
    if sheet is not None:  # the file ends before these matches' teams were known
        for row in (row for rows in held.values() for row in rows):
            why = f"{row.team1} v {row.team2} on {row.date}: its teams were never known"
            sheet.never.append(Refused(row.line, row.player, why).text())
    return ReplayReport(
        pool, keeper, commentator, time.perf_counter() - started, list(samples.values()), sheet
    )


def _entry_for(store: MemoryStore, number: int) -> diary.DiaryEntry | None:
    """The match's own entry, just written (the newest entries survive any compaction)."""
    with store.read() as connection:
        _, entries = diary.read(connection)
    return next((e for e in entries if e.covers == (number,)), None)


def summary(report: ReplayReport) -> str:
    """The replay's report for a person; ``--json`` gives all of it."""
    data = report.as_dict()
    leaders = ", ".join(f"{r['rank']}. {r['player']} {r['points']}" for r in data["standings"][:5])
    tokens = data["context_tokens"]
    return "\n".join(
        [
            f"{data['matches']} matches, {data['players']} players, in {data['elapsed_s']:.1f} s",
            f"standings: {leaders}",
            f"diary: {data['diary']['entries']} entries covering {data['diary']['covers_matches']} matches",
            f"facts: {data['facts']['stored']} stored, {data['facts']['rejected_compactions']} rejected compactions",
            f"model calls: {data['model_calls']}, context tokens median {tokens['median']:.0f}, max {tokens['max']}",
            f"remarks: {data['remarks']['count']} made, {data['remarks']['refused_repeats']} refused as repeats",
            *(report.sheet.lines() if report.sheet else []),
        ]
    )


def transcript(pool: Pool, her_name: str) -> str:
    """The replay's chat as the pool showed it: her lines and the players', dated by the
    tournament's clock, made inert for a terminal like every line shown."""
    lines = []
    for item in pool.events(kinds=("chat", "remark")):
        event = item.event
        assert isinstance(event, ChatPosted | RemarkPosted)
        who = her_name if isinstance(event, RemarkPosted) else event.player
        lines.append(f"[{item.at:%d %b %H:%M}] {who}: {clean_line(event.text)}")
    return "\n".join(lines)
