"""The memory keeper: reads the game's log in order and keeps the shelves.

Each event is handled once. Its effects (a diary entry, a fact) and the
cursor that marks it handled commit in one transaction, so a crash either
happened before (the event is handled again, from scratch) or after (it is
never handled again). Compactions are decided from what is stored, not from
the event that triggered them, so a restart finishes one that was due.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, timedelta, tzinfo

from sqlalchemy import Connection

from game.addressing import Addressee
from game.events import ChatPosted, Event, LoggedEvent, RemarkPosted, ResultRecorded
from game.following import Handlers
from game.model import Match, MatchStatus
from game.pool import Pool
from game.text import clean_block
from memory import diary, facts, usage
from memory.context import Context, ContextBuilder
from memory.contract import Breach, Contract, limits
from memory.diary import DiaryConfig
from memory.guard import named_in
from memory.model import Model, ModelCall, ModelError
from memory.offline import OfflineModel
from memory.quoting import inert, quote_player_text
from memory.requests import (
    Answer,
    DiaryEntry,
    DiaryFusion,
    Ending,
    FactExtraction,
    FactMerge,
    Request,
)
from memory.store import clear_state, get_state, open_memory, set_state
from memory.stories import MatchStory, match_story
from memory.working import working_memory
from prompts import render

CURSOR = "last_handled_event_id"
STARTED_AFTER = "started_after_event_id"
RESOLVED = "resolved_matches"
LAST_DIARY_COMPACTION = "last_diary_compaction"
# The diary as it was when a rebuild began; present only while one is running.
DIARY_BEFORE_REBUILD = "diary_before_rebuild"
log = logging.getLogger("betania.memory")
# Variants of a call after a claim was refused, apart from the guard's attempts 0, 1, 2.
RETRY, OFFLINE = -1, -2


@dataclass(frozen=True)
class MemoryConfig:
    diary: DiaryConfig = field(default_factory=DiaryConfig)
    fact_threshold: int = 8  # compact a player's facts when more than this are current
    budget: int = 1200  # tokens for one call's context
    zone: tzinfo = UTC
    learn_from_chat: bool = False  # ask the model for facts in free chat (a real model only)
    addressee: Addressee = field(default_factory=Addressee)  # who she is: lines to her, hers
    keep_calls: timedelta | None = None  # how long model calls are kept whole; None: always
    language: str = "en"  # the pool's: what she says, whoever asks in which language


@dataclass(frozen=True)
class Taken:
    """What one event means to memory: a write made with the cursor's move, work after."""

    write: Callable[[Connection], None] | None = None
    after: Callable[[], None] | None = None


@dataclass(frozen=True)
class Asked:
    """A model's answer, and the record of the call that got it."""

    text: str
    call_id: int
    replaced: bool = False  # the offline voice's line, after the model's were refused


@dataclass(frozen=True)
class Spoken:
    """What ``MemoryKeeper.say`` found to say (None: nothing new), and the repeats refused."""

    asked: Asked | None
    refused: int = 0
    about: tuple[str, ...] = ()  # the players its final text names, her aside


