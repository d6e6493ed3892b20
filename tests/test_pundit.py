"""Her picks, a pundit's: World Football Elo from the history, a goal model fitted on it,
the pick worth the most points, and the rest of the cup simulated."""

from __future__ import annotations

import gzip
import io
import math
import random
import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.agent import forecast, predictor
from bot.agent.commentator import Commentator
from bot.agent.gateway import remembering
from bot.agent.providers.offline import OfflineModel
from game import bracket, internationals
from game.elo import Ratings, k_factor
from game.goals import GoalModel, fit
from game.model import Match, MatchStatus, Result, Score
from game.openfootball import parse_tournament, played
from game.pool import Pool
from game.pundit import learn
from game.scoring import PRESETS, ScoreBasis
from game.sources import read_json
from tests.conftest import TEST_DATA, FakeClock, ScriptedModel, her_in

KICKOFF = datetime(2026, 6, 11, 18, tzinfo=UTC)


def test_ratings_follow_world_football_elo_s_published_formula_by_hand() -> None:
    ratings = Ratings()
    # A 3-0 B, a friendly at A's home: K 20, G (11 + 3) / 8, dr 100: We = 1 / (10^-0.25 + 1).
    assert ratings.play("A", "B", 3, 0, k_factor("Friendly"), neutral=False) == pytest.approx(
        20 * 1.75 * (1 - 1 / (10**-0.25 + 1))
    )
    assert (ratings.of("A"), ratings.of("B")) == pytest.approx((1512.60, 1487.40), abs=0.01)
    # B 1-1 C at a World Cup, neutral: K 60, G 1, the lower-rated B gains.
    ratings.play("B", "C", 1, 1, k_factor("FIFA World Cup"))
    assert (ratings.of("B"), ratings.of("C")) == pytest.approx((1488.49, 1498.91), abs=0.01)
    # C 2-0 A at a Copa América: K 50, G 1.5.
    ratings.play("C", "A", 2, 0, k_factor("Copa América"))
    assert [round(ratings.of(t), 2) for t in "ABC"] == [1473.62, 1488.49, 1537.89]


@pytest.mark.parametrize(
    ("tournament", "k"),
    [
        ("FIFA World Cup", 60),
        ("UEFA Euro", 50),
        ("African Cup of Nations", 50),
        ("FIFA World Cup qualification", 40),
        ("UEFA Nations League", 40),
        ("Gulf Cup", 30),
        ("Friendly", 20),
    ],
)
def test_the_weight_of_a_match_by_its_tournament(tournament: str, k: float) -> None:
    assert k_factor(tournament) == k


def test_the_history_names_a_team_as_the_feeds_do() -> None:
    history = internationals.shipped()
    assert (history[0].home, history[0].away, history[0].day) == (
        "Scotland",
        "England",
        date(1872, 11, 30),
    )
    ratings = learn(history, date(2026, 6, 11)).ratings
    # The file's "United States" and "South Korea" are the fixtures' "USA" and "Korea Republic".
    assert ratings.of("USA") == ratings.of("United States") > 1700
    assert ratings.of("Korea Republic") == ratings.of("South Korea") > 1700


def test_what_a_pundit_knows_before_a_day_holds_nothing_of_that_day() -> None:
    history = internationals.shipped()
    before = learn(history, date(2022, 11, 20)).ratings
    after = learn(history, date(2022, 11, 21)).ratings  # Qatar 0-2 Ecuador on the 20th
    assert before.of("Qatar") > after.of("Qatar") and before.of("Ecuador") < after.of("Ecuador")
    assert before.through is not None and before.through < date(2022, 11, 20)


def test_a_results_file_is_refreshed_and_a_broken_one_refused(tmp_path: Path) -> None:
    source = tmp_path / "results.csv"
    source.write_text(
        "date,home_team,away_team,home_score,away_score,tournament,city,country,neutral\n"
        "2026-07-19,Spain,Argentina,1,0,FIFA World Cup,East Rutherford,United States,TRUE\n"
        "2026-09-05,Brazil,Chile,NA,NA,Friendly,Rio,Brazil,FALSE\n",
        encoding="utf-8",
    )
    target = tmp_path / "out.csv.gz"
    assert internationals.refresh(source, target) == 2
    (final,) = internationals.read(io.StringIO(gzip.decompress(target.read_bytes()).decode()))
    assert (final.home, final.home_goals, final.away_goals, final.neutral) == ("Spain", 1, 0, True)
    broken = io.StringIO("date,home_team,away_team\n2026-07-19,Spain,Argentina\n")
    with pytest.raises(internationals.HistoryError, match="no column home_score"):
        internationals.read(broken)
    bad_score = "date,home_team,away_team,home_score,away_score,tournament,neutral\n"
    bad_score += "2026-07-19,Spain,Argentina,one,0,Friendly,TRUE\n"
    with pytest.raises(internationals.HistoryError, match="row 2"):
        internationals.read(io.StringIO(bad_score))


