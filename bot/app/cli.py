"""The ``betania`` command: one entry point, one small function per subcommand.

Every failure a user can cause (a ``UserError``) ends in one line on stderr and
exit 1. Anything else is a bug: one line and a hint, exit 2; ``--debug`` (or
``BETANIA_DEBUG=1``) shows its traceback instead.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn
from zoneinfo import ZoneInfo

from bot.agent.providers.registry import AUTO, PROVIDERS, auto_help, provider_choices
from bot.app.settings import LOG_LEVELS, DiscordSettings, Settings
from game.bets_csv import dates_read_as, read_bets
from game.errors import FileProblems, UserError
from game.matchdays import TIEBREAKS
from game.model import InvalidScore, Score
from game.reminders import DEFAULT_LEAD
from game.scoring import PRESETS, ScoreBasis
from game.words import LANGUAGES
from game.zones import time_zone

# Only what the parser needs is imported here. Each command imports what it uses when it
# runs (the database engine, the commentator, asyncssh, aiohttp, a provider's SDK): every
# command paid for all of them, `betania --version` seconds of it (tests/test_cli.py).
if TYPE_CHECKING:
    from bot.agent.commentator import Commentator
    from bot.agent.scheduler import PoolScheduler
    from bot.app.lifecycle import Companion
    from frontends.ssh.frontend import ServerConfig
    from game.db.chain import Head
    from game.db.leader import Leadership
    from game.feeds.poller import ResultsPoller
    from game.model import Match
    from game.pool import Pool
    from memory.keeper import MemoryKeeper
    from memory.store import MemoryStore

LEAD_RETRY = 2.0  # seconds between tries for the lead: a takeover within a few seconds
DESCRIPTION = "BETanIA: a World Cup betting pool with an AI commentator."


class UsageError(UserError):
    """A command line that asks for something impossible; the message says what."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse's default prints the whole usage; one line is enough to act on.
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def positive_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 1 <= seconds <= 86_400:
        raise argparse.ArgumentTypeError("between 1 and 86400 seconds")
    return seconds


def port(text: str) -> int:
    # bind() would refuse it later, as an "unexpected error" after the pool opened.
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"port {number} is not between 0 and 65535")
    return number


def zone(name: str) -> ZoneInfo:
    found = time_zone(name)
    if found is None:
        raise argparse.ArgumentTypeError(f"unknown time zone {name!r} (like America/Sao_Paulo)")
    return found


def score(text: str) -> Score:
    try:
        return Score.parse(text)
    except InvalidScore as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def head(text: str) -> Head:
    from game.db.chain import BadHead, Head

    try:
        return Head.parse(text)
    except BadHead as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def settings_of(args: argparse.Namespace) -> Settings:
    settings: Settings = args.settings  # read once by ``main``
    return settings


def earlier_season(args: argparse.Namespace) -> list[Match]:
    """``--previous-season``'s finished matches: where her club ratings start."""
    if not args.previous_season:
        return []
    from game.openfootball import parse_tournament, played
    from game.sources import read_json

    return played(parse_tournament(read_json(args.previous_season), args.tz))


def open_pool(args: argparse.Namespace) -> Pool:
    from game.db.engine import open_database
    from game.pool import Pool

    return Pool(open_database(settings_of(args).database_url()))


# -- subcommands --------------------------------------------------------------


def cmd_fixtures_import(args: argparse.Namespace) -> None:
    from game.openfootball import parse_tournament
    from game.sources import read_json

    tournament = parse_tournament(read_json(args.source), args.tz)
    report = open_pool(args).fixtures.import_tournament(tournament)
    print(
        f"{report.tournament}: {len(tournament.fixtures)} matches in the file; "
        f"{report.created} new, {report.updated} updated, {report.results} results, "
        f"{report.goals} goals"
    )
    if report.kept_admin_results:
        kept = ", ".join(f"#{number}" for number in report.kept_admin_results)
        print(f"kept the results an admin entered for {kept}")
    for official, ours in report.renumbered:
        print(f"match {official} of the file is #{ours} in this pool: {official} was already taken")


def cmd_bets_import(args: argparse.Namespace) -> None:
    from game.sources import read_text

    text = read_text(args.file)
    rows, unread = read_bets(text)
    assigned = dict(given.rsplit("=", 1) for given in args.assign)
    report = open_pool(args).predictions.import_bets(rows, unread, assigned=assigned)
    print(
        f"{len(rows)} rows: {report.placed} picks placed, {report.changed} changed, "
        f"{report.unchanged} already there, {len(report.refused)} refused; "
        f"{len(report.players_created)} new players"
    )
    if order := dates_read_as(text):
        print(f"dates read as {order}")
    for line in report.folded_lines() + report.changes:
        print(line)
    if report.held:
        print("held, not imported (a look-alike handle may not be theirs):")
    for line in report.held_lines():
        print(f"  {line}")
    if report.refused:
        print("refused, and nothing written for them:")
    for refused in report.refused:
        print(f"  {refused.text()}")


