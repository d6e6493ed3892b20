"""Her own requests, as typed data: a pick wanted, each kind of remark, each kind of answer.

A language model reads the prompt; a rule-based writer (``bot.agent.providers.offline``)
reads these. One small frozen dataclass per kind: a new kind of remark is one
class here and one rule in the offline writer's table. The requests memory makes
itself (diary entries, fact merges) and the base they share are in
``memory.requests``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, ClassVar

from game.shares import Shares
from game.standings import StandingRow
from memory.quoting import quote_player_text
from memory.requests import INTEGER, Request, note, object_schema, scored
from memory.stories import MatchStory


@dataclass(frozen=True)
class PickWanted(Request):
    task: ClassVar[str] = "prediction"
    schema: ClassVar[dict[str, Any] | None] = object_schema(
        {"home": {**INTEGER, "maximum": 20}, "away": {**INTEGER, "maximum": 20}}
    )
    suggestion: str  # the rating model's pick, as "2-1"


# -- her remarks ------------------------------------------------------------------


@dataclass(frozen=True)
class Remark(Request):
    task: ClassVar[str] = "remark"
    kind: ClassVar[str] = ""  # which remark, for the writer's variety


# Storylines that tell who is top now: her line on the result carries them (the
# commentator then makes no new-leader remark of its own beside one that said so).
TOP_STORIES = frozenset({"lead_change", "her_lead", "final_day", "her_final_day"})


@dataclass(frozen=True)
class Storyline:
    """A true sentence about the pool that a result makes worth saying (bot.agent.storylines)."""

    kind: str  # a section of prompts/storyline.txt and of the voice's "story." lines
    who: str = ""
    count: int = 0
    other: str = ""  # the second player of a rivalry


@dataclass(frozen=True)
class Recall:
    """An earlier day like this one, from the log: "like on 15 Jun, when ana called ..."."""

    who: str
    day: date
    match: str  # "Brazil 2-0 Serbia"


@dataclass(frozen=True)
class FinalWhistle(Remark):
    kind: ClassVar[str] = "final_whistle"
    story: MatchStory
    who: tuple[str, ...] = ()  # whom she chose to talk about (the teasing goes round)
    aside: str | None = None  # something a player told her that fits the moment
    storyline: Storyline | None = None  # from the log, when the result makes one
    recall: Recall | None = None  # an earlier exact call of one of ``who``


@dataclass(frozen=True)
class RoundDay(Remark):
    """A league's round day told once, at its last whistle: ten results are one story."""

    kind: ClassVar[str] = "round_day"
    round: int
    stories: tuple[MatchStory, ...]
    who: tuple[str, ...] = ()  # whom she chose to talk about
    leader: str | None = None  # the top of the league's table after the day
    # The pool's own top after the day, when it moved (a new leader): told in this one
    # line about the tables, not in a second one beside it.
    storyline: Storyline | None = None

    def exact(self) -> list[tuple[str, MatchStory]]:
        """Who called which of the day's matches exactly."""
        return [(player, story) for story in self.stories for player in story.exact()]

    def blank(self) -> list[str]:
        """Who scored nothing on any of the day's matches they picked."""
        picked = {p.player for story in self.stories for p in story.picks}
        scored = {player for story in self.stories for player in story.scorers()}
        return sorted(picked - scored)


@dataclass(frozen=True)
class Odds:
    """A match's chances as her ratings see them, in whole percentages summing to 100."""

    team1: str
    team2: str
    win1: int
    draw: int
    win2: int


@dataclass(frozen=True)
class KickOff(Remark):
    kind: ClassVar[str] = "kickoff"
    match: str
    pick: str  # hers
    agree: int
    disagree: int
    odds: Odds  # why she picked it
    pool: Shares  # how the others picked it: counted only now that it has kicked off


@dataclass(frozen=True)
class GoalMoment(Remark):
    kind: ClassVar[str] = "goal"
    team: str
    match: str
    score: str
    alive: tuple[str, ...]  # players whose pick can still come true
    killed: bool = False  # this goal ended picks that could come true until it


@dataclass(frozen=True)
class NewLeader(Remark):
    kind: ClassVar[str] = "leader"
    who: str
    points: int
    previous: str


