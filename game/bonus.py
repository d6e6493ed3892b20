"""Bonus picks ("palpites especiais"): the tournament's champion and its top scorer.

A player names them before the first kick-off; they are settled once the
tournament has ended, from the matches alone: the champion from the final (a
cup, after extra time and penalties) or the top of the league table, the top
scorers from the goals (own goals are nobody's; every tied scorer counts). A
scorer is compared by ``scorer_key``, so "Kylian Mbappé", "kylian mbappe" and
"Mbappe, Kylian" are one pick.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache
from itertools import combinations

from game.league import champions
from game.model import Match, MatchStatus
from game.rules import RuleViolation
from game.teams import TeamBook, is_placeholder
from game.text import key_form

CHAMPION = "champion"  # bonus_picks.kind
SCORER = "scorer"
KINDS = (CHAMPION, SCORER)
CHAMPION_POINTS_KEY = "bonus_champion_points"  # pool settings
SCORER_POINTS_KEY = "bonus_scorer_points"
DEFAULT_CHAMPION_POINTS = 20
DEFAULT_SCORER_POINTS = 10


def points(stored: Mapping[str, str]) -> tuple[int, int]:
    """What a right champion and a right top scorer are worth, from the pool's
    settings (``CHAMPION_POINTS_KEY``, ``SCORER_POINTS_KEY``) or the defaults."""
    champion = int(stored.get(CHAMPION_POINTS_KEY, DEFAULT_CHAMPION_POINTS))
    return champion, int(stored.get(SCORER_POINTS_KEY, DEFAULT_SCORER_POINTS))


CLOSEST = 3  # names offered back for a scorer the pool does not know
NAME_LONGEST = 100  # characters of a bonus pick's name: no footballer is longer, and
# everyone's table shows it after the first kick-off

# Letters NFKD does not take apart, as an English or Portuguese keyboard writes them.
_SPELT = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "\u0131": "i"}
)
_SAME_WORD = {"jr": "junior", "jnr": "junior"}  # "Neymar Jr", "Vinícius Júnior"
_WORDS = re.compile("[\\s\\-\u2010\u2011\u2013,]+")  # spaces, hyphens, dashes, commas


@lru_cache(
    maxsize=16384
)  # every squad player's, read again at each pick checked: a refusal is cheap
def scorer_key(name: str) -> str:
    """What two spellings of one scorer have in common: no accents, case or punctuation,
    "Ø" as "O", hyphens as spaces, and the words in one order (names come family name
    first as often as last: "Son Heung-min", "Heung-min Son")."""
    words = (key_form(word.casefold().translate(_SPELT)) for word in _WORDS.split(name))
    return " ".join(sorted(_SAME_WORD.get(word, word) for word in words if word))


@dataclass(frozen=True)
class Settled:
    """What the bonus picks are scored against; nothing while the tournament is on."""

    champion: str | None  # the team as the matches name it
    # scorer_key of every top scorer, ties included, and the other forms a pick of one
    # may be stored as (``top_scorers``)
    scorers: frozenset[str]
    # each top scorer's key, with the teams they scored for: what a pick of a listed
    # squad's player is scored against (``game.squads.earned``)
    top: Mapping[str, frozenset[str]] = field(default_factory=dict)


def ended(matches: Iterable[Match]) -> bool:
    """Every match of the tournament finished."""
    listed = list(matches)
    return bool(listed) and all(m.status is MatchStatus.FINISHED for m in listed)


def settle(matches: Sequence[Match]) -> Settled:
    """The champion and the top scorers, once every match has finished."""
    if not ended(matches):
        return Settled(None, frozenset())
    crowned = champions(matches)
    top = top_scorer_teams(matches)
    return Settled(None if crowned is None else crowned[0], top_scorers(matches), top)


def top_scorers(matches: Iterable[Match]) -> frozenset[str]:
    """Every stored form of a pick that names a top scorer (everyone level at the top of
    the goals, own goals excluded): the scorer's key, the shorter spellings the goals
    also used for them ("Mbappé" beside "Kylian Mbappé"), and each part of the name no
    other scorer's name holds (a pick "Messi" or "Di María" made before anyone scored)."""
    canonical, goals, _ = _goals_by_scorer(matches)
    top = _most(goals)
    return frozenset(
        {key for key, scorer in canonical.items() if scorer in top}
        | {part for key in top for part in _parts_only_theirs(key, goals)}
    )


def top_scorer_teams(matches: Iterable[Match]) -> dict[str, frozenset[str]]:
    """Each top scorer's key (one per scorer, however the goals spell them), with the
    teams they scored for."""
    _, goals, teams = _goals_by_scorer(matches)
    return {key: frozenset(teams[key]) for key in _most(goals)}


def _goals_by_scorer(
    matches: Iterable[Match],
) -> tuple[dict[str, str], Counter[str], dict[str, set[str]]]:
    """({spelling's key: the scorer it names}, {scorer: goals}, {scorer: their teams})."""
    spellings: Counter[str] = Counter()
    teams: dict[str, set[str]] = {}
    for match in matches:
        for goal in match.goals:
            if not goal.own_goal and (key := scorer_key(goal.scorer)):
                spellings[key] += 1
                team = match.team1 if goal.side == "home" else match.team2
                teams.setdefault(key, set()).add(team)
    canonical = _canonical(spellings)
    goals: Counter[str] = Counter()
    scorers: dict[str, set[str]] = {}
    for key, count in spellings.items():
        goals[canonical[key]] += count
        scorers.setdefault(canonical[key], set()).update(teams[key])
    return canonical, goals, scorers


