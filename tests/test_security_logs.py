"""Issue 36, "secrets in the log": no secret reaches a log, at any level.

The attack: whoever reads the server's log (an operator's terminal, a log
collector, a pasted bug report) finds there what lets them act as the pool.
At ``BETANIA_LOG_LEVEL=INFO`` httpx printed the Discord webhook's URL with its
token (``POST .../webhooks/111/TOKEN?wait=true``), and an interaction's token
in the URL of its answer; asyncssh printed an exec request's command, invite
code included (``Command: register CODE``). At DEBUG the providers' and the
transports' own loggers join in.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import httpx
from aiohttp import web
from sqlalchemy.engine import make_url

from bot.app.cli import build_parser
from bot.app.redaction import RedactingFormatter, Redactor
from bot.app.settings import LOG_FORMAT, Settings
from frontends.ssh.library import asyncssh
from frontends.web import start_web
from game.db.engine import open_database
from game.pool import Pool
from tests.discord_server import BOT_TOKEN, Signer, discord_server, interaction
from tests.model_server import model_server
from tests.serve_process import FUTURE_CUP, connect, line_with, prepare_players, serving
from tests.ssh_pool import join_at_the_prompt, read_until

# Secrets a reader of the log would recognise at once, each one distinct.
LOGS_ANTHROPIC_KEY = "sk-ant-api03-LOGSTEST-anthropic-key-5d1e"
LOGS_FOOTBALL_TOKEN = "LOGSTEST-football-data-token-9c2b"
LOGS_WEBHOOK_TOKEN = "LOGSTEST-webhook-token-7f3a"
LOGS_ASK_TOKEN = "LOGSTEST-interaction-token-ask-41aa"
LOGS_LINK_TOKEN = "LOGSTEST-interaction-token-link-77bb"
LOGS_BRUNO = "80351110224678913"  # a Discord user id: a snowflake, as text


@dataclass
class LogsFootballData:
    """football-data.org's matches endpoint on 127.0.0.1, answering only its token."""

    url: str = ""
    tokens: list[str] = field(default_factory=list)

    async def matches(self, request: web.Request) -> web.Response:
        self.tokens.append(request.headers.get("X-Auth-Token", ""))
        if request.headers.get("X-Auth-Token") != LOGS_FOOTBALL_TOKEN:
            return web.json_response({"message": "bad token"}, status=403)
        return web.json_response({"competition": {"code": "WC"}, "matches": []})


@asynccontextmanager
async def logs_football_data() -> AsyncIterator[LogsFootballData]:
    fake = LogsFootballData()
    app = web.Application()
    app.router.add_get("/v4/competitions/{code}/matches", fake.matches)
    server = await start_web(app, "127.0.0.1", 0)
    fake.url = f"http://127.0.0.1:{server.port}"
    try:
        yield fake
    finally:
        await server.close()


async def logs_until(condition: Callable[[], object], what: str, seconds: float = 20.0) -> None:
    try:
        async with asyncio.timeout(seconds):
            while not condition():
                await asyncio.sleep(0.05)
    except TimeoutError:
        raise AssertionError(f"never happened: {what}") from None


