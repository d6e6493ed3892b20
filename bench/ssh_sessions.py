"""200 concurrent SSH sessions, each placing a bet and reading the standings.

    python -m bench.ssh_sessions [--sessions 200] [--rounds 3] [--db URL] [--front-ends 2]

The pool's server and a bare asyncssh echo server (public-key auth, exec mode,
the same work per session: connect, two commands) each run in a process of
their own; the clients run here. Each round starts each server afresh, warms it
with a few sessions and loads it: prints p50/p99 session latency and throughput
for both, their ratio per round and the median of those ratios, and checks that
every bet reached the database. ``--db`` puts the pool in that (empty) database, e.g.
PostgreSQL; ``--front-ends 2`` also runs two pool servers on it, the clients
split between them, and prints the throughput against one.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from frontends.limits import Limits
from frontends.ssh.frontend import ServerConfig
from frontends.ssh.library import asyncssh
from frontends.ssh.server import HOST_KEY_FILE, bound_port, host_key, start_server
from game.db.engine import open_database
from game.model import Score
from game.openfootball import Fixture, Tournament
from game.pool import Pool

WARM_UP = 20  # sessions that read before each measured load: imports and caches done
CROWD = 10_000  # the pool's caps on sessions and logins, and both servers' listen queue


class EchoServer(asyncssh.SSHServer):
    def begin_auth(self, _username: str) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, _username: str, _key: asyncssh.SSHKey) -> bool:
        return True


async def echo(process: asyncssh.SSHServerProcess) -> None:
    process.stdout.write((process.command or "") + "\n")
    process.exit(0)


async def serve(kind: str, data_dir: Path, port_file: Path, url: str) -> None:
    if kind == "echo":
        acceptor = await asyncssh.create_server(
            EchoServer,
            "127.0.0.1",
            0,
            server_host_keys=[host_key(data_dir / HOST_KEY_FILE)],
            process_factory=echo,
            backlog=CROWD,  # the kernel's queue as the pool's: the same wait, not a setting's
        )
    else:
        pool = Pool(open_database(url))
        # All the clients come from 127.0.0.1 at once: the doorway's caps (50 logins in
        # progress from one address) would turn most of them away, which is its rule and
        # not what a session costs.
        limits = Limits(
            sessions_total=CROWD, unauthenticated_total=CROWD, unauthenticated_per_address=CROWD
        )
        acceptor, _ = await start_server(pool, data_dir, ServerConfig(port=0, limits=limits))
    port_file.write_text(str(bound_port(acceptor)))
    await acceptor.wait_closed()


async def one_session(port: int, handle: str, key: asyncssh.SSHKey, commands: list[str]) -> float:
    started = time.perf_counter()
    async with asyncssh.connect(
        "127.0.0.1", port, username=handle, client_keys=[key], known_hosts=None, agent_path=None
    ) as connection:
        for command in commands:
            result = await connection.run(command, check=True)
            assert result.stdout
    return time.perf_counter() - started


@dataclass(frozen=True)
class Load:
    latencies: list[float]  # sorted
    elapsed: float
    client_cpu: float  # seconds of CPU the clients (this process) used meanwhile
    machine_cpu: float | None  # seconds of CPU every process used meanwhile (Linux only)


def machine_cpu_seconds() -> float | None:
    """CPU time spent by the whole machine so far, from /proc/stat; None elsewhere."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    # user, nice, system, irq, softirq: not idle or iowait, nor steal (another guest's
    # turn on a shared host), nor guest time (already counted in user and nice)
    busy = sum(int(fields[i]) for i in (0, 1, 2, 5, 6))
    return busy / os.sysconf("SC_CLK_TCK")


async def load(ports: list[int], keys: dict[str, asyncssh.SSHKey], commands: list[str]) -> Load:
    """Every session at once, spread over the servers' ports in turn, each running
    ``commands`` (a bet scores anew in each run, so that every run writes a change)."""
    started, cpu, machine = time.perf_counter(), time.process_time(), machine_cpu_seconds()
    latencies = await asyncio.gather(
        *(
            one_session(ports[i % len(ports)], handle, key, commands)
            for i, (handle, key) in enumerate(keys.items())
        )
    )
    elapsed, now = time.perf_counter() - started, machine_cpu_seconds()
    machine_used = None if machine is None or now is None else now - machine
    return Load(sorted(latencies), elapsed, time.process_time() - cpu, machine_used)


def start(
    kind: str, data_dir: Path, url: str, copy: int = 0
) -> tuple[subprocess.Popen[bytes], int]:
    port_file = data_dir / f"{kind}{copy}.port"
    port_file.unlink(missing_ok=True)  # an earlier run's server wrote one: not this one's
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.ssh_sessions", "--serve", kind, str(data_dir), url, str(copy)]
    )
    deadline = time.monotonic() + 30
    while not port_file.exists() or not port_file.read_text():
        if time.monotonic() > deadline or process.poll() is not None:
            raise RuntimeError(f"the {kind} server did not start")
        time.sleep(0.05)
    return process, int(port_file.read_text())


