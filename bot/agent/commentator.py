"""BETanIA in the pool: she bets, reacts, answers, and knows when to stay quiet.

She takes part the way a player does, through the game's own API: her picks
with ``pool.predictions.place`` (refused from kick-off like anyone's), her lines
with ``pool.talk.remark``. Each remark is tied to the event that prompted it,
so a restart never makes her say it twice; a policy in code caps how much she
talks per match and how often she picks on the same player.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from bot.agent import predictor, storylines, wrapup
from bot.agent.gateway import Gateway
from bot.agent.questions import Questions
from bot.agent.requests import (
    TOP_STORIES,
    Answer,
    BigJump,
    Correction,
    Digest,
    FinalWhistle,
    Forgetful,
    GoalMoment,
    KickOff,
    NewLeader,
    NotYours,
    PickOf,
    PickWanted,
    Remark,
    RoundDay,
    Storyline,
    Welcome,
    in_play_of,
)
from game import bonus, matchdays
from game.events import (
    ChatPosted,
    Event,
    GoalScored,
    LoggedEvent,
    MatchKickedOff,
    PickReminder,
    PlayerJoined,
    RemarkPosted,
    ResultRecorded,
)
from game.following import Handlers
from game.league import is_league, league_table, round_day, round_of
from game.model import Match, MatchStatus, Score
from game.pool.extras import BonusClosed, bonus_open
from game.rules import PredictionLocked
from game.shares import Shares, shares_of
from game.teams import is_placeholder
from game.words import Words
from memory import facts
from memory.keeper import MemoryKeeper
from memory.quoting import quote_player_text
from memory.requests import note
from memory.store import AGENT_STATE
from memory.stories import match_story, shuffled_key
from prompts import phrase, render

CURSOR = "commentator_cursor"
LAST_DIGEST = "last_digest_day"
WRAP_UP = "wrap-up"  # the remark after the last whistle, beside the one on the final
TABLE = "table"  # a remark on what a result did to the standings, beside the one on the match
DIGEST = "digest"  # the day's digest (with its date), beside whatever was said on its trigger
LATE_MINUTE = 85  # a goal this late always deserves a word
LIKELIEST_SHOWN = 5  # the scores her pick prompt lists with their chances
SCORE_IN_ANSWER = re.compile(r"\b(\d{1,2})\s*[-x:]\s*(\d{1,2})\b")


@dataclass(frozen=True)
class Policy:
    """How much she may talk: caps per match, a cooldown per player, and patience."""

    goal_remarks_per_match: int = 2
    remarks_per_match: int = 6
    player_cooldown: timedelta = timedelta(hours=6)
    jump_places: int = 3
    attempts: int = 3  # phrasings to try before staying silent
    # Before kick-off by less than the prompt cache's hour: the call for her pick keeps
    # the cached prefix warm for the kick-off's remark (at exactly an hour it is gone).
    picks_ahead: timedelta = timedelta(minutes=50)
    digest_hour: int | None = 22  # the day's digest once this hour has come, pool time


@dataclass
class RemarkStats:
    count: int = 0
    refused_repeats: int = 0
    silent: int = 0
    capped: int = 0


class Commentator:
    def __init__(
        self,
        keeper: MemoryKeeper,
        gateway: Gateway,
        policy: Policy | None = None,
        earlier_season: Sequence[Match] = (),
    ) -> None:
        self.keeper = keeper  # what she remembers
        self.gateway = gateway  # how she is heard: every model call
        self.store = keeper.store
        self.pool = keeper.pool
        self.policy = policy or Policy()
        self.addressee = keeper.config.addressee  # who she is, from the one setting
        self.her = self.addressee.handle  # the handle she plays and talks under
        self.stats = RemarkStats()
        self.words = Words(keeper.config.language)  # the pool's: days and results she names
        # An earlier season's results, when given: where her club ratings start.
        self.earlier_season = tuple(earlier_season)
        self.questions = Questions(
            self.store, self.addressee, keeper.config.zone, self.words, self.earlier_season
        )
        # What each event in the log means to her: the one place to add a reaction.
        self.reactions = (
            Handlers[None]()
            .on(MatchKickedOff, self.on_kickoff)
            .on(GoalScored, self.on_goal)
            .on(ResultRecorded, self.on_result)
            .on(ChatPosted, self.on_chat)
            .on(PlayerJoined, self.on_join)
            .on(PickReminder, self.on_reminder)
        )

    def start(self) -> None:
        """Her seat in the pool, taken where she is wired (serve, the demo, a replay): a
        player like any other, added the first time. Building her writes nothing, so an
        object made to read (a pick worked out, a test) never changes the database."""
        if self.pool.player(self.her, with_keys=False) is None:
            self.pool.members.add(self.her, self.addressee.name, via="bot")

    # -- the loop -------------------------------------------------------------

    def outlook(self) -> predictor.Outlook:
        """What she knows when she picks: the ratings up to now."""
        return predictor.outlook(self.pool.matches(), before=self.earlier_season)

    def turn(self) -> None:
        """Her turn on the pool's clock, whatever drives it (serve's scheduler, the demo,
        a replay): her picks for matches about to start, her reactions to what happened,
        and once the digest hour has come in the pool's time zone, the day's digest.
        Read at one state of the pool (``Pool.pinned``) but for her own writes."""
        with self.pool.pinned():
            self.pick_bonus()
            self.predict_upcoming()
            self.catch_up()
            day = self.digest_due()
            if day is not None:
                self.digest(day)

    def digest_due(self) -> date | None:
        """The day whose digest is due now: a match day of the pool (``game.matchdays``,
        the date where its matches are played) whose matches are all over, today once
        the digest hour has come by her clock, or yesterday at any hour (its last match
        ran past midnight here, or far past it in a zone east of the venues); else
        today without matches, once the hour has come (a day without matches is told on
        the day, never the morning after). Never while a match is in play; each day
        once, and never a day before one told."""
        if self.policy.digest_hour is None:
            return None
        now = self.pool.clock().astimezone(self.keeper.config.zone)
        today, yesterday = now.date(), now.date() - timedelta(days=1)
        candidates = [yesterday, today] if now.hour >= self.policy.digest_hour else [yesterday]
        with self.store.read() as connection:
            told = AGENT_STATE.get(connection, LAST_DIGEST)
        candidates = [day for day in candidates if told is None or day.isoformat() > told]
        if not candidates:
            return None  # told already: no need to read the fixtures on every turn
        matches = self.pool.matches()
        if any(m.status is MatchStatus.LIVE for m in matches):
            return None
        for day in candidates:  # in order: no day is told while the one before waits
            played = self._played_on(matches, day)
            if played:
                over = all(m.status is not MatchStatus.SCHEDULED for m in played)
                return day if over else None
            if day == today:
                return day
        return None

    def cursor(self) -> int:
        with self.store.read() as connection:
            value = AGENT_STATE.get(connection, CURSOR)
        if value is None:  # she starts where memory started: no remarks about the past
            return self.keeper.started_after()
        return int(value)

    def catch_up(self) -> int:
        """Memory first, then her reactions to what memory has taken in, each once."""
        self.keeper.catch_up()
        reacted = 0
        passed = None  # the last of a run of events she has no reaction to
        for item in self.pool.events(after_id=self.cursor(), up_to_id=self.keeper.cursor()):
            if self.reacts_to(item):
                self.react(item)
                self._move_cursor(item.id)
                passed = None
            else:
                passed = item.id  # a pick: her cursor passes it with the next move
            reacted += 1
        if passed is not None:
            self._move_cursor(passed)
        return reacted

    def _move_cursor(self, event_id: int) -> None:
        with self.store.write() as connection:
            AGENT_STATE.set(connection, CURSOR, str(event_id))

    def reacts_to(self, item: LoggedEvent[Event]) -> bool:
        """Whether ``item`` has a reaction of hers: never her own lines."""
        return item.event.handle != self.her and self.reactions.handles(item)

    def react(self, item: LoggedEvent[Event]) -> None:
        if self.reacts_to(item):
            self.reactions.dispatch(item)

    def on_result(self, item: LoggedEvent[ResultRecorded]) -> None:
        if item.event.previous is None:
            self.after_result(item)
            self.on_table_move(item)
            if wrapup.is_over(self.pool):
                self.wrap_up(item)
        else:
            self.on_correction(item)

    def wrap_up(self, item: LoggedEvent[ResultRecorded]) -> RemarkPosted | None:
        """After the last whistle: the champion, the pool's winner, her finish, the story."""
        request = wrapup.wrap_up(self.pool, self.her)
        instruction = render("wrapup", notes=request.notes())
        return self.speak(item, request, [], instruction, None, capped=False, topic=WRAP_UP)

    def on_chat(self, item: LoggedEvent[ChatPosted]) -> None:
        if self.addressee.message(item.event.text) is not None:
            self.answer(item)

    def on_join(self, item: LoggedEvent[PlayerJoined]) -> None:
        if item.event.via in ("open", "invite"):  # a newcomer over SSH, not an import
            self.welcome(item)

    def on_reminder(self, item: LoggedEvent[PickReminder]) -> None:
        """A tease for the players the pool just reminded, before the kick-off: she names
        only them, and knows nobody's pick (there are none to tell, and the others'
        stay hidden until kick-off)."""
        match = self.pool.match(item.event.match, with_goals=False)
        who = [h for h in item.event.players if h != self.her]
        if not who or match.has_started(self.pool.clock()):
            return  # told after the kick-off (a late catch-up): the tease is moot
        label = f"#{match.number} {match.team1} v {match.team2}"
        told = phrase(
            "moments", "forgetful", match=label, who=", ".join(who), minutes=item.event.minutes
        )
        request = Forgetful(label, tuple(who), item.event.minutes)
        self.speak(item, request, who, _moment(told, "forgetful.about"), match.number)

    # -- speaking -------------------------------------------------------------

    def _said_in_match(self, number: int) -> list[LoggedEvent[RemarkPosted]]:
        return self.pool.events_of(RemarkPosted, match_number=number)

    def _cooling(self, handles: list[str], now: datetime) -> set[str]:
        recent = self.pool.events_of(RemarkPosted, since=now - self.policy.player_cooldown)
        return {h for item in recent for h in item.event.about if h in handles}

    def _least_named(self, handles: list[str], now: datetime) -> list[str]:
        """``handles``, those she has talked about least lately first: the teasing goes round."""
        last: dict[str, datetime] = {}
        for item in self.pool.events_of(RemarkPosted, since=now - timedelta(days=7)):
            for handle in item.event.about:
                last[handle] = item.at
        never = datetime.min.replace(tzinfo=now.tzinfo)
        return sorted(handles, key=lambda h: last.get(h, never))  # stable: the story's order

    def speak(
        self,
        item: LoggedEvent[Event],
        request: Remark | Answer,
        about: list[str],
        instruction: str,
        match: int | None = None,
        capped: bool = True,
        topic: str = "",
    ) -> RemarkPosted | None:
        """Ask for a line, refuse repeats in code, post it; silence when nothing new comes.

        A remark the pool would refuse (one on this trigger and topic was made), or one
        she already stayed silent on, is never asked for: a restart reacting again costs
        no model call.
        """
        silence = f"silent:{item.id}:{topic}"  # nothing new came: a restart stays silent too
        with self.store.read() as connection:
            kept_silent = AGENT_STATE.get(connection, silence) is not None
        if kept_silent or self.pool.talk.said_on(item.id, topic):
            return None
        if (
            capped
            and match is not None
            and len(self._said_in_match(match)) >= self.policy.remarks_per_match
        ):
            self.stats.capped += 1
            return None
        spoken = self.gateway.say(item, request, about, instruction, match, self.policy.attempts)
        self.stats.refused_repeats += spoken.refused
        if spoken.asked is None:
            self.stats.silent += 1
            with self.store.write() as connection:
                AGENT_STATE.set(connection, silence, item.at.isoformat())
            return None
        posted = self.pool.talk.remark(
            self.her, spoken.asked.text, spoken.about, match, trigger=item.id, topic=topic
        )
        if posted is not None:
            self.stats.count += 1
        self.gateway.settle(spoken.asked, "posted" if posted else "refused: already said")
        return posted

    def on_kickoff(self, item: LoggedEvent[MatchKickedOff]) -> None:
        """One line per kick-off moment: a round's matches starting together are one
        moment, told once their last kick-off is in, about the match where she stands
        furthest from the crowd."""
        together = self._together(self.pool.match(item.event.match, with_goals=False))
        if any(m.status is MatchStatus.SCHEDULED for m in together):
            return  # the rest of the moment is still to start: its last kick-off tells it
        kicked = [
            k.id
            for m in together
            for k in self.pool.events_of(MatchKickedOff, match_number=m.number)
        ]
        if item.id != max(kicked, default=item.id):
            return  # an earlier kick-off of the moment: told at its last, once, even on a restart
        stands = [s for s in map(self._stand, together) if s is not None]
        if not stands:
            return  # no pick, or she sides with the crowd: nothing worth saying at kick-off
        match, mine, agree, others = min(stands, key=lambda s: (s[2] / s[3], s[0].number))
        label = f"#{match.number} {match.team1} v {match.team2}"
        _, basis = self.pool.scoring()
        chance = predictor.chances(match, self.outlook(), basis)
        odds = predictor.odds(match, chance)
        pooled = self._pool_picked(match)
        if pooled is None:
            return  # picks are hidden until kick-off, and so is how the pool picked
        request = KickOff(label, str(mine), agree, others - agree, odds, pooled)
        exact = sum(1 for p in self.pool.predictions_on(match.number) if p.score == mine) - 1
        told = render(
            "kickoff",
            match=label,
            pick=mine,
            agree=agree,
            disagree=others - agree,
            exact=exact,
            **vars(odds),
        )
        told += "\n" + _pooled_line(match, pooled)
        self.speak(item, request, [], _moment(told, "kickoff.about"), match.number)

    def _pool_picked(self, match: Match) -> Shares | None:
        """How the others (not she) picked ``match``; None before its kick-off."""
        others = [p for p in self.pool.predictions_on(match.number) if p.handle != self.her]
        return shares_of(match, others, self.pool.clock())

    def _stand(self, match: Match) -> tuple[Match, Score, int, int] | None:
        """(the match, her pick, how many others picked its outcome, how many others
        picked) when she stands against most of them; None when she has no pick or
        sides with the crowd."""
        picks = self.pool.predictions_on(match.number)
        mine = next((p.score for p in picks if p.handle == self.her), None)
        others = [p for p in picks if p.handle != self.her]
        if mine is None or not others:
            return None
        agree = sum(1 for p in others if p.score.outcome == mine.outcome)
        return None if agree * 2 >= len(others) else (match, mine, agree, len(others))

    def on_goal(self, item: LoggedEvent[GoalScored]) -> None:
        event = item.event
        goal_ids = {g.id for g in self.pool.events_of(GoalScored, match_number=event.match)}
        goals_said = sum(1 for r in self._said_in_match(event.match) if r.event.trigger in goal_ids)
        if goals_said >= self.policy.goal_remarks_per_match:
            self.stats.capped += 1
            return
        match = self.pool.match(event.match)
        now = match.score_at((event.minute, event.added))
        picks = [p for p in self.pool.predictions_on(match.number) if p.handle != self.her]
        alive = sorted(
            (p.handle for p in picks if _still_possible(p.score, now)),
            key=lambda h: shuffled_key(item.id, h),
        )
        before = _before(now, event.side)
        killed = any(
            _still_possible(p.score, before) and not _still_possible(p.score, now) for p in picks
        )
        killed_the_last = not alive and killed
        first, late = now.home + now.away == 1, event.minute >= LATE_MINUTE
        if not picks or not (first or late or killed_the_last):
            return  # the score moved, but nothing changed for the pool
        team = match.team1 if event.side == "home" else match.team2
        label = f"#{match.number} {match.team1} v {match.team2}"
        request = GoalMoment(team, label, str(now), tuple(alive), killed)
        self.speak(
            item,
            request,
            [],
            _moment(phrase("moments", "goal", team=team, score=now), "goal.about"),
            match.number,
        )

    def after_result(self, item: LoggedEvent[ResultRecorded]) -> RemarkPosted | None:
        """The remark on who scored and who did not, after the diary entry is written;
        in a league that plays a round's matches on one day, one remark at the day's last
        whistle about them all."""
        match = self.pool.match(item.event.match)
        matches = self.pool.matches()
        day = self._round_day(match, matches)
        if day:
            if any(m.result is None for m in day):
                return None  # the round day's last whistle tells it, once
            return self.round_up(item, day, matches)
        story = match_story(self.pool, match, self.keeper.config.zone).without(self.her)
        cooling = self._cooling([p.player for p in story.picks], item.at)
        candidates = (
            story.exact()
            or self._least_named([p for p in story.blanks() if p not in cooling], item.at)[:2]
            or story.scorers()[:2]
        )
        about = [p for p in candidates if p != self.her][:2]
        aside = self._aside(about, match)
        told = storylines.for_result(self.pool, match, about, self.her)
        if told is not None and told.kind in TOP_STORIES and not self._last_whistle(item):
            told = None  # the top of a table no screen shows: the last whistle tells it
        exact = [p for p in about if p in story.exact()]
        recalled = storylines.recall(self.pool, match, exact, self.keeper.config.zone)
        # The goals and the live lines are in the context's working memory: not twice.
        event = story.as_text(live=False)
        if told is not None:
            event += "\n" + storylines.told(told)
        if recalled is not None:
            event += "\n" + storylines.recalled(recalled)
        pooled = self._pool_picked(match)
        if pooled is not None and pooled.picks:
            event += "\n" + _pooled_line(match, pooled)
        if aside is not None:  # a player's words: data in the prompt, never instructions
            fits = quote_player_text(aside[0], aside[1], about=aside[0])
            event += "\n" + phrase("moments", "fits", line=fits)
        instruction = render(
            "remark", about=", ".join(about) or phrase("moments", "match.about"), event=event
        )
        request = FinalWhistle(story, tuple(about), aside[1] if aside else None, told, recalled)
        return self.speak(item, request, about, instruction, match.number, capped=False)

    def _round_day(self, match: Match, matches: list[Match]) -> list[Match]:
        """The league round day ``match`` is one of, told as one; empty when it is told alone."""
        if not is_league(matches):
            return []
        day = round_day(matches, match, self.keeper.config.zone)
        return day if len(day) > 1 else []

    def _whistle_told(self, item: LoggedEvent[ResultRecorded]) -> tuple[Storyline | None, set[str]]:
        """What the final whistle's remark on this result already told, read back from
        the log (so a restart decides the same): the result's storyline of the table's top,
        and the players it named. Nothing when it made none, or told a round day instead."""
        match = self.pool.match(item.event.match)
        said = [
            r.event
            for r in self._said_in_match(match.number)
            if r.event.trigger == item.id and r.event.topic == ""
        ]
        if not said:
            return None, set()
        told = storylines.for_result(self.pool, match, [], self.her)
        named = {h for remark in said for h in remark.about}
        # A model is given the storyline as a note, not made to say it: the new leader
        # counts as told only when the line named them (her own lead: she is "I").
        leads = (
            told
            if told is not None
            and told.kind in TOP_STORIES
            and (told.who in named or told.kind.startswith("her_"))
            else None
        )
        return leads, named

    def round_up(
        self, item: LoggedEvent[ResultRecorded], day: list[Match], matches: list[Match]
    ) -> RemarkPosted | None:
        """A league's round day at its last whistle: one remark about its matches."""
        zone = self.keeper.config.zone
        stories = tuple(match_story(self.pool, m, zone).without(self.her) for m in day)
        table = league_table(matches)
        # A leader only when one club is alone at the top (six level clubs have none).
        alone = len(table) < 2 or table[1].rank > table[0].rank
        leader = table[0].team if table and alone else None
        # The pool's new top, told in this line: matches ending together get one line
        # about the tables (``_whistle_told`` reads it back and makes no second).
        last = self.pool.match(item.event.match)
        top = storylines.for_result(self.pool, last, [], self.her)
        top = top if top is not None and top.kind in TOP_STORIES else None
        told = RoundDay(round_of(day[0]) or 0, stories, leader=leader, storyline=top)
        exact = list(dict.fromkeys(player for player, _ in told.exact()))
        about = exact[:2] or self._least_named(told.blank(), item.at)[:2]
        if top is not None and top.who not in (*about, self.her):
            about = [*about, top.who]
        request = dataclasses.replace(told, who=tuple(about))
        event = "\n".join(story.as_text(live=False) for story in stories)
        event += "\n" + (
            phrase("moments", "round.leader", team=leader)
            if leader
            else phrase("moments", "round.level")
        )
        if top is not None:
            event += "\n" + storylines.told(top)
        instruction = render(
            "remark", about=", ".join(about) or phrase("moments", "round.about"), event=event
        )
        return self.speak(item, request, about, instruction, item.event.match, capped=False)

    def _aside(self, about: list[str], match: Match) -> tuple[str, str] | None:
        """A fact one of ``about`` told her that fits this match (a team they support); or
        one she has never brought up; or, now and then (one match in four, drawn from the
        match), one told lately."""
        today = self.pool.clock().astimezone(self.keeper.config.zone).date()
        teams = f"{match.team1} {match.team2}"
        with self.store.read() as connection:
            for handle in about:
                known = facts.for_prompt(connection, handle, today)
                fitting = [fact for fact in known if facts.fits(fact, teams)]
                if fitting:
                    return handle, max(fitting, key=lambda f: (f.last_told, f.id)).text
                said = [
                    r.event for r in self.pool.events_of(RemarkPosted) if handle in r.event.about
                ]
                unsaid = [fact for fact in known if not _brought_up(fact, said)]
                if unsaid:  # what someone tells her is heard again at least once
                    return handle, min(unsaid, key=lambda f: (f.last_told, f.id)).text
                if known and int(shuffled_key(match.number, handle), 16) % 4 == 0:
                    return handle, max(known, key=lambda f: f.last_told).text
        return None

    def on_correction(self, item: LoggedEvent[ResultRecorded]) -> None:
        """A final score changed after the whistle: the table is recomputed; she says so."""
        match = self.pool.match(item.event.match, with_goals=False)
        label = f"#{match.number} {match.team1} {match.result} {match.team2}"
        request = Correction(label, item.event.previous or "")
        self.speak(
            item,
            request,
            [],
            _moment(
                phrase("moments", "correction", label=label, previous=item.event.previous),
                "correction.about",
            ),
            match.number,
            capped=False,
        )

    def on_table_move(self, item: LoggedEvent[ResultRecorded]) -> None:
        number = item.event.match
        # Matches that kicked off together end together: the table is told once, at the
        # last of their whistles, from before the first to after all (three results in a
        # minute named three leaders, each true for a table nobody saw).
        if not self._last_whistle(item):
            return  # another whistle of the moment tells the table (on a catch-up too)
        together = self._together(self.pool.match(number, with_goals=False))
        first, last = min(together, key=Match.time_order), max(together, key=Match.time_order)
        before = {r.player: r for r in self.pool.standings(before_match=first.number)}
        after = self.pool.standings(up_to_match=last.number)
        if not after or after[0].points == 0:
            return
        leader = after[0]
        # "Ahead of X" only of a leader there was: alone at the top, with points.
        tops = [r for r in before.values() if r.rank == 1 and r.points > 0]
        previous_leader = tops[0].player if len(tops) == 1 else None
        # One remark per moment: what the final whistle's remark told is not told again.
        leads, named = self._whistle_told(item)
        if (
            leads is None
            and previous_leader
            and leader.player != previous_leader
            and leader.rank == 1
            and sum(r.rank == 1 for r in after) == 1
        ):
            self.speak(
                item,
                NewLeader(leader.player, leader.points, previous_leader),
                [leader.player],
                render("remark", about=leader.player, event=phrase("moments", "new_leader")),
                None,
                topic=TABLE,
            )
            return
        for row in after:
            old = before.get(row.player)
            if (
                old
                and old.rank - row.rank >= self.policy.jump_places
                and row.player not in named
                and (leads is None or row.player != leads.who)
                and row.player not in self._cooling([row.player], item.at)
            ):
                self.speak(
                    item,
                    BigJump(row.player, old.rank, row.rank),
                    [row.player],
                    render("remark", about=row.player, event=phrase("moments", "big_jump")),
                    None,
                    topic=TABLE,
                )
                return

    def _together(self, match: Match) -> list[Match]:
        """The matches that kicked off with ``match`` (itself included)."""
        return [m for m in self.pool.matches() if m.kickoff == match.kickoff]

    def _last_whistle(self, item: LoggedEvent[ResultRecorded]) -> bool:
        """Whether ``item`` is the last result recorded of the matches that kicked off
        together with its match, all of them finished: the moment the table they make
        together is the one every screen shows."""
        numbers = {m.number for m in self._together(self.pool.match(item.event.match))}
        whistles = [
            r.id
            for r in self.pool.events_of(ResultRecorded)
            if r.event.match in numbers and r.event.previous is None
        ]
        return len(whistles) == len(numbers) and max(whistles) == item.id

    def welcome(self, item: LoggedEvent[PlayerJoined]) -> RemarkPosted | None:
        """A newcomer who joined over SSH gets a word, and the state of the pool."""
        table = self.pool.standings()
        leader = table[0] if table and table[0].points > 0 else None
        upcoming = [m for m in self.pool.matches() if m.status is MatchStatus.SCHEDULED]
        request = Welcome(
            item.event.player,
            leader.player if leader else None,
            leader.points if leader else 0,
            f"#{upcoming[0].number} {upcoming[0].team1} v {upcoming[0].team2}"
            if upcoming
            else None,
        )
        joined = phrase("moments", "joined", who=item.event.player)
        instruction = render("remark", about=item.event.player, event=joined)
        return self.speak(item, request, [item.event.player], instruction, None, capped=False)

    # -- answering --------------------------------------------------------------

    def answer(self, item: LoggedEvent[ChatPosted]) -> RemarkPosted | None:
        """``@<her handle> ...``: answered from memory; a fact to remember is acknowledged."""
        event = item.event
        question = (self.addressee.message(event.text) or "").strip()
        request = self.questions.read(event.player, event.text, item.id)
        if self._picked_when_asked(request):  # asked her pick before she made it: she does
            request = self.questions.read(event.player, event.text, item.id)
        known = set(self.pool.names())
        about = [request.who] if request.who in known else [event.player]
        if isinstance(request, NotYours):
            context_instruction = render(
                "answer_not_yours", asker=event.player, others=request.others
            )
        else:
            quoted = quote_player_text(event.player, question)  # data, not instructions
            live = in_play_of(request)
            notes = " ".join(filter(None, (request.notes(), live and note("live", match=live))))
            notes = notes or "-"
            context_instruction = render("answer", asker=event.player, question=quoted, notes=notes)
        return self.speak(item, request, about, context_instruction, None, capped=False)

    # -- her own picks --------------------------------------------------------

    def _picked_when_asked(self, request: Answer) -> bool:
        """Her pick for a match asked before she made it ("e o teu palpite pra final?"):
        made now, as a player asked would; whether one was placed."""
        if not isinstance(request, PickOf) or request.who != self.her or request.pick is not None:
            return False
        match = next((m for m in self.pool.matches() if m.number == request.number), None)
        if match is None or match.status is not MatchStatus.SCHEDULED:
            return False
        if is_placeholder(match.team1) or is_placeholder(match.team2):
            return False
        try:
            self.pool.predictions.place(self.her, match.number, self.pick_for(match))
        except PredictionLocked:
            return False
        return True

    def pick_for(self, match: Match) -> Score:
        """The rating model's pick; a real model may overrule it with a score the rating
        model gives a real chance (``predictor.plausible``), never with any two numbers."""
        rule, basis = self.pool.scoring()
        chance = predictor.chances(match, self.outlook(), basis)
        suggestion = predictor.best_pick(chance, rule)
        odds = predictor.odds(match, chance)
        likeliest = sorted(chance, key=lambda s: -chance[s])[:LIKELIEST_SHOWN]
        prompt = render(
            "prediction",
            **vars(odds),
            likeliest=", ".join(f"{s} {chance[s]:.0%}" for s in likeliest),
            suggestion=str(suggestion),
            match=f"#{match.number} {match.team1} v {match.team2} ({match.stage})",
        )
        asked = self.gateway.ask(
            self.keeper.contexts.dated(prompt), PickWanted(str(suggestion)), match=match.number
        )
        pick = read_pick(asked.text)
        if pick is None:
            self.gateway.settle(asked, f"refused: not a score; the rating pick {suggestion} stands")
            return suggestion  # nonsense from the model: the rating model's pick stands
        if pick not in predictor.plausible(chance):
            self.gateway.settle(
                asked,
                f"refused: implausible {pick}, outside the likeliest scores covering "
                f"{predictor.PLAUSIBLE_MASS:.0%} of the chance; the rating pick {suggestion} stands",
            )
            return suggestion
        self.gateway.settle(asked, f"picked {pick}")
        return pick

    def pick_bonus(self) -> list[str]:
        """Her bonus picks while they are open, like anyone's: the champion her ratings
        rate highest of the tournament's teams, and the top scorer the first listed
        player of that team's squad, when squads are listed (she knows no names else)."""
        matches = self.pool.matches()
        if not matches or not bonus_open(matches, self.pool.clock()):
            return []
        desk = self.pool.extras
        held = {p.kind: p.value for p in desk.bonus_picks(self.her)}
        if bonus.SCORER in held:
            return []  # both made (a scorer follows her champion): no ratings read per turn
        favourite = held.get(bonus.CHAMPION)
        if favourite is None:
            teams = sorted(t for t in bonus.teams_of(matches) if not is_placeholder(t))
            ratings = self.outlook().ratings
            favourite = max(teams, key=lambda t: (ratings.of(t), t), default=None)
        placed: list[str] = []
        # (open on her turn's read, the desk may find them closed since: the first kick-off
        # came between; her picks for the matches go on, as for a pick locked)
        try:
            if favourite is not None and bonus.CHAMPION not in held:
                desk.bonus(self.her, bonus.CHAMPION, favourite)
                placed.append(bonus.CHAMPION)
            squad = desk.squads().get(favourite or "", ())  # of the champion she picked
            if squad and bonus.SCORER not in held:
                desk.bonus(self.her, bonus.SCORER, squad[0])
                placed.append(bonus.SCORER)
        except BonusClosed:
            pass
        return placed

    def predict_upcoming(self) -> list[int]:
        """Her picks for every match kicking off within ``picks_ahead`` she has not picked yet."""
        now = self.pool.clock()
        mine = {p.match_number for p in self.pool.predictions_of(self.her)}
        placed = []
        for match in self.pool.matches():
            if match.status is not MatchStatus.SCHEDULED or match.number in mine:
                continue
            if not now < match.kickoff <= now + self.policy.picks_ahead:
                continue
            if is_placeholder(match.team1) or is_placeholder(match.team2):
                continue
            try:
                self.pool.predictions.place(self.her, match.number, self.pick_for(match))
                placed.append(match.number)
            except PredictionLocked:
                continue
        return placed

    # -- the daily digest -------------------------------------------------------

    def _played_on(self, matches: Sequence[Match], day: date) -> list[Match]:
        """The matches of ``day`` as the pool counts its days (``game.matchdays.day_of``,
        the date where each is played): the day ``standings day`` shows, so her digest
        and the table never tell two different days under one date."""
        numbers = matchdays.on_day(self.pool.match_days(), day)
        return sorted((m for m in matches if m.number in numbers), key=Match.time_order)

    def _day_won(self, day: date) -> tuple[list[str], int]:
        """Who won ``day`` and with how many points: the pool's own day table (every
        one of a tie), bonus picks apart."""
        _, table = self.pool.day_table(day)
        points = {row.player: row.points for row in table.rows}
        return table.winners, points[table.winners[0]] if table.winners else 0

    def digest(self, day: date) -> RemarkPosted | None:
        """Once a day at most: the day's results, the leader, the quietest player."""
        with self.store.read() as connection:
            if AGENT_STATE.get(connection, LAST_DIGEST) == day.isoformat():
                return None
        zone = self.keeper.config.zone
        midnight = datetime.combine(day, datetime.min.time(), zone)
        todays = [m for m in self._played_on(self.pool.matches(), day) if m.result is not None]
        table = self.pool.standings()
        leader = table[0] if table else None
        chatty = {item.event.player for item in self.pool.events_of(ChatPosted, since=midnight)}
        quiet = next(
            (r.player for r in reversed(table) if r.player not in chatty and r.player != self.her),
            None,
        )
        winners, won_with = self._day_won(day) if todays else ([], 0)
        request = Digest(
            self.words.day(day),
            tuple(f"{m.team1} {self.words.result(m.result)} {m.team2}" for m in todays if m.result),
            leader.player if leader else "",
            leader.points if leader else 0,
            quiet,
            tuple(winners),
            won_with,
        )
        # Prompted by the clock, tied to the day's last final whistle (or, on a day
        # without one, the log's last event) under a topic of its own: posted once.
        whistles = self.pool.events_of(ResultRecorded, since=midnight)
        last = self.pool.last_event_id()
        item = (
            whistles[-1] if whistles else self.pool.events(after_id=last - 1)[-1] if last else None
        )
        with self.store.write() as connection:
            AGENT_STATE.set(connection, LAST_DIGEST, day.isoformat())
        if item is None:
            return None
        return self.speak(
            item,
            request,
            [],
            _moment(
                "\n".join(
                    told
                    for told in ("; ".join(request.results), request.notes())
                    if told  # the results and who won the day, or the day without matches
                )
                or phrase("moments", "day.none"),
                "day.about",
            ),
            None,
            capped=False,
            # Its day in the topic: a day without matches after one that ended past
            # midnight is tied to that day's last whistle too, and is a digest of its own.
            topic=f"{DIGEST} {day.isoformat()}",
        )


