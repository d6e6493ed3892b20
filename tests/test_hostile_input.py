"""No player can hurt the pool: pastes, resizes, floods and hostile text, against a real server."""

import asyncio
import contextlib
import json
import os
import pty
import unicodedata
from pathlib import Path

import pytest
from sqlalchemy import update

from bot.agent.gateway import remembering
from frontends.limits import Limits
from frontends.ssh.frontend import ServerConfig
from frontends.ssh.library import asyncssh
from game.db.schema import matches
from game.feeds.football_data import parse_matches
from game.model import Score
from game.openfootball import parse_tournament
from game.pool import Pool
from game.rules import RuleViolation, check_handle
from game.text import clean, clean_block
from memory.inspect import diary_text
from tests.conftest import FakeClock, ScriptedModel, play
from tests.databases import write_lock_held
from tests.ssh_pool import (
    ServedPool,
    needs_openssh,
    openssh_identity,
    printed,
    read_until,
    served_pool,
)

# What the hostile-input probe sent, and more: each must arrive inert.
HOSTILE = [
    "\x1b]52;c;cm0gLXJmIH4=\x07",  # OSC 52: write the clipboard
    "\x1bc",  # reset the terminal
    "\x1b[2J\x1b[H",  # clear the screen, cursor home
    "\x9b2J",  # 8-bit CSI
    "\x9d0;title\x9c",  # 8-bit OSC
    "\x90q\x9c",  # 8-bit DCS
    "\x1bP1$r\x1b\\",  # DCS
    "\x07\x08\x00\x85",  # bell, backspace, NUL, NEL
    "\u202e\u2066\u061c",  # bidi overrides and marks
    "\u200d\u00ad\u2061\u180e\u206a\ufeff\u200b",  # invisible format characters
    "".join(chr(c) for c in (0xE0001, 0xE0041, 0xE007F)),  # tag characters
]


def inert(received: str) -> list[str]:
    """The characters in ``received`` that a terminal would act on or hide."""
    return [
        f"U+{ord(c):04X}"
        for c in received
        if c not in "\n" and unicodedata.category(c) in {"Cc", "Cf", "Cs", "Cn"}
    ]


def test_the_sanitizer_removes_every_hostile_string_and_keeps_the_text() -> None:
    for attack in HOSTILE:
        assert inert(clean(f"a{attack}b")) == [], repr(attack)
    assert clean("Côte d'Ivoire 🇨🇮 São Paulo") == "Côte d'Ivoire 🇨🇮 São Paulo"
    assert clean_block("one\r\ntwo\x1b[2J\nthree") == "one\ntwo\nthree"


def test_a_handle_with_a_trailing_newline_is_refused() -> None:
    assert check_handle("ana") == "ana"
    for bad in ("ana\n", "ana\r", "ana ", "\nana"):
        with pytest.raises(RuleViolation):
            check_handle(bad)


# -- pastes and floods ---------------------------------------------------------


async def standings_answer(served: ServedPool, handle: str) -> str:
    """A legitimate player's read, on its own connection: it must keep working."""
    async with asyncio.timeout(20):
        done = await served.run(handle, "standings")
    assert done.exit_status == 0, done.stderr
    return str(done.stdout)


def test_a_one_megabyte_paste_is_cut_and_the_pool_goes_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("eve")
            served.player("ana")
            async with served.connect("eve") as connection:
                process = await connection.create_process(term_type="xterm", term_size=(80, 24))
                await read_until(process.stdout, "eve>")
                process.stdin.write("say " + "x" * 1_000_000)
                # The server keeps serving others while the paste streams in.
                assert "ana" in await standings_answer(served, "ana")
                process.stdin.write("\r")
                seen = await read_until(process.stdout, "line too long")
                assert "line too long: at most 1000 characters" in seen
                (session,) = served.frontend.sessions.values()
                assert session.incoming.gate.typed == 0 and session.incoming.gate.waiting == 0
                process.stdin.write("standings\r")
                assert "eve" in await read_until(process.stdout, "picks")
            assert served.pool.events(kinds=("chat",)) == []

    asyncio.run(scenario())


