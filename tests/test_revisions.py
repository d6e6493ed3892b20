"""A database already at its newest migration opens without alembic; any other is migrated
by alembic as before (``game.db.revisions``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text

from game.db.engine import MIGRATIONS, for_reads, open_database
from game.db.revisions import at_head, heads
from memory.store import MIGRATIONS as MEMORY_MIGRATIONS


def alembic_heads(scripts: Path) -> frozenset[str]:
    config = Config()
    config.set_main_option("script_location", str(scripts))
    return frozenset(ScriptDirectory.from_config(config).get_heads())


def test_the_heads_read_from_the_files_are_alembics_own() -> None:
    assert heads(MIGRATIONS) == alembic_heads(MIGRATIONS)
    assert heads(MEMORY_MIGRATIONS) == alembic_heads(MEMORY_MIGRATIONS)


def revision_file(versions: Path, name: str, body: str) -> None:
    (versions / name).write_text(f"{body}\n\ndef upgrade() -> None:\n    pass\n")


def test_two_branches_and_their_merge_are_read_as_alembic_reads_them(tmp_path: Path) -> None:
    versions = tmp_path / "versions"
    versions.mkdir()
    (tmp_path / "script.py.mako").write_text("")
    revision_file(versions, "a.py", 'revision = "a"\ndown_revision = None')
    revision_file(versions, "b.py", 'revision = "b"\ndown_revision = "a"')
    revision_file(versions, "c.py", 'revision: str = "c"\ndown_revision = "a"')
    assert heads(tmp_path) == alembic_heads(tmp_path) == {"b", "c"}
    revision_file(versions, "d.py", 'revision = "d"\ndown_revision = ("b", "c")')
    assert heads(tmp_path) == alembic_heads(tmp_path) == {"d"}


def test_a_revision_only_running_its_file_would_tell_is_left_to_alembic(tmp_path: Path) -> None:
    versions = tmp_path / "versions"
    versions.mkdir()
    revision_file(versions, "a.py", 'revision = "a"\ndown_revision = None')
    revision_file(versions, "b.py", 'revision = "b".upper()\ndown_revision = "a"')
    assert heads(tmp_path) is None


def test_a_database_one_migration_behind_is_still_migrated(database_url: str) -> None:
    engine = create_engine(database_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        config.attributes["version_table"] = "alembic_version"
        command.upgrade(config, "0008")
    assert not at_head(engine, MIGRATIONS, "alembic_version")
    assert "jokers" not in inspect(engine).get_table_names()
    engine.dispose()

    opened = open_database(database_url)  # 0009 adds the jokers
    assert "jokers" in inspect(opened).get_table_names()
    assert at_head(for_reads(opened), MIGRATIONS, "alembic_version")
    with opened.connect() as connection:
        stored = connection.scalar(text("SELECT version_num FROM alembic_version"))
    assert {stored} == alembic_heads(MIGRATIONS)
    opened.dispose()


def test_an_empty_database_is_not_at_head(database_url: str) -> None:
    engine = create_engine(database_url)
    assert not at_head(engine, MIGRATIONS, "alembic_version")  # no version table at all
    engine.dispose()


def test_opening_a_database_at_head_never_imports_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pool.db'}"
    open_database(url).dispose()  # made and migrated: alembic's work, once
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from game.db.engine import open_database;"
            f" open_database({url!r}).dispose(); print(sorted(sys.modules))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("'")
    assert "game.db.engine" in loaded
    assert "alembic" not in loaded