def _pooled_line(match: Match, pooled: Shares) -> str:
    """How the pool picked ``match``, as her prompt is told it (prompts/moments.txt)."""
    common = ", ".join(f"{score} ({count})" for score, count in pooled.common)
    return phrase(
        "moments",
        "shares",
        pickers=pooled.picks,
        team1=match.team1,
        home=pooled.home,
        draw=pooled.draw,
        team2=match.team2,
        away=pooled.away,
        common=common or "-",
    )


def _moment(event: str, about: str) -> str:
    """Her remark prompt for ``event``, about the moment ``about`` names (prompts/moments.txt)."""
    return render("remark", about=phrase("moments", about), event=event)


def read_pick(text: str) -> Score | None:
    """A pick in a model's answer: JSON ``{"home": 2, "away": 1}`` (structured output) or
    the first score in its text ("2-1"); None when it holds neither."""
    try:
        found = json.loads(text)
        if isinstance(found, dict):
            return Score(int(found["home"]), int(found["away"]))
    except (ValueError, KeyError, TypeError):
        pass
    score = SCORE_IN_ANSWER.search(text)
    try:
        return None if score is None else Score(int(score[1]), int(score[2]))
    except ValueError:  # a score no match has
        return None


def _before(score: Score, side: str) -> Score:
    return Score(score.home - (side == "home"), score.away - (side == "away"))


def _still_possible(pick: Score, now: Score) -> bool:
    return pick.home >= now.home and pick.away >= now.away


def _brought_up(fact: facts.Fact, said: list[RemarkPosted]) -> bool:
    """Whether one of her remarks about the player (``said``) has told the fact (its words),
    apart from the line that acknowledged it."""
    words = fact.text.replace(fact.handle, "")
    return any(
        f"log:{remark.trigger}" != fact.source and facts.keeps(words, remark.text)
        for remark in said
    )
