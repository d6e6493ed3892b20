from datetime import UTC, datetime, timedelta

import pytest

from game.events import LoggedEvent, RemarkPosted
from memory.guard import RepetitionGuard, named_in, similarity

NOW = datetime(2026, 6, 20, 18, 0, tzinfo=UTC)


def remark(text: str, about: tuple[str, ...], days_ago: float) -> LoggedEvent:
    return LoggedEvent(1, NOW - timedelta(days=days_ago), RemarkPosted("betania", text, about))


@pytest.mark.parametrize(
    ("a", "b", "repeat"),
    [
        (
            "Exact score on Brazil 2-1 Serbia: take a bow, ana.",
            "Exact score on Brazil 2-1 Serbia: take a bow, ana!",
            True,
        ),
        (
            "Exact score on Brazil 2-1 Serbia: take a bow, ana.",
            "Exact score on Spain 1-0 Japan: take a bow, ana.",
            True,
        ),
        (
            "Exact score on Brazil 2-1 Serbia: take a bow, ana.",
            "ana, zero points again; the ball is round, your picks less so.",
            False,
        ),
        (
            "Nobody scored on Mexico 0-0 Peru.",
            "Ten out of ten for bia on Chile 3-1 Japan. The rest of you, take notes.",
            False,
        ),
    ],
)
def test_the_similarity_threshold(a: str, b: str, repeat: bool) -> None:
    assert (similarity(a, b) >= RepetitionGuard().threshold) is repeat


def test_a_repeat_about_the_same_player_in_the_window_is_refused() -> None:
    guard = RepetitionGuard()
    said = [remark("ana, zero points again; the ball is round.", ("ana",), days_ago=1)]
    assert (
        guard.repeats("ana, zero points again; the ball is round!", ["ana"], said, NOW) is said[0]
    )


def test_the_same_line_about_someone_else_or_long_ago_is_allowed() -> None:
    guard = RepetitionGuard()
    line = "zero points again; the ball is round."
    assert guard.repeats(line, ["bia"], [remark(line, ("ana",), days_ago=1)], NOW) is None
    assert guard.repeats(line, ["ana"], [remark(line, ("ana",), days_ago=4)], NOW) is None


def test_the_same_wording_with_other_names_teams_and_numbers_is_a_repeat() -> None:
    masks = ["nina", "otavio", "marta", "Belgium", "Senegal", "Spain", "Austria"]
    earlier = remark(
        "Nothing on Belgium 2-2 (aet 3-2) Senegal for marta and otavio. I'm saying it kindly.",
        ("marta", "otavio"),
        days_ago=2.9,
    )
    again = "Nothing on Spain 3-0 Austria for nina and otavio. I'm saying it kindly."
    guard = RepetitionGuard()
    assert guard.repeats(again, ["otavio"], [earlier], NOW, masks) is earlier
    assert guard.repeats(again, ["nina"], [earlier], NOW, masks) is None  # not aimed at nina
    old = remark(earlier.event.text, ("otavio",), days_ago=3.1)  # past 72 hours: allowed
    assert guard.repeats(again, ["otavio"], [old], NOW, masks) is None


def test_masking_catches_what_long_names_hide() -> None:
    masks = ["nina", "marta", "Bosnia & Herzegovina", "Switzerland", "Ivory Coast", "Spain"]
    a = "marta, Bosnia & Herzegovina 1-4 Switzerland was not your match."
    b = "nina, Ivory Coast 0-2 Spain was not your match."
    assert similarity(a, b) < 0.75 <= similarity(a, b, masks) == 1.0


def test_who_a_remark_names_is_read_from_its_text() -> None:
    players = {"ana": "Ana", "bia": "Bia", "anabel": "Anabel", "caio": "Caio C."}
    text = "Caio C. and bia blanked; anabel did not. @ana knows why."
    assert named_in(text, players) == ["caio", "bia", "anabel"]  # "@ana" is a mention, not a tease


def test_a_stock_line_naming_a_player_comes_back_to_them_only_after_72_hours() -> None:
    guard = RepetitionGuard()
    before = "Haiti 0-1 Scotland, zero points for carla. That's 4 blanks in a row for carla."
    again = "Iraq 1-4 Norway, and nothing again. That's 5 blanks in a row for carla."
    # two days later, inside another remark: the same stock line about the same player
    said = [remark(before, ("carla",), days_ago=2)]
    assert guard.repeats(again, ["carla"], said, NOW) is said[0]
    assert guard.repeats(again, ["carla"], [remark(before, ("carla",), days_ago=4)], NOW) is None
    # the line names bia this time: ana beside it in either remark is not what it is about
    top = [remark("ana walks away with nothing. New name at the top: ana, 5 clear.", ("ana",), 2)]
    assert (
        guard.repeats("New name at the top: bia, 5 clear. ana, 0.", ["bia", "ana"], top, NOW)
        is None
    )
