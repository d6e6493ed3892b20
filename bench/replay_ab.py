"""The 2026 World Cup replay, this code against another revision, in one run.

    python -m bench.replay_ab [--base 3d4c2a6] [--head HEAD] [--rounds 2] [--matches 48]
    python -m bench.replay_ab --profile [--matches 48] [--top 5]

Each revision is checked out in a worktree of its own (``.`` is this working tree
as it is) and replayed in a subprocess of its own (offline voice, 20 simulated
players), interleaved: base, head, base, head... so a busy machine slows both
alike. Prints each run's time (wall clock, and the CPU time of the replay's own
process, which other processes on a shared machine barely move), the median of
each and their ratios (head / base), and a digest of each side's final standings
and posted remarks: the same digest is the same table and the same remarks, byte
for byte.

``--profile`` replays this working tree in-process under cProfile instead and
prints the top functions by cumulative and by own time, with their share of the
replay.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT / "tests" / "data" / "worldcup-2026.json"

# Run in the revision's worktree (its own code on sys.path): only what 3d4c2a6 also has.
WORKER = """
import hashlib, json, sys, tempfile, time
from pathlib import Path
from bot.app.config import ModelConfig
from bot.app.replay import ReplayOptions, replay
from game.openfootball import Tournament, parse_tournament
from game.sources import read_json

args = json.loads(sys.argv[1])
tournament = parse_tournament(read_json(args["file"]))
if args["matches"]:
    cut = sorted(tournament.fixtures, key=lambda f: f.kickoff)[: args["matches"]]
    tournament = Tournament(tournament.name, tuple(cut))
options = ReplayOptions(tournament, players=args["players"], seed=args["seed"])
config = ModelConfig(provider="offline", seed=args["seed"])
with tempfile.TemporaryDirectory() as directory:
    started, cpu = time.perf_counter(), time.process_time()
    report = replay(options, Path(directory) / "ab.db", config)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    table = [(r.rank, r.player, r.points, r.exact) for r in report.pool.standings()]
    remarks = [
        (item.event.match, item.event.trigger, item.event.text)
        for item in report.pool.events(kinds=("remark",))
    ]
