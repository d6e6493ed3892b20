"""The SQL standings and the plain-Python rule must agree on every input."""

import json
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frontends.commands import Caller, Commands
from game.db.engine import open_database
from game.matchdays import DAYS_FIRST
from game.model import Goal, Prediction, Result, Score
from game.pool import Pool
from game.rules import RuleViolation
from game.scoring import PRESETS, ScoreBasis
from game.standings import compute_standings
from tests.conftest import FakeClock, play, small_tournament, the_2022_cup_to_come

HANDLES = ["ana", "bia", "caio", "duda"]
goals = st.integers(0, 4)
scores = st.builds(Score, goals, goals)


@st.composite
def results(draw: st.DrawFn) -> Result:
    full_time = draw(scores)
    if full_time.outcome != 0 or not draw(st.booleans()):
        return Result(full_time)
    extra = Score(
        full_time.home + draw(st.integers(0, 2)), full_time.away + draw(st.integers(0, 2))
    )
    penalties = None
    if extra.outcome == 0:
        penalties = draw(st.sampled_from([Score(4, 3), Score(2, 4), Score(5, 4)]))
    return Result(full_time, extra, penalties)


def scored_pool(
    picks: dict[tuple[str, int], Score],
    played: dict[int, Result],
    preset_name: str,
    basis: ScoreBasis,
) -> Pool:
    """A pool in memory with the small cup, these picks and these results, scored so."""
    pool = Pool(open_database("sqlite://"), FakeClock(datetime(2026, 6, 1, tzinfo=UTC)))
    pool.fixtures.import_tournament(small_tournament())
    pool.predictions.set_scoring(preset_name, basis)
    for handle in HANDLES:
        pool.members.add(handle)
    for (handle, number), score in picks.items():
        pool.predictions.place(handle, number, score)
    for number, result in played.items():
        pool.fixtures.record_result(number, result)
    return pool


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.dictionaries(st.tuples(st.sampled_from(HANDLES), st.integers(1, 4)), scores),
    played=st.dictionaries(st.integers(1, 4), results()),
    preset_name=st.sampled_from(sorted(PRESETS)),
    basis=st.sampled_from(list(ScoreBasis)),
    up_to=st.one_of(st.none(), st.integers(1, 4)),
)
def test_sql_standings_match_the_rule(
    picks: dict[tuple[str, int], Score],
    played: dict[int, Result],
    preset_name: str,
    basis: ScoreBasis,
    up_to: int | None,
) -> None:
    pool = scored_pool(picks, played, preset_name, basis)
    expected = compute_standings(
        HANDLES,
        [Prediction(handle, number, score) for (handle, number), score in picks.items()],
        played,
        PRESETS[preset_name],
        basis,
        None if up_to is None else set(range(1, up_to + 1)),  # the test cup kicks off in order
        days=pool.match_days(),
    )
    assert pool.standings(up_to_match=up_to) == expected
    pool.engine.dispose()


def test_sql_ranks_share_places_on_ties(tournament_pool: Pool) -> None:
    for handle, pick in (("ana", "1-0"), ("bia", "1-0"), ("caio", "0-1")):
        tournament_pool.predictions.place(handle, 1, Score.parse(pick))
    tournament_pool.fixtures.record_result(1, Result(Score(1, 0)))
    table = tournament_pool.standings()
    assert [(r.rank, r.player, r.points) for r in table] == [
        (1, "ana", 10),
        (1, "bia", 10),
        (3, "caio", 0),
    ]


def test_standings_as_of_a_match_store_nothing(tournament_pool: Pool) -> None:
    tournament_pool.predictions.place("ana", 1, Score(1, 0))
    tournament_pool.predictions.place("ana", 2, Score(1, 0))
    tournament_pool.fixtures.record_result(1, Result(Score(1, 0)))
    tournament_pool.fixtures.record_result(2, Result(Score(2, 0)))
    events_before = len(tournament_pool.events())
    assert tournament_pool.standings(up_to_match=1)[0].points == 10
    assert tournament_pool.standings()[0].points == 15
    assert len(tournament_pool.events()) == events_before


