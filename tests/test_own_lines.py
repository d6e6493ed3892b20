"""Her own lines pass her own contract, whole tournaments long.

Whole tournaments replayed offline, the voice she has when no model is at hand (every
demo, every pool without a key): the 2026 World Cup with players' chat in Portuguese,
the 2025 Brasileirão in English. Every line she wrote is held to the output contract
as a model's would be; none may be refused, none replaced, and no remark about a player
may repeat a wording said about them within 72 hours. Each replay is played once: the
World Cup is conftest's ``world_cup_in_her_voice``, the one tests/test_voice.py measures
(15 players), and the league is played once for the module with three players, who give
every kind of line (exact calls, blanks, leaders, streaks, asides) their turn. The league
is its first ten rounds, ended as a season (its wrap-up names the top of the table):
the whole season is ``betania replay``'s, measured by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from zoneinfo import ZoneInfo

import pytest

from bot.agent.commentator import WRAP_UP
from bot.agent.providers.offline import OfflineModel
from bot.app.replay import ReplayOptions, ReplayReport, replay
from bot.app.voice import measure
from game.events import RemarkPosted
from game.openfootball import Tournament, parse_tournament
from game.sources import read_json
from memory.keeper import MemoryConfig
from tests.conftest import TEST_DATA

SAO_PAULO = ZoneInfo("America/Sao_Paulo")
ROUNDS = 10


@pytest.fixture
def world_cup_pt(world_cup_in_her_voice: Callable[[str], ReplayReport]) -> ReplayReport:
    return world_cup_in_her_voice("pt")


@pytest.fixture(scope="module")
def league_en(tmp_path_factory: pytest.TempPathFactory) -> ReplayReport:
    season = parse_tournament(read_json(str(TEST_DATA / "br.1-2025.json")), SAO_PAULO)
    # The season's first ROUNDS rounds, played to their end as a season of their own: the
    # whole 380 matches take minutes on this machine, more than the test's budget.
    first = tuple(sorted(season.fixtures, key=lambda f: f.kickoff)[: ROUNDS * 10])
    options = ReplayOptions(
        Tournament(season.name, first), players=3, seed=1, memory=MemoryConfig(zone=SAO_PAULO)
    )
    database = tmp_path_factory.mktemp("league") / "own.db"
    return replay(options, f"sqlite:///{database}", OfflineModel(seed=1, language="en"))


@pytest.fixture(params=["world_cup_pt", "league_en"])
def tournament(request: pytest.FixtureRequest) -> ReplayReport:
    report: ReplayReport = request.getfixturevalue(request.param)
    return report


def test_the_contract_refuses_none_of_her_own_lines(tournament: ReplayReport) -> None:
    refused = [
        f"{call.task}: {call.outcome}: {call.response}"
        for call in tournament.calls
        if "refused: contract" in call.outcome or call.outcome.startswith("replaced")
    ]
    assert refused == []


def test_she_never_teases_a_player_the_same_way_within_72_hours(
    tournament: ReplayReport,
) -> None:
    assert measure(tournament.keeper.store).repeats == 0


def test_the_tournament_ends_with_her_wrap_up(tournament: ReplayReport) -> None:
    wrap = [r for r in tournament.pool.events_of(RemarkPosted) if r.event.topic == WRAP_UP]
    assert len(wrap) == 1 and tournament.pool.standings()[0].player in wrap[0].event.text