def cmd_squads_import(args: argparse.Namespace) -> None:
    from game.sources import read_text
    from game.squads import read_squads

    rows, unread = read_squads(read_text(args.file))
    if not rows:
        raise FileProblems(unread or ["no players in the file"])
    report = open_pool(args).extras.import_squads(rows)
    refused = unread + report.refused
    if not report.listed:
        raise FileProblems(refused)
    print(
        f"{len(rows) + len(unread)} rows: {sum(report.listed.values())} players listed "
        f"for {len(report.listed)} teams, {len(refused)} refused"
    )
    for line in refused:
        print(f"  {line}")


def cmd_standings(args: argparse.Namespace) -> None:
    from game.render import standings_table

    pool = open_pool(args)
    if args.after is not None:
        pool.check_finished(args.after)
    rows = pool.standings(up_to_match=args.after)
    if args.json:
        print(json.dumps([row.as_dict() for row in rows], ensure_ascii=False))
    else:
        print(standings_table(rows))


def cmd_matches(args: argparse.Namespace) -> None:
    from game.render import match_json, matches_table

    matches = open_pool(args).matches()
    if args.json:
        print(json.dumps([match_json(m) for m in matches], ensure_ascii=False))
    else:
        print(matches_table(matches, args.tz))


def cmd_results_set(args: argparse.Namespace) -> None:
    pool = open_pool(args)
    result = pool.fixtures.record_score(args.number, args.score, args.aet, args.pens)
    print(f"{pool.match(args.number).label}: {result}")


def assignment(given: str) -> str:
    """``--assign "Ana Paula=ana-paula"``: a name as the sheet writes it, and a handle."""
    name, equals, handle = given.rpartition("=")
    if not (equals and name.strip() and handle.strip()):
        raise argparse.ArgumentTypeError(f"{given!r}: write NAME=HANDLE")
    return f"{name.strip()}={handle.strip()}"


def public_key(given: str) -> str:
    """A public key given as its text ("ssh-ed25519 AAAA... ana@laptop", pasted) or as
    the file that holds it."""
    from game.sources import read_text

    if KEY_TEXT.match(given.strip()):
        return given.strip()
    return read_text(given).strip()


KEY_TEXT = re.compile(r"(?:ssh-|ecdsa-sha2-|sk-)\S+\s+[A-Za-z0-9+/]{16,}")


def cmd_players_add(args: argparse.Namespace) -> None:
    keys = [public_key(given) for given in args.key]
    player = open_pool(args).members.add(args.handle, args.name, args.admin, keys)
    role = " (admin)" if player.is_admin else ""
    print(f"added {player.handle}{role} with {len(player.keys)} key(s)")


def cmd_players_remove(args: argparse.Namespace) -> None:
    player = open_pool(args).members.remove(args.handle)
    print(
        f"removed {player.handle}: {len(player.keys)} key(s) and linked accounts deleted, "
        "sessions ended; picks and points kept, the handle stays taken"
    )


def cmd_players_key_add(args: argparse.Namespace) -> None:
    open_pool(args).members.add_key(args.handle, public_key(args.key))
    print(f"key added to {args.handle}")


def cmd_players_key_remove(args: argparse.Namespace) -> None:
    fingerprint = open_pool(args).members.remove_key(args.handle, public_key(args.key))
    print(f"key {fingerprint} removed from {args.handle}; the sessions it opened end")


def cmd_players_list(args: argparse.Namespace) -> None:
    for player in open_pool(args).players():
        role = "admin" if player.is_admin else ""
        print(f"{player.handle}\t{player.display_name}\t{role}".rstrip())


def cmd_pool_set(args: argparse.Namespace) -> None:
    extras = (args.group_jokers, args.round_jokers, args.champion_points, args.scorer_points)
    rule = (args.scoring, args.basis, args.tiebreak)
    if all(v is None for v in rule) and all(v is None for v in extras):
        raise UsageError(
            "say what to set: --scoring, --basis, --tiebreak, --group-jokers, --round-jokers, "
            "--champion-points or --scorer-points"
        )
    pool = open_pool(args)
    if args.scoring is not None or args.basis is not None:
        pool.predictions.set_scoring(args.scoring, args.basis)
    if any(v is not None for v in extras):
        pool.extras.configure(*extras)
    if args.tiebreak is not None:
        pool.set_tiebreak(args.tiebreak)
    print("saved; standings follow the new rule at once")


def cmd_log(args: argparse.Namespace) -> None:
    pool = open_pool(args)
    if args.repair:
        repaired = pool.fixtures.repair_lifecycle()
        for breach in repaired:
            print(f"repaired: {breach.text()}")
        print(f"{len(repaired)} repaired; the log keeps each breaking event and its repair")
        mended = pool.repair_tables()
        for row in mended:
            print(f"rewritten from the log: {row.text()}")
        print(f"{len(mended)} table rows rewritten from the log")
        return
    if args.verify or args.expect is not None:
        verify_log(pool, args.expect, args.json)
        return
    for item in pool.events(after_id=args.after):
        if args.json:
            print(
                json.dumps(
                    {
                        "id": item.id,
                        "at": item.at.isoformat(),
                        "kind": item.event.kind,
                        **item.event.payload(),
                    }
                )
            )
        else:
            stamp = f"{item.at:%Y-%m-%d %H:%M:%S}"
            print(f"{item.id:>6}  {stamp}  {item.event.kind:<18} {item.event.payload()}")


