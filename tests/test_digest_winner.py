"""Her day digest names the day's winner as the pool counts it (``standings day``), ties
all named, on a real tournament: the 2022 World Cup, told in Qatar's time zone (where
her days and the pool's match days are the same days)."""

import re
from datetime import UTC, date, datetime, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo

import pytest

from bot.agent.commentator import Commentator, Policy
from bot.agent.providers.base import ModelCall
from bot.agent.providers.offline import OfflineModel
from game.model import Score
from game.openfootball import Tournament, parse_tournament
from game.pool import Pool
from game.sources import read_json
from memory.keeper import MemoryConfig
from memory.usage import recorded
from tests.conftest import TEST_DATA, FakeClock, fixture, her_in, play

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


def a_cup(pool: Pool, name: str, zone: ZoneInfo) -> dict[int, str]:
    """The fixtures imported without their results; the real final scores, by number."""
    data = read_json(str(TEST_DATA / name))
    real = {}
    for raw in data["matches"]:
        home, away = raw.pop("score")["ft"]
        real[raw["team1"], raw["team2"]] = f"{home}-{away}"
        raw.pop("goals1", None)
        raw.pop("goals2", None)
    pool.fixtures.import_tournament(parse_tournament(data, zone))
    return {m.number: real[m.team1, m.team2] for m in pool.matches() if (m.team1, m.team2) in real}


def on(pool: Pool, day: date) -> list[int]:
    return sorted(m.number for m in pool.matches() if m.kickoff.astimezone(QATAR).date() == day)


@pytest.mark.parametrize("language", ["en", "pt"])
def test_her_digest_names_the_day_s_winners_as_standings_day_does(
    pool: Pool, clock: FakeClock, language: str
) -> None:
    scores = a_cup(pool, "worldcup-2022.json", QATAR)
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


SAO_PAULO = ZoneInfo("America/Sao_Paulo")


def test_her_digest_tells_the_pool_s_match_day_not_the_date_on_her_clock(
    pool: Pool, clock: FakeClock
) -> None:
    """Australia v Turkey, 2026, kicks off at 21:00 in Santa Clara on 13 June, 01:00 on
    the 14th in São Paulo. The pool counts it for the 13th (``standings day``), so her
    digest of the 13th, told in São Paulo, waits for it and counts it too: told by her
    clock's date, it would name a tie the day's table does not have."""
    real = a_cup(pool, "worldcup-2026.json", SAO_PAULO)
    thirteenth = date(2026, 6, 13)
    days = pool.match_days()
    played = sorted(
        (m for m in pool.matches() if days[m.number] == thirteenth), key=lambda m: m.kickoff
    )
    assert [f"{m.team1} v {m.team2}" for m in played][-1] == "Australia v Turkey"
    assert played[-1].kickoff.astimezone(SAO_PAULO).date() == date(2026, 6, 14)
    scores = [real[m.number] for m in played]
    assert scores == ["1-1", "1-1", "0-1", "2-0"]
    picks = {  # ana and bia level until the late match; only ana saw it
        "ana": ["1-1", "1-1", "0-1", "2-0"],
        "bia": ["1-1", "1-1", "0-1", "0-0"],
        "caio": ["0-0"] * 4,
    }
    clock.now = pool.match(1).kickoff - timedelta(days=1)
    for handle, scored in picks.items():
        pool.members.add(handle)
        for match, pick in zip(played, scored, strict=True):
            pool.predictions.place(handle, match.number, Score.parse(pick))
    model = Heard("en")
    her = her_in(pool, model, MemoryConfig(language="en", zone=SAO_PAULO))

    for match, score in zip(played[:-1], scores, strict=False):
        play(pool, clock, match.number, score)
    clock.now = datetime(2026, 6, 13, 23, 30, tzinfo=SAO_PAULO)
    assert her.digest_due() is None  # the day's last match is still to come
    play(pool, clock, played[-1].number, scores[-1])
    assert clock.now.astimezone(SAO_PAULO).date() == date(2026, 6, 14)
    assert her.digest_due() == thirteenth  # before dawn: the day that just ended

    her.catch_up()
    told = her.digest(thirteenth)
    _, table = pool.day_table(thirteenth)
    assert table.winners == ["ana"]
    points = next(r.points for r in table.rows if r.player == "ana")
    assert told is not None
    prompt = model.calls[-1].prompt
    assert f"ana, with {points} points on the day" in prompt
    assert "Australia 2-0 Turkey" in prompt
    assert "ana" in told.text and "bia" not in told.text


