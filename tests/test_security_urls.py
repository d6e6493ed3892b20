"""Issue 36, "urls+files": what comes from a URL is bounded, and private files are private.

Attacks reproduced, each over real HTTP on 127.0.0.1 or on real files:
- a fixtures or results URL that exhausts memory: a gzip bomb (300 KB on the wire,
  300 MiB inflated), a body past the cap with no Content-Length (chunked);
- one that crashes the reader: 200,000 nested ``[`` (RecursionError), a number of
  5,000 digits (Python's int limit, a ValueError);
- one that holds it for ever: a redirect loop, a server that drips its answer, or
  its headers, a byte at a time;
- and the feed keeps its last good state through all of them.
- A local user reading the database (invite and link codes): the data dir, the
  database and its WAL and SHM files are made private whatever the umask, and
  ``serve`` warns about a data dir others can enter.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import socket
import socketserver
import stat
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.app.cli import main
from game.db.engine import DATABASE_FILE, database_url, open_database, private_directory
from game.feeds.football_data import FootballDataSource
from game.feeds.openfootball_feed import OpenfootballSource
from game.feeds.poller import ResultsPoller
from game.openfootball import Tournament, parse_tournament
from game.pool import Pool
from game.sources import LIMITS, MiB, SourceError, SourceLimits, nesting, parse_json, read_json
from tests import football_data_v4 as v4
from tests.conftest import TEST_DATA, FakeClock
from tests.http_server import canned_server, served

WORLD_CUP = TEST_DATA / "worldcup-2026.json"
FD_PATH = "/v4/competitions/WC/matches"
# The real files, with the zone of their local times: none may be refused.
URLS_REAL_FILES = [
    ("worldcup-2026.json", None),
    ("br.1-2025.json", "America/Sao_Paulo"),
    ("en.1-2025-26.json", "Europe/London"),
    ("copa.l-2025.json", "America/Sao_Paulo"),
]
# The child that imports by URL reports its own peak memory: VmHWM belongs to the
# process image after exec, where ru_maxrss would also count the parent it forked from.
URLS_MEASURED_CHILD = """
import atexit, sys
def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            sys.stderr.write("peak-kib " + line.split()[1] + "\\n")
atexit.register(peak)
from bot.app.cli import main
sys.exit(main(sys.argv[1:]))
"""


def urls_padded(document: bytes, padding: int) -> Iterator[bytes]:
    """``document`` (a JSON object) with ``padding`` bytes of blanks before its last
    brace, a MiB at a time: still the same valid document, only bigger."""
    body = document.rstrip()
    assert body.endswith(b"}")
    yield body[:-1]
    block = b" " * MiB
    for _ in range(padding // MiB):
        yield block
    yield b" " * (padding % MiB) + b"}"


@pytest.fixture(scope="module")
def urls_bomb() -> bytes:
    """The World Cup file padded to 300 MiB and gzipped: about 300 KB on the wire."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    packed = [packer.compress(part) for part in urls_padded(WORLD_CUP.read_bytes(), 300 * MiB)]
    return b"".join([*packed, packer.flush()])


def urls_gzip_header() -> dict[str, str]:
    return {"Content-Encoding": "gzip"}


# -- a server that answers byte by byte: chunked bodies, drips ---------------------


@dataclass
class UrlsStreamServer:
    url: str
    requests: list[str] = field(default_factory=list)


