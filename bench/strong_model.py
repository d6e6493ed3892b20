"""A cut of a real tournament with a strong model as her brain: what her contract refuses of it.

    python -m bench.strong_model --base-url URL --model NAME [--timeout 300] \\
        [--provider openai-compatible] [--matches 9] [--players 6] --data-dir DIR
    python -m bench.strong_model --report DIR     # an earlier run's data dir (replay.db)
    python -m bench.strong_model --report DIR/hearing.db   # a hearing run's (bench.hearing)

Run: the first ``--matches`` (by kick-off) of the 2026 World Cup
(``tests/data/worldcup-2026.json``), simulated players and the bilingual chat of
``bench/data/strong_chat.jsonl``, replayed in ``DIR/replay.db`` with the model
given (``BETANIA_MODEL_API_KEY`` or ``ANTHROPIC_API_KEY`` as the CLI reads them).
With no key, ``../shared/tools/live_model.py`` serves answers someone writes.

Report (both modes): per kind of text (remarks by moment, wrap-up, answer, diary
entry, diary fusion, pick, facts), the calls; the model's first answers; those
posted (kept); those refused, by rule; the retries told why and those posted;
the lines the offline voice wrote in their place. Then every refused first
answer, and a sample of posted lines. Writes ``refused.jsonl`` (each refused
first answer: its text and rule, its call's system and prompt, task, kind, match,
event, the retry and what became of it, and the pool as it stood: players, picks,
matches played and goals so far) and ``posted.jsonl`` in ``--out`` (default: DIR).

The call record keeps no variant (the gateway's RETRY = -1 and OFFLINE = -2
live only in the call it sends), so a retry is read from the record's order:
the record right after a first answer the contract refused, of the same task,
whose prompt is that answer's prompt with the reason appended
(``prompts/contract_refused.txt``); the offline voice's line is the record whose
outcome starts "replaced by the offline voice". A remark asked again because it
repeated a recent one is a new first answer (told which line it repeated, not a
contract's reason).
"""

from __future__ import annotations

import argparse
import json
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.real_model import first_matches
from bot.app.cli import add_model_options
from bot.app.config import ModelConfig
from bot.app.replay import ReplayOptions, read_chat, replay
from bot.app.settings import Settings
from game.db.engine import open_database, private_directory
from game.events import (
    Event,
    GoalScored,
    LoggedEvent,
    MatchKickedOff,
    PlayerJoined,
    PredictionPlaced,
    ResultRecorded,
)
from game.openfootball import parse_tournament
from game.pool import Pool
from game.sources import read_json
from memory import declared
from memory.keeper import MemoryConfig
from memory.store import MemoryStore
from memory.usage import CallRecord, recorded

ROOT = Path(__file__).resolve().parents[1]
CUP = ROOT / "tests" / "data" / "worldcup-2026.json"
CHAT = ROOT / "bench" / "data" / "strong_chat.jsonl"
DATABASE = "replay.db"
REFUSED_BY_CONTRACT = "refused: contract "
OFFLINE = "replaced by the offline voice"
# What a remark reacts to, by the kind of its log event.
MOMENTS = {
    "kickoff": "kick-off",
    "goal": "goal",
    "result": "final whistle",
    "player_joined": "welcome",
}
LINES = ("remark", "answer", "diary_entry", "diary_fusion")  # texts the pool or her diary keeps
TASKS = {
    "prediction": "pick",
    "diary_entry": "diary entry",
    "diary_fusion": "diary fusion",
    "fact_extraction": "facts from chat",
    "fact_merge": "fact merge",
}


@dataclass
class Tally:
    """One kind of text: what the model was asked and what became of its answers."""

    calls: int = 0
    first: int = 0  # the model's first answers (a retry and the offline line are not)
    posted: int = 0  # first answers kept: posted, written to the diary, picked, stored
    refused: Counter[str] = field(default_factory=Counter)  # first answers, by rule
    retries: int = 0
    retries_posted: int = 0
    retries_refused: Counter[str] = field(default_factory=Counter)
    replaced: int = 0  # lines of the offline voice in place of two refused answers
    silent: int = 0  # ... of which the contract refused the offline line too
    failed: int = 0  # the model did not answer: the offline writer did at once

    def as_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "first_answers": self.first,
            "first_posted": self.posted,
            "first_refused": dict(self.refused),
            "retries": self.retries,
            "retries_posted": self.retries_posted,
            "retries_refused": dict(self.retries_refused),
            "replaced_offline": self.replaced,
            "offline_refused_too": self.silent,
            "model_failed": self.failed,
        }


