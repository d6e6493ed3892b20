"""How the pool picked (issue 39): a match's home / draw / away split and its most picked
scores, counted from the sample pool's real sheet (game/sample/bets.csv), hidden until
kick-off, shown by ``match N`` over SSH and on the scoreboard, and told by her only when
true."""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.agent.providers.offline import OfflineModel
from frontends.scoreboard.live import Scoreboard
from frontends.ssh.frontend import ServerConfig
from frontends.web import start_web, web_app
from game.bets_csv import parse_bets
from game.events import RemarkPosted
from game.model import Goal, Prediction, Result, Score
from game.openfootball import Tournament, parse_tournament
from game.pool import Pool
from game.shares import shares, shares_of, whole_percentages
from memory.contract import Contract
from prompts import persona
from tests.browser import chromium, needs_chromium
from tests.conftest import FakeClock, ScriptedModel, her_in
from tests.ssh_pool import served_pool

SAMPLE = Path(__file__).resolve().parent.parent / "game" / "sample"
SHEET = (SAMPLE / "bets.csv").read_text("utf-8")


def sample_cup() -> Tournament:
    """The sample pool's cup, every match still to play (the file holds its results)."""
    cup = parse_tournament(json.loads((SAMPLE / "tournament.json").read_text("utf-8")))
    return replace(cup, fixtures=tuple(replace(f, result=None, goals=()) for f in cup.fixtures))


def sheet_picks(team1: str, team2: str) -> list[Prediction]:
    """The sheet's picks on one fixture, as the pool keeps them (all on match 1 here)."""
    return [
        Prediction(row.player.lower(), 1, row.score)
        for row in parse_bets(SHEET)
        if (row.team1, row.team2) == (team1, team2)
    ]


def sheet_in(pool: Pool) -> int:
    """The sample sheet imported into ``pool`` (which holds the sample cup): Morocco v
    Norway's number."""
    for name in ("ana", "bruno", "carla", "diego", "elis"):
        pool.members.add(name)
    assert not pool.predictions.import_bets(parse_bets(SHEET)).refused
    return next(m.number for m in pool.matches() if (m.team1, m.team2) == ("Morocco", "Norway"))


def test_the_sample_sheet_split_on_morocco_v_norway() -> None:
    """Ana 3-0, Bruno 2-1, Carla 1-0, Diego 1-1, Elis 1-1."""
    told = shares(sheet_picks("Morocco", "Norway"))
    assert (told.picks, told.home, told.draw, told.away) == (5, 3, 2, 0)
    assert told.percentages == (60, 40, 0)
    # 1-1 twice; then the ones, fewer goals first (1-0), then the home side's larger (3-0).
    assert told.common == ((Score(1, 1), 2), (Score(1, 0), 1), (Score(3, 0), 1))


def test_equal_counts_are_listed_in_score_order() -> None:
    """Argentina v Portugal: Ana 1-0, Bruno 2-1, Carla 1-0, Diego 1-1, Elis 1-5."""
    told = shares(sheet_picks("Argentina", "Portugal"))
    assert (told.home, told.draw, told.away) == (3, 1, 1)
    assert told.common == ((Score(1, 0), 2), (Score(1, 1), 1), (Score(2, 1), 1))
    assert told.percentages == (60, 20, 20)


def test_percentages_add_up_to_a_hundred_and_equal_counts_show_equal_shares() -> None:
    assert whole_percentages((5, 2, 2)) == [56, 22, 22]
    assert whole_percentages((2, 5, 2)) == [22, 56, 22]
    # "Brazil 3 (43%), draw 2 (29%), Japan 2 (28%)": one of two equal counts got the point;
    # rounding 3 down and both 2s up keeps them equal and the sum at 100
    assert whole_percentages((3, 2, 2)) == [42, 29, 29]
    assert whole_percentages((10, 3, 3)) == [62, 19, 19]
    # three equal thirds cannot sum to 100 and stay equal: equal wins
    assert whole_percentages((1, 1, 1)) == [33, 33, 33]
    assert whole_percentages((1, 1, 0)) == [50, 50, 0]
    assert whole_percentages((1, 2, 3)) == [17, 33, 50]
    assert whole_percentages((0, 0, 0)) == [0, 0, 0]
    assert shares([]).percentages == (0, 0, 0)