@contextmanager
def urls_stream_server(respond: Callable[[socket.socket], None]) -> Iterator[UrlsStreamServer]:
    """A raw HTTP server on 127.0.0.1: reads a request's head, then lets ``respond``
    write whatever it likes on the socket, as slowly as it likes."""
    state = UrlsStreamServer("")

    class Handler(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            head = b""
            while b"\r\n\r\n" not in head:
                data = self.request.recv(4096)
                if not data:
                    return
                head += data
            state.requests.append(head.split(b"\r\n")[0].decode())
            with suppress(OSError):  # the client hung up: what the tests want
                respond(self.request)

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with served(server) as base_url:
        state.url = f"{base_url}/fixtures.json"
        yield state


def urls_chunked(parts: Iterator[bytes]) -> Callable[[socket.socket], None]:
    def respond(sock: socket.socket) -> None:
        sock.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        for part in parts:
            for start in range(0, len(part), 64 * 1024):
                piece = part[start : start + 64 * 1024]
                sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
        sock.sendall(b"0\r\n\r\n")

    return respond


def urls_drip(
    head: bytes, drip: bytes, every: float, lasting: float
) -> Callable[[socket.socket], None]:
    """Sends ``head`` at once, then ``drip`` a byte every ``every`` s for ``lasting`` s:
    never silent long enough for a read timeout."""

    def respond(sock: socket.socket) -> None:
        sock.sendall(head)
        end = time.monotonic() + lasting
        for byte in drip:
            if time.monotonic() > end:
                return
            sock.sendall(bytes([byte]))
            time.sleep(every)

    return respond


@pytest.fixture
def urls_betania(database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """``betania ARGS`` on the test's database; returns (exit code, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        code = main([*args, "--db", database_url, "--data-dir", str(tmp_path / "data")])
        out, err = capsys.readouterr()
        return code, out, err

    return run


# -- a gzip bomb: small on the wire, huge once inflated ----------------------------


def test_a_gzip_bomb_is_refused_at_the_cap_counted_after_decompression(
    urls_bomb: bytes, urls_betania
) -> None:
    assert len(urls_bomb) < 400_000
    with canned_server() as server:
        url = server.serve("/bomb.json", urls_bomb, headers=urls_gzip_header())
        started = time.monotonic()
        with pytest.raises(SourceError, match="more than 4 MiB once decompressed"):
            read_json(url)
        assert time.monotonic() - started < 5
        code, out, err = urls_betania("fixtures", "import", url)
    assert (code, out) == (1, "")
    assert err == f"betania: error: {url}: more than 4 MiB once decompressed; refused\n"


def test_a_gzip_bomb_import_stays_small_in_memory(urls_bomb: bytes, tmp_path: Path) -> None:
    """``betania fixtures import URL`` in a process of its own, its peak memory read from
    the kernel: the bomb may cost no more than a few MiB over the real file's import."""

    def peak_kib(url: str, data: str) -> tuple[int, int]:
        done = subprocess.run(
            [sys.executable, "-c", URLS_MEASURED_CHILD, "--data-dir", str(tmp_path / data),
             "fixtures", "import", url],
            capture_output=True, text=True, timeout=300, cwd=Path(__file__).parent.parent,
        )  # fmt: skip
        (line,) = [line for line in done.stderr.splitlines() if line.startswith("peak-kib ")]
        return done.returncode, int(line.split()[1])

    with canned_server() as server:
        real = server.serve("/worldcup.json", WORLD_CUP.read_bytes())
        bomb = server.serve("/bomb.json", urls_bomb, headers=urls_gzip_header())
        (real_code, real_peak), (bomb_code, bomb_peak) = peak_kib(real, "a"), peak_kib(bomb, "b")
    assert (real_code, bomb_code) == (0, 1)
    assert bomb_peak - real_peak < 32 * 1024, (real_peak, bomb_peak)


# -- past the cap with no Content-Length: chunked ----------------------------------


def test_a_chunked_body_past_the_cap_is_refused() -> None:
    big = urls_padded(WORLD_CUP.read_bytes(), 5 * MiB)  # a valid document, 5 MiB of blanks
    refused = pytest.raises(SourceError, match="more than 4 MiB once decompressed")
    with urls_stream_server(urls_chunked(big)) as server, refused:
        read_json(server.url)


def test_a_body_that_says_it_is_past_the_cap_is_refused_before_reading() -> None:
    head = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % (LIMITS.max_bytes + 1)
    with urls_stream_server(urls_drip(head, b"{" * 100, every=1.0, lasting=30)) as server:
        started = time.monotonic()
        with pytest.raises(SourceError, match="more than 4 MiB"):
            read_json(server.url)
        assert time.monotonic() - started < 2  # refused on the header, not after the drip


def test_a_body_just_under_the_cap_is_read() -> None:
    document = WORLD_CUP.read_bytes()
    padding = LIMITS.max_bytes - len(document.rstrip())
    whole = b"".join(urls_padded(document, padding))
    assert len(whole) == LIMITS.max_bytes
    with canned_server() as server:
        url = server.serve("/full.json", gzip.compress(whole), headers=urls_gzip_header())
        assert len(read_json(url)["matches"]) == 104


# -- nesting past a sane depth: a one-line error, never a RecursionError -----------


def test_deep_nesting_by_url_or_file_is_one_line_not_a_recursion_error(
    urls_betania, tmp_path: Path
) -> None:
    deep = "[" * 200_000
    local = tmp_path / "deep.json"
    local.write_text(deep)
    with canned_server() as server:
        url = server.serve("/deep.json", deep)
        for location in (url, str(local)):
            code, out, err = urls_betania("fixtures", "import", location)
            assert (code, out) == (1, "")
            assert err == f"betania: error: {location}: nested deeper than 32 levels; refused\n"


def test_a_number_past_pythons_digit_limit_is_not_json_not_a_crash(urls_betania) -> None:
    with canned_server() as server:
        url = server.serve("/long.json", '{"name": ' + "7" * 5000 + "}")
        code, _, err = urls_betania("fixtures", "import", url)
    assert code == 1
    assert err.startswith(f"betania: error: {url}: not valid JSON (") and err.count("\n") == 1


def test_the_depth_is_counted_outside_strings_and_stops_at_the_limit() -> None:
    def nested(depth: int) -> str:
        return "[" * depth + "]" * depth

    assert nesting(nested(LIMITS.max_depth)) == LIMITS.max_depth
    assert parse_json(nested(LIMITS.max_depth), "x") == json.loads(nested(LIMITS.max_depth))
    with pytest.raises(SourceError, match="nested deeper than 32"):
        parse_json(nested(LIMITS.max_depth + 1), "x")
    # brackets inside strings, escaped quotes, an open string at the end: not nesting
    tricky = json.dumps({"name": "[[[[{{{{" * 1000, "q": 'a "[" \\"[', "m": [{"x": ["]"]}]})
    assert nesting(tricky) == 4 and parse_json(tricky, "x")["m"] == [{"x": ["]"]}]
    assert nesting('["' + '\\"[' * 100_000) == 1
    # every real file nests 5 deep
    for name, _ in URLS_REAL_FILES:
        assert nesting((TEST_DATA / name).read_text("utf-8")) == 5


def test_the_depth_scan_stays_linear_on_hostile_strings() -> None:
    # an unterminated string of escaped quotes would make a backtracking scan quadratic
    hostile = '"' + '\\"' * (2 * MiB)
    started = time.monotonic()
    with pytest.raises(SourceError, match="not valid JSON"):
        parse_json(hostile, "x")
    assert time.monotonic() - started < 2


# -- redirects: a bounded number ---------------------------------------------------


def test_a_redirect_loop_stops_after_five() -> None:
    with canned_server() as server:
        loop = server.serve("/loop", "", status=302, headers={"Location": "/loop"})
        with pytest.raises(SourceError, match="more than 5 redirects"):
            read_json(loop)
        assert server.requests == ["/loop"] * 6


def test_a_few_redirects_still_reach_the_file() -> None:
    with canned_server() as server:
        server.serve("/worldcup.json", WORLD_CUP.read_bytes())
        server.serve("/c", "", status=301, headers={"Location": "/worldcup.json"})
        server.serve("/b", "", status=302, headers={"Location": "/c"})
        first = server.serve("/a", "", status=307, headers={"Location": "/b"})
        assert len(read_json(first)["matches"]) == 104


def test_football_data_does_not_follow_a_redirect_with_its_token(pool: Pool) -> None:
    with canned_server() as server:
        server.serve(FD_PATH, "", status=302, headers={"Location": "/elsewhere"})
        with pytest.raises(SourceError, match="HTTP 302"):
            FootballDataSource("secret", base_url=server.base_url).poll(pool)
        assert server.requests == [FD_PATH]


# -- time: a server that drips never holds the reader past its deadline ------------


@pytest.mark.parametrize("part", ["body", "headers"])
def test_a_slow_drip_is_cut_at_the_deadline(part: str) -> None:
    quick = SourceLimits(read=5.0, deadline=1.0)
    if part == "body":
        head = b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"
        drip = b'{"name": "Drip Cup", "matches": [' + b" " * 100_000
    else:  # headers that never end, a byte at a time: h11 allows 64 KiB of them
        head, drip = b"", b"HTTP/1.1 200 OK\r\nX-Drip: " + b"a" * 60_000
    with urls_stream_server(urls_drip(head, drip, every=0.05, lasting=20)) as server:
        started = time.monotonic()
        with pytest.raises(SourceError, match="no whole answer within 1 s"):
            read_json(server.url, limits=quick)
        took = time.monotonic() - started
    assert 1.0 <= took < 3.0


def test_the_deadline_holds_across_redirects(pool: Pool) -> None:
    quick = SourceLimits(read=5.0, deadline=1.0)
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"
    dripping = urls_stream_server(urls_drip(head, b"[" + b" " * 99_999, 0.05, 20))
    with dripping as target, canned_server() as server:
        hop = server.serve("/hop", "", status=302, headers={"Location": target.url})
        started = time.monotonic()
        with pytest.raises(SourceError, match="within 1 s"):
            OpenfootballSource(hop, limits=quick).poll(pool)
        assert time.monotonic() - started < 3.0


def test_a_fast_answer_is_not_cut() -> None:
    """The deadline timer is cancelled with the answer: nothing fires later on a reused
    socket or a finished read."""
    quick = SourceLimits(deadline=0.5)
    with canned_server() as server:
        url = server.serve("/worldcup.json", WORLD_CUP.read_bytes())
        for _ in range(3):
            assert len(read_json(url, limits=quick)["matches"]) == 104
            time.sleep(0.3)


# -- no false refusal: the real files still import by URL, plain or gzipped --------


@pytest.mark.parametrize(("name", "zone"), URLS_REAL_FILES)
@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "gzip"])
def test_the_real_files_import_by_url(
    urls_betania, name: str, zone: str | None, compressed: bool
) -> None:
    raw = (TEST_DATA / name).read_bytes()
    expected = parse_tournament(json.loads(raw), ZoneInfo(zone) if zone else None)
    with canned_server() as server:
        body, headers = (gzip.compress(raw), urls_gzip_header()) if compressed else (raw, {})
        url = server.serve(f"/{name}", body, headers=headers)
        code, out, err = urls_betania("fixtures", "import", url, *(["--tz", zone] if zone else []))
    assert (code, err) == (0, "")
    assert out.startswith(f"{expected.name}: {len(expected.fixtures)} matches in the file; ")


