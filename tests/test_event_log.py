import logging
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DatabaseError

from bot.agent.gateway import remembering
from bot.agent.providers.offline import OfflineModel
from bot.app.cli import main
from game.db import log
from game.db.engine import MIGRATIONS, open_database
from game.events import Retired
from game.history import PoolHistory
from game.model import Goal, Result, Score
from game.openfootball import Tournament
from game.pool import Pool
from game.scoring import ScoreBasis
from memory.inspect import stats, stats_text
from tests.conftest import FakeClock, fixture
from tests.databases import tampering


def test_the_database_refuses_to_update_or_delete_the_log(tournament_pool: Pool) -> None:
    tournament_pool.talk.chat("ana", "first!")
    for statement in ("UPDATE events SET kind = 'chat'", "DELETE FROM events"):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            tournament_pool.engine.begin() as db,
        ):
            db.execute(text(statement))
    assert tournament_pool.events()[-1].event.payload() == {"player": "ana", "text": "first!"}


def test_ids_and_times_increase(tournament_pool: Pool, clock: FakeClock) -> None:
    tournament_pool.talk.chat("ana", "one")
    clock.advance(minutes=1)
    tournament_pool.talk.chat("bia", "two")
    logged = tournament_pool.events()
    assert [e.id for e in logged] == sorted({e.id for e in logged})
    assert logged[-1].at - logged[-2].at == timedelta(minutes=1)
    assert [e.id for e in tournament_pool.events(after_id=logged[-2].id)] == [logged[-1].id]


def test_a_read_of_the_log_may_leave_kinds_out(tournament_pool: Pool) -> None:
    tournament_pool.predictions.place("ana", 1, Score(2, 0))
    tournament_pool.talk.chat("bia", "bah")
    tournament_pool.fixtures.kick_off(1)
    tournament_pool.predictions.place("bia", 2, Score(0, 0))
    with tournament_pool.engine.connect() as connection:
        every = [item.event.kind for item in log.read(connection)]
        read = [item.event.kind for item in log.read(connection, without=("chat", "kickoff"))]
    assert every[-4:] == ["prediction_placed", "chat", "kickoff", "prediction_placed"]
    assert read == [kind for kind in every if kind not in ("chat", "kickoff")]


def test_every_kind_of_event_is_logged(tournament_pool: Pool) -> None:
    tournament_pool.predictions.place("ana", 1, Score(2, 0))
    tournament_pool.fixtures.kick_off(1)
    tournament_pool.fixtures.record_goal(1, Goal("home", 90, added=4, scorer="Vini"))
    tournament_pool.fixtures.record_result(1, Result(Score(1, 0)))
    tournament_pool.talk.chat("bia", "bah")
    tournament_pool.predictions.set_scoring("kicktipp")
    kinds = [e.event.kind for e in tournament_pool.events()]
    for kind in ("match_scheduled", "player_joined", "prediction_placed", "kickoff", "goal"):
        assert kind in kinds
    assert kinds[-3:] == ["result", "chat", "setting_changed"]


def test_listeners_hear_events_after_commit_and_not_after_a_rollback(
    tournament_pool: Pool,
) -> None:
    heard = []
    tournament_pool.subscribe(lambda item: heard.append(item.event.kind))
    tournament_pool.talk.chat("ana", "hello")
    with pytest.raises(LookupError):
        tournament_pool.talk.chat("nobody", "hello")
    assert heard == ["chat"]


def test_the_log_alone_rebuilds_the_same_standings(tournament_pool: Pool, clock: FakeClock) -> None:
    pool = tournament_pool
    picks = {
        "ana": ["2-0", "1-1", "0-1"],
        "bia": ["1-0", "2-2", "3-1"],
        "caio": ["0-2", "0-0", "0-1"],
    }
    for handle, scores in picks.items():
        for number, pick in enumerate(scores, start=1):
            pool.predictions.place(handle, number, Score.parse("9-9"))  # later changed
            pool.predictions.place(handle, number, Score.parse(pick))
    pool.fixtures.record_result(1, Result(Score(2, 0)))
    pool.fixtures.record_result(
        2, Result(Score(1, 1), extra_time=Score(2, 2), penalties=Score(5, 4))
    )
    pool.fixtures.record_result(3, Result(Score(0, 1)))
    pool.fixtures.record_result(3, Result(Score(0, 2)))  # a correction

    history = PoolHistory.from_log(pool.events())
    assert history.standings() == pool.standings()
    assert history.standings(up_to_match=1) == pool.standings(up_to_match=1)

    pool.predictions.set_scoring("kicktipp", ScoreBasis.NINETY)
    history = PoolHistory.from_log(pool.events())
    assert history.standings() == pool.standings()
    assert [(r.rank, r.player, r.points) for r in pool.standings()] == [
        (1, "ana", 10),
        (2, "bia", 5),
        (2, "caio", 5),
    ]


