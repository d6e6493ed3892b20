"""The real ``anthropic`` SDK and an httpx client against a local server that speaks their APIs."""

import dataclasses
import json
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.agent.commentator import Commentator, read_pick
from bot.agent.gateway import remembering, shaped
from bot.agent.providers.anthropic_model import AnthropicModel
from bot.agent.providers.base import ModelCall, ModelError
from bot.agent.providers.breaker import Circuit, CircuitBreaker
from bot.agent.providers.offline import OfflineModel
from bot.agent.providers.openai_compatible import OpenAICompatibleModel
from bot.agent.providers.web_search import WebSearch
from bot.agent.requests import NewLeader, PickWanted
from bot.app.cli import build_parser
from bot.app.config import ConfigError, ModelConfig, make_model
from bot.app.replay import ReplayOptions, replay
from bot.app.settings import Settings
from bot.app.simulation import SimulatedClock
from game.model import Score
from game.openfootball import parse_tournament
from game.pool import Pool
from game.sources import read_json
from memory import declared, facts
from memory.context import Context, Section
from memory.inspect import calls_text
from memory.requests import FactMerge
from memory.usage import ModelUsage, UsageMeter, recorded, totals
from prompts import persona
from tests.conftest import TEST_DATA
from tests.model_server import Reply, model_server

LEADER = NewLeader("ana", 10, "bia")
CALL = ModelCall(
    "remark",
    persona("BETanIA"),
    "Just now: a goal.",
    LEADER,
)
SAMPLE = str(Path(__file__).resolve().parents[1] / "game" / "sample" / "tournament.json")
RETRY_FAST = {"retry-after-ms": "1"}


def anthropic(url: str, usage: list[ModelUsage], **options: object) -> AnthropicModel:
    return AnthropicModel(
        "claude-test", api_key="test-key", base_url=url, on_usage=usage.append, **options
    )


def openai(url: str, usage: list[ModelUsage], **options: object) -> OpenAICompatibleModel:
    return OpenAICompatibleModel(
        f"{url}/v1", "llama-test", on_usage=usage.append, sleep=lambda _s: None, **options
    )


def test_anthropic_caches_a_long_stable_prefix_for_an_hour_as_the_api_does() -> None:
    usage: list[ModelUsage] = []
    now = [0.0]
    schedule = "\n".join(
        f"  #{n} Mon 15 Jun 18:00 Team{n} v Team{n + 1} (Group A)" for n in range(104)
    )
    long_call = replace(CALL, system=f"{CALL.system}\n{schedule}")
    with model_server(clock=lambda: now[0]) as server:
        model = anthropic(server.url, usage)
        assert model.complete(CALL) == "What a time to be in this pool."
        model.complete(CALL)  # under 1,024 tokens: the API caches nothing
        for minutes in (0, 59, 59 + 61):  # written, read (and refreshed), expired: written
            now[0] = minutes * 60.0
            model.complete(long_call)
        first = server.requests[0]
    assert first.path == "/v1/messages"
    assert "test-key" in (
        first.headers.get("x-api-key", ""),
        first.headers.get("authorization", "")[7:],
    )
    assert first.body["system"] == [
        {
            "type": "text",
            "text": CALL.system,
            "cache_control": {"type": "ephemeral", "ttl": "1h"},
        }
    ]
    assert first.body["messages"] == [{"role": "user", "content": "Just now: a goal."}]
    assert [(u.cache_write_tokens > 0, u.cache_read_tokens > 0) for u in usage] == [
        (False, False),
        (False, False),
        (True, False),
        (False, True),
        (True, False),
    ]
    assert usage[3].cache_read_tokens == usage[2].cache_write_tokens >= 1024


def test_anthropic_retries_a_429_then_succeeds() -> None:
    usage: list[ModelUsage] = []
    with model_server() as server:
        server.queue(Reply(429, headers=RETRY_FAST))
        assert anthropic(server.url, usage).complete(CALL)
        assert len(server.requests) == 2
    assert [u.error for u in usage] == [None]