def test_a_whole_football_data_season_by_gzip_is_read(pool: Pool, clock: FakeClock) -> None:
    cup = urls_cup_2022(with_results=True)
    pool.fixtures.import_tournament(urls_cup_2022(with_results=False))
    clock.now = datetime(2022, 12, 20, tzinfo=UTC)
    body = v4.whole_tournament(cup).encode()
    with canned_server() as server:
        server.serve(FD_PATH, gzip.compress(body), headers=urls_gzip_header())
        report = FootballDataSource("t", base_url=server.base_url).poll(pool)
    assert (report.results, report.unmatched) == (64, [])


# -- the feed keeps its last good state when an answer is refused ------------------


def urls_cup_2022(with_results: bool) -> Tournament:
    data = json.loads((TEST_DATA / "worldcup-2022.json").read_text("utf-8"))
    if not with_results:
        for raw in data["matches"]:
            for key in ("score", "goals1", "goals2"):
                raw.pop(key, None)
    return parse_tournament(data, ZoneInfo("Asia/Qatar"))


def urls_feed_problems(pool: Pool) -> list[str]:
    return [item.event.text for item in pool.events(kinds=("feed_problem",))]


def urls_hostile_answers(bomb: bytes) -> list[tuple[bytes, dict[str, str], str]]:
    """(body, headers, what the admins hear) for each refused answer."""
    return [
        (bomb, urls_gzip_header(), "more than 4 MiB once decompressed"),
        (b"[" * 200_000, {}, "nested deeper than 32 levels"),
        (b'{"matches": ' + b"9" * 5000 + b"}", {}, "JSON ("),
        (b"this is not gzip", urls_gzip_header(), "broken gzip"),
    ]


