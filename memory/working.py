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