class MemoryKeeper:
    def __init__(
        self,
        pool: Pool,
        model: Model,
        config: MemoryConfig | None = None,
        fallback: Model | None = None,
        on_call: Callable[[usage.CallRecord, Context | None], None] | None = None,
        meter: usage.UsageMeter | None = None,
    ) -> None:
        self.pool = pool
        self.model = model
        self.config = config or MemoryConfig()
        self.fallback = fallback or OfflineModel(language=self.config.language)
        self.contexts = ContextBuilder(
            pool,
            self.config.zone,
            handle=self.config.addressee.handle,
            name=self.config.addressee.name,
            language=self.config.language,
        )
        # What she says and what she keeps, held to one contract whoever wrote it.
        self.contract = Contract(
            pool, self.config.language, (self.config.addressee.handle, self.config.addressee.name)
        )
        self.on_call = on_call  # told of every call as it is recorded (replays measure them)
        self.meter = meter or usage.UsageMeter()  # where the model's provider reports usage
        self._recovered = False
        # What each event in the log means to memory: the one place to add a kind.
        self.reads = (
            Handlers[Taken]().on(ResultRecorded, self._take_result).on(ChatPosted, self._take_chat)
        )
        open_memory(pool.engine)
        self.recover_interrupted_rebuild()

    # -- start-up -------------------------------------------------------------

    def enabled(self) -> bool:
        with self.pool.work.read() as connection:
            return get_state(connection, CURSOR) is not None

    def enable(self) -> bool:
        """Start remembering from now: finished matches are adopted as resolved, untold.

        A memory switched on mid-tournament writes no story for what it did not
        see; thirty vivid entries about old matches on day one would be false
        memories. What players told her to remember is another matter: it is in
        the log, in their own words, so those facts are adopted, dated as told.
        Returns False when memory was already on.
        """
        if self.enabled():
            return False
        resolved = [m.number for m in self.pool.matches() if m.status is MatchStatus.FINISHED]
        last = self.pool.last_event_id()
        told = [
            self._fact_from(item, read_free_chat=False)
            for item in self.pool.events_of(ChatPosted, up_to_id=last)
        ]
        with self.pool.engine.begin() as connection:
            for write in told:
                if write is not None:
                    write(connection)
            set_state(connection, STARTED_AFTER, str(last))
            set_state(connection, RESOLVED, json.dumps(resolved))
            set_state(connection, CURSOR, str(last))
        return True

    def started_after(self) -> int:
        """The last log id before memory was switched on."""
        with self.pool.work.read() as connection:
            return int(get_state(connection, STARTED_AFTER) or 0)

    def cursor(self) -> int:
        with self.pool.work.read() as connection:
            return int(get_state(connection, CURSOR) or 0)

    def resolved(self) -> set[int]:
        with self.pool.work.read() as connection:
            return set(json.loads(get_state(connection, RESOLVED) or "[]"))

    # -- the loop -------------------------------------------------------------

    def catch_up(self) -> int:
        """Handle every event after the cursor, in order; returns how many."""
        if not self.enabled():
            return 0
        handled = 0
        if not self._recovered:
            # A compaction that was due when the last run stopped is finished
            # first; after that, only new material is a reason to try again.
            self.maintain()
            for handle in self._handles_with_facts():
                self.compact_facts_if_due(handle)
            self._recovered = True
        for item in self.pool.events(after_id=self.cursor()):
            self.handle(item)
            handled += 1
        return handled

    def handle(self, item: LoggedEvent[Event]) -> None:
        """Take in one event, exactly once: its write and the cursor move commit together."""
        taken = self.reads.handle(item) or Taken()
        with self.pool.engine.begin() as connection:
            if int(get_state(connection, CURSOR) or 0) >= item.id:
                return  # handled by someone else meanwhile
            if taken.write is not None:
                taken.write(connection)
            set_state(connection, CURSOR, str(item.id))
        if taken.after is not None:
            taken.after()

    def _take_result(self, item: LoggedEvent[ResultRecorded]) -> Taken:
        return Taken(self._diary_entry_for(item), self.maintain)

    def _take_chat(self, item: LoggedEvent[ChatPosted]) -> Taken:
        write = self._fact_from(item)
        if write is None:  # a line that told her nothing is no reason to merge
            return Taken()
        return Taken(write, lambda: self.compact_facts_if_due(item.event.player))

    # -- the diary ------------------------------------------------------------

    def _diary_entry_for(
        self, item: LoggedEvent[ResultRecorded]
    ) -> Callable[[Connection], None] | None:
        number = item.event.match
        with self.pool.work.read() as connection:
            already = number in diary.covered(connection)
        if already or number in self.resolved() or item.event.previous is not None:
            return None  # told once; a corrected score stays in the log, not a second story
        match = self.pool.match(number)
        working = working_memory(self.pool, match, up_to_id=item.id)
        story = match_story(self.pool, match, self.config.zone, working)
        # The goals and the live chat are in the working memory layer: not twice.
        instruction = render("diary_entry", match=story.as_text(live=False))
        context = self.contexts.build_context(
            item,
            self.config.budget,
            instruction,
            story.scorers()[:2] + story.blanks()[-2:],
            working,
            layers=("working",),
        )
        request = DiaryEntry(story)
        asked = self.ask(context, request, match=number, event_id=item.id)
        # The diary is checked like anything she says: it is what she will remember.
        checked = self.held(asked, context, request, item.id, number)
        text = checked.text if checked else f"{story.label} ({story.stage})."
        day = story.day

        def write(connection: Connection) -> None:
            diary.add_match_entry(connection, number, text, day, self.pool.clock(), item.id)

        return write

    def maintain(self) -> None:
        """Fuse the diary when it is due (or the tournament is over); forget old calls."""
        if self.config.keep_calls is not None:
            with self.pool.engine.begin() as connection:
                usage.prune(connection, self.pool.clock() - self.config.keep_calls)
        with self.pool.work.read() as connection:
            narrative, entries = diary.read(connection)
            told = diary.covered(connection)
        # The tournament is over once every match is finished and told (or was
        # adopted untold at start-up): the final's entry has been written.
        matches = self.pool.matches()
        all_finished = all(m.status is MatchStatus.FINISHED for m in matches)
        closing = all_finished and told | self.resolved() >= {m.number for m in matches}
        fused = diary.to_fuse(entries, self.config.diary, closing=closing)
        if fused:
            self.compact_diary(narrative, fused, self._ending() if closing else None)

    def _ending(self) -> Ending | None:
        """The champion and the pool's winner, once every match is finished."""
        final = max(self.pool.matches(), key=Match.time_order)
        decided, table = final.decided(), self.pool.standings()
        if decided is None or not table:
            return None
        top = table[0].points
        winners = tuple(r.player for r in table if r.points == top)
        podium = tuple((r.player, r.points) for r in table if r.rank <= 3)
        return Ending(decided[0], decided[1], winners, top, podium)

    def compact_diary(
        self,
        narrative: diary.DiaryEntry | None,
        fused: list[diary.DiaryEntry],
        ending: Ending | None = None,
    ) -> bool:
        covers = sorted(
            {n for entry in ([narrative] if narrative else []) + fused for n in entry.covers}
        )
        stories = [self._story(number) for number in covers]
        prompt = render(
            "diary_fusion",
            narrative=f"{narrative.dates} {inert(narrative.text)}" if narrative else "(none yet)",
            entries="\n".join(f"{entry.dates} {inert(entry.text)}" for entry in fused),
            ending=ending.notes() if ending else "",
        )
        context = self.contexts.dated(prompt)
        request = DiaryFusion(tuple(stories), ending)
        call = ModelCall(request.task, context.system, context.prompt, request)
        try:
            asked = self._complete(call, match=None)
        except ModelError:
            return False  # the entries stay as they are; the next result tries again
        # What she will remember of a whole stretch of the tournament: held like her lines.
        kept = self.held(asked, context, request, 0, None)
        if kept is None:
            return False
        text = kept.text
        with self.pool.engine.begin() as connection:
            diary.replace_with_narrative(connection, narrative, fused, text, self.pool.clock())
            set_state(connection, LAST_DIARY_COMPACTION, self.pool.clock().isoformat())
        return True

    def _story(self, number: int) -> MatchStory:
        return match_story(self.pool, self.pool.match(number), self.config.zone)

    def rebuild_diary(self, on_entry: Callable[[int], None] | None = None) -> int:
        """Write the diary again from the log: every result seen since memory started.

        The old diary is saved in the same transaction that clears it, and the
        save is dropped only once the new one is complete: a crash half-way
        leaves the old diary, put back by ``recover_interrupted_rebuild``.
        """
        if not self.enabled():
            return 0
        with self.pool.engine.begin() as connection:
            set_state(connection, DIARY_BEFORE_REBUILD, json.dumps(diary.snapshot(connection)))
            diary.clear(connection)
            started = int(get_state(connection, STARTED_AFTER) or 0)
        written = 0
        for item in self.pool.events_of(ResultRecorded, after_id=started, up_to_id=self.cursor()):
            write = self._diary_entry_for(item)
            if write is not None:
                with self.pool.engine.begin() as connection:
                    write(connection)
                written += 1
                self.maintain()
                if on_entry is not None:
                    on_entry(item.event.match)
        with self.pool.engine.begin() as connection:
            clear_state(connection, DIARY_BEFORE_REBUILD)
        return written

    def recover_interrupted_rebuild(self) -> bool:
        """A rebuild that never finished: the diary from before it, whole. True if one was."""
        with self.pool.engine.begin() as connection:
            saved = get_state(connection, DIARY_BEFORE_REBUILD)
            if saved is None:
                return False
            diary.restore(connection, json.loads(saved))
            clear_state(connection, DIARY_BEFORE_REBUILD)
        log.warning("a diary rebuild was interrupted; the diary from before it is back")
        return True

    # -- player facts ---------------------------------------------------------

    def _fact_from(
        self, item: LoggedEvent[ChatPosted], read_free_chat: bool = True
    ) -> Callable[[Connection], None] | None:
        """A fact from ``@<her handle> remember ...`` always; from free chat when a model reads it.

        ``@<her handle> forget ...`` withdraws the facts it names instead.
        """
        players = {p.handle: p.display_name for p in self.pool.players()}
        today = item.at.astimezone(self.config.zone).date()
        listener = self.config.addressee
        final = self._final_day()
        source = f"log:{item.id}"
        forget = facts.told_to_forget(item.event.text, listener)
        if forget is not None:
            player = item.event.player

            def withdraw(connection: Connection) -> None:
                facts.withdraw(connection, player, forget, today, source)

            return withdraw
        found = facts.read_remember(
            item.event.text, item.event.player, players, today, listener, final
        )
        if found is not None:
            learned = [found]
        elif (
            read_free_chat
            and self.config.learn_from_chat
            and listener.message(item.event.text) is None
        ):
            learned = self._facts_in_chat(item, today, final)
        else:
            return None

        def write(connection: Connection) -> None:
            if facts.has_source(connection, source):
                return
            for fact in learned:
                told = facts.same_as(connection, fact.handle, fact.text)
                if told is not None:  # a duplicate merges at once, whatever the count
                    facts.confirm(connection, told, today)
                    continue
                facts.add(
                    connection, fact.handle, fact.text, today, source, item.at, fact.expires_on
                )

        return write if learned else None

    def _final_day(self) -> date | None:
        """The day of the tournament's last match, for "until the final"."""
        last = max((m.kickoff for m in self.pool.matches()), default=None)
        return None if last is None else last.astimezone(self.config.zone).date()

    def _facts_in_chat(
        self, item: LoggedEvent[ChatPosted], today: date, final: date | None
    ) -> list[facts.Remembered]:
        author = item.event.player
        prompt = render(
            "fact_extraction", author=author, line=quote_player_text(author, item.event.text)
        )
        call = self._dated_call(prompt, FactExtraction(author, item.event.text))
        try:
            answer = self._complete(call, match=None).text
            players = {p.handle: p.display_name for p in self.pool.players()}
            handle = self.config.addressee.handle
            return facts.parse_extracted(
                answer, author, today, players, handle, final, line=item.event.text
            )
        except ModelError:
            return []

    def _handles_with_facts(self) -> list[str]:
        with self.pool.work.read() as connection:
            return sorted({fact.handle for fact in facts.current(connection)})

    def compact_facts_if_due(self, handle: str) -> None:
        """A merge when the player has more facts than the threshold: at most one try a
        day, unless their facts have doubled since the last one."""
        today = self.pool.clock().astimezone(self.config.zone).date()
        with self.pool.work.read() as connection:
            count = len(facts.candidates(connection, handle, today))
            last = facts.last_compaction(connection, handle)
        if count <= self.config.fact_threshold:
            return
        if last is not None:
            tried_on, tried_with = last
            if tried_on.astimezone(self.config.zone).date() == today and count < 2 * tried_with:
                return
        self.compact_facts(handle)

    def compact_facts(self, handle: str) -> bool:
        """Ask for a merge, verify it in code, apply it atomically or record the rejection."""
        today = self.pool.clock().astimezone(self.config.zone).date()
        now = self.pool.clock()
        with self.pool.work.read() as connection:
            sources = facts.candidates(connection, handle, today)
        # Facts are the player's words: quoted as data, like anywhere else.
        listed = "\n".join(
            f"{f.id}: {quote_player_text(handle, f.text, about=handle)}" for f in sources
        )
        prompt = render("fact_merge", player=handle, facts=listed)
        call = self._dated_call(prompt, FactMerge(tuple((f.id, f.text) for f in sources)))
        answer: Asked | None = None
        try:
            answer = self._complete(call, match=None)
            merged = facts.parse_merge(answer.text)
            named = [p.display_name or "" for p in self.pool.players() if p.handle == handle]
            facts.verify_merge(sources, merged, (handle, *named))
        except (ModelError, facts.FactMergeRejected) as error:
            with self.pool.engine.begin() as connection:
                text = answer.text if answer else ""
                facts.record_compaction(connection, handle, False, str(error), sources, text, now)
                if answer is not None:
                    usage.settle(connection, answer.call_id, f"refused: {error}")
            return False
        with self.pool.engine.begin() as connection:
            facts.apply_merge(connection, handle, sources, merged, now)
            output = [{"text": m.text, "covers": list(m.covers)} for m in merged]
            facts.record_compaction(connection, handle, True, "ok", sources, output, now)
            usage.settle(connection, answer.call_id, "merged")
        return True

    # -- model calls ----------------------------------------------------------

    def _dated_call(self, prompt: str, request: Request) -> ModelCall:
        """A call for one task with no other layer: the persona, the date, the prompt."""
        context = self.contexts.dated(prompt)
        return ModelCall(request.task, context.system, context.prompt, request)

    def ask(
        self,
        context: Context,
        request: Request,
        variant: tuple[int, int] = (0, 0),
        match: int | None = None,
        event_id: int | None = None,
    ) -> Asked:
        """One call with a built context; the offline writer answers if the model fails.

        The call is recorded (``memory.usage``); ``settle`` says what became of it.
        """
        call = ModelCall(request.task, context.system, context.prompt, request, variant)
        return self._complete(call, match, context, event_id, fall_back=True)

    def say(
        self,
        item: LoggedEvent[Event],
        request: Request,
        about: list[str],
        instruction: str,
        match: int | None = None,
        attempts: int = 3,
    ) -> Spoken:
        """The one door for the commentator: she says what she wants said and about whom.

        Memory builds the context, asks the model, checks the answer against what
        she said lately about the same players, and records every call; a line that
        repeats one is refused in code and asked again, up to ``attempts`` times.
        """
        guard = self.contexts.guard
        recent = self.pool.events_of(RemarkPosted, since=item.at - guard.window)
        players = {
            p.handle: p.display_name
            for p in self.pool.players()
            if p.handle != self.config.addressee.handle
        }
        teams = {team for m in self.pool.matches() for team in (m.team1, m.team2)}
        masks = [*players, *players.values(), *teams]
        refused = 0
        for attempt in range(attempts):
            context = self.contexts.build_context(item, self.config.budget, instruction, about)
            first = self.ask(context, request, (item.id, attempt), match=match, event_id=item.id)
            asked = self.held(first, context, request, item.id, match)
            if asked is None:
                return Spoken(None, refused)
            # Whom it is about is what it says, not what was asked for.
            named = named_in(asked.text, players)
            # An answer is owed: a repeat is asked again, but the last try is posted anyway.
            owed = isinstance(request, Answer) and attempt == attempts - 1
            if not owed and guard.repeats(asked.text, named, recent, item.at, masks) is not None:
                refused += 1
                self.settle(asked, "refused: repeats a recent remark")
                continue
            return Spoken(asked, refused, tuple(named))
        return Spoken(None, refused)

    def held(
        self, asked: Asked, context: Context, request: Request, event_id: int, match: int | None
    ) -> Asked | None:
        """``asked`` if it keeps the output contract; else one retry told why, else the
        offline voice's line, held to the same contract.

        Each refusal is settled on its call ("refused: contract score 9-7: ..."), so
        ``memory stats`` counts them by rule; None when even the offline line fails.
        """
        grounds = self.contract.grounds(context.system, context.prompt, request)

        def breach(text: str) -> Breach | None:
            return self.contract.check(text, request.text_kind, grounds, match)

        found = breach(asked.text)
        if found is None:
            return asked
        self.settle(asked, f"refused: contract {found}")
        retry = ModelCall(
            request.task,
            context.system,
            f"{context.prompt}\n\n{self._told_why(found, request)}",
            request,
            (event_id, RETRY),
        )
        again = self._complete(retry, match, context, event_id, fall_back=True)
        found = breach(again.text)
        if found is None:
            return again
        self.settle(again, f"refused: contract {found}")
        call = ModelCall(request.task, context.system, context.prompt, request, (event_id, OFFLINE))
        self.meter.take()
        started = time.perf_counter()
        text = self._answer(self.fallback, call)
        found = breach(text)
        outcome = "replaced by the offline voice" + (
            f"; refused: contract {found}" if found else ""
        )
        call_id = self._record(call, match, context, event_id, started, text, outcome, None)
        return None if found else Asked(text, call_id, replaced=True)

    def _told_why(self, breach: Breach, request: Request) -> str:
        characters, _ = limits(request.text_kind)
        return render("contract_refused", reason=breach, characters=characters)

    def settle(self, asked: Asked, outcome: str) -> None:
        """What became of an answer: "posted", "refused: repeat", ..."""
        if asked.replaced:
            outcome = f"replaced by the offline voice; {outcome}"
        with self.pool.engine.begin() as connection:
            usage.settle(connection, asked.call_id, outcome)

    def _complete(
        self,
        call: ModelCall,
        match: int | None,
        context: Context | None = None,
        event_id: int | None = None,
        fall_back: bool = False,
    ) -> Asked:
        """The one door to a model: sanitize, ask, fall back if allowed, record the call.

        Only calls that must be answered now (remarks, answers, entries, picks)
        fall back to the offline writer; memory's upkeep (fusion, merges, facts in
        chat) fails instead and is tried again with the next material.
        """
        # Everything in a prompt came from someone (players, feeds, earlier answers):
        # it reaches the model, and comes back from it, through the one sanitizer.
        call = replace(call, system=clean_block(call.system), prompt=clean_block(call.prompt))
        self.meter.take()  # reports of no call of ours (another tool's) are not this one's
        started = time.perf_counter()
        outcome, error = "answered", None
        try:
            answer = self._answer(self.model, call)
        except ModelError as failure:
            error, outcome = str(failure), f"fallen back: {failure}"
            try:
                if not fall_back:
                    raise
                answer = self._answer(self.fallback, call)
            except ModelError as final:
                self._record(call, match, context, event_id, started, "", f"failed: {final}", error)
                raise
        call_id = self._record(call, match, context, event_id, started, answer, outcome, error)
        return Asked(answer, call_id)

    def _answer(self, model: Model, call: ModelCall) -> str:
        answer = clean_block(model.complete(call)).strip()
        if not answer:
            raise ModelError(f"{model.name} answered nothing for {call.task}")
        return answer

    def _record(
        self,
        call: ModelCall,
        match: int | None,
        context: Context | None,
        event_id: int | None,
        started: float,
        answer: str,
        outcome: str,
        error: str | None,
    ) -> int:
        reports = self.meter.take()
        first = reports[0] if reports else None
        record = usage.CallRecord(
            at=self.pool.clock(),
            task=call.task,
            provider=first.provider if first else self.model.name,
            model=first.model if first else self.model.name,
            system=call.system,
            prompt=call.prompt,
            response=answer,
            outcome=outcome,
            match_number=match,
            event_id=event_id,
            input_tokens=sum(r.input_tokens for r in reports),
            output_tokens=sum(r.output_tokens for r in reports),
            cache_read_tokens=sum(r.cache_read_tokens for r in reports),
            cache_write_tokens=sum(r.cache_write_tokens for r in reports),
            latency_ms=round((time.perf_counter() - started) * 1000),
            error=error,
            fallback=outcome.startswith(("fallen back", "replaced by the offline")),
            sources="; ".join(r.sources for r in reports if r.sources),
        )
        with self.pool.engine.begin() as connection:
            call_id = usage.record(connection, record)
        if self.on_call is not None:
            self.on_call(record, context)
        return call_id