def test_serve_at_debug_logs_what_it_does_and_none_of_its_secrets(
    tmp_path: Path, database_url: str
) -> None:
    """Every secret the pool holds travels while ``serve`` runs at DEBUG: the model's key
    (her answer to /ask), the football-data token (the results feed), the webhook's
    token (a post), interaction tokens (/link, /ask), two invite codes (typed at the
    prompt, and in ``register CODE`` as an exec request) and a link code; then
    ``discord commands`` sends the bot token, at DEBUG too. Not one is in the log,
    while the log still names each request with its token as ``***``."""
    prepare_players(database_url, FUTURE_CUP, ["ana"])
    pool = Pool(open_database(database_url))
    try:
        typed_invite = pool.members.create_invite("console")
        exec_invite = pool.members.create_invite("console")
    finally:
        pool.engine.dispose()
    signer = Signer()
    serve_log, commands_log = tmp_path / "serve.log", tmp_path / "commands.log"
    seen: dict[str, str] = {}

    async def scenario() -> None:
        with model_server() as model:
            async with discord_server() as discord, logs_football_data() as feed:
                env = {
                    "ANTHROPIC_API_KEY": LOGS_ANTHROPIC_KEY,
                    "FOOTBALL_DATA_TOKEN": LOGS_FOOTBALL_TOKEN,
                    "FOOTBALL_DATA_URL": feed.url,
                    "DISCORD_PUBLIC_KEY": signer.public_key_hex,
                    "DISCORD_APPLICATION_ID": "app42",
                    "DISCORD_BOT_TOKEN": BOT_TOKEN,
                    "DISCORD_WEBHOOK_URL": discord.webhook_url("111", LOGS_WEBHOOK_TOKEN),
                    "DISCORD_API_URL": discord.base_url,
                }
                options = (
                    "--log-level", "DEBUG", "--provider", "anthropic", "--base-url", model.url,
                    "--http-port", "0", "--results", "football-data:WC", "--poll", "1",
                )  # fmt: skip
                async with serving(
                    tmp_path / "data", database_url, *options, env=env, log=serve_log
                ) as (server, port):
                    assert server.stdout is not None
                    said = await line_with(server.stdout, "Discord interactions at ")
                    endpoint = said.split(" at ")[1].strip()
                    await line_with(server.stdout, "run in this front end")
                    await logs_scenario(port, endpoint, signer, typed_invite, exec_invite, seen)

                    await logs_until(lambda: LOGS_ASK_TOKEN in discord.edits, "her answer")
                    seen["answer"] = discord.edits[LOGS_ASK_TOKEN]["content"]
                    console = Pool(open_database(database_url))
                    try:
                        console.talk.remark("betania", "news for the channel", trigger=1)
                    finally:
                        console.engine.dispose()
                    news = "BETanIA: news for the channel"
                    await logs_until(
                        lambda: news in [post["content"] for post in discord.posts],
                        "a post through the webhook",
                    )
                    await logs_until(lambda: feed.tokens, "a poll of the results feed")
                    server.send_signal(signal.SIGTERM)
                    async with asyncio.timeout(30):
                        await server.stdout.read()
                        assert await server.wait() == 0
                commands = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot.app.cli", "discord", "commands",
                    "--log-level", "DEBUG", "--data-dir", str(tmp_path / "data"),
                    stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                    env={**os.environ, **env},
                )  # fmt: skip
                out, err = await commands.communicate()
                commands_log.write_bytes(err)
                assert commands.returncode == 0, (out + err).decode()
                assert out.decode().startswith("registered "), out
                # Each secret was in play: sent where it belongs.
                assert model.requests, "her model was never asked"
                sent = {
                    r.headers.get("x-api-key") or r.headers.get("authorization", "")[7:]
                    for r in model.requests
                }
                assert sent == {LOGS_ANTHROPIC_KEY}
                assert set(feed.tokens) == {LOGS_FOOTBALL_TOKEN}
                assert "app42" in discord.commands  # the bot token was taken

    asyncio.run(scenario())

    assert seen["answer"].endswith("What a time to be in this pool.")
    logged = serve_log.read_text() + commands_log.read_text()
    secrets = {
        "the model's API key": LOGS_ANTHROPIC_KEY,
        "the football-data token": LOGS_FOOTBALL_TOKEN,
        "the webhook's token": LOGS_WEBHOOK_TOKEN,
        "the /ask interaction's token": LOGS_ASK_TOKEN,
        "the /link interaction's token": LOGS_LINK_TOKEN,
        "the bot token": BOT_TOKEN,
        "the invite typed at the prompt": typed_invite,
        "the invite in an exec request": exec_invite,
        "the link code": seen["link code"],
    }
    password = make_url(database_url).password
    if password:
        secrets["the database's password"] = str(password)
    leaked = {what: logged.count(value) for what, value in secrets.items() if value in logged}
    assert leaked == {}
    # The log still tells what happened, each token as ***.
    assert len(logged.splitlines()) > 100  # DEBUG: httpcore, asyncssh, aiohttp, the SDK
    useful = [
        r"HTTP Request: POST http://127\.0\.0\.1:\d+/api/v10/webhooks/111/\*\*\*\?wait=true "
        r'"HTTP/1\.1 200 OK"',
        r"HTTP Request: PATCH http://127\.0\.0\.1:\d+/api/v10/webhooks/app42/\*\*\*"
        r'/messages/@original "HTTP/1\.1 200 OK"',
        r"HTTP Request: GET http://127\.0\.0\.1:\d+/v4/competitions/WC/matches "
        r'"HTTP/1\.1 200 OK"',
        r"HTTP Request: POST http://127\.0\.0\.1:\d+/v1/messages",
        r"Command: register \*\*\*",
        r"HTTP Request: PUT http://127\.0\.0\.1:\d+/api/v10/applications/app42/commands "
        r'"HTTP/1\.1 200 OK"',
    ]
    assert [pattern for pattern in useful if not re.search(pattern, logged)] == []


