"""BETanIA in the pool: she reacts to the final whistle with a remark, guarded against repeats.

She speaks through the game's own API (``Pool.post_remark``) like any player,
and a remark is tied to the event that prompted it, so a restart never makes
her say it twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.events import LoggedEvent, RemarkPosted
from memory.guard import RepetitionGuard
from memory.keeper import MemoryKeeper
from memory.stories import match_story
from prompts import render

BOT_HANDLE = "betania"
BOT_NAME = "BETanIA"


@dataclass
class RemarkStats:
    count: int = 0
    refused_repeats: int = 0
    silent: int = 0


class Commentator:
    def __init__(
        self,
        keeper: MemoryKeeper,
        handle: str = BOT_HANDLE,
        guard: RepetitionGuard | None = None,
        attempts: int = 3,
    ) -> None:
        self.keeper = keeper
        self.pool = keeper.pool
        self.handle = handle
        self.guard = guard or keeper.contexts.guard
        self.attempts = attempts
        self.stats = RemarkStats()
        if self.pool.player(handle) is None:
            self.pool.add_player(handle, BOT_NAME, via="bot")

    def after_result(self, item: LoggedEvent) -> RemarkPosted | None:
        """The remark on who scored and who did not; silence if she would only repeat herself."""
        match = self.pool.match(item.event.match)
        story = match_story(self.pool, match, self.keeper.config.zone)
        about = (story.exact() or story.blanks()[-2:] or story.scorers()[:2])[:2]
        recent = self.pool.events(kinds=(RemarkPosted.kind,), since=item.at - self.guard.window)
        for attempt in range(self.attempts):
            instruction = render(
                "remark", about=", ".join(about) or "the match", event=story.as_text()
            )
            context = self.keeper.contexts.build_context(
                item, self.keeper.config.budget, instruction, about
            )
            data = {"kind": "final_whistle", "story": story, "about": about, "attempt": attempt}
            text = self.keeper.ask("remark", context, data, match=match.number)
            if self.guard.repeats(text, about, recent, item.at) is not None:
                self.stats.refused_repeats += 1
                continue
            posted = self.pool.post_remark(self.handle, text, about, match.number, trigger=item.id)
            if posted is not None:
                self.stats.count += 1
            return posted
        self.stats.silent += 1
        return None
