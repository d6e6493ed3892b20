"""The pool's commands, parsed one way for both modes: an interactive line or ``ssh host CMD``.

Every command returns a ``Reply``; nothing here writes to a terminal. Errors a
player can cause come back as one-line replies with ``error`` set, never as
exceptions, so nothing a client sends can take the session down.
"""

from __future__ import annotations

import difflib
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from zoneinfo import ZoneInfo

from sqlalchemy.exc import OperationalError

from frontends import picks as extras
from frontends.limits import ConnectionLimits
from game import jokers, league
from game.addressing import Addressee
from game.bonus import CHAMPION, NAME_LONGEST, SCORER, ended, scorers_of, settle
from game.db.engine import is_locked
from game.errors import UserError
from game.model import Goal, Match, MatchStatus, Player, Score, tally
from game.pool import Pool
from game.pool.extras import bonus_open
from game.render import (
    day_text,
    groups_text,
    in_play_line,
    league_text,
    match_json,
    match_score,
    matches_table,
    race_chart,
    standings_table,
    table,
)
from game.rules import RuleViolation
from game.scoring import classify, scored_score
from game.shares import shares_lines, shares_of
from game.text import clean_line, unaccented
from game.words import Words
from game.zones import time_zone

RACE_PLAYERS = 5
UPCOMING_SHOWN = 10
FINISHED_SHOWN = 5
# The words a command takes after its name, in both languages (the names: ``SPECS``).
SIDES = {"home": "home", "away": "away", "casa": "home", "fora": "away"}
AFTER = ("after", "após", "apos", "depois")
ROUND_WORDS = ("round", "rodada", "matchday")
DAY_WORDS = ("day", "dia")
REMIND_STATES = {"on": True, "off": False, "ligar": True, "desligar": False}
KIND_WORDS = {"champion": CHAMPION, "campeao": CHAMPION, "campeão": CHAMPION,
              "scorer": SCORER, "artilheiro": SCORER}  # fmt: skip
OFF_WORDS = ("off", "remove", "tirar", "remover")
FORCE_WORDS = ("force", "forcar")  # forçar, unaccented
log = logging.getLogger("betania.ssh")


@dataclass(frozen=True)
class Caller:
    handle: str
    is_admin: bool = False
    zone: ZoneInfo = field(default_factory=lambda: ZoneInfo("UTC"))

    @classmethod
    def of(cls, player: Player) -> Caller:
        """A player as the commands see them: admin or not, in the time zone they chose."""
        zone = ZoneInfo(player.time_zone) if player.time_zone else ZoneInfo("UTC")
        return cls(player.handle, player.is_admin, zone)


@dataclass(frozen=True)
class Reply:
    text: str = ""
    error: bool = False
    quit: bool = False
    zone: str | None = None  # the caller's new time zone, when the command set one
    awaits: int | None = None  # a line to the commentator, by log id: her answer is due


@dataclass(frozen=True)
class Job:
    """A parsed line that passed its limits; ``writes`` says which workers may run it."""

    run: Callable[[], Reply]
    writes: bool = False


BUSY = "the pool is busy right now; try again in a moment"
DATABASE_DOWN = "the pool cannot reach its database right now; try again later"


def database_trouble(error: OperationalError, words: Words | None = None) -> str:
    """A database that waits or fails, in words for a player: no driver text, ever."""
    words = words or Words()
    if is_locked(error) or "timeout" in str(error).lower():
        return words(BUSY)
    log.error("database error: %s", error)
    return words(DATABASE_DOWN)


class CommandError(UserError, ValueError):
    """A mistake in what was typed; the message says what to type instead."""


@dataclass(frozen=True)
class Call:
    caller: Caller
    args: list[str]
    limits: ConnectionLimits | None = None


Handler = Callable[["Commands", Call], Reply]


@dataclass(frozen=True)
class Option:
    """One value a slash command takes, and where it goes in the line it becomes."""

    name: str
    kind: type[int] | type[str]
    description: str
    required: bool = True
    least: int | None = None  # a number's smallest value
    most: int | None = None  # a number's largest value, a text's length
    choices: tuple[str, ...] = ()
    word: str = ""  # said before the value in the line: ``after 3``


