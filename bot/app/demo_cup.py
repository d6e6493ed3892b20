"""The demo's own tournaments, played by the dice: a cup (16 teams, four groups, then
knock-outs) and a short league (six clubs, home and away, three matches a round at
one kick-off).

Team strengths are the demo's own invention; each match's goals come from a
seeded Poisson draw, so a demo run is reproducible and still full of surprises.
The shared World Cup data is never used here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.app.simulation import poisson_draw
from game.model import Goal, Result, Score
from game.openfootball import Fixture

TEAMS: dict[str, dict[str, float]] = {
    "Group A": {"Brazil": 1.9, "Japan": 1.3, "Morocco": 1.4, "Norway": 1.2},
    "Group B": {"Argentina": 1.9, "Portugal": 1.6, "Senegal": 1.2, "Canada": 1.0},
    "Group C": {"France": 1.8, "Mexico": 1.3, "Korea": 1.1, "Ghana": 1.0},
    "Group D": {"Spain": 1.8, "England": 1.7, "Uruguay": 1.3, "Australia": 0.9},
}
ROUND_ROBIN = [(0, 1), (2, 3), (0, 2), (1, 3), (3, 0), (1, 2)]
QUARTER_FINALS = [("1A", "2B"), ("1B", "2A"), ("1C", "2D"), ("1D", "2C")]
# A few names per team, so a goal is scored by someone who plays for that team.
SQUADS: dict[str, tuple[str, ...]] = {
    "Brazil": ("Vinícius Jr", "Rodrygo", "Raphinha", "Paquetá"),
    "Japan": ("Mitoma", "Kubo", "Minamino", "Doan"),
    "Morocco": ("En-Nesyri", "Ziyech", "Hakimi", "Amrabat"),
    "Norway": ("Haaland", "Ødegaard", "Sørloth", "Nusa"),
    "Argentina": ("Messi", "Álvarez", "Lautaro", "Mac Allister"),
    "Portugal": ("Ronaldo", "Bruno Fernandes", "Leão", "Bernardo"),
    "Senegal": ("Mané", "Jackson", "Sarr", "Diallo"),
    "Canada": ("David", "Davies", "Larin", "Buchanan"),
    "France": ("Mbappé", "Griezmann", "Dembélé", "Thuram"),
    "Mexico": ("Giménez", "Lozano", "Vega", "Álvarez"),
    "Korea": ("Son", "Hwang", "Lee Kang-in", "Cho"),
    "Ghana": ("Kudus", "Semenyo", "Ayew", "Partey"),
    "Spain": ("Yamal", "Morata", "Olmo", "Pedri"),
    "England": ("Kane", "Bellingham", "Saka", "Foden"),
    "Uruguay": ("Núñez", "Valverde", "Pellistri", "Araújo"),
    "Australia": ("Duke", "Irvine", "Goodwin", "Boyle"),
}


# The league's clubs, by the names of the team book (game/clubs.json).
CLUBS: dict[str, float] = {
    "CR Flamengo": 1.8,
    "SE Palmeiras": 1.8,
    "Botafogo FR": 1.5,
    "Fluminense FC": 1.3,
    "São Paulo FC": 1.3,
    "SC Corinthians Paulista": 1.2,
}
SQUADS |= {
    "CR Flamengo": ("Pedro", "Arrascaeta", "Bruno Henrique", "Luiz Araújo"),
    "SE Palmeiras": ("Vitor Roque", "Flaco López", "Raphael Veiga", "Maurício"),
    "Botafogo FR": ("Igor Jesus", "Savarino", "Artur", "Marlon Freitas"),
    "Fluminense FC": ("Cano", "Ganso", "Arias", "Serna"),
    "São Paulo FC": ("Calleri", "Lucas Moura", "Luciano", "Oscar"),
    "SC Corinthians Paulista": ("Yuri Alberto", "Memphis", "Garro", "Romero"),
}


def strength(team: str) -> float:
    if team in CLUBS:
        return CLUBS[team]
    return next(group[team] for group in TEAMS.values() if team in group)


@dataclass(frozen=True)
class ResultAndGoals:
    result: Result
    goals: tuple[Goal, ...]


def play(team1: str, team2: str, rng: random.Random, knockout: bool) -> ResultAndGoals:
    """Goals with minutes; a knock-out draw goes to extra time, then penalties."""
    mean1, mean2 = (
        1.2 * strength(team1) / strength(team2) ** 0.5,
        1.2 * strength(team2) / strength(team1) ** 0.5,
    )
    home, away = poisson_draw(rng, mean1 * 0.9), poisson_draw(rng, mean2 * 0.9)
    goals = [_goal(rng, "home", 1, 90, team1) for _ in range(home)] + [
        _goal(rng, "away", 1, 90, team2) for _ in range(away)
    ]
    full_time = Score(home, away)
    extra = penalties = None
    if knockout and home == away:
        more_home, more_away = poisson_draw(rng, mean1 * 0.3), poisson_draw(rng, mean2 * 0.3)
        goals += [_goal(rng, "home", 91, 120, team1) for _ in range(more_home)]
        goals += [_goal(rng, "away", 91, 120, team2) for _ in range(more_away)]
        extra = Score(home + more_home, away + more_away)
        if extra.outcome == 0:
            kicks = rng.choice([(4, 2), (5, 4), (3, 4), (4, 5), (5, 3), (2, 4)])
            penalties = Score(*kicks)
    goals.sort(key=lambda g: g.minute)
    return ResultAndGoals(Result(full_time, extra, penalties), tuple(goals))


def _goal(rng: random.Random, side: str, first: int, last: int, team: str) -> Goal:
    return Goal(side, rng.randint(first, last), scorer=rng.choice(SQUADS[team]))


def group_fixtures(start: datetime, spacing: timedelta) -> list[Fixture]:
    fixtures = []
    slot = 0
    for round_index in range(3):
        for group, teams in TEAMS.items():
            names = list(teams)
            for home, away in ROUND_ROBIN[round_index * 2 : round_index * 2 + 2]:
                fixtures.append(
                    _fixture(
                        f"demo:{group}:{names[home]}:{names[away]}",
                        f"Matchday {round_index + 1}",
                        start + spacing * slot,
                        names[home],
                        names[away],
                        group=group,
                    )
                )
                slot += 1
    return fixtures


def knockout_fixtures(start: datetime, spacing: timedelta) -> list[Fixture]:
    """The bracket with placeholders ("1A", "W25") until the teams are known."""
    rounds = [
        ("Quarter-final", QUARTER_FINALS),
        ("Semi-final", [("W25", "W26"), ("W27", "W28")]),
        ("Final", [("W29", "W30")]),
    ]
    fixtures, slot, number = [], 0, 25
    for stage, pairs in rounds:
        for team1, team2 in pairs:
            fixtures.append(
                _fixture(f"demo:ko:{number}", stage, start + spacing * slot, team1, team2)
            )
            slot, number = slot + 1, number + 1
        slot += 1  # a rest day between rounds
    return fixtures


def league_fixtures(start: datetime, spacing: timedelta) -> list[Fixture]:
    """Every club against every other, home and away: ten rounds by the circle method,
    each round's three matches at one kick-off, as a league plays them."""
    clubs = list(CLUBS)
    halves = []
    for turn in range(len(clubs) - 1):
        order = [clubs[0], *(clubs[1:][turn:] + clubs[1:][:turn])]
        pairs = [(order[i], order[-1 - i]) for i in range(len(order) // 2)]
        halves.append([(a, b) if turn % 2 == 0 else (b, a) for a, b in pairs])
    rounds = halves + [[(b, a) for a, b in pairs] for pairs in halves]
    return [
        _fixture(
            f"demo:league:{number}:{home}:{away}",
            f"Matchday {number}",
            start + spacing * (number - 1),
            home,
            away,
            venue=None,
        )
        for number, pairs in enumerate(rounds, start=1)
        for home, away in pairs
    ]


def _fixture(
    key: str,
    stage: str,
    kickoff: datetime,
    team1: str,
    team2: str,
    group: str | None = None,
    venue: str | None = "Demo Arena",
) -> Fixture:
    """A demo match, dated on its kick-off's day."""
    return Fixture(key, stage, kickoff, kickoff.date().isoformat(), team1, team2, group, venue)


def group_table(results: list[tuple[str, str, Score]], group: str) -> list[str]:
    """Teams of ``group`` by points, goal difference, goals scored."""
    table = {team: [0, 0, 0] for team in TEAMS[group]}
    for team1, team2, score in results:
        if team1 not in table or team2 not in table:
            continue  # another group's match, or a knock-out
        for team, scored, conceded in (
            (team1, score.home, score.away),
            (team2, score.away, score.home),
        ):
            row = table[team]
            row[0] += 3 if scored > conceded else 1 if scored == conceded else 0
            row[1] += scored - conceded
            row[2] += scored
    return sorted(table, key=lambda team: (-table[team][0], -table[team][1], -table[team][2], team))


def winner(team1: str, team2: str, result: Result) -> str:
    decisive = result.penalties or result.end_of_play
    return team1 if decisive.outcome > 0 else team2
