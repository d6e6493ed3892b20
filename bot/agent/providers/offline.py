"""The offline writer: BETanIA's voice and memory work done by rules, with no model.

It answers the same ``ModelCall`` a language model would, reading the typed
``request`` (``memory.requests``, ``bot.agent.requests``) instead of the prompt, and it honours every memory
contract: one entry per match, a recency-weighted narrative whose size stays
flat, fact merges that cover every source id. Its phrasings live in
``prompts/voice_<language>.txt``; a generator seeded from what it describes
picks among them, so a replay is reproducible and a demo is not repetitive.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from string import Template
from typing import TYPE_CHECKING, Any, TypeVar

from bot.agent.providers.base import REPLACING, ModelCall, ModelError
from bot.agent.requests import (
    TOP_STORIES,
    BestWorst,
    BigJump,
    Correction,
    DayBest,
    Digest,
    Fallback,
    FinalWhistle,
    Forecast,
    Forgetful,
    Forgotten,
    Gap,
    GoalMoment,
    HeldThen,
    KickOff,
    KnownFacts,
    Leading,
    MatchTold,
    MostExact,
    NewLeader,
    NoSuchMatch,
    NotAFact,
    NotKnown,
    NotRead,
    NotYours,
    PickOf,
    PickWanted,
    PointsOver,
    Remark,
    Remembered,
    RoundDay,
    RulesTold,
    ScoreAt,
    ScoredOn,
    Standing,
    Storyline,
    TableTold,
    TeamPlace,
    UnknownName,
    Welcome,
    WhoCalled,
    WhoPicked,
    WrapUp,
    in_play_of,
)
from game.text import words_form
from game.words import Words
from memory.contract import limits
from memory.person import second_person
from memory.requests import (
    DiaryFusion,
    FactExtraction,
    FactMerge,
    LineReading,
    MatchEntry,
    Request,
)
from memory.stories import MatchStory
from prompts import voice

Variant = tuple[int, int]  # (the event it reacts to, the attempt): see ModelCall

SPANNED = 3  # more periods than this in the oldest clause are written as a span
RECENT_IN_DETAIL = 4  # the newest matches a fused narrative tells one by one
PERIODS_IN_DETAIL = 2  # the latest rounds that keep a clause each; older ones share one
SIMILAR = 0.8


if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")


AGREEMENT = re.compile(r"\[([^\[\]|]*)\|([^\[\]|]*)\]")


PICKS_ONE_BY_ONE = 2  # picks of one match told a sentence each; more, in one line


class Rotation(random.Random):
    """A seeded choice that moves ``step`` places on: attempt 1 gets the next line."""

    def __init__(self, seed: str, step: int) -> None:
        super().__init__(seed)
        self.step = step

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        return seq[(self.randrange(len(seq)) + self.step) % len(seq)]


class OfflineModel:
    name = "offline"

    def __init__(self, seed: int = 0, language: str = "en") -> None:
        self.seed = seed
        self.language = language
        self.voice = voice(language)
        self.words = Words(language)  # the game's own words: stages, extra time, penalties
        # One rule per kind of request: the one place to teach it a new one.
        self.rules: dict[type[Request], Callable[[Any, Variant], str]] = {
            MatchEntry: self._diary_entry,
            DiaryFusion: self._diary_fusion,
            FactMerge: self._fact_merge,
            FactExtraction: self._fact_extraction,
            LineReading: self._line_reading,
            PickWanted: self._prediction,
            FinalWhistle: self._final_whistle,
            RoundDay: self._round_day,
            KickOff: self._kickoff,
            GoalMoment: self._goal,
            NewLeader: self._leader,
            BigJump: self._jump,
            Correction: self._correction,
            Welcome: self._welcome,
            Forgetful: self._forgetful,
            Digest: self._digest,
            Standing: self._standing,
            KnownFacts: self._known_facts,
            HeldThen: self._held_then,
            WhoCalled: self._who_called,
            UnknownName: self._unknown_name,
            Remembered: self._remembered,
            NotYours: self._not_yours,
            Fallback: self._fallback,
            Forgotten: self._forgotten,
            WrapUp: self._wrap_up,
            NotAFact: self._not_a_fact,
            Leading: self._leading,
            Forecast: self._forecast,
            MatchTold: self._match_told,
            NotKnown: self._not_known,
            ScoreAt: self._score_at,
            MostExact: self._most_exact,
            Gap: self._gap,
            RulesTold: self._rules,
            ScoredOn: self._scored_on,
            DayBest: self._day_best,
            WhoPicked: self._who_picked,
            PointsOver: self._points_over,
            NoSuchMatch: self._no_such_match,
            NotRead: self._not_read,
            TableTold: self._table_told,
            PickOf: self._pick_of,
            BestWorst: self._best_worst,
            TeamPlace: self._team_place,
        }

    def complete(self, call: ModelCall) -> str:
        request = call.request
        rule = None if request is None else self.rules.get(type(request))
        if request is None or rule is None:
            raise ModelError(f"the offline writer has no rules for {call.task!r}")
        said = rule(request, call.variant)
        live = in_play_of(request)
        if not live:
            return said
        return f"{said} {self.say('answer.live', self._answer_rng(call.variant), match=live)}"

    # -- phrasing -------------------------------------------------------------

    def _rng(self, *salt: object) -> random.Random:
        return random.Random(f"{self.seed}:{':'.join(map(str, salt))}")

    def say(
        self, section: str, rng: random.Random | None = None, many: bool = False, **values: object
    ) -> str:
        """A line of ``section``; ``[one|many]`` in it agrees with ``many`` ("cravou|cravaram")."""
        lines = self.voice[section]
        line = rng.choice(lines) if rng is not None else lines[0]
        line = AGREEMENT.sub(lambda m: m[2] if many else m[1], line)
        return Template(line).substitute({key: str(value) for key, value in values.items()})

    def names(self, players: Sequence[str], limit: int = 4) -> str:
        players = list(players)
        if not players:
            return self.say("word.nobody")
        and_ = self.say("word.and")
        if len(players) > limit:
            more = self.say("word.more", n=len(players) - limit)
            return f"{', '.join(players[:limit])} {and_} {more}"
        return (
            players[0] if len(players) == 1 else f"{', '.join(players[:-1])} {and_} {players[-1]}"
        )

    def _period(self, stage: str) -> str:
        """A cup's group stage is one period; a league's round ("Matchday 12") is one."""
        if stage.startswith("Group"):
            return self.say("fusion.group_stage")
        return self.say("fusion.stage", stage=self.words.stage(stage))

    def _periods(self, names: list[str]) -> str:
        """The periods the oldest clause covers: a season's thirty rounds as a span, not
        a list that grows by a name a round."""
        if len(names) > SPANNED:
            return f"{names[0]} - {names[-1]}"
        return self.names(names, limit=len(names))

    # -- the diary ------------------------------------------------------------

    def _diary_entry(self, request: MatchEntry, _variant: Variant) -> str:
        """A notebook line: score, scorers, who called it, who blanked, the best live line."""
        story = request.story
        rng = self._rng("entry", story.number)
        label = self._told(story)
        parts = [self.say("entry.opener", rng, label=label, stage=self.words.stage(story.stage))]
        if story.scorers_by_team:
            parts.append(self.say("entry.scorers", scorers=story.scorer_summary()))
        exact, scorers, blanks = story.exact(), story.scorers(), story.blanks()
        if not story.picks:
            parts.append(self.say("entry.nopicks"))
        elif exact:
            parts.append(
                self.say("entry.exact", rng, many=len(exact) > 1, who=self.names(exact, 3))
            )
        elif scorers:
            best = story.picks[0]
            parts.append(
                self.say("entry.best", who=best.player, pick=best.pick, points=best.points)
            )
        if story.picks and not scorers:
            parts.append(self.say("entry.wipeout", rng, n=len(blanks)))
        elif blanks:
            parts.append(
                self.say(
                    "entry.blanks", n=len(blanks), total=len(story.picks), who=self.names(blanks, 2)
                )
            )
        for line in story.lines[:1]:
            parts.append(self.say("entry.line", who=line.player, text=line.text))
        return " ".join(parts)

    def _diary_fusion(self, request: DiaryFusion, _variant: Variant) -> str:
        """Weighted by recency: the oldest rounds in one clause, the last rounds in one
        clause each, the newest matches one by one. The size stays flat however long
        the tournament runs."""
        stories = sorted(request.stories, key=lambda s: s.number)
        if not stories:
            raise ModelError("nothing to fuse")
        older, recent = stories[:-RECENT_IN_DETAIL], stories[-RECENT_IN_DETAIL:]
        periods: dict[str, list[MatchStory]] = {}
        for story in older:
            periods.setdefault(self._period(story.stage), []).append(story)
        names = list(periods)
        sentences = []
        if len(names) > PERIODS_IN_DETAIL:
            oldest = names[: len(names) - PERIODS_IN_DETAIL]
            fused = [story for name in oldest for story in periods[name]]
            sentences.append(self._period_clause(self._periods(oldest), fused, brief=True))
            names = names[len(oldest) :]
        for name in names:
            sentences.append(self._period_clause(name, periods[name]))
        for previous, story in zip([None, *recent], recent, strict=False):
            # A day said once for the matches it had: "[2 Aug] A 1-0 B: ... C 2-2 D: ..."
            dated = previous is None or previous.day != story.day
            sentences.append(self._detail_clause(story, dated).strip())
        if request.ending is not None:
            end = request.ending
            sentences.append(
                self.say(
                    "fusion.ending_league" if end.league else "fusion.ending",
                    many=len(end.winners) > 1,
                    champion=end.champion,
                    runner_up=end.runner_up,
                    winner=self.names(list(end.winners)),
                    points=end.points,
                    podium=", ".join(f"{p} ({n})" for p, n in end.podium),
                )
            )
        return " ".join(sentences)

    def _told(self, story: MatchStory) -> str:
        """``Brazil 1-1 (aet 2-2) (pens 4-3) Serbia``, in the voice's language."""
        return f"{story.team1} {self.words.result(story.score)} {story.team2}"

    def _period_clause(self, period: str, group: list[MatchStory], brief: bool = False) -> str:
        first, last = group[0].day, group[-1].day
        day = self.words.day
        span = f"[{day(first)}]" if first == last else f"[{day(first)} - {day(last)}]"
        exact_counts: dict[str, int] = {}
        for story in group:
            for player in story.exact():
                exact_counts[player] = exact_counts.get(player, 0) + 1
        keep = 1 if brief else 2
        best = sorted(exact_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:keep]
        # One wipe-out a clause; dated only in the clause spanning many rounds (a round's
        # own clause has its dates already): a season's diary is not a list of dates.
        wipeout = next((s for s in group if s.picks and not s.scorers()), None)
        if best:
            who = self.names([self.say("fusion.best", many=n > 1, who=p, n=n) for p, n in best])
            rng = self._rng("period", period, len(group))
            clause = self.say(
                "fusion.period", rng, span=span, period=period, n=len(group), best=who
            )
        else:
            clause = self.say("fusion.period_none", span=span, period=period, n=len(group))
        if wipeout is not None:
            match = self._told(wipeout)
            if brief:
                match += f" [{self.words.day(wipeout.day)}]"
            clause += " " + self.say("fusion.wipeouts", match=match)
        return clause

    def _detail_clause(self, story: MatchStory, dated: bool = True) -> str:
        day = f"[{self.words.day(story.day)}]" if dated else ""
        match = self._told(story)
        rng = self._rng("detail", story.number)  # a diary in one wording reads as a loop
        exact, scorers = story.exact(), story.scorers()
        if exact:
            who = self.names(exact)
            return self.say(
                "fusion.detail_exact", rng, many=len(exact) > 1, day=day, match=match, who=who
            )
        if scorers:
            return self.say(
                "fusion.detail_points", rng, day=day, match=match, who=self.names(scorers, 3)
            )
        return self.say("fusion.detail_zero", rng, day=day, match=match)

    # -- player facts ---------------------------------------------------------

    def _fact_merge(self, request: FactMerge, _variant: Variant) -> str:
        """Duplicates become one fact; similar ones are grouped; every id is listed."""
        groups: list[list[tuple[int, str]]] = []
        for fact_id, text in request.facts:
            for group in groups:
                if any(
                    SequenceMatcher(None, words_form(text), words_form(o)).ratio() >= SIMILAR
                    for _, o in group
                ):
                    group.append((fact_id, text))
                    break
            else:
                groups.append([(fact_id, text)])
        merged = []
        for group in groups:
            texts = list(dict.fromkeys(text for _, text in sorted(group, key=lambda f: -len(f[1]))))
            distinct = [
                t
                for i, t in enumerate(texts)
                if not any(words_form(t) in words_form(o) for o in texts[:i])
            ]
            merged.append(
                {"text": "; ".join(distinct), "covers": [fact_id for fact_id, _ in group]}
            )
        return json.dumps(merged, ensure_ascii=False)

    # -- remarks and answers ----------------------------------------------------

    def _remark_rng(self, request: Remark, variant: Variant) -> random.Random:
        return self._rng("remark", request.kind, *variant)

    def _kickoff(self, request: KickOff, variant: Variant) -> str:
        return self.say(
            "kickoff",
            self._remark_rng(request, variant),
            match=request.match,
            pick=request.pick,
            agree=request.agree,
            disagree=request.disagree,
            pickers=request.pool.picks,
            home_picks=request.pool.home,
            draw_picks=request.pool.draw,
            away_picks=request.pool.away,
            **vars(request.odds),
        )

    def _goal(self, request: GoalMoment, variant: Variant) -> str:
        """Each section's words true of this goal: "crumbling" and "kills every exact
        pick" only for a goal that ended picks, "not one left" only for the last ones."""
        rng = self._remark_rng(request, variant)
        team, match, score = request.team, request.match, request.score
        if not request.alive:
            section = "goal.nobody_alive" if request.killed else "goal.none_left"
            return self.say(section, rng, team=team, match=match, score=score)
        alive = self.names(request.alive, 3)
        section = "goal.killed" if request.killed else "goal"
        return self.say(section, rng, team=team, match=match, score=score, alive=alive)

    def _leader(self, request: NewLeader, variant: Variant) -> str:
        return self.say(
            "leader.new",
            self._remark_rng(request, variant),
            who=request.who,
            points=request.points,
            previous=request.previous,
        )

    def _jump(self, request: BigJump, variant: Variant) -> str:
        return self.say(
            "jump.big",
            self._remark_rng(request, variant),
            who=request.who,
            before=request.before,
            after=request.after,
        )

    def _correction(self, request: Correction, variant: Variant) -> str:
        rng = self._remark_rng(request, variant)
        # The label and the old score carry Result's marks ("aet", "agg", "pens"): in the
        # pool's language, as every other result she tells.
        match, previous = self.words.result(request.match), self.words.result(request.previous)
        return self.say("correction", rng, match=match, previous=previous)

    def _forgetful(self, request: Forgetful, variant: Variant) -> str:
        return self.say(
            "forgetful",
            self._remark_rng(request, variant),
            many=len(request.who) > 1,
            match=request.match,
            who=self.names(request.who, 3),
            n=len(request.who),
            minutes=request.minutes,
        )

    def _welcome(self, request: Welcome, variant: Variant) -> str:
        return self.say(
            "welcome.leader" if request.leader else "welcome",
            self._remark_rng(request, variant),
            who=request.who,
            leader=request.leader,
            points=request.points,
            next=request.next or "-",
        )

    def _digest(self, request: Digest, variant: Variant) -> str:
        """The day's results, as many as the remark's cap holds (a league's round day has
        ten), the rest counted: "... and 4 more"; the day's winner, every one of a tie."""
        rng = self._remark_rng(request, variant)
        if not request.results:
            return self.say("digest.none", rng)
        quiet = self.say("digest.quiet", who=request.quiet) if request.quiet else ""
        # A day somebody won and a day nobody scored are told in lines of their own.
        section = "digest" if request.winners else "digest.no_winner"
        characters, _ = limits(request.text_kind)
        line = ""
        for shown in range(len(request.results), 0, -1):
            results = "; ".join(request.results[:shown])
            if shown < len(request.results):
                results += " " + self.say("word.and") + " "
                results += self.say("word.more", n=len(request.results) - shown)
            line = self.say(
                section,
                self._remark_rng(request, variant),
                many=len(request.winners) > 1,
                day=request.day,
                results=results,
                leader=request.leader,
                points=request.points,
                winner=self.names(request.winners),
                won_with=request.won_with,
                quiet=quiet,
            ).strip()
            if len(line) <= characters:
                break
        return line

    def _final_whistle(self, request: FinalWhistle, variant: Variant) -> str:
        """One thought on the result: the line on who scored, with at most one thing more,
        the one that matters most: a new name at the top, else what a player told her
        (told as part of what the match did to them), else another storyline, else an
        earlier exact call. A second leg's tie comes first: it is the result itself."""
        story, rng = request.story, self._remark_rng(request, variant)
        match = self._told(story)
        tie = [self.say("tie.through", rng, team=story.through)] if story.through else []
        told = request.storyline
        if told is not None and told.kind in ("her_alone", "upset"):
            # Nobody else saw it: that is the whole story of the match, told once (an
            # upset's wipe-out line says it; her lone call is no wipe-out, she scored).
            if told.kind == "her_alone":
                return " ".join([*tie, self.say("final.her_alone", rng, match=match, n=told.count)])
            return " ".join([*tie, self._result_line(request, rng)])
        if told is not None and told.kind in TOP_STORIES:
            return " ".join([*tie, self._result_line(request, rng), self._storyline(told, rng)])
        aside = request.aside or ""
        owner = next((p for p in request.who if re.search(rf"\b{re.escape(p)}\b", aside)), None)
        points = next((p.points for p in story.picks if p.player == owner), None)
        if request.aside and owner is not None and points is not None:
            case = "exact" if owner in story.exact() else "scored" if points else "blank"
            line = self.say(f"final.aside.{case}", rng, fact=request.aside, who=owner, match=match)
            return " ".join([*tie, line])
        extra = []
        if told is not None:
            extra.append(self._storyline(told, rng))
        elif request.recall is not None:
            recalled = request.recall
            day, earlier = self.words.day(recalled.day), self.words.result(recalled.match)
            extra.append(self.say("recall", rng, who=recalled.who, day=day, match=earlier))
        return " ".join([*tie, self._result_line(request, rng), *extra])

    def _result_line(self, request: FinalWhistle, rng: random.Random) -> str:
        """Who scored on the match, and who did not."""
        story = request.story
        match = self._told(story)
        exact, blanks = story.exact(), story.blanks()
        if exact:
            who = self.names(exact, 2)
            return self.say("final.exact", rng, many=len(exact) > 1, match=match, who=who)
        if blanks and len(blanks) == len(story.picks):
            return self.say("final.wipeout", rng, match=match)
        if blanks:
            chosen = [p for p in request.who if p in blanks] or blanks[-2:]
            who = self.names(chosen, 2)
            # "Brave" only of picks few made: each one's outcome picked by at most a
            # quarter of the pool.
            outcomes = [p.pick.outcome for p in story.picks]
            rare = all(
                outcomes.count(p.pick.outcome) * 4 <= len(outcomes)
                for p in story.picks
                if p.player in chosen
            )
            section = "final.blanks.brave" if rare else "final.blanks"
            return self.say(section, rng, many=len(chosen) > 1, match=match, who=who)
        return self.say("final.all_scored", rng, match=match)

    def _storyline(self, told: Storyline, rng: random.Random) -> str:
        return self.say(
            f"story.{told.kind}",
            rng,
            many=told.count > 1,
            who=told.who,
            n=told.count,
            other=told.other,
        )

    def _round_day(self, request: RoundDay, variant: Variant) -> str:
        """A league's round day in one line: an exact call, else a round of blanks."""
        rng = self._remark_rng(request, variant)
        told: dict[str, object] = {"round": request.round}
        # The league's top, said apart, and only when one club is alone there.
        if request.leader:
            top = self.say("round.top", rng, leader=request.leader)
        else:
            top = self.say("round.level", rng)
        if request.storyline is not None:  # the pool's new top, in the same line
            top = f"{top} {self._storyline(request.storyline, rng)}"
        exact = request.exact()
        if exact:
            first = next((s for p, s in exact if p in request.who), exact[0][1])
            callers = [p for p, s in exact if s is first]
            who = self.names(callers, 2)
            match = self._told(first)
            line = self.say("round.exact", rng, many=len(callers) > 1, who=who, match=match, **told)
            return f"{line} {top}"
        blank = [p for p in request.who if p in request.blank()] or request.blank()[:2]
        if blank:
            who, n = self.names(blank, 2), len(request.stories)
            line = self.say("round.blanks", rng, many=len(blank) > 1, who=who, n=n, **told)
            return f"{line} {top}"
        return f"{self.say('round.all_scored', rng, False, **told)} {top}"

    def _answer_rng(self, variant: Variant) -> random.Random:
        # The same first phrasing for a question however often it is tried, and each
        # retry the guard asks for takes the next one: a rewording, never a coin toss.
        return Rotation(f"{self.seed}:answer:{variant[0]}", variant[1])

    def _standing(self, request: Standing, variant: Variant) -> str:
        row, rng = request.row, self._answer_rng(variant)
        if row is None:
            return self.say("answer.nostanding", rng, who=request.who)
        place = (
            "top"
            if row.rank <= max(1, request.of // 4)
            else "bottom"
            if row.rank > request.of * 3 // 4
            else "middle"
        )
        return self.say(
            "answer.standing",
            rng,
            who=request.who,
            rank=row.rank,
            th=self.say(f"word.ordinal.{_ordinal(row.rank)}"),
            of=request.of,
            points=row.points,
            exact=row.exact,
            mood=self.say(f"answer.mood.{place}"),
        )

    def _known_facts(self, request: KnownFacts, variant: Variant) -> str:
        rng = self._answer_rng(variant)
        if not request.facts:
            return self.say("answer.nofacts", rng, who=request.who, mention=request.mention)
        if variant[1] == REPLACING:  # in a model's place: no player's words, in any language
            count = len(request.facts) + request.more
            return self.say("answer.facts_count", many=count > 1, who=request.who, n=count)
        told = [self.say("answer.facts", rng, who=request.who, facts="; ".join(request.facts))]
        told += [
            self.say("answer.fact_changed", since=day, before=was) for day, was in request.changed
        ]
        if request.more:
            told.append(self.say("answer.facts_more", n=request.more, who=request.who))
        return " ".join(told)

    def _held_then(self, request: HeldThen, variant: Variant) -> str:
        rng = self._answer_rng(variant)
        if not request.facts:
            return self.say("answer.held_then_none", rng, who=request.who, day=request.day)
        return self.say(
            "answer.held_then",
            rng,
            who=request.who,
            day=request.day,
            facts="; ".join(request.facts),
        )

    def _who_called(self, request: WhoCalled, _variant: Variant) -> str:
        if request.match is None:
            return self.say("answer.nomatch", team=request.team)
        if not request.exact:
            return self.say("answer.called_nobody", match=request.match)
        many = len(request.exact) > 1
        return self.say(
            "answer.called", many=many, match=request.match, who=self.names(request.exact)
        )

    def _unknown_name(self, request: UnknownName, _variant: Variant) -> str:
        close = self.say("answer.close", names=self.names(request.close)) if request.close else ""
        return self.say("answer.unknown", name=request.name, close=close)

    def _remembered(self, request: Remembered, variant: Variant) -> str:
        rng = self._answer_rng(variant)
        if request.private:  # said in the open chat: not repeated
            return self.say("answer.remembered_private", rng, who=request.who)
        # Told back in the second person: "Noted, ana: you speak Japanese."
        told = second_person(request.fact)
        if request.already:
            return self.say("answer.remembered_already", rng, who=request.who, fact=told)
        if request.replaced:
            return self.say("answer.remembered_changed", rng, who=request.who, fact=told)
        return self.say("answer.remembered", rng, who=request.who, fact=told)

    def _wrap_up(self, request: WrapUp, _variant: Variant) -> str:
        podium = ", ".join(f"{p} ({n})" for p, n in request.podium)
        cup = self.say(
            "wrapup_none"
            if request.champion is None
            else "wrapup_league"
            if request.league
            else "wrapup",
            champion=request.champion,
            runner_up=request.runner_up,
            final=self.words.result(request.final),
        )
        pool = self.say(
            "wrapup.pool_mine" if request.mine else "wrapup.pool",
            many=len(request.winners) > 1,
            winner=self.names(list(request.winners)),
            points=request.points,
            podium=podium,
            rank=request.her_rank,
            th=self.say(f"word.ordinal.{_ordinal(request.her_rank)}"),
            of=request.of,
        )
        parts = [cup, pool]
        changes = max(0, len(request.leaders) - 1)
        parts.append(self.say("wrapup.lead", changes=changes, leaders=", ".join(request.leaders)))
        if request.best_call:
            who, match, n = request.best_call
            parts.append(self.say("wrapup.best", many=n > 1, who=who, match=match, n=n))
        if request.worst_blank:
            match, blanks, picks = request.worst_blank
            parts.append(self.say("wrapup.blank", match=match, blanks=blanks, picks=picks))
        return " ".join(parts)

    def _not_a_fact(self, request: NotAFact, variant: Variant) -> str:
        section = "answer.not_a_standing" if request.standing else "answer.not_a_fact"
        if request.empty:
            section = "answer.nothing_told"
        return self.say(section, self._answer_rng(variant), who=request.who)

    def _forgotten(self, request: Forgotten, variant: Variant) -> str:
        rng = self._answer_rng(variant)
        if not request.count:
            return self.say("answer.forgot_nothing", rng, who=request.who)
        section = "answer.forget_which" if request.ambiguous else "answer.forgotten"
        return self.say(section, rng, who=request.who, count=request.count,
                        many=request.count > 1)  # fmt: skip

    def _leading(self, request: Leading, variant: Variant) -> str:
        rng = self._answer_rng(variant)
        if (request.played == 0 and not request.live) or request.points == 0:
            return self.say("answer.nobody_leads", rng)
        chasers = ", ".join(f"{p} ({n})" for p, n in request.chasers)
        section = "answer.leaders" if len(request.leaders) > 1 else "answer.leader"
        section += "_now" if request.live else ""  # not the table after ``played`` matches
        return self.say(
            section,
            rng,
            many=request.played != 1,
            leader=self.names(list(request.leaders), 4),
            points=request.points,
            played=request.played,
            chasers=chasers or "-",
            # the lead itself, asked as often as the leader ("quem lidera e por quanto?")
            ahead=request.points - max((n for _, n in request.chasers), default=0),
        )

    def _forecast(self, request: Forecast, variant: Variant) -> str:
        rng = self._answer_rng(variant)
        if request.cup:
            contenders = [self.say("word.chance", team=t, n=n) for t, n in request.cup]
            section = "answer.league" if request.league else "answer.cup"
            return self.say(section, rng, teams=", ".join(contenders))
        if request.match is None or request.odds is None:
            return self.say("answer.no_match_left", rng)
        section = "answer.forecast" if request.pick else "answer.forecast_nopick"
        return self.say(
            section,
            rng,
            match=request.match,
            pick=request.pick,
            side=request.favourite or self.say("word.draw"),
            **vars(request.odds),
        )

    def _match_told(self, request: MatchTold, variant: Variant) -> str:
        rng = self._answer_rng(variant)
        if not request.finished:
            return self.say("answer.match_ahead", rng, match=request.label, when=request.kickoff)
        scorers = (
            self.say("answer.match_scorers", scorers=request.scorers) + " "
            if request.scorers
            else ""
        )
        if request.exact:
            who = self.names(list(request.exact), 3)
            return self.say(
                "answer.match_called", rng, match=request.label, who=who, scorers=scorers
            )
        return self.say("answer.match_nobody", rng, match=request.label, scorers=scorers)

    def _not_yours(self, request: NotYours, variant: Variant) -> str:
        rng = self._answer_rng(variant)
        return self.say("answer.not_yours", rng, who=request.who, others=request.others)

    def _fallback(self, request: Fallback, _variant: Variant) -> str:
        return self.say("answer.fallback", mention=request.mention)

    def _table_told(self, request: TableTold, variant: Variant) -> str:
        if not request.rows:
            return self.say("answer.table_empty", self._answer_rng(variant))
        return self.say(
            "answer.table_now" if request.live else "answer.table",
            self._answer_rng(variant), played=request.played,
            many=request.played != 1, table=request.listed(),
        )  # fmt: skip

    def _not_known(self, request: NotKnown, variant: Variant) -> str:
        return self.say("answer.not_known", self._answer_rng(variant), who=request.who)

    def _no_such_match(self, request: NoSuchMatch, _variant: Variant) -> str:
        return self.say("answer.no_such_match", number=request.number, count=request.count)

    def _gap(self, request: Gap, variant: Variant) -> str:
        (first, mine), (second, theirs) = request.first, request.second
        if request.who not in (first, second):
            gap = abs(mine - theirs)
            return self.say(
                "answer.gap_apart", many=gap != 1, who=first, mine=mine, other=second,
                theirs=theirs, gap=gap,
            )  # fmt: skip
        if request.who == second:
            (first, mine), (second, theirs) = request.second, request.first
        side = "answer.gap_level" if mine == theirs else (
            "answer.gap_ahead" if mine > theirs else "answer.gap_behind"
        )  # fmt: skip
        gap = abs(mine - theirs)
        return self.say(
            side, self._answer_rng(variant), many=gap != 1, other=second, mine=mine,
            theirs=theirs, gap=gap,
        )  # fmt: skip

    def _rules(self, request: RulesTold, _variant: Variant) -> str:
        return self.say(
            "answer.rules", exact_points=request.exact, difference=request.difference,
            outcome=request.outcome, basis=self.say(f"answer.rules.{request.basis}"),
        )  # fmt: skip

    def _who_picked(self, request: WhoPicked, _variant: Variant) -> str:
        if request.hidden:
            return self.say("answer.who_picked_hidden", label=request.match)
        if not request.pickers:
            return self.say("answer.who_picked_nobody", label=request.match, team=request.team)
        names = self.names([f"{who} ({pick})" for who, pick in request.pickers], 6)
        many = len(request.pickers) > 1
        return self.say(
            "answer.who_picked", many=many, label=request.match, team=request.team, names=names
        )

    def _day_best(self, request: DayBest, _variant: Variant) -> str:
        if not request.leaders:
            return self.say("answer.day_best_nobody", day=request.day)
        leaders = self.names(list(request.leaders), 6)
        return self.say(
            "answer.day_best", day=request.day, leaders=leaders, won_with=request.points
        )

    def _scored_on(self, request: ScoredOn, _variant: Variant) -> str:
        if request.match is None:
            return self.say("answer.scored_on_none")
        if not request.scorers:
            return self.say("answer.scored_on_nobody", match=request.match)
        scorers = [f"{who} {points} ({pick})" for who, pick, points in request.scorers]
        return self.say("answer.scored_on", match=request.match, scorers=self.names(scorers, 6))

    def _most_exact(self, request: MostExact, _variant: Variant) -> str:
        if not request.exact:
            return self.say("answer.most_exact_none")
        return self.say(
            "answer.most_exact", who=self.names(list(request.leaders)), exact=request.exact
        )

    def _points_over(self, request: PointsOver, _variant: Variant) -> str:
        return self.say(
            "answer.points_over",
            many=request.points != 1,
            who=request.who,
            first=request.first,
            last=request.last,
            points=request.points,
        )

    def _score_at(self, request: ScoreAt, _variant: Variant) -> str:
        return self.say(
            "answer.score_at", minute=request.minute, match=request.match, score=request.score
        )

    def _not_read(self, request: NotRead, _variant: Variant) -> str:
        return self.say("answer.not_read", mention=request.mention)

    def _pick_of(self, request: PickOf, variant: Variant) -> str:
        every = [request, *request.also]
        if len(every) > PICKS_ONE_BY_ONE and len({p.match for p in every}) == 1:
            # "everyone's picks": one line for the match, not a sentence a player
            picks = ", ".join(self._pick_item(pick) for pick in every)
            return self.say("answer.picks", match=request.match, picks=picks)
        return " ".join(self._one_pick(pick, variant) for pick in every)

    def _pick_item(self, request: PickOf) -> str:
        if request.hidden:
            return self.say("answer.picks_item_hidden", who=request.who)
        if request.pick is None:
            return self.say("answer.picks_item_none", who=request.who)
        if request.points is None:
            return self.say("answer.picks_item", who=request.who, pick=request.pick)
        return self.say(
            "answer.picks_item_points", who=request.who, pick=request.pick, points=request.points
        )

    def _one_pick(self, request: PickOf, variant: Variant) -> str:
        rng = self._answer_rng(variant)
        if request.hidden:
            return self.say("answer.pick_hidden", who=request.who, match=request.match)
        if request.pick is None:
            return self.say("answer.pick_none", who=request.who, match=request.match)
        told = self.say("answer.pick", rng, who=request.who, match=request.match, pick=request.pick)
        if request.points is None:
            return told
        earned = self.say("answer.pick_points", many=request.points != 1, points=request.points)
        return f"{told} {earned}"

    def _best_worst(self, request: BestWorst, _variant: Variant) -> str:
        if request.best is None or request.worst is None:
            return self.say("answer.best_worst_none", who=request.who)
        (best, best_pick, best_points), (worst, worst_pick, worst_points) = (
            request.best,
            request.worst,
        )
        return self.say(
            "answer.best_worst",
            many=best_points != 1,
            who=request.who,
            best=best,
            best_pick=best_pick,
            best_points=best_points,
            worst=worst,
            worst_pick=worst_pick,
            worst_points=worst_points,
        )

    def _team_place(self, request: TeamPlace, _variant: Variant) -> str:
        section = "answer.team_top" if request.rank == 1 else "answer.team_place"
        return self.say(
            section,
            many=request.played != 1,
            team=request.who,
            rank=request.rank,
            of=request.of,
            played=request.played,
            won=request.won,
            drawn=request.drawn,
            lost=request.lost,
            leader=request.leader,
        )

    # -- picks and free chat ----------------------------------------------------

    def _prediction(self, request: PickWanted, _variant: Variant) -> str:
        """Her pick: the rating model's suggestion, as it stands."""
        return request.suggestion

    def _line_reading(self, _request: LineReading, _variant: Variant) -> str:
        """No reading: her rules read the line (``memory.utterance``), as with no model."""
        return ""

    def _fact_extraction(self, _request: FactExtraction, _variant: Variant) -> str:
        """Rules do not read free chat for facts; only ``@<her handle> remember`` teaches them."""
        return "[]"


def _ordinal(rank: int) -> str:
    """Which ending a rank takes in English ("1st", "12th", "23rd"): its voice section's
    name; a language with one ending ("3º") says the same for each."""
    if rank % 100 in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