LISBON = ZoneInfo("Europe/Lisbon")


class Told(NamedTuple):
    at: datetime
    day: date
    prompt: str  # the digest's, as a model was handed it


def her_turns(her: Commentator, model: Heard, clock: FakeClock, until: datetime) -> list[Told]:
    """Her turns every half hour up to ``until`` (serve takes one every few seconds), and
    each digest due on them, told and posted."""
    told = []
    while clock.now < until:
        clock.now += timedelta(minutes=30)
        her.catch_up()
        day = her.digest_due()
        if day is not None:
            assert her.digest(day) is not None, f"the digest of {day} was not posted"
            told.append(Told(clock.now, day, model.calls[-1].prompt))
    return told


def test_her_digest_of_a_day_that_ends_after_dawn_where_she_tells_it_comes_once_it_ends(
    pool: Pool, clock: FakeClock
) -> None:
    """Told in Lisbon, 13 June 2026 ends with Australia v Turkey at 05:00 on the 14th
    there: her digest of the 13th comes once that match is over, the morning after,
    and once (her clock's own day would have told it without that match, or never)."""
    real = a_cup(pool, "worldcup-2026.json", LISBON)
    thirteenth = date(2026, 6, 13)
    days = pool.match_days()
    played = sorted(
        (m for m in pool.matches() if days[m.number] == thirteenth), key=lambda m: m.kickoff
    )
    assert played[-1].kickoff.astimezone(LISBON) == datetime(2026, 6, 14, 5, tzinfo=LISBON)
    clock.now = played[0].kickoff - timedelta(days=1)
    pool.members.add("ana")
    for match in played:
        pool.predictions.place("ana", match.number, Score.parse(real[match.number]))
    model = Heard("en")
    her = her_in(pool, model, MemoryConfig(language="en", zone=LISBON))
    told: list[Told] = []
    clock.now = datetime(2026, 6, 13, 12, tzinfo=LISBON)
    for match in played:
        told += her_turns(her, model, clock, until=match.kickoff)
        play(pool, clock, match.number, real[match.number])
    told += her_turns(her, model, clock, until=datetime(2026, 6, 14, 23, 30, tzinfo=LISBON))
    assert [t.day for t in told] == [thirteenth]
    assert told[0].at >= played[-1].kickoff + timedelta(minutes=115)  # its whistle
    assert "Australia 2-0 Turkey" in told[0].prompt and "ana, with" in told[0].prompt


@pytest.mark.parametrize("hour", [22, 3])
def test_every_day_is_told_once_in_order_at_any_digest_hour(
    pool: Pool, clock: FakeClock, hour: int
) -> None:
    """Told in Lisbon: 11 July ends with a match at 02:00 on the 12th there, the 12th
    has none, the 13th one, the 14th none. Each day is told once, in order, whatever the
    digest hour: the rest day after the late one is a digest of its own (its remark tied
    to the same last whistle), and no rest day is told while the day before still plays."""
    evening, late = datetime(2026, 7, 11, 20, tzinfo=UTC), datetime(2026, 7, 12, 1, tzinfo=UTC)
    pool.fixtures.import_tournament(
        Tournament(
            "Late Cup",
            (
                fixture("a", "Brazil", "Serbia", evening),
                fixture("b", "France", "Spain", late, local_date="2026-07-11"),
                fixture("c", "Japan", "Mexico", datetime(2026, 7, 13, 19, tzinfo=UTC)),
            ),
        )
    )
    clock.now = datetime(2026, 7, 10, 12, tzinfo=UTC)
    pool.members.add("ana")
    for match in pool.matches():
        pool.predictions.place("ana", match.number, Score(1, 0))
    model = Heard("en")
    her = her_in(pool, model, MemoryConfig(language="en", zone=LISBON), Policy(digest_hour=hour))
    told: list[Told] = []
    for match in sorted(pool.matches(), key=lambda m: m.kickoff):
        told += her_turns(her, model, clock, until=match.kickoff)
        play(pool, clock, match.number, "1-0")
    told += her_turns(her, model, clock, until=datetime(2026, 7, 14, 23, 30, tzinfo=LISBON))
    assert [t.day for t in told] == [date(2026, 7, day) for day in (10, 11, 12, 13, 14)]
