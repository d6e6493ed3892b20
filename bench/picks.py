"""Her picks, backtested: every World Cup from 1994 to 2026 from the history file alone,
and the three openfootball cups of tests/data through the real pool code.

    python -m bench.picks [--fit-years 4,8,16]

For each cup, with only the matches played before each pick, it prints the points
four ways of picking score in the classic and the kicktipp presets (a knock-out
judged after extra time, as the file records it):

- equal: the model she had before, every team at 1500 at the start of each cup;
- 1-0: the history's favourite to win 1-0 (0-1 for the away side);
- likeliest: the likeliest score of the goal model;
- best: the pick worth the most points under the preset (what she picks now).

``--fit-years`` compares the years of history the goal model learns from on the
cups before 2018 (in sample), and 2018, 2022 and 2026 are reported out of sample
with the setting shipped (``game.pundit.FIT_YEARS``).
"""

from __future__ import annotations

import argparse
import math
import tempfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.agent import predictor
from bot.agent.forecast import Cup
from game import bracket, internationals
from game.db.engine import open_database
from game.elo import Ratings
from game.goals import GoalModel, Sample, fit
from game.model import Match, Score
from game.openfootball import parse_tournament
from game.pool import Pool
from game.pool.fixtures import numbering
from game.pundit import FIT_YEARS, count
from game.scoring import PRESETS, ScoreBasis, ScoringRule, classify
from game.sources import read_json

CUPS = tuple(range(1994, 2027, 4))
IN_SAMPLE = tuple(year for year in CUPS if year < 2018)
WAYS = ("equal", "1-0", "likeliest", "best")
TEST_DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


@dataclass(frozen=True)
class Pick:
    """One cup match as she saw it the day before: its chances and its score."""

    cup: int
    difference: float
    knockout: bool
    actual: Score
    equal: Score  # the pick of the model she had before


def history_picks(fit_years: int) -> list[tuple[Pick, GoalModel]]:
    """Every World Cup match from 1994 on, with the ratings of the day before and the goal
    model fitted on ``fit_years`` years before its cup: one pass over the history."""
    history = internationals.shipped()
    cups: dict[int, list[internationals.International]] = defaultdict(list)
    for played in history:
        if played.tournament == "FIFA World Cup" and played.day.year in CUPS:
            cups[played.day.year].append(played)
    knockouts = {
        year: set(map(id, games[-(32 if len(games) >= 104 else 16) :]))
        for year, games in cups.items()
    }
    starts = {year: games[0].day for year, games in cups.items()}
    ratings = Ratings()
    samples: list[tuple[datetime, Sample]] = []
    models: dict[int, GoalModel] = {}
    equal: dict[int, _EqualModel] = {year: _EqualModel() for year in cups}
    picks: list[tuple[Pick, GoalModel]] = []
    for played in history:
        year = played.day.year
        difference = ratings.difference(played.home, played.away, played.neutral)
        if played.tournament == "FIFA World Cup" and year in cups:
            if year not in models:
                since = starts[year].replace(year=year - fit_years)
                models[year] = fit([s for day, s in samples if since <= day < starts[year]])
            actual = Score(played.home_goals, played.away_goals)
            picks.append(
                (
                    Pick(
                        year,
                        difference,
                        id(played) in knockouts[year],
                        actual,
                        equal[year].pick(played.home, played.away),
                    ),
                    models[year],
                )
            )
            equal[year].play(played.home, played.away, actual)
        samples.append((played.day, (difference, played.home_goals, played.away_goals)))
        count(ratings, played)
    return picks


def points(picks: list[tuple[Pick, GoalModel]], rule: ScoringRule) -> dict[int, dict[str, int]]:
    """Each cup's points, each way of picking, under ``rule``."""
    table: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(WAYS, 0))
    for seen, goals in picks:
        chance = predictor.judged_chances(goals, seen.difference, seen.knockout)
        ways = {
            "equal": seen.equal,
            "1-0": Score(1, 0) if seen.difference >= 0 else Score(0, 1),
            "likeliest": predictor.likeliest(chance),
            "best": predictor.best_pick(chance, rule),
        }
        for way, score in ways.items():
            table[seen.cup][way] += rule.points(classify(score, seen.actual))
    return table


def distinct(picks: list[tuple[Pick, GoalModel]], rule: ScoringRule) -> dict[int, int]:
    """How many different scores she picks in each cup."""
    scores: dict[int, set[Score]] = defaultdict(set)
    for seen, goals in picks:
        chance = predictor.judged_chances(goals, seen.difference, seen.knockout)
        scores[seen.cup].add(predictor.best_pick(chance, rule))
    return {cup: len(found) for cup, found in scores.items()}


