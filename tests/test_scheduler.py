import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.agent.commentator import Commentator
from bot.agent.gateway import remembering
from bot.agent.providers.offline import OfflineModel
from bot.agent.scheduler import PoolScheduler
from game.db.engine import open_database
from game.model import MatchStatus
from game.openfootball import Tournament
from game.pool import Pool
from tests.conftest import fixture


def test_jobs_come_from_the_database_and_run_once(tmp_path: Path) -> None:
    pool = Pool(open_database(f"sqlite:///{tmp_path / 'pool.db'}"))  # the real clock
    soon = datetime.now(UTC) + timedelta(seconds=1.5)
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

    jobs = asyncio.run(run_for(2.5))
    # A kick-off and a reminder per match, and her turn (picks, reactions, digest).
    assert jobs == 2 + 2 + 1
    assert pool.match(1).status is MatchStatus.LIVE
    assert pool.match(2).status is MatchStatus.SCHEDULED
    assert [p.match_number for p in pool.predictions_of("betania")] == [1]  # #2 is hours away

    asyncio.run(run_for(0.5))  # a restart: jobs rebuilt, nothing done twice
    assert [p.match_number for p in pool.predictions_of("betania")] == [1]
    assert len(pool.events(kinds=("kickoff",))) == 1