def test_the_table_is_computed_once_until_something_moves_it(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """Two hundred sessions showing the table after a goal cost one query, not two hundred;
    chat and picks before kick-off leave it as it was, a result moves it."""
    from sqlalchemy import event

    from tests.conftest import play

    computed: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        if "rank() OVER" in statement:
            computed.append(statement)

    event.listen(tournament_pool.engine, "before_cursor_execute", count)
    tournament_pool.predictions.place("ana", 1, Score(2, 0))
    play(tournament_pool, clock, 1, "2-0")
    tables = [tournament_pool.standings() for _ in range(200)]
    assert len(computed) == 1 and all(t == tables[0] for t in tables)
    assert tables[0][0].player == "ana" and tables[0][0].points == 10
    tournament_pool.talk.chat("bia", "nice one")
    tournament_pool.predictions.place("bia", 2, Score(1, 1))  # before its kick-off
    assert tournament_pool.standings() == tables[0] and len(computed) == 1
    # After the last match to finish, the table is the table now: not computed again.
    assert tournament_pool.standings(up_to_match=1) == tables[0] and len(computed) == 1
    tournament_pool.standings(before_match=1)  # another table at the same mark: its own
    tournament_pool.standings(before_match=1)
    assert len(computed) == 2
    play(tournament_pool, clock, 2, "1-1")  # the table moves
    points = {row.player: row.points for row in tournament_pool.standings()}
    assert points["bia"] == 10 and len(computed) == 3
    assert tournament_pool.standings(up_to_match=2) == tournament_pool.standings()
    assert len(computed) == 3


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.dictionaries(st.tuples(st.sampled_from(HANDLES), st.integers(1, 4)), scores),
    played=st.dictionaries(st.integers(1, 3), results()),
    running=st.lists(st.tuples(st.sampled_from(["home", "away"]), st.integers(1, 120)), max_size=7),
    preset_name=st.sampled_from(sorted(PRESETS)),
    basis=st.sampled_from(list(ScoreBasis)),
)
def test_the_live_table_counts_the_match_in_play_as_if_it_ended_now(
    picks: dict[tuple[str, int], Score],
    played: dict[int, Result],
    running: list[tuple[str, int]],
    preset_name: str,
    basis: ScoreBasis,
) -> None:
    """Match 4 is in play with ``running`` goals (extra time past the 90th minute);
    the SQL provisional table equals the rule applied to its running result."""
    pool = scored_pool(picks, played, preset_name, basis)
    pool.fixtures.kick_off(4)
    for side, minute in sorted(running, key=lambda goal: goal[1]):
        pool.fixtures.record_goal(4, Goal(side, minute))

    in_play = pool.match(4)
    finished = {**played, 4: in_play.running_result()}
    predictions = [Prediction(handle, number, score) for (handle, number), score in picks.items()]
    rule = PRESETS[preset_name]
    days = pool.match_days()
    assert pool.standings(live=True) == compute_standings(
        HANDLES, predictions, finished, rule, basis, days=days, in_play={4}
    )
    assert pool.standings() == compute_standings(
        HANDLES, predictions, played, rule, basis, days=days
    )
    pool.engine.dispose()


