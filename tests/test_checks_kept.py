"""What her checks keep from one text to the next, from one moment to the next, gives
what building it all again gives: the patterns, the records, the masked remarks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from game.events import LoggedEvent, RemarkPosted
from game.model import Score
from game.pool import Pool
from game.teams import TeamBook
from memory.claims import (
    BEAT,
    CHAMPION,
    DREW,
    LOST,
    MEETS,
    WINS,
    Claims,
    _literals,
    _result,
    _spelled_in,
    _told,
)
from memory.guard import RepetitionGuard, masked, similar, similarity
from tests.conftest import FakeClock, play

TEXTS = (
    "Brazil beat Serbia 2-0, and brazil v serbia was never close.",
    "Korea Republic beat Korea DPR; South Korea won, and Korea drew with Japan.",
    "Bosnia and Herzegovina drew with Bosnia. Spain's win! A victory for Mexico.",
    "ArgentinaArgentina beat Spain, Argentina lost to France, France are champions.",
    "O Brasil venceu a Sérvia, o México ganhou da Coreia do Sul, vitória do Japão.",
    "Nobody named a team here, not one, whatever the score: 1-0.",
    "",
)
NOW = datetime(2026, 6, 20, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize("text", TEXTS)
def test_a_result_in_words_is_found_where_a_scan_of_every_place_finds_it(text: str) -> None:
    """Compiled with the spellings the text holds alone, tried only where one starts, and
    not at all in a text without its part that names no team, each pattern finds what a
    pattern of every spelling finds, scanning every place of the text: the same spans,
    the same teams."""
    teams = frozenset(team for _, team in TeamBook.standard().written)
    every = tuple(spelling for spelling, _, _ in _literals(teams))
    held, starts = _spelled_in(text, teams)
    for template in (MEETS, BEAT, LOST, DREW, CHAMPION, *WINS):
        scanned = [
            (f.span(), f.groupdict()) for f in _result(template, every).pattern.finditer(text)
        ]
        found = [(f.span(), f.groupdict()) for f in _told(template, text, held, starts)]
        assert found == scanned, template


@pytest.mark.parametrize(
    "text",
    (
        *TEXTS,
        "İRAN beat Japan, and iran drew with JAPAN",  # a dotted capital I folds to "i"
        "Ru\u017fsia beat Spain",  # the long s folds to "s" in a pattern, not in ``lower``
        "\u212aOREA REPUBLIC beat Japan",  # the Kelvin sign folds to "k"
        "CÔTE D'IVOIRE drew with côte d'ivoire; ESPAÑA beat Türkiye",
        "Côte d\u2019Ivoire beat Japan \u2014 what a game \u26bd",  # marks past Latin-1, no letter
        "Bra\u0345il beat Serbia",  # a combining mark a pattern takes for the Greek iota
    ),
)
def test_the_spellings_a_text_holds_are_those_a_scan_of_every_spelling_finds(text: str) -> None:
    """A substring test passes over the spellings a Latin-1 text does not hold: what is
    left, and where they start, is what scanning for every spelling finds."""
    teams = frozenset(team for _, team in TeamBook.standard().written)
    scanned = {s: [f.start() for f in p.finditer(text)] for s, _, p in _literals(teams)}
    held, starts = _spelled_in(text, teams)
    assert held == tuple(s for s, at in scanned.items() if at)
    assert starts == sorted({at for found in scanned.values() for at in found})


def test_records_kept_from_moment_to_moment_are_the_records_read_afresh(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """A pick placed re-scores its player alone and a match's split is counted again only
    when its picks change: at every moment, what the kept parts give is what a check
    that kept nothing reads."""
    pool = tournament_pool
    kept = Claims(pool, "ana")

    def same() -> None:
        assert kept.records() == Claims(pool, "ana").records()

    pool.predictions.place("ana", 1, Score(2, 0))
    pool.predictions.place("bia", 1, Score(1, 0))
    same()
    play(pool, clock, 1, "2-0")
    same()
    pool.predictions.place("caio", 2, Score(1, 1))  # another's pick, a match to play
    same()
    pool.predictions.place("caio", 2, Score(0, 3))  # changed before the kick-off
    pool.predictions.place("bia", 2, Score(0, 3))
    same()
    kickoff = pool.match(2).kickoff
    clock.now = kickoff + timedelta(minutes=1)  # the split told from now on
    same()
    clock.now = kickoff - timedelta(minutes=1)  # a clock set back: a pick may come in still
    pool.predictions.place("ana", 2, Score(2, 2))
    clock.now = kickoff + timedelta(minutes=1)
    same()
    play(pool, clock, 2, "0-3")
    same()
    records = kept.records()
    assert records.picks[2] == {"ana": (0, False), "bia": (10, True), "caio": (10, True)}
    assert records.shares[2][0].picks == 3 and records.shares[2][1].picks == 2  # hers apart


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Exact score on Brazil 2-1 Serbia: take a bow, ana.", "Exact score on Spain 1-0 Japan!"),
        ("ana, zero points again; the ball is round.", "Exact score on Brazil 2-1: ana."),
        ("Nothing on Spain 3-0 Austria for nina", "Nothing on Belgium 2-2 Senegal for nina"),
        ("short", "a much longer line that shares almost nothing with it at all"),
        ("", ""),
    ],
)
def test_the_guards_quick_test_agrees_with_the_ratio(a: str, b: str) -> None:
    masks = ["ana", "nina", "Brazil", "Serbia", "Spain", "Japan", "Austria", "Belgium"]
    for threshold in (0.0, 0.3, 0.5, 0.75, 0.9, 1.0):
        assert similar(a, b, threshold, masks) is (similarity(a, b, masks) >= threshold)


def test_a_masked_remark_follows_its_masks() -> None:
    """Kept per text and masks: new names mask what they name, and the order of the
    masks never changes what a longer name hides."""
    line = "Nothing on Bosnia and Herzegovina for nina"
    assert masked(line, ["nina"]) == "nothing on bosnia and herzegovina for §"
    assert masked(line, ["nina", "Bosnia", "Bosnia and Herzegovina"]) == "nothing on § for §"
    assert masked(line, ["Bosnia", "nina", "Bosnia and Herzegovina"]) == "nothing on § for §"


def test_the_guard_refuses_a_repeat_and_passes_a_new_line() -> None:
    """Through the quick test: the same wording with other names is a repeat, another not."""
    said = [
        LoggedEvent(
            1, NOW, RemarkPosted("betania", "Nothing on Spain 3-0 Austria for nina", ("nina",))
        )
    ]
    masks = ["nina", "Spain", "Austria", "Belgium", "Senegal"]
    guard = RepetitionGuard()
    again = "Nothing on Belgium 2-2 Senegal for nina"
    assert guard.repeats(again, ["nina"], said, NOW, masks) is said[0]
    assert guard.repeats("nina, a fine call on a wild night", ["nina"], said, NOW, masks) is None


@pytest.mark.parametrize(
    ("written", "plain"),
    (
        ("BRAZ\u0130L beat Serbia!", "Brazil beat Serbia!"),  # the dotted I lowers to two letters
        ("Mexico lo\u017ft to Argentina", "Mexico lost to Argentina"),  # the long s
    ),
)
def test_a_result_whose_team_a_pattern_folds_otherwise_than_lower_is_checked_as_written_plain(
    tournament_pool: Pool, written: str, plain: str
) -> None:
    claims = Claims(tournament_pool)
    assert claims.check(written) == claims.check(plain) is not None