def pool_replay(file: Path, preset: str) -> tuple[int, int, int]:
    """A cup of tests/data through the real pool: she picks each match before kick-off
    (``Commentator``'s own rule: ``predictor.pick`` on the pool's matches), then its
    result is recorded. Her points, the pool's matches and her distinct picks."""
    tournament = parse_tournament(read_json(str(file)), _zone(file))
    results = {(f.kickoff, f.team1, f.team2): f.result for f in tournament.fixtures}
    blank = replace(
        tournament, fixtures=tuple(replace(f, result=None, goals=()) for f in tournament.fixtures)
    )
    with tempfile.TemporaryDirectory() as folder:
        now = [min(f.kickoff for f in tournament.fixtures) - timedelta(days=1)]
        engine = open_database(f"sqlite:///{Path(folder) / 'picks.db'}")
        pool = Pool(engine, lambda: now[0])
        pool.fixtures.import_tournament(blank)
        pool.predictions.set_scoring(preset, ScoreBasis.END_OF_PLAY)
        pool.members.add("betania")
        rule, basis = pool.scoring()
        picked: set[Score] = set()
        for match in sorted(pool.matches(), key=Match.time_order):
            match = pool.match(match.number)  # knock-out teams as the pool knows them now
            now[0] = match.kickoff - timedelta(minutes=1)
            score = predictor.pick(match, predictor.outlook(pool.matches()), rule, basis)
            picked.add(score)
            pool.predictions.place("betania", match.number, score)
            now[0] = match.kickoff + timedelta(minutes=120)
            pool.fixtures.kick_off(match.number)
            result = results[(match.kickoff, match.team1, match.team2)]
            if result is not None:
                pool.fixtures.record_result(match.number, result)
        table = pool.standings()
        mine = next(r.points for r in table if r.player == "betania")
        count = len(pool.matches())
        engine.dispose()
    return mine, count, len(picked)


def before_the_cup(file: Path) -> list[Match]:
    """A tests/data cup as the pool knew it before its first match: numbered as the pool
    numbers it, no result, knock-out sides as the bracket's slots (``game.bracket``)."""
    fixtures = parse_tournament(read_json(str(file)), _zone(file)).fixtures
    numbers = numbering(fixtures)
    shown, _ = bracket.blind(fixtures, numbers)
    return [
        Match(numbers[f.source_key], f.stage, f.kickoff, f.team1, f.team2, group=f.group)
        for f in shown
    ]


def _zone(file: Path) -> ZoneInfo | None:
    """The 2022 file writes Qatar's local times without an offset."""
    return ZoneInfo("Asia/Qatar") if "2022" in file.name else None


class _EqualModel:
    """The model she had before: every team at 1500 at each cup's start, K 30, a Poisson
    of 1.3 goals a side moved by the gap over 600, the likeliest outcome's likeliest score."""

    def __init__(self) -> None:
        self.rating: dict[str, float] = {}

    def play(self, home: str, away: str, score: Score) -> None:
        one, two = self.rating.get(home, 1500.0), self.rating.get(away, 1500.0)
        won = 1.0 if score.outcome > 0 else 0.0 if score.outcome < 0 else 0.5
        margin = abs(score.difference)
        weight = 1.0 if margin <= 1 else 1.5 if margin == 2 else (11 + margin) / 8
        change = 30 * weight * (won - 1 / (1 + 10 ** ((two - one) / 400)))
        self.rating[home], self.rating[away] = one + change, two - change

    def pick(self, home: str, away: str) -> Score:
        gap = self.rating.get(home, 1500.0) - self.rating.get(away, 1500.0)
        means = 1.3 * math.exp(gap / 600), 1.3 * math.exp(-gap / 600)

        def poisson(mean: float, goals: int) -> float:
            return math.exp(-mean) * mean**goals / math.factorial(goals)

        chance = {
            Score(h, a): poisson(means[0], h) * poisson(means[1], a)
            for h in range(7)
            for a in range(7)
        }
        by: dict[int, float] = defaultdict(float)
        for score, p in chance.items():
            by[score.outcome] += p
        outcome = max(by, key=lambda o: (round(by[o], 9), o))
        return max((s for s in chance if s.outcome == outcome), key=chance.__getitem__)


def _table(title: str, rows: dict[int, dict[str, int]], cups: tuple[int, ...]) -> None:
    print(f"\n{title}")
    print(f"{'cup':>6} " + " ".join(f"{way:>10}" for way in WAYS))
    for cup in cups:
        print(f"{cup:>6} " + " ".join(f"{rows[cup][way]:>10}" for way in WAYS))
    print(f"{'total':>6} " + " ".join(f"{sum(rows[c][w] for c in cups):>10}" for w in WAYS))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fit-years", default="4,8,16", help="settings compared in sample")
    args = parser.parse_args(argv)
    compared: Callable[[str], int] = int
    print("In sample (1994-2014): the goal model's years of history, her best pick's points")
    for years in map(compared, args.fit_years.split(",")):
        picks = history_picks(years)
        totals = [
            sum(points(picks, PRESETS[name])[cup]["best"] for cup in IN_SAMPLE)
            for name in ("classic", "kicktipp")
        ]
        print(f"  fit on {years:>2} years: classic {totals[0]}, kicktipp {totals[1]}")
    picks = history_picks(FIT_YEARS)
    for name in ("classic", "kicktipp"):
        rows = points(picks, PRESETS[name])
        _table(f"{name}, in sample (fit on {FIT_YEARS} years)", rows, IN_SAMPLE)
        _table(f"{name}, out of sample", rows, (2018, 2022, 2026))
        print("  distinct picks (best):", distinct(picks, PRESETS[name]))
    before = before_the_cup(TEST_DATA / "worldcup-2026.json")
    champions = Cup(before, predictor.outlook(before)).chances()
    print("\n2026, before the first match: " + ", ".join(
        f"{team} {chance:.0%}" for team, chance in list(champions.items())[:5]
    ))  # fmt: skip
    print("\nThrough the pool (tests/data, openfootball): her points, matches, distinct picks")
    for year in (2018, 2022, 2026):
        for name in ("classic", "kicktipp"):
            mine, count, different = pool_replay(TEST_DATA / f"worldcup-{year}.json", name)
            print(f"  {year} {name:>8}: {mine} points over {count} matches, {different} scores")


if __name__ == "__main__":
    main()
