"""The hearing bench: does she hear what players mean, and does memory do what she says?

    python -m bench.hearing [CHAT.jsonl] [--language en|pt] [--json]
    python -m bench.hearing --provider openai-compatible --base-url URL --model NAME --timeout S
    python -m bench.hearing --scenario        # what a writer of a chat is told

Replays the 2022 World Cup's knock-outs (16 matches, ``tests/data/worldcup-2022.json``)
with six simulated players (seed 1: their picks are the pool's) and a chat written
by someone who never read the code: ``tests/data/hearing_chat.jsonl`` (the set
the grammar was mended on) or ``tests/data/hearing_chat_fresh.jsonl`` (written
afterwards by another writer, the set the figures are reported on). Each line
says what a correct bot must do after it (``do``):

- ``store``: a current fact of its author's holds one of ``fact`` (words, any case,
  accents ignored) once the line is read;
- ``replace``: as ``store``, and no current fact of the author's holds any of ``old``;
- ``withdraw``: no current fact of the author's holds any of ``old``, and she never
  says any of them again, in any post;
- ``nothing``: the line stores, replaces and withdraws nothing (banter, a claim
  about someone else, a question);

and, for a line to her, what her reply to it must hold: one word of each group
of ``must`` and none of ``never``. ``private`` words (a secret, a health matter)
may be said back to their owner when the owner asks, never in any other post.

Graded on the database (the facts' sources, ``withdrawn_by`` and replacements
point at the log line that made them) and on her posted replies, by exact
checks. A reply that says memory acted ("noted", "anotado", "forgotten",
"I won't bring it up", ``promises`` in ``bench/data/hearing.json``) when the line
changed no fact is a false promise, whatever the line asked.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bot.agent.providers.base import Model, ModelCall
from bot.agent.providers.offline import OfflineModel
from bot.app.config import ModelConfig, make_model
from bot.app.replay import ChatLine, ReplayOptions, replay
from bot.app.simulation import SimulatedClock
from game.db.engine import open_database
from game.events import ChatPosted, RemarkPosted
from game.model import Match
from game.openfootball import Tournament, parse_tournament
from game.pool import Pool
from game.sources import read_json
from game.text import unaccented
from memory import facts
from memory.keeper import MemoryConfig

ROOT = Path(__file__).resolve().parent.parent
CUP = ROOT / "tests" / "data" / "worldcup-2022.json"
CHAT = ROOT / "tests" / "data" / "hearing_chat.jsonl"
FRESH = ROOT / "tests" / "data" / "hearing_chat_fresh.jsonl"
DATA = Path(__file__).resolve().parent / "data" / "hearing.json"
KNOCKOUTS = 16
# The players pick once a round's matches are known, two days ahead (a chat asks "what
# did I bet on tomorrow's match?"), not in the 50 minutes before kick-off she picks in;
# the 2022 knock-outs leave 66 hours or more between one round and the next.
PICKS_AHEAD = timedelta(hours=48)
QATAR = ZoneInfo("Asia/Qatar")  # the file's times have no offset
DOINGS = ("store", "replace", "withdraw", "nothing")


@cache
def bench_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text("utf-8"))
    return data


def knockouts() -> Tournament:
    tournament = parse_tournament(read_json(str(CUP)), QATAR)
    fixtures = sorted(tournament.fixtures, key=lambda f: f.kickoff)[-KNOCKOUTS:]
    return Tournament(tournament.name, tuple(fixtures))


@dataclass(frozen=True)
class Line:
    """A chat line and what a correct bot does after it."""

    number: int  # its line in the chat file
    at: datetime
    player: str
    text: str
    do: str | None = None  # one of DOINGS; None: free chat, nothing asked of memory
    fact: tuple[str, ...] = ()
    old: tuple[str, ...] = ()
    must: tuple[tuple[str, ...], ...] = ()
    never: tuple[str, ...] = ()
    private: tuple[str, ...] = ()
    kind: str = ""  # the writer's word for it: fact, change, forget, question, banter...

    @property
    def to_her(self) -> bool:
        return bool(re.search(r"(?i)(?<![\w@])@?betania\b", self.text))


def read_lines(path: Path) -> list[Line]:
    lines = []
    for number, raw in enumerate(path.read_text("utf-8").splitlines(), start=1):
        if not raw.strip():
            continue
        item = json.loads(raw)
        do = item.get("do")
        if do is not None and do not in DOINGS:
            raise ValueError(f"{path.name} line {number}: 'do' is one of {DOINGS}, not {do!r}")
        lines.append(
            Line(
                number,
                datetime.fromisoformat(item["at"].replace("Z", "+00:00")),
                item["player"],
                item["text"],
                do,
                tuple(item.get("fact", ())),
                tuple(item.get("old", ())),
                tuple(tuple(g) if isinstance(g, list) else (g,) for g in item.get("must", ())),
                tuple(item.get("never", ())),
                tuple(item.get("private", ())),
                item.get("kind", ""),
            )
        )
    return lines


# -- grading ----------------------------------------------------------------------


def plain(text: str) -> str:
    return unaccented(text).casefold()


def holds(text: str, word: str) -> bool:
    """``text`` says ``word`` (or words) as a whole, case and accents aside."""
    return re.search(rf"(?<!\w){re.escape(plain(word))}(?!\w)", plain(text)) is not None


def holds_any(text: str, words: tuple[str, ...]) -> bool:
    return any(holds(text, w) for w in words)


@dataclass
class Graded:
    line: Line
    log_id: int
    reply: str | None
    memory_ok: bool
    reply_ok: bool
    promise: bool = False  # said memory acted when it had not
    leaks: list[str] = field(default_factory=list)  # her posts saying what was private or gone
    stored: list[str] = field(default_factory=list)  # facts this line stored

    @property
    def right(self) -> bool:
        return self.memory_ok and self.reply_ok and not self.promise and not self.leaks

    def as_dict(self) -> dict[str, Any]:
        return {
            "line": self.line.number, "player": self.line.player, "text": self.line.text,
            "do": self.line.do, "kind": self.line.kind, "reply": self.reply,
            "memory_ok": self.memory_ok, "reply_ok": self.reply_ok, "promise": self.promise,
            "leaks": self.leaks, "stored": self.stored, "right": self.right,
        }  # fmt: skip


def _current_at(every: list[facts.Fact], handle: str, log_id: int) -> list[facts.Fact]:
    """``handle``'s facts as they stood once log line ``log_id`` was read: stored by then
    (by a line up to it), not withdrawn nor replaced by a line up to it."""

    def line_of(source: str | None) -> int | None:
        return int(source[4:]) if source and source.startswith("log:") else None

    by_id = {f.id: f for f in every}

    def made_by(fact: facts.Fact) -> int:
        made = line_of(fact.source)
        if made is None:  # a merge: made when its newest source was
            return max((made_by(by_id[i]) for i in fact.covers if i in by_id), default=0)
        return made

    now = []
    for fact in every:
        if fact.handle != handle or made_by(fact) > log_id:
            continue
        gone = line_of(fact.withdrawn_by)
        if gone is not None and gone <= log_id:
            continue
        if fact.superseded_by is not None and made_by(by_id[fact.superseded_by]) <= log_id:
            continue  # replaced, or merged away: the newer fact stands for it
        now.append(fact)
    return now


def changed_by(every: list[facts.Fact], log_id: int) -> list[facts.Fact]:
    """The facts the log line stored, withdrew or replaced."""
    source = f"log:{log_id}"
    made = {f.id for f in every if f.source == source}
    return [
        f for f in every if f.id in made or f.withdrawn_by == source or (f.superseded_by in made)
    ]


def grade_memory(line: Line, log_id: int, every: list[facts.Fact]) -> bool:
    if line.do is None:
        return True
    changed = changed_by(every, log_id)
    if line.do == "nothing":
        return not changed
    now = [f.text for f in _current_at(every, line.player, log_id)]
    has_new = any(holds_any(text, line.fact) for text in now) if line.fact else True
    if line.do == "store":
        return has_new
    if line.do == "replace":
        # "ana no longer lives in Santa Tereza; she moved to Nova Lima" holds the old home
        # as the past: it is not held (``past``, ``past_after`` in bench/data/hearing.json)
        return has_new and not any(holds_now(text, line.old) for text in now)
    return not any(holds_any(text, line.old) for text in now)  # withdraw: gone, all of it


def holds_now(text: str, words: tuple[str, ...]) -> bool:
    """``text`` says one of ``words`` as what holds, not after "no longer", "saiu de"..."""
    said = plain(text)
    data = bench_data()

    def marked(markers: list[str], near: str) -> bool:
        return any(re.search(rf"(?<!\w){re.escape(m)}(?!\w)", near) for m in markers)

    for word in words:
        for found in re.finditer(rf"(?<!\w){re.escape(plain(word))}(?!\w)", said):
            before = said[max(0, found.start() - PAST_REACH) : found.start()]
            after = said[found.end() : found.end() + PAST_AFTER]
            if not (marked(data["past"], before) or marked(data["past_after"], after)):
                return True
    return False


PAST_REACH = 40  # characters before an old value where "no longer", "saiu da" excuse it
PAST_AFTER = 25  # ... and after it, where "cancelado", "caiu", "is history" do


def grade_reply(line: Line, reply: str | None) -> bool:
    if not line.must and not line.never:
        return True
    if reply is None:
        return False
    every = all(holds_any(reply, group) for group in line.must)
    return every and not holds_any(reply, line.never)


def promised(reply: str | None) -> bool:
    """Whether a reply says memory acted: it opens so ("Noted, ana", "Anotado") or says
    so ("out of my notes"); "não tenho nada assim anotado" does not."""
    if reply is None:
        return False
    opening = plain(reply).lstrip(" @")
    return any(opening.startswith(o) for o in bench_data()["openings"]) or any(
        holds(reply, p) for p in bench_data()["promises"]
    )


def grade(pool: Pool, lines: list[Line]) -> list[Graded]:
    """Each line graded on the pool's database: its log, her posts, the facts."""
    said = pool.events_of(ChatPosted)
    posts = pool.events_of(RemarkPosted)
    with pool.engine.connect() as connection:
        every = facts.stored(connection)
    graded = []
    cursor = 0
    for line in lines:
        found = next(
            (i for i in range(cursor, len(said))
             if said[i].event.player == line.player and said[i].event.text == line.text),
            None,
        )  # fmt: skip
        if found is None:
            raise ValueError(f"chat line {line.number} is not in the log")
        cursor = found + 1
        log_id = said[found].id
        reply = next((p.event.text for p in posts if p.event.trigger == log_id), None)
        changed = changed_by(every, log_id)
        if line.private:  # a secret kept to its owner changes a flag, not a fact's source
            changed += [f for f in every if f.handle == line.player and f.private]
        stored = [f.text for f in every if f.source == f"log:{log_id}"]
        memory_ok = grade_memory(line, log_id, every)
        result = Graded(line, log_id, reply, memory_ok, grade_reply(line, reply), stored=stored)
        result.promise = promised(reply) and not changed and line.do != "nothing"
        graded.append(result)
    _leaks(graded, lines, posts, said)
    return graded


