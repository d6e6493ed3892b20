import dataclasses
from datetime import UTC, date, datetime

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DatabaseError

from bot.agent.gateway import remembering
from bot.agent.providers.base import ModelCall
from game.model import Goal, Result, Score
from game.pool import Pool
from memory import diary, inspect
from memory.diary import DiaryConfig
from memory.keeper import MemoryConfig
from memory.store import open_store
from memory.usage import recorded
from tests.conftest import FakeClock, ScriptedModel, fails, play, tournament
from tests.databases import fail_on, stop_failing

SMALL = MemoryConfig(diary=DiaryConfig(threshold=3, keep=1))


@pytest.fixture
def long_pool(pool: Pool) -> Pool:
    pool.fixtures.import_tournament(tournament(8))
    for handle in ("ana", "bia"):
        pool.members.add(handle)
    return pool


def read_diary(pool: Pool) -> tuple[diary.DiaryEntry | None, list[diary.DiaryEntry]]:
    with pool.work.read() as connection:
        return diary.read(connection)


def test_each_finished_match_gets_exactly_one_dated_entry(
    long_pool: Pool, clock: FakeClock
) -> None:
    model = ScriptedModel()
    keeper, _gateway = remembering(long_pool, model, SMALL)
    keeper.enable()
    long_pool.predictions.place("ana", 1, Score(2, 0))
    long_pool.predictions.place("bia", 1, Score(0, 0))
    play(long_pool, clock, 1, "2-0", [Goal("home", 9, scorer="Zé"), Goal("home", 80, scorer="Zé")])
    long_pool.talk.chat("ana", "told you!!")  # after the whistle: not a live line of match 1
    keeper.catch_up()
    keeper.catch_up()
    remembering(long_pool, model, SMALL)[0].catch_up()  # a restart

    _, entries = read_diary(long_pool)
    assert [(e.covers, e.first_date.isoformat()) for e in entries] == [((1,), "2026-06-11")]
    assert model.tasks() == ["diary_entry"]
    call = model.calls[0]
    assert "Team0 2-0 Team1" in call.prompt and "10 pts: ana 2-0" in call.prompt
    assert "9' goal Team0 (Zé), 1-0" in call.prompt  # from the working memory


@pytest.mark.parametrize("language", ["en", "pt"])
def test_the_diary_is_asked_for_in_the_pool_s_language(
    long_pool: Pool, clock: FakeClock, language: str
) -> None:
    """Her lines are held to the pool's language: an entry asked "in English" of a
    Portuguese pool is one the contract then refuses."""
    model = ScriptedModel()
    keeper, _gateway = remembering(long_pool, model, dataclasses.replace(SMALL, language=language))
    keeper.enable()
    play(long_pool, clock, 1, "2-0")
    keeper.catch_up()
    (call,) = [c for c in model.calls if c.task == "diary_entry"]
    named = "in English" if language == "en" else "in Brazilian Portuguese"
    assert named in call.prompt and ("in English" in call.prompt) == (language == "en")


def test_the_database_refuses_a_second_entry_for_a_match(long_pool: Pool, clock: FakeClock) -> None:
    store = open_store(long_pool)
    with store.write() as connection:
        diary.add_match_entry(connection, 1, "one", clock.now.date(), clock.now, 1)
    with pytest.raises(DatabaseError), store.write() as connection:
        diary.add_match_entry(connection, 1, "two", clock.now.date(), clock.now, 2)


def test_old_entries_fuse_into_a_narrative_and_the_newest_stay(
    long_pool: Pool, clock: FakeClock
) -> None:
    keeper, _gateway = remembering(long_pool, ScriptedModel(), SMALL)
    keeper.enable()
    for number in range(1, 4):
        play(long_pool, clock, number, "1-0")
        keeper.catch_up()
    narrative, entries = read_diary(long_pool)
    assert narrative is None and len(entries) == 3  # at the threshold, not past it

    play(long_pool, clock, 4, "1-1")
    keeper.catch_up()
    narrative, entries = read_diary(long_pool)
    assert narrative is not None and narrative.covers == (1, 2, 3)
    assert (narrative.first_date.day, narrative.last_date.day) == (11, 13)
    assert [e.covers for e in entries] == [(4,)]


