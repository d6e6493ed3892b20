from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import insert, select

from bot.app.cli import build_parser
from bot.app.settings import Settings
from game.db.engine import MIGRATIONS, DatabaseError, open_database
from game.db.schema import metadata, players


def test_the_migrations_build_exactly_the_schema_the_code_uses(tmp_path: Path) -> None:
    engine = open_database(f"sqlite:///{tmp_path / 'a.db'}")
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), metadata)
    assert differences == []


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def test_opening_twice_migrates_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.db'}"
    open_database(url).dispose()
    with open_database(url).connect() as connection:
        version = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    # the newest migration, as alembic reads the migrations (one head: no branch left open)
    newest = ScriptDirectory.from_config(alembic_config()).get_heads()
    assert [version] == newest


def test_times_go_in_aware_and_come_out_utc(tmp_path: Path) -> None:
    engine = open_database(f"sqlite:///{tmp_path / 'a.db'}")
    sao_paulo_noon = datetime(2026, 6, 11, 12, 0, tzinfo=timezone(timedelta(hours=-3)))
    with engine.begin() as connection:
        connection.execute(
            insert(players).values(
                handle="ana", display_name="Ana", is_admin=False, created_at=sao_paulo_noon
            )
        )
        stored = connection.execute(select(players.c.created_at)).scalar_one()
    assert stored == datetime(2026, 6, 11, 15, 0, tzinfo=UTC)
    assert stored.tzinfo is UTC
    with pytest.raises(Exception, match="naive"), engine.begin() as connection:
        connection.execute(
            insert(players).values(
                handle="bia", display_name="Bia", is_admin=False, created_at=datetime(2026, 1, 1)
            )
        )


def test_where_the_database_lives(tmp_path: Path) -> None:
    def url(environ: dict[str, str], *flags: str) -> str:
        args = build_parser().parse_args(["players", "list", *flags])
        return Settings.read(args, environ).database_url()

    home = {"XDG_DATA_HOME": str(tmp_path / "xdg")}
    assert url(home) == f"sqlite:///{tmp_path / 'xdg' / 'betania' / 'betania.db'}"
    assert (
        url(home, "--data-dir", str(tmp_path / "d")) == f"sqlite:///{tmp_path / 'd' / 'betania.db'}"
    )
    assert (tmp_path / "d").is_dir()
    from_env = {**home, "BETANIA_DB": "sqlite:///from-env.db"}
    assert url(from_env, "--data-dir", str(tmp_path / "d")) == "sqlite:///from-env.db"
    assert url(from_env, "--db", "sqlite:///flag.db") == "sqlite:///flag.db"


@pytest.mark.parametrize("url", ["nonsense", "nosuchdb://x/y", "sqlite:////nonexistent-dir/x/a.db"])
def test_a_bad_database_url_is_one_clear_error(url: str) -> None:
    with pytest.raises(DatabaseError, match="cannot"):
        open_database(url)