def verify_log(pool: Pool, expect: Head | None, as_json: bool) -> None:
    """The chain, the head it ends at (to keep with a backup) and the lifecycle; exit 1 if broken."""
    verdict = pool.verify_log(expect)
    if as_json:
        breaches = pool.lifecycle_breaches() if verdict.intact else []
        report = {
            "intact": verdict.intact,
            "events": verdict.checked,
            "head": str(verdict.head) if verdict.intact else None,
            "expected": None if expect is None else str(expect),
            "added_since": verdict.added,
            "problem": None if verdict.intact else verdict.text(),
            "lifecycle_breaches": [breach.text() for breach in breaches],
            "table_disagreements": [
                row.text() for row in (pool.table_disagreements() if verdict.intact else [])
            ],
        }
        print(json.dumps(report))
    if not verdict.intact:
        raise UsageError(verdict.text())
    if not as_json:
        print(verdict.text())
        print(f"head {verdict.head}")
    check_lifecycle(pool)
    if not as_json:
        print("the match lifecycle holds: no kick-off, goal or result out of turn")
        print("the tables agree with the log: picks, fixtures, results, goals, jokers, bonus picks")


def check_lifecycle(pool: Pool) -> None:
    """Refuse, in one line, a log whose matches broke the lifecycle (``game.lifecycle``),
    or tables that disagree with the log (``game.db.proof``)."""
    breaches = pool.lifecycle_breaches()
    if breaches:
        more = f" (and {len(breaches) - 1} more)" if len(breaches) > 1 else ""
        raise UsageError(f"{breaches[0].text()}{more}; `betania log --repair` logs the correction")
    rows = pool.table_disagreements()
    if rows:
        more = f" (and {len(rows) - 1} more)" if len(rows) > 1 else ""
        raise UsageError(
            f"the tables disagree with the log: {rows[0].text()}{more}; "
            "`betania log --repair` rewrites them from the log"
        )


def cmd_replay(args: argparse.Namespace) -> None:
    from bot.app.progress import Progress
    from bot.app.replay import ReplayOptions, read_chat, replay, summary
    from game.db.engine import private_directory
    from game.openfootball import parse_tournament
    from game.sources import read_json, read_text

    tournament = parse_tournament(read_json(args.source), args.tz)
    options = ReplayOptions(
        tournament,
        bets_csv=read_text(args.bets) if args.bets else None,
        chat=read_chat(args.chat) if args.chat else [],
        players=args.players,
        seed=args.seed,
        resume_at=args.resume_at,
    )
    data_dir = private_directory(settings_of(args).data_dir)
    config = settings_of(args).model
    progress = Progress(sum(f.result is not None for f in tournament.fixtures), "replaying")
    report = replay(
        options, data_dir / "replay.db", config, on_result=lambda _n: progress.advance()
    )
    progress.close()
    print(json.dumps(report.as_dict(), ensure_ascii=False) if args.json else summary(report))
    if args.show:
        from bot.app.replay import transcript

        print(transcript(report.pool, settings_of(args).addressee.name))


def memory_store(args: argparse.Namespace) -> MemoryStore:
    from memory.store import open_store

    return open_store(open_pool(args))


def cmd_memory_diary(args: argparse.Namespace) -> None:
    from game.text import clean_block
    from memory.inspect import diary_json, diary_text

    store = memory_store(args)
    if args.json:  # escaped to ASCII: no control character of a model's reaches the terminal
        print(json.dumps(diary_json(store), indent=2))
        return
    # What the model and the players wrote, on the operator's terminal: inert, like anywhere.
    print(clean_block(diary_text(store)))


def cmd_memory_facts(args: argparse.Namespace) -> None:
    from game.text import clean_block
    from memory.inspect import facts_json, facts_text

    store = memory_store(args)
    today = store.pool.clock().date()
    if args.json:
        print(json.dumps(facts_json(store, today, args.player), indent=2))
        return
    print(clean_block(facts_text(store, today, args.player)))


def cmd_memory_context(args: argparse.Namespace) -> None:
    from bot.agent.gateway import remembering
    from bot.agent.providers.offline import OfflineModel
    from game.events import GoalScored, MatchKickedOff, ResultRecorded
    from game.model import MatchStatus

    keeper, _ = remembering(open_pool(args), OfflineModel())
    pool = keeper.pool
    event = None
    if args.match is not None:
        match = pool.match(args.match)  # a clear error for a match that does not exist
        if match.status is MatchStatus.FINISHED:
            print_context_as_it_stood(keeper, args.match)
            return
        kinds = (MatchKickedOff.kind, GoalScored.kind, ResultRecorded.kind)
        events = pool.events(match_number=args.match, kinds=kinds)
        event = events[-1] if events else None
    context = keeper.contexts.build_context(event, args.budget or keeper.config.budget)
    print_context(context.system, context.prompt, "now")