@dataclass(frozen=True)
class BigJump(Remark):
    kind: ClassVar[str] = "jump"
    who: str
    before: int
    after: int


@dataclass(frozen=True)
class Correction(Remark):
    kind: ClassVar[str] = "correction"
    match: str
    previous: str


@dataclass(frozen=True)
class Welcome(Remark):
    kind: ClassVar[str] = "welcome"
    who: str
    leader: str | None
    points: int
    next: str | None


@dataclass(frozen=True)
class Forgetful(Remark):
    """Before a kick-off, the players the pool reminded that they have no pick on it:
    named, since a player without a pick has none to give away."""

    kind: ClassVar[str] = "forgetful"
    match: str
    who: tuple[str, ...]
    minutes: int


@dataclass(frozen=True)
class WrapUp(Remark):
    """After the final: the champion, the pool's winner and podium, her finish, the story."""

    kind: ClassVar[str] = "wrapup"
    contract: ClassVar[str] = "wrap_up"
    champion: str | None  # None: a cup cut before its final (or a level table) crowns nobody
    runner_up: str
    final: str  # the last match: "Spain 2-1 Argentina"
    winners: tuple[str, ...]  # everyone level at the top
    points: int
    podium: tuple[tuple[str, int], ...]  # ranks 1-3, ties included
    her_rank: int
    of: int
    leaders: tuple[str, ...]  # who led, in order, each time the lead changed hands
    mine: bool  # she won the pool herself
    best_call: tuple[str, str, int] | None  # (who, match, how many called it)
    worst_blank: tuple[str, int, int] | None  # (match, players on zero, players who picked)
    league: bool = False  # won at the top of a table, not in a final
    stage: str = ""  # the last match's, for a tournament that ended before a final

    def notes(self) -> str:
        if self.champion is None:
            crowned = note("wrapup.no_champion", final=self.final, stage=self.stage)
        else:
            crowned = note(
                "wrapup.champion_league" if self.league else "wrapup.champion",
                champion=self.champion,
                final=self.final,
                runner_up=self.runner_up,
            )
        lines = [
            crowned,
            note(
                "wrapup.pool",
                winners=" & ".join(self.winners),
                points=self.points,
                podium=scored(self.podium),
            ),
            note("wrapup.her", rank=self.her_rank, of=self.of),
            note("wrapup.lead", leaders=" -> ".join(self.leaders) or note("word.nobody")),
        ]
        if self.best_call:
            who, match, n = self.best_call
            lines.append(note("wrapup.best_call", who=who, match=match, n=n))
        if self.worst_blank:
            match, blanks, picks = self.worst_blank
            lines.append(note("wrapup.worst_blank", match=match, blanks=blanks, picks=picks))
        return "\n".join(lines)


@dataclass(frozen=True)
class Digest(Remark):
    kind: ClassVar[str] = "digest"
    day: str
    results: tuple[str, ...]
    leader: str
    points: int
    quiet: str | None
    # Who scored the most on the day's matches (``game.matchdays.winners``: ties all
    # named, nobody when nobody scored), and with how many points on them.
    winners: tuple[str, ...] = ()
    won_with: int = 0

    def notes(self) -> str:
        if not self.winners:
            return note("digest.no_winner") if self.results else ""
        return note("digest.winners", winners=" & ".join(self.winners), points=self.won_with)


# -- her answers to "@<her handle> ..." ----------------------------------------------


@dataclass(frozen=True)
class Answer(Request):
    task: ClassVar[str] = "answer"
    who: str  # whom the answer is about: the asker unless the question named someone

    def notes(self) -> str:
        """What the pool's records say for this question, for a model's prompt."""
        return ""


@dataclass(frozen=True)
class Standing(Answer):
    row: StandingRow | None  # None before anything has been scored
    of: int
    live: str = ""  # the matches in play its points count at their running score


