"""The answer quiz: what she says when a player asks, graded like LongMemEval grades a memory.

    python -m bench.answer_quiz [FILE] [--matches 72] [--players 6] [--seed 1] [--json]
    python -m bench.answer_quiz --provider openai-compatible --base-url URL --model NAME --timeout S

Replays the first matches of a tournament (the offline voice unless a model is
given) with the chat of ``data/answer_quiz_chat.jsonl``, in which players tell
her facts in both languages, change them and take some back. Then players ask
her, through the pool's chat ("@betania ..."), the questions of
``data/answer_quiz.json``, each in English and in Portuguese, by LongMemEval's
abilities: extraction, multi-session, knowledge update, temporal, abstention.

The expected answers are worked out from the replay's own log (results, goals,
picks, the table as of a match) and from the facts the chat tells; each reply
she posts is graded by exact checks, not by a model:

- right: it says every expected value (a score "2-1", a number, a name, a
  place) and no contradicting one (the old home, the later team, the final
  score for "before the 80th minute"), unless told as of another time ("used
  to", "since", "antes"); for a question nobody can answer, it says she does
  not know (a phrase of the quiz's data, in either language) and names no value;
- wrong: anything else she posts;
- unanswered: no reply, or the help text.

With a model every question is one call besides the replay's own (about ten a
match): ``--matches 9`` keeps a model written by hand (``shared/tools/live_model.py``)
to some 130 calls. The JSON gives each reply's call outcome too.

The context-recall quiz beside it (``bench.memory_quiz``) scores what her
prompt holds; this one what she then says.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime, time, timedelta
from functools import cache
from pathlib import Path
from typing import Any

from bench.memory_replay import DEFAULT_FILE
from bench.real_model import first_matches
from bot.app.config import ModelConfig
from bot.app.replay import ReplayOptions, ReplayReport, read_chat, replay
from bot.app.simulation import SimulatedClock
from game.events import RemarkPosted
from game.model import Match, Score
from game.openfootball import Tournament, parse_tournament
from game.pool import Pool
from game.scoring import points_for, scored_score
from game.sources import read_json
from game.teams import TeamBook
from game.text import unaccented
from game.words import Words
from memory.keeper import MemoryConfig
from memory.usage import recorded
from prompts import voice

DATA = Path(__file__).resolve().parent / "data"
CHAT = DATA / "answer_quiz_chat.jsonl"
QUIZ = DATA / "answer_quiz.json"
ABILITIES = ("extraction", "multi-session", "knowledge update", "temporal", "abstention")
LANGUAGES = ("en", "pt")
VERDICTS = ("right", "wrong", "unanswered")
EVERY_SCORE = tuple(f"{a}-{b}" for a in range(10) for b in range(10))  # "invents a score"
NEAR = 30  # characters before a contradicting value where "used to", "antes" excuse it
# "2 x 1" (as Brazilians write it), "2 - 1", an en dash: all "2-1"
DASHES = re.compile(r"(?<=\d)\s*(?:[\u2013\u2014x\u00d7]|\s-\s)\s*(?=\d)")


@dataclass(frozen=True)
class Told:
    """A fact a chat line tells (or takes back): its value, then its other spellings."""

    at: datetime
    player: str
    subject: str
    values: tuple[str, ...]
    forget: bool = False


@dataclass(frozen=True)
class Question:
    ability: str
    language: str  # the question's: the reply is in the pool's
    kind: str
    asker: str
    text: str
    expected: tuple[tuple[str, ...], ...]  # each group: one of its spellings must be said
    contradicting: tuple[str, ...] = ()  # none may be said as an answer

    @property
    def answer(self) -> str:
        return ", ".join(group[0] for group in self.expected) or "(not known)"


@dataclass(frozen=True)
class Graded:
    question: Question
    reply: str | None
    verdict: str
    outcome: str = ""  # what became of the model's answer (the call record's), if one was asked

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self.question), "answer": self.question.answer,
                "reply": self.reply, "verdict": self.verdict, "outcome": self.outcome}  # fmt: skip


@cache
def quiz_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(QUIZ.read_text("utf-8"))
    return data


def told_in(chat: Path = CHAT) -> list[Told]:
    """The facts the chat file's lines tell, as its ``fact`` marks say (``read_chat`` skips
    them: the file plays as it is in ``betania replay --chat``)."""
    told = []
    for raw in chat.read_text("utf-8").splitlines():
        item = json.loads(raw) if raw.strip() else {}
        fact = item.get("fact")
        if fact:
            at = datetime.fromisoformat(item["at"].replace("Z", "+00:00"))
            values = (fact["value"], *fact.get("also", ()))
            told.append(
                Told(at, item["player"], fact["subject"], values, fact.get("forget", False))
            )
    return told


def held(told: list[Told], player: str, subject: str, moment: datetime) -> Told | None:
    """What ``player`` had told her about ``subject`` by ``moment``, if not taken back."""
    said = [t for t in told if t.player == player and t.subject == subject and t.at <= moment]
    return None if not said or said[-1].forget else said[-1]


def spellings(told: list[Told], subject: str) -> set[str]:
    return {value for t in told if t.subject == subject for value in t.values}


# -- the questions, from the log and the chat ------------------------------------


def questions(pool: Pool, told: list[Told], now: datetime) -> list[Question]:
    """Every question of the quiz's data in both languages, with its answer as of ``now``;
    a question the replay's log has no match for (no late goal in the cut) is left out."""
    asked = []
    for spec in quiz_data()["questions"]:
        for language in LANGUAGES:
            found = _answer(spec, language, pool, told, now)
            if found is None:
                continue
            values, expected, contradicting = found
            if (spec["ability"] == "abstention") != (not expected):
                raise ValueError(
                    f"{spec[language]!r}: the log or the chat does not fit its ability"
                )
            text = spec[language].format(**values)
            asked.append(Question(spec["ability"], language, spec["kind"], spec["asker"], text,
                                  expected, contradicting))  # fmt: skip
    return asked