def print_context_as_it_stood(keeper: MemoryKeeper, number: int) -> None:
    """The past is shown as it was sent, from the call record, or not at all.

    Today's diary, table and date describe today: shown for a finished match
    they would put the present in the past's mouth.
    """
    from memory.usage import recorded

    with keeper.store.read() as connection:
        calls = recorded(connection, match=number)
    if not calls:
        raise UsageError(
            f"no model call about match #{number} is kept (memory was off then, or its "
            "calls were pruned): the context as it stood cannot be rebuilt, since the diary "
            "and the table have moved on"
        )
    last = calls[-1]
    print_context(last.system, last.prompt, f"as sent {last.at:%d %b %H:%M} UTC for {last.task}")


def print_context(system: str, prompt: str, when: str) -> None:
    from game.text import clean_block
    from memory.tokens import estimate_tokens

    system, prompt = clean_block(system), clean_block(prompt)
    print(f"--- system ({estimate_tokens(system)} tokens, cached) ---\n{system}")
    print(f"--- prompt ({estimate_tokens(prompt)} tokens, {when}) ---\n{prompt}")


def cmd_memory_stats(args: argparse.Namespace) -> None:
    from memory.inspect import stats, stats_text

    store = memory_store(args)
    report = stats(store, store.pool.clock().date())
    print(json.dumps(report) if args.json else stats_text(report))


def cmd_memory_calls(args: argparse.Namespace) -> None:
    from game.text import clean_block
    from memory.inspect import calls_text
    from memory.usage import recorded

    with memory_store(args).read() as connection:
        calls = recorded(connection, match=args.match, last=args.last)
    if args.json:
        print(json.dumps([call.as_dict() for call in calls], ensure_ascii=False))
        return
    # What the model and the players wrote, on the operator's terminal: inert, like anywhere.
    print(clean_block("\n\n".join(calls_text(call) for call in calls) or "no model calls kept"))


def cmd_memory_rebuild(args: argparse.Namespace) -> None:
    from bot.agent.gateway import remembering
    from bot.agent.providers.offline import OfflineModel
    from bot.app.progress import Progress
    from game.events import ResultRecorded

    keeper, _ = remembering(open_pool(args), OfflineModel())
    if not keeper.enabled():
        raise UsageError("memory is off in this pool: nothing to rebuild")
    progress = Progress(len(keeper.pool.events(kinds=(ResultRecorded.kind,))), "rebuilding")
    written = keeper.rebuild_diary(on_entry=lambda _n: progress.advance())
    progress.close()
    print(f"rebuilt the diary from the log: {written} match entries written")


def cmd_serve(args: argparse.Namespace) -> None:
    import asyncio

    from bot.agent.commentator import Policy
    from bot.app.lifecycle import commentator_for
    from frontends.ssh.frontend import ServerConfig
    from game.db.engine import warn_if_open
    from game.feeds.choose import source_from
    from game.feeds.poller import ResultsPoller

    settings = settings_of(args)
    warn_if_open(settings.data_dir)  # before the database and host key go into it
    pool = open_pool(args)
    check_lifecycle(pool)  # a pool that has broken its own rules does not run on them
    config = ServerConfig(
        host=args.host,
        port=args.port,
        open_registration=args.open,
        addressee=settings.addressee,
        language=settings.model.language,
        host_key=args.host_key,
    )
    keep = settings.keep_calls_days
    commentator = commentator_for(
        pool,
        settings.model,
        settings.addressee,
        None if keep is None else timedelta(days=keep),
        zone=args.tz,
        policy=Policy(digest_hour=args.digest_hour),
        earlier_season=earlier_season(args),
    )
    results = (
        ResultsPoller(
            pool,
            source_from(args.results, settings.football_data_token, settings.football_data_url),
            interval=timedelta(seconds=args.poll),
        )
        if args.results
        else None
    )
    asyncio.run(
        serve(
            pool,
            settings.data_dir,
            config,
            commentator,
            results,
            Web(settings.discord, args.http_port),
            # 0 minutes: no reminder before kick-offs (login still lists the unpicked)
            timedelta(minutes=args.remind_before) if args.remind_before else None,
        )
    )
    print("stopped")