def test_the_goal_model_recovers_the_numbers_it_was_drawn_from() -> None:
    truth = GoalModel(base=math.log(1.2), slope=0.8, rho=-0.1)
    rng = random.Random(7)
    samples = []
    for _ in range(6000):
        difference = rng.uniform(-500, 500)
        chance = truth.chances(difference)
        (score,) = rng.choices(list(chance), weights=list(chance.values()))
        samples.append((difference, score.home, score.away))
    found = fit(samples)
    assert found.base == pytest.approx(truth.base, abs=0.05)
    assert found.slope == pytest.approx(truth.slope, abs=0.06)
    assert found.rho == pytest.approx(truth.rho, abs=0.06)
    assert sum(found.chances(120).values()) == pytest.approx(1.0)


def test_she_picks_the_score_worth_most_points_not_the_likeliest() -> None:
    goals = GoalModel(base=math.log(1.1), slope=0.75, rho=-0.05)
    chance = predictor.judged_chances(goals, 40, knockout=False)
    assert predictor.likeliest(chance) == Score(1, 1)  # the likeliest single score: a draw
    assert predictor.best_pick(chance, PRESETS["classic"]) == Score(1, 0)  # a win pays more
    worth = predictor.expected_points(chance, PRESETS["classic"])
    assert worth[Score(1, 0)] > worth[Score(1, 1)]
    # At level ratings and few goals, the draw is worth most in kicktipp.
    level = predictor.judged_chances(GoalModel(base=math.log(0.9), slope=0.75, rho=-0.1), 0, False)
    assert predictor.best_pick(level, PRESETS["kicktipp"]).outcome == 0


def test_a_knockout_judged_after_extra_time_has_fewer_draws_than_ninety_minutes() -> None:
    goals = GoalModel()
    ninety = predictor.judged_chances(goals, 0, knockout=True, basis=ScoreBasis.NINETY)
    extra = predictor.judged_chances(goals, 0, knockout=True)
    assert predictor.outcomes(extra)[1] < predictor.outcomes(ninety)[1]
    assert sum(extra.values()) == pytest.approx(1.0)


def test_odds_are_whole_percentages_summing_to_100() -> None:
    match = Match(1, "Group stage", KICKOFF, "Brazil", "Serbia", group="Group A")
    seen = predictor.outlook([match])
    odds = predictor.odds(match, predictor.chances(match, seen))
    assert odds.win1 + odds.draw + odds.win2 == 100
    assert odds.win1 > odds.win2  # Brazil, by a century and a half of results


def _cup(results: dict[int, Score] | None = None) -> list[Match]:
    """Three groups of three (A, B, C), the two best thirds to the semi-finals, a final."""
    groups = {"A": ("Brazil", "Japan", "Ghana"), "B": ("Spain", "Iran", "Peru"),
              "C": ("France", "Qatar", "Chile")}  # fmt: skip
    matches: list[Match] = []
    for letter, (one, two, three) in groups.items():
        for home, away in ((one, two), (two, three), (three, one)):
            matches.append(
                Match(len(matches) + 1, "Group stage", KICKOFF, home, away, group=f"Group {letter}")
            )
    later = KICKOFF + timedelta(days=10)
    matches += [
        Match(10, "Quarter-final", later, "1A", "3B/C"),
        Match(11, "Quarter-final", later, "1B", "3A/C"),
        Match(12, "Quarter-final", later, "1C", "2A"),
        Match(13, "Quarter-final", later, "2B", "2C"),
        Match(14, "Semi-final", later + timedelta(days=3), "W10", "W11"),
        Match(15, "Semi-final", later + timedelta(days=3), "W12", "W13"),
        Match(16, "Final", later + timedelta(days=6), "W14", "W15"),
    ]
    for number, score in (results or {}).items():
        match = matches[number - 1]
        matches[number - 1] = Match(
            match.number, match.stage, match.kickoff, match.team1, match.team2,
            group=match.group, status=MatchStatus.FINISHED, result=Result(score),
        )  # fmt: skip
    return matches


def test_the_cup_simulated_gives_every_contender_a_chance_summing_to_one() -> None:
    matches = _cup()
    chances = forecast.Cup(matches, predictor.outlook(matches)).chances(runs=500)
    assert sum(chances.values()) == pytest.approx(1.0)
    assert set(chances) <= {t for m in matches[:9] for t in (m.team1, m.team2)}
    assert max(chances, key=chances.__getitem__) in ("Brazil", "Spain", "France")


def test_a_decided_cup_gives_its_champion_every_chance() -> None:
    matches = _cup()
    final = matches[-1]
    done = [
        Match(m.number, m.stage, m.kickoff, m.team1, m.team2, group=m.group)
        for m in matches[:-1]
    ] + [
        Match(16, "Final", final.kickoff, "Iran", "Qatar", status=MatchStatus.FINISHED,
              result=Result(Score(1, 1), extra_time=Score(1, 1), penalties=Score(3, 4)))
    ]  # fmt: skip
    assert forecast.Cup(done, predictor.outlook(done)).chances(runs=50) == {"Qatar": 1.0}


