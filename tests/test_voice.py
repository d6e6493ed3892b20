"""A whole World Cup in her voice, in both languages: the figures issue 9 holds her to.

The 2026 World Cup replayed offline with 15 players and docs/examples/chat-2026.jsonl
(questions in English and Portuguese, facts, remember and forget requests, lines
that try to instruct her), read back from the log by ``bot.app.voice.measure``. The
replay is conftest's ``world_cup_in_her_voice``, played once a session per language
(tests/test_own_lines.py reads the Portuguese one too).
"""

from collections.abc import Callable

import pytest

from bot.app.replay import ReplayReport
from bot.app.voice import measure, stock_use
from game.events import RemarkPosted


@pytest.mark.parametrize("language", ["en", "pt"])
def test_a_whole_world_cup_in_her_voice(
    world_cup_in_her_voice: Callable[[str], ReplayReport], language: str
) -> None:
    report = world_cup_in_her_voice(language)
    pool = report.pool
    figures = measure(report.keeper.store)
    assert figures.asked >= 60 and figures.answered == figures.asked
    assert figures.repeats == 0
    assert len(figures.tellers) >= 10 and figures.used == figures.tellers
    assert figures.refused_by_rule == {} and figures.replaced_offline == 0
    assert figures.wordings_per_100 > 30

    # "Picks are crumbling." was said 70 times, and a stock line came back the same day 86
    # times: now each stock line of her voice at most once a day, and to one player at
    # most once in 72 hours (twice in English before: "That's 4 blanks in a row for
    # carla", then "That's 5 ..." two days later).
    use = stock_use(pool.events_of(RemarkPosted), language)
    assert use.twice_a_day == 0 and use.twice_to_one == 0 and len(use.said) >= 60

    remarks = [r.event.text for r in pool.events_of(RemarkPosted)]
    wrap_up = [r.event.text for r in pool.events_of(RemarkPosted) if r.event.topic == "wrap-up"]
    winner = pool.standings()[0].player
    assert len(wrap_up) == 1 and "Spain" in wrap_up[0] and winner in wrap_up[0]
    if language == "pt":
        assert "ficou com a taça" in wrap_up[0] and "(prorrogação 1-0)" in wrap_up[0]
        english = ("(aet ", "(pens ", "Round of", "Quarter-final", "Semi-final", "Full time")
        assert not [line for line in remarks if any(word in line for word in english)]
    else:
        assert "champions" in wrap_up[0] and "(aet 1-0)" in wrap_up[0]