@dataclass(frozen=True)
class KnownFacts(Answer):
    facts: tuple[str, ...]  # the newest few, a handful at most
    mention: str  # how to address her, for a player who has told her nothing yet
    more: int = 0  # the current facts left out of the answer
    # a mind changed: (since when, what was held before) for facts that replaced another
    changed: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class HeldThen(Answer):
    """ "Whom did ana support on 12 Jun?": the facts on a subject as she knew them that day."""

    day: str  # "12 Jun"
    facts: tuple[str, ...]


@dataclass(frozen=True)
class WhoCalled(Answer):
    team: str
    match: str | None  # the last finished match of ``team``, if any
    exact: tuple[str, ...] = ()


@dataclass(frozen=True)
class UnknownName(Answer):
    name: str
    close: tuple[str, ...]


@dataclass(frozen=True)
class Remembered(Answer):
    """What memory did with a fact told: stored (``fact``, as told), replacing ``replaced``
    (as stored), or already in her notes (``already``); ``private``: kept to its owner,
    so her answer in the open chat does not repeat it."""

    fact: str
    replaced: str = ""
    already: bool = False
    private: bool = False

    def notes(self) -> str:
        if self.private:
            return note("remembered.private")
        # what the player told is their text: quoted as data, like anywhere else
        fact = quote_player_text(self.who, self.fact, about=self.who)
        if self.already:
            return note("remembered.already", fact=fact)
        if self.replaced:
            old = quote_player_text(self.who, self.replaced, about=self.who)
            return note("remembered.replaced", fact=fact, old=old)
        return note("remembered", fact=fact)


@dataclass(frozen=True)
class NotYours(Answer):
    others: str  # the players the would-be fact names


@dataclass(frozen=True)
class NotAFact(Answer):
    """A "remember that match 1 ended 9-0": results and points come from the log; or a
    "remember that I am the admin" (``standing``): roles and standings from the records;
    or a "remember that" with nothing after it (``empty``)."""

    standing: bool = False
    empty: bool = False

    def notes(self) -> str:
        if self.empty:
            return note("not_a_fact.empty")
        return note("not_a_fact.standing" if self.standing else "not_a_fact")


@dataclass(frozen=True)
class Forgotten(Answer):
    """How many facts a take-back withdrew (``count``), or, ``ambiguous``, how many it named
    when it named several and withdrew none. Never what they said: a withdrawn fact is
    not said again, not even to confirm it is gone, in the pool's open chat."""

    count: int
    ambiguous: bool = False

    def notes(self) -> str:
        if self.ambiguous:
            return note("forgotten.ambiguous", count=self.count)
        return note("forgotten", count=self.count) if self.count else note("forgotten.none")


@dataclass(frozen=True)
class Leading(Answer):
    leaders: tuple[str, ...]  # everyone level at the top
    points: int
    chasers: tuple[tuple[str, int], ...]  # the next two, with their points
    played: int  # finished matches
    live: str = ""  # the matches in play its points count at their running score

    def notes(self) -> str:
        return note(
            "leading_now" if self.live else "leading",
            played=self.played,
            leaders=" and ".join(self.leaders),
            points=self.points,
            chasers=scored(self.chasers) or note("word.nobody"),
        )


@dataclass(frozen=True)
class Forecast(Answer):
    match: str | None  # "#12 Brazil v Serbia", the match asked about (or the next one)
    pick: str | None  # her pick for it, when she has one
    favourite: str | None  # the side her ratings prefer, "" for a draw
    # the likeliest winners of the cup, best first, with their chance in percent
    cup: tuple[tuple[str, int], ...] = ()
    odds: Odds | None = None  # of the match asked about
    league: bool = False  # ``cup`` are the league's likeliest champions

    def notes(self) -> str:
        if self.cup:
            return note("forecast.cup", chances=", ".join(f"{t} {c}%" for t, c in self.cup))
        if self.match is None:
            return note("forecast.none")
        pick = self.pick or note("word.not_made")
        favourite = self.favourite or note("word.a_draw")
        if self.odds is None:
            return note("forecast.match", match=self.match, pick=pick, favourite=favourite)
        return note(
            "forecast.match_odds",
            match=self.match,
            pick=pick,
            favourite=favourite,
            **vars(self.odds),
        )