async def serve(
    pool: Pool,
    data_dir: Path,
    config: ServerConfig,
    commentator: Commentator,
    results: ResultsPoller | None = None,
    web: Web | None = None,
    remind_before: timedelta | None = DEFAULT_LEAD,
) -> None:
    """The SSH server and the HTTP server, in one event loop with the scheduler, the
    commentator, the results feed and the Discord poster when this process holds the
    lead (``game.db.leader``: one voice per database)."""
    import asyncio

    from bot.agent.scheduler import PoolScheduler
    from bot.app.lifecycle import StartError, open_companion, open_server, until_stopped
    from game.db.leader import Leadership

    web = web or Web()
    running = await open_server(pool, data_dir, config)
    try:
        companion = await open_companion(running, web.discord, config.host, web.http_port)
    except StartError:
        await running.close()
        raise
    scheduler = PoolScheduler(commentator, results=results, remind_before=remind_before)
    leadership = Leadership(pool.engine)
    registration = "anyone may join" if config.open_registration else "newcomers need an invite"
    print(f"BETanIA pool listening on {config.host}:{running.port} ({registration})")
    print(f"join with: {running.join_command(config.host)}")
    print(f"commentator: {commentator.gateway.model.name}")
    if results is not None:
        every = results.interval.total_seconds()
        print(f"results from: {results.source.name}, every {every:g} s")
    for line in companion_lines(companion, config.host):
        print(line)
    if not pool.matches():
        print(
            "no fixtures yet: players can join, but there is nothing to bet on until an admin "
            "runs betania fixtures import URL_OR_FILE (2026 for the World Cup shipped)"
        )
    leading = asyncio.get_running_loop().create_task(
        take_the_lead(leadership, scheduler, lambda: companion.start_posting(running.frontend))
    )
    try:
        signal_name = await until_stopped()
        print(f"{signal_name}: telling {len(running.frontend.sessions)} session(s) and stopping")
    finally:
        leading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await leading
        scheduler.shutdown()
        leadership.release()
        await companion.close()
        await running.close()
        pool.engine.dispose()


@dataclass(frozen=True)
class Web:
    """What ``serve`` runs beside SSH: the HTTP server on ``http_port`` (None: none) with
    the scoreboard and Discord's endpoint, and the Discord settings (the poster too)."""

    discord: DiscordSettings = field(default_factory=DiscordSettings)
    http_port: int | None = None


def companion_lines(companion: Companion, host: str) -> list[str]:
    """What ``serve`` says at start about its HTTP server and the Discord companion."""
    lines = []
    if companion.web is not None:
        lines.append(f"HTTP on {host}:{companion.web.port}: the scoreboard at /")
        if companion.interactions is not None:
            lines.append(
                f"Discord interactions at http://{host}:{companion.web.port}/discord/interactions"
            )
        else:
            lines.append(
                "Discord interactions off (set DISCORD_PUBLIC_KEY and DISCORD_APPLICATION_ID)"
            )
    if companion.poster is not None:
        lines.append("posting the pool's news to the Discord webhook (from the leading front end)")
    return lines


async def take_the_lead(
    leadership: Leadership, scheduler: PoolScheduler, also: Callable[[], None] = lambda: None
) -> None:
    """Start her here (and ``also``) as soon as no other front end on this database runs her."""
    import asyncio

    if not await asyncio.to_thread(leadership.try_take):
        print("another front end runs the commentator; this one takes over if it stops")
        while not await asyncio.to_thread(leadership.try_take):
            await asyncio.sleep(LEAD_RETRY)
    scheduler.start()
    also()
    print("the commentator, the scheduler and the results feed run in this front end")


def cmd_discord_commands(args: argparse.Namespace) -> None:
    import asyncio

    from frontends.discord.api import DiscordApi, DiscordError
    from frontends.discord.slash import COMMANDS

    discord = settings_of(args).discord
    if not discord.application_id or not discord.bot_token:
        raise UsageError("set DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN (docs/discord.md)")
    application_id = discord.application_id

    async def register() -> list[dict[str, object]]:
        api = DiscordApi(discord.api_url, discord.bot_token)
        try:
            return await api.overwrite_commands(application_id, COMMANDS)
        finally:
            await api.close()

    try:
        registered = asyncio.run(register())
    except DiscordError as error:
        raise UsageError(f"Discord refused the commands: {error}") from None
    names = ", ".join(f"/{command.get('name')}" for command in registered)
    print(f"registered {len(registered)} slash commands: {names}")


def cmd_invite_create(args: argparse.Namespace) -> None:
    code = open_pool(args).members.create_invite("console", args.uses, args.expires)
    print(code)


def cmd_invite_revoke(args: argparse.Namespace) -> None:
    open_pool(args).members.revoke_invite(args.code)
    print(f"invite {args.code} revoked: nobody registers with it any more")


def cmd_demo(args: argparse.Namespace) -> None:
    import asyncio

    from bot.app.demo import default_speed, run_demo
    from bot.app.lifecycle import Running, StartError, open_companion, until_stopped

    settings = settings_of(args)
    speed = args.speed or default_speed()

    companions: list[Companion] = []

    async def open_http(running: Running) -> None:
        try:
            companion = await open_companion(running, settings.discord, args.host, args.http_port)
        except StartError:
            await running.close()
            raise
        companions.append(companion)
        companion.start_posting(running.frontend)  # the demo is its own only front end
        for line in companion_lines(companion, args.host):
            print(line)

    async def main() -> None:
        try:
            _, running = await run_demo(
                settings.data_dir,
                args.host,
                args.port,
                speed,
                settings.model,
                addressee=settings.addressee,
                opened=open_http,
                league=args.league,
                other_ports=[args.http_port] if args.http_port else [],
            )
            try:
                await running.acceptor.wait_closed()
            finally:
                await running.close()
        finally:
            for companion in companions:
                await companion.close()

    async def until_done_or_stopped() -> None:
        # SIGTERM as Ctrl-C: the demo's own clean-up runs either way.
        demo = asyncio.create_task(main())
        stopper = asyncio.create_task(until_stopped())
        await asyncio.wait({demo, stopper}, return_when=asyncio.FIRST_COMPLETED)
        for task in (demo, stopper):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await demo

    asyncio.run(until_done_or_stopped())
    print("stopped")


