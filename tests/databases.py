"""Where a test's pool keeps its data: a SQLite file, or a fresh PostgreSQL database.

The suite runs twice in CI: as it is (SQLite), and with ``BETANIA_TEST_POSTGRES``
naming a PostgreSQL server, where every test gets a database of its own, made
for it and dropped after. ``python -m tests.databases COMMAND`` starts a
throwaway server (Debian's PostgreSQL: an unprivileged user, a temporary folder,
a free port), runs COMMAND with the variable set, and stops it.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, text
from sqlalchemy.engine import make_url

from game.db.chain import guards_for
from game.db.engine import libpq_url

SERVER = "BETANIA_TEST_POSTGRES"  # e.g. postgresql+psycopg://betania@127.0.0.1:5432/postgres
UNPRIVILEGED = "nobody"  # initdb refuses to run as root


def server() -> str | None:
    return os.environ.get(SERVER) or None


@contextmanager
def database(folder: Path) -> Iterator[str]:
    """A URL for one test: SQLite in ``folder``, or a new database on the server."""
    base = server()
    if base is None:
        yield f"sqlite:///{folder / 'pool.db'}"
        return
    import psycopg

    name = f"t_{uuid.uuid4().hex[:16]}"
    admin = libpq_url(base)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def _binaries() -> Path:
    found = shutil.which("initdb") or shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
    if not versions:
        raise SystemExit("no PostgreSQL here: apt-get install postgresql")
    return versions[-1]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def throwaway_server() -> Iterator[str]:
    """A PostgreSQL server of its own, for as long as the block runs; yields its URL."""
    binaries = _binaries()
    folder = Path(tempfile.mkdtemp(prefix="betania-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam(UNPRIVILEGED)
        os.chown(folder, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", UNPRIVILEGED, "--"]
    data, port = folder / "data", _free_port()
    run = {"check": True, "stdout": subprocess.DEVNULL, "cwd": folder}
    initdb = [str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "betania"]
    subprocess.run([*as_user, *initdb, "-E", "UTF8", "--no-sync"], **run)
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    options += " -c max_connections=300"
    pg_ctl = [*as_user, str(binaries / "pg_ctl"), "-D", str(data)]
    subprocess.run([*pg_ctl, "-o", options, "-l", str(folder / "server.log"), "-w", "start"], **run)
    try:
        yield f"postgresql+psycopg://betania@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*pg_ctl, "-m", "immediate", "stop"], **run)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    """``python -m tests.databases pytest ...``: the command, against a throwaway server."""
    with throwaway_server() as url:
        return subprocess.run(sys.argv[1:], env={**os.environ, SERVER: url}).returncode


if __name__ == "__main__":
    sys.exit(main())


def fail_on(engine: Engine, table: str, operation: str, message: str = "power cut") -> None:
    """Make the database refuse ``operation`` (DELETE, UPDATE) on ``table``: a crash, staged."""
    with engine.begin() as connection:
        if engine.dialect.name == "sqlite":
            connection.execute(
                text(
                    f"CREATE TRIGGER crash BEFORE {operation} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{message}'); END"
                )
            )
            return
        connection.execute(
            text(
                "CREATE OR REPLACE FUNCTION crash() RETURNS trigger AS $$ "
                f"BEGIN RAISE EXCEPTION '{message}'; END; $$ LANGUAGE plpgsql"
            )
        )
        connection.execute(
            text(
                f"CREATE TRIGGER crash BEFORE {operation} ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION crash()"
            )
        )


def stop_failing(engine: Engine, table: str) -> None:
    with engine.begin() as connection:
        on = "" if engine.dialect.name == "sqlite" else f" ON {table}"
        connection.execute(text(f"DROP TRIGGER crash{on}"))


def drop_guards(connection: Connection) -> None:
    """What someone with the database could do: lift the event log's guards."""
    on = "" if connection.dialect.name == "sqlite" else " ON events"
    for name in guards_for(connection.dialect.name):
        connection.execute(text(f"DROP TRIGGER {name}{on}"))


@contextmanager
def tampering(engine: Engine) -> Iterator[Connection]:
    """A transaction of someone with the database: the event log's guards lifted first."""
    with engine.begin() as connection:
        drop_guards(connection)
        yield connection


@contextmanager
def write_lock_held(url: str) -> Iterator[None]:
    """Another process takes the pool's write lock and sits on it; reads still go through."""
    if url.startswith("sqlite"):
        import sqlite3

        other = sqlite3.connect(make_url(url).database or "", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            other.rollback()
            other.close()
        return
    import psycopg

    admin = libpq_url(url)
    with psycopg.connect(admin) as other:
        other.execute("LOCK TABLE events, predictions IN EXCLUSIVE MODE")  # blocks writers only
        try:
            yield
        finally:
            other.rollback()
