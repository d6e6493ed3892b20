"""Her memory catching up in a process of its own, to be killed with SIGKILL mid-write.

    python -m tests.memory_worker URL NOW [--stop-before-commit "DELETE FROM diary_entries"]

Catches the memory up on the pool at URL with the server's clock at NOW (ISO).
With ``--stop-before-commit SQL``, once a transaction has run a statement that
starts with SQL, the process says "staged" on stdout just before that
transaction commits and waits there to be killed: every statement of the
compaction or merge has run, nothing is committed, as in a power cut.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime
from typing import Any

from sqlalchemy import event

from bot.agent.gateway import remembering
from game.db.engine import open_database
from game.pool import Pool
from memory.diary import DiaryConfig
from memory.keeper import MemoryConfig
from tests.conftest import FakeClock, ScriptedModel

# Compactions come early: a diary of three entries keeps one; four facts are merged.
CONFIG = MemoryConfig(diary=DiaryConfig(threshold=3, keep=1), fact_threshold=3)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("now")
    parser.add_argument("--stop-before-commit")
    args = parser.parse_args()
    pool = Pool(open_database(args.url), FakeClock(datetime.fromisoformat(args.now)))
    if args.stop_before_commit:
        staged: list[bool] = []

        def watch(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
            if statement.lstrip().upper().startswith(args.stop_before_commit.upper()):
                staged.append(True)

        def stop(_conn: Any) -> None:
            if staged:
                print("staged", flush=True)
                time.sleep(600)  # killed here, before the commit

        event.listen(pool.engine, "before_cursor_execute", watch)
        event.listen(pool.engine, "commit", stop)
    remembering(pool, ScriptedModel(), CONFIG)[0].catch_up()
    pool.engine.dispose()
    print("done", flush=True)


if __name__ == "__main__":
    sys.exit(main())