async def logs_scenario(
    port: int,
    endpoint: str,
    signer: Signer,
    typed_invite: str,
    exec_invite: str,
    seen: dict[str, str],
) -> None:
    """Two newcomers join (one at the prompt, one by ``register CODE``), one links their
    Discord account and asks her a question there."""
    bruno = asyncssh.generate_private_key("ssh-ed25519")
    async with connect(port, "bruno", bruno) as connection:
        process = await join_at_the_prompt(connection, typed_invite, "bruno")
        process.stdin.write("link discord\n")
        told = await read_until(process.stdout, "type /link code:")
        found = re.search(r"your code: (\S+) ", told)
        assert found, told
        seen["link code"] = found.group(1)
        process.stdin.write("quit\n")
        await process.wait_closed()
    carla = asyncssh.generate_private_key("ssh-ed25519")
    async with connect(port, "carla", carla) as connection:
        joined = await connection.run(f"register {exec_invite}")
        assert joined.exit_status == 0, joined.stderr

    async with httpx.AsyncClient(timeout=10) as client:

        async def slash(body: bytes) -> dict[str, object]:
            response = await client.post(endpoint, content=body, headers=signer.headers(body))
            assert response.status_code == 200, response.text
            answer: dict[str, object] = response.json()
            return answer

        linked = await slash(
            interaction("link", LOGS_BRUNO, token=LOGS_LINK_TOKEN, code=seen["link code"])
        )
        assert linked["data"]["content"] == "linked: here you play as bruno", linked  # type: ignore[index]
        asked = await slash(
            interaction("ask", LOGS_BRUNO, token=LOGS_ASK_TOKEN, text="who wins the cup?")
        )
        assert asked["type"] == 5, asked  # deferred: her answer replaces "thinking..."


# -- the redactor's rules, each measured both ways: the secret goes, the rest stays --------

