"""What a fact-checker reads of a hearing run: the scenario, the goals, the chat, her lines.

    python -m bench.review_sheet DIR CHAT.jsonl OUT

DIR is a run's data dir (``bench.hearing --data-dir DIR``, its ``hearing.db``). OUT gets
``scenario.txt`` (what the chat's writer was told), ``goals.txt`` (each match's goals and
the running score), ``chat.jsonl`` (the chat as written) and ``posted.txt`` (every line she
posted, numbered, with its moment and the chat line it answers), so a helper who never
read the code can judge each posted line true, false or doubtful.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
from pathlib import Path

from bench.hearing import scenario


def goals(database: sqlite3.Connection) -> str:
    """Each match's goals in order, with the score they made."""
    rows = database.execute(
        "select match_number, payload from events where kind = 'goal' order by id"
    ).fetchall()
    names = {
        number: json.loads(payload)
        for number, payload in database.execute(
            "select match_number, payload from events where kind = 'match_scheduled'"
        )
    }
    lines: list[str] = []
    running: dict[int, tuple[int, int]] = {}
    for number, payload in rows:
        goal = json.loads(payload)
        home, away = running.get(number, (0, 0))
        home, away = (home + 1, away) if goal["side"] == "home" else (home, away + 1)
        running[number] = (home, away)
        match = names.get(number, {})
        added = f"+{goal['added']}" if goal.get("added") else ""
        kind = " (pen)" if goal.get("penalty") else " (og)" if goal.get("own_goal") else ""
        lines.append(
            f"#{number} {match.get('team1', '?')} v {match.get('team2', '?')}: "
            f"{goal['minute']}{added}' {goal['scorer']}{kind} -> {home}-{away}"
        )
    return "\n".join(lines) + "\n"


def posted(database: sqlite3.Connection) -> str:
    """Her posted lines, numbered, each with its moment and what it answers."""
    chat = {
        row_id: json.loads(payload)
        for row_id, payload in database.execute(
            "select id, payload from events where kind = 'chat'"
        )
    }
    out = []
    remarks = database.execute(
        "select at, payload from events where kind = 'remark' order by id"
    ).fetchall()
    for number, (at, payload) in enumerate(remarks, start=1):
        remark = json.loads(payload)
        trigger = chat.get(remark.get("trigger"))
        about = f" match #{remark['match']}" if remark.get("match") else ""
        out.append(f"[{number}] {at[:16]} UTC{about}")
        if trigger:
            out.append(f"    answering {trigger['player']}: {trigger['text']}")
        out.append(f"    {remark['text']}\n")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="the run's data dir (holds hearing.db)")
    parser.add_argument("chat", type=Path, help="the chat the run replayed")
    parser.add_argument("out", type=Path, help="the folder to write the sheets to")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(args.run / "hearing.db") as database:
        (args.out / "goals.txt").write_text(goals(database), "utf-8")
        (args.out / "posted.txt").write_text(posted(database), "utf-8")
    (args.out / "scenario.txt").write_text(scenario(), "utf-8")
    shutil.copyfile(args.chat, args.out / "chat.jsonl")


if __name__ == "__main__":
    main()