Found = tuple[dict[str, object], tuple[tuple[str, ...], ...], tuple[str, ...]]


def _answer(
    spec: dict[str, Any], language: str, pool: Pool, told: list[Told], now: datetime
) -> Found | None:
    """The values a question's text names, its expected answer and what contradicts it."""
    kind, asker = spec["kind"], spec["asker"]
    finished = sorted((m for m in pool.matches() if m.result is not None), key=Match.time_order)
    rule, basis = pool.scoring()

    def final(match: Match) -> Score:
        assert match.result is not None  # finished
        return scored_score(match.result, basis)

    if kind in ("fact", "fact then"):
        player, subject = spec["player"], spec["subject"]
        values: dict[str, object] = {}
        moment = now
        if kind == "fact then":  # a day between the first telling and a change of mind
            first = next(t for t in told if t.player == player and t.subject == subject)
            day = first.at.date() + timedelta(days=1)
            moment = datetime.combine(day, time.max, UTC)
            if held(told, player, subject, moment) != first:
                return None
            values["day"] = Words(language).day(day)
        fact = held(told, player, subject, moment)
        others = sorted(spellings(told, subject) - set(fact.values if fact else ()))
        return values, ((fact.values,) if fact else ()), tuple(others)
    if kind == "score":
        number = spec.get("match")
        if number is not None:
            if any(m.number == number for m in pool.matches()):
                raise ValueError(f"match {number} exists: pick a number past the tournament's")
            return {"n": number}, (), EVERY_SCORE
        decided = [m for m in finished if final(m).outcome != 0] or finished
        match = decided[len(decided) // 2]
        score = final(match)
        return {"n": match.number}, ((str(score),),), (str(score.swapped()),)
    if kind == "scorer":
        named = [m for m in finished if 1 <= len(_scorers(m)) <= 2]
        if not named:
            return None
        match = named[-1]
        return {"n": match.number}, tuple((name.split()[-1],) for name in _scorers(match)), ()
    if kind == "pick":
        picks = {p.match_number: p.score for p in pool.predictions_of(asker)}
        missed = [m for m in finished if m.number in picks and picks[m.number] != final(m)]
        if not missed:
            return None
        match = missed[-1]
        return {"n": match.number}, ((str(picks[match.number]),),), ()
    if kind == "exact count":
        row = next(r for r in pool.standings() if r.player == asker)
        return {}, (_number(row.exact),), ()
    if kind == "points over":
        numbers = sorted(m.number for m in finished)[:4]
        if len(numbers) < 2 or numbers != list(range(numbers[0], numbers[-1] + 1)):
            return None
        results = {m.number: m.result for m in finished}
        points = sum(
            points_for(p.score, result, rule, basis)
            for p in pool.predictions_of(asker)
            if p.match_number in numbers and (result := results[p.match_number]) is not None
        )
        return {"first": numbers[0], "last": numbers[-1]}, (_number(points),), ()
    if kind == "most exact":
        table = pool.standings()
        best = max((r.exact for r in table), default=0)
        if best == 0:
            return None
        return {}, tuple((r.player,) for r in table if r.exact == best), ()
    if kind == "led after":
        leaders_now = _leaders(pool, None)
        later = finished[len(finished) // 3 :] or finished
        changed = [m for m in later if _leaders(pool, m.number)[0] - leaders_now[0]]
        match = (changed or later)[0]
        leaders, points = _leaders(pool, match.number)
        if not leaders:
            return None
        expected = (*((name,) for name in sorted(leaders)), _number(points))
        # Today's leader may be named as a chaser then: only the leaders and points matter.
        return {"n": match.number}, expected, ()
    if kind == "score before":
        minute = int(spec["minute"])
        late = [m for m in finished if m.score_at((minute - 1, 30)) != final(m)]
        if not late:
            return None
        match = late[-1]
        before = match.score_at((minute - 1, 30))
        return {"n": match.number, "minute": minute}, ((str(before),),), (str(final(match)),)
    raise ValueError(f"no such kind of question: {kind!r}")


def _scorers(match: Match) -> list[str]:
    return sorted({g.scorer for g in match.goals if g.scorer and not g.own_goal})


def _leaders(pool: Pool, after: int | None) -> tuple[set[str], int]:
    table = pool.standings(up_to_match=after)
    top = table[0].points if table else 0
    return ({r.player for r in table if r.points == top} if top else set()), top


def _number(n: int) -> tuple[str, ...]:
    """A number as a reply may say it: "3", "three", "três"."""
    return (str(n), *quiz_data()["numbers"].get(str(n), ()))


# -- grading ---------------------------------------------------------------------


def _plain(text: str) -> str:
    return DASHES.sub("-", unaccented(text).casefold())


def _where(text: str, value: str) -> list[int]:
    """Where ``text`` says ``value`` as a whole word (a team by any of its names)."""
    book = TeamBook.standard()
    team = book.name_of(value)
    named = book.spellings([team]) if team is not None and team not in book.clubs else {value: ""}
    plain = _plain(text)
    return [
        found.start()
        for spelling in named
        for found in re.finditer(rf"(?<![\w-]){re.escape(_plain(spelling))}(?![\w-])", plain)
    ]


def says(text: str, value: str) -> bool:
    return bool(_where(text, value))


def _as_answer(text: str, value: str, markers: Iterable[str]) -> bool:
    """``value`` said as the answer, not as what held at another time ("used to live in")."""
    plain = _plain(text)
    for at in _where(text, value):
        before = plain[max(0, at - NEAR) : at]
        if not any(re.search(rf"(?<!\w){re.escape(_plain(m))}(?!\w)", before) for m in markers):
            return True
    return False


def help_texts() -> list[str]:
    """The help text's opening words in both languages, as the voice writes it."""
    data = quiz_data()
    lines = [line for lang in LANGUAGES for s in data["help"] for line in voice(lang).get(s, ())]
    return [_plain(line.split("$")[0].strip()) for line in lines if len(line.split("$")[0]) > 12]


def grade(question: Question, reply: str | None) -> str:
    if reply is None or any(opening in _plain(reply) for opening in help_texts()):
        return "unanswered"
    data = quiz_data()
    if not question.expected:  # nobody can know: she says so, and names no value
        invented = any(says(reply, value) for value in question.contradicting)
        knows_not = any(_plain(phrase) in _plain(reply) for phrase in data["abstention"])
        return "right" if knows_not and not invented else "wrong"
    every = all(any(says(reply, value) for value in group) for group in question.expected)
    markers = data["other_time"]
    contradicted = any(_as_answer(reply, value, markers) for value in question.contradicting)
    return "right" if every and not contradicted else "wrong"


# -- asking, through the pool's chat ------------------------------------------------


def ask(report: ReplayReport, clock: SimulatedClock, asked: list[Question]) -> list[Graded]:
    """Each question posted as its asker's chat line, a few minutes apart; her turn
    answers it, and her posted reply to that line (if any) is graded."""
    pool = report.pool
    graded = []
    for question in asked:
        clock.advance(timedelta(minutes=5))
        line = pool.talk.chat(question.asker, question.text)
        report.commentator.turn()
        reply = next(
            (r.event.text for r in pool.events_of(RemarkPosted, after_id=line.id)
             if r.event.trigger == line.id),
            None,
        )  # fmt: skip
        with report.keeper.store.read() as connection:
            calls = [c for c in recorded(connection, last=5) if c.event_id == line.id]
        outcome = calls[-1].outcome if calls else ""
        graded.append(Graded(question, reply, grade(question, reply), outcome))
    return graded


def run(
    tournament: Tournament, config: ModelConfig, database: Path, players: int = 6, seed: int = 1
) -> list[Graded]:
    """Replay ``tournament`` with the quiz's chat and ``config``'s model, then quiz her."""
    options = ReplayOptions(
        tournament,
        chat=read_chat(str(CHAT)),
        players=players,
        seed=seed,
        memory=MemoryConfig(language=config.language),
    )
    clock = SimulatedClock(min(f.kickoff for f in tournament.fixtures))  # replay winds it back
    report = replay(options, database, config, clock=clock)
    clock.advance(timedelta(hours=1))  # the last whistle's remarks are over
    return ask(report, clock, questions(report.pool, told_in(), clock.now))


def tally(graded: list[Graded]) -> dict[str, dict[str, dict[str, int]]]:
    """ability -> question language -> verdict -> how many."""
    table = {a: {lang: dict.fromkeys(VERDICTS, 0) for lang in LANGUAGES} for a in ABILITIES}
    for g in graded:
        table[g.question.ability][g.question.language][g.verdict] += 1
    return table


def report_text(graded: list[Graded]) -> str:
    lines = [f"{'ability':<17} {'lang':<4} {'right':>5} {'wrong':>5} {'unanswered':>10}"]
    for ability, by_language in tally(graded).items():
        for language, counts in by_language.items():
            lines.append(f"{ability:<17} {language:<4} " + " ".join(
                f"{counts[v]:>{max(5, len(v))}}" for v in VERDICTS))  # fmt: skip
    right = sum(g.verdict == "right" for g in graded)
    lines.append(f"{'all':<22} {right}/{len(graded)} right")
    lines.append("")
    for g in graded:
        q = g.question
        lines.append(f"[{g.verdict}] {q.ability}, {q.language}: {q.asker}: {q.text}")
        lines.append(f"    expected: {q.answer}")
        lines.append(f"    she said: {g.reply if g.reply is not None else '(nothing)'}")
        if g.reply is None and g.outcome:
            lines.append(f"    (her answer: {g.outcome})")
    return "\n".join(lines)


def main() -> None:
    from bot.app.cli import add_model_options  # the options `betania replay` takes
    from bot.app.settings import Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT_FILE))
    parser.add_argument("--matches", type=int, default=72, help="the first N (the group stage)")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="every question, graded, as JSON")
    add_model_options(parser)
    parser.set_defaults(provider="offline")
    args = parser.parse_args()
    config = replace(Settings.read(args, os.environ).model, seed=args.seed)
    tournament = first_matches(parse_tournament(read_json(args.file)), args.matches)
    with tempfile.TemporaryDirectory() as folder:
        graded = run(tournament, config, Path(folder) / "quiz.db", args.players, args.seed)
    if args.json:
        print(json.dumps({"tally": tally(graded), "questions": [g.as_dict() for g in graded]},
                         ensure_ascii=False))  # fmt: skip
    else:
        print(report_text(graded))


if __name__ == "__main__":
    main()