# (a line as a library logs it, the same line as the log must show it)
LOGS_LINES = [
    (
        "HTTP Request: POST https://discord.com/api/v10/webhooks/1111/Xy_9-tok3n?wait=true "
        '"HTTP/1.1 200 OK"',
        "HTTP Request: POST https://discord.com/api/v10/webhooks/1111/***?wait=true "
        '"HTTP/1.1 200 OK"',
    ),
    (
        "HTTP Request: POST https://discord.com/api/v10/interactions/1193049284749283328/"
        'aW50ZXJhY3Rpb246MTE5MzA0OTI4NDc0OTI4MzMyODpXZ/callback "HTTP/1.1 204 No Content"',
        "HTTP Request: POST https://discord.com/api/v10/interactions/1193049284749283328/"
        '***/callback "HTTP/1.1 204 No Content"',
    ),
    (
        "Request options: {'headers': {'x-api-key': 'k3y-of-the-pool', 'anthropic-version': "
        "'2023-06-01'}, 'url': '/v1/messages'}",
        "Request options: {'headers': {'x-api-key': '***', 'anthropic-version': "
        "'2023-06-01'}, 'url': '/v1/messages'}",
    ),
    (
        "send_request_headers.started headers=[(b'Host', b'api.football-data.org'), "
        "(b'X-Auth-Token', b'f00tba11t0ken'), (b'Accept', b'*/*')]",
        "send_request_headers.started headers=[(b'Host', b'api.football-data.org'), "
        "(b'X-Auth-Token', b'***'), (b'Accept', b'*/*')]",
    ),
    (
        "Authorization: Bot MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs",
        "Authorization: ***",
    ),
    ("Authorization: Bearer local-llama-key", "Authorization: ***"),
    ("retrying with Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc", "retrying with Bearer ***"),
    (
        "receive_response_headers.complete return_value=(b'HTTP/1.1', 200, b'OK', "
        "[(b'Set-Cookie', b'__dcfduid=4b2c; Path=/; HttpOnly'), (b'Content-Length', b'2')])",
        "receive_response_headers.complete return_value=(b'HTTP/1.1', 200, b'OK', "
        "[(b'Set-Cookie', b'***'), (b'Content-Length', b'2')])",
    ),
    (
        "GET https://feeds.example.org/v1/matches?season=2026&key=AIzaSyD-feed&lang=pt",
        "GET https://feeds.example.org/v1/matches?season=2026&key=***&lang=pt",
    ),
    (
        'body {"type": 2, "token": "interaction-tok", "id": "1"}',
        'body {"type": 2, "token": "***", "id": "1"}',
    ),
    (
        "cannot connect to postgresql+psycopg://pool:hunter2hunter2@db.internal:5432/pool",
        "cannot connect to postgresql+psycopg://pool:***@db.internal:5432/pool",
    ),
    ("anthropic rejected sk-ant-api03-abcdefghijklmnopqrstu", "anthropic rejected ***"),
    (
        "[conn=1, chan=0]   Command: register 4a45-b52a-f512",
        "[conn=1, chan=0]   Command: register ***",
    ),
    ("refused /link code:ABCD-EFGH from 8035", "refused /link code:*** from 8035"),
]

# Lines from a real run at DEBUG, and prose around the pool: nothing in them is secret,
# and each must reach the log as it is.
LOGS_HARMLESS = [
    "asyncssh INFO [conn=0] Beginning auth for user bruno",
    "asyncssh DEBUG [conn=0] Trying public key auth with ssh-ed25519 key",
    "anthropic._base_client DEBUG Request options: {'idempotency_key': "
    "'stainless-python-retry-3e75f90c-93ff-4069-bed0-32bee4c8b651', 'headers': {}}",
    "httpcore.http11 DEBUG receive_response_headers.complete return_value=(b'HTTP/1.1', 200, "
    "b'OK', [(b'Date', b'Thu, 03 Dec 2026 15:37:59 GMT'), (b'Content-Length', b'327')])",
    'httpx INFO HTTP Request: GET http://127.0.0.1:34919/v4/competitions/WC/matches "HTTP/1.1 200 OK"',
    'apscheduler.executors.default INFO Job "PoolScheduler.poll_results" executed successfully',
    "betania.discord ERROR Discord refused a post, skipped: Discord answered 400: Invalid Form Body",
    "no bot token (DISCORD_BOT_TOKEN); Bot commands need one",
    "a semi-final, a must-win, a 2026-06-11 kick-off at 18:00 UTC+0, user-agent and keep-alive",
]


def test_each_way_a_library_logs_a_secret_is_redacted_and_the_rest_of_the_line_kept() -> None:
    redact = Redactor()
    assert [redact(line) for line, _ in LOGS_LINES] == [shown for _, shown in LOGS_LINES]
    assert [line for line in LOGS_HARMLESS if redact(line) != line] == []


def test_what_she_and_the_pool_say_is_never_taken_for_a_secret() -> None:
    """Her prompts and the pool's sentences reach the log at DEBUG (the SDK logs each
    request): not one of their lines may lose a word to the redactor."""
    root = Path(__file__).parent.parent
    lines = [
        line
        for path in [*sorted((root / "prompts").iterdir()), root / "game" / "words_pt.txt"]
        for line in path.read_text().splitlines()
    ]
    redact = Redactor()
    assert len(lines) > 500
    assert [line for line in lines if redact(line) != line] == []