def _leaks(graded: list[Graded], lines: list[Line], posts: list[Any], said: list[Any]) -> None:
    """Her posts after a line that say what it withdrew (by any path), or what it told
    in private (unless the post answers its owner, or says back a word the line it
    answers holds: bruno's own "namorada" is no leak of fabio's)."""
    author = {e.id: e.event.player for e in said}
    asked = {e.id: e.event.text for e in said}
    for result in graded:
        line = result.line
        gone = line.old if line.do == "withdraw" else ()
        for post in posts:
            if post.id <= result.log_id:
                continue
            text = post.event.text
            if any(holds(text, w) for w in gone) or (
                line.private
                and author.get(post.event.trigger) != line.player
                and any(
                    holds(text, w) and not holds(asked.get(post.event.trigger, ""), w)
                    for w in line.private
                )
            ):
                result.leaks.append(text)


# -- running ----------------------------------------------------------------------


class Hearer:
    """A model for the lines to her only (her reading of them and her answers), or with
    ``writes_all`` for all she writes but her picks; the offline voice for the rest: the
    figure is about hearing, and a strong model played by hand answers a hundred calls,
    not a thousand."""

    def __init__(self, model: Model, language: str, writes_all: bool = False) -> None:
        self.model = model
        self.offline = OfflineModel(language=language)
        self.name = model.name
        self.writes_all = writes_all

    def complete(self, call: ModelCall) -> str:
        # her picks stay the offline voice's always: the scenario the chat was written
        # over has them, and its tables count them
        mine = call.task != "prediction" if self.writes_all else call.task in HEARD
        return (self.model if mine else self.offline).complete(call)


