"""Where the database is, opening it, and bringing its schema up to date."""

from __future__ import annotations

import logging
import os
import stat
from contextlib import suppress
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, MetaData, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import ConnectionPoolEntry

from game.db.chain import ensure_guards, link
from game.db.revisions import at_head
from game.errors import UserError

if TYPE_CHECKING:
    from alembic.runtime.environment import EnvironmentContext

MIGRATIONS = Path(__file__).with_name("migrations")
DATABASE_FILE = "betania.db"


class DatabaseError(UserError, RuntimeError):
    """The database cannot be opened or used; the message says why, in one line."""


log = logging.getLogger("betania.storage")


def database_url(db: str | None, data_dir: Path) -> str:
    """``db`` when given, else a SQLite file in ``data_dir`` (made if need be)."""
    if db:
        return db
    return f"sqlite:///{private_directory(data_dir) / DATABASE_FILE}"


def private_directory(path: Path) -> Path:
    """``path``, made if need be, for its owner alone (0700, whatever the umask): it
    holds the database, with live invite and link codes, and the SSH host key.

    A directory that exists keeps its mode: the admin may have opened it on purpose
    (a backup user in its group), and a server that changed it would break that
    without a word; ``serve`` says so instead (``warn_if_open``). Parents it makes are
    0700 too: ``mkdir(parents=True)`` makes them with the umask's mode (0777 under umask
    000), and one open to all lets anyone rename the private directory away and put their
    own in its place.
    """
    missing = [directory for directory in (path, *path.parents) if not directory.exists()]
    for directory in reversed(missing):  # the outermost first
        try:
            directory.mkdir(mode=0o700)
        except FileExistsError:
            continue  # made meanwhile by someone else, who chose its mode
        directory.chmod(0o700)  # mkdir's mode went through the umask
    return path


def warn_if_open(data_dir: Path) -> None:
    """Make ``data_dir`` private if it is new; warn, in one line, if other users of the
    machine can enter it."""
    mode = private_directory(data_dir).stat().st_mode
    if mode & 0o077:
        log.warning(
            "%s is open to other users of this machine (%s) and holds the pool's "
            "database, with its invite and link codes: chmod 700 %s",
            data_dir,
            stat.filemode(mode),
            data_dir,
        )


# How long a write waits for another writer's lock before the player hears "busy".
BUSY_TIMEOUT = 5.0


def libpq_url(url: str | URL) -> str:
    """A PostgreSQL URL as psycopg's own connections take it (no SQLAlchemy driver name).

    For the connections kept outside SQLAlchemy's pool: the one that LISTENs and
    the one that holds the lead, which must not be handed to anyone else.
    """
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def is_locked(error: BaseException) -> bool:
    """A database that is busy with another writer, as opposed to one that failed."""
    text = str(getattr(error, "orig", None) or error).lower()
    return "locked" in text or "busy" in text or "lock timeout" in text


def open_database(url: str, busy_timeout: float = BUSY_TIMEOUT) -> Engine:
    """An engine on ``url`` with the schema migrated to the latest version."""
    try:
        engine = create_engine(make_url(url))
    except (ArgumentError, ImportError, ValueError) as error:
        raise DatabaseError(f"cannot open database {url!r}: {error}") from None
    if engine.dialect.name == "sqlite":
        _create_private(engine.url)
        event.listen(engine, "connect", partial(_sqlite_pragmas, busy_timeout=busy_timeout))
        event.listen(engine, "begin", _sqlite_begin)
    elif engine.dialect.name == "postgresql":
        event.listen(engine, "connect", partial(_postgresql_lock_wait, busy_timeout=busy_timeout))
    migrate(engine)
    ensure_guards(engine)
    return engine


def _create_private(url: URL) -> None:
    """A SQLite database file made here, 0600, before SQLite makes it 0644 less the
    umask. SQLite then gives its -wal, -shm and -journal files the database file's
    own mode, whatever the umask (``tests/test_security_urls.py`` checks it), so
    all four stay private without touching the process's umask."""
    name = url.database
    if not name or name == ":memory:" or url.query.get("uri"):
        return
    with suppress(FileExistsError, FileNotFoundError):  # SQLite says why, if it matters
        descriptor = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.fchmod(descriptor, 0o600)  # the mode went through the umask
        finally:
            os.close(descriptor)


# The execution option that marks a connection for reads alone (``for_reads``).
READS_ONLY = "betania_reads_only"


def for_reads(engine: Engine) -> Engine:
    """``engine`` for reads outside a transaction of writes.

    On PostgreSQL they run in autocommit: the driver would wrap each in a BEGIN and
    a ROLLBACK, two more round trips to the server for every read a session makes,
    and under READ COMMITTED they give a read nothing (each statement sees its own
    snapshot either way). On SQLite they begin no transaction either: every other
    transaction there takes the writer's lock at once (``_sqlite_begin``), and a
    read must never wait for a writer.
    """
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="AUTOCOMMIT")
    return engine.execution_options(**{READS_ONLY: True})


def _postgresql_lock_wait(
    dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry, busy_timeout: float
) -> None:
    """PostgreSQL's writers wait for a lock without end unless told: as long as SQLite's
    busy timeout."""
    cursor = dbapi_connection.cursor()
    cursor.execute(f"SET lock_timeout = {int(busy_timeout * 1000)}")
    cursor.close()
    dbapi_connection.commit()  # a SET inside a transaction is undone by its rollback


def _sqlite_pragmas(
    dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry, busy_timeout: float
) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys = ON")
    # REPLACE deletes the row it replaces; with recursive triggers that delete is
    # refused by the log's DELETE guard too, not only by its INSERT guard.
    cursor.execute("PRAGMA recursive_triggers = ON")
    dbapi_connection.create_function("betania_link", 3, link, deterministic=True)
    # Several SSH sessions write at once: wait a while for the lock, then give up
    # with an error the front end words as "busy, try again".
    cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
    # Readers never wait for the writer, and a commit does not wait for the disk
    # twice: WAL with NORMAL sync keeps the database consistent through a crash.
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.close()
    # SQLAlchemy, not the driver, says when a transaction begins (``_sqlite_begin``):
    # the driver would begin one only at the first write, after the reads that
    # decided it.
    dbapi_connection.isolation_level = None


def _sqlite_begin(connection: Connection) -> None:
    """A transaction on SQLite takes the writer's lock as it begins (BEGIN IMMEDIATE),
    SQLAlchemy's documented pysqlite recipe.

    A unit of work reads the state, checks a rule and writes: with the lock taken
    at once, nothing can change what it read before it commits. Reads outside a
    unit of work (``for_reads``) begin nothing, each statement on its own, and
    never wait for a writer.
    """
    if not connection.get_execution_options().get(READS_ONLY):
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def run_in_alembic(context: EnvironmentContext, metadata: MetaData) -> None:
    """The body of every ``env.py``: migrate on the connection ``migrate`` handed over."""
    connection = context.config.attributes["connection"]
    context.configure(
        connection=connection,
        target_metadata=metadata,
        version_table=context.config.attributes["version_table"],
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def migrate(
    engine: Engine, scripts: Path = MIGRATIONS, version_table: str = "alembic_version"
) -> None:
    """Bring one package's tables up to date; each package keeps its own version table."""
    if at_head(for_reads(engine), scripts, version_table):
        return  # alembic, only to be imported, cost every command a fifth of its start
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(scripts))
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            config.attributes["version_table"] = version_table
            command.upgrade(config, "head")
    except Exception as error:  # any driver's failure, reported in one line
        raise DatabaseError(f"cannot prepare database {engine.url!r}: {error}") from error
