"""A finished match as the commentator tells it: score, goals, who called what, best lines.

Built from game facts on demand (the result, the picks, the log), so it can be
told again at any time; only the diary entry written from it is kept.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from datetime import date, tzinfo

from game import jokers
from game.model import Match, Score
from game.pool import Pool
from game.scoring import Tier, classify, scored_score
from memory.quoting import quote_player_text
from memory.working import LiveLine, WorkingMemory
from prompts import phrase


def shuffled_key(salt: int, player: str) -> str:
    """A sort key that orders players differently for each ``salt``, the same way every time."""
    return hashlib.sha256(f"{salt}:{player}".encode()).hexdigest()


@dataclass(frozen=True)
class PickResult:
    player: str
    pick: Score
    points: int
    tier: Tier


@dataclass(frozen=True)
class MatchStory:
    number: int
    day: date
    team1: str
    team2: str
    stage: str
    score: str
    goals: tuple[str, ...]
    picks: tuple[PickResult, ...]
    lines: tuple[LiveLine, ...] = ()
    scorers_by_team: tuple[tuple[str, str], ...] = ()  # (team, scorer), in goal order
    # A two-legged tie's second leg: who went through, and the aggregate from team1's side.
    through: str | None = None
    aggregate: str | None = None

    @property
    def label(self) -> str:
        return f"#{self.number} {self.team1} {self.score} {self.team2}"

    def exact(self) -> list[str]:
        return [p.player for p in self.picks if p.tier is Tier.EXACT]

    def scorers(self) -> list[str]:
        return [p.player for p in self.picks if p.points > 0]

    def blanks(self) -> list[str]:
        return [p.player for p in self.picks if p.points == 0]

    def without(self, player: str) -> MatchStory:
        """The same story with one player's pick left out (her own, when she talks)."""
        return replace(self, picks=tuple(p for p in self.picks if p.player != player))

    def scorer_summary(self) -> str:
        """ "Saka 3, Rice (England); Mbappé 2 (France)": who scored, in a few words."""
        teams: dict[str, dict[str, int]] = {}
        for team, scorer in self.scorers_by_team:
            tally = teams.setdefault(team, {})
            tally[scorer] = tally.get(scorer, 0) + 1
        return "; ".join(
            ", ".join(f"{name} {n}" if n > 1 else name for name, n in tally.items()) + f" ({team})"
            for team, tally in teams.items()
        )

    def picks_by_points(self) -> str:
        """ "7 pts: ana 1-2, elis 0-1; 0 pts: bruno 3-1": one group per score, best first.

        Grouped, a table of sixteen picks costs a third fewer tokens than with the
        points repeated after each name, and reads as the table it is.
        """
        groups: dict[int, list[str]] = {}
        for p in self.picks:
            groups.setdefault(p.points, []).append(f"{p.player} {p.pick}")
        return "; ".join(f"{points} pts: " + ", ".join(who) for points, who in groups.items())

    def as_text(self, live: bool = True) -> str:
        """The story as notes for a model; what players wrote is quoted as data.

        ``live=False`` leaves out the goals and live lines, for a prompt whose
        working memory already holds them.
        """
        lines = [f"[{self.day:%d %b}] {self.label} ({self.stage})"]
        if self.through is not None:
            lines.append(
                phrase("moments", "story.tie", team=self.through, aggregate=self.aggregate)
            )
        if live and self.goals:
            lines.append(phrase("moments", "story.goals", goals="; ".join(self.goals)))
        if self.picks:
            lines.append(phrase("moments", "story.picks", picks=self.picks_by_points()))
        else:
            lines.append(phrase("moments", "story.no_picks"))
        for line in self.lines if live else ():
            quoted = quote_player_text(line.player, line.text)
            lines.append(phrase("moments", "live_line", at=f"{line.at:%H:%M}", line=quoted))
        return "\n".join(lines)


def match_story(
    pool: Pool, match: Match, zone: tzinfo, working: WorkingMemory | None = None
) -> MatchStory:
    if match.result is None:
        raise ValueError(f"{match.label} has no result to tell")
    rule, basis = pool.scoring()
    actual = scored_score(match.result, basis)
    # A joker's pick earns twice, as in the table; every joker is read once per picks mark.
    jokered = {handle for handle, number in pool.all_jokers() if number == match.number}
    picks = []
    for prediction in pool.predictions_on(match.number):
        tier = classify(prediction.score, actual)
        points = jokers.earned(rule.points(tier), prediction.handle in jokered)
        picks.append(PickResult(prediction.handle, prediction.score, points, tier))
    # Best first; within the same points, an order drawn from the match, not the
    # alphabet: whoever is named first (or cut as "and 7 more") changes from match to match.
    picks.sort(key=lambda p: (-p.points, shuffled_key(match.number, p.player)))
    team = {"home": match.team1, "away": match.team2}
    goals = tuple(
        f"{goal.clock} {goal.scorer or team[goal.side]}"
        + (" (pen)" if goal.penalty else "")
        + (" (og)" if goal.own_goal else "")
        + f" for {team[goal.side]}"
        for goal in match.goals
    )
    return MatchStory(
        number=match.number,
        day=match.kickoff.astimezone(zone).date(),
        team1=match.team1,
        team2=match.team2,
        stage=match.group or match.stage,
        score=str(match.result),
        goals=goals,
        picks=tuple(picks),
        lines=tuple(working.best_lines()) if working else (),
        scorers_by_team=tuple((team[g.side], g.scorer or "unknown") for g in match.goals),
        through=_through(match),
        aggregate=None if match.result.aggregate is None else str(match.result.aggregate),
    )


def _through(match: Match) -> str | None:
    """The side a second leg sends through; None for one match."""
    if match.result is None or match.result.aggregate is None:
        return None
    decided = match.decided()
    return decided[0] if decided else None
