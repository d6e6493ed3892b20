"""``betania demo``: a sample pool built from scratch in its own database file, then shown.

The sample tournament and picks ship inside the package (``game/sample``), so
the demo needs no network and never touches a real pool's database.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from game.bets_csv import parse_bets
from game.db.engine import default_data_dir, open_database
from game.openfootball import parse_tournament
from game.render import matches_table, standings_table
from game.service import Pool

DEMO_DATABASE = "demo.db"


def sample_text(name: str) -> str:
    return resources.files("game").joinpath("sample", name).read_text(encoding="utf-8")


def run_demo(data_dir: Path | None = None) -> Pool:
    directory = data_dir or default_data_dir()
    directory.mkdir(parents=True, exist_ok=True)
    database = directory / DEMO_DATABASE
    database.unlink(missing_ok=True)  # the demo starts over; a real pool lives in betania.db
    pool = Pool(open_database(f"sqlite:///{database}"))

    tournament = parse_tournament(json.loads(sample_text("tournament.json")))
    report = pool.import_fixtures(tournament)
    bets = pool.import_bets(parse_bets(sample_text("bets.csv")))
    print(f"{tournament.name}: {report.created} matches, {report.results} results, ", end="")
    print(f"{report.goals} goals")
    print(f"{len(bets.players_created)} players, {bets.placed} picks\n")
    print(matches_table(pool.matches(), tournament.fixtures[0].kickoff.tzinfo))
    played = max((m.number for m in pool.matches() if m.result is not None), default=0)
    halfway = played // 2
    print(f"\nStandings after match #{halfway}:\n{standings_table(pool.standings(halfway))}")
    print(f"\nStandings now, after match #{played}:\n{standings_table(pool.standings())}")
    print(f"\n{len(pool.events())} events in the log; the demo database is {database}")
    return pool