def test_anthropic_overloaded_until_the_offline_writer_answers(pool: Pool) -> None:
    meter = UsageMeter()
    with model_server() as server:
        server.queue(*[Reply(529, headers=RETRY_FAST)] * 3)
        primary = anthropic(server.url, [], max_retries=2)
        primary.on_usage = meter.report
        _keeper, gateway = remembering(pool, primary, meter=meter)
        asked = gateway.ask(Context(CALL.system, (Section("event", CALL.prompt, 0),)), LEADER)
        assert len(server.requests) == 3  # the first try and two retries
    assert asked.text == OfflineModel().complete(CALL)
    with pool.work.read() as connection:
        (call,) = recorded(connection)  # one call, one record, one fallback path
    assert (call.provider, call.fallback, call.error) == (
        "anthropic",
        True,
        "anthropic: OverloadedError 529",
    )
    assert call.outcome == "fallen back: anthropic: OverloadedError 529"
    assert call.response == asked.text and call.prompt == shaped(
        CALL.prompt, LEADER
    )  # told its form


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        (Reply(200, delay=1.5), "APITimeoutError"),
        (Reply(200, body='{"type": "message", "content": [{"type": "te'), "malformed"),
        (
            Reply(
                200,
                body='{"type": "message", "content": [], "usage": {"input_tokens": 1, "output_tokens": 0}}',
            ),
            "empty",
        ),
        (
            Reply(
                400,
                body='{"type": "error", "error": {"type": "invalid_request_error", "message": "no"}}',
            ),
            "400",
        ),
    ],
)
def test_anthropic_failures_become_model_errors(reply: Reply, error: str) -> None:
    usage: list[ModelUsage] = []
    with model_server() as server:
        server.queue(reply)
        with pytest.raises(ModelError, match=error):
            anthropic(server.url, usage, timeout=0.5, max_retries=0).complete(CALL)


def test_openai_compatible_speaks_chat_completions() -> None:
    usage: list[ModelUsage] = []
    with model_server() as server:
        server.queue(Reply(429, headers={"retry-after": "0"}))
        assert openai(server.url, usage).complete(CALL) == "What a time to be in this pool."
        _retried, answered = server.requests
    assert answered.path == "/v1/chat/completions"
    assert answered.body["messages"][0] == {
        "role": "system",
        "content": persona("BETanIA"),
    }
    assert (usage[0].input_tokens > 0, usage[0].error) == (True, None)


@pytest.mark.parametrize(
    ("replies", "error"),
    [
        ([Reply(503)] * 4, "HTTP 503"),
        ([Reply(200, delay=1.5)], "Timeout"),
        ([Reply(200, body="not json at all")], "JSONDecodeError"),
        ([Reply(200, body='{"choices": []}')], "IndexError"),
    ],
)
def test_openai_compatible_failures_are_one_model_error_and_one_report(
    replies: list[Reply], error: str
) -> None:
    usage: list[ModelUsage] = []
    with model_server() as server:
        server.queue(*replies)
        primary = openai(server.url, usage, timeout=0.5, max_retries=3 if len(replies) > 1 else 0)
        with pytest.raises(ModelError, match=error):
            primary.complete(CALL)
        assert [u.error is not None for u in usage] == [True]  # one report for the failed call


def test_a_world_cup_through_the_sdk_reads_most_of_its_input_from_the_cache(
    database_url: str,
) -> None:
    """The whole 2026 World Cup, its cache lifetimes judged by tournament time."""
    tournament = parse_tournament(read_json(str(TEST_DATA / "worldcup-2026.json")))
    clock = SimulatedClock(datetime(2000, 1, 1, tzinfo=UTC))
    with model_server(clock=lambda: clock.now.timestamp()) as server:
        config = ModelConfig(
            provider="anthropic", base_url=server.url, api_key="test-key", model="claude-sonnet-5"
        )
        options = ReplayOptions(tournament, players=6, seed=2)
        report = replay(options, database_url, config, clock=clock)
        systems = {json.dumps(r.body["system"]) for r in server.requests}
    with report.pool.work.read() as connection:
        kept = recorded(connection)  # memory's own record, not the game's log
        figures = totals(connection)
    assert len(kept) == len(server.requests) > 500
    # The stable layer moves only when the bracket names new knock-out sides (the replay
    # tells them as they are decided), never in between.
    scheduled = report.pool.events(kinds=("match_scheduled",))
    reveals = {item.at for item in scheduled[len(tournament.fixtures) :]}
    assert 1 < len(systems) <= 1 + len(reveals) < 1 + 32
    assert all("Today is " in call.prompt for call in kept)
    assert figures["cache_read_share"] >= 0.60
    # Each filled slot writes the stable layer again at twice the input price, as in a
    # real pool whose feed fills the bracket: 0.74 measured here with 6 players.
    assert figures["cost_usd"] < figures["cost_without_cache_usd"] * 0.8
    assert not report.pool.events(kinds=("model_call",))


