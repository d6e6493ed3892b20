"""The facts shelf: what players told her about themselves, kept, superseded, withdrawn, merged.

A fact is written in the transaction that moves memory's cursor past the line
that told it (``MemoryKeeper.take``); a merge is asked for only after a line
that told her something, and only when the player's count calls for one.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, tzinfo

from sqlalchemy import Connection

from game.addressing import Addressee
from game.events import ChatPosted, LoggedEvent, PlayerJoined
from game.pool import Pool
from memory import facts, hearing, usage
from memory.asking import Asked, Asker, Unanswered
from memory.context import ContextBuilder
from memory.quoting import quote_player_text
from memory.requests import FactExtraction, FactMerge, LineReading
from memory.store import MEMORY_STATE, MemoryStore
from memory.utterance import Chat, Forget, Heard, Remember, may_tell, read_line
from prompts import phrase, render

Write = Callable[[Connection], None]


class FactShelf:
    def __init__(
        self,
        pool: Pool,
        store: MemoryStore,
        asker: Asker,
        contexts: ContextBuilder,
        listener: Addressee,
        zone: tzinfo,
        threshold: int,
        learn_from_chat: bool = False,
        model_hears: bool = False,
    ) -> None:
        self.pool = pool
        self.store = store
        self.asker = asker
        self.contexts = contexts
        self.listener = listener
        self.zone = zone
        self.threshold = threshold  # merge a player's facts when more than this are current
        self.learn_from_chat = learn_from_chat  # ask the model for facts in free chat
        self.model_hears = model_hears  # a model reads each line to her (memory.hearing)

    def _players(self) -> dict[str, str]:
        return self.pool.names()

    def _today(self) -> date:
        return self.pool.clock().astimezone(self.zone).date()

    def joined(self, item: LoggedEvent[PlayerJoined]) -> Write:
        """A player joined: what others told her about them before they were a player
        (stored then, refused now: facts about a player come from that player) leaves
        her use, kept and marked as withdrawn by the join."""
        event, on = item.event, item.at.astimezone(self.zone).date()

        def write(connection: Connection) -> None:
            names = (event.display_name,) if event.display_name else ()
            facts.withdraw_naming(connection, event.player, names, on, f"log:{item.id}")

        return write

    def _may_tell(self, item: LoggedEvent[ChatPosted]) -> bool:
        """Whether a line to the room may tell something of its author: a first person,
        or news of what a fact of theirs holds ("Cork, day one. Biscuit is very confused")."""
        if may_tell(item.event.text):
            return True
        with self.store.read() as connection:
            known = facts.current(connection, item.event.player)
        return any(facts.fits(fact, item.event.text) for fact in known)

    def write_for(self, item: LoggedEvent[ChatPosted], read_free_chat: bool = True) -> Write | None:
        """A fact from ``@<her handle> remember ...`` always; from free chat when a model reads it.

        ``@<her handle> forget ...`` withdraws the facts it names instead.
        """
        today = item.at.astimezone(self.zone).date()
        source = f"log:{item.id}"
        final = self._final_day()
        to_her = self.listener.message(item.event.text) is not None
        if self.model_hears and (to_her or self._may_tell(item)):
            # a line to her, or one to the room that may tell something of its author
            heard = self._heard(item, today, final, to_her)
            if heard is not None:
                return heard
            if not to_her:
                return None  # the model read it and kept nothing; the rules add no guess
        said = read_line(
            item.event.text, item.event.player, self._players(), self.listener, today, final
        )
        if isinstance(said, Forget):
            player = item.event.player

            def withdraw(connection: Connection) -> None:
                if said.private:
                    facts.keep_private(connection, player, said.what)
                else:
                    facts.withdraw(
                        connection, player, said.what, today, source, said.everything, said.line
                    )

            return withdraw
        change: Remember | None = None
        free = isinstance(said, Chat) or (isinstance(said, Remember) and said.overheard)
        if read_free_chat and self.learn_from_chat and free:
            learned = self._facts_in_chat(item, today, final)  # a model reads free chat
        elif isinstance(said, Remember):
            learned = [] if said.told.kept is None else [said.told.kept]
            change = said
        else:
            return None

        def write(connection: Connection) -> None:
            if facts.has_source(connection, source):
                return
            for fact in learned:
                same = facts.same_as(connection, fact.handle, fact.text)
                if same is not None:  # a duplicate merges at once, whatever the count
                    facts.confirm(connection, same, today)
                    continue
                updated = None
                if change is not None and change.change:
                    updated = facts.updated_by(connection, fact.handle, fact.text, change.replaces)
                facts.add(
                    connection,
                    fact.handle,
                    fact.text,
                    today,
                    source,
                    item.at,
                    fact.expires_on,
                    private=change is not None and change.private,
                    replaces=updated,
                )

        return write if learned else None

    def _heard(
        self, item: LoggedEvent[ChatPosted], today: date, final: date | None, to_her: bool = True
    ) -> Write | None:
        """The line read by the model (``memory.hearing``): what passes the rules is written
        with the cursor's move, and the question kept for her answer; None when the model
        gave no reading (the grammar reads the line then)."""
        author, line = item.event.player, item.event.text
        with self.store.read() as connection:
            held = facts.current(connection, author)
        listed = (
            "\n".join(f"{f.id}: {quote_player_text(author, f.text, about=author)}" for f in held)
            or "-"
        )
        where = phrase("moments", "hearing.to_her" if to_her else "hearing.to_the_room")
        prompt = render(
            "hearing", author=author, facts=listed, line=quote_player_text(author, line),
            where=where,
        )  # fmt: skip
        request = LineReading(author, line, tuple((f.id, f.text) for f in held))
        asked = None
        try:
            asked = self.asker.ask(self.contexts.dated(prompt), request, event_id=item.id,
                                   fall_back=False)  # fmt: skip
            reading = hearing.parse(asked.text)
        except (Unanswered, hearing.HearingRejected) as error:
            if asked is not None:
                with self.store.write() as connection:
                    usage.settle(connection, asked.call_id, f"refused: {error}; the rules read it")
            return None
        checked = hearing.check(reading, author, line, held, self._players(), self.listener.handle)
        source, call_id = f"log:{item.id}", asked.call_id

        def write(connection: Connection) -> None:
            if not facts.has_source(connection, source):
                hearing.apply(connection, author, line, checked, today, source, item.at, final)
            MEMORY_STATE.set(
                connection, f"heard:{item.id}", hearing.saved(reading.question, checked)
            )
            outcome = f"heard: {len(checked.ops)} applied"
            if checked.refused:
                outcome += "; refused: " + "; ".join(checked.refused)
            usage.settle(connection, call_id, outcome)

        return write

    def _final_day(self) -> date | None:
        """The day of the tournament's last match, for "until the final"."""
        last = max((m.kickoff for m in self.pool.matches()), default=None)
        return None if last is None else last.astimezone(self.zone).date()

    def _facts_in_chat(
        self, item: LoggedEvent[ChatPosted], today: date, final: date | None
    ) -> list[Heard]:
        author = item.event.player
        prompt = render(
            "fact_extraction", author=author, line=quote_player_text(author, item.event.text)
        )
        request = FactExtraction(author, item.event.text)
        try:
            answer = self.asker.ask(self.contexts.dated(prompt), request, fall_back=False).text
        except Unanswered:
            return []
        return facts.parse_extracted(
            answer,
            author,
            today,
            self._players(),
            self.listener.handle,
            final,
            line=item.event.text,
        )

    def handles(self) -> list[str]:
        """The players with a current fact."""
        with self.store.read() as connection:
            return sorted({fact.handle for fact in facts.current(connection)})

    def compact_if_due(self, handle: str) -> None:
        """A merge when the player has more facts than the threshold: at most one try a
        day, unless their facts have doubled since the last one."""
        today = self._today()
        with self.store.read() as connection:
            count = len(facts.candidates(connection, handle, today))
            last = facts.last_compaction(connection, handle)
        if count <= self.threshold:
            return
        if last is not None:
            tried_on, tried_with = last
            if tried_on.astimezone(self.zone).date() == today and count < 2 * tried_with:
                return
        self.compact(handle)

    def compact(self, handle: str) -> bool:
        """Ask for a merge, verify it in code, apply it atomically or record the rejection."""
        today, now = self._today(), self.pool.clock()
        with self.store.read() as connection:
            sources = facts.candidates(connection, handle, today)
        # Facts are the player's words: quoted as data, like anywhere else.
        listed = "\n".join(
            f"{f.id}: {quote_player_text(handle, f.text, about=handle)}" for f in sources
        )
        prompt = render("fact_merge", player=handle, facts=listed)
        request = FactMerge(tuple((f.id, f.text) for f in sources))
        answer: Asked | None = None
        try:
            answer = self.asker.ask(self.contexts.dated(prompt), request, fall_back=False)
            merged = facts.parse_merge(answer.text)
            named = [p.display_name or "" for p in self.pool.players() if p.handle == handle]
            facts.verify_merge(sources, merged, (handle, *named))
        except (Unanswered, facts.FactMergeRejected) as error:
            with self.store.write() as connection:
                text = answer.text if answer else ""
                facts.record_compaction(connection, handle, False, str(error), sources, text, now)
                if answer is not None:
                    usage.settle(connection, answer.call_id, f"refused: {error}")
            return False
        with self.store.write() as connection:
            facts.apply_merge(connection, handle, sources, merged, now)
            output = [{"text": m.text, "covers": list(m.covers)} for m in merged]
            facts.record_compaction(connection, handle, True, "ok", sources, output, now)
            usage.settle(connection, answer.call_id, "merged")
        return True