def _most(goals: Counter[str]) -> set[str]:
    """Everyone level at the top of ``goals``."""
    most = max(goals.values(), default=0)
    return {key for key, count in goals.items() if count == most} if most else set()


def _parts_only_theirs(key: str, keys: Iterable[str]) -> set[str]:
    """The parts of ``key``'s name (its words, a few at a time, in key order) that no
    other of ``keys`` holds: what a pick may have named them by alone."""
    words = key.split()
    others = [set(other.split()) for other in keys if other != key]
    return {
        " ".join(part)
        for size in range(1, len(words))
        for part in combinations(words, size)
        if not any(set(part) <= other for other in others)
    }


def _canonical(keys: Iterable[str]) -> dict[str, str]:
    """{key: the scorer it names}: a key whose words only one longer key holds ("mbappe",
    "kylian mbappe") is that scorer, as one file writes a name two ways."""
    listed = set(keys)
    named = {}
    for key in listed:
        words = set(key.split())
        longer = [other for other in listed if words < set(other.split())]
        named[key] = longer[0] if len(longer) == 1 else key
    return named


class UnknownTeam(RuleViolation):
    pass


class UnknownScorer(RuleViolation):
    pass


def teams_of(matches: Iterable[Match]) -> set[str]:
    """The tournament's teams, as its matches name them (not a knock-out's open slots)."""
    return {t for m in matches for t in (m.team1, m.team2) if not is_placeholder(t)}


def champion_pick(name: str, teams: Iterable[str], book: TeamBook | None = None) -> str:
    """The team ``name`` means among ``teams``, in any spelling the team book knows,
    English or Portuguese ("Brasil" is "Brazil"); else a one-line refusal."""
    book = book or TeamBook.standard()
    listed = sorted(set(teams))
    for team in listed:
        if book.same(team, name):
            return team
    closest = closest_names(key_form(name), {key_form(team): team for team in listed})
    raise UnknownTeam(
        "{team} does not play in this tournament (closest: {closest})",
        team=name,
        closest=", ".join(closest) or "-",
    )


def scorers_of(matches: Iterable[Match]) -> dict[str, str]:
    """{scorer_key: the name as first written} of everyone who scored (own goals aside)."""
    written: dict[str, str] = {}
    for match in sorted(matches, key=Match.time_order):
        for goal in match.goals:
            key = scorer_key(goal.scorer)
            if key and not goal.own_goal:
                written.setdefault(key, goal.scorer)
    canonical = _canonical(written)
    return {key: name for key, name in written.items() if canonical[key] == key}


def scorer_pick(name: str, known: dict[str, str]) -> tuple[str, bool]:
    """(the key the pick is stored and scored by, whether it was checked) for ``name``.

    Checked against ``known`` (``scorers_of``): the same key, or a family name that
    only one known scorer has ("Mbappé"). When the pool knows no scorer at all the
    name stands unchecked; otherwise an unknown one is refused with the closest names.
    """
    if len(name) > NAME_LONGEST:
        raise UnknownScorer("a player's name is at most {length} characters", length=NAME_LONGEST)
    key = scorer_key(name)
    if not key:
        raise UnknownScorer("name a player: bonus scorer NAME")
    if not known:
        return key, False
    if key in known:
        return key, True
    words = set(key.split())
    holding = [k for k in known if words <= set(k.split())]
    if len(holding) == 1:
        return holding[0], True
    closest = closest_names(key, known) if not holding else sorted(known[k] for k in holding)
    raise UnknownScorer(
        "no scorer called {name} in this tournament (closest: {closest})",
        name=name,
        closest=", ".join(closest[:CLOSEST]) or "-",
    )


def closest_names(key: str, names: dict[str, str]) -> list[str]:
    """Up to ``CLOSEST`` of ``names``' values whose keys are nearest ``key``, best first.

    A refusal must cost little, whoever sends the name (a 99-character name against
    1,250 squad players took 295 ms of the pool's one writer): ``key`` is prepared once
    as difflib's second sequence (``set_seq2``: each name is compared to it, not it to
    each name; the ratio is not symmetric, so a suggestion may differ from the other
    order's), and a name whose cheap upper bounds (``real_quick_ratio``,
    ``quick_ratio``) cannot beat the third best found so far is never fully compared.
    """
    matcher = SequenceMatcher(None)
    matcher.set_seq2(key)
    best: list[tuple[float, str]] = []  # (-ratio, name key), kept sorted, CLOSEST at most
    for name in sorted(names):
        matcher.set_seq1(name)
        if len(best) == CLOSEST:
            worst = -best[-1][0]
            if matcher.real_quick_ratio() <= worst or matcher.quick_ratio() <= worst:
                continue  # at best level with the third: the earlier name (sorted) stays
        bisect.insort(best, (-matcher.ratio(), name))
        del best[CLOSEST:]
    return [names[k] for _, k in best]