@pytest.mark.parametrize("feed", ["football-data", "openfootball"])
def test_the_feed_keeps_its_last_good_state_through_refused_answers(
    pool: Pool, clock: FakeClock, urls_bomb: bytes, feed: str
) -> None:
    pool.fixtures.import_tournament(urls_cup_2022(with_results=False))
    clock.now = datetime(2022, 12, 20, tzinfo=UTC)
    with canned_server() as server:
        if feed == "football-data":
            path, good = FD_PATH, v4.whole_tournament(urls_cup_2022(with_results=True))
            source: FootballDataSource | OpenfootballSource = FootballDataSource(
                "t", base_url=server.base_url
            )
        else:
            path, good = "/worldcup.json", (TEST_DATA / "worldcup-2022.json").read_text()
            source = OpenfootballSource(server.base_url + path, ZoneInfo("Asia/Qatar"))
        poller = ResultsPoller(pool, source, interval=timedelta(seconds=60))
        server.serve(path, good)
        assert poller.poll_if_due() is not None
        results = [m.result for m in pool.matches()]
        assert sum(r is not None for r in results) == 64
        for body, headers, said in urls_hostile_answers(urls_bomb):
            server.serve(path, body, headers=headers)
            clock.now = poller.next_attempt or clock.now
            assert poller.poll_if_due() is None and poller.failures == 1
            assert [m.result for m in pool.matches()] == results
            assert said in urls_feed_problems(pool)[-1]
            assert "the last good state stays" in urls_feed_problems(pool)[-1]
            server.serve(path, good)
            clock.now = poller.next_attempt or clock.now
            assert poller.poll_if_due() is not None and poller.failures == 0
            assert [m.result for m in pool.matches()] == results


