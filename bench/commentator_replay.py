"""The commentator over a whole tournament, talking to a local Messages API server.

    python -m bench.commentator_replay [FILE] [--players 15]

Replays the tournament with the Anthropic provider (the real SDK) pointed at a
server on 127.0.0.1 that speaks the Messages API, and prints: model calls per
match (median, max), input tokens per call (median, max), the share of calls
whose system prefix is byte-identical to the previous call's, the replay's
time, and her final rank.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from collections import Counter
from itertools import pairwise
from pathlib import Path

from bench.memory_replay import DEFAULT_FILE
from bot.app.config import ModelConfig
from bot.app.replay import ReplayOptions, replay
from game.openfootball import parse_tournament
from game.sources import read_json
from memory.usage import recorded, totals
from tests.model_server import model_server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT_FILE))
    parser.add_argument("--players", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tournament = parse_tournament(read_json(args.file))
    with model_server() as server, tempfile.TemporaryDirectory() as directory:
        config = ModelConfig(
            provider="anthropic",
            base_url=server.url,
            api_key="local",
            model="local",
            seed=args.seed,
        )
        report = replay(
            ReplayOptions(tournament, players=args.players, seed=args.seed),
            Path(directory) / "r.db",
            config,
        )
        systems = [request.body.get("system") for request in server.requests]
        with report.pool.work.read() as connection:
            logged = recorded(connection)
            cost = totals(connection)
        table = report.pool.standings()
    per_match = Counter(r.match_number for r in report.calls if r.match_number is not None)
    counts = [per_match.get(m.number, 0) for m in report.pool.matches()]
    inputs = [
        event.input_tokens + event.cache_read_tokens + event.cache_write_tokens for event in logged
    ]
    same = sum(1 for before, after in pairwise(systems) if before == after)
    her = next(row for row in table if row.player == report.commentator.her)
    print(
        f"model calls: {len(systems)} to the Messages API, {len(report.calls)} asked by memory and her"
    )
    print(
        f"calls per match: median {statistics.median(counts):g}, max {max(counts)} (calls tied to no match: {len(report.calls) - sum(counts)})"
    )
    print(f"input tokens per call: median {statistics.median(inputs):g}, max {max(inputs)}")
    print(
        f"system prefix byte-identical to the previous call's: {same} of {len(systems) - 1} ({same / max(1, len(systems) - 1):.1%})"
    )
    print(f"fallbacks to the offline writer: {sum(event.fallback for event in logged)}")
    print(
        f"input read from the cache: {cost['cache_read_share']:.1%}; cost ${cost['cost_usd']:.2f}"
        f" (${cost['cost_without_cache_usd']:.2f} without the cache)"
    )
    print(
        f"her final rank: {her.rank} of {len(table)} with {her.points} points (leader: {table[0].player}, {table[0].points})"
    )
    print(f"replay elapsed: {report.elapsed_s:.1f} s")


if __name__ == "__main__":
    main()
