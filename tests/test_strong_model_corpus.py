"""A strong model's lines, read and judged, held to her output contract: every good one
passes, every bad one is refused.

The lines (``tests/data/strong_model_lines.jsonl``) are a capable model's first answers
that the contract refused in two 9-match replays of the 2026 World Cup with bilingual
chat (``bench/strong_model.py``: the before run on 1c5cb12, the after run, calls
``after-N``, on 8c3a133), the false ones those runs posted, and issue 37's own
examples; each was judged by reading it beside the pool it was said in. Their calls
(``tests/data/strong_model_calls.jsonl``) keep what the model was sent, system and
prompt, and the pool as it stood then (players, picks, matches played, goals so far),
rebuilt here through the game's own API on the same cut of the tournament.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bot.agent.commentator import Policy
from bot.agent.gateway import RETRY
from bot.agent.providers.base import ModelCall
from bot.agent.providers.offline import OfflineModel
from bot.app.replay import ReplayOptions, replay
from bot.app.simulation import final_whistle, goal_time
from game.model import Score
from game.openfootball import Tournament, parse_tournament
from game.pool import Pool
from game.pool.fixtures import numbering
from game.sources import read_json
from memory.contract import Breach, Contract
from tests.conftest import TEST_DATA, FakeClock, ScriptedModel


def _read(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (TEST_DATA / name).read_text("utf-8").splitlines()]


CALLS = {call["call"]: call for call in _read("strong_model_calls.jsonl")}
LINES = _read("strong_model_lines.jsonl")


def as_it_stood(pool: Pool, clock: FakeClock, call: dict[str, Any]) -> Pool:
    """``pool`` as it was when ``call`` was made: the cut's matches, its players, their
    picks placed before each kick-off, the matches played (their goals and result from
    the tournament file) and the goals so far of those in play, each at its own time."""
    state = call["pool"]
    cup = parse_tournament(read_json(str(TEST_DATA / call["cup"])))
    fixtures = sorted(cup.fixtures, key=lambda f: f.kickoff)[: call["matches"]]
    numbers = numbering(fixtures)
    clock.now = fixtures[0].kickoff - timedelta(days=1)
    unplayed = tuple(replace(f, result=None, goals=()) for f in fixtures)
    pool.fixtures.import_tournament(Tournament(cup.name, unplayed))
    for handle, name in state["players"].items():
        pool.members.add(handle, name, via="replay")
    actions: list[tuple[datetime, Any]] = []
    for fixture in fixtures:
        number = numbers[fixture.source_key]
        for handle, pick in state["picks"].get(str(number), {}).items():
            place = partial(pool.predictions.place, handle, number, Score.parse(pick))
            actions.append((fixture.kickoff - Policy().picks_ahead, place))
        played = number in state["played"]
        if not played and str(number) not in state["live"]:
            continue
        actions.append((fixture.kickoff, partial(pool.fixtures.kick_off, number)))
        goals = sorted(fixture.goals, key=lambda g: (g.minute, g.added))
        for goal in goals if played else goals[: state["live"][str(number)]]:
            actions.append((goal_time(fixture.kickoff, goal), partial(pool.fixtures.record_goal, number, goal)))  # fmt: skip
        if played and fixture.result is not None:
            whistle = final_whistle(fixture.kickoff, fixture.result, fixture.goals)
            record = partial(pool.fixtures.record_result, number, fixture.result, "replay")
            actions.append((whistle, record))
    for at, action in sorted(actions, key=lambda pair: pair[0]):  # stable: picks first
        clock.now = at
        action()
    clock.now = datetime.fromisoformat(state["at"])
    return pool


def judged(pool: Pool, clock: FakeClock, line: dict[str, Any]) -> list[Breach]:
    """Every rule ``line`` breaks said in its call, once ``Contract.check`` refuses it."""
    call = CALLS[line["call"]]
    contract = Contract(as_it_stood(pool, clock, call), call["language"], ("betania", "BETanIA"))
    grounds = contract.grounds(call["system"], call["prompt"])
    if contract.check(line["text"], call["kind"], grounds, call["match"]) is None:
        return []
    return contract.breaches(line["text"], call["kind"], grounds, call["match"])


def test_the_corpus_holds_good_and_bad_lines_each_with_its_call() -> None:
    assert {line["verdict"] for line in LINES} == {"good", "bad"}
    assert all(line["call"] in CALLS and line["why"] for line in LINES)


@pytest.mark.parametrize(
    "line", [line for line in LINES if line["verdict"] == "good"], ids=lambda line: line["call"]
)
def test_a_good_line_of_a_strong_model_passes_her_contract(
    pool: Pool, clock: FakeClock, line: dict[str, Any]
) -> None:
    assert judged(pool, clock, line) == [], (line["text"], line["why"])


@pytest.mark.parametrize(
    "line", [line for line in LINES if line["verdict"] == "bad"], ids=lambda line: line["call"]
)
def test_a_bad_line_of_a_strong_model_is_refused(
    pool: Pool, clock: FakeClock, line: dict[str, Any]
) -> None:
    """Refused, and for what is wrong with it (``flaw``, the rule that sees it), not only
    for something else a rule happens to find first."""
    rules = {breach.rule for breach in judged(pool, clock, line)}
    assert rules, (line["text"], line["why"])
    assert line.get("flaw") in rules | {None}, (line["text"], line["why"], rules)


def test_the_pool_is_rebuilt_as_it_stood(pool: Pool, clock: FakeClock) -> None:
    """After #5 (call 55): the standings the before run's lines speak of."""
    rebuilt = as_it_stood(pool, clock, CALLS["55"])
    points = {row.player: row.points for row in rebuilt.standings()}
    assert points == {
        "elis": 29, "fabio": 20, "bruno": 19, "ana": 15, "betania": 12, "diego": 12, "carla": 0
    }  # fmt: skip
    assert [m.number for m in rebuilt.matches() if m.result is not None] == [1, 2, 3, 4, 5]