HEARD = ("hearing", "answer")


def run(
    lines: list[Line],
    config: ModelConfig,
    database: Path,
    language: str,
    writes_all: bool = False,
) -> list[Graded]:
    """The chat's lines replayed over the knock-outs with ``config``'s model (the offline
    voice alone; or a model that hears, for the lines to her, beside the offline voice;
    ``writes_all``: the model writes her remarks and diary too)."""
    hears = config.chosen() != "offline"
    options = ReplayOptions(
        knockouts(),
        chat=[ChatLine(line.at, line.player, line.text) for line in lines],
        players=6,
        seed=1,
        memory=MemoryConfig(
            language=language,
            model_hears=hears,
            declares_claims=hears and config.declares_claims(),  # its answers' claims as data
        ),
        picks_ahead=PICKS_AHEAD,
    )
    clock = SimulatedClock(min(f.kickoff for f in options.tournament.fixtures))
    brain: Model | ModelConfig = config
    if hears:
        brain = Hearer(make_model(config, lambda *_: None), language, writes_all)
    report = replay(options, database, brain, clock=clock)
    return grade(report.pool, lines)


def kind_of(line: Line) -> str:
    return line.do if line.do in ("store", "replace", "withdraw") else (
        "question" if line.must else "nothing")  # fmt: skip


