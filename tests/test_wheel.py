"""The package as users install it: a built wheel in a fresh virtual environment.

An editable install reads files from the work tree, so a file missing from the
package data (the demo's house chat was one) only shows in a wheel.
"""

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import httpx

from frontends.ssh.library import asyncssh
from tests.ssh_pool import read_until

PROJECT = Path(__file__).resolve().parents[1]
SHIPPED = ("pyproject.toml", "README.md", "game", "memory", "bot", "frontends", "prompts")


def build_wheel(into: Path) -> Path:
    source = into / "source"
    for name in SHIPPED:
        origin = PROJECT / name
        if origin.is_dir():
            shutil.copytree(origin, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            source.mkdir(parents=True, exist_ok=True)
            shutil.copy2(origin, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "-w", str(into / "dist"), str(source)],
        check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = (into / "dist").glob("betania-*.whl")
    return wheel


def fresh_environment(into: Path, wheel: Path) -> Path:
    """A new venv with only the wheel installed; its dependencies are borrowed read-only
    from this one through a .pth file (the wheel's contents are under test, not pip)."""
    venv.EnvBuilder(with_pip=True).create(into)
    python = into / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True, capture_output=True,
    )  # fmt: skip
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    Path(site, "borrowed_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return into / "bin"


def test_the_demo_starts_from_a_built_wheel(tmp_path: Path) -> None:
    bin_dir = fresh_environment(tmp_path / "fresh", build_wheel(tmp_path))
    where = subprocess.run(
        [str(bin_dir / "python"), "-c", "import bot, game, prompts; print(game.__file__)"],
        check=True, capture_output=True, text=True, cwd=tmp_path,
    ).stdout  # fmt: skip
    assert where.startswith(str(tmp_path / "fresh")), where

    async def scenario() -> None:
        demo = await asyncio.create_subprocess_exec(
            str(bin_dir / "betania"), "demo", "--port", "0", "--data-dir", str(tmp_path / "d"),
            "--http-port", "0",
            cwd=tmp_path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        assert demo.stdout is not None
        console = ""
        try:
            async with asyncio.timeout(60):
                while "join the pool" not in console:
                    line = (await demo.stdout.readline()).decode()
                    assert line, console
                    console += line
                while "HTTP on" not in console:
                    line = (await demo.stdout.readline()).decode()
                    assert line, console
                    console += line
            port = int(re.search(r"ssh -p (\d+)", console).group(1))  # type: ignore[union-attr]
            http = int(re.search(r"HTTP on [\d.]+:(\d+)", console).group(1))  # type: ignore[union-attr]
            async with httpx.AsyncClient() as client:  # the scoreboard's page, from the wheel
                page = await client.get(f"http://127.0.0.1:{http}/")
            assert page.status_code == 200 and '<main id="board">' in page.text
            async with asyncssh.connect(
                "127.0.0.1", port, username="you", known_hosts=None, agent_path=None,
                client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
            ) as connection:  # fmt: skip
                player = await connection.create_process()
                assert "Welcome to the pool, you!" in await read_until(player.stdout, "Type help")
                player.stdin.write("quit\n")
            demo.send_signal(signal.SIGTERM)
            async with asyncio.timeout(30):
                rest = (await demo.stdout.read()).decode()
                assert await demo.wait() == 0, console + rest
        finally:
            if demo.returncode is None:
                demo.kill()
                await demo.wait()
        assert "Traceback" not in console + rest

    asyncio.run(scenario())