def test_a_pasted_flood_of_lines_is_dropped_past_the_backlog_with_one_line(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("eve")
            async with served.connect("eve") as connection:
                process = await connection.create_process(term_type="xterm", term_size=(80, 24))
                await read_until(process.stdout, "eve>")
                process.stdin.write("spam spam spam\r" * 50_000)  # 750 KB of chat
                seen = await read_until(process.stdout, "the rest is dropped")
                # Typed while the lines let through are still being worked off, "quit" is
                # past the backlog too: like a person, type it again until it is heard.
                async with asyncio.timeout(20):
                    while "bye!" not in seen:
                        process.stdin.write("quit\r")
                        with contextlib.suppress(TimeoutError):
                            seen += await read_until(process.stdout, "bye!", timeout=1)
                assert seen.count("too much at once") == 1
            chat = served.pool.events(kinds=("chat",))
            assert len(chat) == Limits().chat_lines

    asyncio.run(scenario())


def test_line_mode_keeps_no_more_than_a_line_before_its_newline(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("eve")
            async with served.connect("eve") as connection:
                process = await connection.create_process()  # no PTY: plain lines
                await read_until(process.stdout, "Type help")
                for _ in range(3):  # read at 1 MB a second (``Limits.input_chars_*``)
                    process.stdin.write("y" * 1_000_000)
                await process.stdin.drain()
                assert "eve" in await standings_answer(served, "eve")
                (session,) = [s for s in served.frontend.sessions.values() if s.command is None]
                assert len(session.incoming.partial) <= Limits().line_length + 1
                process.stdin.write("\r\nstandings\r")
                seen = await read_until(process.stdout, "picks")
                assert "line too long: at most 1000 characters" in seen

    asyncio.run(scenario())


def test_a_resize_storm_redraws_a_few_times_and_others_play_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("eve")
            served.player("ana")
            async with served.connect("eve") as connection:
                process = await connection.create_process(term_type="xterm", term_size=(80, 24))
                await read_until(process.stdout, "eve>")
                (session,) = served.frontend.sessions.values()
                loop = asyncio.get_running_loop()
                started = loop.time()
                for size in range(5_000):
                    process.change_terminal_size(80 + size % 50, 24 + size % 10)
                    if size % 500 == 0:
                        await asyncio.sleep(0)
                assert "ana" in await standings_answer(served, "ana")
                await asyncio.sleep(0.3)
                elapsed = loop.time() - started
                interval = Limits().resize_interval
                assert 1 <= session.terminal.redraws <= elapsed / interval + 2
                process.stdin.write("standings\r")
                assert "eve" in await read_until(process.stdout, "picks")

    asyncio.run(scenario())


def test_limits_hold_per_player_across_connections_and_channels(tmp_path: Path) -> None:
    limits = Limits(chat_lines=5, chat_window=60, connections_per_player=3, sessions_per_player=50)

    async def scenario() -> None:
        async with served_pool(tmp_path, ServerConfig(port=0, limits=limits)) as served:
            served.player("eve")
            async with served.connect("eve") as connection:
                # One connection, a channel per command: the exec-mode flood.
                floods = await asyncio.gather(
                    *(connection.run(f"say flood {n}") for n in range(40))
                )
            refused = [f for f in floods if f.exit_status == 1]
            assert len(refused) == 35
            assert {f.stderr.split(":")[0] for f in refused} <= {"slow down", "too many commands"}
            assert len(served.pool.events(kinds=("chat",))) == 5
            # A second connection shares the same budget.
            elsewhere = await served.run("eve", "say from elsewhere")
            assert elsewhere.exit_status == 1 and elsewhere.stderr.startswith(("slow", "too many"))
            # Connections without a channel count too.
            held = [await served.connect("eve").__aenter__() for _ in range(3)]
            # The server hangs up right after authentication, saying why; the client
            # hears it while connecting or at its first channel.
            with pytest.raises((asyncssh.DisconnectError, asyncssh.ChannelOpenError)) as hung_up:
                async with served.connect("eve") as extra:
                    await extra.run("standings")
            if isinstance(hung_up.value, asyncssh.DisconnectError):
                assert "too many connections for eve (at most 3)" in hung_up.value.reason
            assert sum(served.frontend.connections.values()) == 3
            for connection in held:
                connection.close()
                await connection.wait_closed()
            await asyncio.sleep(0.1)
            assert served.frontend.connections == {}
            assert (await served.run("eve", "standings")).exit_status == 0

    asyncio.run(scenario())


# -- hostile text through every path that prints -------------------------------


def hostile_fixtures_file() -> dict[str, object]:
    """An openfootball file as a malicious or broken source could write it."""
    attack = "".join(HOSTILE)
    return {
        "name": f"Evil Cup{attack}",
        "matches": [
            {
                "round": f"Matchday 1{attack}",
                "group": f"Group A{HOSTILE[0]}",
                "date": "2026-06-11",
                "time": "18:00 UTC+0",
                "team1": f"Brazil{HOSTILE[1]}",
                "team2": f"Serbia{HOSTILE[8]}",
                "ground": f"Rio{HOSTILE[2]}",
            },
            {
                "round": "Matchday 1",
                "date": "2026-06-12",
                "time": "18:00 UTC+0",
                "team1": "Japan",
                "team2": f"Spain{HOSTILE[10]}",
            },
        ],
    }


def hostile_feed(kickoff: str) -> dict[str, object]:
    """A football-data.org v4 matches response whose scorer name carries an attack."""
    return {
        "matches": [
            {
                "id": 391881,
                "utcDate": kickoff,
                "status": "FINISHED",
                "homeTeam": {"id": 764, "name": "Brazil", "shortName": "Brazil", "tla": "BRA"},
                "awayTeam": {"id": 780, "name": "Serbia", "shortName": "Serbia", "tla": "SRB"},
                "score": {
                    "winner": "HOME_TEAM",
                    "duration": "REGULAR",
                    "fullTime": {"home": 1, "away": 0},
                    "halfTime": {"home": 0, "away": 0},
                },
                "goals": [
                    {
                        "minute": 62,
                        "injuryTime": None,
                        "type": "REGULAR",
                        "team": {"id": 764, "name": "Brazil"},
                        "scorer": {"id": 1, "name": f"Richarlison{''.join(HOSTILE)}"},
                    }
                ],
            }
        ]
    }


def test_hostile_text_from_files_feeds_chat_and_the_model_reaches_no_terminal(
    tmp_path: Path,
) -> None:
    tournament = parse_tournament(hostile_fixtures_file(), None)

    async def scenario() -> None:
        async with served_pool(tmp_path, tournament=tournament) as served:
            served.player("ana")
            served.player("eve")
            served.player("admin", admin=True)
            served.pool.members.add("betania")
            # An older pool may hold raw text from before: the terminal boundary still holds.
            raw = "".join(HOSTILE)
            if served.pool.engine.dialect.name == "postgresql":
                raw = raw.replace("\x00", "")  # PostgreSQL's text cannot hold a NUL at all
            with served.pool.engine.begin() as connection:
                connection.execute(update(matches).where(matches.c.number == 2).values(venue=raw))
            async with served.connect("ana") as connection:
                watcher = await connection.create_process()
                received = await read_until(watcher.stdout, "Type help")
                served.clock.now = served.pool.match(1).kickoff
                assert (await served.run("admin", "kickoff 1")).exit_status == 0
                served.pool.fixtures.apply_results(
                    parse_matches(hostile_feed("2026-06-11T18:00:00Z")), "football-data"
                )
                for attack in HOSTILE:
                    await served.run("eve", f"say hi{attack}there")
                served.pool.talk.remark("betania", f"a lying model says{''.join(HOSTILE)}")
                received += await read_until(watcher.stdout, "a lying model says")
                for command in ("matches all", "match 1", "match 2", "standings", "help"):
                    watcher.stdin.write(f"{command}\n")
                watcher.stdin.write("quit\n")
                received += await read_until(watcher.stdout, "bye!")
                outputs = [
                    await served.run("ana", command)
                    for command in ("matches all", "matches --json", "match 1", "match 2")
                ]
            assert inert(received) == []
            assert "GOAL! #1 Brazil 1-0 Serbia (62' Richarlison)" in received
            assert "Full time: #1 Brazil 1-0 Serbia" in received
            assert "eve: hithere" in received
            for output in outputs:
                assert inert(output.stdout) == [] and inert(output.stderr) == []
            assert json.loads(outputs[1].stdout)[1]["team2"] == "Spain"

    asyncio.run(scenario())


# -- a database that waits -----------------------------------------------------


def test_a_held_write_lock_delays_writes_answers_busy_and_never_freezes_reads(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path, busy_timeout=0.5) as served:
            served.player("ana")
            served.player("bia")
            async with served.connect("bia") as connection:
                watcher = await connection.create_process()
                await read_until(watcher.stdout, "Type help")
                # Another process takes the write lock and sits on it.
                with write_lock_held(str(served.pool.engine.url.render_as_string(False))):
                    reads = await asyncio.gather(
                        *(served.run("ana", "standings") for _ in range(3))
                    )
                    assert [(r.exit_status, r.stderr) for r in reads] == [(0, "")] * 3
                    watcher.stdin.write("matches\n")
                    assert "Brazil" in await read_until(watcher.stdout, "Serbia")
                    bet = await served.run("ana", "bet 1 2-1")
                    assert (bet.exit_status, bet.stderr) == (
                        1,
                        "the pool is busy right now; try again in a moment\n",
                    )
                    watcher.stdin.write("bet 2 1-1\n")
                    assert "busy" in await read_until(watcher.stdout, "try again")
                assert (await served.run("ana", "bet 1 2-1")).exit_status == 0
                watcher.stdin.write("quit\n")
                await watcher.wait_closed()
            await asyncio.sleep(0.1)
            assert served.frontend.sessions == {}
            assert (await served.run("ana", "standings")).exit_status == 0

    asyncio.run(scenario())


# -- a newcomer on a real terminal ---------------------------------------------


class Terminal:
    """The stock OpenSSH client in a pseudo-terminal, typed into as a person would."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.screen = ""

    @property
    def text(self) -> str:
        return printed(self.screen)

    async def read_until(self, needle: str, timeout: float = 15.0) -> str:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(timeout):
                while needle not in self.text:
                    ready: asyncio.Future[None] = loop.create_future()
                    loop.add_reader(self.master, ready.set_result, None)
                    try:
                        await ready
                    finally:
                        loop.remove_reader(self.master)
                    self.screen += os.read(self.master, 65536).decode("utf-8", "replace")
        except TimeoutError:
            raise AssertionError(f"{needle!r} not on screen: ...{self.screen[-300:]!r}") from None
        return self.screen

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())


@needs_openssh
def test_a_newcomer_registers_from_the_openssh_client_on_a_real_terminal(tmp_path: Path) -> None:
    identity = openssh_identity(tmp_path)

    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            code = served.pool.members.create_invite("console")
            master, slave = pty.openpty()
            client = await asyncio.create_subprocess_exec(
                "ssh", "-tt", "-p", str(served.port), *identity, "newbie@127.0.0.1",
                stdin=slave, stdout=slave, stderr=slave, env={**os.environ, "TERM": "xterm"},
            )  # fmt: skip
            os.close(slave)
            terminal = Terminal(master)
            try:
                await terminal.read_until("Invite code:")
                for char in code:  # typed a key at a time, each echoed back
                    terminal.type(char)
                await terminal.read_until(code)
                terminal.type("\r")  # Enter, as a terminal sends it
                await terminal.read_until("Handle (Enter for newbie):")
                terminal.type("elis\r")
                await terminal.read_until("Welcome to the pool, elis!")
                terminal.type("bet 1 2-1\r")
                await terminal.read_until("your pick is 2-1")
                terminal.type("bet 1 9-9")
                await terminal.read_until("9-9")
                terminal.type("\x03")  # Ctrl-C: the line typed is dropped, the session goes on
                terminal.type("bet 1 3-1\r")
                await terminal.read_until("your pick is 3-1 (was 2-1)")
                terminal.type("\x04")  # Ctrl-D on an empty line leaves
                async with asyncio.timeout(10):
                    assert await client.wait() == 0
            finally:
                if client.returncode is None:
                    client.kill()
                    await client.wait()
                os.close(master)
            public_key = (tmp_path / "id.pub").read_text()
            assert served.pool.members.key_owner(public_key) == "elis"
            assert [p.score for p in served.pool.predictions_of("elis")] == [Score(3, 1)]

    asyncio.run(scenario())


def test_a_lying_model_cannot_put_escape_sequences_in_the_diary_or_her_prompts(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    attack = "".join(HOSTILE)
    model = ScriptedModel(diary_entry=lambda _call: f"Brazil won{attack}, as foretold")
    keeper, _gateway = remembering(tournament_pool, model)
    keeper.enable()
    tournament_pool.talk.chat("ana", f"@betania remember that I love{attack} penalties")
    play(tournament_pool, clock, 1, "1-0")
    keeper.catch_up()
    written = diary_text(keeper.store)
    assert "Brazil won" in written and "as foretold" in written and inert(written) == []
    for call in model.calls:
        assert inert(call.system) == [] and inert(call.prompt) == []


def test_a_miscounted_backlog_never_locks_a_player_out(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("eve")
            async with served.connect("eve") as connection:
                process = await connection.create_process(term_type="xterm", term_size=(80, 24))
                await read_until(process.stdout, "eve>")
                # Enter in a Ctrl-R search uses a line end and returns no line
                for _ in range(Limits().input_backlog + 5):
                    process.stdin.write("\x12zz")
                    await asyncio.sleep(0.02)
                    process.stdin.write("\r")
                    await asyncio.sleep(0.02)
                process.stdin.write("standings\r")
                assert "eve" in await read_until(process.stdout, "picks")
                process.stdin.write("tz\r")
                assert "your time zone is UTC" in await read_until(process.stdout, "UTC")

    asyncio.run(scenario())