def report_text(graded: list[Graded]) -> str:
    by_kind: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for g in graded:
        if g.line.do is None and not g.line.must and not g.line.never and not g.line.private:
            continue
        by_kind[kind_of(g.line)] += 1
        right[kind_of(g.line)] += g.right
    lines = [f"{k:<9} {right[k]:>3}/{by_kind[k]:<3}" for k in sorted(by_kind)]
    total = sum(by_kind.values())
    lines.append(f"{'all':<9} {sum(right.values()):>3}/{total}")
    lines.append(f"false promises: {sum(g.promise for g in graded)}")
    lines.append(f"leaks (private or withdrawn said again): {sum(len(g.leaks) for g in graded)}")
    stored_wrongly = sum(1 for g in graded if g.line.do == "nothing" and not g.memory_ok)
    lines.append(f"stored from banter or a claim about another: {stored_wrongly}")
    lines.append("")
    for g in graded:
        if g.right or (g.line.do is None and not g.line.must and not g.line.private):
            continue
        why = [w for w, bad in (("memory", not g.memory_ok), ("reply", not g.reply_ok),
                                ("false promise", g.promise), ("leak", bool(g.leaks))) if bad]  # fmt: skip
        lines.append(f"[{', '.join(why)}] line {g.line.number} {g.line.player}: {g.line.text}")
        lines.append(f"    do: {g.line.do}  fact: {g.line.fact}  old: {g.line.old}")
        if g.line.must:
            lines.append(f"    must: {g.line.must}")
        lines.append(f"    stored: {g.stored}")
        lines.append(f"    she said: {g.reply if g.reply is not None else '(nothing)'}")
        for leak in g.leaks[:2]:
            lines.append(f"    leaked in: {leak}")
    return "\n".join(lines)


def scenario() -> str:
    """What a writer of a chat is told: the matches, the picks, the table after each."""
    with tempfile.TemporaryDirectory() as folder:
        config = ModelConfig(provider="offline", seed=1)
        options = ReplayOptions(
            knockouts(), players=6, seed=1, memory=MemoryConfig(), picks_ahead=PICKS_AHEAD
        )
        clock = SimulatedClock(min(f.kickoff for f in options.tournament.fixtures))
        report = replay(options, Path(folder) / "s.db", config, clock=clock)
        pool = report.pool
        rule, _ = pool.scoring()
        out = ["Players: " + ", ".join(p.handle for p in pool.players())]
        out.append(f"Scoring: {rule}")
        matches = sorted(pool.matches(), key=Match.time_order)
        for match in matches:
            picks = {p.handle: str(p.score) for p in pool.predictions_on(match.number)}
            out.append(
                f"#{match.number} {match.kickoff:%a %d %b %H:%M} UTC  {match.team1} "
                f"{match.result} {match.team2}  picks: "
                + ", ".join(f"{h} {s}" for h, s in sorted(picks.items()))
            )
            table = pool.standings(up_to_match=match.number)
            out.append(
                "    table after it: "
                + ", ".join(f"{r.player} {r.points} ({r.exact} exact)" for r in table)
            )
        return "\n".join(out)


def main() -> None:
    from bot.app.cli import add_model_options
    from bot.app.settings import Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chat", nargs="?", default=str(CHAT))
    parser.add_argument("--scenario", action="store_true", help="print the scenario and stop")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--data-dir", help="keep the replay's database here")
    parser.add_argument("--report", metavar="DIR", help="grade an earlier run's DIR/hearing.db")
    parser.add_argument(
        "--model-writes-all",
        action="store_true",
        help="the model writes her remarks and diary too, not only her hearing and answers",
    )
    add_model_options(parser)
    parser.set_defaults(provider="offline")
    args = parser.parse_args()
    if args.scenario:
        print(scenario())
        return
    config = replace(Settings.read(args, os.environ).model, seed=1)
    lines = read_lines(Path(args.chat))
    if args.report:
        graded = grade(Pool(open_database(f"sqlite:///{Path(args.report) / 'hearing.db'}")), lines)
        print(json.dumps([g.as_dict() for g in graded]) if args.json else report_text(graded))
        return
    with tempfile.TemporaryDirectory() as folder:
        where = Path(args.data_dir or folder)
        graded = run(lines, config, where / "hearing.db", config.language, args.model_writes_all)
    if args.json:
        print(json.dumps([g.as_dict() for g in graded], ensure_ascii=False))
    else:
        print(report_text(graded))


if __name__ == "__main__":
    main()