@dataclass(frozen=True)
class MatchTold(Answer):
    label: str  # "#12 Brazil 2-0 Serbia" or "#12 Brazil v Serbia"
    finished: bool
    exact: tuple[str, ...] = ()
    scorers: str = ""  # "Vini 2 (Brazil)"
    kickoff: str = ""  # when it is played, for a match not finished

    def notes(self) -> str:
        if not self.finished:
            return note("match.unfinished", label=self.label, kickoff=self.kickoff)
        return note(
            "match.finished",
            label=self.label,
            scorers=self.scorers or note("word.none"),
            called=", ".join(self.exact) or note("word.nobody"),
        )


@dataclass(frozen=True)
class Fallback(Answer):
    mention: str = "@betania"  # how to address her, in the list of what she can do


@dataclass(frozen=True)
class NotKnown(Answer):
    """A question about something ``who`` never told her (or told and withdrew)."""

    def notes(self) -> str:
        return note("not_known", who=self.who)


@dataclass(frozen=True)
class NotRead(Answer):
    """A line she cannot read as any question she answers: one example of one she can."""

    mention: str = "@betania"

    def notes(self) -> str:
        return note("not_read")


@dataclass(frozen=True)
class PickOf(Answer):
    """``who``'s pick for ``match``: None for no pick; ``hidden`` before its kick-off
    when someone else asks (picks are hidden until kick-off)."""

    match: str  # "#3 Japan v Spain"
    pick: str | None
    hidden: bool = False
    points: int | None = None  # what it earned, once the match is over
    number: int | None = None  # the match's number
    also: tuple[PickOf, ...] = ()  # the others' picks asked in the same line

    def notes(self) -> str:
        return " ".join([self._own_notes(), *(other.notes() for other in self.also)])

    def _own_notes(self) -> str:
        if self.hidden:
            return note("pick.hidden", who=self.who, match=self.match)
        if self.pick is None:
            return note("pick.none", who=self.who, match=self.match)
        earned = "" if self.points is None else note("pick.points", points=self.points)
        return note("pick", who=self.who, match=self.match, pick=self.pick) + earned


@dataclass(frozen=True)
class BestWorst(Answer):
    """``who``'s best and worst finished matches: (label, their pick, points)."""

    best: tuple[str, str, int] | None
    worst: tuple[str, str, int] | None

    def notes(self) -> str:
        if self.best is None or self.worst is None:
            return note("best_worst.none", who=self.who)
        return note(
            "best_worst",
            who=self.who,
            best=self.best[0],
            best_pick=self.best[1],
            best_points=self.best[2],
            worst=self.worst[0],
            worst_pick=self.worst[1],
            worst_points=self.worst[2],
        )


@dataclass(frozen=True)
class TeamPlace(Answer):
    """A club's row of the league table the results make (``who`` is the club). Its
    points are left out: the claim check reads points as a player's, not a club's."""

    rank: int
    of: int
    played: int
    won: int
    drawn: int
    lost: int
    leader: str  # the club on top, itself when it leads

    def notes(self) -> str:
        return note(
            "team_place",
            team=self.who,
            rank=self.rank,
            of=self.of,
            played=self.played,
            won=self.won,
            drawn=self.drawn,
            lost=self.lost,
            leader=self.leader,
        )


@dataclass(frozen=True)
class NoSuchMatch(Answer):
    """A match number the pool does not have."""

    number: int
    count: int  # the matches it has

    def notes(self) -> str:
        return note("no_such_match", number=self.number, count=self.count)


@dataclass(frozen=True)
class TableTold(Answer):
    """The pool's table after ``played`` matches: its top rows, the asker's, its last."""

    rows: tuple[tuple[int, str, int], ...]  # (rank, player, points)
    played: int
    of: int  # players in the table
    live: str = ""  # the matches in play its points count at their running score

    def listed(self) -> str:
        """ "fabio 49, elis 43 … bruno 24 (7th)": a row after a gap says its rank."""
        shown, last = [], 0
        for rank, who, points in self.rows:
            gap = rank > last + 1
            shown.append(f"{'… ' if gap else ''}{who} {points}{f' (#{rank})' if gap else ''}")
            last = rank
        return ", ".join(shown)

    def notes(self) -> str:
        table = self.listed() or note("word.nobody")
        # With a match in play the table is not the one after ``played`` matches.
        return note(
            "table_now" if self.live else "table", played=self.played, table=table, of=self.of
        )


