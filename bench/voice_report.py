"""How she talks over a whole tournament: answers, repeats, facts used, claims refused.

    python -m bench.voice_report [FILE] [--chat FILE] [--language en|pt] [--players 15]

Replays the tournament with the offline voice and timed chat (by default
docs/examples/chat-2026.jsonl: questions in both languages, facts, remember and
forget requests, attempts to instruct her) and prints the figures issue 9 asks
for: lines to her answered / asked; remarks aimed at a player that repeat a
wording said about them within 72 hours (names, teams and numbers masked);
players whose facts she used outside the acknowledgement / players who told
her facts; claims refused by the check, by kind; distinct wordings per 100
remarks; a sample of her lines and the wrap-up.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

from bot.agent.providers.offline import OfflineModel
from bot.app.replay import ReplayOptions, read_chat, replay
from bot.app.voice import measure, stock_lines, stock_use
from game.events import RemarkPosted
from game.openfootball import parse_tournament
from game.sources import read_json
from game.words import LANGUAGES
from memory.keeper import MemoryConfig

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT / "tests" / "data" / "worldcup-2026.json"
DEFAULT_CHAT = ROOT / "docs" / "examples" / "chat-2026.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT_FILE))
    parser.add_argument("--chat", default=str(DEFAULT_CHAT))
    parser.add_argument("--language", default="en", choices=LANGUAGES)
    parser.add_argument("--players", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tournament = parse_tournament(read_json(args.file))
    options = ReplayOptions(
        tournament,
        players=args.players,
        seed=args.seed,
        chat=read_chat(args.chat),
        memory=MemoryConfig(language=args.language),
    )
    with tempfile.TemporaryDirectory() as directory:
        model = OfflineModel(seed=args.seed, language=args.language)
        report = replay(options, Path(directory) / "replay.db", model)
        pool = report.pool
        print("\n".join(measure(report.keeper.store).lines()))
        use = stock_use(pool.events_of(RemarkPosted), args.language)
        print(
            f"stock lines: {sum(use.said.values())} said, {len(use.said)} of "
            f"{len(stock_lines(args.language))} used; said again the same day: "
            f"{use.twice_a_day}; to the same player within 72 h: {use.twice_to_one}"
        )
        for template, count in use.said.most_common():
            print(f"  {count:>4}  {template}")
        remarks = pool.events_of(RemarkPosted)
        print("\nsample of her lines:")
        for remark in random.Random(args.seed).sample(remarks, 12):
            print(f"  [{remark.at:%d %b %H:%M}] {remark.event.text}")
        wrap = [r for r in remarks if r.event.topic == "wrap-up"]
        print("\nwrap-up:", wrap[0].event.text if wrap else "(none)")


if __name__ == "__main__":
    main()
