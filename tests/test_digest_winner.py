"""Her day digest names the day's winner as the pool counts it (``standings day``), ties
all named, on a real tournament: the 2022 World Cup, told in Qatar's time zone (where
her days and the pool's match days are the same days)."""

import re
from datetime import date, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.agent.providers.base import ModelCall
from bot.agent.providers.offline import OfflineModel
from game.model import Score
from game.openfootball import parse_tournament
from game.pool import Pool
from game.sources import read_json
from memory.keeper import MemoryConfig
from memory.usage import recorded
from tests.conftest import TEST_DATA, FakeClock, her_in, play

QATAR = ZoneInfo("Asia/Qatar")
PLAYERS = ("ana", "bia", "caio", "dani")


class Heard:
    """The offline voice in ``language``, keeping every call: what a model was handed."""

    name = "heard"

    def __init__(self, language: str) -> None:
        self.voice = OfflineModel(language=language)
        self.calls: list[ModelCall] = []

    def complete(self, call: ModelCall) -> str:
        self.calls.append(call)
        return self.voice.complete(call)


def the_2022_cup(pool: Pool) -> dict[int, str]:
    """The fixtures imported without their results; the real final scores, by number."""
    data = read_json(str(TEST_DATA / "worldcup-2022.json"))
    real = {}
    for raw in data["matches"]:
        home, away = raw.pop("score")["ft"]
        real[raw["team1"], raw["team2"]] = f"{home}-{away}"
        raw.pop("goals1", None)
        raw.pop("goals2", None)
    pool.fixtures.import_tournament(parse_tournament(data, QATAR))
    return {m.number: real[m.team1, m.team2] for m in pool.matches() if (m.team1, m.team2) in real}


def on(pool: Pool, day: date) -> list[int]:
    return sorted(m.number for m in pool.matches() if m.kickoff.astimezone(QATAR).date() == day)


@pytest.mark.parametrize("language", ["en", "pt"])
def test_her_digest_names_the_day_s_winners_as_standings_day_does(
    pool: Pool, clock: FakeClock, language: str
) -> None:
    scores = the_2022_cup(pool)
    clock.now = pool.match(1).kickoff - timedelta(days=1)  # before the opening: picks open
    for handle in PLAYERS:
        pool.members.add(handle)
    model = Heard(language)
    her = her_in(pool, model, MemoryConfig(language=language, zone=QATAR))
    # The picks are the test's; the scores are the tournament's. Day one (Qatar 0-2
    # Ecuador): ana and bia both call it, a tie; day two: three matches, one winner.
    opening, second = date(2022, 11, 20), date(2022, 11, 21)
    picks = {
        "ana": ["0-2", "6-2", "0-0", "2-0"],
        "bia": ["0-2", "1-0", "0-2", "1-1"],
        "caio": ["1-1", "6-2", "0-2", "1-1"],
        "dani": ["0-1", "0-1", "1-1", "0-0"],
    }
    numbers = on(pool, opening) + on(pool, second)
    assert [scores[n] for n in numbers] == ["0-2", "6-2", "0-2", "1-1"]  # the real results
    for handle, scored in picks.items():
        for number, pick in zip(numbers, scored, strict=True):
            pool.predictions.place(handle, number, Score.parse(pick))

    for day, expected in ((opening, 2), (second, 1)):
        for number in on(pool, day):
            play(pool, clock, number, scores[number])
        her.catch_up()
        told = her.digest(day)

        _, table = pool.day_table(day)
        assert len(table.winners) == expected  # the tie is there on day one
        points = next(r.points for r in table.rows if r.player == table.winners[0])
        assert told is not None
        text = told.text
        named = {handle for handle in PLAYERS if handle in text}
        leader = pool.standings()[0].player
        # Every winner named with the day's points, and nobody else but the table's
        # leader and the day's quietest player (a line of its own).
        assert set(table.winners) <= named
        assert re.search(rf"\b{points}\b", text)
        assert len(named - set(table.winners) - {leader}) <= 1
        # Handed to a model as a record, in English whatever the pool's language.
        prompt = model.calls[-1].prompt
        assert f"{' & '.join(table.winners)}, with {points} points on the day" in prompt
        # Held to the output contract and posted as written, not replaced or refused.
        with her.store.read() as connection:
            calls = [c for c in recorded(connection) if c.response == text]
        assert [c.outcome for c in calls] == ["posted"]
