from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

import pytest

from bot.agent.commentator import Commentator, Policy
from bot.agent.gateway import remembering
from bot.agent.providers.base import Model, ModelCall, ModelError
from bot.agent.providers.offline import OfflineModel
from bot.app.replay import ReplayOptions, ReplayReport, read_chat, replay
from game.db.engine import open_database
from game.model import Goal, Result, Score
from game.openfootball import Fixture, Tournament, parse_tournament
from game.pool import Pool
from game.sources import read_json
from memory.keeper import MemoryConfig
from tests.databases import database, server
from tests.llama_server import Background, missing

if TYPE_CHECKING:
    from bench.real_model import RealModelReport

# Real tournaments, shipped with the tests (openfootball, CC0): see tests/data/README.md.
TEST_DATA = Path(__file__).resolve().parent / "data"
CHAT_2026 = Path(__file__).resolve().parents[1] / "docs" / "examples" / "chat-2026.jsonl"


ONCE = pytest.StashKey[list[str]]()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On PostgreSQL, the tests marked ``first_pass_only`` are deselected, each with its
    reason (said under the collection). A ``real_model`` test comes last: its run goes on in
    the background from the session's start (``real_model_runs``), and it only waits for it."""
    once: list[pytest.Item] = []
    config.stash[ONCE] = []
    for item in items:
        marker = item.get_closest_marker("first_pass_only")
        if marker is None or server() is None:
            continue
        if not marker.kwargs.get("reason"):
            raise pytest.UsageError(f"{item.nodeid}: first_pass_only needs its reason")
        once.append(item)
        config.stash[ONCE].append(
            f"deselected on PostgreSQL: {item.nodeid}: {marker.kwargs['reason']}"
        )
    if once:
        config.hook.pytest_deselected(items=once)
        items[:] = [item for item in items if item not in once]
    items.sort(key=lambda item: item.get_closest_marker("real_model") is not None)


def pytest_report_collectionfinish(config: pytest.Config) -> list[str]:
    return config.stash.get(ONCE, [])


@pytest.fixture(scope="session", autouse=True)
def real_model_runs(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Background]]:
    """The run of each ``real_model`` test to come, by its node id, started as the session
    starts (tests.llama_server.Background): minutes of a model writing, beside the suite."""
    runs: dict[str, Background] = {}
    try:
        for item in request.session.items if missing() is None else ():
            marker = item.get_closest_marker("real_model")
            if marker is not None:
                folder = tmp_path_factory.mktemp("real-model")
                runs[item.nodeid] = Background(folder, **marker.kwargs)
        yield runs
    finally:
        for run in runs.values():
            run.stop()


@pytest.fixture
def real_model(
    request: pytest.FixtureRequest, real_model_runs: dict[str, Background]
) -> Iterator[RealModelReport]:
    """This test's real-model run (its ``real_model`` marker's matches and players), once over;
    without llama-cpp-python or the model, an error that says which is missing."""
    run = real_model_runs.get(request.node.nodeid)
    if run is None:
        raise RuntimeError(missing() or "the test has no real_model marker")
    report = run.report()
    yield report
    report.pool.engine.dispose()


@dataclass
class FakeClock:
    """The server's clock, moved by the test."""

    now: datetime

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 6, 1, 12, 0, tzinfo=UTC))


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """The test's own database: SQLite, or PostgreSQL in CI's second run (tests.databases)."""
    with database(tmp_path) as url:
        yield url


@pytest.fixture(scope="session")
def world_cup_in_her_voice(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[[str], ReplayReport]]:
    """The whole 2026 World Cup replayed offline in her voice in a language (15 players,
    docs/examples/chat-2026.jsonl), played at most once a session per language: a replay
    takes the better part of a minute, and the tests given it only read it."""
    played: dict[str, ReplayReport] = {}
    with ExitStack() as databases:

        def in_language(language: str) -> ReplayReport:
            if language not in played:
                folder = tmp_path_factory.mktemp(f"world-cup-{language}")
                options = ReplayOptions(
                    parse_tournament(read_json(str(TEST_DATA / "worldcup-2026.json"))),
                    players=15,
                    seed=1,
                    chat=read_chat(str(CHAT_2026)),
                    memory=MemoryConfig(language=language),
                )
                url = databases.enter_context(database(folder))
                played[language] = replay(options, url, OfflineModel(seed=1, language=language))
            return played[language]

        yield in_language
        for report in played.values():
            report.pool.engine.dispose()


@pytest.fixture
def pool(database_url: str, clock: FakeClock) -> Iterator[Pool]:
    engine = open_database(database_url)
    yield Pool(engine, clock)
    engine.dispose()