def measure(
    kind: str, copies: int, data_dir: Path, url: str, keys: dict[str, asyncssh.SSHKey], score: str
) -> Load:
    """``copies`` fresh servers of ``kind``, warmed by a few sessions that only read,
    then loaded with every session betting ``score``; stopped after."""
    servers = [start(kind, data_dir, url, copy) for copy in range(copies)]
    try:
        ports = [port for _, port in servers]
        warming = dict(list(keys.items())[:WARM_UP])
        asyncio.run(load(ports, warming, ["standings"]))
        return asyncio.run(load(ports, keys, [f"bet 1 {score}", "standings"]))
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait()


def percentiles(values: list[float]) -> tuple[float, float]:
    """p50 and p99 of ``values``."""
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def report(label: str, measured: Load) -> tuple[float, float, float]:
    """Prints the load's figures, with the cores its clients took and the cores the
    whole machine was busy (of ``os.cpu_count()``): a server cannot go faster on
    cores the machine does not have left."""
    p50, p99 = percentiles(measured.latencies)
    throughput = len(measured.latencies) / measured.elapsed
    busy = ""
    if measured.machine_cpu is not None:
        busy = f", machine busy {measured.machine_cpu / measured.elapsed:.2f} of {os.cpu_count()}"
    print(
        f"  {label:<12} p50 {p50 * 1000:7.0f} ms   p99 {p99 * 1000:7.0f} ms   "
        f"{throughput:6.1f} sessions/s   cores: clients {measured.client_cpu / measured.elapsed:.2f}"
        f"{busy}"
    )
    return p50, p99, throughput


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--db", help="an empty database for the pool (default: a SQLite file)")
    parser.add_argument("--front-ends", type=int, default=1, choices=(1, 2))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--serve", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        kind, data_dir, url, copy = args.serve
        asyncio.run(serve(kind, Path(data_dir), Path(data_dir) / f"{kind}{copy}.port", url))
        return

    with tempfile.TemporaryDirectory() as directory:
        data_dir = Path(directory)
        url = args.db or f"sqlite:///{data_dir / 'pool.db'}"
        pool = Pool(open_database(url))
        kickoff = pool.clock() + timedelta(days=1)
        pool.fixtures.import_tournament(
            Tournament("Bench Cup", (Fixture("b1", "Group", kickoff, "", "Home", "Away"),))
        )
        keys = {
            f"p{i:03}": asyncssh.generate_private_key("ssh-ed25519") for i in range(args.sessions)
        }
        for handle, key in keys.items():
            pool.members.add(handle, keys=[key.export_public_key().decode()])
        host_key(data_dir / HOST_KEY_FILE)  # every server presents the same key

        kinds = [("echo", 1), ("pool", 1)] + ([("pool", 2)] if args.front_ends == 2 else [])
        rounds: list[dict[tuple[str, int], tuple[float, float, float]]] = []
        bet = 0
        for number in range(1, args.rounds + 1):
            # Each round loads every server in turn, close together in time: a burst of
            # noise on this shared machine then falls within one round. Only the servers
            # measured run: on PostgreSQL an idle front end still hears every commit.
            print(f"round {number}")
            figures = {}
            for kind, copies in kinds:
                bet += kind == "pool"  # a new pick in each pool run: every run writes
                label = "bare echo" if kind == "echo" else f"pool x{copies}"
                figures[(kind, copies)] = report(
                    label, measure(kind, copies, data_dir, url, keys, f"{bet}-1")
                )
            echo_p50, echo_p99, echo_rate = figures[("echo", 1)]
            pool_p50, pool_p99, pool_rate = figures[("pool", 1)]
            print(f"  ratio pool/echo: p50 {pool_p50 / echo_p50:.2f}  p99 {pool_p99 / echo_p99:.2f}  "
                  f"throughput {echo_rate / pool_rate:.2f}")  # fmt: skip
            if ("pool", 2) in figures:
                two_rate = figures[("pool", 2)][2]
                print(f"  sessions/s, two front ends against one: {two_rate / pool_rate:.2f}")
            rounds.append(figures)
        ratios = [
            (r[("pool", 1)][0] / r[("echo", 1)][0], r[("pool", 1)][1] / r[("echo", 1)][1])
            for r in rounds
        ]
        print(
            f"median of {len(rounds)} rounds, pool/echo: "
            f"p50 {statistics.median(p50 for p50, _ in ratios):.2f}  "
            f"p99 {statistics.median(p99 for _, p99 in ratios):.2f}"
        )
        if args.front_ends == 2:
            scaling = statistics.median(r[("pool", 2)][2] / r[("pool", 1)][2] for r in rounds)
            print(f"median of {len(rounds)} rounds, two front ends against one: {scaling:.2f}")
        bets = [p for handle in keys for p in pool.predictions_of(handle)]
        assert all(p.score == Score(bet, 1) for p in bets)
        pool.engine.dispose()
        print(f"bets in the database: {len(bets)} of {len(keys)}")


if __name__ == "__main__":
    main()