@dataclass(frozen=True)
class Read:
    """One recorded call, read: its kind, its role (first, retry, offline) and its fate."""

    call: CallRecord
    kind: str
    role: str  # "first", "retry", "offline", "failed"
    rule: str | None  # the rule that refused it; None when it was kept

    @property
    def kept(self) -> bool:
        return self.rule is None


@dataclass
class Bench:
    tallies: dict[str, Tally]
    reads: list[Read]
    refusals: list[dict[str, Any]]  # each refused first answer, with all a reader needs
    posted: list[dict[str, Any]]


def run(
    config: ModelConfig,
    data_dir: Path,
    matches: int = 9,
    players: int = 6,
    seed: int = 1,
    chat: Path = CHAT,
) -> Path:
    """Replay the cut in ``data_dir`` with the model ``config`` makes; the database's path."""
    tournament = first_matches(parse_tournament(read_json(str(CUP))), matches)
    options = ReplayOptions(
        tournament,
        chat=read_chat(str(chat)),  # all of it: what `betania replay --chat` would play
        players=players,
        seed=seed,
        memory=MemoryConfig(language=config.language),
    )
    database = private_directory(data_dir) / DATABASE
    replay(options, database, config)
    return database


def read_run(database: Path) -> Bench:
    """What became of every call of the run kept in ``database``."""
    pool = Pool(open_database(f"sqlite:///{database}"))
    with MemoryStore(pool).read() as connection:
        calls = recorded(connection)
    log = pool.events()
    by_id = {item.id: item for item in log}
    reads = list(_read(calls, by_id))
    tallies: dict[str, Tally] = {}
    for read in reads:
        tally = tallies.setdefault(read.kind, Tally())
        tally.calls += 1
        if read.role == "failed":
            tally.failed += 1
        elif read.role == "offline":
            tally.replaced += 1
            tally.silent += not read.kept
        elif read.role == "retry":
            tally.retries += 1
            if read.kept:
                tally.retries_posted += 1
            else:
                tally.retries_refused[read.rule or ""] += 1
        else:
            tally.first += 1
            if read.kept:
                tally.posted += 1
            else:
                tally.refused[read.rule or ""] += 1
    refusals = [
        _refusal(read, reads, log, by_id)
        for read in reads
        if read.role == "first"
        and read.rule is not None
        and read.call.outcome.startswith(REFUSED_BY_CONTRACT)
    ]
    posted = [
        {
            "id": r.call.id,
            "kind": r.kind,
            "role": r.role,  # "first", "retry", or "offline": the offline voice's line
            "at": r.call.at.isoformat(),
            "match": r.call.match_number,
            "text": said(r.call.response),
        }
        for r in reads
        if r.kept and r.call.task in LINES and r.role != "failed"
    ]
    return Bench(tallies, reads, refusals, posted)


def _read(calls: list[CallRecord], log: dict[int, LoggedEvent[Event]]) -> Iterable[Read]:
    previous: Read | None = None
    for call in calls:
        kind = kind_of(call, log)
        rule = refusal_rule(call.outcome)
        if call.outcome.startswith(OFFLINE):
            role = "offline"
        elif _retries(previous, call):
            role = "retry"
        elif call.outcome.startswith(("fallen back", "failed")):
            role = "failed"
        else:
            role = "first"
        if role == "retry" and call.outcome.startswith("fallen back"):
            rule = "model failed"
        previous = Read(call, kind, role, rule)
        yield previous


def _retries(previous: Read | None, call: CallRecord) -> bool:
    """``call`` is the retry of ``previous``: a first answer the contract refused, asked
    again with its reason appended to the same prompt."""
    return (
        previous is not None
        and previous.role == "first"
        and previous.call.outcome.startswith(REFUSED_BY_CONTRACT)
        and call.task == previous.call.task
        and call.prompt.startswith(previous.call.prompt)
        and len(call.prompt) > len(previous.call.prompt)
    )