def test_the_after_runs_pool_is_rebuilt_as_it_stood(pool: Pool, clock: FakeClock) -> None:
    """At #8's final whistle in the after run (call 62): elis's third exact call."""
    rebuilt = as_it_stood(pool, clock, CALLS["after-62"])
    points = {row.player: row.points for row in rebuilt.standings()}
    assert points == {
        "elis": 49, "bruno": 26, "fabio": 25, "betania": 22, "ana": 20, "diego": 19, "carla": 10
    }  # fmt: skip
    assert [m.number for m in rebuilt.matches() if m.result is not None] == list(range(1, 9))


def test_the_bench_tells_a_first_answer_from_its_retry(tmp_path: Path) -> None:
    """``bench/strong_model.py`` reads a run's call record as the corpus was read: every
    remark's first answer refused by its rule, its retry (told why) posted."""
    from bench.real_model import first_matches
    from bench.strong_model import read_run

    def remark(call: ModelCall) -> str:
        if call.variant[1] == RETRY:
            return OfflineModel().complete(call)
        return "Sydney Sydney Sydney Sydney."

    cup = first_matches(parse_tournament(read_json(str(TEST_DATA / "worldcup-2026.json"))), 1)
    replay(ReplayOptions(cup, players=2, seed=1), tmp_path / "run.db", ScriptedModel(remark=remark))
    bench = read_run(tmp_path / "run.db")
    remarks = {kind: t for kind, t in bench.tallies.items() if kind.startswith("remark")}
    assert remarks and all(
        t.first and t.refused == {"repetition": t.first} and t.retries_posted == t.first
        for t in remarks.values()
    ), {kind: t.as_dict() for kind, t in remarks.items()}
    assert all(r["retry"]["outcome"] == "posted" for r in bench.refusals if r["task"] == "remark")