def played_to_its_final(pool: Pool, clock: FakeClock, keep: int) -> Pool:
    """An eight-match cup whose last match is its final, every match told in the diary
    (``keep`` entries left in detail at the end); ana called every one, 2-1."""
    cup = tournament(8)
    final = dataclasses.replace(cup.fixtures[-1], stage="Final")
    pool.fixtures.import_tournament(dataclasses.replace(cup, fixtures=(*cup.fixtures[:-1], final)))
    for handle in ("ana", "bia"):
        pool.members.add(handle)
    keeper, _gateway = remembering(
        pool, ScriptedModel(), MemoryConfig(diary=DiaryConfig(threshold=3, keep=keep))
    )
    keeper.enable()
    for number in range(1, 9):
        pool.predictions.place("ana", number, Score(2, 1))
        play(pool, clock, number, "2-1")
        keeper.catch_up()
    return pool


def test_the_final_whistle_closes_the_diary(pool: Pool, clock: FakeClock) -> None:
    # A cup ends at its final: a group match as its last crowns nobody (issue 37).
    narrative, entries = read_diary(played_to_its_final(pool, clock, keep=2))
    assert narrative is not None
    assert [e.covers for e in entries] == [(7,), (8,)]
    assert set(narrative.covers) | {7, 8} == set(range(1, 9))
    # the final keeps its own entry after the narrative: the narrative, of matches 1 to 6,
    # crowns nobody before it (the wrap-up tells how it ended)
    assert "champions" not in narrative.text and "The end" not in narrative.text


def test_a_narrative_that_tells_the_final_ends_as_the_wrap_up_does(
    pool: Pool, clock: FakeClock
) -> None:
    narrative, entries = read_diary(played_to_its_final(pool, clock, keep=0))
    assert narrative is not None and entries == [] and 8 in narrative.covers
    assert narrative.text.endswith(
        "The end: Team14 champions, beating Team15 in the final; "
        "the pool won by ana with 80 points (podium: ana (80), bia (0))."
    )


def test_a_failing_fusion_keeps_every_entry_and_tries_again_later(
    long_pool: Pool, clock: FakeClock
) -> None:
    model = ScriptedModel(diary_fusion=fails())
    keeper, _gateway = remembering(long_pool, model, SMALL)
    keeper.enable()
    for number in range(1, 6):
        play(long_pool, clock, number, "0-0")
        keeper.catch_up()
    narrative, entries = read_diary(long_pool)
    assert narrative is None and [e.covers for e in entries] == [(n,) for n in range(1, 6)]
    assert model.tasks().count("diary_fusion") == 2

    model.answers.pop("diary_fusion")  # the model is back
    play(long_pool, clock, 6, "0-0")
    keeper.catch_up()
    narrative, entries = read_diary(long_pool)
    assert narrative is not None and narrative.covers == (1, 2, 3, 4, 5)


def test_a_crash_in_the_middle_of_a_compaction_leaves_the_old_entries(
    long_pool: Pool, clock: FakeClock
) -> None:
    keeper, _gateway = remembering(long_pool, ScriptedModel(), SMALL)
    keeper.enable()
    for number in range(1, 4):
        play(long_pool, clock, number, "3-1")
        keeper.catch_up()
    # The database fails after the narrative is inserted, when the old entries go.
    fail_on(long_pool.engine, "diary_entries", "DELETE")
    play(long_pool, clock, 4, "3-1")
    with pytest.raises(DatabaseError, match="power cut"):
        keeper.catch_up()
    narrative, entries = read_diary(long_pool)
    assert narrative is None and [e.covers for e in entries] == [(1,), (2,), (3,), (4,)]

    stop_failing(long_pool.engine, "diary_entries")
    remembering(long_pool, ScriptedModel(), SMALL)[
        0
    ].catch_up()  # the restart finishes what was due
    narrative, entries = read_diary(long_pool)
    assert narrative is not None and [e.covers for e in entries] == [(4,)]


def test_a_failing_entry_is_written_by_the_offline_writer(
    long_pool: Pool, clock: FakeClock
) -> None:
    keeper, _gateway = remembering(long_pool, ScriptedModel(diary_entry=fails()), SMALL)
    keeper.enable()
    play(long_pool, clock, 1, "1-2")
    keeper.catch_up()
    _, entries = read_diary(long_pool)
    assert len(entries) == 1 and "Team0 1-2 Team1" in entries[0].text
    with long_pool.work.read() as connection:
        (call,) = recorded(connection)
    assert (call.task, call.provider, call.fallback) == ("diary_entry", "scripted", True)
    assert call.outcome == "fallen back: the model is down" and call.response == entries[0].text


