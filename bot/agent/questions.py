"""What a line to her asks, in English or Portuguese, and the pool's records that answer it.

Worked out by rules, so that the offline voice answers as well as a model, and
a model is handed the records (``Answer.notes``) instead of guessing them. A
question about a player no fact answers is "I don't know" (``NotKnown``); a line
no rule reads gets "I did not get that" with one example (``NotRead``); the list
of what she can answer is for "help" alone.

The line is read once, by ``memory.utterance.read_line``, as her memory read it when
it was logged: a fact to remember or forget, or the kinds of question it asks
(``memory.question_kinds``), which this module answers from the records in order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, date, tzinfo

from bot.agent import forecast, predictor
from bot.agent.requests import (
    Answer,
    BestWorst,
    DayBest,
    Fallback,
    Forecast,
    Forgotten,
    Gap,
    HeldThen,
    KnownFacts,
    Leading,
    MatchTold,
    MostExact,
    NoSuchMatch,
    NotAFact,
    NotKnown,
    NotRead,
    NotYours,
    PickOf,
    PointsOver,
    Remembered,
    RulesTold,
    ScoreAt,
    ScoredOn,
    Standing,
    TableTold,
    TeamPlace,
    UnknownName,
    WhoCalled,
    WhoPicked,
)
from game import jokers, league
from game.addressing import Addressee
from game.model import Match, MatchStatus, Result, Score
from game.pool import NotFound
from game.rules import RuleViolation
from game.scoring import Tier, classify, points_for, scored_score
from game.standings import StandingRow, top_of
from game.teams import TeamBook
from game.words import Words
from memory import facts, hearing
from memory import question_kinds as kinds
from memory.naming import suggest
from memory.person import second_person
from memory.question_kinds import plain_line
from memory.store import MEMORY_STATE, MemoryStore
from memory.stories import match_story
from memory.utterance import Chat, Forget, Question, Remember, read_line, told_to_remember

CONTENDERS = 5  # the likeliest champions an answer about the cup names
FACTS_ANSWERED = 5  # "what do you remember about me?": the newest few, and how many more
# Characters of facts an answer lists: her answer's limit (memory.contract's 280) less its
# opening and the "N more besides" that follows them.
FACTS_FIT = 170
FACT_SHOWN = 60  # characters of one fact an answer lists: a long one is cut
FACT_LEAST = 30  # ... and when several share the answer, cut no shorter than this
DATE_WORDS = len("[14 Dec] ; ")  # what each listed fact adds round its text
CHANGE_SHOWN = 40  # characters of what was held before a change, as an answer tells it
CHANGE_WORDS = 40  # the words round it: "That one since 10 Dec; before that: ..."
TABLE_TOP_ROWS = 5  # the table she tells: its top, the asker's row, its last
TEAMS = TeamBook.standard()
# A result said in a question ("o 2-1", "the 3x0"), and the final named.
SCORE_SAID = re.compile(r"\b(\d{1,2})\s*[-x:]\s*(\d{1,2})\b")
# A pick of one's own said by its score: "o meu 2-1 rendeu quanto?", "my 1-1"
MY_SCORE = re.compile(r"\b(?:meu|my)\s+(\d{1,2})\s*[-x:]\s*(\d{1,2})\b")
FINAL = re.compile(r"\b(?:final|finals|decisao)\b")
# The match for third place, as said and as a stage is named ("Match for third place")
THIRD_PLACE = re.compile(r"\b(?:third|3rd|terceiro|3o|3º) (?:place|lugar)|\bbronze\b")
# The article before a team's name: "quem cravou o Brasil?", "who called the Netherlands?"
ARTICLE = re.compile(r"^(?:o|a|os|as|the)\s+", re.IGNORECASE)


class Questions:
    """Reads a question to her and gathers what answers it."""

    def __init__(
        self,
        store: MemoryStore,
        addressee: Addressee,
        zone: tzinfo = UTC,
        words: Words | None = None,
        earlier_season: Sequence[Match] = (),
    ) -> None:
        self.store = store  # the facts players told her
        self.earlier_season = earlier_season  # where her club ratings start
        self.pool = store.pool
        self.words = words or Words()  # the pool's: the days and months her answers name
        self.addressee = addressee
        self.zone = zone
        # The cup simulated, by the state of the log it was run at: a second asker
        # before the next result gets the same chances (a simulation took a second).
        self._cup: tuple[int, dict[str, float]] | None = None

    def read(self, asker: str, text: str, line_id: int) -> Answer:
        """What ``asker``'s line ``text`` (logged as ``line_id``) asks her, read once,
        as her memory read it (``memory.utterance.read_line``)."""
        players = {p.handle: p.display_name for p in self.pool.players()}
        today = self.pool.clock().astimezone(self.zone).date()
        with self.store.read() as connection:
            heard = MEMORY_STATE.get(connection, f"heard:{line_id}")
        if heard is not None:  # a model read the line when memory took it
            kept = hearing.restored(heard)
            if kept.hushed and kept.question is None:
                return Remembered(asker, "", private=True)  # kept to its owner: not repeated
            return self._as_heard(asker, text, line_id, kept.question, players, today)
        said = read_line(text, asker, players, self.addressee, today)
        if isinstance(said, Remember):
            if said.question is not None and said.told.kept is not None:
                said = said.question  # stored as told; the line's question is answered
            else:
                return self._remembered(asker, said, line_id)
        if isinstance(said, Forget):
            if said.private:  # kept, to its owner alone: she says so, not what it is
                with self.store.read() as connection:
                    target = facts.hushed(connection, asker, said.what)
                hushed = target is not None and target.private
                return Remembered(asker, "", private=True) if hushed else Forgotten(asker, 0)
            forgotten = self._forgotten(asker, said.what, line_id)
            if said.question is not None and not forgotten.ambiguous:
                # asked something besides: the question is what she answers
                for ask in said.question.asks:
                    answer = self._answer(asker, said.question, ask, players, today)
                    if answer is not None:
                        return answer
            return forgotten
        if isinstance(said, Chat):  # not to her: nothing she was asked
            return NotRead(asker, self.addressee.mention)
        for ask in said.asks:
            answer = self._answer(asker, said, ask, players, today)
            if answer is not None:
                return answer
        return self._from_facts(asker, said, players) or self._not_known(asker, said)

    def _as_heard(
        self,
        asker: str,
        text: str,
        line_id: int,
        asked: hearing.HeardQuestion | None,
        players: dict[str, str],
        today: date,
    ) -> Answer:
        """A line a model read: its question answered from the records, else what memory
        did with it (stored, replaced, withdrawn), else her facts of the asker, else she
        could not read it."""
        words = (self.addressee.message(text) or "").strip()
        said: Question | None = None
        if asked is not None:
            asks = hearing.asks(asked, asker, players, self.addressee.handle)
            named = tuple(
                h
                for h in hearing.heard_handles(asked.who)
                if h in players and h != self.addressee.handle
            )
            said = Question(words, asks, named, asked.who in (None, asker))
            for ask in asks:
                answer = self._answer(asker, said, ask, players, today)
                if answer is not None:
                    return answer
        made, was = self._stored_by(line_id)
        if made is not None:
            return Remembered(asker, made.text, was.text if was else "", private=made.private)
        with self.store.read() as connection:
            gone = facts.withdrawn_by(connection, f"log:{line_id}")
        if gone:
            return Forgotten(asker, len(gone))
        if said is None:
            # the model read no question in it, and memory did nothing with it: it says
            # so, not her facts a word of the line happens to share ("semana")
            return NotRead(asker, self.addressee.mention)
        # a question of no kind she answers from the records: of the facts of whom it
        # names ("who" bruno), else the asker's
        return self._from_facts(asker, said, players) or NotRead(asker, self.addressee.mention)

    def _forgotten(self, asker: str, what: str, line_id: int) -> Forgotten:
        """How many facts the line ``line_id`` withdrew, or, when ``what`` named several
        and none was withdrawn, how many it named: she asks which."""
        with self.store.read() as connection:
            gone = facts.withdrawn_by(connection, f"log:{line_id}")
            which = [] if gone or not what else facts.named(connection, asker, what)
        if len(which) > 1:
            return Forgotten(asker, len(which), ambiguous=True)
        return Forgotten(asker, len(gone))

    def _remembered(self, asker: str, said: Remember, line_id: int) -> Answer:
        """A fact told, answered as memory took it when the line was logged: stored
        (replacing what), already known, or why not (another player's to tell, a standing
        in the pool, nothing told)."""
        told = said.told
        if told.others:  # not stored: she says so, and does not repeat the claim
            return NotYours(asker, ", ".join(told.others))
        if told.kept is None:
            return NotAFact(asker, standing=told.standing, empty=told.empty)
        made, was = self._stored_by(line_id)
        if made is None:
            return Remembered(asker, told.words, already=True, private=said.private)
        private = said.private or made.private  # a secret is not said back in the chat
        return Remembered(asker, told.words, was.text if was else "", private=private)

    def _stored_by(self, line_id: int) -> tuple[facts.Fact | None, facts.Fact | None]:
        """The fact the line ``line_id`` stored, if any, and the one it replaced."""
        with self.store.read() as connection:
            made = facts.made_by(connection, f"log:{line_id}")
            return (made[0], facts.replaced(connection, made[0])) if made else (None, None)

    def _answer(
        self, asker: str, said: Question, ask: kinds.Ask, players: dict[str, str], today: date
    ) -> Answer | None:
        """The records' answer to one kind of question; None when they hold none (a pick
        for no match of the pool's, a club's place in a pool that is no league)."""
        match ask:
            case kinds.Help():
                return Fallback(asker, self.addressee.mention)
            case kinds.PickAsked(who, number):
                first = self._pick(asker, who, number, said.plain)
                # "what did carla and elis pick?": every pick the line asks, in one answer
                others = [
                    self._pick(asker, other.who, other.number, said.plain)
                    for other in said.asks
                    if isinstance(other, kinds.PickAsked) and other != ask
                ]
                also = tuple(pick for pick in others if pick is not None)
                return replace(first, also=also) if first is not None and also else first
            case kinds.MostExactAsked():
                table = self.pool.standings()
                most = max((r.exact for r in table), default=0)
                return MostExact(asker, tuple(r.player for r in table if r.exact == most), most)
            case kinds.PointsOverAsked(first, last):
                return self._points_over(asker, first, last)
            case kinds.BestWorstAsked():
                return self._best_worst(asker)
            case kinds.OwnStanding():
                table, live = self._table_now()
                row = next((r for r in table if r.player == asker), None)
                played = any(r.predictions for r in table)
                return Standing(asker, row if played else None, len(table), live)
            case kinds.TableTop():
                return self._table(said.words, top=True)
            case kinds.ClubPlace():
                return self._table(said.words, top=False)
            case kinds.LeadingAsked(after):
                return self._leading(asker, after)
            case kinds.ForecastAsked():
                return self._forecast(asker, ask)
            case kinds.ScoreAtAsked(number, minute):
                return self._score_at(asker, number, minute)
            case kinds.MatchAsked(number):
                return self._match(asker, number)
            case kinds.NextMatchAsked(day):
                ahead = self._next_match(day)
                return None if ahead is None else self._match(asker, ahead.number)
            case kinds.WhoCalledAsked(team):
                return self._who_called(asker, team)
            case kinds.PoolTable():
                return self._pool_table(asker)
            case kinds.GapAsked(first, second):
                return self._gap(asker, first, second)
            case kinds.ScoredOnAsked(team):
                return self._scored_on(asker, team)
            case kinds.WhoPickedAsked():
                return self._who_picked(asker, said.plain)
            case kinds.DayBestAsked(day):
                return self._day_best(asker, day)
            case kinds.RulesAsked():
                rule, basis = self.pool.scoring()
                return RulesTold(asker, rule.exact, rule.difference, rule.outcome, str(basis))
            case kinds.TeamsMatchAsked():
                match = self._named_match(said.plain)
                return None if match is None else self._match(asker, match.number)
            case kinds.SupportedThen(who, day):
                with self.store.read() as connection:
                    held = facts.held(connection, who, "team", day, private=who == asker)
                return HeldThen(who, self.words.day(day), tuple(f.text for f in held))
            case kinds.KnownAbout(name, who, everything):
                if who is None:
                    return UnknownName(asker, name, tuple(suggest(name, players)))
                return self._known(who, everything, private=who == asker)
            case kinds.Supports(who):
                with self.store.read() as connection:
                    teams = tuple(
                        self._dated(f)
                        for f in facts.held(connection, who, "team", today, private=who == asker)
                    )
                return KnownFacts(who, teams, self.addressee.mention) if teams else NotKnown(who)
        return None

    # -- the records ----------------------------------------------------------

    def _pick(self, asker: str, who: str, number: int | None, plain: str) -> PickOf | None:
        """``who``'s pick for match ``number``, or for the match ``plain`` names by its teams."""
        matches = self.pool.matches()
        if number is not None:
            match = next((m for m in matches if m.number == number), None)
        else:
            match = self._picked_so(who, plain) or self._named_match(plain) or self._last_started()
        if match is None:
            return None
        label = f"#{match.number} {match.team1} v {match.team2}"
        public = (asker, self.addressee.handle)  # her own picks she tells before kick-off
        if who not in public and not match.has_started(self.pool.clock()):
            # as the pool's own "match" command
            return PickOf(who, label, None, hidden=True, number=match.number)
        pick = next(
            (p.score for p in self.pool.predictions_on(match.number) if p.handle == who), None
        )
        if pick is None:
            return PickOf(who, label, None, number=match.number)
        points = None
        if match.status is MatchStatus.FINISHED and match.result is not None:
            points = self._earning(who)(pick, match.result, match.number)
        return PickOf(who, label, str(pick), points=points, number=match.number)

    def _named_match(self, plain: str) -> Match | None:
        """The match a line names without its number: by its teams (the last one started,
        else the next), by a result said ("o 2-1", the last match that ended so), or
        "the final"; None when it names none."""
        matches = self.pool.matches()
        now = self.pool.clock()
        teams = TEAMS.named_in(plain, {t for m in matches for t in (m.team1, m.team2)})
        both = [m for m in matches if {m.team1, m.team2} <= teams]
        either = [m for m in matches if teams & {m.team1, m.team2}]
        started = [m for m in both or either if m.has_started(now)]
        ahead = [m for m in both or either if not m.has_started(now)]
        if started:
            return max(started, key=Match.time_order)
        if ahead:
            return min(ahead, key=Match.time_order)
        # "the final", "o jogo do terceiro lugar": named, before any score said beside it
        if THIRD_PLACE.search(plain):
            return next((m for m in matches if THIRD_PLACE.search(plain_line(m.stage))), None)
        if FINAL.search(plain) and matches:
            return max(matches, key=Match.time_order)
        _, basis = self.pool.scoring()
        said = {f"{home}-{away}" for home, away in SCORE_SAID.findall(plain)}
        ended = sorted(
            (m for m in matches if m.result is not None and m.has_started(now)),
            key=Match.time_order,
        )
        for match in reversed(ended):
            assert match.result is not None  # ended
            if said & {str(scored_score(match.result, basis)), str(match.result)}:
                return match

        return None

    def _picked_so(self, who: str, plain: str) -> Match | None:
        """The last match started that ``who`` picked as ``plain`` says "my 2-1"."""
        said = MY_SCORE.search(plain)
        if said is None:
            return None
        score = Score(int(said[1]), int(said[2]))
        now = self.pool.clock()
        picked = [
            m
            for m in self.pool.matches()
            if m.has_started(now)
            and any(
                p.handle == who and p.score == score for p in self.pool.predictions_on(m.number)
            )
        ]
        return max(picked, key=Match.time_order, default=None)

    def _last_started(self) -> Match | None:
        now = self.pool.clock()
        started = [m for m in self.pool.matches() if m.has_started(now)]
        return max(started, key=Match.time_order, default=None)

    def _pool_table(self, asker: str) -> TableTold:
        """The pool's table: its top five, the asker's row and its last, in rank order."""
        table, live = self._table_now()
        played = sum(1 for m in self.pool.matches() if m.result is not None)
        shown = {r.player for r in table[:TABLE_TOP_ROWS]} | {asker}
        if table:  # its last, and everyone level with it
            shown |= {r.player for r in table if r.rank == table[-1].rank}
        rows = tuple((r.rank, r.player, r.points) for r in table if r.player in shown)
        return TableTold(asker, rows if played or live else (), played, len(table), live)

    def _points_over(self, asker: str, first: int, last: int) -> PointsOver:
        """The asker's points over matches ``first`` to ``last``, the finished ones."""
        results = {m.number: m.result for m in self.pool.matches() if m.result is not None}
        earned = self._earning(asker)
        points = sum(
            earned(p.score, result, p.match_number)
            for p in self.pool.predictions_of(asker)
            if first <= p.match_number <= last and (result := results.get(p.match_number))
        )
        return PointsOver(asker, first, last, points)

    def _best_worst(self, asker: str) -> BestWorst:
        """The asker's finished matches with a pick, by the points each earned."""
        finished = {
            m.number: m
            for m in self.pool.matches()
            if m.status is MatchStatus.FINISHED and m.result is not None
        }
        earning = self._earning(asker)
        earned = []
        for p in self.pool.predictions_of(asker):
            match = finished.get(p.match_number)
            if match is not None and match.result is not None:
                label = f"#{match.number} {match.team1} {match.result} {match.team2}"
                earned.append((earning(p.score, match.result, match.number), label, str(p.score)))
        if not earned:
            return BestWorst(asker, None, None)
        best = max(earned, key=lambda e: e[0])  # the first of the best, the first of the worst
        worst = min(earned, key=lambda e: e[0])
        return BestWorst(asker, (best[1], best[2], best[0]), (worst[1], worst[2], worst[0]))

    def _table(self, question: str, top: bool) -> TeamPlace | None:
        """A league's table: its leader (``top``), or the row of a club the question names."""
        matches = self.pool.matches()
        if not league.is_league(matches):
            return None
        rows = league.league_table(matches)
        if not rows:
            return None
        if top:
            row = rows[0]
        else:
            named = TEAMS.named_in(question, [r.team for r in rows])
            if not named:
                return None
            row = next(r for r in rows if r.team in named)
        leader = rows[0].team
        return TeamPlace(
            row.team, row.rank, len(rows), row.played, row.won, row.drawn, row.lost, leader
        )

    def _not_known(self, asker: str, said: Question) -> NotKnown | NotRead:
        """No rule and no fact answer it: "I don't know" when it asks after a player (the
        asker or one it names, a withdrawn fact no longer theirs); else not read at all."""
        if said.named:
            return NotKnown(said.named[0])
        if said.of_self:
            return NotKnown(asker)
        return NotRead(asker, self.addressee.mention)

    def _told_back(self, fact: facts.Fact) -> str:
        """A fact as its player told it, in the second person; as stored if it was merged."""
        if fact.source.startswith("log:"):
            line_id = int(fact.source.removeprefix("log:"))
            said = self.pool.events(after_id=line_id - 1, up_to_id=line_id)
            told = (
                told_to_remember(getattr(said[0].event, "text", ""), self.addressee)
                if said
                else None
            )
            if told is not None:
                return second_person(told.rstrip("."))
        return fact.text

    def _leading(self, asker: str, after: int | None = None) -> Leading:
        """Who leads now, or who led once match ``after`` was over (as the log has it)."""
        finished = [m for m in self.pool.matches() if m.result is not None]
        then = next((m for m in finished if m.number == after), None)
        live = ""
        if then is None:
            table, live = self._table_now()
            played = len(finished)
        else:
            table = self.pool.standings(up_to_match=then.number)
            played = sum(1 for m in finished if m.time_order() <= then.time_order())
        if not table:
            return Leading(asker, (), 0, (), played, live)
        top = table[0].points
        leaders = tuple(top_of(table)) or tuple(r.player for r in table if r.points == top)
        chasers = tuple((r.player, r.points) for r in table if r.player not in leaders)[:2]
        return Leading(asker, leaders, top, chasers, played, live)

    def _cup_chances(self, matches: list[Match], mark: int) -> dict[str, float]:
        """Each team's chance to win the cup, simulated once per state of the log
        (``mark``, seen before ``matches`` were read)."""
        if self._cup is not None and self._cup[0] == mark:
            return dict(self._cup[1])
        seen = predictor.outlook(matches, before=self.earlier_season)
        chances = forecast.Cup(matches, seen).chances()
        self._cup = (mark, chances)
        return dict(chances)

    def _forecast(self, asker: str, asked: kinds.ForecastAsked) -> Forecast:
        mark = self.pool.state_mark()  # seen first: chances kept are never older than it
        matches = self.pool.matches()
        if asked.cup:
            champions = self._cup_chances(matches, mark)
            return Forecast(
                asker,
                None,
                None,
                None,
                forecast.percentages(champions, CONTENDERS),
                league=league.is_league(matches),
            )
        ahead = [m for m in matches if m.status is not MatchStatus.FINISHED]
        if asked.number is not None:
            chosen = next((m for m in matches if m.number == asked.number), None)
        else:
            named = [m for m in ahead if _names_team(asked.rest, m)]
            upcoming = named or sorted(ahead, key=Match.time_order)
            chosen = upcoming[0] if upcoming else None
        if chosen is None:
            return Forecast(asker, None, None, None)
        pick = next(
            (
                p.score
                for p in self.pool.predictions_on(chosen.number)
                if p.handle == self.addressee.handle
            ),
            None,
        )
        _, basis = self.pool.scoring()
        seen = predictor.outlook(matches, before=self.earlier_season)
        odds = predictor.odds(chosen, predictor.chances(chosen, seen, basis))
        side = max(  # "" for a draw
            ((odds.win1, chosen.team1), (odds.draw, ""), (odds.win2, chosen.team2)),
            key=lambda chance: chance[0],
        )[1]
        label = f"#{chosen.number} {chosen.team1} v {chosen.team2}"
        return Forecast(asker, label, str(pick) if pick else None, side, odds=odds)

    def _score_at(self, asker: str, number: int, minute: int) -> Answer:
        """Match ``number``'s score before ``minute``, from its goals' minutes."""
        found = next((m for m in self.pool.matches() if m.number == number), None)
        if found is None:
            return NoSuchMatch(asker, number, len(self.pool.matches()))
        match = self.pool.match(number)  # with its goals
        before = [g for g in match.goals if g.minute < minute]
        home = sum(1 for g in before if g.side == "home")
        label = f"#{match.number} {match.team1} v {match.team2}"
        return ScoreAt(asker, label, minute, f"{home}-{len(before) - home}")

    def _match(self, asker: str, number: int | None) -> MatchTold | NoSuchMatch:
        matches = self.pool.matches()
        if number is None:
            done = [m for m in matches if m.result is not None]
            if not done:
                return MatchTold(asker, "no match", False, kickoff="-")
            match = max(done, key=Match.time_order)
        else:
            found = next((m for m in matches if m.number == number), None)
            if found is None:
                return NoSuchMatch(asker, number, len(matches))
            match = found
        if match.result is None:
            label = f"#{match.number} {match.team1} v {match.team2}"
            when = self.words.when(match.kickoff, self.zone)
            return MatchTold(asker, label, False, kickoff=when)
        story = match_story(self.pool, match, self.zone)
        return MatchTold(asker, story.label, True, tuple(story.exact()), story.scorer_summary())

    def _next_match(self, day: date | None) -> Match | None:
        """The next match to kick off: the first of ``day`` (in the pool's zone) when one
        is said; None when none is left (that day)."""
        now = self.pool.clock()
        ahead = sorted(
            (m for m in self.pool.matches() if not m.has_started(now)), key=Match.time_order
        )
        if day is not None:
            ahead = [m for m in ahead if m.kickoff.astimezone(self.zone).date() == day]
        return ahead[0] if ahead else None

    def _finished_named(self, team: str) -> Match | None:
        """The finished match ``team`` names (its team, "o Brasil", "the Netherlands"; a
        result, "o 2-1"; "the final"), or the last one played when it names none; None
        when it names a team with no finished match."""
        wanted = ARTICLE.sub("", team.strip())
        finished = [m for m in self.pool.matches() if m.status is MatchStatus.FINISHED]
        if not wanted:
            return self._last_finished(finished)
        played = [m for m in finished if TEAMS.same(m.team1, wanted) or TEAMS.same(m.team2, wanted)]
        named = self._named_match(plain_line(wanted))
        if played:
            return played[-1]
        if named is not None and named.status is MatchStatus.FINISHED:
            return named
        return None if TEAMS.named_in(wanted) else self._last_finished(finished)

    def _gap(self, asker: str, first: str, second: str) -> Gap | None:
        """Two players' totals side by side; None when either is not in the table."""
        table, live = self._table_now()
        points = {r.player: r.points for r in table}
        first, second = _at_place(first, table, second), _at_place(second, table, first)
        if first not in points or second not in points or first == second:
            return None
        return Gap(asker, (first, points[first]), (second, points[second]), live)

    def _table_now(self) -> tuple[list[StandingRow], str]:
        """The table as every screen shows it now, the matches in play at their running
        score, and those matches ("Brazil v Serbia"; "" when none is): a total she says
        is the one on the screen."""
        now = self.pool.live_table()
        return now.rows, ", ".join(f"{m.team1} v {m.team2}" for m in now.in_play)

    def _earning(self, handle: str) -> Callable[[Score, Result, int], int]:
        """What a pick of ``handle``'s earned on a result of match #N: the pool's rule and
        score basis, twice under a joker."""
        rule, basis = self.pool.scoring()
        held = self.pool.extras.jokers_of(handle)

        def earned(pick: Score, result: Result, number: int) -> int:
            return jokers.earned(points_for(pick, result, rule, basis), number in held)

        return earned

    def _who_picked(self, asker: str, plain: str) -> WhoPicked | None:
        """Who picked the one team the line names to win its match; None when it names
        no team of the pool's, or two."""
        match = self._named_match(plain)
        teams = TEAMS.named_in(plain, {t for m in self.pool.matches() for t in (m.team1, m.team2)})
        if match is None or len(teams) != 1 or not teams <= {match.team1, match.team2}:
            return None
        (team,) = teams
        label = f"#{match.number} {match.team1} v {match.team2}"
        if not match.has_started(self.pool.clock()):
            return WhoPicked(asker, label, team, hidden=True)
        picks = self.pool.predictions_on(match.number)
        sign = 1 if team == match.team1 else -1  # a win for the team: its goals ahead
        pickers = tuple(
            (p.handle, str(p.score)) for p in picks if sign * (p.score.home - p.score.away) > 0
        )
        return WhoPicked(asker, label, team, pickers)

    def _day_best(self, asker: str, day: date | None) -> DayBest | None:
        """Who scored the most on ``day``'s matches (the last day played when None); None
        when that day has no finished match."""
        try:
            when, table = self.pool.day_table(day)
        except (NotFound, RuleViolation):
            return None
        if not table.matches:
            return None
        top = max((row.points for row in table.rows), default=0)
        label = f"{when.day} {when.strftime('%b')}"
        return DayBest(asker, label, tuple(table.leaders), top, table.left)

    def _scored_on(self, asker: str, team: str) -> ScoredOn | None:
        """Who scored points on the finished match ``team`` names, best first."""
        match = self._finished_named(team)
        if match is None or match.result is None:
            any_finished = any(m.status is MatchStatus.FINISHED for m in self.pool.matches())
            return None if any_finished else ScoredOn(asker, None)
        scorers = []
        for pick in self.pool.predictions_on(match.number):
            earned = self._earning(pick.handle)(pick.score, match.result, match.number)
            if earned > 0:
                scorers.append((pick.handle, str(pick.score), earned))
        scorers.sort(key=lambda row: -row[2])
        label = f"#{match.number} {match.team1} {match.result} {match.team2}"
        return ScoredOn(asker, label, tuple(scorers))

    def _who_called(self, asker: str, team: str) -> WhoCalled:
        """Who called the match ``team`` names, or the last one played when it names none."""
        match = self._finished_named(team)
        if match is None or match.result is None:
            return WhoCalled(asker, team, None)
        _, basis = self.pool.scoring()
        actual = scored_score(match.result, basis)
        exact = [
            p.handle
            for p in self.pool.predictions_on(match.number)
            if classify(p.score, actual) is Tier.EXACT
        ]
        label = f"#{match.number} {match.team1} {match.result} {match.team2}"
        return WhoCalled(asker, team, label, tuple(exact))

    @staticmethod
    def _last_finished(finished: list[Match]) -> Match | None:
        return max(finished, key=Match.time_order, default=None)

    def _from_facts(self, asker: str, said: Question, players: dict[str, str]) -> KnownFacts | None:
        """A question about what a player told her ("what is my cat called?", "where does
        bruno live?"), answered from their current facts; None when no fact answers it."""
        who = said.named[0] if said.named else asker
        today = self.pool.clock().astimezone(self.zone).date()
        with self.store.read() as connection:
            current = facts.for_prompt(connection, who, today, private=who == asker)
        names = (who, players.get(who) or "", self.addressee.handle, self.addressee.name)
        found = facts.asked_about(current, said.words, names)[:FACTS_ANSWERED]
        if not found:
            return None
        told = tuple(self._dated(f) for f in found)
        return KnownFacts(who, told, self.addressee.mention)

    def _known(self, who: str, everything: bool = False, private: bool = False) -> Answer:
        """What she remembers of ``who``: the newest handful, dated, as many as fit her
        answer, and how many more; ``everything``: the older ones the handful left out
        (every fact, when the handful is all), undated so that more of them fit."""
        today = self.pool.clock().astimezone(self.zone).date()
        with self.store.read() as connection:
            current = sorted(
                facts.for_prompt(connection, who, today, private),
                key=lambda f: (f.last_told, f.id),
            )
            if everything:
                older = current[:-FACTS_ANSWERED] or current
                told = _fit([f.text for f in older])
                return KnownFacts(who, told, self.addressee.mention, len(older) - len(told))
            newest = list(reversed(current[-FACTS_ANSWERED:]))
            before = {f.id: facts.replaced(connection, f) for f in newest}
        # A mind changed: the newest change, what was held before cut short; it takes its
        # room from the facts listed, so that the whole answer fits.
        changes = [
            (fact.id, self.words.day(fact.learned_on), _short(was.text, CHANGE_SHOWN))
            for fact in newest
            if (was := before[fact.id]) is not None and (private or not was.private)
        ][:1]
        room = FACTS_FIT - sum(len(was) + CHANGE_WORDS for _, _, was in changes)
        # the handful share the room: each cut shorter when there are more of them
        each = max(FACT_LEAST, min(FACT_SHOWN, room // max(len(newest), 1) - DATE_WORDS))
        fitting = len(_fit([self._dated(f, each) for f in newest], room))
        shown = sorted(newest[:fitting], key=lambda f: f.id)
        changed = tuple((day, was) for i, day, was in changes if i in {f.id for f in shown})
        return KnownFacts(
            who,
            tuple(self._dated(f, each) for f in shown),
            self.addressee.mention,
            len(current) - len(shown),
            changed,
        )

    def _dated(self, fact: facts.Fact, limit: int = FACT_SHOWN) -> str:
        """A fact as an answer lists it: "[14 Jun] ana supports Argentina now", its first
        clause when it is long (a whole chat line told her), so that several fit."""
        return f"[{self.words.day(fact.learned_on)}] {_short(fact.text, limit)}"


def _names_team(text: str, match: Match) -> bool:
    lowered = text.lower()
    return match.team1.lower() in lowered or match.team2.lower() in lowered


def _short(text: str, limit: int = FACT_SHOWN) -> str:
    """``text`` up to ``limit`` characters: whole, or cut at a clause or a word."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    clause = max(cut.rfind(","), cut.rfind("."), cut.rfind(";"))
    end = clause if clause > limit // 2 else cut.rfind(" ")
    return cut[: end if end > 0 else limit].rstrip(" ,.;") + "…"


def _fit(told: list[str], room: int = FACTS_FIT) -> tuple[str, ...]:
    """The first of ``told`` that fit in ``room`` characters together (at least one)."""
    fitting: list[str] = []
    for text in told:
        if fitting and len("; ".join([*fitting, text])) > room:
            break
        fitting.append(text)
    return tuple(fitting)


def _at_place(side: str, table: Sequence[StandingRow], other: str) -> str:
    """The player a gap's side names: a handle, or a place ("@last", "@rank:2"), or the
    ``other`` side's rival (the second, when ``other`` leads; else the leader)."""
    if not table or not side.startswith("@"):
        return side
    if side == kinds.RIVAL:
        leads = table[0].player == other and len(table) > 1
        return table[1].player if leads else table[0].player
    if side == kinds.LEADER:
        return table[0].player
    if side == kinds.LAST:
        return table[-1].player
    if side == kinds.PENULT:
        return table[-2].player if len(table) > 1 else side
    rank = int(side.split(":")[1]) if side.startswith("@rank:") else 0
    return table[rank - 1].player if 0 < rank <= len(table) else side