def test_nothing_is_counted_before_kick_off(pool: Pool, clock: FakeClock) -> None:
    pool.fixtures.import_tournament(sample_cup())
    number = sheet_in(pool)
    match = pool.match(number)
    picks = pool.predictions_on(number)
    clock.now = match.kickoff - timedelta(seconds=1)
    assert shares_of(match, picks, clock()) is None
    clock.now = match.kickoff
    told = shares_of(match, picks, clock())
    assert told is not None and (told.home, told.draw, told.away) == (3, 2, 0)
    # Only this match's picks count, whatever the caller hands in.
    assert shares_of(match, pool.predictions_of("ana"), clock()) == shares(
        [p for p in pool.predictions_of("ana") if p.match_number == number]
    )


# The sheet's five picks and fabio's 0-1: 3 / 2 / 1 of 6 is 50 / 33 / 17 (the largest
# remainder gets the point rounding lost); 1-0 and 0-1 once each, the home side's first.
SPLIT = {
    "en": (
        "how the pool picked: Morocco 3 (50%), draw 2 (33%), Norway 1 (17%)",
        "most picked: 1-1 \u00d72, 1-0 \u00d71, 0-1 \u00d71",
    ),
    "pt": (
        "como o bolão apostou: Morocco 3 (50%), empate 2 (33%), Norway 1 (17%)",
        "placares mais apostados: 1-1 \u00d72, 1-0 \u00d71, 0-1 \u00d71",
    ),
}


@pytest.mark.parametrize("language", ["en", "pt"])
def test_match_over_ssh_shows_the_split_once_it_kicks_off(tmp_path: Path, language: str) -> None:
    async def scenario() -> None:
        config = ServerConfig(port=0, language=language)
        async with served_pool(tmp_path, config, tournament=sample_cup()) as served:
            number = sheet_in(served.pool)
            served.player("fabio")
            served.pool.predictions.place("fabio", number, Score(0, 1))
            kickoff = served.pool.match(number).kickoff
            served.clock.now = kickoff - timedelta(minutes=1)
            before = await served.run("fabio", f"match {number}")
            assert before.exit_status == 0, before.stderr
            assert "Morocco 3" not in str(before.stdout) and "1-1" not in str(before.stdout)
            served.clock.now = kickoff  # by the server's clock: no admin has to start it
            after = await served.run("fabio", f"match {number}")
            assert after.exit_status == 0, after.stderr
            assert list(SPLIT[language]) == str(after.stdout).splitlines()[-2:]

    asyncio.run(scenario())


def test_the_scoreboard_shows_how_the_pool_picked_the_match_in_play(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path, tournament=sample_cup()) as served:
            number = sheet_in(served.pool)
            words = served.frontend.words
            scoreboard = Scoreboard(served.pool, served.frontend.hub, words, "BETanIA")
            await scoreboard.start()
            server = await start_web(web_app(scoreboard=scoreboard), "127.0.0.1", 0)
            url = f"http://127.0.0.1:{server.port}/"
            try:
                async with httpx.AsyncClient() as client:
                    page = (await client.get(url)).text
                assert "how the pool picked" not in page  # nothing in play, nothing counted
                match = served.pool.match(number)
                served.clock.now = match.kickoff
                served.pool.fixtures.kick_off(number)
                await scoreboard.refresh()
                async with httpx.AsyncClient() as client:
                    page = (await client.get(url)).text
                in_play = page.split('id="in-play"')[1].split("</section>")[0]
                assert "how the pool picked: Morocco 3 (60%), draw 2 (40%), Norway 0 (0%)" in (
                    in_play
                )
                assert "most picked: 1-1 \u00d72, 1-0 \u00d71, 3-0 \u00d71" in in_play
                # Matches to come show no count of their picks.
                assert page.count("how the pool picked") == 1
            finally:
                await server.close()
                await scoreboard.close()

    asyncio.run(scenario())