def test_the_live_table_moves_with_each_goal_and_extra_time_counts_after_a_level_ninety(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    for handle, pick in (("ana", "1-0"), ("bia", "1-1"), ("caio", "2-1")):
        tournament_pool.predictions.place(handle, 1, Score.parse(pick))
    clock.now = tournament_pool.match(1).kickoff
    tournament_pool.fixtures.kick_off(1)

    def live() -> dict[str, int]:
        return {row.player: row.points for row in tournament_pool.standings(live=True)}

    assert live() == {"ana": 0, "bia": 7, "caio": 0}  # 0-0: a draw, for now
    tournament_pool.fixtures.record_goal(1, Goal("home", 20))
    assert live() == {"ana": 10, "bia": 0, "caio": 7}
    tournament_pool.fixtures.record_goal(1, Goal("away", 90, added=4))
    assert live() == {"ana": 0, "bia": 10, "caio": 0}
    tournament_pool.fixtures.record_goal(1, Goal("home", 105))  # extra time: 2-1 at the end
    assert live() == {"ana": 7, "bia": 0, "caio": 10}
    tournament_pool.predictions.set_scoring("classic", ScoreBasis.NINETY)
    assert live() == {"ana": 0, "bia": 10, "caio": 0}  # 1-1 after 90 minutes
    assert {row.points for row in tournament_pool.standings()} == {0}  # the table: none ended


def test_days_won_break_a_tie_on_points_before_exact_hits_when_the_pool_says_so(
    tournament_pool: Pool,
) -> None:
    """ana's one exact call on the first day against bia's two outcomes on the next two:
    level on points; exact hits put ana ahead by default, days won put bia ahead."""
    pool = tournament_pool
    for handle, number, pick in (("ana", 1, "2-1"), ("bia", 2, "1-0"), ("bia", 3, "0-1")):
        pool.predictions.place(handle, number, Score.parse(pick))
    for number, score in ((1, "2-1"), (2, "2-0"), (3, "0-3")):
        pool.fixtures.record_result(number, Result(Score.parse(score)))

    def table() -> list[tuple[int, str, int, int, int]]:
        return [(r.rank, r.player, r.points, r.exact, r.days) for r in pool.standings()]

    assert table() == [(1, "ana", 10, 1, 1), (2, "bia", 10, 0, 2), (3, "caio", 0, 0, 0)]
    pool.set_tiebreak(DAYS_FIRST)
    assert table() == [(1, "bia", 10, 0, 2), (2, "ana", 10, 1, 1), (3, "caio", 0, 0, 0)]
    picks = [p for handle in ("ana", "bia") for p in pool.predictions_of(handle)]
    results = {n: r for n in (1, 2, 3) if (r := pool.match(n).result) is not None}
    reference = compute_standings(
        HANDLES[:3], picks, results, PRESETS["classic"], days=pool.match_days(), days_first=True
    )
    assert pool.standings() == reference

    day, latest = pool.day_table()  # the last day with a finished match
    assert (day, latest.winners, [m.number for m in latest.matches]) == (
        date(2026, 6, 13),
        ["bia"],
        [3],
    )
    assert pool.day_table(date(2026, 6, 11))[1].winners == ["ana"]
    with pytest.raises(RuleViolation, match="unknown tie-break"):
        pool.set_tiebreak("coin toss")


def test_a_day_is_won_only_once_its_last_match_is_over(pool: Pool, clock: FakeClock) -> None:
    """21 Nov 2022 in Qatar: England 6-2 Iran, Senegal 0-2 Netherlands, USA 1-1 Wales.
    bia calls the first exactly and leads the day; caio calls the other two and wins
    it. The table gave bia "days won 1" after the day's first match."""
    the_2022_cup_to_come(pool, clock, timedelta(hours=1))
    for handle, number, pick in [("bia", 2, "6-2"), ("caio", 3, "0-2"), ("caio", 4, "1-1")]:
        pool.predictions.place(handle, number, Score.parse(pick))
    commands, ana = Commands(pool), Caller("ana")
    play(pool, clock, 2, "6-2")
    days = {row.player: row.days for row in pool.standings()}
    assert days == {"ana": 0, "bia": 0, "caio": 0}
    told = commands.run(ana, "standings day 2022-11-21").text
    assert told.startswith("21 Nov: led by bia, 2 match(es) to finish")
    day = json.loads(commands.run(ana, "standings day 2022-11-21 --json").text)
    assert (day["winners"], day["leaders"], day["left"]) == ([], ["bia"], 2)
    play(pool, clock, 3, "0-2")
    pool.fixtures.kick_off(4)  # in play: its day is not over, in the live table either
    rows, in_play = pool.live_table()
    assert in_play and {row.player: row.days for row in rows} == days
    clock.now += timedelta(minutes=115)
    pool.fixtures.record_result(4, Result(Score(1, 1)))
    assert {row.player: row.days for row in pool.standings()} == {"ana": 0, "bia": 0, "caio": 1}
    assert pool.standings(up_to_match=3) == pool.standings(before_match=4)
    assert all(row.days == 0 for row in pool.standings(up_to_match=3))
    assert commands.run(ana, "standings day 2022-11-21").text.startswith("21 Nov: won by caio")