def test_the_configuration_chooses_and_refuses() -> None:
    assert isinstance(make_model(ModelConfig(), lambda _u: None), OfflineModel)
    assert ModelConfig(api_key="sk-test").chosen() == "anthropic"
    args = build_parser().parse_args(["serve"])
    assert Settings.read(args, {"ANTHROPIC_API_KEY": "sk-test"}).model.chosen() == "anthropic"
    assert Settings.read(args, {}).model.chosen() == "offline"
    with pytest.raises(ConfigError, match="needs --base-url and --model"):
        make_model(ModelConfig(provider="openai-compatible"), lambda _u: None)
    with pytest.raises(ConfigError, match="unknown language"):
        ModelConfig(language="fr").chosen()


def test_a_provider_is_one_entry_in_the_registry_that_every_part_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A provider added to ``PROVIDERS`` alone is offered by ``--provider``, gets its own key
    variable from the settings, is checked for what it needs and is built by ``make_model``."""
    from bot.agent.providers import registry

    built: list[ModelConfig] = []

    def build(config: ModelConfig, on_usage: object) -> OfflineModel:
        built.append(config)
        return OfflineModel(language=config.language)

    extra = registry.Provider(
        "scratch", build, key_variable="SCRATCH_KEY", needs=("model",), web_search=True
    )
    monkeypatch.setitem(registry.PROVIDERS, "scratch", extra)
    args = build_parser().parse_args(["serve", "--provider", "scratch", "--web-search"])
    env = {"SCRATCH_KEY": "scratch-secret", "ANTHROPIC_API_KEY": "not-this-one"}
    settings = Settings.read(args, env)
    assert settings.model.api_key == "scratch-secret" and settings.secrets() == ["scratch-secret"]
    with pytest.raises(ConfigError) as refused:
        make_model(settings.model, lambda _u: None)
    assert str(refused.value) == "the scratch provider needs --model"
    model = make_model(replace(settings.model, model="m1"), lambda _u: None)
    assert isinstance(model, CircuitBreaker) and model.name == "offline"
    assert [config.model for config in built] == ["m1"]
    # Web search is offered by whoever says so: the refusal names every such provider.
    web = ModelConfig(provider="openai-compatible", base_url="http://h", model="m", web_search=True)
    with pytest.raises(ConfigError) as no_search:
        make_model(web, lambda _u: None)
    assert str(no_search.value) == (
        "--web-search needs the anthropic or the scratch provider (its server tool)"
    )
    with pytest.raises(ConfigError) as unknown:
        ModelConfig(provider="nobody").chosen()
    assert str(unknown.value) == (
        "unknown provider 'nobody' (one of auto, offline, anthropic, openai-compatible, scratch)"
    )


def test_a_provider_that_is_down_opens_the_circuit_and_costs_nothing(pool: Pool) -> None:
    """Three calls in a row fail (each after the SDK's retries): the circuit opens, and calls
    go to the offline voice without a request; after the cool-down one call probes."""
    now = [0.0]
    meter = UsageMeter()
    with model_server() as server:
        server.always = Reply(529, headers=RETRY_FAST)
        provider = anthropic(server.url, [], max_retries=1)
        provider.on_usage = meter.report
        breaker = CircuitBreaker(provider, failures=3, cooldown=30, clock=lambda: now[0])
        _keeper, gateway = remembering(pool, breaker, meter=meter)
        context = Context(CALL.system, (Section("event", CALL.prompt, 0),))
        for _ in range(3):
            gateway.ask(context, LEADER)
        assert len(server.requests) == 6 and breaker.state is Circuit.OPEN  # 3 calls, 1 retry each
        for _ in range(20):
            assert gateway.ask(context, LEADER).text == OfflineModel().complete(CALL)
        assert len(server.requests) == 6  # open: not one request more
        now[0] += 31
        gateway.ask(context, LEADER)  # the probe fails: open again, for twice as long
        assert len(server.requests) == 8 and breaker.state is Circuit.OPEN
        now[0] += 31
        gateway.ask(context, LEADER)
        assert len(server.requests) == 8  # 60 s this time
        server.always = None  # the provider is back
        now[0] += 30
        assert gateway.ask(context, LEADER).text == "What a time to be in this pool."
        assert breaker.state is Circuit.CLOSED
    assert [state for state, _ in breaker.changes] == [
        Circuit.OPEN,
        Circuit.PROBING,
        Circuit.OPEN,
        Circuit.PROBING,
        Circuit.CLOSED,
    ]
    with pool.work.read() as connection:
        figures = totals(connection)
    assert figures["skipped_provider_down"] == 21 and figures["calls"] == 26


def test_the_configured_provider_stands_behind_a_circuit_breaker() -> None:
    config = ModelConfig(provider="openai-compatible", base_url="http://127.0.0.1:9", model="m")
    model = make_model(config, lambda _u: None)
    assert isinstance(model, CircuitBreaker) and model.name == "openai-compatible"
    assert (model.first_cooldown, model.longest) == (30.0, 600.0)


def test_a_slow_local_model_is_given_its_time_and_the_breaker_rests_in_proportion() -> None:
    """A 7B model on a CPU takes minutes: ``--timeout`` (or ``BETANIA_MODEL_TIMEOUT``)
    reaches the provider, and the breaker's cool-down and the retries' waits grow with it."""
    parser = build_parser()
    args = parser.parse_args(["replay", "cup.json", "--timeout", "300"])
    assert Settings.read(args, {"BETANIA_MODEL_TIMEOUT": "5"}).model.timeout == 300  # flag wins
    unset = parser.parse_args(["replay", "cup.json"])
    assert Settings.read(unset, {"BETANIA_MODEL_TIMEOUT": "120"}).model.timeout == 120
    assert Settings.read(unset, {}).model.timeout == 30
    for bad in ("0", "-5", "soon", "1e9"):
        with pytest.raises(ConfigError, match="a number of seconds"):
            Settings.read(parser.parse_args(["replay", "cup.json", "--timeout", bad]), {})
        with pytest.raises(ConfigError, match="BETANIA_MODEL_TIMEOUT"):
            Settings.read(unset, {"BETANIA_MODEL_TIMEOUT": bad})
    config = ModelConfig(
        provider="openai-compatible", base_url="http://127.0.0.1:9", model="m", timeout=300
    )
    model = make_model(config, lambda _u: None)
    assert isinstance(model, CircuitBreaker)
    assert (model.first_cooldown, model.longest) == (300.0, 6000.0)
    assert isinstance(model.model, OpenAICompatibleModel)
    assert model.model.client.timeout.read == 300 and model.model.backoff == 5.0


PICK = ModelCall(
    "prediction",
    persona("BETanIA"),
    "Place your own prediction. The pick worth the most points under this pool's rules is 2-1.",
    PickWanted("2-1"),
)
MERGE = ModelCall(
    "fact_merge",
    persona("BETanIA"),
    "PRESERVE EVERY DISTINCT FACT\n1: ana supports Brazil\n2: ana lives in Recife",
    FactMerge(((1, "ana supports Brazil"), (2, "ana lives in Recife"))),
)


def test_anthropic_asks_for_data_with_a_forced_tool_and_reads_its_input() -> None:
    with model_server() as server:
        model = anthropic(server.url, [])
        pick, merged = model.complete(PICK), model.complete(MERGE)
        remark = model.complete(CALL)
    asked = [request.body for request in server.requests]
    assert asked[0]["tool_choice"] == {"type": "tool", "name": "answer"}
    assert asked[0]["tools"][0]["input_schema"] == PickWanted.schema
    assert "tools" not in asked[2]  # words are asked for as words
    assert read_pick(pick) == Score(2, 1) and json.loads(pick) == {"home": 2, "away": 1}
    assert [m.covers for m in facts.parse_merge(merged)] == [(1,), (2,)]
    assert remark == "What a time to be in this pool."


def test_a_text_with_its_claims_is_asked_for_as_data_by_either_provider() -> None:
    """A remark whose claims she declares (memory.declared): the call's own schema, through
    anthropic's forced tool and openai-compatible's response_format alike."""
    call = dataclasses.replace(CALL, schema=declared.SCHEMA)
    with model_server() as server:
        anthropic(server.url, []).complete(call)
    (first,) = (request.body for request in server.requests)
    assert first["tools"][0]["input_schema"] == declared.SCHEMA
    with model_server() as server:
        openai(server.url, []).complete(call)
    (second,) = (request.body for request in server.requests)
    assert second["response_format"]["json_schema"]["schema"] == declared.SCHEMA


def test_her_picks_may_search_the_web_within_their_caps_and_say_what_they_cited() -> None:
    usage: list[ModelUsage] = []
    day = [date(2026, 6, 11)]
    searching = WebSearch(per_pick=2, per_day=2, today=lambda: day[0])
    pick = replace(PICK, prompt=f"{PICK.prompt}\n\n#1 Mexico v South Africa (Group A)")
    with model_server() as server:
        model = anthropic(server.url, usage, web_search=searching)
        answers = [model.complete(pick), model.complete(CALL), model.complete(pick)]
        model.complete(pick)  # the day's two searches are spent (the API made one a pick)
        day[0] = date(2026, 6, 12)
        model.complete(pick)  # a new day
    asked = [request.body for request in server.requests]
    tool = {"type": "web_search_20250305", "name": "web_search", "max_uses": 2}
    assert tool in asked[0]["tools"] and asked[0]["tool_choice"] == {"type": "auto"}
    assert "tools" not in asked[1]  # a remark never searches
    assert {**tool, "max_uses": 1} in asked[2]["tools"]  # one search left today: one allowed
    assert all(t["name"] == "answer" for t in asked[3]["tools"])
    assert asked[3]["tool_choice"] == {"type": "tool", "name": "answer"}
    assert tool in asked[4]["tools"]
    assert read_pick(answers[0]) == Score(2, 1)  # the pick, written as text beside its citation
    assert usage[0].sources == (
        "searched 'Mexico South Africa team news'; cited https://news.example/team-news"
    )
    assert usage[1].sources == "" and usage[3].sources == ""


def test_what_her_pick_searched_and_cited_is_kept_in_its_call_record(
    tournament_pool: Pool,
) -> None:
    meter = UsageMeter()
    with model_server() as server:
        model = anthropic(server.url, [], web_search=WebSearch())
        model.on_usage = meter.report
        keeper, gateway = remembering(tournament_pool, model, meter=meter)
        keeper.enable()
        mine = Commentator(keeper, gateway).pick_for(tournament_pool.match(1))
    with tournament_pool.work.read() as connection:
        (call,) = [c for c in recorded(connection) if c.task == "prediction"]
    assert call.outcome == f"picked {mine}"
    assert call.sources == (
        "searched 'Brazil Serbia team news'; cited https://news.example/team-news"
    )
    assert "--- web search\nsearched 'Brazil Serbia team news'" in calls_text(call)


def test_web_search_needs_the_anthropic_provider() -> None:
    config = ModelConfig(
        provider="openai-compatible", base_url="http://127.0.0.1:9", model="m", web_search=True
    )
    with pytest.raises(ConfigError, match="--web-search needs the anthropic provider"):
        make_model(config, lambda _u: None)
    args = build_parser().parse_args(["serve", "--provider", "anthropic", "--web-search"])
    chosen = Settings.read(args, {}).model
    assert (chosen.web_search, chosen.searches_per_pick, chosen.searches_per_day) == (True, 3, 20)


def test_openai_compatible_asks_in_the_first_form_the_server_takes_then_as_text() -> None:
    # llama-cpp-python 0.3.36's answer to OpenAI's json_schema form, as it sends it: a 500
    refused = Reply(
        500,
        body=json.dumps(
            {
                "error": {
                    "message": "1 validation error:\n  {'type': 'literal_error', 'loc': ('body',"
                    " 'response_format', 'type'), 'msg': \"Input should be 'text' or "
                    "'json_object'\", 'input': 'json_schema'}",
                    "type": "internal_server_error",
                    "param": None,
                    "code": None,
                }
            }
        ),
    )
    with model_server() as server:
        server.queue(refused)  # OpenAI's json_schema: not here, and not retried
        model = openai(server.url, [])
        assert read_pick(model.complete(PICK)) == Score(2, 1)  # then llama.cpp's json_object
        assert read_pick(model.complete(PICK)) == Score(2, 1)  # remembered: straight to it
        server.queue(Reply(422, body='{"detail": "no"}'))  # nor that one
        assert read_pick(model.complete(PICK)) == Score(2, 1)  # as text: "2-1"
    forms = [r.body.get("response_format", {}).get("type") for r in server.requests]
    assert forms == ["json_schema", "json_object", "json_object", "json_object", None]
    assert model.formats == []


def test_a_console_command_never_imports_a_providers_sdk() -> None:
    """anthropic's SDK alone took 1.6 s of `betania --version`'s 3.5 s: it is imported
    by the command that talks to the provider, not by the command line itself."""
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, bot.app.cli; print(sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("'")
    assert "anthropic" not in loaded
    assert "bot.agent.providers.openai_compatible" not in loaded
    model = make_model(ModelConfig(api_key="sk-test"), lambda _u: None)
    assert isinstance(model, CircuitBreaker) and isinstance(model.model, AnthropicModel)