@needs_chromium
def test_a_real_browser_shows_the_split_and_follows_a_goal(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served_pool(tmp_path, tournament=sample_cup()) as served:
            number = sheet_in(served.pool)
            served.frontend.hub.poll_interval = 0.05
            scoreboard = Scoreboard(
                served.pool, served.frontend.hub, served.frontend.words, "BETanIA"
            )
            await scoreboard.start()
            server = await start_web(web_app(scoreboard=scoreboard), "127.0.0.1", 0)
            try:
                async with chromium() as browser:
                    match = served.pool.match(number)
                    served.clock.now = match.kickoff
                    served.pool.fixtures.kick_off(number)
                    await scoreboard.refresh()
                    page = await browser.open(f"http://127.0.0.1:{server.port}/")
                    shown = await page.text("#in-play")
                    assert "Morocco 3 (60%), draw 2 (40%), Norway 0 (0%)" in shown
                    assert "1-1 \u00d72, 1-0 \u00d71, 3-0 \u00d71" in shown
                    # A goal redraws the board; the split stays beside the new score.
                    served.pool.fixtures.record_goal(number, Goal("home", 38, 0, "Hakimi"))
                    await page.wait_for_text("Morocco 1-0 Norway", timeout=5.0, selector="#in-play")
                    assert "draw 2 (40%)" in await page.text("#in-play")
            finally:
                await server.close()
                await scoreboard.close()

    asyncio.run(scenario())


def kicked_off_with_her(pool: Pool, clock: FakeClock, model: ScriptedModel) -> int:
    """The sample pool, her 0-1 on Morocco v Norway against all five (3 home, 2 draws),
    kicked off and told: Morocco v Norway's number."""
    pool.fixtures.import_tournament(sample_cup())
    number = sheet_in(pool)
    commentator = her_in(pool, model)
    pool.predictions.place("betania", number, Score(0, 1))
    clock.now = pool.match(number).kickoff
    pool.fixtures.kick_off(number)
    commentator.catch_up()
    return number


def test_her_kick_off_is_told_how_the_others_picked(pool: Pool, clock: FakeClock) -> None:
    model = ScriptedModel()
    kicked_off_with_her(pool, clock, model)
    (prompt,) = [c.prompt for c in model.calls if c.task == "remark"]
    told = " ".join(prompt.split())
    assert (
        "How the others picked it: 3 of 5 a Morocco win, 2 a draw, 0 a Norway win;"
        " most picked scores: 1-1 (2), 1-0 (1), 3-0 (1)"
    ) in told  # without her own 0-1


def test_her_final_whistle_is_told_how_the_others_picked(pool: Pool, clock: FakeClock) -> None:
    model = ScriptedModel()
    number = kicked_off_with_her(pool, clock, model)
    clock.now = pool.match(number).kickoff + timedelta(minutes=115)
    pool.fixtures.record_result(number, Result(Score(5, 0)))  # as the sample cup ended
    her_in(pool, model).catch_up()
    prompts = [" ".join(c.prompt.split()) for c in model.calls if c.task == "remark"]
    assert len(prompts) == 2  # the kick-off's and the whistle's
    assert "How the others picked it: 3 of 5 a Morocco win, 2 a draw, 0 a Norway win" in prompts[1]


TRUE_AND_FALSE = {
    "en": (
        "Only 2 of 5 saw a draw, and I went 0-1. Let's see who laughs last.",
        "Only 1 of 5 saw a draw, and I went 0-1. Let's see who laughs last.",
    ),
    "pt": (
        "Só 2 de 5 apostaram no empate, e eu fui de 0-1. Vamos ver quem ri por último.",
        "Só 1 de 5 apostaram no empate, e eu fui de 0-1. Vamos ver quem ri por último.",
    ),
}


@pytest.mark.parametrize("language", ["en", "pt"])
def test_her_line_on_the_split_passes_when_true_and_is_refused_when_false(
    pool: Pool, clock: FakeClock, language: str
) -> None:
    model = ScriptedModel()
    number = kicked_off_with_her(pool, clock, model)
    (prompt,) = [c.prompt for c in model.calls if c.task == "remark"]
    contract = Contract(pool, language, ("betania", "BETanIA"))
    grounds = contract.grounds(persona("BETanIA", language), prompt)
    true, false = TRUE_AND_FALSE[language]
    assert contract.check(true, "remark", grounds, number) is None
    breach = contract.check(false, "remark", grounds, number)
    assert breach is not None and breach.rule == "share", breach
    assert "2 of 5 picked it" in breach.detail
    # Counted with her 0-1 the pool is six: "2 of 6" is as true, "2 of 6 backed Norway" not.
    assert contract.check(true.replace("5", "6"), "remark", grounds, number) is None
    other_side = "2 of 6 backed Norway." if language == "en" else "2 de 6 apostaram na Noruega."
    assert contract.check(f"{true} {other_side}", "remark", grounds, number) is not None


@pytest.mark.parametrize("true", [True, False])
def test_only_her_true_line_on_the_split_reaches_the_pool(
    pool: Pool, clock: FakeClock, true: bool
) -> None:
    line = TRUE_AND_FALSE["en"][0 if true else 1]
    kicked_off_with_her(pool, clock, ScriptedModel(remark=lambda call: line))
    posted = [r.event.text for r in pool.events_of(RemarkPosted)]
    assert (line in posted) is true


def test_before_kick_off_she_may_not_tell_the_split(pool: Pool, clock: FakeClock) -> None:
    pool.fixtures.import_tournament(sample_cup())
    number = sheet_in(pool)
    clock.now = pool.match(number).kickoff - timedelta(hours=1)
    contract = Contract(pool, "en", ("betania", "BETanIA"))
    grounds = contract.grounds(persona("BETanIA"), "5 players, 2 and 3")
    breach = contract.check("Only 2 of 5 saw a draw.", "remark", grounds, number)
    assert breach is not None and breach.rule == "share" and "hidden" in breach.detail


@pytest.mark.parametrize("language", ["en", "pt"])
def test_her_offline_kick_off_line_tells_the_split_truly(
    pool: Pool, clock: FakeClock, language: str
) -> None:
    """Every [kickoff] line of her offline voice, filled for this kick-off, keeps the contract;
    the line that tells the split says the sheet's numbers."""
    model = ScriptedModel()
    number = kicked_off_with_her(pool, clock, model)
    (call,) = [c for c in model.calls if c.task == "remark"]
    offline = OfflineModel(language=language)
    # Each try is phrased by a seeded choice: forty tries read every line of the section.
    told = {offline.complete(replace(call, variant=(0, attempt))) for attempt in range(40)}
    assert len(told) == len(offline.voice["kickoff"])
    split = "2 of the 5 of you saw a draw" if language == "en" else "2 dos 5 apostaram no empate"
    assert [line for line in told if split in line], told
    contract = Contract(pool, language, ("betania", "BETanIA"))
    grounds = contract.grounds(persona("BETanIA", language), call.prompt)
    for line in told:
        assert contract.check(line, "remark", grounds, number) is None, line


@given(st.lists(st.integers(0, 40), min_size=3, max_size=3))
def test_shares_of_any_counts_are_fair_and_near_a_hundred(counts: list[int]) -> None:
    shown = whole_percentages(counts)
    if sum(counts) == 0:
        assert shown == [0, 0, 0]
        return
    assert 100 - len(counts) < sum(shown) <= 100
    if len(set(counts)) == len(counts):  # no tie to keep equal: nothing stops 100
        assert sum(shown) == 100
    for one, other in itertools.combinations(range(3), 2):
        if counts[one] == counts[other]:
            assert shown[one] == shown[other]
        elif counts[one] > counts[other]:
            assert shown[one] >= shown[other]
    exact = [count * 100 / sum(counts) for count in counts]
    assert all(abs(s - e) < 1 for s, e in zip(shown, exact, strict=True))