@dataclass(frozen=True)
class Slash:
    """A command as Discord offers it (``frontends.discord.slash`` registers it)."""

    description: str
    options: tuple[Option, ...] = ()
    name: str = ""  # when not the command's own: ``say`` is ``/ask``
    # The line's first words, before the options' values in their order: what a player
    # would type over SSH, through the same parser.
    starts: str = "{command}"
    monospace: bool = False  # its answer is a table
    public: bool = False  # its answer is for the channel, not the asker alone


@dataclass(frozen=True)
class Spec:
    """A command: its names (English, short and Portuguese), its help, its handler."""

    names: tuple[str, ...]
    usage: str
    summary: str
    handler: Handler
    admin: bool = False
    writes: bool = False  # runs with the writers: a long lock never holds up a read
    slash: Slash | None = None  # offered on Discord too


def _number(text: str) -> int:
    try:
        return int(text.lstrip("#"))
    except ValueError:
        raise CommandError("not a match number: {text!r}", text=text) from None


def _score(words: Sequence[str]) -> Score:
    """The score in the words after a match's number, as ``Score.parse`` reads it."""
    return Score.parse(" ".join(words))


def _json_flag(args: list[str]) -> tuple[bool, list[str]]:
    return "--json" in args, [a for a in args if a != "--json"]


