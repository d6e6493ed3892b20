"""Context assembly: the shelves laid out for one model call, within a token budget.

Order: the immutable persona (the system prefix, byte-identical from call to
call), "Today is ...", a standings summary, the diary, facts about the players
this event involves, recent remarks about them, working memory, the event.
Each middle layer has a share of the budget; what does not fit is cut, lowest
priority first. The persona and the event are never cut.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import TypeVar

from sqlalchemy import Connection

from game.addressing import DEFAULT_HANDLE, DEFAULT_NAME
from game.events import (
    ChatPosted,
    Event,
    GoalScored,
    LoggedEvent,
    MatchKickedOff,
    RemarkPosted,
    ResultRecorded,
)
from game.following import Handlers
from game.league import is_league, league_table, round_of
from game.model import Match
from memory import diary, facts
from memory.guard import RepetitionGuard
from memory.naming import suggest
from memory.quoting import inert, quote_player_text
from memory.retired import RetiredFacts, retired
from memory.spoken_dates import day_in
from memory.store import MemoryStore
from memory.tokens import estimate_tokens
from memory.working import WorkingMemories, WorkingMemory
from prompts import persona, phrase, render

LAYERS = ("standings", "diary", "facts", "remarks", "working")  # in the order they are shown
# Shares of what the budget leaves after the persona, the date and the event.
SHARES = {"standings": 0.10, "diary": 0.40, "facts": 0.20, "remarks": 0.10, "working": 0.20}
# Who gets the budget other layers leave unused, and who keeps it when cutting.
PRIORITY = ("working", "facts", "diary", "remarks", "standings")
R = TypeVar("R")
MENTION = re.compile(r"@([a-z][a-z0-9_.-]{0,31})|\babout\s+([A-Za-z][\w.-]{0,31})", re.IGNORECASE)
NEWEST_KEPT = 2  # diary entries that outrank the narrative when the budget is tight
# Caps that keep a context the same size on day 1 and on day 39, whatever the budget:
FACTS_SHOWN = 3  # facts per player in one prompt, those that fit the moment first
CHAT_SHOWN = 6  # the newest lines of a match's chat; the rest stay in the log
JUST_NOW = timedelta(minutes=30)  # an event older than this is told as "earlier"


@dataclass(frozen=True)
class Item:
    """One line or paragraph of a layer; ``rank`` 0 is kept first."""

    text: str
    rank: int = 0
    trim_from_start: bool = False  # a long narrative loses its oldest part first
    head: str = ""  # the start of ``text`` a trim keeps (its heading): what it is, and when
    every_of: str = ""  # the player whose every fact this line is one of, if asked for all


@dataclass(frozen=True)
class Section:
    name: str
    text: str
    wanted_tokens: int
    dropped: int = 0

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)


@dataclass(frozen=True)
class Context:
    system: str
    sections: tuple[Section, ...]
    involved: tuple[str, ...] = ()
    suggestions: dict[str, list[str]] = field(default_factory=dict)

    @property
    def prompt(self) -> str:
        return "\n\n".join(section.text for section in self.sections if section.text)

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.system) + estimate_tokens(self.prompt)

    def section(self, name: str) -> Section:
        return next(section for section in self.sections if section.name == name)


def fit(items: list[Item], allowance: int) -> tuple[str, int]:
    """Keep the best-ranked items that fit ``allowance`` tokens, shown in their own order."""
    kept: set[int] = set()
    used = 0
    trimmed: dict[int, str] = {}
    for index in sorted(range(len(items)), key=lambda i: items[i].rank):
        item = items[index]
        cost = estimate_tokens(item.text) + 1
        if used + cost <= allowance:
            kept.add(index)
            used += cost
        elif item.trim_from_start and allowance - used > 20:
            cut = trim_start(item, (allowance - used - 1) * 4 - 2)
            if cut is not None:
                trimmed[index] = cut
                kept.add(index)
                used = allowance
    text = "\n".join(trimmed.get(i, items[i].text) for i in range(len(items)) if i in kept)
    return text, len(items) - len(kept)


def trim_start(item: Item, room: int) -> str | None:
    """``item`` in at most ``room`` characters, its oldest words cut: the heading kept, the
    cut marked, never a word cut in two ("...exico 2-0" read as a team). None: no room."""
    mark = _say("cut") + " "
    body = item.text[len(item.head) :]
    left = room - len(item.head) - len(mark)
    if left <= 0:
        return None
    tail = body[-left:]
    if len(tail) < len(body) and not body[-left - 1].isspace():
        tail = tail.split(maxsplit=1)[1] if len(tail.split(maxsplit=1)) == 2 else ""
    if not tail.strip():
        return None
    return f"{item.head}{mark}{tail.lstrip()}"


def allot(wanted: dict[str, int], available: int) -> dict[str, int]:
    """Each layer its share; what a layer leaves unused goes to the others by priority."""
    allowance = {name: min(wanted[name], int(SHARES[name] * available)) for name in PRIORITY}
    spare = available - sum(allowance.values())
    for name in PRIORITY:
        extra = min(spare, wanted[name] - allowance[name])
        allowance[name] += extra
        spare -= extra
    return allowance


def involved_players(
    event: Event | None, text_names: Iterable[str] = (), speaker: str | None = None
) -> list[str]:
    """The players an event concerns: its author (unless ``speaker``, her), whom it names."""
    players = []
    if isinstance(event, ChatPosted | RemarkPosted) and event.player != speaker:
        players.append(event.player)
    if isinstance(event, RemarkPosted):
        players.extend(event.about)
    players.extend(text_names)
    return list(dict.fromkeys(players))


STANDINGS_TOP = 5  # the pool's table rows in her context, beside the players involved
LEAGUE_TOP = 4  # a league table's rows in her context, beside the teams on the pitch
WHOLE_SCHEDULE = 128  # a World Cup's 104 matches fit whole in the cached block; a season not
# A season's rounds in the cached block: with fewer, a ten-match round's block is under
# the 1,024 tokens below which the API caches nothing (two rounds: about 810).
ROUNDS_AHEAD = 4


def rounds_at_hand(matches: list[Match], now: datetime) -> list[Match]:
    """The matches her cached block lists, in time order: every one of a tournament up to
    ``WHOLE_SCHEDULE``; of a longer season, the round of the next match to kick off and
    the ones after it, so the block changes about once a round, not with every result."""
    if len(matches) <= WHOLE_SCHEDULE:
        return matches
    coming = [m for m in matches if m.result is None and m.kickoff >= now]
    next_round = round_of(coming[0]) if coming else None
    if next_round is None:  # no rounds to go by, or the season is over: what is next
        return coming[: WHOLE_SCHEDULE // 8]
    wanted = range(next_round, next_round + ROUNDS_AHEAD)
    return [m for m in matches if round_of(m) in wanted]


def shown_rows(
    rows: Sequence[R], shown: Callable[[int, R], bool], told: Callable[[R], str]
) -> list[str]:
    """The rows of a table that are shown, told, with the rows left out counted where they
    were ("3. ana, (2 more), 6. bia"): ranks 3 then 6 with nothing between reads as a lie."""
    out: list[str] = []
    skipped = 0
    for index, row in enumerate(rows):
        if not shown(index, row):
            skipped += 1
            continue
        if skipped:
            out.append(_say("rows.more", n=skipped))
            skipped = 0
        out.append(told(row))
    if skipped:
        out.append(_say("rows.more", n=skipped))
    return out


class ContextBuilder:
    def __init__(
        self,
        store: MemoryStore,
        zone: tzinfo = UTC,
        guard: RepetitionGuard | None = None,
        handle: str = DEFAULT_HANDLE,
        name: str = DEFAULT_NAME,
        language: str = "en",
    ) -> None:
        self.store = store
        self.pool = store.pool
        self.handle = handle
        self.zone = zone
        self.guard = guard or RepetitionGuard(zone=zone)  # her days are the pool's
        self.persona = persona(name, language)
        # The stable layer as last told, by the state mark it was read at (with the zone
        # and persona it was told in): nothing in it moves but with the pool's state.
        self._system: tuple[tuple[int, tzinfo, str], str] | None = None
        # Each match's working memory up to an event, read on from the last (a context is
        # built again at each retry, and for each event of a match).
        self.working = WorkingMemories(self.pool)
        # How each kind of event is told as "what just happened": one table.
        self.descriptions = (
            Handlers[str]()
            .on(ResultRecorded, self._result_told)
            .on(GoalScored, self._goal_told)
            .on(MatchKickedOff, self._kickoff_told)
            .on(ChatPosted, self._chat_told)
        )

    def now(self) -> datetime:
        return self.pool.clock()

    @property
    def system(self) -> str:
        """The stable layer, sent first and cached: the persona, then the pool itself.

        Nothing in it moves from call to call (no date, no score, no table): it
        changes only when a player joins or a knock-out slot is filled, so a real
        deployment reads it from the model's prompt cache (it is long enough to be
        cached at all: the API caches nothing under 1,024 tokens).
        """
        key = (self.pool.state_mark(), self.zone, self.persona)  # seen before the reads
        kept = self._system
        if kept is not None and kept[0] == key:
            return kept[1]
        rule, basis = self.pool.scoring()
        players = self.pool.names()
        every = sorted(self.pool.matches(), key=Match.time_order)
        shown = rounds_at_hand(every, self.now())
        if len(shown) == len(every):
            heading = _say("schedule.whole", zone=self.zone)
        else:
            heading = _say("schedule.rounds", zone=self.zone, others=len(every) - len(shown))
        schedule = "\n".join(
            f"  #{m.number} {m.kickoff.astimezone(self.zone):%a %d %b %H:%M} "
            f"{inert(m.team1)} v {inert(m.team2)} ({inert(m.stage)})"
            for m in shown
        )
        block = render(
            "pool",
            scoring=f"{rule.exact} points for the exact score, {rule.difference} for the goal "
            f"difference, {rule.outcome} for the winner or a draw ({rule.name}; {basis.value})",
            count=len(players),
            players=", ".join(players),
            schedule_heading=heading,
            schedule=schedule,
        )
        told = f"{self.persona}\n{block}"
        if len(every) <= WHOLE_SCHEDULE:  # every match shown: nothing told moves with the clock
            self._system = (key, told)
        return told

    def today(self) -> Section:
        """The date and time every call is made at: recency means nothing without it."""
        now = self.now().astimezone(self.zone)
        text = _say("today", when=f"{now:%A %d %B %Y, %H:%M}", zone=self.zone)
        return Section("today", text, estimate_tokens(text))

    def dated(self, prompt: str) -> Context:
        """A context of one task's prompt, dated: for calls that need no other layer."""
        return Context(
            self.system, (self.today(), Section("event", prompt, estimate_tokens(prompt)))
        )

    def build_context(
        self,
        event: LoggedEvent[Event] | None,
        budget: int,
        instruction: str = "",
        involved: Iterable[str] = (),
        working: WorkingMemory | None = None,
        layers: Collection[str] = LAYERS,
        every_fact_of: Collection[str] = (),
    ) -> Context:
        """The context for reacting to ``event`` (or to nothing) within ``budget`` tokens.

        ``layers`` are the shelves this task reads: a remark or an answer uses them
        all; a diary entry, notes on one match, needs only the match (the working
        memory) and its own story, not the table, the diary or what she said.

        ``every_fact_of``: players whose every current fact is wanted ("what do you
        remember about me?"), not the few that fit the moment; a cut for room is said.
        Facts she no longer holds (withdrawn, replaced) are masked wherever a layer
        quotes them (``memory.retired``); the event itself is the player's own line.
        """
        now = self.now()
        with self.store.read() as connection:
            gone = retired(connection)
        players = self.pool.names()
        mentioned, suggestions = self._mentions(event, players)
        involved = [
            h
            for h in dict.fromkeys(
                [
                    *involved_players(event.event if event else None, mentioned, self.handle),
                    *involved,
                ]
            )
            if h in players
        ]
        match = self._match_of(event)
        if working is None and match is not None:
            working = self.working.up_to(match, event.id if event else None)

        today = self.today()
        told = self._describe(event)
        event_text = told + (f"\n\n{instruction}" if instruction else "")
        # What facts should fit: a player's own words and the teams on the pitch, never the
        # template that tells the event ("Just now", "final whistle" fit every fact of any).
        said = event.event.text if event is not None and isinstance(event.event, ChatPosted) else ""
        topic = f"{said} {match.team1} {match.team2}" if match else said
        shelves: dict[str, Callable[[], list[Item]]] = {
            "standings": lambda: self._standings_items(involved, now, match),
            "diary": lambda: self._diary_items(gone, told=_result_of(event)),
            "facts": lambda: self._facts_items(
                involved, suggestions, now, topic, every_fact_of, said
            ),
            "remarks": lambda: self._remark_items(involved, now, gone),
            "working": lambda: self._working_items(working, gone, self._ended(working, event)),
        }
        items = {name: read() if name in layers else [] for name, read in shelves.items()}
        # The budget is for what changes from call to call: the pool's stable block is
        # sent once and cached, so only the persona counts against it.
        fixed = estimate_tokens(self.persona) + today.tokens + estimate_tokens(event_text)
        wanted = {
            name: sum(estimate_tokens(i.text) + 1 for i in layer) for name, layer in items.items()
        }
        allowance = allot(wanted, max(0, budget - fixed))
        sections = [today]
        for name in LAYERS:
            text, dropped = fit(items[name], allowance[name])
            if name == "facts":
                text = self._facts_left_out(text, items[name])
            sections.append(Section(name, text, wanted[name], dropped))
        sections.append(Section("event", event_text, estimate_tokens(event_text)))
        return Context(self.system, tuple(sections), tuple(involved), suggestions)

    # -- the layers -----------------------------------------------------------

    def _day(self, moment: datetime) -> str:
        return f"[{moment.astimezone(self.zone):%d %b}]"

    def _mentions(
        self, event: LoggedEvent[Event] | None, players: dict[str, str]
    ) -> tuple[list[str], dict[str, list[str]]]:
        if event is None or not isinstance(event.event, ChatPosted):
            return [], {}
        by_name = {h: h for h in players} | {n.lower(): h for h, n in players.items()}
        found, suggestions = [], {}
        for at_name, about_name in MENTION.findall(event.event.text):
            name = (at_name or about_name).lower().rstrip(".")
            if name == self.handle or name in ("me", "myself", "my", "the", "it"):
                continue
            if name in by_name:
                found.append(by_name[name])
            else:
                suggestions[name] = suggest(name, players)
        return found, suggestions

    def _match_of(self, event: LoggedEvent[Event] | None) -> Match | None:
        if event is not None and isinstance(
            event.event, MatchKickedOff | GoalScored | ResultRecorded
        ):
            return self.pool.match(event.event.match)
        # Live at the event's time, not at the time memory reads it (a catch-up reads a
        # chat line after later kick-offs and whistles): the newest match kicked off by then
        # and not yet finished.
        up_to = event.id if event is not None else None
        ended = {e.event.match for e in self.pool.events_of(ResultRecorded, up_to_id=up_to)}
        started = self.pool.events_of(MatchKickedOff, up_to_id=up_to)
        live = [e.event.match for e in started if e.event.match not in ended]
        return self.pool.match(live[-1]) if live else None

    def _standings_items(
        self, involved: list[str], now: datetime, match: Match | None = None
    ) -> list[Item]:
        table = self.pool.standings()
        if not table:
            return []
        matches = self.pool.matches()
        played = sum(1 for m in matches if m.result is not None)
        body = ", ".join(
            shown_rows(
                table,
                lambda i, r: i < STANDINGS_TOP or r.player in involved,
                lambda r: _say(
                    "standings.row", rank=r.rank, player=r.player, points=r.points, exact=r.exact
                ),
            )
        )
        items = [Item(_say("standings", day=self._day(now), played=played, rows=body))]
        return items + self._league_items(matches, match)

    def _league_items(self, matches: list[Match], match: Match | None) -> list[Item]:
        """A league's own table, its top and the teams on the pitch: what she needs to say
        "Palmeiras top of the league, and nobody here saw it coming". A cup has none."""
        if not is_league(matches):
            return []
        teams = league_table(matches)
        if not teams:
            return []
        playing = {match.team1, match.team2} if match else set()
        rows = ", ".join(
            shown_rows(
                teams,
                lambda i, r: i < LEAGUE_TOP or r.team in playing,
                lambda r: _say(
                    "league.row",
                    rank=r.rank,
                    team=inert(r.team),
                    points=r.points,
                    games=r.played,
                    difference=f"{r.difference:+d}",
                ),
            )
        )
        played = sum(1 for m in matches if m.result is not None)
        return [Item(_say("league", played=played, rows=rows))]

    def _diary_items(self, gone: RetiredFacts, told: int | None = None) -> list[Item]:
        """The narrative, then the entries oldest first; the newest two are kept before all else.

        ``told`` is a match the event itself tells in full (its final whistle): its
        entry, written a moment ago from the same notes, would say it twice.
        """
        with self.store.read() as connection:
            narrative, entries = diary.read(connection)
        entries = [entry for entry in entries if entry.covers != (told,)]
        items = []
        mark = _say("masked")
        story = None if narrative is None else gone.masked(narrative.text, mark)
        if narrative is not None and story is not None:
            head = _say("diary.narrative", dates=narrative.dates, text="")
            text = head + inert(story)
            items.append(Item(text, rank=NEWEST_KEPT, trim_from_start=True, head=head))
        for position, entry in enumerate(entries):
            age = len(entries) - 1 - position
            said = gone.masked(entry.text, mark)
            if said is None:
                continue
            items.append(
                Item(f"{entry.dates} {inert(said)}", rank=age if age < NEWEST_KEPT else age + 1)
            )
        return items

    def _facts_items(
        self,
        involved: list[str],
        suggestions: dict[str, list[str]],
        now: datetime,
        topic: str,
        every_fact_of: Collection[str] = (),
        said: str = "",
    ) -> list[Item]:
        """The facts of the players involved: the few that fit ``topic``, or every one for
        a player in ``every_fact_of``; and, when ``said`` names a day gone by, the facts
        as they stood that day with the days each held ("whom did ana support on 11 Jun?")."""
        today = now.astimezone(self.zone).date()
        asked = day_in(said, today) if said else None
        items = []
        with self.store.read() as connection:
            for rank, handle in enumerate(involved):
                current = facts.for_prompt(connection, handle, today)
                whole = handle in every_fact_of
                known = current if whole else facts.fitting(current, topic, FACTS_SHOWN)
                lines = [
                    # Facts are only ever told by their subject; the prompt says both.
                    f"[{fact.learned_on:%d %b}] "
                    + quote_player_text(handle, fact.text, about=handle)
                    for fact in known
                ]
                heading = _say("facts", handle=handle)
                if whole and lines:
                    # One item a fact, the newest kept first: a cut for room is counted.
                    items.append(Item(heading, rank=rank))
                    items.extend(
                        Item(line, rank=rank + len(lines) - i, every_of=handle)
                        for i, line in enumerate(lines)
                    )
                elif lines:
                    items.append(Item("\n".join([heading, *lines]), rank=rank))
                if asked is not None and asked < today:
                    then = self._facts_then(connection, handle, asked)
                    if then:
                        items.append(Item(then, rank=rank))
        for name, close in suggestions.items():
            hint = " " + _say("unknown_name.hint", names=", ".join(close)) if close else ""
            items.append(Item(_say("unknown_name", name=name, hint=hint), rank=-1))
        return items

    def _facts_then(self, connection: Connection, handle: str, day: date) -> str:
        """``handle``'s facts held on ``day`` that were replaced since, each followed by
        what replaced it, with the days each held; "" when nothing held then changed.
        A withdrawn fact is never told, then or now."""
        stored = {f.id: f for f in facts.stored(connection) if f.handle == handle}
        then = [
            f
            for f in stored.values()
            if f.withdrawn_on is None and f.replaced_on is not None and f.held_on(day)
        ]
        if not then:
            return ""
        lines = [_say("facts.then", handle=handle, day=f"{day:%d %b}")]
        for fact in then:
            step: facts.Fact | None = fact
            while step is not None:
                told = quote_player_text(handle, step.text, about=handle)
                since = f"{step.learned_on:%d %b}"
                if step.replaced_on is None:
                    lines.append(_say("facts.held_since", fact=told, since=since))
                    break
                until = f"{step.replaced_on:%d %b}"
                lines.append(_say("facts.held_until", fact=told, since=since, until=until))
                after = stored.get(step.superseded_by) if step.superseded_by else None
                step = after if after is not None and after.withdrawn_on is None else None
        return "\n".join(lines)

    def _facts_left_out(self, text: str, items: list[Item]) -> str:
        """The facts layer as fitted, saying how many facts of a player asked for all
        of them the budget left out: never a silent cut."""
        kept = set(text.splitlines())
        missing: dict[str, int] = {}
        for item in items:
            if item.every_of and item.text not in kept:
                missing[item.every_of] = missing.get(item.every_of, 0) + 1
        more = [_say("facts.more", n=n, handle=handle) for handle, n in missing.items()]
        return "\n".join([text, *more]) if text else "\n".join(more)

    def _remark_items(self, involved: list[str], now: datetime, gone: RetiredFacts) -> list[Item]:
        """What she said lately about ``involved``, a sentence stating a fact she no longer
        holds masked ("you are allergic to peanuts", said before diego withdrew it)."""
        if not involved:
            return []
        since = now - self.guard.window
        recent = self.guard.recent(self.pool.events_of(RemarkPosted, since=since), involved, now)
        mark = _say("masked")
        said = [
            Item(
                _say(
                    "remarks.said",
                    day=self._day(item.at),
                    about=", ".join(item.event.about),
                    text=inert(text),
                ),
                rank=-i,
            )
            for i, item in enumerate(recent)
            if (text := gone.masked(item.event.text, mark)) is not None
        ]
        if not recent:
            return []
        # headed as hers: after "What you know about marta", a line about paulo would be
        # read as one of marta's facts
        heading = Item(_say("remarks.heading"), rank=-len(recent) - 2)
        return [heading, *said, Item(_say("remarks.new"), rank=-len(recent) - 1)]

    def _ended(self, working: WorkingMemory | None, event: LoggedEvent[Event] | None) -> bool:
        """Whether the working memory's match had ended by ``event`` (a line read later, in
        a catch-up, is told beside the match as it was live then)."""
        if working is None or working.match.result is None:
            return False
        up_to = event.id if event is not None else None
        return bool(
            self.pool.events(kinds=("result",), match_number=working.match.number, up_to_id=up_to)
        )

    def _working_items(
        self, working: WorkingMemory | None, gone: RetiredFacts, ended: bool = False
    ) -> list[Item]:
        if working is None:
            return []
        match = working.match
        kickoff = f"{match.kickoff.astimezone(self.zone):%d %b %H:%M}"
        teams = {"number": match.number, "team1": match.team1, "team2": match.team2}
        live = (
            _say("live.ended", **teams, result=match.result, kickoff=kickoff)
            if ended
            else _say("live", **teams, kickoff=kickoff)
        )
        items = [Item(live, rank=-1)]
        team = {"home": match.team1, "away": match.team2}
        for goal in working.goals:
            told = _say(
                "live.goal",
                minute=_minute(goal),
                team=team[goal.side],
                scorer=_scorer(goal),
                score=working.score_after(goal),
            )
            items.append(Item(told, rank=0))
        mark = _say("masked")
        for age, line in enumerate(reversed(working.chat[-CHAT_SHOWN:])):
            text = gone.masked(line.text, mark)
            if text is None:
                continue
            items.append(
                Item(
                    f"{line.at.astimezone(self.zone):%H:%M} "
                    + quote_player_text(line.player, text),
                    rank=1 + age,
                )
            )
        for said in working.remarks:
            time = f"{said.at.astimezone(self.zone):%H:%M}"
            text = gone.masked(said.text, mark)
            if text is not None:
                items.append(Item(_say("live.said", time=time, text=inert(text)), rank=0))
        return items

    def _describe(self, event: LoggedEvent[Event] | None) -> str:
        """What just happened, as the context's last section tells it."""
        if event is None:
            return _say("event.none")
        told = self.descriptions.dispatch(event)
        return (
            told
            if told is not None
            else _say("event.other", at=self._at(event), kind=event.event.kind)
        )

    def _at(self, event: LoggedEvent[Event]) -> str:
        """When the event was: "Just now [..]", or "Earlier, [..]" when it is told long
        after (the day's digest, the next afternoon, tied to the day's last whistle)."""
        time = f"[{event.at.astimezone(self.zone):%d %b %H:%M}]"
        recent = self.now() - event.at <= JUST_NOW
        return _say("event.now" if recent else "event.earlier", time=time)

    def _result_told(self, event: LoggedEvent[ResultRecorded]) -> str:
        match = self.pool.match(event.event.match)
        return _say("event.result", at=self._at(event), **_teams(match), result=match.result)

    def _goal_told(self, event: LoggedEvent[GoalScored]) -> str:
        goal, match = event.event, self.pool.match(event.event.match)
        scorer = _scorer(goal)
        return _say(
            "event.goal", at=self._at(event), **_teams(match), minute=_minute(goal), scorer=scorer
        )

    def _kickoff_told(self, event: LoggedEvent[MatchKickedOff]) -> str:
        match = self.pool.match(event.event.match)
        return _say("event.kickoff", at=self._at(event), **_teams(match))

    def _chat_told(self, event: LoggedEvent[ChatPosted]) -> str:
        chat = event.event
        quoted = quote_player_text(chat.player, chat.text)
        return _say("event.chat", at=self._at(event), player=chat.player, quoted=quoted)


def _say(section: str, /, **values: object) -> str:
    return phrase("context", section, **values)


def _minute(goal: GoalScored) -> str:
    """The minute as the source gives it, added time too: "90+4", never a bare "90"."""
    return f"{goal.minute}+{goal.added}" if goal.added else str(goal.minute)


def _scorer(goal: GoalScored) -> str:
    """Who scored, and how: an own goal is credited to the side it helped, and named so."""
    how = ", own goal" if goal.own_goal else ", pen" if goal.penalty else ""
    return f"{goal.scorer or 'unknown'}{how}"


def _result_of(event: LoggedEvent[Event] | None) -> int | None:
    return event.event.match if event and isinstance(event.event, ResultRecorded) else None


def _teams(match: Match) -> dict[str, object]:
    return {"number": match.number, "team1": match.team1, "team2": match.team2}
