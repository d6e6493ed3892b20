"""200 players at their prompts; an admin enters a goal: how long until every one sees the table.

    python -m bench.goal_fanout [--sessions 200] [--rounds 5] [--db URL]

The pool's server runs in a process of its own; 200 interactive sessions (a
PTY each, prompt_toolkit at the other end) wait at their prompts, connected
from here. In each round an admin, over SSH, records a goal: every session
prints the goal and the live table it moved (with the player's own place), and
the time from the admin's command to the moment each session has printed the
table line is taken. For a baseline measured in the same run, the admin also
says a chat line, which reaches the same 200 sessions without a table. Prints
p50 and p99 for both, and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from bench.ssh_sessions import percentiles, start
from frontends.ssh.library import asyncssh
from frontends.ssh.server import HOST_KEY_FILE, host_key
from game.db.engine import open_database
from game.openfootball import Fixture, Tournament
from game.pool import Pool

ADMIN = "admin"


class Screen:
    """One player's interactive session, read as it prints."""

    def __init__(self, process: asyncssh.SSHClientProcess[str]) -> None:
        self.process = process
        self.printed = ""
        self.changed = asyncio.Event()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        while chunk := await self.process.stdout.read(65536):
            self.printed += chunk
            self.changed.set()

    async def wait_for(self, *needles: str, whole: bool = True) -> float:
        """The time at which ``needles`` have been printed, in that order (with ``whole``,
        each on a finished line)."""
        while True:
            at, found = 0, True
            for needle in needles:
                at = self.printed.find(needle, at)
                if at < 0 or (whole and "\n" not in self.printed[at:]):
                    found = False
                    break
            if found:
                self.printed = self.printed[at:]  # what is left to read next round
                return time.perf_counter()
            self.changed.clear()
            await self.changed.wait()


async def open_screen(port: int, handle: str, key: asyncssh.SSHKey) -> Screen:
    connection = await asyncssh.connect(
        "127.0.0.1", port, username=handle, client_keys=[key], known_hosts=None, agent_path=None
    )
    process = await connection.create_process(term_type="xterm", term_size=(160, 40))
    screen = Screen(process)
    await screen.wait_for(f"{handle}>", whole=False)
    return screen


async def fan_out(
    port: int, keys: dict[str, asyncssh.SSHKey], rounds: int
) -> dict[str, list[float]]:
    screens = []
    for batch in range(0, len(keys) - 1, 50):  # 50 handshakes at a time: no connection storm
        players = [h for h in keys if h != ADMIN][batch : batch + 50]
        screens += await asyncio.gather(*(open_screen(port, h, keys[h]) for h in players))
    admin = await asyncssh.connect(
        "127.0.0.1", port, username=ADMIN, client_keys=[keys[ADMIN]], known_hosts=None,
        agent_path=None,
    )  # fmt: skip
    latencies: dict[str, list[float]] = {"goal": [], "chat": []}
    for round_ in range(1, rounds + 1):
        for kind, command, needles in (
            ("chat", f"say ping {round_}", (f"ping {round_}",)),
            ("goal", f"goal 1 home {round_ * 10} S{round_}", (f"S{round_})", "Live table: ")),
        ):
            started = time.perf_counter()
            waits = [asyncio.create_task(screen.wait_for(*needles)) for screen in screens]
            await admin.run(command, check=True)
            seen = await asyncio.wait_for(asyncio.gather(*waits), timeout=60)
            latencies[kind] += [at - started for at in seen]
    admin.close()
    for screen in screens:
        screen.process.stdin.write("quit\n")
        screen.reader.cancel()
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--db", help="an empty database for the pool (default: a SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        data_dir = Path(directory)
        url = args.db or f"sqlite:///{data_dir / 'pool.db'}"
        pool = Pool(open_database(url))
        kickoff = pool.clock() - timedelta(minutes=30)
        pool.fixtures.import_tournament(
            Tournament("Bench Cup", (Fixture("b1", "Group", kickoff, "", "Home", "Away"),))
        )
        handles = [f"p{i:03}" for i in range(args.sessions)] + [ADMIN]
        keys = {handle: asyncssh.generate_private_key("ssh-ed25519") for handle in handles}
        for handle, key in keys.items():
            public = key.export_public_key().decode()
            pool.members.add(handle, is_admin=handle == ADMIN, keys=[public])
        pool.fixtures.kick_off(1)
        host_key(data_dir / HOST_KEY_FILE)
        server, port = start("pool", data_dir, url)
        try:
            latencies = asyncio.run(fan_out(port, keys, args.rounds))
        finally:
            server.terminate()
            server.wait()
        pool.engine.dispose()
    sessions = args.sessions
    print(f"{sessions} sessions, {args.rounds} rounds, from the admin's command to each screen:")
    chat_p50, chat_p99 = percentiles(latencies["chat"])
    goal_p50, goal_p99 = percentiles(latencies["goal"])
    print(f"chat line (baseline)   p50 {chat_p50 * 1000:6.0f} ms   p99 {chat_p99 * 1000:6.0f} ms")
    print(f"goal + live table      p50 {goal_p50 * 1000:6.0f} ms   p99 {goal_p99 * 1000:6.0f} ms")
    print(f"ratio goal/chat: p50 {goal_p50 / chat_p50:.2f}  p99 {goal_p99 / chat_p99:.2f}")


if __name__ == "__main__":
    main()
