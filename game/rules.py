"""The pool's rules that are not about points: who may predict what, and when."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from game.errors import UserError
from game.model import Match, MatchStatus
from game.text import unaccented

# fullmatch: "$" alone would let a trailing newline through ("ana\n", a second ana).
HANDLE_PATTERN = re.compile(r"[a-z][a-z0-9_.-]{0,31}")


class RuleViolation(UserError, ValueError):
    """An action the rules refuse; the message is meant for the player."""


class PredictionLocked(RuleViolation):
    pass


def check_handle(handle: str) -> str:
    """Handles are SSH user names: short, lowercase, no spaces. A refusal suggests the
    nearest handle that would do ("josé" -> "jose", "Ana Paula" -> "ana-paula")."""
    if not HANDLE_PATTERN.fullmatch(handle):
        suggested = _handle_like(handle)
        if HANDLE_PATTERN.fullmatch(suggested) and suggested not in (handle, "p"):
            raise RuleViolation(
                "bad handle {handle!r}: use 1-32 lowercase letters, digits, '.', '_' or '-', starting with a letter; {suggested!r} would do",
                handle=handle, suggested=suggested,
            )  # fmt: skip
        raise RuleViolation(
            "bad handle {handle!r}: use 1-32 lowercase letters, digits, '.', '_' or '-', starting with a letter",
            handle=handle,
        )
    return handle


def check_can_predict(match: Match, now: datetime) -> None:
    """Predictions close at kick-off by the server's clock, whatever the client thinks."""
    if match.status is MatchStatus.FINISHED:
        raise PredictionLocked("{match} is over; predictions are closed", match=match.label)
    if match.has_started(now):
        raise PredictionLocked("{match} has kicked off; predictions are closed", match=match.label)


def check_made_in_time(match: Match, placed_at: datetime | None, now: datetime) -> None:
    """A pick brought in after the fact (an admin's spreadsheet) meets the same lock.

    It is judged at the time it says it was made; saying none, it is being made
    now, by the server's clock. Before its kick-off a match was still scheduled,
    whatever it has become since.
    """
    if placed_at is None:
        check_can_predict(match, now)
    else:
        check_can_predict(replace(match, status=MatchStatus.SCHEDULED), placed_at)


def handle_from_name(name: str) -> str:
    """A handle for someone known only by name, as in a spreadsheet: "Ana Paula" -> "ana-paula"."""
    return check_handle(_handle_like(name))


def _handle_like(name: str) -> str:
    """``name`` made into the shape of a handle, unchecked."""
    ascii_name = unaccented(name).encode("ascii", "ignore").decode()
    handle = re.sub(r"[^a-z0-9_.-]+", "-", ascii_name.lower()).strip("-.")
    if not handle or not handle[0].isalpha():
        handle = f"p-{handle}".rstrip("-")
    return handle[:32].rstrip("-.")
