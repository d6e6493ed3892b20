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
from datetime import timedelta
from pathlib import Path

from bot.app.replay import ReplayOptions, read_chat, replay
from game.addressing import Addressee
from game.events import ChatPosted, RemarkPosted
from game.openfootball import parse_tournament
from game.sources import read_json
from game.words import LANGUAGES
from memory import facts, usage
from memory.guard import RepetitionGuard, masked, similarity
from memory.keeper import MemoryConfig
from memory.offline import OfflineModel

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
        her = Addressee()
        remarks = pool.events_of(RemarkPosted)
        asked = [c for c in pool.events_of(ChatPosted) if her.message(c.event.text) is not None]
        answered = {r.event.trigger for r in remarks}
        print(f"lines to her answered: {sum(c.id in answered for c in asked)} / {len(asked)}")

        names = {p.handle: p.display_name for p in pool.players()}
        teams = {t for m in pool.matches() for t in (m.team1, m.team2)}
        masks = [*names, *names.values(), *teams]
        window, threshold = timedelta(hours=72), RepetitionGuard().threshold
        repeats = 0
        for i, later in enumerate(remarks):
            for earlier in remarks[:i]:
                shared = set(later.event.about) & set(earlier.event.about)
                if (
                    shared
                    and later.at - earlier.at <= window
                    and similarity(later.event.text, earlier.event.text, masks) >= threshold
                ):
                    repeats += 1
                    break
        print(f"remarks aimed at a player repeating a wording within 72 h: {repeats}")

        with pool.engine.connect() as connection:
            told = facts.stored(connection)
            totals = usage.totals(connection)
        tellers = {f.handle for f in told if f.source.startswith("log:")}
        used = set()
        for fact in told:
            source = int(fact.source[4:]) if fact.source.startswith("log:") else None
            words = fact.text.replace(fact.handle, "").strip()
            for remark in remarks:
                if remark.event.trigger != source and facts.keeps(words, remark.event.text):
                    used.add(fact.handle)
                    break
        unused = ", ".join(sorted(tellers - used))
        print(
            f"players whose facts she used outside the acknowledgement: {len(used)} / {len(tellers)}"
            + (f" (not: {unused})" if unused else "")
        )
        refused = totals["claims_refused"]
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(refused.items())) or "none"
        print(
            f"claims refused by the check: {kinds}; replaced by the offline voice: {totals['replaced_offline']}"
        )
        wordings = {masked(r.event.text, masks) for r in remarks}
        print(
            f"remarks: {len(remarks)}; distinct wordings per 100 remarks: {100 * len(wordings) / len(remarks):.1f}"
        )
        print("\nsample of her lines:")
        for remark in random.Random(args.seed).sample(remarks, 12):
            print(f"  [{remark.at:%d %b %H:%M}] {remark.event.text}")
        wrap = [r for r in remarks if r.event.topic == "wrap-up"]
        print("\nwrap-up:", wrap[0].event.text if wrap else "(none)")


if __name__ == "__main__":
    main()
