"""The take-back bench: does a line that changes or takes back a fact act on that fact,
and on no other?

``python -m bench.takebacks [CORPUS] [--language pt] [--verbose]`` reads
``tests/data/takebacks.jsonl`` (written by a helper session that never read the rules):
per item, a fresh pool, a player's earlier lines telling their facts, then the line
that withdraws one, replaces one, or only looks as if it did. Her offline voice hears
it all; the figures are graded on the database:

- right, per kind: the target gone (and, for a change, its new version kept); for a
  look-alike, no fact of theirs changed;
- wrongly taken: a fact gone that the line did not mean (the worst miss: lost data);
- untold: the target was never stored from its earlier line (a hearing miss of the
  telling, not of the take-back).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.agent.commentator import Commentator
from bot.agent.gateway import remembering
from bot.agent.providers.offline import OfflineModel
from game.db.engine import open_database
from game.pool import Pool
from game.text import unaccented
from memory import facts
from memory.keeper import MemoryConfig
from tests.conftest import FakeClock, small_tournament

CORPUS = Path(__file__).parent.parent / "tests" / "data" / "takebacks.jsonl"
PLAYERS = ("ana", "bruno", "carla", "diego", "elis", "fabio")
BETWEEN_LINES = 5  # hours between a player's lines: "yesterday" can name one of them


@dataclass(frozen=True)
class Item:
    player: str
    told: tuple[str, ...]
    line: str
    do: str  # withdraw | replace | nothing
    old: tuple[str, ...] = ()
    fact: tuple[str, ...] = ()


@dataclass(frozen=True)
class Outcome:
    item: Item
    before: tuple[str, ...]
    after: tuple[str, ...]
    reply: str

    def holds(self, texts: tuple[str, ...], words: tuple[str, ...]) -> list[str]:
        wanted = [unaccented(w).lower() for w in words]
        return [t for t in texts if any(w in unaccented(t).lower() for w in wanted)]

    @property
    def untold(self) -> bool:
        return self.item.do != "nothing" and not self.holds(self.before, self.item.old)

    @property
    def wrongly_taken(self) -> list[str]:
        """Facts gone that the line did not mean."""
        meant = set(self.holds(self.before, self.item.old)) if self.item.do != "nothing" else set()
        return [t for t in self.before if t not in self.after and t not in meant]

    @property
    def right(self) -> bool:
        if self.untold or self.wrongly_taken:
            return False
        if self.item.do == "nothing":
            return self.after == self.before
        gone = not self.holds(self.after, self.item.old)
        return gone and (self.item.do == "withdraw" or bool(self.holds(self.after, self.item.fact)))


def read_corpus(path: Path) -> list[Item]:
    items = []
    for line in path.read_text("utf-8").splitlines():
        if line.strip():
            raw = json.loads(line)
            items.append(
                Item(
                    raw["player"],
                    tuple(raw["told"]),
                    raw["line"],
                    raw["do"],
                    tuple(raw.get("old", ())),
                    tuple(raw.get("fact", ())),
                )
            )
    return items


def run(item: Item, language: str) -> Outcome:
    """The item's lines in a pool of its own, heard by her offline voice."""
    clock = FakeClock(datetime(2026, 6, 1, 12, 0, tzinfo=UTC))
    engine = open_database("sqlite://")
    try:
        pool = Pool(engine, clock)
        pool.fixtures.import_tournament(small_tournament())
        for handle in PLAYERS:
            pool.members.add(handle)
        keeper, gateway = remembering(
            pool, OfflineModel(language=language), MemoryConfig(language=language)
        )
        keeper.enable()
        her = Commentator(keeper, gateway)
        her.start()

        def current() -> tuple[str, ...]:
            with engine.connect() as connection:
                return tuple(f.text for f in facts.current(connection, item.player))

        for line in item.told:
            pool.talk.chat(item.player, line)
            her.catch_up()
            clock.advance(hours=BETWEEN_LINES)
        before = current()
        pool.talk.chat(item.player, item.line)
        her.catch_up()
        said = pool.events(kinds=("chat", "remark"))[-1].event
        reply = said.text if said.kind == "remark" else ""
        return Outcome(item, before, current(), reply)
    finally:
        engine.dispose()


def report(outcomes: list[Outcome], verbose: bool) -> str:
    lines = []
    for kind in ("withdraw", "replace", "nothing"):
        mine = [o for o in outcomes if o.item.do == kind]
        told = [o for o in mine if not o.untold]
        right = sum(o.right for o in mine)
        lines.append(f"{kind:9} {right}/{len(mine)} right ({len(mine) - len(told)} untold)")
    wrong = [o for o in outcomes if o.wrongly_taken]
    lines.append(f"wrongly taken: {len(wrong)}")
    for outcome in outcomes:
        if verbose or (not outcome.right and not outcome.untold):
            lines.append(
                f"[{outcome.item.do}] {outcome.item.player}: {outcome.item.line}\n"
                f"    before: {list(outcome.before)}\n    after:  {list(outcome.after)}\n"
                f"    she said: {outcome.reply or '(nothing)'}"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--language", choices=("en", "pt"), default="pt")
    parser.add_argument("--verbose", action="store_true")
    arguments = parser.parse_args()
    outcomes = [run(item, arguments.language) for item in read_corpus(arguments.corpus)]
    print(report(outcomes, arguments.verbose))


if __name__ == "__main__":
    main()
