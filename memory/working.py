"""Working memory: the match in progress, rebuilt from the log whenever it is needed.

It has no table. Goals, live chat and the remarks already made are all in the
game's log; at the final whistle they are condensed into the diary entry, and
nothing else ever reads them again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from game.events import ChatPosted, GoalScored, MatchKickedOff, RemarkPosted
from game.model import Match, tally
from game.pool import Pool


@dataclass(frozen=True)
class LiveLine:
    at: datetime
    player: str
    text: str


@dataclass(frozen=True)
class WorkingMemory:
    match: Match
    goals: tuple[GoalScored, ...]
    chat: tuple[LiveLine, ...]
    remarks: tuple[LiveLine, ...]

    def score_after(self, goal: GoalScored) -> str:
        return str(tally(self.goals[: self.goals.index(goal) + 1]))

    def best_lines(self, count: int = 2) -> list[LiveLine]:
        """The liveliest lines of chat: exclamations first, then the longer ones."""
        ranked = sorted(
            self.chat,
            key=lambda line: (line.text.count("!"), min(len(line.text), 80)),
            reverse=True,
        )
        return sorted(ranked[:count], key=lambda line: line.at)


def working_memory(pool: Pool, match: Match, up_to_id: int | None = None) -> WorkingMemory:
    """What happened in ``match`` from kick-off, as the log has it up to ``up_to_id``."""
    own = pool.events(match_number=match.number, up_to_id=up_to_id)
    kickoff = next((e.at for e in own if isinstance(e.event, MatchKickedOff)), match.kickoff)
    chat: list[LiveLine] = []
    remarks: list[LiveLine] = []
    for said in pool.events_of(ChatPosted, since=kickoff, up_to_id=up_to_id):
        chat.append(LiveLine(said.at, said.event.player, said.event.text))
    for item in own:
        if isinstance(remark := item.event, RemarkPosted):
            remarks.append(LiveLine(item.at, remark.player, remark.text))
    goals = tuple(item.event for item in own if isinstance(item.event, GoalScored))
    return WorkingMemory(match, goals, tuple(chat), tuple(remarks))


@dataclass(frozen=True)
class _Read:
    """A match's working memory as read up to ``up_to_id``, and the kick-off its chat
    was read from (``kicked_off``: the log's, else the schedule's)."""

    up_to_id: int
    kickoff: datetime
    kicked_off: bool
    goals: tuple[GoalScored, ...]
    chat: tuple[LiveLine, ...]
    remarks: tuple[LiveLine, ...]


class WorkingMemories:
    """Each match's working memory up to an event of the log, read on from the last one:
    the log only grows, an id taken once the one before it is written, so what it holds
    up to an event it has shown never changes, and only the events since are read."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self._read: dict[int, _Read] = {}  # by match: the latest read

    def up_to(self, match: Match, up_to_id: int | None) -> WorkingMemory:
        """``working_memory(pool, match, up_to_id)``, the same, read once per event."""
        if up_to_id is None:  # up to now: the log moves on
            return working_memory(self.pool, match)
        last = self._read.get(match.number)
        if last is not None and (
            up_to_id < last.up_to_id or not (last.kicked_off or last.kickoff == match.kickoff)
        ):
            last = None  # an earlier event, or a kick-off moved before it came: read anew
        if last is None:
            read = self._from_start(match, up_to_id)
        elif up_to_id == last.up_to_id:
            read = last
        else:
            read = self._on_from(last, match, up_to_id)
        if match.number not in self._read or self._read[match.number].up_to_id <= read.up_to_id:
            self._read[match.number] = read
        return WorkingMemory(match, read.goals, read.chat, read.remarks)

    def _from_start(self, match: Match, up_to_id: int) -> _Read:
        own = self.pool.events(match_number=match.number, up_to_id=up_to_id)
        kicked = next((e.at for e in own if isinstance(e.event, MatchKickedOff)), None)
        kickoff = match.kickoff if kicked is None else kicked
        chat = self.pool.events_of(ChatPosted, since=kickoff, up_to_id=up_to_id)
        return _Read(
            up_to_id,
            kickoff,
            kicked is not None,
            tuple(item.event for item in own if isinstance(item.event, GoalScored)),
            tuple(LiveLine(said.at, said.event.player, said.event.text) for said in chat),
            tuple(
                LiveLine(item.at, remark.player, remark.text)
                for item in own
                if isinstance(remark := item.event, RemarkPosted)
            ),
        )

    def _on_from(self, last: _Read, match: Match, up_to_id: int) -> _Read:
        after = last.up_to_id
        own = self.pool.events(after_id=after, match_number=match.number, up_to_id=up_to_id)
        if not last.kicked_off and any(isinstance(e.event, MatchKickedOff) for e in own):
            return self._from_start(match, up_to_id)  # the chat is read from its kick-off
        chat = self.pool.events_of(
            ChatPosted, after_id=after, since=last.kickoff, up_to_id=up_to_id
        )
        return _Read(
            up_to_id,
            last.kickoff,
            last.kicked_off,
            last.goals + tuple(item.event for item in own if isinstance(item.event, GoalScored)),
            last.chat
            + tuple(LiveLine(said.at, said.event.player, said.event.text) for said in chat),
            last.remarks
            + tuple(
                LiveLine(item.at, remark.player, remark.text)
                for item in own
                if isinstance(remark := item.event, RemarkPosted)
            ),
        )