def refusal_rule(outcome: str) -> str | None:
    """The rule an outcome names ("name", "points", "repeat", "pick: not a score"), or None
    when the answer was kept."""
    text = outcome.removeprefix(f"{OFFLINE}; ").removeprefix(OFFLINE)
    if text.startswith(REFUSED_BY_CONTRACT):
        return text.removeprefix(REFUSED_BY_CONTRACT).split()[0]
    if text.startswith("refused: repeats"):
        return "repeat"
    if text.startswith("refused: already said"):
        return "already said"
    if text.startswith("refused: "):
        return "refused: " + text.removeprefix("refused: ").split(";")[0].split(":")[0][:40]
    if text.startswith("failed"):
        return "model failed"
    return None


def kind_of(call: CallRecord, log: dict[int, LoggedEvent[Event]]) -> str:
    """The kind of text a call asked for; a remark by the moment it reacts to."""
    if call.task != "remark":
        return TASKS.get(call.task, call.task)
    item = log.get(call.event_id or 0)
    if item is None:
        return "remark"
    if isinstance(item.event, ResultRecorded) and call.match_number is None:
        # The remark without a match after a result: the table's, or after the last
        # whistle the wrap-up (its instruction, prompts/wrapup.txt, names itself); the
        # others: a new leader, a big jump, the day.
        return "wrap-up" if "wrap-up" in call.prompt.lower() else "remark: after a result"
    return f"remark: {MOMENTS.get(item.event.kind, item.event.kind)}"


def moment(log: list[LoggedEvent[Event]], at: datetime) -> dict[str, Any]:
    """The pool as it stood at ``at``, compact: players (handle: display name), picks
    per match, the matches finished, and the goals so far of those in play (the
    first goals of the tournament file, in minute order). A call is recorded at its
    moment's clock: events of that same minute are counted, though a call may come
    before one of them (her own pick, placed just after she is asked for it)."""
    players: dict[str, str] = {}
    picks: dict[str, dict[str, str]] = {}
    played: list[int] = []
    goals: dict[str, int] = {}
    for item in log:
        if item.at > at:
            break
        event = item.event
        if isinstance(event, PlayerJoined):
            players[event.player] = event.display_name
        elif isinstance(event, PredictionPlaced):
            picks.setdefault(str(event.match), {})[event.player] = f"{event.home}-{event.away}"
        elif isinstance(event, MatchKickedOff):
            goals[str(event.match)] = 0
        elif isinstance(event, GoalScored):
            goals[str(event.match)] = goals.get(str(event.match), 0) + 1
        elif isinstance(event, ResultRecorded) and event.previous is None:
            played.append(event.match)
            goals.pop(str(event.match), None)
    return {
        "at": at.isoformat(),
        "players": players,
        "picks": picks,
        "played": played,
        "live": goals,
    }


def _refusal(
    read: Read,
    reads: list[Read],
    log: list[LoggedEvent[Event]],
    by_id: dict[int, LoggedEvent[Event]],
) -> dict[str, Any]:
    call = read.call
    after = reads[reads.index(read) + 1 :]
    retry = after[0] if after and after[0].role == "retry" else None
    offline = after[1] if retry and len(after) > 1 and after[1].role == "offline" else None
    event = by_id.get(call.event_id or 0)
    return {
        "id": call.id,
        "kind": read.kind,
        "task": call.task,
        "match": call.match_number,
        "event": None if event is None else {"id": event.id, "kind": event.event.kind},
        "at": call.at.isoformat(),
        "rule": read.rule,
        "outcome": call.outcome,
        "text": said(call.response),
        "claims": [str(c) for c in declared.parse(call.response).claims],
        "retry": None
        if retry is None
        else {"text": said(retry.call.response), "outcome": retry.call.outcome},
        "offline": None
        if offline is None
        else {"text": offline.call.response, "outcome": offline.call.outcome},
        "system": call.system,
        "prompt": call.prompt,
        "pool": moment(log, call.at),
    }


def said(response: str) -> str:
    """What an answer says: its text, when it came with its claims (``memory.declared``)."""
    return declared.parse(response).text


