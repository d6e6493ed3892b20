import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.agent.commentator import Commentator
from bot.agent.gateway import remembering
from bot.agent.providers.offline import OfflineModel
from bot.agent.scheduler import PoolScheduler
from game.db.engine import open_database
from game.events import PickReminder
from game.model import MatchStatus
from game.openfootball import Tournament
from game.pool import Pool
from game.reminders import DEFAULT_LEAD
from tests.conftest import fixture


def test_jobs_come_from_the_database_and_run_once(tmp_path: Path) -> None:
    pool = Pool(open_database(f"sqlite:///{tmp_path / 'pool.db'}"))  # the real clock
    # (seconds enough for her first turn, bonus picks and all, on a loaded machine)
    soon = datetime.now(UTC) + timedelta(seconds=4)
    later = soon + timedelta(hours=5)
    pool.fixtures.import_tournament(
        Tournament(
            "Now Cup", (fixture("a", "Brazil", "Japan", soon), fixture("b", "Chile", "Peru", later))
        )
    )

    async def run_for(seconds: float) -> int:
        keeper, gateway = remembering(pool, OfflineModel())
        keeper.enable()
        her = Commentator(keeper, gateway)
        her.start()
        scheduler = PoolScheduler(her, catch_up_every=0.2)
        scheduler.start()
        jobs = len(scheduler.scheduler.get_jobs())
        await asyncio.sleep(seconds)
        scheduler.shutdown()
        return jobs

    jobs = asyncio.run(run_for(5))
    # A kick-off and a reminder per match, her turn (picks, reactions, digest), and the
    # look at the fixtures logged since.
    assert jobs == 2 + 2 + 1 + 1
    assert pool.match(1).status is MatchStatus.LIVE
    assert pool.match(2).status is MatchStatus.SCHEDULED
    assert [p.match_number for p in pool.predictions_of("betania")] == [1]  # #2 is hours away

    asyncio.run(run_for(0.5))  # a restart: jobs rebuilt, nothing done twice
    assert [p.match_number for p in pool.predictions_of("betania")] == [1]
    assert len(pool.events(kinds=("kickoff",))) == 1


def test_a_fixture_imported_or_moved_while_serving_gets_its_jobs(tmp_path: Path) -> None:
    """The jobs follow the log's fixtures: a match imported while the scheduler runs is
    reminded of once and kicks off; a kick-off moved takes its reminder with it."""
    pool = Pool(open_database(f"sqlite:///{tmp_path / 'pool.db'}"))  # the real clock
    pool.members.add("ana")  # no pick: she is reminded
    far = datetime.now(UTC) + timedelta(hours=5)
    first = fixture("a", "Brazil", "Japan", far)
    pool.fixtures.import_tournament(Tournament("Now Cup", (first,)))

    def reminders(number: int) -> int:
        return len(pool.events_of(PickReminder, match_number=number))

    async def serve() -> list[str]:
        her = Commentator(*remembering(pool, OfflineModel()))
        her.start()
        scheduler = PoolScheduler(her, catch_up_every=0.2, remind_before=DEFAULT_LEAD)
        scheduler.start()
        await asyncio.sleep(0.5)
        assert reminders(1) == 0  # five hours away
        # Imported while serving: #1 moved to start within the lead, #2 new and about
        # to start (its reminder is overdue, so it runs at once, then its kick-off).
        soon = datetime.now(UTC) + timedelta(seconds=1)
        moved = fixture("a", "Brazil", "Japan", soon + DEFAULT_LEAD)
        pool.fixtures.import_tournament(
            Tournament("Now Cup", (moved, fixture("b", "Chile", "Peru", soon)))
        )
        await asyncio.sleep(2.5)
        jobs = sorted(job.id for job in scheduler.scheduler.get_jobs())
        scheduler.shutdown()
        return jobs

    jobs = asyncio.run(serve())
    assert (reminders(1), reminders(2)) == (1, 1)
    assert pool.match(2).status is MatchStatus.LIVE
    assert pool.match(1).status is MatchStatus.SCHEDULED
    # #1's kick-off job moved with it; the reminders have run and are gone.
    assert jobs == ["fixtures", "her-turn", "kickoff-1"]
