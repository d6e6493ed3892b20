"""The demo as a newcomer meets it, and what a whole demo tournament costs in memory.

    python -m bench.demo_run

1. Starts ``betania demo`` in a process of its own (as the README's run command
   does once installed), connects with an SSH client as soon as the port opens,
   and times the wait for her first remark.
2. Plays a whole demo tournament in this process on a very fast clock and prints
   the peak resident memory.
"""

from __future__ import annotations

import asyncio
import resource
import socket
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from bot.app.config import ModelConfig
from bot.app.demo import run_demo
from frontends.ssh.library import asyncssh
from game.model import MatchStatus

PORT = 2297


async def first_remark(port: int, started: float) -> float:
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            await asyncio.sleep(0.05)
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with asyncssh.connect(
        "127.0.0.1", port, username="newcomer", client_keys=[key], known_hosts=None, agent_path=None
    ) as connection:
        process = await connection.create_process()
        seen = ""
        while "BETanIA:" not in seen:
            seen += await process.stdout.read(4096)
        return time.perf_counter() - started


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        started = time.perf_counter()
        demo = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bot.app.cli",
                "demo",
                "--port",
                str(PORT),
                "--data-dir",
                directory,
                "--provider",
                "offline",
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            waited = asyncio.run(asyncio.wait_for(first_remark(PORT, started), 120))
        finally:
            demo.terminate()
            demo.wait()
    print(f"from `betania demo` to her first remark on an SSH client: {waited:.1f} s")

    async def whole_tournament() -> int:
        with tempfile.TemporaryDirectory() as directory:
            played, running = await run_demo(
                Path(directory),
                "127.0.0.1",
                0,
                200_000,
                ModelConfig(provider="offline"),
                say=lambda _line: None,
                first_kickoff_in=timedelta(seconds=0.1),
            )
            await running.close()
            return sum(m.status is MatchStatus.FINISHED for m in played.pool.matches())

    started = time.perf_counter()
    finished = asyncio.run(whole_tournament())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"a whole demo tournament: {finished} matches in {time.perf_counter() - started:.1f} s, peak memory {peak:.0f} MiB"
    )


if __name__ == "__main__":
    main()
