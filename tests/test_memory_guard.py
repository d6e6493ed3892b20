from datetime import UTC, datetime, timedelta

import pytest

from game.events import LoggedEvent, RemarkPosted
from memory.guard import RepetitionGuard, similarity

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