def test_a_third_placed_team_goes_to_a_slot_that_names_its_group() -> None:
    row = bracket.Row
    seats = forecast._assign(
        [("3B/C", {"B", "C"}), ("3A/C", {"A", "C"})],
        [row("Chile"), row("Peru")],  # the best thirds, best first: C's and B's
        {"Chile": "C", "Peru": "B"},
    )
    # Chile fits both; Peru only the first: one valid assignment, found.
    assert seats == {"3B/C": "Peru", "3A/C": "Chile"}


def test_a_model_asked_for_her_pick_is_told_the_chances_and_the_pick_worth_most(
    tournament_pool: Pool,
) -> None:
    model = ScriptedModel(prediction=lambda _call: "0-0")
    keeper, gateway = remembering(tournament_pool, model)
    keeper.enable()
    match = tournament_pool.match(1)
    mine = Commentator(keeper, gateway).pick_for(match)
    (asked,) = [call for call in model.calls if call.task == "prediction"]
    seen = predictor.outlook(tournament_pool.matches())
    chance = predictor.chances(match, seen)
    odds = predictor.odds(match, chance)
    assert f"Brazil {odds.win1}%, a draw {odds.draw}%, Serbia {odds.win2}%" in asked.prompt
    best = predictor.best_pick(chance, PRESETS["classic"])
    assert f"the most points under this pool's rules\nis {best}." in asked.prompt
    assert f"likeliest\nscores are {predictor.likeliest(chance)} " in asked.prompt
    assert mine == (Score(0, 0) if Score(0, 0) in predictor.plausible(chance) else best)


def test_her_kick_off_remark_says_why_she_picked_it(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    commentator = her_in(tournament_pool, OfflineModel())
    clock.now = tournament_pool.match(1).kickoff - timedelta(minutes=30)
    tournament_pool.predictions.place("betania", 1, Score(1, 0))
    for handle in ("ana", "bia", "caio"):  # the crowd goes the other way: worth a word
        tournament_pool.predictions.place(handle, 1, Score(0, 2))
    commentator.catch_up()
    clock.now = tournament_pool.match(1).kickoff
    tournament_pool.fixtures.kick_off(1)
    commentator.catch_up()
    (said,) = [
        e.event.text for e in tournament_pool.events(kinds=("remark",)) if "#1" in e.event.text
    ]
    shares = [int(n) for n in re.findall(r"(\d+)%", said)]
    assert "1-0" in said and "Brazil" in said and len(shares) == 3 and sum(shares) == 100, said


# -- clubs --------------------------------------------------------------------------


def _season(path: str, zone: str) -> list[Match]:
    """A league file's finished matches, numbered in kick-off order."""
    return played(parse_tournament(read_json(str(TEST_DATA / path)), ZoneInfo(zone)))


def test_clubs_are_rated_from_the_season_at_their_own_ground() -> None:
    brasileirao = _season("br.1-2025.json", "America/Sao_Paulo")
    seen = predictor.outlook(brasileirao)
    final_round = brasileirao[-10:]
    # Flamengo won the league, Sport Recife finished last; neither is a nation.
    assert seen.ratings.ranked(["SC Recife", "CR Flamengo"]) == ["CR Flamengo", "SC Recife"]
    assert seen.at_home(final_round[0]) and not seen.nations.knows("CR Flamengo")
    # Home sides took 63% of the points: worth about 94 rating points, as the season says.
    assert 80 < seen.ratings.home < 110
    at_home = Match(999, "Matchday 39", KICKOFF, "SC Recife", "CR Flamengo")
    away = Match(999, "Matchday 39", KICKOFF, "CR Flamengo", "SC Recife")
    assert seen.difference(away) - -seen.difference(at_home) == pytest.approx(2 * seen.ratings.home)
    # Nations stay on neutral ground.
    world_cup = Match(1, "Matchday 1", KICKOFF, "Brazil", "Spain", group="Group A")
    assert not seen.at_home(world_cup)


def test_an_earlier_season_starts_her_club_ratings() -> None:
    premier = _season("en.1-2025-26.json", "Europe/London")
    first_week = [Match(m.number, m.stage, m.kickoff, m.team1, m.team2) for m in premier[:10]]
    level = predictor.outlook(first_week)
    assert level.difference(first_week[0]) == pytest.approx(level.ratings.home)  # all 1500
    informed = predictor.outlook(first_week, before=premier[10:])
    assert informed.ratings.of("Arsenal FC") > informed.ratings.of("Burnley FC")


def test_a_league_is_won_at_the_top_of_one_table_not_of_a_matchday() -> None:
    brasileirao = _season("br.1-2025.json", "America/Sao_Paulo")
    open_end = [
        m if m.number <= 370 else Match(m.number, m.stage, m.kickoff, m.team1, m.team2)
        for m in brasileirao
    ]
    chances = forecast.Cup(open_end, predictor.outlook(open_end)).chances(runs=200)
    # Flamengo led Palmeiras by five points with a round to play: the title was theirs.
    assert chances == {"CR Flamengo": 1.0}