def test_the_log_alone_counts_days_won_by_the_date_where_matches_are_played(
    pool: Pool, clock: FakeClock
) -> None:
    """An evening in Santa Clara ends after midnight UTC: both matches are 13 June's
    for the pool, in its table and in the table folded from the log alone, which
    would otherwise give the late one a day of its own (two days won for ana, one
    shared with bia)."""
    evening = datetime(2026, 6, 13, 19, tzinfo=UTC)
    late = datetime(2026, 6, 14, 4, tzinfo=UTC)  # 21:00 on the 13th in Santa Clara
    pool.fixtures.import_tournament(
        Tournament(
            "Evening Cup",
            (
                fixture("early", "Qatar", "Switzerland", evening),
                fixture("late", "Australia", "Turkey", late, local_date="2026-06-13"),
            ),
        )
    )
    early, night = (m.number for m in sorted(pool.matches(), key=lambda m: m.kickoff))
    clock.now = evening - timedelta(days=1)
    for handle, picks in {"ana": ("1-1", "2-0"), "bia": ("1-1", "0-0")}.items():
        pool.members.add(handle)
        pool.predictions.place(handle, early, Score.parse(picks[0]))
        pool.predictions.place(handle, night, Score.parse(picks[1]))
    for number, score in ((early, "1-1"), (night, "2-0")):
        pool.fixtures.record_result(number, Result(Score.parse(score)))

    table = {row.player: row.days for row in pool.standings()}
    assert table == {"ana": 1, "bia": 0}
    assert PoolHistory.from_log(pool.events()).standings() == pool.standings()


def test_replace_cannot_rewrite_an_event(tournament_pool: Pool) -> None:
    tournament_pool.talk.chat("ana", "first!")
    (first,) = tournament_pool.events()[-1:]
    values = f"""({first.id}, '2026-01-01 00:00:00', 'chat', '{{"player": "ana", "text": "x"}}')"""
    rewrites = {  # each database's way of writing over a row that exists
        "sqlite": [
            f"{verb} INTO events (id, at, kind, payload) VALUES {values}"
            for verb in ("INSERT OR REPLACE", "REPLACE")
        ],
        "postgresql": [
            f"INSERT INTO events (id, at, kind, payload) VALUES {values} "
            "ON CONFLICT (id) DO UPDATE SET payload = excluded.payload",
            "TRUNCATE events CASCADE",
        ],
    }
    for statement in rewrites[tournament_pool.engine.dialect.name]:
        with (
            pytest.raises(DatabaseError, match="append-only"),
            tournament_pool.engine.begin() as db,
        ):
            db.execute(text(statement))
    assert tournament_pool.events()[-1].event.payload() == {"player": "ana", "text": "first!"}
    assert tournament_pool.verify_log().intact


def test_dropped_guards_are_put_back_on_open_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"sqlite:///{tmp_path / 'pool.db'}"
    engine = open_database(url)
    with engine.begin() as db:
        db.execute(text("DROP TRIGGER events_no_delete"))
        db.execute(text("DROP TRIGGER events_no_replace"))
    engine.dispose()
    with caplog.at_level(logging.WARNING, logger="betania.db"):
        reopened = open_database(url)
    assert "events_no_delete was missing and is restored" in caplog.text
    assert "events_no_replace was missing and is restored" in caplog.text
    Pool(reopened).members.add("ana")
    with pytest.raises(DatabaseError, match="append-only"), reopened.begin() as db:
        db.execute(text("DELETE FROM events"))
    reopened.dispose()


