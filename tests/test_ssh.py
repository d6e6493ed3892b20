import asyncio
import json
import os
import stat
import subprocess
import threading
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import event

from frontends.limits import Limits
from frontends.ssh.frontend import ServerConfig
from frontends.ssh.library import asyncssh
from frontends.ssh.server import HOST_KEY_FILE
from tests.ssh_pool import (
    answering,
    join_at_the_prompt,
    needs_openssh,
    offline_commentator,
    openssh_identity,
    read_until,
    served_pool,
)


def test_exec_mode_runs_one_command_and_exits(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("ana")
            placed = await served.run("ana", "bet 1 2-1")
            assert (placed.exit_status, placed.stdout) == (
                0,
                "#1 Brazil v Serbia: your pick is 2-1\n",
            )
            table = await served.run("ana", "standings --json")
            assert json.loads(table.stdout) == [
                {
                    "rank": 1,
                    "player": "ana",
                    "points": 0,
                    "exact": 0,
                    "outcome": 0,
                    "predictions": 0,
                    "joker": 0,
                    "bonus": 0,
                    "days": 0,
                }
            ]
            matches = json.loads((await served.run("ana", "matches --json")).stdout)
            assert [m["pick"] for m in matches] == ["2-1", None, None, None]
            mine = json.loads((await served.run("ana", "mybets --json")).stdout)
            assert mine == [
                {"match": 1, "pick": "2-1", "result": None, "points": None, "joker": False}
            ]
            wrong = await served.run("ana", "bet 99 2-1")
            assert (wrong.exit_status, wrong.stdout, wrong.stderr) == (1, "", "no match #99\n")
            unknown = await served.run("ana", "dance")
            assert (
                unknown.exit_status == 1 and unknown.stderr == "unknown command 'dance'; try help\n"
            )

    asyncio.run(scenario())


def test_a_bet_is_refused_from_kickoff_by_the_servers_clock(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("ana")
            kickoff = served.pool.match(1).kickoff
            served.clock.now = kickoff - timedelta(seconds=1)
            assert (await served.run("ana", "bet 1 1-0")).exit_status == 0
            served.clock.now = kickoff
            late = await served.run("ana", "bet 1 3-0")
            assert late.exit_status == 1 and "kicked off" in late.stderr
            assert [p.score.home for p in served.pool.predictions_of("ana")] == [1]

    asyncio.run(scenario())


def test_a_key_never_acts_as_another_handle(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            ana = served.player("ana")
            served.player("bia")
            with pytest.raises(asyncssh.PermissionDenied):
                await served.run("bia", "standings", key=ana)
            with pytest.raises(asyncssh.PermissionDenied):
                await served.run("bia", "standings", key=served.new_key())

    asyncio.run(scenario())


def test_newcomers_register_with_an_invite(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            key = served.new_key()
            refused = await served.run("carol", "standings", key=key)
            assert refused.exit_status == 1 and "register first" in refused.stderr
            bad = await served.run("carol", "register nope-nope", key=key)
            assert bad.exit_status == 1 and bad.stderr == "that invite code is not valid\n"
            code = served.pool.members.create_invite("ana", uses=1)
            joined = await served.run("carol", f"register {code}", key=key)
            assert (joined.exit_status, joined.stdout) == (
                0,
                "welcome, carol! you are in the pool\n",
            )
            assert (await served.run("carol", "standings", key=key)).exit_status == 0
            again = await served.run("dave", f"register {code}", key=served.new_key())
            assert again.exit_status == 1 and "not valid" in again.stderr  # one use only

    asyncio.run(scenario())


def test_an_interactive_newcomer_is_asked_for_the_code_and_a_handle(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            code = served.pool.members.create_invite("ana")
            key = served.new_key()
            async with served.connect("newbie", key) as connection:
                process = await join_at_the_prompt(connection, code, "elis", "elis")
                process.stdin.write("quit\n")
                await process.wait_closed()
            assert served.pool.members.key_owner(key.export_public_key().decode()) == "elis"

    asyncio.run(scenario())


def test_an_open_pool_lets_anyone_register(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path, ServerConfig(port=0, open_registration=True)) as served:
            joined = await served.run("fred", "register", key=served.new_key())
            assert joined.exit_status == 0 and served.pool.player("fred") is not None

    asyncio.run(scenario())


def test_a_goal_reaches_every_connected_session(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("ana")
            served.player("bia")
            served.player("admin", admin=True)
            async with served.connect("ana") as first, served.connect("bia") as second:
                watchers = [await first.create_process(), await second.create_process()]
                for watcher in watchers:
                    await read_until(watcher.stdout, "Type help")
                served.clock.now = served.pool.match(1).kickoff
                assert (await served.run("admin", "kickoff 1")).exit_status == 0
                assert (await served.run("admin", "goal 1 home 23 Vini Jr")).exit_status == 0
                for watcher in watchers:
                    seen = await read_until(watcher.stdout, "GOAL!")
                    assert "Kick-off! #1 Brazil v Serbia" in seen
                    assert "GOAL! #1 Brazil 1-0 Serbia (23' Vini Jr)" in seen
                    watcher.stdin.write("quit\n")

    asyncio.run(scenario())


def test_an_escape_sequence_in_chat_arrives_neutralised(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("ana")
            served.player("eve")
            async with served.connect("ana") as connection:
                reader = await connection.create_process()
                await read_until(reader.stdout, "Type help")
                attack = "say \x1b[2J\x1b]0;pwned\x07hi \x1b[31mall\u202e\x9b5A"
                assert (await served.run("eve", attack)).exit_status == 0
                seen = await read_until(reader.stdout, "eve: ")
                while "\n" not in seen[seen.index("eve: ") :]:
                    seen += await reader.stdout.read(4096)
                line = seen[seen.index("eve: ") :].splitlines()[0]
                assert line == "eve: hi all"
                assert "\x1b" not in seen and "\x9b" not in seen and "pwned" not in seen
                reader.stdin.write("quit\n")

    asyncio.run(scenario())


def test_limits_answer_in_one_line_and_the_session_goes_on(tmp_path: Path) -> None:
    limits = Limits(
        line_length=50, chat_lines=2, chat_window=60, sessions_per_player=1, command_burst=30
    )

    async def scenario() -> None:
        async with served_pool(tmp_path, ServerConfig(port=0, limits=limits)) as served:
            served.player("ana")
            async with served.connect("ana") as connection:
                process = await connection.create_process()
                await read_until(process.stdout, "Type help")
                process.stdin.write("say " + "x" * 60 + "\n")
                assert "line too long: at most 50 characters" in await read_until(
                    process.stdout, "characters"
                )
                for text in ("one", "two", "three"):
                    process.stdin.write(f"say {text}\n")
                assert "slow down: at most 2 chat lines" in await read_until(
                    process.stdout, "seconds"
                )
                process.stdin.write("standings\n")
                assert "ana" in await read_until(process.stdout, "picks")
                async with served.connect("ana") as second:
                    crowd = await second.run("standings")  # a second session for ana
                    assert crowd.exit_status == 1
                    assert crowd.stderr == "you already have 1 open session (at most 1)\n"
                process.stdin.write("quit\n")
                await process.wait_closed()
            chat = [e.event.text for e in served.pool.events(kinds=("chat",))]
            assert chat == ["one", "two"]

    asyncio.run(scenario())


def test_too_many_commands_a_second(tmp_path: Path) -> None:
    limits = Limits(commands_per_second=1, command_burst=3)

    async def scenario() -> None:
        async with served_pool(tmp_path, ServerConfig(port=0, limits=limits)) as served:
            served.player("ana")
            async with served.connect("ana") as connection:
                process = await connection.create_process()
                await read_until(process.stdout, "Type help")
                process.stdin.write("tz\n" * 5)
                seen = await read_until(process.stdout, "too many commands")
                assert seen.count("your time zone is UTC") == 3
                process.stdin.write("quit\n")

    asyncio.run(scenario())


def test_an_idle_session_is_closed_politely(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(
            tmp_path, ServerConfig(port=0, limits=Limits(idle_timeout=0.3))
        ) as served:
            served.player("ana")
            async with served.connect("ana") as connection:
                process = await connection.create_process()
                seen = await read_until(process.stdout, "bye!")
                assert "idle for 0.005 minutes: bye! (your picks are saved)" in seen
                await process.wait_closed()

    asyncio.run(scenario())


def test_a_client_that_vanishes_mid_command_harms_nobody(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("ana")
            for _ in range(3):
                async with served.connect("ana") as connection:
                    process = await connection.create_process(term_type="xterm")
                    process.stdin.write("bet 2 ")  # half a command, then gone
                    connection.abort()
            await asyncio.sleep(0.1)
            assert (await served.run("ana", "standings")).exit_status == 0
            assert served.frontend.sessions == {}

    asyncio.run(scenario())


def test_the_interactive_prompt_with_a_terminal(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("ana")
            async with served.connect("ana") as connection:
                process = await connection.create_process(term_type="xterm", term_size=(100, 30))
                await read_until(process.stdout, "ana>")
                process.stdin.write("bet 2 1-0\r")
                assert "#2 Argentina v Mexico: your pick is 1-0" in await read_until(
                    process.stdout, "your pick"
                )
                # Tab lists the matches still open (read in a thread), Tab again takes #1.
                process.stdin.write("bet \t")
                await read_until(process.stdout, " 4 ")
                process.stdin.write("\t 2-0\r")
                assert "#1 Brazil v Serbia: your pick is 2-0" in await read_until(
                    process.stdout, "your pick"
                )
                served.pool.talk.chat("ana", "hello from the console")
                assert "ana: hello from the console" in await read_until(process.stdout, "console")
                process.change_terminal_size(60, 20)
                process.stdin.write("race\r")
                # at 60 columns the reply is laid out in rows, the words unbroken
                said = await read_until(process.stdout, "whistle")
                assert "No finished matches yet" in said and "final" in said
                process.stdin.write("quit\r")
                await read_until(process.stdout, "bye!")
            assert [p.score.home for p in served.pool.predictions_of("ana")] == [2, 1]

    asyncio.run(scenario())


def test_the_host_key_is_made_once_and_kept_private(tmp_path: Path) -> None:
    async def fingerprint() -> str:
        async with served_pool(tmp_path) as served:
            served.player("ana") if served.pool.player("ana") is None else None
            async with served.connect("ana", served.keys.get("ana")) as connection:
                return connection.get_server_host_key().get_fingerprint()

    first = asyncio.run(fingerprint())
    (tmp_path / "pool.db").unlink(missing_ok=True)  # a new pool (PostgreSQL: a new database)
    second = asyncio.run(fingerprint())
    assert first == second
    assert stat.S_IMODE(os.stat(tmp_path / HOST_KEY_FILE).st_mode) == 0o600


def test_front_ends_given_one_host_key_path_present_one_key(tmp_path: Path) -> None:
    """Behind one address (a TCP load balancer) every front end must show the same key."""
    shared = tmp_path / "keys" / "pool_host_key"

    async def fingerprint(folder: Path) -> str:
        folder.mkdir()
        async with served_pool(folder, ServerConfig(port=0, host_key=shared)) as served:
            served.player("ana")
            async with served.connect("ana") as connection:
                return connection.get_server_host_key().get_fingerprint()

    async def both() -> list[str]:  # started together: the first makes the key, whole
        return list(await asyncio.gather(fingerprint(tmp_path / "a"), fingerprint(tmp_path / "b")))

    first, second = asyncio.run(both())
    assert first == second and not (tmp_path / "a" / HOST_KEY_FILE).exists()
    assert stat.S_IMODE(os.stat(shared).st_mode) == 0o600
    assert [p.name for p in shared.parent.iterdir()] == ["pool_host_key"]  # nothing left aside


@needs_openssh
def test_the_openssh_client_in_exec_mode(tmp_path: Path) -> None:
    identity = openssh_identity(tmp_path)

    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.pool.members.add("ana", keys=[(tmp_path / "id.pub").read_text()])
            base = [
                "ssh",
                "-p",
                str(served.port),
                *identity,
                "-o",
                "BatchMode=yes",
                "ana@127.0.0.1",
            ]

            async def ssh(*command: str) -> tuple[int, str, str]:
                process = await asyncio.create_subprocess_exec(
                    *base,
                    *command,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    stdin=subprocess.DEVNULL,
                )
                out, err = await process.communicate()
                return process.returncode, out.decode(), err.decode()

            assert await ssh("bet", "3", "2-2") == (0, "#3 Japan v Spain: your pick is 2-2\n", "")
            code, out, _ = await ssh("standings")
            assert code == 0 and out.splitlines()[2].split()[:2] == ["1", "ana"]
            assert await ssh("bet", "3", "x") == (
                1,
                "",
                "not a score: 'x' (write it like 2-1)\n",
            )

    asyncio.run(scenario())


@needs_openssh
def test_a_line_to_her_in_exec_mode_prints_her_answer(tmp_path: Path) -> None:
    identity = openssh_identity(tmp_path)

    async def scenario() -> None:
        async with served_pool(tmp_path, ServerConfig(port=0, answer_wait=10.0)) as served:
            served.pool.members.add("ana", keys=[(tmp_path / "id.pub").read_text()])
            commentator = offline_commentator(served.pool)

            async def ssh(*command: str) -> tuple[int, str, str]:
                process = await asyncio.create_subprocess_exec(
                    "ssh", "-p", str(served.port), *identity, "-o", "BatchMode=yes",
                    "ana@127.0.0.1", *command,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                )  # fmt: skip
                out, err = await process.communicate()
                return process.returncode or 0, out.decode(), err.decode()

            config = served.frontend.config
            served.frontend.config = replace(config, answer_wait=0.5)
            late = await ssh("@betania", "how", "am", "I", "doing?")  # nobody is answering yet
            assert late == (
                0,
                "BETanIA has not answered yet; her answer will be in the pool's chat\n",
                "",
            )

            served.frontend.config = config
            async with answering(commentator):
                code, out, err = await ssh("@betania", "quem", "está", "na", "frente?")
                assert (code, err) == (0, "")
                assert (
                    out
                    == "BETanIA: Nobody leads yet: not a point has been scored. Ask me again after the first final whistle.\n"
                )
                code, out, _ = await ssh("@betania", "remember", "that", "I", "speak", "Japanese")
                assert code == 0 and "ana: you speak Japanese" in out

    asyncio.run(scenario())


def test_a_portuguese_pool_speaks_portuguese_to_its_players(tmp_path: Path) -> None:
    """``--language pt``: the welcome, the help line, replies, errors and live notices."""

    async def scenario() -> None:
        config = ServerConfig(port=0, language="pt")
        async with served_pool(tmp_path, config) as served:
            served.player("ana")
            served.player("admin", admin=True)
            help_line = await served.run("ana", "ajuda")
            assert "palpite N 2-1" in help_line.stdout and "o que faz" in help_line.stdout
            bet = await served.run("ana", "palpite 1 2x0")
            assert bet.stdout == "#1 Brazil v Serbia: seu palpite é 2-0\n"
            wrong = await served.run("ana", "palpite 1 dois")
            assert wrong.exit_status == 1
            assert wrong.stderr == "placar inválido: 'dois' (escreva assim: 2-1)\n"
            async with served.connect("ana") as connection:
                watcher = await connection.create_process()
                await read_until(watcher.stdout, "Digite ajuda")
                served.clock.now = served.pool.match(1).kickoff
                late = await served.run("ana", "palpite 1 3-0")
                assert late.stderr == "#1 Brazil v Serbia já começou; palpites encerrados\n"
                for line in ("inicio 1", "gol 1 fora 90+3 Mitrović", "resultado 1 0-1"):
                    done = await served.run("admin", line)
                    assert done.exit_status == 0, done.stderr
                seen = await read_until(watcher.stdout, "Fim de jogo: #1 Brazil 0-1 Serbia")
                assert "Bola rolando! #1 Brazil v Serbia" in seen
                assert "GOL! #1 Brazil 0-1 Serbia (90+3' Mitrović)" in seen
                watcher.stdin.write("sair\n")
                assert "tchau!" in await read_until(watcher.stdout, "tchau!")

    asyncio.run(scenario())


CRAWL = 2.0  # seconds a crawling statement takes


def test_a_slow_database_call_stalls_no_one_else(tmp_path: Path) -> None:
    """The event loop never runs the database: a login whose key check crawls (a slow
    disk, a server a network away) leaves the loop and everyone else's commands alone."""

    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("ana")
            served.player("bia")
            crawling = threading.Event()

            def crawl(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
                if crawling.is_set() and "player_keys" in statement:
                    time.sleep(CRAWL)  # in whichever thread runs it: never the loop, we check

            event.listen(served.pool.engine, "before_cursor_execute", crawl)
            loop = asyncio.get_running_loop()

            async def timed(command: str, connection: asyncssh.SSHClientConnection) -> float:
                started = loop.time()
                assert "Brazil v Serbia" in (await connection.run(command, check=True)).stdout
                return loop.time() - started

            async with served.connect("bia") as bia:  # in before the database slows
                crawling.set()
                started = loop.time()
                login = asyncio.create_task(served.run("ana", "standings"))
                answered = asyncio.create_task(timed("matches", bia))
                worst_lateness = 0.0
                while not login.done():
                    before = loop.time()
                    await asyncio.sleep(0.01)
                    worst_lateness = max(worst_lateness, loop.time() - before - 0.01)
                assert (await login).exit_status == 0
                assert loop.time() - started >= CRAWL  # ana's login did crawl
                # Half the crawl: a loop that ran the statement would be late by all of it.
                assert await answered < CRAWL / 2
                assert worst_lateness < CRAWL / 2

    asyncio.run(scenario())