def report_text(bench: Bench, sample: int = 10) -> str:
    """The figures per kind, every refused first answer, and ``sample`` posted lines."""
    rows = [
        f"{'kind':<22}{'calls':>6}{'first':>6}{'posted':>7}{'refused':>8}{'retries':>8}"
        f"{'posted':>7}{'offline':>8}  refused first answers by rule"
    ]
    everything = Tally()
    for kind in sorted(bench.tallies):
        t = bench.tallies[kind]
        rows.append(_row(kind, t))
        _add(everything, t)
    rows.append(_row("all", everything))
    failed = sum(t.failed for t in bench.tallies.values())
    refused = sum(everything.refused.values())
    share = refused / everything.first if everything.first else 0.0
    rows.append(
        f"(first answers refused: {refused} of {everything.first}, {share:.0%}; retries posted: {everything.retries_posted} of {everything.retries}; retries refused "
        f"by rule: {_rules(everything.retries_refused)}; offline lines refused too: "
        f"{everything.silent}; calls the model failed: {failed})"
    )
    rows.append("\nrefused first answers:")
    for refusal in bench.refusals:
        where = f" #{refusal['match']}" if refusal["match"] else ""
        retry = refusal["retry"]
        rows.append(f"  call {refusal['id']} {refusal['kind']}{where}: {refusal['outcome']}")
        rows.append(f"    said:  {refusal['text']}")
        if retry is not None:
            rows.append(f"    retry: {retry['text']}  [{retry['outcome']}]")
    lines = [
        p for p in bench.posted if p["role"] != "offline" and not p["kind"].startswith("diary")
    ]
    step = max(1, len(lines) // sample) if lines else 1
    rows.append(f"\nposted lines: {len(lines)}; a sample:")
    rows += [f"  [{p['kind']}] {p['text']}" for p in lines[::step][:sample]]
    return "\n".join(rows)


def _row(kind: str, t: Tally) -> str:
    return (
        f"{kind:<22}{t.calls:>6}{t.first:>6}{t.posted:>7}{sum(t.refused.values()):>8}"
        f"{t.retries:>8}{t.retries_posted:>7}{t.replaced:>8}  {_rules(t.refused)}"
    )


def _rules(counted: Counter[str]) -> str:
    return ", ".join(f"{rule} {n}" for rule, n in counted.most_common()) or "-"


def _add(total: Tally, t: Tally) -> None:
    total.calls += t.calls
    total.first += t.first
    total.posted += t.posted
    total.refused += t.refused
    total.retries += t.retries
    total.retries_posted += t.retries_posted
    total.retries_refused += t.retries_refused
    total.replaced += t.replaced
    total.silent += t.silent
    total.failed += t.failed


def write(bench: Bench, out: Path) -> tuple[Path, Path]:
    """``refused.jsonl`` and ``posted.jsonl`` in ``out``, one JSON object a line."""
    out.mkdir(parents=True, exist_ok=True)
    paths = out / "refused.jsonl", out / "posted.jsonl"
    for path, items in zip(paths, (bench.refusals, bench.posted), strict=True):
        path.write_text(
            "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items), "utf-8"
        )
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--report",
        metavar="DIR",
        help="report on the run kept in DIR (or in a replay's database file: a hearing run's)",
    )
    parser.add_argument("--data-dir", metavar="DIR", help="where the run's replay.db is made")
    parser.add_argument("--out", metavar="DIR", help="where the JSONL files go (default: DIR)")
    parser.add_argument("--matches", type=int, default=9)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="the figures per kind, as JSON")
    add_model_options(parser)
    parser.set_defaults(provider="openai-compatible")
    args = parser.parse_args()
    database: Path | None = None
    if args.report:
        directory = Path(args.report)
        if directory.suffix == ".db":  # another bench's replay: bench.hearing's hearing.db
            database, directory = directory, directory.parent
    elif args.data_dir:
        directory = Path(args.data_dir)
        config = Settings.read(args, os.environ).model
        run(config, directory, args.matches, args.players, args.seed)
    else:
        parser.error("give --data-dir DIR (with --base-url and --model) to run, or --report DIR")
    bench = read_run(database or directory / DATABASE)
    refused, posted = write(bench, Path(args.out or directory))
    if args.json:
        print(json.dumps({kind: t.as_dict() for kind, t in sorted(bench.tallies.items())}))
    else:
        print(report_text(bench))
        print(f"\nwritten: {refused}, {posted}")


if __name__ == "__main__":
    main()