# -- the parser ---------------------------------------------------------------


def add_model_options(sub: argparse.ArgumentParser) -> None:
    urls = " and ".join(p.url_variable for p in PROVIDERS.values() if p.url_variable)
    sub.add_argument("--provider", choices=provider_choices(), default=AUTO, help=auto_help())
    sub.add_argument("--model", help="the model name for the provider")
    sub.add_argument("--base-url", help=f"the provider's URL ({urls} is honoured too)")
    sub.add_argument(
        "--timeout",
        metavar="SECONDS",
        help="how long one model call may take (also BETANIA_MODEL_TIMEOUT; default 30;"
        " a 7B model on a CPU wants 300)",
    )
    sub.add_argument(
        "--language", choices=LANGUAGES, default="en", help="the pool's language: hers and its own"
    )
    sub.add_argument(
        "--web-search",
        action="store_true",
        help="her picks may search the web for team news (anthropic's server tool; off by default)",
    )
    sub.add_argument(
        "--searches-per-pick", type=int, default=3, help="web searches one pick may make"
    )
    sub.add_argument("--searches-per-day", type=int, default=20, help="web searches a day, at most")
    sub.add_argument(
        "--hearing",
        choices=("auto", "model", "grammar"),
        default="auto",
        help="who reads a line to her: the model (one structured call), or her rules"
        " (auto: the model for anthropic, the rules for any other provider)",
    )
    sub.add_argument(
        "--claims",
        choices=("auto", "declared", "grammar"),
        default="auto",
        help="her texts come with the claims they make, as data, each checked exactly"
        " (declared), or her lines are read by the rules alone"
        " (auto: declared for anthropic, the rules for any other provider)",
    )


def installed_version() -> str:
    """The version pip installed (pyproject.toml is the one place it is written)."""
    from importlib import metadata

    try:
        return metadata.version("betania")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


