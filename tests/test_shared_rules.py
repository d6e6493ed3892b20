"""The rules every reader shares, each defined once: the running score, a knock-out
slot, the teams a line names. Readers call these; nobody recounts or re-matches."""

from dataclasses import replace
from datetime import UTC, datetime

from game.events import GoalScored
from game.model import Goal, Match, MatchStatus, Score, tally
from game.teams import TeamBook, is_placeholder
from game.text import unaccented

KICKOFF = datetime(2026, 6, 11, 19, tzinfo=UTC)


def test_the_running_score_counts_the_goals_up_to_a_moment() -> None:
    goals = (Goal("home", 10), Goal("away", 45, added=2), Goal("home", 90, added=4))
    match = Match(
        1, "Group A", KICKOFF, "Mexico", "South Africa", "A", None, MatchStatus.LIVE, None, goals
    )
    assert match.score_at() == Score(2, 1)
    assert match.score_at((45, 2)) == Score(1, 1)  # a goal's own moment counts it
    assert match.score_at((45, 1)) == Score(1, 0)  # stoppage time comes after minute 45
    # The log's goals count the same way as the pool's.
    assert tally([GoalScored(1, "away", 3), GoalScored(1, "away", 7)]) == Score(0, 2)


def test_a_knock_out_slot_is_told_from_a_team() -> None:
    for slot in ("1A", "2L", "3C", "3A/B/C/D/F", "W74", "l101", "TBD", " "):
        assert is_placeholder(slot), slot
    for team in ("Brazil", "USA", "W", "1M", "Wales"):
        assert not is_placeholder(team), team


def test_a_line_names_teams_by_any_spelling_of_the_book() -> None:
    book = TeamBook.standard()
    assert book.named_in("a Seleção vai ganhar dos EUA") == {"Brazil", "USA"}
    assert book.named_in("a Selecao vai ganhar") == {"Brazil"}  # accents or none
    # Only the pool's teams, as the pool names them; a word inside another is no team.
    assert book.named_in("Brasil x Alemanha", {"Brazil"}) == {"Brazil"}
    assert book.named_in("Brazilians everywhere", {"Brazil"}) == set()
    # Everyday Portuguese is no team's name: "irá" is not Iran, "catar" not Qatar.
    chat = "O Brasil irá vencer, eles irão ver: vai catar coquinho com muita gana"
    assert book.named_in(chat) == {"Brazil"}


def test_a_line_read_word_by_word_finds_what_the_pattern_finds() -> None:
    """``named_in`` reads an ASCII line word by word: the same teams as its pattern."""
    book = TeamBook.standard()
    lines = [
        "South Korea v Korea Republic, then North Korea",  # a longer spelling first
        "SOUTH KOREA!!! south korea? Costa Rica-Ivory Coast",
        "Bosnia and Herzegovina 2-1 Bosnia; USA/EUA/U.S.A.",
        "the usa_team, usA, USAs, 1USA, Brazil's day",  # inside a word, no team
        "Côte d'Ivoire e a Seleção",  # not ASCII before accents go: read as ASCII after
        "Curaçao, Türkiye, Turkey",
        "Northern Ireland, Equatorial Guinea, DR Congo, Guinea-Bissau",  # no Ireland inside
        "",
    ]
    for teams in (None, ["Brazil", "South Korea", "USA"], ["Bosnia & Herzegovina"]):
        book.named_in("", teams)  # its pattern built
        pattern, names, _ = book._finders[None if teams is None else frozenset(teams)]
        assert pattern is not None
        for line in lines:
            found = {names[f.lower()] for f in pattern.findall(unaccented(line))}
            assert book.named_in(line, teams) == found, (line, teams)
    assert book.named_in(lines[0]) == {"South Korea"}  # "Korea Republic" is its too
    # A book where one spelling holds another: the longest is read, and what it covers.
    made = TeamBook(
        {},
        {},
        (("Korea", "K"), ("Korea Republic", "KR"), ("Guinea", "G"), ("Equatorial Guinea", "EG")),
    )
    line = "Korea Republic v Equatorial Guinea, then Korea v Guinea"
    assert made.named_in("Korea Republic and Equatorial Guinea") == {"KR", "EG"}
    assert made.named_in(line) == {"KR", "EG", "K", "G"}
    pattern, names, _ = made._finders[None]
    assert pattern is not None
    found = {names[f.lower()] for f in pattern.findall("Korea Republic and Equatorial Guinea")}
    assert found == {"KR", "EG"}


def test_a_club_is_one_team_in_its_league_its_cup_and_a_feed() -> None:
    book = TeamBook.standard()
    # openfootball's league, its cup (with the country) and football-data's short name.
    assert book.same("SE Palmeiras", "SE Palmeiras (BRA)")
    assert book.same("SE Palmeiras (BRA)", "Palmeiras")
    assert book.same("Manchester City FC", "Man City")
    # A club's three letters are no code the book reads (CHE is Switzerland's FIFA code).
    assert book.name_of("Chelsea", "CHE") == "Chelsea FC"
    assert book.name_of("Chelsea Harbour", "CHE") is None
    cup = ["SE Palmeiras (BRA)", "CR Flamengo (BRA)"]
    assert book.named_in("o Verdão e o Mengão na final", cup) == set(cup)
    assert (
        book.named_in("I had the flu, boca aberta", ["Fluminense FC", "CA Boca Juniors"]) == set()
    )


def test_a_champion_is_a_cup_s_last_winner_or_the_top_of_a_league() -> None:
    from zoneinfo import ZoneInfo

    from game.league import champions
    from game.openfootball import parse_tournament, played
    from game.sources import read_json
    from tests.conftest import TEST_DATA

    def season(name: str) -> list[Match]:
        return played(parse_tournament(read_json(str(TEST_DATA / name)), ZoneInfo("UTC")))

    brasileirao = season("br.1-2025.json")
    # A league is won at the top of its table, not by whoever won its last match.
    assert champions(brasileirao) == ("CR Flamengo", "SE Palmeiras")
    assert champions([*brasileirao[:-1], replace(brasileirao[-1], result=None)]) is None
    libertadores = season("copa.l-2025.json")
    assert champions(libertadores) == ("CR Flamengo (BRA)", "SE Palmeiras (BRA)")