def fixture(
    key: str,
    team1: str,
    team2: str,
    kickoff: datetime,
    stage: str = "Group stage",
    local_date: str | None = None,
    **extra: object,
) -> Fixture:
    """A match of a test's tournament, played on its UTC date unless ``local_date`` says."""
    return Fixture(
        source_key=key,
        stage=stage,
        kickoff=kickoff,
        local_date=local_date or kickoff.date().isoformat(),
        team1=team1,
        team2=team2,
        **extra,
    )


def small_tournament(start: datetime = datetime(2026, 6, 11, 18, 0, tzinfo=UTC)) -> Tournament:
    """Four matches a day apart, all to be played."""
    teams = [
        ("Brazil", "Serbia"),
        ("Argentina", "Mexico"),
        ("Japan", "Spain"),
        ("France", "Morocco"),
    ]
    return Tournament(
        "Test Cup",
        tuple(
            fixture(f"m{i}", home, away, start + timedelta(days=i))
            for i, (home, away) in enumerate(teams)
        ),
    )


def the_2022_cup_to_come(
    pool: Pool, clock: FakeClock, ahead: timedelta, admin: str | None = None
) -> Pool:
    """The 2022 World Cup's fixtures with nothing played, and ana, bia and caio (``admin``
    one of them, if named); the clock ``ahead`` of the first kick-off."""
    data = read_json(str(TEST_DATA / "worldcup-2022.json"))
    for raw in data["matches"]:
        for key in ("score", "goals1", "goals2"):
            raw.pop(key, None)
    pool.fixtures.import_tournament(parse_tournament(data, ZoneInfo("Asia/Qatar")))
    for handle in ("ana", "bia", "caio"):
        pool.members.add(handle, is_admin=handle == admin)
    clock.now = pool.match(1).kickoff - ahead
    return pool


@pytest.fixture
def tournament_pool(pool: Pool) -> Pool:
    """A pool with the small tournament and three players."""
    pool.fixtures.import_tournament(small_tournament())
    for handle in ("ana", "bia", "caio"):
        pool.members.add(handle)
    return pool


@pytest.fixture
def played(tournament_pool: Pool, clock: FakeClock) -> Pool:
    """#1 Brazil 2-0 Serbia, Vini twice; ana called it (10), bia had 1-0 (5)."""
    tournament_pool.predictions.place("ana", 1, Score(2, 0))
    tournament_pool.predictions.place("bia", 1, Score(1, 0))
    goals = [Goal("home", 10, scorer="Vini"), Goal("home", 80, scorer="Vini")]
    play(tournament_pool, clock, 1, "2-0", goals)
    return tournament_pool


class ScriptedModel:
    """A model whose answers the test writes: per task, a function of the call.

    Tasks without a script are answered by the offline writer, so a test only
    scripts the behaviour it is about.
    """

    name = "scripted"

    def __init__(self, **answers: Callable[[ModelCall], str]) -> None:
        self.answers = answers
        self.calls: list[ModelCall] = []
        self.fallback = OfflineModel()

    def complete(self, call: ModelCall) -> str:
        self.calls.append(call)
        script = self.answers.get(call.task)
        return script(call) if script else self.fallback.complete(call)

    def tasks(self) -> list[str]:
        return [call.task for call in self.calls]


def her_in(
    pool: Pool,
    model: Model | None = None,
    config: MemoryConfig | None = None,
    policy: Policy | None = None,
) -> Commentator:
    """Her, playing in ``pool``: memory switched on, every call through one gateway to
    ``model`` (a scripted one unless given). ``her.keeper`` and ``her.gateway`` are hers."""
    keeper, gateway = remembering(pool, model or ScriptedModel(), config)
    keeper.enable()
    her = Commentator(keeper, gateway, policy)
    her.start()
    return her


def fails(message: str = "the model is down") -> Callable[[ModelCall], str]:
    def answer(_call: ModelCall) -> str:
        raise ModelError(message)

    return answer


def play(pool: Pool, clock: FakeClock, number: int, score: str, goals: Iterable[Goal] = ()) -> None:
    """Kick off, score, blow the whistle, with the clock at the match's own time."""
    match = pool.match(number)
    clock.now = max(clock.now, match.kickoff)
    pool.fixtures.kick_off(number)
    for goal in goals:
        clock.now = match.kickoff + timedelta(minutes=goal.minute)
        pool.fixtures.record_goal(number, goal)
    clock.now = match.kickoff + timedelta(minutes=115)
    pool.fixtures.record_result(number, Result(Score.parse(score)))


def tournament(
    count: int, start: datetime = datetime(2026, 6, 11, 18, 0, tzinfo=UTC)
) -> Tournament:
    return Tournament(
        "Long Cup",
        tuple(
            fixture(f"m{i}", f"Team{2 * i}", f"Team{2 * i + 1}", start + timedelta(days=i))
            for i in range(count)
        ),
    )