class Version(argparse.Action):
    """``--version``: the installed version, read only when asked for (reading the
    package metadata costs every other command more than the parser does)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS) -> None:
        super().__init__(
            option_strings,
            dest,
            nargs=0,
            default=argparse.SUPPRESS,
            help="show the version and exit",
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> NoReturn:
        print(f"betania {installed_version()}")
        parser.exit()


def build_parser() -> Parser:
    common = Parser(add_help=False)
    common.add_argument("--data-dir", default=argparse.SUPPRESS, help="where the SQLite file lives")
    common.add_argument("--db", default=argparse.SUPPRESS, help="database URL (also BETANIA_DB)")
    common.add_argument(
        "--log-level",
        type=str.upper,
        choices=LOG_LEVELS,
        default=argparse.SUPPRESS,
        help="what the log on stderr shows (also BETANIA_LOG_LEVEL; default WARNING)",
    )
    common.add_argument(
        "--debug",
        action="store_true",
        default=argparse.SUPPRESS,
        help="show the traceback of an unexpected error (also BETANIA_DEBUG=1)",
    )

    parser = Parser(prog="betania", description=DESCRIPTION, parents=[common])
    parser.add_argument("--version", action=Version)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True

    def add(
        path: Sequence[str], handler: Callable[[argparse.Namespace], None], help_text: str
    ) -> argparse.ArgumentParser:
        *groups, name = path
        container = commands
        for group in groups:
            container = group_parsers[group]
        sub = container.add_parser(name, help=help_text, parents=[common])
        sub.set_defaults(handler=handler)
        return sub

    group_parsers: dict[str, argparse._SubParsersAction[Parser]] = {}
    for group, help_text in (
        ("fixtures", "the tournament's matches"),
        ("bets", "predictions in bulk"),
        ("squads", "the teams' players"),
        ("results", "final scores"),
        ("players", "who plays"),
        ("pool", "the pool's rules"),
        ("memory", "what the commentator remembers"),
        ("invite", "codes for newcomers"),
        ("discord", "the Discord companion"),
    ):
        group_parser = commands.add_parser(group, help=help_text)
        group_parsers[group] = group_parser.add_subparsers(
            dest="action", metavar="ACTION", parser_class=Parser
        )
        group_parsers[group].required = True

    sub = add(
        ["fixtures", "import"], cmd_fixtures_import, "import or update fixtures (openfootball JSON)"
    )
    sub.add_argument("source", help="file or URL")
    sub.add_argument("--tz", type=zone, help="time zone for times written without a UTC offset")

    sub = add(["bets", "import"], cmd_bets_import, "import picks from a CSV spreadsheet")
    sub.add_argument("file")
    sub.add_argument(
        "--assign", action="append", default=[], type=assignment, metavar="NAME=HANDLE",
        help="whose picks a name's rows are, for a name held as a look-alike handle",
    )  # fmt: skip

    sub = add(
        ["squads", "import"],
        cmd_squads_import,
        "list the teams' squads, which a top scorer pick is checked against (CSV or JSON)",
    )
    sub.add_argument("file")

    sub = add(["standings"], cmd_standings, "the table, computed now")
    sub.add_argument("--json", action="store_true")
    sub.add_argument("--after", type=int, metavar="N", help="the table as it stood after match #N")

    sub = add(["matches"], cmd_matches, "the fixtures and results")
    sub.add_argument("--json", action="store_true")
    sub.add_argument("--tz", type=zone, default=UTC, help="show kick-offs in this time zone")

    sub = add(["results", "set"], cmd_results_set, "enter a final score as an admin")
    sub.add_argument("number", type=int)
    sub.add_argument("score", type=score, help="the 90-minute score, like 2-1")
    sub.add_argument("--aet", type=score, help="the score after extra time")
    sub.add_argument("--pens", type=score, help="the penalty shoot-out")

    sub = add(["players", "add"], cmd_players_add, "register a player")
    sub.add_argument("handle")
    sub.add_argument("--name", help="display name (default: the handle)")
    sub.add_argument(
        "--key", action="append", default=[], metavar="PUBKEY",
        help="a public key: its file, or its text pasted in quotes",
    )  # fmt: skip
    sub.add_argument("--admin", action="store_true")
    add(["players", "list"], cmd_players_list, "list players")
    sub = add(
        ["players", "remove"], cmd_players_remove,
        "let a player go: keys and linked accounts deleted, sessions ended, picks kept",
    )  # fmt: skip
    sub.add_argument("handle")
    key_group = group_parsers["players"].add_parser("key", help="a player's keys")
    group_parsers["key"] = key_group.add_subparsers(
        dest="key_action", metavar="ACTION", parser_class=Parser
    )
    group_parsers["key"].required = True
    for action, handler, help_text in (
        ("add", cmd_players_key_add, "another key for a player (a second laptop)"),
        ("remove", cmd_players_key_remove, "a key that no longer opens the pool"),
    ):
        sub = add(["players", "key", action], handler, help_text)
        sub.add_argument("handle")
        sub.add_argument("key", metavar="PUBKEY", help="its file, or its text pasted in quotes")

    sub = add(["pool", "set"], cmd_pool_set, "choose the scoring rule, jokers and bonus points")
    sub.add_argument("--scoring", choices=sorted(PRESETS))
    sub.add_argument(
        "--basis", type=ScoreBasis, choices=list(ScoreBasis), help="which score counts"
    )
    sub.add_argument(
        "--group-jokers", type=int, metavar="N", help="jokers in a cup's group stage (2)"
    )
    sub.add_argument("--round-jokers", type=int, metavar="N", help="jokers in each other round (1)")
    sub.add_argument("--champion-points", type=int, metavar="N", help="a right champion (20)")
    sub.add_argument("--scorer-points", type=int, metavar="N", help="a right top scorer (10)")
    sub.add_argument(
        "--tiebreak",
        choices=TIEBREAKS,
        help="after points: exact hits then outcome hits (exact, the default), or days won first",
    )

    sub = add(["log"], cmd_log, "the event log, oldest first")
    sub.add_argument("--after", type=int, default=0, metavar="ID")
    sub.add_argument("--json", action="store_true")
    sub.add_argument(
        "--verify",
        action="store_true",
        help="check the hash chain, the match lifecycle and that the tables standings read "
        "agree with the log; name the first bad event or row; print the head (COUNT:LINK) "
        "to keep with a backup",
    )
    sub.add_argument(
        "--expect",
        type=head,
        metavar="HEAD",
        help="with --verify: fail unless the log still holds this head (a kept COUNT:LINK); "
        "catches events cut from its end",
    )
    sub.add_argument(
        "--repair",
        action="store_true",
        help="log a correction for each event that breaks the match lifecycle, and rewrite "
        "from the log the table rows that disagree with it",
    )

    sub = add(["replay"], cmd_replay, "play a whole tournament headless, with the commentator")
    sub.add_argument("source", help="fixtures with results (openfootball JSON), file or URL")
    sub.add_argument("--tz", type=zone, help="time zone for times written without a UTC offset")
    sub.add_argument("--bets", metavar="CSV", help="real picks to import first")
    sub.add_argument(
        "--chat", metavar="JSONL", help='timed chat: {"at", "player", "text"} per line'
    )
    sub.add_argument("--players", type=int, default=0, metavar="N", help="simulated players")
    sub.add_argument("--seed", type=int, default=0)
    sub.add_argument("--resume-at", type=int, metavar="N", help="memory only after match #N")
    sub.add_argument("--json", action="store_true")
    sub.add_argument(
        "--show", action="store_true", help="then every line she and the players wrote, in order"
    )
    add_model_options(sub)

    sub = add(
        ["memory", "diary"], cmd_memory_diary, "the diary: the narrative and the recent entries"
    )
    sub.add_argument("--json", action="store_true", help="every entry, as JSON")
    sub = add(["memory", "facts"], cmd_memory_facts, "what she knows about the players")
    sub.add_argument("player", nargs="?")
    sub.add_argument(
        "--json", action="store_true", help="every fact ever stored, with its whole story"
    )
    sub = add(["memory", "context"], cmd_memory_context, "the exact context she would send now")
    sub.add_argument(
        "--match",
        type=int,
        metavar="N",
        help="match #N: its last call as sent, once it is over; as she would react now, before",
    )
    sub.add_argument("--budget", type=int, metavar="TOKENS")
    sub = add(["memory", "stats"], cmd_memory_stats, "per-shelf health")
    sub.add_argument("--json", action="store_true")
    add(["memory", "rebuild"], cmd_memory_rebuild, "write the diary again from the event log")
    sub = add(["memory", "calls"], cmd_memory_calls, "model calls: prompt, answer, cost, outcome")
    sub.add_argument("--match", type=int, help="only the calls about match #N")
    sub.add_argument("--last", type=int, default=10, help="the last K calls (default 10)")
    sub.add_argument("--json", action="store_true", help="every field, as JSON")

    sub = add(["serve"], cmd_serve, "run the pool: its SSH server (and HTTP, with --http-port)")
    add_model_options(sub)
    sub.add_argument(
        "--tz",
        type=zone,
        default=UTC,
        help="the pool's time zone: her 'today' and the digest hour (default UTC)",
    )
    sub.add_argument(
        "--digest-hour",
        type=int,
        default=22,
        choices=range(24),
        metavar="HOUR",
        help="when her daily digest is posted, in the pool's time zone (default 22)",
    )
    sub.add_argument(
        "--previous-season",
        metavar="FILE",
        help="an openfootball file of the league's last season: where her club ratings start",
    )
    sub.add_argument(
        "--results",
        metavar="SOURCE",
        help="an openfootball file or URL, or football-data[:COMPETITION]",
    )
    sub.add_argument(
        "--poll",
        type=positive_seconds,
        default=60.0,
        metavar="SECONDS",
        help="how often to ask the results feed (default 60; every 15 s at most while a match is on)",
    )
    sub.add_argument(
        "--remind-before",
        type=int,
        default=DEFAULT_LEAD // timedelta(minutes=1),
        choices=range(1441),
        metavar="MINUTES",
        help="remind players without a pick this long before each kick-off (default 60; 0: off)",
    )
    sub.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0 for all)")
    sub.add_argument("--port", type=port, default=2222)
    sub.add_argument("--open", action="store_true", help="let anyone register, no invite needed")
    sub.add_argument(
        "--host-key",
        type=Path,
        help="the SSH host key file (made if missing); front ends behind one address share one",
    )

    sub.add_argument(
        "--http-port",
        type=port,
        metavar="PORT",
        help="serve HTTP too: the office scoreboard at /, Discord's interactions endpoint (docs/discord.md)",
    )

    add(
        ["discord", "commands"],
        cmd_discord_commands,
        "register the slash commands with Discord (DISCORD_APPLICATION_ID, DISCORD_BOT_TOKEN)",
    )

    sub = add(["invite", "create"], cmd_invite_create, "make an invite code")
    sub.add_argument("--uses", type=int, default=1)
    sub.add_argument("--expires", type=int, metavar="DAYS")
    sub = add(["invite", "revoke"], cmd_invite_revoke, "an invite code nobody may use any more")
    sub.add_argument("code")

    sub = add(["demo"], cmd_demo, "a live pool on the project's own tournament, on a fast clock")
    sub.add_argument("--host", default="127.0.0.1", help="address to listen on")
    sub.add_argument("--port", type=port, default=2222)
    sub.add_argument(
        "--speed", type=float, help="times faster than real time (default: a match a minute)"
    )
    sub.add_argument(
        "--http-port", type=port, metavar="PORT", help="serve the office scoreboard at / too"
    )
    sub.add_argument(
        "--league",
        action="store_true",
        help="a short league (six clubs, home and away) instead of the cup",
    )
    add_model_options(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.settings = settings = Settings.read(args, os.environ)
    except UserError as error:
        print(f"betania: error: {error}", file=sys.stderr)
        return 1
    redact = settings.start_logging()
    try:
        args.handler(args)
    except FileProblems as error:
        print(
            f"betania: error: nothing imported; {len(error.problems)} problem(s):", file=sys.stderr
        )
        for problem in error.problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader went away (| head): nothing left to say
        sys.stderr.close()
        return 0
    except UserError as error:
        print(f"betania: error: {error}", file=sys.stderr)
        return 1
    except Exception as error:
        if settings.debug:  # the traceback, as Python prints it, but with no secret in it
            print(redact(traceback.format_exc()), end="", file=sys.stderr)
            return 1
        print(
            f"betania: unexpected error: {type(error).__name__}: {redact(str(error))}"
            " (a bug: rerun with --debug, or BETANIA_DEBUG=1, for the traceback)",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
