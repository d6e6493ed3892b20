"""How long a console command takes to start, this code against another revision, in one run.

    python -m bench.cli_start [--base 63b9c0e] [--head .] [--runs 5] [--importtime 12]

Each revision is exported (``git archive``; ``.`` is this working tree as it is) and
given a SQLite pool of its own in a temporary data directory: the sample tournament
(``game/sample/tournament.json``) and its picks (``game/sample/bets.csv``), imported
by that revision's own code. Then ``betania --version`` and ``betania standings`` run
as the console script runs them (the venv's ``betania`` with the revision first on
``sys.path``), interleaved: base, head, base, head... so a busy machine slows both
alike. Prints each side's median wall time and their ratio (head / base), and with
``--importtime N`` the N largest cumulative imports of ``import bot.app.cli`` on each
side (``python -X importtime``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).with_name("betania")
COMMANDS = (("--version",), ("standings",))


@dataclass(frozen=True)
class Side:
    name: str
    tree: Path
    data_dir: Path

    def env(self) -> dict[str, str]:
        # The tree first on sys.path: the venv's editable install points at this checkout.
        return {**os.environ, "PYTHONPATH": str(self.tree), "BETANIA_DB": ""}

    def run(self, *args: str) -> float:
        """One command's wall time, start to exit; it must succeed."""
        started = time.perf_counter()
        subprocess.run(
            [str(SCRIPT), *args, *self.data_options(args)],
            env=self.env(),
            cwd=self.tree,
            check=True,
            capture_output=True,
        )
        return time.perf_counter() - started

    def data_options(self, args: tuple[str, ...]) -> list[str]:
        return [] if args == ("--version",) else ["--data-dir", str(self.data_dir)]

    def importtime(self, top: int) -> list[str]:
        """The ``top`` largest cumulative imports of ``bot.app.cli``, as Python prints them."""
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import bot.app.cli"],
            env=self.env(),
            cwd=self.tree,
            check=True,
            capture_output=True,
            text=True,
        )
        lines = [line for line in done.stderr.splitlines() if line.startswith("import time:")]
        rows = [line.split("|") for line in lines[1:]]  # the first is the header
        rows.sort(key=lambda row: int(row[1]), reverse=True)
        return [f"{int(row[1]) / 1000:8.1f} ms  {row[2].rstrip()}" for row in rows[:top]]


def export(revision: str, into: Path) -> Path:
    """``revision``'s files under ``into`` (``.``: this working tree, as it is)."""
    if revision == ".":
        return ROOT
    place = into / revision.replace("/", "_")
    place.mkdir()
    archive = into / f"{place.name}.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, stdout=out)
    with tarfile.open(archive) as tar:
        tar.extractall(place, filter="data")
    return place


def prepare(name: str, tree: Path, into: Path) -> Side:
    side = Side(name, tree, into / f"data-{name}")
    sample = ROOT / "game" / "sample"
    side.run("fixtures", "import", str(sample / "tournament.json"))
    side.run("bets", "import", str(sample / "bets.csv"))
    return side


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="63b9c0e", help="the revision to compare against")
    parser.add_argument("--head", default=".", help="the revision measured (default: this tree)")
    parser.add_argument("--runs", type=int, default=5, help="runs of each command on each side")
    parser.add_argument("--importtime", type=int, default=0, metavar="N")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        into = Path(directory)
        sides = [
            prepare(label, export(revision, into), into)
            for label, revision in (("base", options.base), ("head", options.head))
        ]
        times: dict[tuple[str, tuple[str, ...]], list[float]] = {}
        for _ in range(options.runs):
            for command in COMMANDS:
                for side in sides:
                    times.setdefault((side.name, command), []).append(side.run(*command))
        print(f"base {options.base}, head {options.head}, {options.runs} runs each, interleaved")
        for command in COMMANDS:
            base, head = (statistics.median(times[(s.name, command)]) for s in sides)
            runs = "  ".join(
                f"{s.name} " + " ".join(f"{t:.3f}" for t in times[(s.name, command)]) for s in sides
            )
            print(
                f"betania {' '.join(command):<10} median base {base:.3f} s, head {head:.3f} s,"
                f" ratio {head / base:.2f}  ({runs})"
            )
        for side in sides if options.importtime else ():
            print(f"-X importtime, import bot.app.cli, {side.name}: largest cumulative")
            for line in side.importtime(options.importtime):
                print(f"  {line}")


if __name__ == "__main__":
    main()
