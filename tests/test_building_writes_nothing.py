"""Building an object never touches the database: her seat in the pool, memory's
recovery of an interrupted rebuild and memory's tables brought up to date are start
steps, taken where they are wired."""

from typing import Any

from sqlalchemy import MetaData, select

from bot.agent.commentator import Commentator
from bot.agent.gateway import Gateway
from bot.agent.providers.offline import OfflineModel
from game.pool import Pool
from memory.diary_shelf import DIARY_BEFORE_REBUILD
from memory.keeper import MemoryConfig, MemoryKeeper, contexts_for
from memory.store import MEMORY_STATE, MemoryStore, open_store
from tests.conftest import FakeClock, ScriptedModel, play


def everything_in(pool: Pool) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in a stable order: equal means no write at all."""
    tables = MetaData()
    tables.reflect(pool.engine)
    with pool.engine.connect() as connection:
        return {
            name: sorted(
                (tuple(row) for row in connection.execute(select(table))),
                key=repr,
            )
            for name, table in tables.tables.items()
        }


def test_building_her_writes_nothing_and_start_seats_her_once(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    config = MemoryConfig()
    store = open_store(tournament_pool)
    contexts = contexts_for(store, config)
    gateway = Gateway(tournament_pool, store, contexts, ScriptedModel(), config)
    keeper = MemoryKeeper(tournament_pool, gateway, config, store, contexts)
    keeper.enable()
    play(tournament_pool, clock, 1, "2-0")
    before = everything_in(tournament_pool)

    her = Commentator(keeper, gateway)

    assert everything_in(tournament_pool) == before
    assert tournament_pool.player(her.her, with_keys=False) is None
    her.start()
    assert tournament_pool.player(her.her, with_keys=False) is not None
    seated = everything_in(tournament_pool)
    Commentator(keeper, gateway).start()  # a restart: she has her seat already
    assert everything_in(tournament_pool) == seated


def test_building_memory_writes_nothing_and_start_recovers_a_rebuild(
    tournament_pool: Pool,
) -> None:
    config = MemoryConfig()
    before = everything_in(tournament_pool)
    assert "memory_state" not in before
    MemoryStore(tournament_pool)  # memory's tables are not there yet, and stay so
    assert everything_in(tournament_pool) == before
    store = open_store(tournament_pool)
    with store.write() as connection:  # a rebuild stopped half-way: the old diary kept
        MEMORY_STATE.set(connection, DIARY_BEFORE_REBUILD, "[]")
    contexts = contexts_for(store, config)
    gateway = Gateway(tournament_pool, store, contexts, OfflineModel(), config)
    before = everything_in(tournament_pool)

    keeper = MemoryKeeper(tournament_pool, gateway, config, store, contexts)

    assert everything_in(tournament_pool) == before
    keeper.start()
    with store.read() as connection:
        assert MEMORY_STATE.get(connection, DIARY_BEFORE_REBUILD) is None
