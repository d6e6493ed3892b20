"""What a hostile client costs the pool: a 1 MB paste, a resize storm, an exec chat flood,
keys typed with Backspace (a stranger at the invite, a player), bare line ends.

    python -m bench.hostile_input [--storm-seconds 10] [--storm-rate 5000]

The pool's server runs in a process of its own, with a watchdog on its event
loop (a 10 ms timer: how late it fires is how long the loop was stalled); the
attacker and a legitimate player run here. For each attack it prints the
server's RSS before and after, the worst event-loop stall, and the latency of
the legitimate player's ``standings`` (a new connection each time) meanwhile,
as a ratio to the same player's latency measured with no attack in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from frontends.ssh.frontend import ServerConfig
from frontends.ssh.library import asyncssh
from frontends.ssh.server import bound_port, start_server
from game.db.engine import open_database
from game.openfootball import parse_tournament
from game.pool import Pool

CUP = {
    "name": "Bench Cup",
    "matches": [
        {"num": n, "round": "Matchday", "date": f"2040-06-{10 + n}", "time": "18:00 UTC+0",
         "team1": f"Team{2 * n}", "team2": f"Team{2 * n + 1}"}
        for n in range(1, 9)
    ],
}  # fmt: skip
WATCH_EVERY = 0.01
# Between the legitimate player's commands: well within a player's budget (10 a second).
PACE = 0.15


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def serve(data_dir: Path) -> None:
    """The server side: the pool, and a watchdog that reports on each line read from stdin."""
    pool = Pool(open_database(f"sqlite:///{data_dir / 'pool.db'}"))
    pool.fixtures.import_tournament(parse_tournament(CUP))
    for handle in ("eve", "ana"):
        pool.members.add(handle, keys=[(data_dir / f"{handle}.pub").read_text()])
    acceptor, _ = await start_server(pool, data_dir, ServerConfig(port=0))
    loop = asyncio.get_running_loop()
    worst = 0.0

    async def watchdog() -> None:
        nonlocal worst
        while True:
            before = loop.time()
            await asyncio.sleep(WATCH_EVERY)
            worst = max(worst, loop.time() - before - WATCH_EVERY)

    watching = loop.create_task(watchdog())
    print(json.dumps({"port": bound_port(acceptor)}), flush=True)
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while await reader.readline():
        print(json.dumps({"rss_kb": rss_kb(), "stall_ms": worst * 1000}), flush=True)
        worst = 0.0
    watching.cancel()
    acceptor.close()


class Bench:
    def __init__(self, server: asyncio.subprocess.Process, port: int, keys: dict) -> None:
        self.server = server
        self.port = port
        self.keys = keys

    async def mark(self) -> dict[str, float]:
        assert self.server.stdin and self.server.stdout
        self.server.stdin.write(b"mark\n")
        return json.loads(await self.server.stdout.readline())

    def connect(self, handle: str, **options: object) -> asyncssh.connection._ACMWrapper:
        return asyncssh.connect(
            "127.0.0.1", self.port, username=handle, client_keys=[self.keys[handle]],
            known_hosts=None, agent_path=None, **options,
        )  # fmt: skip

    async def standings_latency(self) -> float:
        started = time.perf_counter()
        async with self.connect("ana") as connection:
            done = await connection.run("standings", check=True)
        assert "ana" in done.stdout
        return time.perf_counter() - started

    async def sample_standings(self, until: asyncio.Event, every: float = PACE) -> list[float]:
        samples = []
        while not until.is_set():
            samples.append(await self.standings_latency())
            await asyncio.sleep(every)
        return samples


async def paste(bench: Bench, size: int) -> str:
    async with bench.connect("eve") as connection:
        process = await connection.create_process(term_type="xterm", term_size=(80, 24))
        await process.stdout.readuntil("eve>")
        process.stdin.write("say " + "x" * size)
        process.stdin.write("\r")
        answer = await process.stdout.readuntil("characters")
        process.stdin.write("quit\r")
        return "line too long" if "line too long" in answer else answer[-80:]


async def storm(bench: Bench, seconds: float, rate: int) -> str:
    async with bench.connect("eve") as connection:
        process = await connection.create_process(term_type="xterm", term_size=(80, 24))
        await process.stdout.readuntil("eve>")
        sent, started = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds:
            while sent < elapsed * rate:
                process.change_terminal_size(80 + sent % 60, 24 + sent % 20)
                sent += 1
            await asyncio.sleep(0.005)
        process.stdin.write("standings\r")
        await process.stdout.readuntil("picks")
        return f"{sent} resizes in {time.perf_counter() - started:.1f} s"


async def flood(bench: Bench, seconds: float) -> str:
    accepted = refused = 0
    async with bench.connect("eve") as connection:
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            batch = await asyncio.gather(
                *(connection.run(f"say flood {accepted + refused + n}") for n in range(20))
            )
            accepted += sum(done.exit_status == 0 for done in batch)
            refused += sum(done.exit_status != 0 for done in batch)
    return f"{accepted} chat lines accepted, {refused} refused, one connection, {seconds:g} s"


# What the door's second attacker sent: compression on, as the server offers it.
COMPRESSED = ["zlib@openssh.com", "zlib"]


async def erase_typing(bench: Bench, seconds: float, as_player: bool) -> str:
    """A key at "Invite code:" (or a player at the prompt) typing "a" and Backspace:
    50 writes of 1,000 keys, 18 bytes each once compressed."""
    handle = "eve" if as_player else "stranger"
    key = bench.keys["eve"] if as_player else asyncssh.generate_private_key("ssh-ed25519")
    async with asyncssh.connect(
        "127.0.0.1", bench.port, username=handle, client_keys=[key], known_hosts=None,
        agent_path=None, compression_algs=COMPRESSED,
    ) as connection:  # fmt: skip
        process = await connection.create_process(term_type="xterm", term_size=(80, 24))
        await process.stdout.readuntil("eve>" if as_player else "Invite code:")
        for _ in range(50):
            process.stdin.write("a\x7f" * 500)
        await asyncio.sleep(seconds)
        process.close()
    return f"50 writes of 1,000 keys, {'a player' if as_player else 'a stranger'}"


async def newline_flood(bench: Bench, seconds: float, sessions: int = 3) -> str:
    """Sessions without a PTY, compressed, sending nothing but line ends."""

    async def one() -> None:
        async with bench.connect("eve", compression_algs=COMPRESSED) as connection:
            process = await connection.create_process()
            await process.stdout.readuntil("Type help")
            for _ in range(15):
                process.stdin.write("\n" * 1_000_000)
            await asyncio.sleep(seconds)
            process.close()

    await asyncio.gather(*(one() for _ in range(sessions)))
    return f"{sessions} sessions, 15 MB of line ends each"


async def attack(bench: Bench, name: str, run, baseline: float) -> dict[str, object]:
    before = await bench.mark()
    stop = asyncio.Event()
    sampler = asyncio.create_task(bench.sample_standings(stop))
    outcome = await run
    stop.set()
    samples = await sampler
    after = await bench.mark()
    return {
        "attack": name,
        "outcome": outcome,
        "rss_mb_before": round(before["rss_kb"] / 1024, 1),
        "rss_mb_after": round(after["rss_kb"] / 1024, 1),
        "worst_stall_ms": round(after["stall_ms"], 1),
        "standings_samples": len(samples),
        "standings_p50_ratio": round(statistics.median(samples) / baseline, 2),
        "standings_max_ratio": round(max(samples) / baseline, 2),
        "login_and_standings_max_ms": round(max(samples) * 1000),
    }


async def main(args: argparse.Namespace) -> None:
    data_dir = Path(tempfile.mkdtemp(prefix="betania-hostile-"))
    keys = {handle: asyncssh.generate_private_key("ssh-ed25519") for handle in ("eve", "ana")}
    for handle, key in keys.items():
        (data_dir / f"{handle}.pub").write_bytes(key.export_public_key())
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.hostile_input", "--serve", str(data_dir),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert server.stdout is not None
    port = json.loads(await server.stdout.readline())["port"]
    bench = Bench(server, port, keys)
    try:
        for _ in range(3):
            await bench.standings_latency()  # warm up
        await bench.mark()
        baseline_samples = []
        for _ in range(20):
            baseline_samples.append(await bench.standings_latency())
            await asyncio.sleep(PACE)
        quiet = await bench.mark()
        baseline = statistics.median(baseline_samples)
        print(
            f"baseline: standings p50 {baseline * 1000:.1f} ms, "
            f"RSS {quiet['rss_kb'] / 1024:.1f} MB, worst stall {quiet['stall_ms']:.1f} ms"
        )
        results = [
            await attack(bench, "1 MB paste", paste(bench, 1_000_000), baseline),
            await attack(
                bench,
                f"resize storm {args.storm_rate}/s for {args.storm_seconds:g} s",
                storm(bench, args.storm_seconds, args.storm_rate),
                baseline,
            ),
            await attack(bench, "exec chat flood", flood(bench, args.storm_seconds), baseline),
            await attack(
                bench,
                "a stranger typing a + Backspace at the invite",
                erase_typing(bench, args.storm_seconds, as_player=False),
                baseline,
            ),
            await attack(
                bench,
                "a player typing a + Backspace",
                erase_typing(bench, args.storm_seconds, as_player=True),
                baseline,
            ),
            await attack(
                bench, "bare line ends, no PTY", newline_flood(bench, args.storm_seconds), baseline
            ),
        ]
        for result in results:
            print(json.dumps(result))
    finally:
        assert server.stdin is not None
        server.stdin.close()
        await server.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--storm-seconds", type=float, default=10.0)
    parser.add_argument("--storm-rate", type=int, default=5000)
    options = parser.parse_args()
    asyncio.run(serve(options.serve) if options.serve else main(options))
