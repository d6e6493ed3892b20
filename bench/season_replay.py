"""A league season replayed whole, offline: what her memory costs early and late.

    python -m bench.season_replay tests/data/br.1-2025.json --tz America/Sao_Paulo \\
        --players 20 --chat docs/examples/chat-brasileirao-2025.jsonl --language pt

Prints the replay's time; the diary at the end (entries, matches covered); per
kind of call, the largest context early in the season (the first fifth of its
calls) and late (the last fifth), whole (the cached block included) and the
prompt after it; the final-whistle remark's prompt beside a naive one that keeps
every diary entry ever written; the facts held and withdrawn at the end; and
whether the pool's standings equal an independent scoring of the same picks
(written here from the rules as the README states them, not from game.scoring).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from collections import Counter
from pathlib import Path
from zoneinfo import ZoneInfo

from bench.memory_replay import Call, calls_of
from bot.agent.providers.offline import OfflineModel
from bot.app.replay import ReplayOptions, ReplayReport, read_chat, replay
from game.model import Score
from game.openfootball import parse_tournament
from game.sources import read_json
from memory.keeper import MemoryConfig


def independent_points(report: ReplayReport) -> dict[str, int]:
    """Every player's points from their picks and the results, by the README's rules:
    the exact score, else the right winner and goal difference (any draw on a draw),
    else the right winner or a draw; judged on the score after extra time."""
    rule, _ = report.pool.scoring()
    finished = {m.number: m.result for m in report.pool.matches() if m.result is not None}
    points: Counter[str] = Counter({p.handle: 0 for p in report.pool.players()})
    for player in points.copy():
        for pick in report.pool.predictions_of(player):
            result = finished.get(pick.match_number)
            if result is None:
                continue
            actual: Score = result.extra_time or result.full_time
            guess = pick.score
            sign = (guess.home > guess.away) - (guess.home < guess.away)
            real = (actual.home > actual.away) - (actual.home < actual.away)
            if (guess.home, guess.away) == (actual.home, actual.away):
                points[player] += rule.exact
            elif sign == real and guess.home - guess.away == actual.home - actual.away:
                points[player] += rule.difference
            elif sign == real:
                points[player] += rule.outcome
    return dict(points)


def by_kind(calls: list[Call]) -> list[str]:
    n = len(calls)
    early, late = calls[: n // 5], calls[4 * n // 5 :]
    lines = []
    for task in sorted({c.task for c in calls}):
        first = [c for c in early if c.task == task]
        last = [c for c in late if c.task == task]
        if not first or not last:
            lines.append(f"  {task:<13} (not called both early and late)")
            continue
        lines.append(
            f"  {task:<13} largest early {max(c.whole for c in first):>6} whole "
            f"{max(c.prompt for c in first):>5} prompt | late {max(c.whole for c in last):>6} "
            f"whole {max(c.prompt for c in last):>5} prompt"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--tz", type=ZoneInfo, required=True, help="the file's local zone")
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chat", help="timed chat (JSON lines)")
    parser.add_argument("--language", default="en", choices=("en", "pt"))
    args = parser.parse_args()
    tournament = parse_tournament(read_json(args.file), args.tz)
    options = ReplayOptions(
        tournament,
        players=args.players,
        seed=args.seed,
        chat=read_chat(args.chat) if args.chat else [],
        memory=MemoryConfig(language=args.language, zone=args.tz),
    )
    with tempfile.TemporaryDirectory() as directory:
        report = replay(
            options, Path(directory) / "season.db", OfflineModel(args.seed, args.language)
        )
        data = report.as_dict()
        calls = calls_of(report)
        played = sum(1 for m in report.pool.matches() if m.result is not None)
        print(f"{tournament.name}: {played} matches played, {args.players} players, "
              f"{len(options.chat)} chat lines, language {args.language}")  # fmt: skip
        print(f"replay {report.elapsed_s:.1f} s, {len(calls)} model calls")
        print(f"diary at the end: {data['diary']}")
        print(f"calls by kind: {dict(Counter(c.task for c in calls))}")
        print("largest context per kind of call, tokens:")
        print("\n".join(by_kind(calls)))
        ordered = sorted(report.samples, key=lambda s: s.match)
        if ordered:
            last = ordered[-1]
            middle = ordered[len(ordered) // 2]
            print(
                f"final-whistle remark prompt: mid-season {middle.tokens} (naive "
                f"{middle.naive_tokens}), last {last.tokens} (naive {last.naive_tokens}); "
                f"median {statistics.median(s.tokens for s in ordered):.0f}"
            )
        print(f"facts at the end: {data.get('facts')}")
        print(f"remarks: {len(report.pool.events(kinds=('remark',)))}")
        table = {r.player: r.points for r in report.pool.standings()}
        independent = independent_points(report)
        differ = {
            p: (table.get(p), independent[p]) for p in independent if table.get(p) != independent[p]
        }
        print(
            f"standings equal the independent scoring: {not differ} "
            f"({len(independent)} players; differ: {differ})"
        )
        leaders = ", ".join(f"{r.rank}. {r.player} {r.points}" for r in report.pool.standings()[:3])
        print(f"top of the pool: {leaders}")


if __name__ == "__main__":
    main()
