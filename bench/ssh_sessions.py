"""200 concurrent SSH sessions, each placing a bet and reading the standings.

    python -m bench.ssh_sessions [--sessions 200]

The pool's server and a bare asyncssh echo server (public-key auth, exec mode,
the same work per session: connect, two commands) each run in a process of
their own; the clients run here. Prints p50/p99 session latency and throughput
for both, measured in the same run, their ratio, and checks that every bet
reached the database.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import asyncssh

from game.db.engine import open_database
from game.frontends.limits import Limits
from game.frontends.ssh.frontend import ServerConfig
from game.frontends.ssh.server import bound_port, host_key, start_server
from game.model import Score
from game.openfootball import Fixture, Tournament
from game.pool import Pool


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


async def serve(kind: str, data_dir: Path, port_file: Path) -> None:
    if kind == "echo":
        acceptor = await asyncssh.create_server(
            EchoServer, "127.0.0.1", 0, server_host_keys=[host_key(data_dir)], process_factory=echo
        )
    else:
        pool = Pool(open_database(f"sqlite:///{data_dir / 'pool.db'}"))
        limits = Limits(sessions_total=10_000)
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


async def load(port: int, keys: dict[str, asyncssh.SSHKey]) -> tuple[list[float], float]:
    started = time.perf_counter()
    latencies = await asyncio.gather(
        *(
            one_session(port, handle, key, ["bet 1 2-1", "standings"])
            for handle, key in keys.items()
        )
    )
    return sorted(latencies), time.perf_counter() - started


def start(kind: str, data_dir: Path) -> tuple[subprocess.Popen[bytes], int]:
    port_file = data_dir / f"{kind}.port"
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.ssh_sessions", "--serve", kind, str(data_dir)]
    )
    deadline = time.monotonic() + 30
    while not port_file.exists() or not port_file.read_text():
        if time.monotonic() > deadline or process.poll() is not None:
            raise RuntimeError(f"the {kind} server did not start")
        time.sleep(0.05)
    return process, int(port_file.read_text())


def report(label: str, latencies: list[float], elapsed: float) -> tuple[float, float, float]:
    p50 = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    throughput = len(latencies) / elapsed
    print(
        f"{label:<12} p50 {p50 * 1000:7.0f} ms   p99 {p99 * 1000:7.0f} ms   {throughput:6.1f} sessions/s"
    )
    return p50, p99, throughput


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--serve", nargs=2, metavar=("KIND", "DATA_DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        kind, data_dir = args.serve
        asyncio.run(serve(kind, Path(data_dir), Path(data_dir) / f"{kind}.port"))
        return

    with tempfile.TemporaryDirectory() as directory:
        data_dir = Path(directory)
        pool = Pool(open_database(f"sqlite:///{data_dir / 'pool.db'}"))
        kickoff = pool.clock() + timedelta(days=1)
        pool.fixtures.import_tournament(
            Tournament("Bench Cup", (Fixture("b1", "Group", kickoff, "", "Home", "Away"),))
        )
        keys = {
            f"p{i:03}": asyncssh.generate_private_key("ssh-ed25519") for i in range(args.sessions)
        }
        for handle, key in keys.items():
            pool.members.add(handle, keys=[key.export_public_key().decode()])
        host_key(data_dir)  # both servers present the same key

        results = {}
        for kind in ("echo", "pool"):
            process, port = start(kind, data_dir)
            try:
                results[kind] = asyncio.run(load(port, keys))
            finally:
                process.terminate()
                process.wait()
        echo_p50, echo_p99, echo_rate = report("bare echo", *results["echo"])
        pool_p50, pool_p99, pool_rate = report("pool", *results["pool"])
        print(f"ratio pool/echo: p50 {pool_p50 / echo_p50:.2f}  p99 {pool_p99 / echo_p99:.2f}  "
              f"throughput {echo_rate / pool_rate:.2f}")  # fmt: skip
        bets = [p for handle in keys for p in pool.predictions_of(handle)]
        assert all(p.score == Score(2, 1) for p in bets)
        print(f"bets in the database: {len(bets)} of {len(keys)}")


if __name__ == "__main__":
    main()