def tamper(pool: Pool, *statements: str) -> None:
    """What someone with the database could do: lift the guards, change the log."""
    with tampering(pool.engine) as db:
        for statement in statements:
            db.execute(text(statement))


@pytest.mark.parametrize(
    ("statements", "first_bad"),
    [
        (["""UPDATE events SET payload = '{"player": "ana", "text": "I won"}' WHERE id = 5"""], 5),
        (["DELETE FROM events WHERE id = 4"], 5),
        (["UPDATE events SET at = '2026-01-01 00:00:00' WHERE id = 6"], 6),
    ],
)
def test_log_verify_names_the_first_tampered_or_missing_event(
    tournament_pool: Pool,
    capsys: pytest.CaptureFixture[str],
    statements: list[str],
    first_bad: int,
) -> None:
    for n in range(4):
        tournament_pool.talk.chat("ana", f"line {n}")
    url = str(tournament_pool.engine.url)
    assert main(["log", "--verify", "--db", url]) == 0
    count = len(tournament_pool.events())
    assert f"the log is intact: {count} events" in capsys.readouterr().out
    tamper(tournament_pool, *statements)
    assert main(["log", "--verify", "--db", url]) == 1
    assert f"the log is broken at event {first_bad}:" in capsys.readouterr().err


def test_a_pool_from_before_the_chain_is_linked_when_it_migrates(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        config.attributes["version_table"] = "alembic_version"
        command.upgrade(config, "0002")
        for n in range(3):
            connection.execute(
                text(
                    "INSERT INTO events (at, kind, handle, payload) VALUES "
                    f"('2026-06-0{n + 1} 12:00:00.000000', 'chat', 'ana', "
                    f"""'{{"player": "ana", "text": "old {n}"}}')"""
                )
            )
    engine.dispose()
    pool = Pool(open_database(url))
    assert pool.verify_log().text() == (
        "the log is intact: 3 events, each chained to the one before"
    )
    pool.members.add("ana")
    pool.talk.chat("ana", "new")
    assert pool.verify_log().checked == 5
    with pytest.raises(DatabaseError, match="append-only"), pool.engine.begin() as db:
        db.execute(text("UPDATE events SET kind = 'x'"))


class _OldModelCall:
    """A ``model_call`` event as pools before memory's own record logged it."""

    kind = "model_call"
    match_number = None
    handle = None

    def payload(self) -> dict[str, object]:
        return {
            "provider": "anthropic",
            "model": "claude-x",
            "task": "remark",
            "input_tokens": 1200,
            "output_tokens": 40,
            "cache_read_tokens": 900,
            "cache_write_tokens": 0,
            "latency_ms": 800,
            "error": None,
            "fallback": False,
        }


def test_an_older_log_keeps_its_model_calls_and_memory_counts_them(tmp_path: Path) -> None:
    pool = Pool(open_database(f"sqlite:///{tmp_path / 'old.db'}"))
    with pool.engine.begin() as connection:
        log.append(connection, _OldModelCall(), datetime(2026, 6, 11, 20, tzinfo=UTC))
    (item,) = pool.events()
    assert isinstance(item.event, Retired) and item.event.name == "model_call"
    assert pool.verify_log().intact
    keeper, _gateway = remembering(
        pool, OfflineModel()
    )  # memory's migration copies the figures over
    keeper.enable()
    report = stats(keeper.store, date(2026, 6, 12))
    calls = report["model_calls"]
    assert {k: calls[k] for k in ("calls", "input_tokens", "output_tokens", "cache_read_tokens")} == {
        "calls": 1, "input_tokens": 1200, "output_tokens": 40, "cache_read_tokens": 900,
    }  # fmt: skip
    # at $2 input, $0.20 cache read, $10 output per million tokens
    assert calls["cost_usd"] == pytest.approx((1200 * 2 + 900 * 0.2 + 40 * 10) / 1e6)
    assert calls["cost_without_cache_usd"] == pytest.approx((2100 * 2 + 40 * 10) / 1e6)
    assert "900 read from it (43% of all input)" in stats_text(report)