class Commands:
    def __init__(
        self, pool: Pool, addressee: Addressee | None = None, words: Words | None = None
    ) -> None:
        self.pool = pool
        self.addressee = addressee or Addressee()
        self.words = words or Words()
        # How a newcomer reaches this pool, once a server listens (``start_server``).
        self.join = "ssh -p PORT HANDLE@HOST"

    def names(self, caller: Caller) -> list[str]:
        return [spec.names[0] for spec in SPECS if caller.is_admin or not spec.admin]

    def run(
        self,
        caller: Caller,
        line: str,
        limits: ConnectionLimits | None = None,
        chat_fallback: bool = True,
    ) -> Reply:
        """One line, start to finish: limits, parsing, the command, and its reply."""
        prepared = self.prepare(caller, line, limits, chat_fallback)
        return prepared if isinstance(prepared, Reply) else prepared.run()

    def prepare(
        self,
        caller: Caller,
        line: str,
        limits: ConnectionLimits | None = None,
        chat_fallback: bool = True,
    ) -> Reply | Job:
        """Limits and parsing, which touch no database: a reply at once, or a job to run.

        The SSH server calls this on its event loop and runs the job in a worker
        thread, so a database that waits stalls nobody else.
        """
        if not clean_line(line):  # an empty line costs nothing and says nothing
            return Reply()
        if limits is not None:
            refused = limits.check_line(line)
            if refused and refused.repeated and chat_fallback:
                # At the prompt, told once per run of refusals: a flood of lines is not
                # answered line by line (exec mode's one command is always told).
                return Reply(error=True)
            if refused:
                return Reply(self.words.error(refused), error=True)
        line = clean_line(line)
        name, *args = line.split()
        spec = command_named(name)
        if spec is None or (spec.admin and not caller.is_admin):
            if line.startswith("@"):
                return self._chat(caller, line, limits)
            meant = mistyped(name, args, caller.is_admin)
            if meant is not None:  # to its author alone: a typo is nobody else's business
                return Reply(
                    self.words(
                        "unknown command {name!r}: did you mean {command}? (to chat: say {line})",
                        name=name,
                        command=meant,
                        line=line,
                    ),
                    error=True,
                )
            if chat_fallback:
                return self._chat(caller, line, limits)
            return Reply(self.words("unknown command {name!r}; try help", name=name), error=True)
        if spec.handler is Commands.say:
            return self._chat(caller, " ".join(args), limits)
        call = Call(caller, args, limits)
        return Job(lambda: self._answer(spec, call), writes=spec.writes)

    def _answer(self, spec: Spec, call: Call) -> Reply:
        try:
            return spec.handler(self, call)
        except CommandError as error:
            usage = self.words(spec.usage)
            return Reply(
                self.words("{error} (usage: {usage})", error=self.words.error(error), usage=usage),
                error=True,
            )
        except UserError as error:  # a bug is not a user error: it reaches the log, whole
            return Reply(self.words.error(error), error=True)
        except OperationalError as error:
            return Reply(database_trouble(error, self.words), error=True)

    def _chat(self, caller: Caller, text: str, limits: ConnectionLimits | None) -> Reply | Job:
        if not text.strip():
            return Reply(self.words("say what? (usage: say TEXT)"), error=True)
        if limits is not None:
            refused = limits.check_chat()
            if refused:
                return Reply(self.words.error(refused), error=True)

        call = Call(caller, [text], limits)
        return Job(lambda: self._answer(BY_NAME["say"], call), writes=True)

    # -- everyone -------------------------------------------------------------

    def help(self, call: Call) -> Reply:
        words = self.words
        rows = [
            (words(spec.usage), words(spec.summary))
            for spec in SPECS
            if call.caller.is_admin or not spec.admin
        ]
        rows.append((f"{self.addressee.mention} ...", words("talk to the commentator")))
        return Reply(table([words("command"), words("what it does")], rows))

    def matches(self, call: Call) -> Reply:
        as_json, args = _json_flag(call.args)
        matches = self.pool.matches()
        picks = {p.match_number: p.score for p in self.pool.predictions_of(call.caller.handle)}
        if as_json:
            return Reply(
                json.dumps(
                    [match_json(m, picks.get(m.number)) for m in matches], ensure_ascii=False
                )
            )
        if len(args) == 2 and args[0] in ROUND_WORDS:
            matches = league.in_round(matches, _number(args[1]))
            if not matches:
                raise CommandError("no round {n} in this pool", n=args[1])
        elif not {"all", "todos"} & set(args):
            by_time = sorted(matches, key=Match.time_order)
            live = [m for m in by_time if m.status is MatchStatus.LIVE]
            upcoming = [m for m in by_time if m.status is MatchStatus.SCHEDULED][:UPCOMING_SHOWN]
            finished = [m for m in by_time if m.status is MatchStatus.FINISHED][-FINISHED_SHOWN:]
            matches = finished + live + upcoming
        return Reply(matches_table(matches, call.caller.zone, picks, self.words))

    def match(self, call: Call) -> Reply:
        if len(call.args) != 1:
            raise CommandError("which match?")
        words, zone = self.words, call.caller.zone
        match = self.pool.match(_number(call.args[0]))
        stage = words.stage(match.group or match.stage)
        score = match_score(match, mark_live=False, words=words)
        lines = [
            f"{match.label}  ({stage}, {match.venue or words('venue unknown')})",
            words("kick-off {when} ({zone})", when=words.when(match.kickoff, zone), zone=zone),
            words("status: {status}", status=words(match.status.value)) + f"  {score}".rstrip(),
        ]
        team = {"home": match.team1, "away": match.team2}
        for goal in match.goals:
            lines.append(f"  {goal.clock} {team[goal.side]}: {goal.scorer or words('goal')}")
        picks = self.pool.predictions_on(match.number)
        started = match.has_started(self.pool.clock())
        if not started:
            mine = next((p.score for p in picks if p.handle == call.caller.handle), None)
            lines.append(
                words(
                    "{count} picks, hidden until kick-off; yours: {mine}",
                    count=len(picks),
                    mine=mine or words("none yet"),
                )
            )
        elif picks:
            jokered = self.pool.extras.jokers_on(match.number)
            lines.append(
                words("picks: ")
                + ", ".join(
                    extras.marked(f"{p.handle} {p.score}", p.handle in jokered) for p in picks
                )
            )
            told = shares_of(match, picks, self.pool.clock())
            lines.extend(shares_lines(told, match, words) if told else [])
        return Reply("\n".join(lines))

    def bet(self, call: Call) -> Reply:
        if not 2 <= len(call.args) <= 4:  # 5 2-1, 5 2 1, 5 2 - 1
            raise CommandError("say which match and what score")
        number, score = _number(call.args[0]), _score(call.args[1:])
        match, placed = self.pool.predictions.place(call.caller.handle, number, score)
        if placed is None:
            return Reply(
                self.words("{match}: you already have {score}", match=match.label, score=score)
            )
        if placed.previous:
            return Reply(
                self.words(
                    "{match}: your pick is {score} (was {previous})",
                    match=match.label,
                    score=score,
                    previous=placed.previous,
                )
            )
        return Reply(self.words("{match}: your pick is {score}", match=match.label, score=score))

    def joker(self, call: Call) -> Reply:
        desk, handle, words = self.pool.extras, call.caller.handle, self.words
        args = [a.lower() for a in call.args]
        if not args:
            return Reply(extras.jokers_held(desk.jokers_of(handle), desk.settings(), words))
        try:
            if len(args) == 2 and args[0] in OFF_WORDS:
                match = desk.joker_off(handle, _number(args[1]))
                return Reply(words("joker taken off {match}", match=match.label))
            if len(args) != 1:
                raise CommandError("say which match: joker N")
            return Reply(extras.joker_placed(desk.joker(handle, _number(args[0])), words))
        except CommandError:
            raise
        except UserError as error:
            return Reply(extras.said(error, words), error=True)

    def bonus(self, call: Call) -> Reply:
        as_json, args = _json_flag(call.args)
        desk, handle = self.pool.extras, call.caller.handle
        if args:
            kind = KIND_WORDS.get(args[0].lower())
            if kind is None or len(args) < 2:
                raise CommandError("say champion TEAM or scorer NAME")
            return Reply(
                extras.bonus_placed(desk.bonus(handle, kind, " ".join(args[1:])), self.words)
            )
        matches = self.pool.matches()
        everyone = desk.bonus_picks()
        shown_all = not bonus_open(matches, self.pool.clock())
        shown = everyone if shown_all else [p for p in everyone if p.handle == handle]
        if as_json:
            return Reply(extras.bonus_json(shown, shown_all, desk.settings()))
        hidden = len({p.handle for p in everyone} - {handle})
        return Reply(
            extras.bonus_listing(
                shown,
                shown_all,
                hidden,
                extras.first_kickoff(matches),
                desk.settings(),
                call.caller.zone,
                self.words,
                self._bonus_end(matches),
            )
        )

    def _bonus_end(self, matches: list[Match]) -> extras.BonusEnd | None:
        """Who won the bonuses, once every match is over; the points from the table."""
        if not ended(matches):
            return None
        settled = settle(matches)
        written = scorers_of(matches)
        top = sorted({written.get(key, key) for key in settled.top})
        earned = {row.player: row.bonus for row in self.pool.standings()}
        return extras.BonusEnd(settled.champion, tuple(top), earned)

    def mybets(self, call: Call) -> Reply:
        as_json, _ = _json_flag(call.args)
        rule, basis = self.pool.scoring()
        matches = {m.number: m for m in self.pool.matches()}
        held = self.pool.extras.jokers_of(call.caller.handle)
        rows = []
        for pick in self.pool.predictions_of(call.caller.handle):
            match = matches[pick.match_number]
            points = None
            if match.result is not None and match.status is MatchStatus.FINISHED:
                plain = rule.points(classify(pick.score, scored_score(match.result, basis)))
                points = jokers.earned(plain, match.number in held)  # what the table counts
            rows.append((match, pick.score, points))
        if as_json:
            return Reply(
                json.dumps(
                    [
                        {
                            "match": m.number,
                            "pick": str(s),
                            "result": None if m.result is None else str(m.result),
                            "points": p,
                            "joker": m.number in held,
                        }
                        for m, s, p in rows
                    ]
                )
            )
        words = self.words
        mine = extras.my_extras(self.pool.extras.bonus_picks(call.caller.handle), held, words)
        if not rows:
            return Reply("\n".join([words("No picks yet: bet N 2-1"), *mine]))
        shown = table(
            words.each("#", "match", "pick", "result", "pts"),
            [
                (
                    f"#{m.number}",
                    f"{m.team1} v {m.team2}",
                    extras.marked(str(s), m.number in held),
                    match_score(m, words=words),
                    "" if p is None else p,
                )
                for m, s, p in rows
            ],
            right=(0, 4),
        )
        return Reply("\n".join([shown, *mine]))

    def standings(self, call: Call) -> Reply:
        as_json, args = _json_flag(call.args)
        if args and args[0] in DAY_WORDS + ROUND_WORDS:
            return self._day_table(args, as_json)
        after = self._after(args, "standings")
        # The table now is the live one: a goal moves it before the whistle.
        if after is None:
            rows, in_play = self.pool.live_table()
        else:
            rows, in_play = self.pool.standings(up_to_match=after), []
        if as_json:
            return Reply(json.dumps([row.as_dict() for row in rows]))
        shown = standings_table(rows, self.words)
        return Reply(f"{in_play_line(in_play, self.words)}\n{shown}" if in_play else shown)

    def _day_table(self, args: list[str], as_json: bool) -> Reply:
        """``standings day [DATE]`` / ``standings round N``: the points scored on them."""
        words = self.words
        key: dict[str, object]
        if args[0] in ROUND_WORDS:
            if len(args) != 2:
                raise CommandError("standings round N: which round?")
            number = _number(args[1])
            found = self.pool.round_table(number)
            title, key = words("Round {n}", n=number), {"round": number}
        else:
            if len(args) > 2:
                raise CommandError("standings day takes one date, like 2026-06-14")
            try:
                asked = date.fromisoformat(args[1]) if len(args) == 2 else None
            except ValueError:
                raise CommandError("not a date: {text!r} (like 2026-06-14)", text=args[1]) from None
            day, found = self.pool.day_table(asked)
            title, key = words.day(day), {"day": day.isoformat()}
        if as_json:
            rows = [row.as_dict() for row in found.rows]
            told = {"winners": found.winners, "leaders": found.leaders, "left": found.left}
            return Reply(json.dumps({**key, **told, "rows": rows}))
        return Reply(day_text(title, found.rows, found.leaders, found.left, words))

    def league(self, call: Call) -> Reply:
        args = [a for a in call.args if a.lower() not in ("group", "grupo")]  # "grupo A"
        asked = args.pop(0) if args and args[0] not in AFTER else None  # a group: A
        after = self._after(args, "league")
        every = matches = self.pool.matches()
        if after is not None:
            last = self.pool.match(after, with_goals=False)
            matches = [m for m in matches if m.time_order() <= last.time_order()]
        groups = league.group_tables(every, matches)  # every team, the results up to then
        if not groups:  # a league: one table
            if asked is not None:
                raise CommandError("this pool has no groups: league [after round N]")
            return Reply(league_text(league.league_table(matches), self.words))
        if asked is not None:
            named = {group.split()[-1].lower(): group for group in groups}
            if asked.lower() not in named:
                raise CommandError(
                    "no group {group!r}: {groups}", group=asked, groups=" ".join(named).upper()
                )
            groups = {named[asked.lower()]: groups[named[asked.lower()]]}
        return Reply(groups_text(groups, self.words))

    def _after(self, args: list[str], command: str) -> int | None:
        """``after N`` (a match) or ``after round N`` / ``após rodada N`` (the round's last
        finished match): the match number a table stops at; None for now."""
        if not args:
            return None
        if args[0] not in AFTER:
            raise CommandError("{command} takes 'after N' or 'after round N'", command=command)
        if len(args) == 3 and args[1] in ROUND_WORDS:
            played = [m for m in league.in_round(self.pool.matches(), _number(args[2])) if m.result]
            if not played:
                raise CommandError("no match of round {n} is finished yet", n=args[2])
            return played[-1].number
        if len(args) != 2:
            raise CommandError("{command} takes 'after N' or 'after round N'", command=command)
        after = _number(args[1])
        self.pool.check_finished(after)
        return after

    def race(self, call: Call) -> Reply:
        return Reply(race_chart(self.pool.race(RACE_PLAYERS), words=self.words))

    def tz(self, call: Call) -> Reply:
        if not call.args:
            return Reply(self.words("your time zone is {zone}", zone=call.caller.zone))
        zone = time_zone(call.args[0])
        if zone is None:
            raise CommandError(
                "unknown time zone {zone!r}, like America/Sao_Paulo", zone=call.args[0]
            )
        self.pool.members.set_time_zone(call.caller.handle, zone.key)
        return Reply(self.words("times now shown in {zone}", zone=zone.key), zone=zone.key)

    def say(self, call: Call) -> Reply:
        """Chat; its limits were checked in ``prepare``, where every chat line passes."""
        said = self.pool.talk.chat(call.caller.handle, " ".join(call.args))
        to_her = self.addressee.message(said.event.text) is not None
        return Reply(awaits=said.id if to_her else None)

    def link(self, call: Call) -> Reply:
        as_json, args = _json_flag(call.args)
        if len(args) != 1:
            raise CommandError("link which service?")
        service = args[0].lower()
        members, handle = self.pool.members, call.caller.handle
        code = members.create_link_code(handle, service)
        linked = members.link_of(handle, service)
        if as_json:
            shown = None
            if linked is not None:
                at = linked.linked_at.isoformat()
                shown = {"account": linked.account, "name": linked.name, "linked_at": at}
            return Reply(json.dumps({"service": service, "linked": shown, "code": code}))
        words = self.words
        now = (
            words("no {service} account is linked to you yet", service=service)
            if linked is None
            else words(
                "linked now: {account}, since {when}; unlink {service} removes it",
                account=linked.shown,
                when=words.when(linked.linked_at, call.caller.zone),
                service=service,
            )
        )
        code_line = words(
            "your code: {code} (single use, for 15 minutes); in Discord, type /link code:{code}",
            code=code,
        )
        return Reply(f"{now}\n{code_line}")

    def unlink(self, call: Call) -> Reply:
        if len(call.args) != 1:
            raise CommandError("unlink which service?")
        service = call.args[0].lower()
        link = self.pool.members.unlink(call.caller.handle, service)
        return Reply(
            self.words(
                "{service} account {account} no longer plays as you",
                service=service,
                account=link.shown,
            )
        )

    def remind(self, call: Call) -> Reply:
        members, handle, words = self.pool.members, call.caller.handle, self.words
        if not call.args:
            on = members.reminders_on(handle)
            return Reply(words("your reminders are on") if on else words("your reminders are off"))
        wanted = REMIND_STATES.get(call.args[0].lower()) if len(call.args) == 1 else None
        if wanted is None:
            raise CommandError("remind on or remind off?")
        members.set_reminders(handle, wanted)
        return Reply(words("your reminders are on") if wanted else words("your reminders are off"))

    def quit(self, call: Call) -> Reply:
        return Reply(self.words("bye!"), quit=True)

    # -- admins ---------------------------------------------------------------

    def result(self, call: Call) -> Reply:
        if len(call.args) < 2:
            raise CommandError("which match and what score?")
        number, full_time = _number(call.args[0]), Score.parse(call.args[1])
        extra: dict[str, Score] = {}
        rest = call.args[2:]
        forced = bool(rest) and unaccented(rest[-1].lower()) in FORCE_WORDS
        rest = rest[:-1] if forced else rest
        while rest:
            if len(rest) < 2 or rest[0] not in ("aet", "pens"):
                raise CommandError("unexpected {word!r}", word=rest[0])
            extra[rest[0]] = Score.parse(rest[1])
            rest = rest[2:]
        ended = extra.get("aet") or full_time
        goals = self.pool.match(number).goals
        if goals and tally(goals) != ended and not forced:
            # The goals a session lists and the score it shows must not disagree: the
            # admin mends one of them, or says the result stands as typed.
            raise RuleViolation(
                "the goals recorded make it {goals}, not {score}: record the missing goal first (goal {n} home|away MINUTE), or type result {n} {typed} force",
                goals=tally(goals), score=ended, n=number, typed=" ".join(call.args[1:]),
            )  # fmt: skip
        result = self.pool.fixtures.record_score(
            number, full_time, extra.get("aet"), extra.get("pens")
        )
        return Reply(f"{self.pool.match(number).label}: {self.words.result(result)}")

    def goal(self, call: Call) -> Reply:
        side = SIDES.get(call.args[1]) if len(call.args) >= 3 else None
        if side is None:
            raise CommandError("say the match, home or away, and the minute")
        minute, _, added = call.args[2].rstrip("'").partition("+")
        try:
            goal = Goal(side, int(minute), int(added or 0), " ".join(call.args[3:]))
        except ValueError:
            raise CommandError("not a minute: {minute!r}", minute=call.args[2]) from None
        number = _number(call.args[0])
        self.pool.fixtures.record_goal(number, goal)
        label = self.pool.match(number).label
        return Reply(self.words("goal recorded in {match}, {clock}", match=label, clock=goal.clock))

    def kickoff(self, call: Call) -> Reply:
        if len(call.args) != 1:
            raise CommandError("which match?")
        number = _number(call.args[0])
        self.pool.fixtures.kick_off(number)
        return Reply(self.words("{match} is live", match=self.pool.match(number).label))

    def invite(self, call: Call) -> Reply:
        try:
            uses = int(call.args[0]) if call.args else 1
            days = int(call.args[1]) if len(call.args) > 1 else None
        except ValueError:
            raise CommandError("uses and days are numbers") from None
        code = self.pool.members.create_invite(call.caller.handle, uses, days)
        return Reply(
            self.words(
                "invite code {code} ({uses} use(s)); newcomers run, the name they want as HANDLE: {join} register {code}",
                code=code,
                uses=uses,
                join=self.join,
            )
        )

    def players(self, call: Call) -> Reply:
        words = self.words
        rows = [
            (p.handle, p.display_name, words("admin") if p.is_admin else "")
            for p in self.pool.players()
        ]
        return Reply(table([words("handle"), words("name"), ""], rows))


