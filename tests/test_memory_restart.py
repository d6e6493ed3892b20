from alembic import command
from alembic.config import Config
from sqlalchemy import text

from bot.agent.gateway import remembering
from game.model import Score
from game.pool import Pool
from memory import diary, facts
from memory.diary import DiaryConfig
from memory.keeper import MemoryConfig
from memory.store import AGENT_STATE, MEMORY_STATE, MIGRATIONS, open_store
from tests.conftest import FakeClock, ScriptedModel, play, tournament

CONFIG = MemoryConfig(diary=DiaryConfig(threshold=3, keep=1))


def setup(pool: Pool, count: int = 8) -> None:
    pool.fixtures.import_tournament(tournament(count))
    for handle in ("ana", "bia"):
        pool.members.add(handle)
        for number in range(1, count + 1):
            pool.predictions.place(handle, number, Score(1, 1))


def entries(pool: Pool) -> list[tuple[int, ...]]:
    with pool.work.read() as connection:
        narrative, rest = diary.read(connection)
    return ([narrative.covers] if narrative else []) + [e.covers for e in rest]


def test_a_restart_mid_tournament_handles_everything_once(pool: Pool, clock: FakeClock) -> None:
    setup(pool)
    first, _ = remembering(pool, ScriptedModel(), CONFIG)
    first.enable()
    for number in range(1, 4):
        play(pool, clock, number, "1-1")
        first.catch_up()
    # down for a while: results and chat keep arriving in the log
    play(pool, clock, 4, "2-1")
    pool.talk.chat("ana", "@betania remember that I never pick draws")
    play(pool, clock, 5, "0-0")

    model = ScriptedModel()
    second, _ = remembering(pool, model, CONFIG)
    assert second.enable() is False  # already on: nothing is adopted again
    second.catch_up()
    second.catch_up()
    assert model.tasks().count("diary_entry") == 2  # #4 and #5, and nothing before
    told = sorted(n for covers in entries(pool) for n in covers)
    assert told == [1, 2, 3, 4, 5]
    with pool.work.read() as connection:
        assert [f.text for f in facts.current(connection, "ana")] == ["ana never picks draws"]
    assert second.cursor() == pool.last_event_id()


def test_memory_switched_on_mid_tournament_writes_no_story_for_the_past(
    pool: Pool, clock: FakeClock
) -> None:
    setup(pool, count=6)
    for number in range(1, 4):
        play(pool, clock, number, "3-0")
    model = ScriptedModel()
    keeper, _gateway = remembering(pool, model, CONFIG)
    assert keeper.enable() is True
    keeper.catch_up()
    assert entries(pool) == [] and model.calls == []
    assert keeper.resolved() == {1, 2, 3}

    for number in range(4, 7):
        play(pool, clock, number, "0-1")
        keeper.catch_up()
    # the tournament is over: the closing compaction leaves a narrative + the newest entry
    assert entries(pool) == [(4, 5), (6,)]
    assert model.tasks().count("diary_entry") == 3


def test_memory_switched_on_mid_tournament_keeps_what_players_told_her(
    pool: Pool, clock: FakeClock
) -> None:
    setup(pool, count=6)
    pool.talk.chat("ana", "@betania remember that I keep bees")
    play(pool, clock, 1, "3-0")
    clock.advance(days=1)
    pool.talk.chat("bia", "@betania remember that ana cheats")  # not hers to tell: never stored
    pool.talk.chat("bia", "@betania remember that I am in Lisbon until 20 jun")
    play(pool, clock, 2, "0-0")
    model = ScriptedModel()
    keeper, _gateway = remembering(pool, model, CONFIG)
    assert keeper.enable() is True
    keeper.catch_up()
    with pool.work.read() as connection:
        told = [(f.handle, f.text, f.learned_on.isoformat()) for f in facts.current(connection)]
    assert told == [
        ("ana", "ana keeps bees", "2026-06-01"),
        ("bia", "bia is in Lisbon until 20 jun", "2026-06-12"),
    ]
    assert entries(pool) == [] and model.calls == []  # facts, but no story and no call
    assert keeper.enable() is False


def test_an_upgraded_pool_keeps_where_her_reactions_stood(pool: Pool) -> None:
    """Her cursor and digest day lived in memory's table before m0008; an upgrade moves
    them to her own, so she neither reacts twice nor posts a second digest that day."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with pool.engine.begin() as connection:
        config.attributes["connection"] = connection
        config.attributes["version_table"] = "memory_alembic_version"
        command.upgrade(config, "m0007")
        connection.execute(
            text(
                "INSERT INTO memory_state (key, value) VALUES ('commentator_cursor', '42'),"
                " ('last_digest_day', '2026-06-12'), ('last_handled_event_id', '40')"
            )
        )
    store = open_store(pool)  # what serve does on start: brings memory up to date
    with store.read() as connection:
        assert AGENT_STATE.get(connection, "commentator_cursor") == "42"
        assert AGENT_STATE.get(connection, "last_digest_day") == "2026-06-12"
        assert MEMORY_STATE.get(connection, "commentator_cursor") is None
        assert MEMORY_STATE.get(connection, "last_handled_event_id") == "40"  # memory's own stays
