"""Which pool match a feed's match is: by the feed's own id once known, else by teams
and kick-off through the team book; never by guess.

Plain functions over what the pool already read, so they are tested without a
database. A match that fits nothing, or more than one, comes back as a sentence
for the admins, and nothing is applied to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from game.model import FeedResult
from game.teams import TeamBook, is_placeholder

# Two named teams meet once a day at most: a kick-off the file and the feed
# disagree on by a few hours (a time zone written wrong) is still the same match.
SAME_TEAMS_WINDOW = timedelta(hours=12)


@dataclass(frozen=True)
class Candidate:
    number: int
    team1: str
    team2: str
    kickoff: datetime

    @property
    def undecided(self) -> bool:
        """Knock-out teams the fixtures do not know yet ("1A", "W74")."""
        return is_placeholder(self.team1) and is_placeholder(self.team2)


@dataclass(frozen=True)
class Found:
    number: int
    swapped: bool = False  # the feed lists the teams the other way round


def teams_fit(match: Candidate, seen: FeedResult, book: TeamBook) -> Found | None:
    if book.same(match.team1, seen.team1, seen.code1) and book.same(
        match.team2, seen.team2, seen.code2
    ):
        return Found(match.number)
    if book.same(match.team1, seen.team2, seen.code2) and book.same(
        match.team2, seen.team1, seen.code1
    ):
        return Found(match.number, swapped=True)
    return None


def moved(
    seen: FeedResult, in_round: list[Candidate], book: TeamBook | None = None
) -> Found | None:
    """A league match the feed shows at another time (postponed, rearranged): in a
    league's round each club is at home once, so the round and the teams, home and
    away as listed, name one match; None when they do not."""
    book = book or TeamBook.standard()
    fits = [m for m in in_round if (fit := teams_fit(m, seen, book)) and not fit.swapped]
    return Found(fits[0].number) if len(fits) == 1 else None


def find(
    seen: FeedResult,
    linked: Candidate | None,
    nearby: list[Candidate],
    book: TeamBook | None = None,
) -> Found | str:
    """The pool match for ``seen``, or why there is none.

    ``linked`` is the match the feed's id was linked to before, if any;
    ``nearby`` the matches within ``SAME_TEAMS_WINDOW`` of its kick-off.
    """
    book = book or TeamBook.standard()
    if linked is not None:
        if linked.undecided:
            return Found(linked.number)
        fit = teams_fit(linked, seen, book)
        if fit is None:
            return (
                f"{seen.label}: its teams changed (#{linked.number} is "
                f"{linked.team1} v {linked.team2} in the pool); not applied"
            )
        return fit
    fits = [fit for match in nearby if (fit := teams_fit(match, seen, book)) is not None]
    if len(fits) == 1:
        return fits[0]
    if len(fits) > 1:
        numbers = ", ".join(f"#{fit.number}" for fit in fits)
        return f"{seen.label}: fits several matches ({numbers}); not applied"
    open_slots = [m for m in nearby if m.kickoff == seen.kickoff and m.undecided]
    if len(open_slots) == 1:
        return Found(open_slots[0].number)
    if len(open_slots) > 1:
        numbers = ", ".join(f"#{m.number}" for m in open_slots)
        return f"{seen.label}: several undecided matches at that kick-off ({numbers}); not applied"
    unknown = [
        name
        for name, code in ((seen.team1, seen.code1), (seen.team2, seen.code2))
        if book.name_of(name, code) is None
    ]
    hint = f" (teams not in the team book: {', '.join(unknown)})" if unknown else ""
    return f"{seen.label}: no match in the pool{hint}; not applied"
