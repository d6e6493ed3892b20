"""The memory keeper: reads the game's log in order and hands each event to its shelf.

The log is read in one place, here. Each event is handled once: its shelf's
write (a diary entry, a fact) and the cursor that marks it handled commit in one
transaction, so a crash either happened before (the event is handled again, from
scratch) or after (it is never handled again). The shelves (``diary_shelf``,
``fact_shelf``) ask for words through an ``Asker`` (the agent's gateway); the
keeper itself talks to no model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, timedelta, tzinfo

from sqlalchemy import Connection

from game.addressing import Addressee
from game.events import ChatPosted, Event, LoggedEvent, PlayerJoined, ResultRecorded
from game.following import Handlers
from game.model import MatchStatus
from game.pool import Pool
from memory import progress
from memory.asking import Asker
from memory.context import ContextBuilder
from memory.diary import DiaryConfig
from memory.diary_shelf import DiaryShelf
from memory.fact_shelf import FactShelf
from memory.store import MemoryStore


@dataclass(frozen=True)
class MemoryConfig:
    diary: DiaryConfig = field(default_factory=DiaryConfig)
    fact_threshold: int = 8  # compact a player's facts when more than this are current
    budget: int = 1200  # tokens for one call's context
    zone: tzinfo = UTC
    learn_from_chat: bool = False  # ask the model for facts in free chat (a real model only)
    model_hears: bool = False  # a model reads each line to her (memory.hearing), not the rules
    declares_claims: bool = False  # her texts come with the claims they make (memory.declared)
    addressee: Addressee = field(default_factory=Addressee)  # who she is: lines to her, hers
    keep_calls: timedelta | None = None  # how long model calls are kept whole; None: always
    language: str = "en"  # the pool's: what she says, whoever asks in which language


@dataclass(frozen=True)
class Taken:
    """What one event means to memory: a write made with the cursor's move, work after."""

    write: Callable[[Connection], None] | None = None
    after: Callable[[], None] | None = None


def contexts_for(store: MemoryStore, config: MemoryConfig) -> ContextBuilder:
    """The one context builder for a pool: the shelves' and the gateway's."""
    return ContextBuilder(
        store,
        config.zone,
        handle=config.addressee.handle,
        name=config.addressee.name,
        language=config.language,
    )


class MemoryKeeper:
    def __init__(
        self,
        pool: Pool,
        asker: Asker,
        config: MemoryConfig,
        store: MemoryStore,
        contexts: ContextBuilder,
    ) -> None:
        self.pool = pool
        self.asker = asker
        self.config = config
        self.store = store
        self.contexts = contexts
        self.diary = DiaryShelf(
            pool,
            store,
            asker,
            contexts,
            config.diary,
            config.zone,
            config.budget,
            config.keep_calls,
            config.language,
        )
        self.facts = FactShelf(
            pool,
            store,
            asker,
            contexts,
            config.addressee,
            config.zone,
            config.fact_threshold,
            config.learn_from_chat,
            config.model_hears,
        )
        self._recovered = False
        # What each event in the log means to memory: the one place to add a kind.
        self.reads = (
            Handlers[Taken]()
            .on(ResultRecorded, self._take_result)
            .on(ChatPosted, self._take_chat)
            .on(PlayerJoined, self._take_joiner)
        )

    # -- start-up -------------------------------------------------------------

    def start(self) -> None:
        """What a run does first, before any reading or rebuilding: a diary rebuild that
        never finished is put back whole. Not in the constructor: building a keeper
        writes nothing."""
        self.diary.recover_interrupted_rebuild()

    def enabled(self) -> bool:
        return progress.enabled(self.store)

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
            self.facts.write_for(item, read_free_chat=False)
            for item in self.pool.events_of(ChatPosted, up_to_id=last)
        ]
        with self.store.write() as connection:
            for write in told:
                if write is not None:
                    write(connection)
            progress.start(connection, last, resolved)
        return True

    def started_after(self) -> int:
        """The last log id before memory was switched on."""
        return progress.started_after(self.store)

    def cursor(self) -> int:
        return progress.cursor(self.store)

    def resolved(self) -> set[int]:
        return progress.resolved(self.store)

    # -- the loop -------------------------------------------------------------

    def catch_up(self) -> int:
        """Handle every event after the cursor, in order; returns how many."""
        if not self.enabled():
            return 0
        handled = 0
        if not self._recovered:
            # A compaction that was due when the last run stopped is finished
            # first; after that, only new material is a reason to try again.
            self.diary.maintain()
            for handle in self.facts.handles():
                self.facts.compact_if_due(handle)
            self._recovered = True
        passed = None  # the last of a run of events with nothing to take in
        for item in self.pool.events(after_id=self.cursor()):
            if self.reads.handles(item):
                self.take(item)  # its cursor move passes the run before it too
                passed = None
            else:
                passed = item.id
            handled += 1
        if passed is not None:
            # One move past a run of picks, not a transaction for each: none of them
            # writes anything, so reading them again after a crash takes in nothing twice.
            with self.store.write() as connection:
                if progress.cursor_in(connection) < passed:
                    progress.move(connection, passed)
        return handled

    def take(self, item: LoggedEvent[Event]) -> None:
        """Take in one event, exactly once: its write and the cursor move commit together."""
        taken = self.reads.dispatch(item) or Taken()
        with self.store.write() as connection:
            if progress.cursor_in(connection) >= item.id:
                return  # handled by someone else meanwhile
            if taken.write is not None:
                taken.write(connection)
            progress.move(connection, item.id)
        if taken.after is not None:
            taken.after()

    def _take_result(self, item: LoggedEvent[ResultRecorded]) -> Taken:
        return Taken(self.diary.entry_for(item), self.diary.maintain)

    def _take_chat(self, item: LoggedEvent[ChatPosted]) -> Taken:
        write = self.facts.write_for(item)
        if write is None:  # a line that told her nothing is no reason to merge
            return Taken()
        return Taken(write, lambda: self.facts.compact_if_due(item.event.player))

    def _take_joiner(self, item: LoggedEvent[PlayerJoined]) -> Taken:
        return Taken(self.facts.joined(item))

    def rebuild_diary(self, on_entry: Callable[[int], None] | None = None) -> int:
        """Write the diary again from the log, up to where memory has read it."""
        if not self.enabled():
            return 0
        return self.diary.rebuild(self.cursor(), on_entry)
