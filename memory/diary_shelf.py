"""The diary shelf: one entry per match told, fused into a narrative as it ages.

An entry is written in the transaction that moves memory's cursor past the
result (``MemoryKeeper.take``); fusions are decided from what is stored, not
from the event that triggered them, so a restart finishes one that was due.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import timedelta, tzinfo

from sqlalchemy import Connection

from game.events import LoggedEvent, ResultRecorded
from game.league import champions, is_league
from game.model import Match, MatchStatus
from game.pool import Pool
from memory import diary, progress, usage
from memory.asking import Asker, Unanswered
from memory.context import ContextBuilder
from memory.diary import DiaryConfig
from memory.quoting import inert
from memory.requests import DiaryFusion, Ending, MatchEntry
from memory.store import MEMORY_STATE, MemoryStore
from memory.stories import MatchStory, match_story
from memory.working import working_memory
from prompts import phrase, render

LAST_DIARY_COMPACTION = "last_diary_compaction"
# The diary as it was when a rebuild began; present only while one is running.
DIARY_BEFORE_REBUILD = "diary_before_rebuild"
log = logging.getLogger("betania.memory")


class DiaryShelf:
    def __init__(
        self,
        pool: Pool,
        store: MemoryStore,
        asker: Asker,
        contexts: ContextBuilder,
        config: DiaryConfig,
        zone: tzinfo,
        budget: int,
        keep_calls: timedelta | None = None,
        language: str = "en",
    ) -> None:
        self.pool = pool
        # the pool's, as the persona names it: her diary is in the language her lines are
        # held to (the contract refuses an entry in any other)
        self.language = phrase("languages", language)
        self.store = store
        self.asker = asker
        self.contexts = contexts
        self.config = config
        self.zone = zone
        self.budget = budget
        self.keep_calls = keep_calls

    def entry_for(self, item: LoggedEvent[ResultRecorded]) -> Callable[[Connection], None] | None:
        """The write of a result's entry, or None when the match is told already."""
        number = item.event.match
        with self.store.read() as connection:
            already = number in diary.covered(connection)
        if already or number in progress.resolved(self.store) or item.event.previous is not None:
            return None  # told once; a corrected score stays in the log, not a second story
        match = self.pool.match(number)
        working = working_memory(self.pool, match, up_to_id=item.id)
        story = match_story(self.pool, match, self.zone, working)
        # The goals and the live chat are in the working memory layer: not twice.
        instruction = render("diary_entry", match=story.as_text(live=False), language=self.language)
        context = self.contexts.build_context(
            item,
            self.budget,
            instruction,
            story.scorers()[:2] + story.blanks()[-2:],
            working,
            layers=("working",),
        )
        request = MatchEntry(story)
        asked = self.asker.ask(context, request, match=number, event_id=item.id)
        # The diary is checked like anything she says: it is what she will remember.
        checked = self.asker.held(asked, context, request, item.id, number)
        text = (
            checked.text
            if checked
            else phrase("lines", "diary_plain", match=story.label, stage=story.stage)
        )
        day = story.day

        def write(connection: Connection) -> None:
            diary.add_match_entry(connection, number, text, day, self.pool.clock(), item.id)

        return write

    def maintain(self) -> None:
        """Fuse the diary when it is due (or the tournament is over); forget old calls."""
        if self.keep_calls is not None:
            with self.store.write() as connection:
                usage.prune(connection, self.pool.clock() - self.keep_calls)
        with self.store.read() as connection:
            narrative, entries = diary.read(connection)
            told = diary.covered(connection)
        # The tournament is over once every match is finished and told (or was
        # adopted untold at start-up): the final's entry has been written.
        matches = self.pool.matches()
        all_finished = all(m.status is MatchStatus.FINISHED for m in matches)
        closing = all_finished and told | progress.resolved(self.store) >= {
            m.number for m in matches
        }
        fused = diary.to_fuse(entries, self.config, closing=closing)
        # how it all ended only in a narrative that tells the last match: one that crowned
        # the champion before the final's own entry would tell the story out of order
        last = max(matches, key=Match.time_order).number if matches else None
        ending = closing and any(last in entry.covers for entry in fused)
        if fused:
            self.compact(narrative, fused, self._ending() if ending else None)

    def _ending(self) -> Ending | None:
        """The champion and the pool's winner, once every match is finished."""
        matches = self.pool.matches()
        decided, table = champions(matches), self.pool.standings()
        if decided is None or not table:
            return None
        top = table[0].points
        winners = tuple(r.player for r in table if r.points == top)
        podium = tuple((r.player, r.points) for r in table if r.rank <= 3)
        return Ending(decided[0], decided[1], winners, top, podium, is_league(matches))

    def compact(
        self,
        narrative: diary.DiaryEntry | None,
        fused: list[diary.DiaryEntry],
        ending: Ending | None = None,
    ) -> bool:
        covers = sorted(
            {n for entry in ([narrative] if narrative else []) + fused for n in entry.covers}
        )
        stories = [self.story(number) for number in covers]
        prompt = render(
            "diary_fusion",
            narrative=f"{narrative.dates} {inert(narrative.text)}" if narrative else "(none yet)",
            entries="\n".join(f"{entry.dates} {inert(entry.text)}" for entry in fused),
            ending=ending.notes() if ending else "",
            language=self.language,
        )
        context = self.contexts.dated(prompt)
        request = DiaryFusion(tuple(stories), ending)
        try:
            asked = self.asker.ask(context, request, fall_back=False)
        except Unanswered:
            return False  # the entries stay as they are; the next result tries again
        # What she will remember of a whole stretch of the tournament: held like her lines.
        kept = self.asker.held(asked, context, request, 0, None)
        if kept is None:
            return False
        with self.store.write() as connection:
            diary.replace_with_narrative(connection, narrative, fused, kept.text, self.pool.clock())
            MEMORY_STATE.set(connection, LAST_DIARY_COMPACTION, self.pool.clock().isoformat())
        return True

    def story(self, number: int) -> MatchStory:
        return match_story(self.pool, self.pool.match(number), self.zone)

    def rebuild(self, up_to_id: int, on_entry: Callable[[int], None] | None = None) -> int:
        """Write the diary again from the log: every result seen since memory started.

        The old diary is saved in the same transaction that clears it, and the
        save is dropped only once the new one is complete: a crash half-way
        leaves the old diary, put back by ``recover_interrupted_rebuild``.
        """
        with self.store.write() as connection:
            saved = json.dumps(diary.snapshot(connection))
            MEMORY_STATE.set(connection, DIARY_BEFORE_REBUILD, saved)
            diary.clear(connection)
            started = progress.started_after_in(connection)
        written = 0
        for item in self.pool.events_of(ResultRecorded, after_id=started, up_to_id=up_to_id):
            write = self.entry_for(item)
            if write is not None:
                with self.store.write() as connection:
                    write(connection)
                written += 1
                self.maintain()
                if on_entry is not None:
                    on_entry(item.event.match)
        with self.store.write() as connection:
            MEMORY_STATE.clear(connection, DIARY_BEFORE_REBUILD)
        return written

    def recover_interrupted_rebuild(self) -> bool:
        """A rebuild that never finished: the diary from before it, whole. True if one was."""
        with self.store.write() as connection:
            saved = MEMORY_STATE.get(connection, DIARY_BEFORE_REBUILD)
            if saved is None:
                return False
            diary.restore(connection, json.loads(saved))
            MEMORY_STATE.clear(connection, DIARY_BEFORE_REBUILD)
        log.warning("a diary rebuild was interrupted; the diary from before it is back")
        return True
