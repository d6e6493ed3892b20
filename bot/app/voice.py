"""How she talked over a pool, read back from its log: the figures issue 9 asks for.

Lines to her answered / asked; remarks aimed at a player that repeat a wording
said about them within 72 hours of tournament time (names, teams and numbers
masked); players whose facts she used outside the acknowledgement / players who
told her facts; texts the output contract refused, by rule; distinct wordings per 100
remarks; and how often each stock line of the offline voice was said, and said
again too soon (``stock_use``). ``bench/voice_report.py`` prints them for a full
replay, and the tests hold a full replay to them in both languages.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo

from game.addressing import Addressee
from game.events import ChatPosted, LoggedEvent, RemarkPosted
from memory import facts, usage
from memory.guard import RepetitionGuard, masked, similarity, stock_lines_about
from memory.store import MemoryStore
from prompts import stock_lines

REPEAT_WINDOW = timedelta(hours=72)


@dataclass(frozen=True)
class VoiceFigures:
    asked: int
    answered: int
    repeats: int  # remarks about a player repeating an earlier wording about them, in 72 h
    tellers: frozenset[str]  # players who told her facts
    used: frozenset[str]  # ... whose facts she brought up outside the acknowledgement
    refused_by_rule: dict[str, int] = field(default_factory=dict)
    replaced_offline: int = 0
    remarks: int = 0
    wordings: int = 0  # distinct remark wordings, names, teams and numbers masked

    @property
    def wordings_per_100(self) -> float:
        return 100 * self.wordings / self.remarks if self.remarks else 0.0

    def lines(self) -> list[str]:
        unused = ", ".join(sorted(self.tellers - self.used))
        refused = ", ".join(f"{k} {n}" for k, n in sorted(self.refused_by_rule.items()))
        return [
            f"lines to her answered: {self.answered} / {self.asked}",
            f"remarks aimed at a player repeating a wording within 72 h: {self.repeats}",
            "players whose facts she used outside the acknowledgement: "
            f"{len(self.used)} / {len(self.tellers)}" + (f" (not: {unused})" if unused else ""),
            f"texts refused by the output contract, by rule: {refused or 'none'}; "
            f"replaced by the offline voice: {self.replaced_offline}",
            f"remarks: {self.remarks}; distinct wordings per 100 remarks: "
            f"{self.wordings_per_100:.1f}",
        ]


def measure(store: MemoryStore, her: Addressee | None = None) -> VoiceFigures:
    """How she talked in the pool ``store`` keeps memory for."""
    her, pool = her or Addressee(), store.pool
    remarks = pool.events_of(RemarkPosted)
    asked = [c for c in pool.events_of(ChatPosted) if her.message(c.event.text) is not None]
    answered = {r.event.trigger for r in remarks}
    names = {p.handle: p.display_name for p in pool.players()}
    teams = {t for m in pool.matches() for t in (m.team1, m.team2)}
    masks = [*names, *names.values(), *teams]
    with store.read() as connection:
        told = facts.stored(connection)
        totals = usage.totals(connection)
    return VoiceFigures(
        asked=len(asked),
        answered=sum(c.id in answered for c in asked),
        repeats=_repeats(remarks, masks),
        tellers=frozenset(f.handle for f in told if f.source.startswith("log:")),
        used=frozenset(_used(told, remarks)),
        refused_by_rule=dict(totals["refused_by_rule"]),
        replaced_offline=totals["replaced_offline"],
        remarks=len(remarks),
        wordings=len({masked(r.event.text, masks) for r in remarks}),
    )


def _repeats(remarks: list[LoggedEvent[RemarkPosted]], masks: list[str]) -> int:
    threshold = RepetitionGuard().threshold
    repeats = 0
    for i, later in enumerate(remarks):
        for earlier in remarks[:i]:
            shared = set(later.event.about) & set(earlier.event.about)
            if (
                shared
                and later.at - earlier.at <= REPEAT_WINDOW
                and similarity(later.event.text, earlier.event.text, masks) >= threshold
            ):
                repeats += 1
                break
    return repeats


def _used(told: list[facts.Fact], remarks: list[LoggedEvent[RemarkPosted]]) -> set[str]:
    used = set()
    for fact in told:
        source = int(fact.source[4:]) if fact.source.startswith("log:") else None
        words = fact.text.replace(fact.handle, "").strip()
        if any(r.event.trigger != source and facts.keeps(words, r.event.text) for r in remarks):
            used.add(fact.handle)
    return used


@dataclass
class StockUse:
    """How often each stock line was said, and how often one came back too soon."""

    said: Counter[str] = field(default_factory=Counter)  # by template
    # Said again too soon (the scheduled frames apart): on the same day (in ``zone``),
    # or within 72 hours naming the same player in its own words (``stock_lines_about``).
    twice_a_day: int = 0
    twice_to_one: int = 0


def stock_use(
    remarks: list[LoggedEvent[RemarkPosted]], language: str, zone: tzinfo = UTC
) -> StockUse:
    use = StockUse()
    days: set[tuple[str, date]] = set()
    last_to: dict[tuple[str, str], datetime] = {}
    for item in remarks:
        for line in stock_lines(language):
            if not line.found_in(item.event.text):
                continue
            use.said[line.template] += 1
            if line.scheduled:  # once a day or a round by design, not a repeat
                continue
            day = (line.template, item.at.astimezone(zone).date())
            use.twice_a_day += day in days
            days.add(day)
            about = {
                player
                for template, player in stock_lines_about(item.event.text, item.event.about)
                if template == line.template
            }
            for player in about:
                before = last_to.get((line.template, player))
                use.twice_to_one += before is not None and item.at - before <= REPEAT_WINDOW
                last_to[(line.template, player)] = item.at
    return use