def test_every_invite_and_link_code_the_pool_makes_is_redacted_by_its_shape(pool: Pool) -> None:
    """Codes are made at run time, by this process or by ``betania invite create`` in
    another: the redactor knows them by the shape ``Members`` gives them."""
    pool.members.add("ana")
    invites = [pool.members.create_invite("console") for _ in range(100)]
    links = [pool.members.create_link_code("ana", "discord") for _ in range(100)]
    redact = Redactor()
    typed = invites + links + [code.upper() for code in links]  # a link code in any case
    shown = {redact(f"Command: register {code}; /link code:{code}.") for code in typed}
    assert shown == {"Command: register ***; /link code:***."}


def test_the_secrets_the_settings_hold_are_redacted_by_value_wherever_they_appear() -> None:
    """By value: an exception's text, a URL's query, a JSON body, whatever surrounds it."""
    env = {
        "ANTHROPIC_API_KEY": "anthropic-key-without-its-usual-prefix",
        "FOOTBALL_DATA_TOKEN": LOGS_FOOTBALL_TOKEN,
        "DISCORD_BOT_TOKEN": BOT_TOKEN,
        "DISCORD_WEBHOOK_URL": f"https://discord.com/api/webhooks/111/{LOGS_WEBHOOK_TOKEN}",
        "BETANIA_DB": "postgresql+psycopg://pool:p%40ss-of-the-pool@db.internal/pool",
    }
    settings = Settings.read(build_parser().parse_args(["serve"]), env)
    secrets = [
        "anthropic-key-without-its-usual-prefix",
        LOGS_FOOTBALL_TOKEN,
        BOT_TOKEN,
        LOGS_WEBHOOK_TOKEN,
        "p@ss-of-the-pool",
    ]
    assert sorted(settings.secrets()) == sorted(secrets)
    redact = Redactor(settings.secrets())
    for secret in secrets:
        for line in (
            f"SourceError: token {secret} refused",
            f"GET https://example.org/?t={quote(secret, safe='')}&page=2",
            f"{{'detail': 'bad {secret}'}}",
        ):
            assert secret not in redact(line) and "***" in redact(line), line
    assert redact(f"SourceError: token {LOGS_FOOTBALL_TOKEN} refused") == (
        "SourceError: token *** refused"
    )
    openai = Settings.read(
        build_parser().parse_args(["serve", "--provider", "openai-compatible"]),
        {"BETANIA_MODEL_API_KEY": "local-model-key-123"},
    )
    assert openai.secrets() == ["local-model-key-123"]


def test_a_secret_too_short_to_be_one_does_not_blank_the_log() -> None:
    """``FOOTBALL_DATA_TOKEN=e`` must not turn every "e" of the log into ***."""
    line = "httpx INFO HTTP Request: GET http://127.0.0.1:8000/ready"
    assert Redactor(["e", "1234567"])(line) == line
    assert Redactor(["12345678"])("id 12345678 seen") == "id *** seen"


def test_a_traceback_in_the_log_is_redacted_like_its_message() -> None:
    url = f"https://discord.com/api/webhooks/111/{LOGS_WEBHOOK_TOKEN}"
    formatter = RedactingFormatter(LOG_FORMAT, Redactor([LOGS_FOOTBALL_TOKEN]))
    try:
        raise RuntimeError(f"posting to {url} failed; feed token {LOGS_FOOTBALL_TOKEN}")
    except RuntimeError:
        record = logging.LogRecord(
            "betania.discord", logging.ERROR, __file__, 1, "post to %s", (url,), sys.exc_info()
        )
    written = formatter.format(record)
    assert LOGS_WEBHOOK_TOKEN not in written and LOGS_FOOTBALL_TOKEN not in written
    assert "betania.discord ERROR post to https://discord.com/api/webhooks/111/***\n" in written
    assert written.endswith(
        "RuntimeError: posting to https://discord.com/api/webhooks/111/*** failed; feed token ***"
    )