@dataclass(frozen=True)
class MostExact(Answer):
    """Who has called the most exact scores so far, level ones together."""

    leaders: tuple[str, ...]
    exact: int

    def notes(self) -> str:
        return note("most_exact", leaders=" and ".join(self.leaders) or "-", exact=self.exact)


@dataclass(frozen=True)
class Gap(Answer):
    """Two players' totals side by side (``who`` asked; ``first`` and ``second`` compared)."""

    first: tuple[str, int]  # (player, points)
    second: tuple[str, int]
    live: str = ""  # the matches in play its points count at their running score

    def notes(self) -> str:
        (one, mine), (other, theirs) = self.first, self.second
        return note(
            "gap", first=one, mine=mine, second=other, theirs=theirs, gap=abs(mine - theirs)
        )


@dataclass(frozen=True)
class RulesTold(Answer):
    """The pool's scoring rule, and which score of a match counts."""

    exact: int
    difference: int
    outcome: int
    basis: str  # a ScoreBasis value: "end-of-play" (after extra time, no penalties) or "90"

    def notes(self) -> str:
        return note(
            "rules", exact=self.exact, difference=self.difference, outcome=self.outcome,
            basis=note(f"rules.{self.basis}"),
        )  # fmt: skip


@dataclass(frozen=True)
class WhoPicked(Answer):
    """Who picked ``team`` to win ``match``, with their picks; ``hidden`` before its
    kick-off (picks are hidden until then)."""

    match: str  # "#3 France v Poland"
    team: str
    pickers: tuple[tuple[str, str], ...] = ()
    hidden: bool = False

    def notes(self) -> str:
        if self.hidden:
            return note("who_picked.hidden", match=self.match)
        rows = ", ".join(f"{who} ({pick})" for who, pick in self.pickers)
        return note(
            "who_picked", match=self.match, team=self.team, pickers=rows or note("word.nobody")
        )


@dataclass(frozen=True)
class DayBest(Answer):
    """Who scored the most on a day's finished matches (everyone level at the top), with
    how many; ``left``: its matches still to finish."""

    day: str  # "9 Dec"
    leaders: tuple[str, ...]
    points: int
    left: int = 0

    def notes(self) -> str:
        if not self.leaders:
            return note("day_best.nobody", day=self.day)
        return note(
            "day_best", day=self.day, leaders=", ".join(self.leaders), points=self.points,
            left=self.left,
        )  # fmt: skip


@dataclass(frozen=True)
class ScoredOn(Answer):
    """Who scored points on a finished match: (player, pick, points), best first."""

    match: str | None  # "#7 Morocco 0-0 Spain"; None: no finished match the line names
    scorers: tuple[tuple[str, str, int], ...] = ()

    def notes(self) -> str:
        if self.match is None:
            return note("scored_on.none")
        rows = ", ".join(f"{who} ({pick}) {points}" for who, pick, points in self.scorers)
        return note("scored_on", match=self.match, scorers=rows or note("word.nobody"))


@dataclass(frozen=True)
class PointsOver(Answer):
    """``who``'s points over matches ``first`` to ``last`` (the finished ones they picked)."""

    first: int
    last: int
    points: int

    def notes(self) -> str:
        return note(
            "points_over", who=self.who, first=self.first, last=self.last, points=self.points
        )


@dataclass(frozen=True)
class ScoreAt(Answer):
    """A match's score before a minute, from its goals' minutes."""

    match: str  # "#72 Jordan v Argentina"
    minute: int
    score: str  # "1-2"

    def notes(self) -> str:
        return note("score_at", match=self.match, minute=self.minute, score=self.score)


# Answers that tell totals: with a match in play they count it at its running score, as
# the live table on every screen does, and say so.
TOTALS_ANSWERS = (Standing, Leading, TableTold, Gap)


def in_play_of(request: Request) -> str:
    """The matches in play an answer's totals count ("Brazil v Serbia"), or ""."""
    return request.live if isinstance(request, TOTALS_ANSWERS) else ""
