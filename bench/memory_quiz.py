"""A memory quiz: what would she know, asked at the end of a tournament, by three designs.

    python -m bench.memory_quiz [FILE] [--players 15] [--seed 1]

Replays the tournament (the offline voice, simulated players) with a chat in
both languages in which players tell her things, change their minds and take
facts back, then asks questions whose answers the log knows:

- the score of a match (one in every eight);
- who called a match exactly (one in every eight with an exact call);
- who led the pool after a match (one in every twelve);
- a fact a player told her and still holds ("what is ana's cat called?");
- whom a player supports now, after changing their mind (a fact replaced);
- a fact a player took back ("forget that I run Gentoo");
- what she said about a player.

For each question it builds the context each design would give a model asked
it, and scores whether the context holds the answer (recall), whether it holds
something the log says is no longer true: a replaced or withdrawn fact told as
a fact (contradiction), and its size in tokens. The designs:

- goldfish: the standings and the last match, nothing else;
- Funes: every event of the log and every fact ever told, nothing condensed;
- notebook: her own context (``ContextBuilder``), the question posted as a chat line,
  and the notes the code reads from the records for that question (``Questions``).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from bench.memory_replay import DEFAULT_FILE
from bot.agent.commentator import Commentator
from bot.agent.providers.offline import OfflineModel
from bot.app.replay import ChatLine, ReplayOptions, replay
from game.events import Event, LoggedEvent, RemarkPosted, ResultRecorded
from game.model import Match
from game.openfootball import parse_tournament
from game.render import standings_table
from game.sources import read_json
from memory import facts
from memory.keeper import MemoryConfig, MemoryKeeper
from memory.stories import match_story
from memory.tokens import estimate_tokens

DESIGNS = ("goldfish", "Funes", "notebook")
CHAT = [  # (when, who, what): facts told, changed, taken back, in both languages
    ("2026-06-11T15:00:00Z", "ana", "@betania remember that I support Brazil"),
    ("2026-06-11T15:05:00Z", "ana", "@betania remember that I run Gentoo"),
    ("2026-06-12T20:10:00Z", "bruno", "@betania lembra que eu torço pelo Corinthians"),
    ("2026-06-13T17:05:00Z", "carla", "@betania lembra que meu gato se chama Pelé"),
    ("2026-06-14T12:00:00Z", "ana", "@betania remember that I support Argentina now"),
    ("2026-06-16T22:15:00Z", "ana", "@betania remember that my cat is called Tom"),
    ("2026-06-18T18:40:00Z", "bruno", "@betania lembra que eu moro em Recife"),
    ("2026-06-20T19:00:00Z", "ana", "@betania forget that I run Gentoo"),
    ("2026-06-24T18:30:00Z", "bruno", "@betania lembra que eu moro em Lisboa"),
    ("2026-06-26T20:00:00Z", "carla", "@betania remember that I hate penalty shoot-outs"),
]


@dataclass(frozen=True)
class Question:
    kind: str  # "score", "called", "led", "fact", "no longer true", "said"
    asker: str
    text: str
    about: str  # the player it is about, or ""
    evidence: tuple[str, ...]  # what a context must hold to answer it
    false: tuple[str, ...] = ()  # what the log says is no longer true


@dataclass
class Score:
    hits: int = 0
    contradicted: int = 0
    tokens: list[int] = field(default_factory=list)
    by_kind: dict[str, list[int]] = field(default_factory=dict)  # kind -> [found, asked]


def questions(keeper: MemoryKeeper) -> list[Question]:
    pool = keeper.pool
    asked: list[Question] = []
    finished = sorted((m for m in pool.matches() if m.result), key=Match.time_order)
    pt = keeper.config.language == "pt"
    for match in finished[::8]:
        score = f"{match.team1} {match.result} {match.team2}"
        asked.append(Question("score", "ana", f"@betania what was the score of match {match.number}?",
                              "", (score,)))  # fmt: skip
    # Who called each match exactly, as her stories of it say (memory.stories).
    called = [
        (match, exact)
        for match in finished
        if (exact := tuple(match_story(pool, match, keeper.config.zone).exact()))
    ]
    for match, exact in called[::8]:
        text = (f"@betania quem cravou o jogo {match.number}?" if pt
                else f"@betania who called match {match.number} exactly?")  # fmt: skip
        # The match named, and who called it: handles alone are in any table.
        asked.append(Question("called", "bruno", text, "", (f"#{match.number}", *exact)))
    for match in finished[4::12]:
        table = pool.standings(up_to_match=match.number)
        leaders = tuple(row.player for row in table if row.rank == 1 and row.points > 0)
        if not leaders:
            continue
        text = (f"@betania quem liderava depois do jogo {match.number}?" if pt
                else f"@betania who led after match {match.number}?")  # fmt: skip
        # The leader and their points then: the table now names everyone, with other points.
        evidence = (*leaders, f"{table[0].points} points")
        asked.append(Question("led", "carla", text, "", evidence))
    with keeper.store.read() as connection:
        stored = facts.stored(connection)
    for fact in stored:
        gone = fact.superseded_by is not None and fact.replaced_on is not None
        question = f"@betania what do you know about {fact.handle}?"
        if fact.withdrawn_on is not None or gone:
            asked.append(
                Question("no longer true", fact.handle, question, fact.handle, (), (fact.text,))
            )
        elif fact.superseded_by is None:
            asked.append(Question("fact", fact.handle, question, fact.handle, (fact.text,)))
    said: dict[str, str] = {}
    for item in pool.events_of(RemarkPosted):
        for handle in item.event.about:
            said[handle] = item.event.text
    for handle, text in sorted(said.items())[:5]:
        asked.append(
            Question("said", handle, f"@betania what did you say about {handle}?", handle, (text,))
        )
    return asked


def contexts(commentator: Commentator, question: Question) -> dict[str, str]:
    keeper, pool = commentator.keeper, commentator.pool
    last = max((m for m in pool.matches() if m.result), key=Match.time_order)
    goldfish = "\n".join(
        [
            standings_table(pool.standings()),
            f"#{last.number} {last.team1} {last.result} {last.team2}",
        ]
    )
    matches = {m.number: m for m in pool.matches()}

    def told(item: LoggedEvent[Event]) -> str:
        if isinstance(item.event, ResultRecorded):  # a result as her records write it
            match = matches[item.event.match]
            return (
                f"{item.at:%d %b %H:%M} #{match.number} {match.team1} {match.result} {match.team2}"
            )
        return f"{item.at:%d %b %H:%M} {item.event}"

    events = [told(item) for item in pool.events()]
    with keeper.store.read() as connection:
        every = [f"{fact.handle}: {fact.text}" for fact in facts.stored(connection)]
    funes = "\n".join([*events, *every])
    pool.talk.chat(question.asker, question.text)
    asked = pool.events(kinds=("chat",))[-1]
    about = [question.about] if question.about else []
    built = keeper.contexts.build_context(asked, keeper.config.budget, involved=about)
    # What the code reads from the records for this question goes into her prompt too.
    notes = commentator.questions.read(question.asker, question.text, asked.id).notes()
    notebook = f"{built.system}\n{built.prompt}\n{notes}"
    return {"goldfish": goldfish, "Funes": funes, "notebook": notebook}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT_FILE))
    parser.add_argument("--players", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--language", choices=("en", "pt"), default="en")
    args = parser.parse_args()
    tournament = parse_tournament(read_json(args.file))
    chat = [
        ChatLine(datetime.fromisoformat(at.replace("Z", "+00:00")).astimezone(UTC), who, text)
        for at, who, text in CHAT
    ]
    with tempfile.TemporaryDirectory() as folder:
        report = replay(
            ReplayOptions(
                tournament,
                chat=chat,
                players=args.players,
                seed=args.seed,
                memory=MemoryConfig(language=args.language),
            ),
            Path(folder) / "quiz.db",
            OfflineModel(seed=args.seed, language=args.language),
        )
        asked = questions(report.keeper)
        scores = {design: Score() for design in DESIGNS}
        for question in asked:
            for design, text in contexts(report.commentator, question).items():
                lowered = text.lower()
                score = scores[design]
                found = all(e.lower() in lowered for e in question.evidence)
                score.hits += found
                score.contradicted += any(f.lower() in lowered for f in question.false)
                score.tokens.append(estimate_tokens(text))
                if question.evidence:
                    tally = score.by_kind.setdefault(question.kind, [0, 0])
                    tally[0] += found
                    tally[1] += 1
    answerable = sum(1 for q in asked if q.evidence)
    false = sum(1 for q in asked if q.false)
    print(
        f"{len(asked)} questions: {answerable} with an answer to find, {false} about a fact no longer true"
    )
    print(f"{'design':>10} {'recall':>8} {'contradicted':>13} {'tokens (median)':>16} {'max':>8}")
    for design, score in scores.items():
        found = score.hits - (len(asked) - answerable)  # a question with no evidence always "hits"
        print(
            f"{design:>10} {found / answerable:>8.0%} {score.contradicted / false:>13.0%} "
            f"{statistics.median(score.tokens):>16,.0f} {max(score.tokens):>8,}  "
            + ", ".join(f"{kind} {n}/{of}" for kind, (n, of) in score.by_kind.items())
        )


if __name__ == "__main__":
    main()