def test_a_corrected_result_tells_no_second_story(long_pool: Pool, clock: FakeClock) -> None:
    keeper, _gateway = remembering(long_pool, ScriptedModel(), SMALL)
    keeper.enable()
    play(long_pool, clock, 1, "1-0")
    long_pool.fixtures.record_result(1, Result(Score(2, 0)))
    keeper.catch_up()
    _, entries = read_diary(long_pool)
    assert [e.covers for e in entries] == [(1,)]


def test_the_diary_can_be_rebuilt_from_the_log(long_pool: Pool, clock: FakeClock) -> None:
    keeper, _gateway = remembering(long_pool, ScriptedModel(), SMALL)
    keeper.enable()
    for number in range(1, 6):
        play(long_pool, clock, number, "2-2")
        keeper.catch_up()
    before = read_diary(long_pool)
    assert keeper.rebuild_diary() == 5
    after = read_diary(long_pool)
    assert after[0].covers == before[0].covers
    assert [e.covers for e in after[1]] == [e.covers for e in before[1]]
    assert [e.text for e in after[1]] == [e.text for e in before[1]]


class PowerCut(BaseException):
    """The process dies: nothing after this point runs, nothing is cleaned up."""


def test_a_crash_in_the_middle_of_a_rebuild_leaves_the_old_diary(
    long_pool: Pool, clock: FakeClock
) -> None:
    keeper, _gateway = remembering(long_pool, ScriptedModel(), SMALL)
    keeper.enable()
    for number in range(1, 6):
        play(long_pool, clock, number, "1-0")
        keeper.catch_up()
    before = read_diary(long_pool)
    assert inspect.stats(keeper.store, clock.now.date())["diary"]["missing_matches"] == []
    entries = iter(range(100))

    def dies_on_the_third_entry(call: ModelCall) -> str:
        if next(entries) == 2:
            raise PowerCut
        return f"The entry for match {call.request.story.number}."

    crashing, _ = remembering(long_pool, ScriptedModel(diary_entry=dies_on_the_third_entry), SMALL)
    with pytest.raises(PowerCut):
        crashing.rebuild_diary()
    with long_pool.work.read() as connection:
        assert len(diary.snapshot(connection)) == 2  # half a diary on disk
    restarted, _ = remembering(long_pool, ScriptedModel(), SMALL)  # what serve does on start
    assert read_diary(long_pool) == before
    assert not restarted.diary.recover_interrupted_rebuild()  # once is enough
    assert restarted.rebuild_diary() == 5


def test_memory_stats_flags_a_diary_that_misses_a_finished_match(
    long_pool: Pool, clock: FakeClock
) -> None:
    keeper, _gateway = remembering(long_pool, ScriptedModel(), SMALL)
    keeper.enable()
    for number in range(1, 4):
        play(long_pool, clock, number, "1-0")
        keeper.catch_up()
    with long_pool.engine.begin() as connection:
        connection.execute(text("DELETE FROM diary_entries WHERE match_number = 2"))
    report = inspect.stats(keeper.store, clock.now.date())
    assert report["diary"]["missing_matches"] == [2]
    assert "WARNING: the diary has no story for 1 finished match(es) it has passed: #2" in (
        inspect.stats_text(report)
    )


def test_long_entries_fuse_before_the_count_says_so() -> None:
    day = date(2026, 7, 4)
    at = datetime(2026, 7, 4, tzinfo=UTC)

    def entries(words: int) -> list[diary.DiaryEntry]:
        return [
            diary.DiaryEntry(n, "match", "word " * words, (n,), day, day, at) for n in range(1, 5)
        ]

    config = DiaryConfig(threshold=8, keep=2, detail_tokens=300)
    assert diary.to_fuse(entries(40), config) == []  # four group-day entries: room to spare
    knockouts = entries(100)  # extra time, penalties, five scorers: a prompt's worth
    assert [e.covers for e in diary.to_fuse(knockouts, config)] == [(1,), (2,)]