# The one command table: the SSH help (usage and summary, in the pool's language), the
# names a player may type (English, short and Portuguese), and the Discord slash command
# each becomes. A new command is its handler above and its line here.
NUMBER_MOST = 10_000  # a match or round number Discord lets through


def _number_option(name: str, description: str, required: bool = True, word: str = "") -> Option:
    return Option(name, int, description, required, 1, NUMBER_MOST, word=word)


SCORE_LONGEST, CODE_LONGEST, DAY_LONGEST = 20, 20, 10
ASK_LONGEST = 500  # characters in a question to her
SPECS: tuple[Spec, ...] = (
    Spec(("help", "h", "?", "ajuda"), "help", "this list", Commands.help),
    Spec(
        ("matches", "m", "games", "jogos"),
        "matches [all | round N] [--json]",
        "upcoming, live and finished matches; a league's round",
        Commands.matches,
        slash=Slash("Upcoming, live and finished matches, with your picks", monospace=True),
    ),
    Spec(
        ("match", "game", "jogo"),
        "match N",
        "one match: goals, and everyone's picks once it kicks off",
        Commands.match,
        slash=Slash(
            "One match: goals, and everyone's picks once it kicks off",
            (_number_option("number", "The match number"),),
            monospace=True,
        ),
    ),
    Spec(
        ("bet", "b", "pick", "palpite"),
        "bet N 2-1",
        "predict match #N (until kick-off)",
        Commands.bet,
        writes=True,
        slash=Slash(
            "Predict a match's score (until kick-off)",
            (
                _number_option("match", "The match number, as in /matches"),
                Option("score", str, "Home-away, like 2-1", most=SCORE_LONGEST),
            ),
        ),
    ),
    Spec(
        ("joker", "coringa"),
        "joker N | joker off N | joker",
        "your pick on #N counts double (a few per stage, until kick-off)",
        Commands.joker,
        writes=True,
        slash=Slash(
            "Your pick on a match counts double (a few per stage, until kick-off)",
            (_number_option("match", "The match number"),),
        ),
    ),
    Spec(
        ("bonus", "especial"),
        "bonus champion TEAM | bonus scorer NAME | bonus [--json]",
        "bonus picks: the champion and the top scorer, until the first kick-off",
        Commands.bonus,
        writes=True,
        slash=Slash(
            "Bonus picks (champion, top scorer) until the first kick-off; all: /bonus",
            (  # one of kind and name without the other: the line is told the usage
                Option("kind", str, "What you pick", False, choices=("champion", "scorer")),
                Option("name", str, "The team or the player", False, most=NAME_LONGEST),
            ),
            monospace=True,
        ),
    ),
    Spec(
        ("mybets", "picks", "my", "palpites"),
        "mybets [--json]",
        "your picks and their points",
        Commands.mybets,
        slash=Slash("Your picks and their points", monospace=True),
    ),
    Spec(
        ("standings", "s", "table", "ranking"),
        "standings [after N | after round N | day [DATE] | round N] [--json]",
        "the table, computed now",
        Commands.standings,
        slash=Slash(
            "The table, computed now (live while a match is on)",
            (
                _number_option("after", "The table as it stood after match N", False, "after"),
                Option(
                    "day",
                    str,
                    "The points scored on a day (2026-06-14) and who won it",
                    False,
                    most=DAY_LONGEST,
                    word="day",
                ),
                _number_option(
                    "round", "The points scored in round N and who won it", False, "round"
                ),
            ),
            monospace=True,
            public=True,
        ),
    ),
    Spec(
        ("league", "liga", "classificacao", "classificação", "groups", "grupos"),
        "league [GROUP] [after round N]",
        "the teams' own table, from the results; a cup's group tables",
        Commands.league,
    ),
    Spec(
        ("race", "r", "corrida"),
        "race",
        "points after each match for the top players",
        Commands.race,
    ),
    Spec(
        ("tz", "timezone", "fuso"),
        "tz [Area/City]",
        "show or set your time zone",
        Commands.tz,
        writes=True,
    ),
    Spec(
        ("say", "chat", "diga"),
        "say TEXT",
        "chat (any line that is not a command does too)",
        Commands.say,
        slash=Slash(  # a question to her, as a player would address her in the chat
            "Ask the commentator something",
            (Option("text", str, "Your question", most=ASK_LONGEST),),
            name="ask",
            starts="{mention}",
            public=True,
        ),
    ),
    Spec(
        ("link", "vincular"),
        "link discord",
        "your Discord link, if any, and a one-time code to play from Discord too",
        Commands.link,
        writes=True,
        slash=Slash(  # the other end: Discord takes the code (``discord.interactions``)
            "Play as your pool handle: the code from 'link discord' over SSH",
            (Option("code", str, "The one-time code", most=CODE_LONGEST),),
        ),
    ),
    Spec(
        ("unlink", "desvincular"),
        "unlink discord",
        "your Discord account plays as you no more",
        Commands.unlink,
        writes=True,
        slash=Slash(
            "Stop playing as your pool handle from this account", starts="{command} discord"
        ),
    ),
    Spec(
        ("remind", "lembrete", "lembretes"),
        "remind [on | off]",
        "reminders of matches closing without your pick",
        Commands.remind,
        writes=True,
        slash=Slash(
            "Reminders of matches closing without your pick: on, off, or how they are",
            (Option("state", str, "on or off", False, choices=("on", "off")),),
        ),
    ),
    Spec(("quit", "exit", "q", "bye", "sair"), "quit", "leave", Commands.quit),
    Spec(
        ("result", "resultado"),
        "result N 2-1 [aet 3-2] [pens 4-2] [force]",
        "enter a final score",
        Commands.result,
        writes=True,
        admin=True,
    ),
    Spec(
        ("goal", "gol"),
        "goal N home|away MINUTE [SCORER]",
        "record a goal as it happens",
        Commands.goal,
        writes=True,
        admin=True,
    ),
    Spec(
        ("kickoff", "inicio"),
        "kickoff N",
        "mark match #N as started",
        Commands.kickoff,
        admin=True,
        writes=True,
    ),
    Spec(
        ("invite", "convite"),
        "invite [USES] [DAYS]",
        "make an invite code",
        Commands.invite,
        writes=True,
        admin=True,
    ),
    Spec(("players", "jogadores"), "players", "who plays", Commands.players, admin=True),
)
BY_NAME = {name: spec for spec in SPECS for name in spec.names}
# Typed as people type them: any case, accents or none ("bônus", "Classificação").
FOLDED = {unaccented(name): spec for name, spec in BY_NAME.items()}
# A first word this close to a command's name (difflib's ratio: "bett", "matchs",
# "standigns" are 0.86 to 0.92) is a typo when what follows reads as the command's
# arguments, or when nothing follows. Chat that only starts like a command goes on
# ("best game ever"); a one-word chat line this close ("best", "bets") is asked about,
# to its author alone, with the `say` that posts it.
TYPO_RATIO = 0.8
ARGUMENT_WORDS = frozenset(
    unaccented(word)
    for group in (SIDES, AFTER, ROUND_WORDS, DAY_WORDS, REMIND_STATES, KIND_WORDS, OFF_WORDS)
    for word in group
) | {"all", "--json", "discord"}


def command_named(name: str) -> Spec | None:
    """The command a first word names, folded as ``FOLDED`` is."""
    return FOLDED.get(unaccented(name.lower()))


def mistyped(name: str, args: Sequence[str], is_admin: bool) -> str | None:
    """The command a line that names none most likely meant, or None for chat: its first
    word close to a command's name, and nothing after it but what commands take."""
    if not all(any(c.isdigit() for c in arg) or unaccented(arg.lower()) in ARGUMENT_WORDS
               for arg in args):  # fmt: skip
        return None
    names = [name for name, spec in FOLDED.items() if is_admin or not spec.admin]
    close = difflib.get_close_matches(unaccented(name.lower()), names, n=1, cutoff=TYPO_RATIO)
    return close[0] if close else None  # in the language typed: "palpiet" meant palpite
