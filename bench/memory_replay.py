"""Context size over a whole tournament: compacted against naive, and how flat, in one run.

    python -m bench.memory_replay [FILE] [--players 15] [--chat FILE] [--every 8]

Replays the tournament with the offline writer twice, at the default budget and
with no budget at all (nothing cut). Prints, per match, the prompt of the
final-whistle remark (the call that reads every shelf) beside a naive prompt
that keeps every diary entry ever written. Then the flatness figures over all
calls: the largest context over the last fifth of calls divided by the median
over calls 10%-20% (aim: 1.25 with the default budget, 1.35 with none), for the
whole context as sent (the stable cached block included) and for the prompt
after it alone; then the same per kind of call, which the mix of kinds hides.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot.agent.providers.offline import OfflineModel
from bot.app.replay import ReplayOptions, ReplayReport, read_chat, replay
from game.openfootball import parse_tournament
from game.sources import read_json
from memory.keeper import MemoryConfig
from memory.tokens import estimate_tokens

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT / "tests" / "data" / "worldcup-2026.json"
DEFAULT_CHAT = ROOT / "docs" / "examples" / "chat.jsonl"
NO_CUT = 10**9


@dataclass(frozen=True)
class Call:
    task: str
    prompt: int  # tokens after the stable block
    whole: int  # tokens as sent: the stable block and the prompt


def flatness(sizes: list[int]) -> float:
    """Largest over the last fifth / median over 10%-20%: 1.0 is perfectly flat."""
    n = len(sizes)
    return max(sizes[4 * n // 5 :]) / statistics.median(sizes[n // 10 : n // 5])


def calls_of(report: ReplayReport) -> list[Call]:
    return [
        Call(
            c.task, estimate_tokens(c.prompt), estimate_tokens(c.system) + estimate_tokens(c.prompt)
        )
        for c in report.calls
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT_FILE))
    parser.add_argument("--players", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chat", default=str(DEFAULT_CHAT), help="timed chat (JSON lines)")
    parser.add_argument("--every", type=int, default=8, help="table rows: every Nth match")
    args = parser.parse_args()
    tournament = parse_tournament(read_json(args.file))
    chat = read_chat(args.chat)
    runs = {}
    for label, budget in (("default budget", MemoryConfig().budget), ("no cut", NO_CUT)):
        options = ReplayOptions(
            tournament, players=args.players, seed=args.seed, chat=chat,
            memory=MemoryConfig(budget=budget),
        )  # fmt: skip
        with tempfile.TemporaryDirectory() as directory:
            report = replay(options, Path(directory) / "replay.db", OfflineModel(seed=args.seed))
            runs[label] = (report, calls_of(report))

    report, _ = runs["default budget"]
    samples = {s.match: s for s in report.samples}
    print("final-whistle remark, prompt tokens (default budget)")
    print(f"{'match':>5}  {'compacted':>9}  {'naive':>6}")
    for number in sorted(samples):
        if number % args.every == 1 or number == max(samples):
            print(f"{number:>5}  {samples[number].tokens:>9}  {samples[number].naive_tokens:>6}")
    ordered = [samples[n] for n in sorted(samples)]
    for label, pick in (("compacted", lambda s: s.tokens), ("naive", lambda s: s.naive_tokens)):
        print(f"{label}: flatness over matches = {flatness([pick(s) for s in ordered]):.3f}")

    for label, (run, calls) in runs.items():
        print(f"\n{label}: {len(calls)} calls, replay {run.elapsed_s:.1f} s")
        whole, prompt = [c.whole for c in calls], [c.prompt for c in calls]
        print(f"  whole context: flatness {flatness(whole):.3f}, largest {max(whole)} tokens")
        print(f"  prompt alone:  flatness {flatness(prompt):.3f}, largest {max(prompt)} tokens")
        n = len(calls)
        for task in sorted({c.task for c in calls}):
            early = [c.prompt for c in calls[n // 10 : n // 5] if c.task == task]
            late = [c.prompt for c in calls[4 * n // 5 :] if c.task == task]
            if early and late:
                print(
                    f"  {task:<13} prompt: median 10%-20% {statistics.median(early):>6}, "
                    f"largest last fifth {max(late):>5} ({max(late) / statistics.median(early):.3f})"
                )


if __name__ == "__main__":
    main()
