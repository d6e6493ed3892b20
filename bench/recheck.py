"""Her posted lines of a run, checked again by this code's claims: what the gate now catches.

    python -m bench.recheck DIR [--her betania] [--json]

DIR is a run's data dir (``bench.hearing`` or ``bench.strong_model``: its ``hearing.db``
or ``replay.db``). For each line she posted, latest first, a copy of the database is cut
back to the moment before it was posted (the log's later events dropped and the tables
rewritten from the log, as ``betania log --repair`` does) and the line is checked with
this checkout's claims, its declared claims checked first and, true, vouching for their figures
contract. Prints each line the code now refuses, with the reason: a mend measured on the
lines a run already posted, both ways (a true line it now refuses is a new wrong refusal).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from game.db.chain import SQLITE_GUARDS
from game.db.engine import open_database
from game.db.proof import repair
from game.pool import Pool
from memory import declared
from memory.claims import Claims, answered
from memory.declared import DeclaredCheck


@dataclass(frozen=True)
class Posted:
    number: int  # its place among her posted lines, from 1
    event_id: int
    at: datetime
    match: int | None
    text: str
    claims: tuple[declared.Declared, ...]


def posted_lines(database: Path, her: str) -> list[Posted]:
    """Her remarks in the log, each with the claims its model call declared (if any)."""
    with sqlite3.connect(database) as connection:
        said: dict[str, tuple[declared.Declared, ...]] = {}
        called = connection.execute(
            "select 1 from sqlite_master where type = 'table' and name = 'model_calls'"
        ).fetchone()
        responses = connection.execute(
            "select response from model_calls where response is not null"
            if called
            else "select null where 0"
        )
        for (response,) in responses:
            answer = declared.parse(response)
            said.setdefault(answer.text, answer.claims)
        rows = connection.execute(
            "select id, at, payload from events where kind = 'remark' and handle = ? order by id",
            (her,),
        ).fetchall()
    lines = []
    for number, (event_id, at, payload) in enumerate(rows, start=1):
        remark = json.loads(payload)
        moment = datetime.fromisoformat(at).replace(tzinfo=UTC)
        text = remark["text"]
        lines.append(
            Posted(number, event_id, moment, remark.get("match"), text, said.get(text, ()))
        )
    return lines


def _at(moment: datetime) -> datetime:
    return moment


def recheck(database: Path, her: str) -> list[tuple[Posted, str]]:
    """Each posted line this code's claims refuse, with the reason."""
    lines = posted_lines(database, her)
    refused = []
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "cut.db"
        with sqlite3.connect(database) as source, sqlite3.connect(copy) as target:
            source.backup(target)  # with what its write-ahead log holds, mid-run too
        engine = open_database(f"sqlite:///{copy}")
        with engine.begin() as connection:  # the copy's log may be cut back
            for trigger in SQLITE_GUARDS:
                connection.exec_driver_sql(f"drop trigger if exists {trigger}")
        try:
            for line in reversed(lines):
                with engine.begin() as connection:
                    connection.exec_driver_sql("delete from events where id >= ?", (line.event_id,))
                    repair(connection)
                pool = Pool(engine, clock=partial(_at, line.at))
                claims = Claims(pool, her)
                records = claims.records()
                # as the contract: a false declared claim is the line's fault, a true one
                # vouches for its figure
                reason = DeclaredCheck(pool, her).falsehood(
                    line.claims, records, answered(line.text, records)
                )
                if reason is None:
                    sure = declared.vouched(line.claims)
                    reason = claims.check(line.text, line.match, records, sure)
                if reason is not None:
                    refused.append((line, reason))
        finally:
            engine.dispose()
    return sorted(refused, key=lambda found: found[0].number)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="the run's data dir")
    parser.add_argument("--her", default="betania", help="her handle in the pool")
    parser.add_argument("--json", action="store_true", help="one JSON object per refused line")
    args = parser.parse_args()
    found = [args.run / name for name in ("hearing.db", "replay.db") if (args.run / name).exists()]
    if not found:
        parser.error(f"no hearing.db or replay.db in {args.run}")
    refused = recheck(found[0], args.her)
    posted = len(posted_lines(found[0], args.her))
    for line, reason in refused:
        if args.json:
            print(json.dumps({"posted": line.number, "text": line.text, "reason": reason}))
        else:
            print(f"[{line.number}] {line.text}\n    refused now: {reason}")
    print(f"{len(refused)} of {posted} posted lines refused now")


if __name__ == "__main__":
    main()
