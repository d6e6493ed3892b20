"""A whole World Cup against a provider that is down, beside the same replay offline.

    python -m bench.provider_down [FILE] [--players 15]

Replays the tournament twice in one run: with the offline voice, and with the
Anthropic provider (the real SDK, its own retries on) pointed at a server on
127.0.0.1 that answers every request 529 Overloaded, as the Messages API does
when it is overloaded. The circuit breaker in front of the provider should keep
the second replay close to the first. Prints both times, their ratio, the
requests that reached the server and the calls the breaker skipped.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench.memory_replay import DEFAULT_FILE
from bot.app.config import ModelConfig
from bot.app.replay import ReplayOptions, replay
from game.openfootball import parse_tournament
from game.sources import read_json
from memory.usage import totals
from tests.model_server import Reply, model_server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT_FILE))
    parser.add_argument("--players", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tournament = parse_tournament(read_json(args.file))
    options = ReplayOptions(tournament, players=args.players, seed=args.seed)
    with tempfile.TemporaryDirectory() as directory:
        offline = replay(options, Path(directory) / "offline.db", ModelConfig(provider="offline"))
        with model_server() as server:
            server.always = Reply(529)
            config = ModelConfig(
                provider="anthropic", base_url=server.url, api_key="local", model="local"
            )
            down = replay(options, Path(directory) / "down.db", config)
            requests = len(server.requests)
        with down.pool.work.read() as connection:
            figures = totals(connection)
    print(f"matches: {len(offline.pool.matches())}, players: {args.players}")
    print(f"offline replay: {offline.elapsed_s:.1f} s")
    print(f"replay against a provider answering 529 to everything: {down.elapsed_s:.1f} s")
    print(f"ratio: {down.elapsed_s / offline.elapsed_s:.2f}")
    print(
        f"requests that reached the server: {requests}; calls: {figures['calls']}, "
        f"answered by the offline voice: {figures['fallbacks']}, skipped with the circuit "
        f"open: {figures['skipped_provider_down']}"
    )


if __name__ == "__main__":
    main()