digest = lambda value: hashlib.sha256(json.dumps(value).encode()).hexdigest()[:16]
print(json.dumps({
    "elapsed": elapsed,
    "cpu": cpu,
    "standings": digest(table),
    "remarks": digest(remarks),
    "count": len(remarks),
    "leader": f"{table[0][1]} {table[0][2]}" if table else "",
}))
"""


def worktree(revision: str, into: Path) -> Path:
    """A checkout of ``revision`` under ``into`` (``.``: this working tree, as it is; a
    directory: that tree, as it is)."""
    if revision == ".":
        return ROOT
    if Path(revision).is_dir():  # a tree made by hand (a change taken out, to compare)
        return Path(revision).resolve()
    place = into / revision.replace("/", "_")
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(place), revision],
        check=True,
        capture_output=True,
    )
    return place


def run(tree: Path, settings: dict[str, object]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", WORKER, json.dumps(settings)],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"replay in {tree} failed:\n{done.stderr[-3000:]}")
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def compare(args: argparse.Namespace) -> None:
    settings = {
        "file": str(Path(args.file).resolve()),
        "matches": args.matches,
        "players": args.players,
        "seed": args.seed,
    }
    with tempfile.TemporaryDirectory() as directory:
        trees = {}
        try:
            for side, revision in (("base", args.base), ("head", args.head)):
                trees[side] = worktree(revision, Path(directory))
            times: dict[str, list[float]] = {"base": [], "head": []}
            cpus: dict[str, list[float]] = {"base": [], "head": []}
            last: dict[str, dict[str, object]] = {}
            for round_ in range(1, args.rounds + 1):
                for side in ("base", "head"):
                    last[side] = run(trees[side], settings)
                    times[side].append(float(str(last[side]["elapsed"])))
                    cpus[side].append(float(str(last[side]["cpu"])))
                    print(
                        f"round {round_} {side}: {times[side][-1]:.1f} s "
                        f"(CPU {cpus[side][-1]:.1f} s)",
                        flush=True,
                    )
        finally:
            for tree in trees.values():
                if tree.parent == Path(directory):  # only the worktrees made here
                    subprocess.run(
                        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                        check=False,
                    )
    base, head = statistics.median(times["base"]), statistics.median(times["head"])
    base_cpu, head_cpu = statistics.median(cpus["base"]), statistics.median(cpus["head"])
    cut = f"{args.matches} matches" if args.matches else "all matches"
    print(
        f"replay ({cut}, {args.players} players, offline): head {args.head} {head:.1f} s, "
        f"base {args.base} {base:.1f} s (medians of {args.rounds}): ratio {head / base:.2f}x; "
        f"CPU head {head_cpu:.1f} s, base {base_cpu:.1f} s: ratio {head_cpu / base_cpu:.2f}x"
    )
    for side, revision in (("base", args.base), ("head", args.head)):
        got = last[side]
        print(
            f"{side} {revision}: standings {got['standings']}, remarks {got['remarks']} "
            f"({got['count']} remarks, leader {got['leader']})"
        )
    same = all(last["base"][k] == last["head"][k] for k in ("standings", "remarks"))
    print(f"same standings and remarks: {same}")


CHECKS = ("memory/contract.py", "memory/claims.py", "memory/guard.py")  # her checks' code


def profile(args: argparse.Namespace) -> None:
    """This working tree's replay under cProfile: the top functions, by both measures."""
    from bot.app.config import ModelConfig
    from bot.app.replay import ReplayOptions, replay
    from game.openfootball import Tournament, parse_tournament
    from game.sources import read_json

    tournament = parse_tournament(read_json(args.file))
    if args.matches:
        cut = sorted(tournament.fixtures, key=lambda f: f.kickoff)[: args.matches]
        tournament = Tournament(tournament.name, tuple(cut))
    options = ReplayOptions(tournament, players=args.players, seed=args.seed)
    profiler = cProfile.Profile()
    with tempfile.TemporaryDirectory() as directory:
        profiler.enable()
        replay(
            options, Path(directory) / "profile.db", ModelConfig(provider="offline", seed=args.seed)
        )
        profiler.disable()
    stats = pstats.Stats(profiler)
    rows = stats.stats  # type: ignore[attr-defined]  # pstats keeps them, untyped
    ours = [
        item
        for item in rows.items()
        if item[0][0].startswith(str(ROOT)) and "site-packages" not in item[0][0]
    ]
    total = max(values[3] for _, values in ours)  # the replay's own, all of it
    if args.dump:
        stats.dump_stats(args.dump)
    print(f"replay under the profiler: {total:.1f} s")
    for title, index in (("cumulative", 3), ("own", 2)):
        print(f"top {args.top} of this project's functions by {title} time:")
        for (path, line, name), values in sorted(ours, key=lambda i: -i[1][index])[: args.top]:
            where = Path(path).relative_to(ROOT)
            print(
                f"  {values[index]:7.2f} s {values[index] / total:6.1%}  {where}:{line} {name} "
                f"({values[1]} calls)"
            )
    checks = [item for item in ours if item[0][0].endswith(CHECKS)]
    if checks:
        (path, line, name), values = max(checks, key=lambda i: i[1][3])
        print(
            f"her checks' largest function: {Path(path).relative_to(ROOT)}:{line} {name}, "
            f"{values[3]:.2f} s cumulative, {values[3] / total:.1%} of the replay"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default=str(DEFAULT_FILE))
    parser.add_argument("--base", default="3d4c2a6", help="the revision to compare against")
    parser.add_argument("--head", default="HEAD", help="the revision measured ('.': as it is)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--matches", type=int, default=0, help="the first N matches only")
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="profile this tree instead")
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--dump", help="with --profile: write the stats to this file too")
    args = parser.parse_args()
    if args.profile:
        profile(args)
    else:
        compare(args)


if __name__ == "__main__":
    main()
