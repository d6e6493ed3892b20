"""Context size over a whole tournament, compacted against naive, in one run.

    python -m bench.memory_replay [FILE] [--players 15] [--every 8]

Replays the tournament with the offline writer and prints, per match, the
tokens of the diary-entry call's context as built (diary compacted) beside a
naive context that keeps every diary entry ever written. Then the flatness
figure: the max over the last 20 matches divided by the median over matches
10-20 (aim: at most 1.25), and the replay's elapsed time.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from bot.app.replay import ReplayOptions, replay
from game.openfootball import parse_tournament
from game.sources import read_json
from memory.offline import OfflineModel

DEFAULT_FILE = Path(__file__).resolve().parents[1] / "tests" / "data" / "worldcup-2026.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT_FILE))
    parser.add_argument("--players", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=8, help="table rows: every Nth match")
    args = parser.parse_args()
    tournament = parse_tournament(read_json(args.file))
    with tempfile.TemporaryDirectory() as directory:
        report = replay(
            ReplayOptions(tournament, players=args.players, seed=args.seed),
            Path(directory) / "replay.db",
            OfflineModel(seed=args.seed),
        )
        data = report.as_dict()
    samples = {s.match: s for s in report.samples}
    print(f"{'match':>5}  {'compacted':>9}  {'naive':>6}")
    for number in sorted(samples):
        if number % args.every == 1 or number == max(samples):
            print(f"{number:>5}  {samples[number].tokens:>9}  {samples[number].naive_tokens:>6}")
    last = max(samples)
    tail = [samples[n] for n in range(last - 19, last + 1)]
    early = [samples[n] for n in range(10, 21)]
    for label, pick in (("compacted", lambda s: s.tokens), ("naive", lambda s: s.naive_tokens)):
        ratio = max(map(pick, tail)) / statistics.median(map(pick, early))
        print(f"{label}: max over the last 20 / median over matches 10-20 = {ratio:.3f}")
    print(
        f"diary at the end: {data['diary']['entries']} entries covering {data['diary']['covers_matches']} matches"
    )
    print(f"model calls: {data['model_calls']}; replay elapsed: {data['elapsed_s']:.1f} s")


if __name__ == "__main__":
    main()