# -- private files: the data dir 0700, the database and its WAL and SHM 0600 -------


@contextmanager
def urls_umask(mask: int) -> Iterator[None]:
    previous = os.umask(mask)
    try:
        yield
    finally:
        os.umask(previous)


def urls_mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("mask", [0o022, 0o000], ids=["umask-022", "umask-000"])
def test_a_new_data_dir_and_its_database_are_private_whatever_the_umask(
    tmp_path: Path, clock: FakeClock, mask: int
) -> None:
    data = tmp_path / "home" / "betania"
    with urls_umask(mask):
        url = database_url(None, data)
        engine = open_database(url)
        pool = Pool(engine, clock)
        pool.members.add("ana")  # a write: the WAL and the shared memory exist now
        files = {name: urls_mode(data / name) for name in os.listdir(data)}
    assert urls_mode(data) == 0o700
    # The parent it made too (found by an outside attack: under umask 000, "home" was
    # 0777, and anyone could rename the private data dir away and put one of theirs).
    assert urls_mode(data.parent) == 0o700
    assert files == {f"{DATABASE_FILE}{end}": 0o600 for end in ("", "-wal", "-shm")}
    again = open_database(url)  # a second engine on the private files: it opens and reads
    assert [p.handle for p in Pool(again, clock).players()] == ["ana"]
    again.dispose()
    engine.dispose()


def test_a_private_data_dir_leaves_the_modes_of_existing_parents_alone(tmp_path: Path) -> None:
    """Only what it makes is made private: a parent that was there keeps its mode."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    with urls_umask(0o000):
        private_directory(shared / "d4" / "sub")
    assert urls_mode(shared) == 0o755
    assert (urls_mode(shared / "d4"), urls_mode(shared / "d4" / "sub")) == (0o700, 0o700)


def test_sqlite_gives_wal_and_shm_the_database_files_own_mode(tmp_path: Path) -> None:
    """What the 0600 database relies on: SQLite makes -wal and -shm with the database
    file's mode, not from the umask (0640 here, under a umask that would give 0644)."""
    database = tmp_path / "shared.db"
    with urls_umask(0o000):
        os.close(os.open(database, os.O_CREAT | os.O_WRONLY, 0o640))
        engine = open_database(f"sqlite:///{database}")
        Pool(engine).members.add("bia")
        modes = {path.name: urls_mode(path) for path in tmp_path.iterdir()}
    engine.dispose()
    assert modes == {"shared.db": 0o640, "shared.db-wal": 0o640, "shared.db-shm": 0o640}


async def urls_serve_until_listening(data: Path, url: str) -> tuple[str, str]:
    """``betania serve`` started on ``data`` until its banner; (stdout, stderr) so far."""
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.app.cli", "serve", "--port", "0", "--provider", "offline",
        "--data-dir", str(data), "--db", url,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert server.stdout is not None and server.stderr is not None
    try:
        async with asyncio.timeout(60):
            banner = (await server.stdout.readline()).decode()
    finally:
        server.kill()
        await server.wait()
    return banner, (await server.stderr.read()).decode()


@pytest.mark.parametrize("existing", [0o755, 0o750, None], ids=["0755", "0750", "new"])
def test_serve_warns_about_a_data_dir_others_can_enter(
    tmp_path: Path, database_url: str, existing: int | None
) -> None:
    data = tmp_path / "data"
    if existing is not None:
        data.mkdir()
        data.chmod(existing)
    with urls_umask(0o022):
        banner, errors = asyncio.run(urls_serve_until_listening(data, database_url))
    assert banner.startswith("BETanIA pool listening on 127.0.0.1:")
    warnings = [line for line in errors.splitlines() if "open to other users" in line]
    if existing is None:
        assert warnings == [] and urls_mode(data) == 0o700
        return
    assert urls_mode(data) == existing  # warned about, left as the admin made it
    (warning,) = warnings
    mode = stat.filemode(stat.S_IFDIR | existing)
    assert f"{data} is open to other users of this machine ({mode})" in warning
    assert warning.endswith(f"chmod 700 {data}")
