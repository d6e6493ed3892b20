"""The offline writer: BETanIA's memory work done by rules, with no model and no network.

It answers the same ``ModelCall`` a language model would, reading the
structured ``data`` instead of the prompt, and it honours every memory
contract: one entry per match, a recency-weighted narrative whose size stays
flat, fact merges that cover every source id. Phrasing varies by a generator
seeded from what it describes, so a replay is reproducible.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from difflib import SequenceMatcher

from memory.guard import normalized
from memory.model import ModelCall, ModelError
from memory.stories import MatchStory

RECENT_IN_DETAIL = 4  # the newest matches a fused narrative tells one by one
PERIODS_IN_DETAIL = 2  # the latest rounds that keep a clause each; older ones share one
SIMILAR = 0.8


def _names(players: Sequence[str], limit: int = 4) -> str:
    players = list(players)
    if not players:
        return "nobody"
    if len(players) > limit:
        return f"{', '.join(players[:limit])} and {len(players) - limit} more"
    return players[0] if len(players) == 1 else f"{', '.join(players[:-1])} and {players[-1]}"


def _period(stage: str) -> str:
    if stage.startswith(("Group", "Matchday")):
        return "the group stage"
    return "the " + stage.lower().replace("match for third place", "third-place match")


class OfflineModel:
    name = "offline"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def complete(self, call: ModelCall) -> str:
        handler = getattr(self, f"_{call.task}", None)
        if handler is None:
            raise ModelError(f"the offline writer has no rules for {call.task!r}")
        return handler(call.data)

    def _rng(self, *salt: object) -> random.Random:
        return random.Random(f"{self.seed}:{':'.join(map(str, salt))}")

    # -- the diary ------------------------------------------------------------

    def _diary_entry(self, data: dict) -> str:
        """A notebook line: score, scorers, who called it, who blanked, the best live line."""
        story: MatchStory = data["story"]
        rng = self._rng("entry", story.number)
        label = f"{story.team1} {story.score} {story.team2}"
        opener = rng.choice(
            ["{label}, {stage}.", "Full time in {stage}: {label}.", "{stage}: {label}."]
        )
        parts = [opener.format(label=label, stage=story.stage)]
        if story.scorers_by_team:
            parts.append(f"Scorers: {story.scorer_summary()}.")
        exact, scorers, blanks = story.exact(), story.scorers(), story.blanks()
        if not story.picks:
            parts.append("Nobody had a pick on it.")
        elif exact:
            called = rng.choice(
                ["Spot on: {who}.", "Exact score for {who}.", "{who} called it exactly."]
            )
            parts.append(called.format(who=_names(exact, 3)))
        elif scorers:
            best = story.picks[0]
            parts.append(
                f"No exact score; best was {best.player} ({best.pick}, {best.points} pts)."
            )
        if story.picks and not scorers:
            parts.append(
                rng.choice(
                    [
                        "A collective wipe-out: all {n} picks scored zero.",
                        "Nobody scored: {n} picks, {n} zeroes.",
                    ]
                ).format(n=len(blanks))
            )
        elif blanks:
            parts.append(f"{len(blanks)} of {len(story.picks)} blanked ({_names(blanks, 2)}).")
        for line in story.lines[:1]:
            parts.append(f'{line.player}, live: "{line.text}"')
        return " ".join(parts)

    def _diary_fusion(self, data: dict) -> str:
        """Weighted by recency: the oldest rounds in one clause, the last rounds in one
        clause each, the newest matches one by one. The size stays flat however long
        the tournament runs."""
        stories: list[MatchStory] = sorted(data["stories"], key=lambda s: s.number)
        if not stories:
            raise ModelError("nothing to fuse")
        older, recent = stories[:-RECENT_IN_DETAIL], stories[-RECENT_IN_DETAIL:]
        periods: dict[str, list[MatchStory]] = {}
        for story in older:
            periods.setdefault(_period(story.stage), []).append(story)
        names = list(periods)
        sentences = []
        if len(names) > PERIODS_IN_DETAIL:
            oldest = names[: len(names) - PERIODS_IN_DETAIL]
            fused = [story for name in oldest for story in periods[name]]
            sentences.append(
                self._period_clause(_names(oldest, limit=len(oldest)), fused, brief=True)
            )
            names = names[len(oldest) :]
        for name in names:
            sentences.append(self._period_clause(name, periods[name]))
        for story in recent:
            sentences.append(self._detail_clause(story))
        return " ".join(sentences)

    def _period_clause(self, period: str, group: list[MatchStory], brief: bool = False) -> str:
        first, last = group[0].day, group[-1].day
        span = f"[{first:%d %b}]" if first == last else f"[{first:%d %b} - {last:%d %b}]"
        exact_counts: dict[str, int] = {}
        for story in group:
            for player in story.exact():
                exact_counts[player] = exact_counts.get(player, 0) + 1
        keep = 1 if brief else 2
        best = sorted(exact_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:keep]
        wipeouts = [s for s in group if s.picks and not s.scorers()][:keep]
        clause = f"{span} In {period} ({len(group)} matches)"
        if best:
            clause += ", the sharpest eyes were " + " and ".join(
                f"{p} ({n} exact)" for p, n in best
            )
        else:
            clause += ", nobody called a single exact score"
        if wipeouts:
            clause += "; collective wipe-outs on " + " and ".join(
                f"{s.team1} {s.score} {s.team2} [{s.day:%d %b}]" for s in wipeouts
            )
        return clause + "."

    def _detail_clause(self, story: MatchStory) -> str:
        exact = story.exact()
        what = (
            f"exact for {_names(exact)}"
            if exact
            else f"points for {_names(story.scorers(), 3)}"
            if story.scorers()
            else "zeroes all round"
        )
        return f"[{story.day:%d %b}] {story.team1} {story.score} {story.team2}: {what}."

    # -- player facts ---------------------------------------------------------

    def _fact_merge(self, data: dict) -> str:
        """Duplicates become one fact; similar ones are grouped; every id is listed."""
        groups: list[list[tuple[int, str]]] = []
        for fact_id, text in data["facts"]:
            for group in groups:
                if any(
                    SequenceMatcher(None, normalized(text), normalized(other)).ratio() >= SIMILAR
                    for _, other in group
                ):
                    group.append((fact_id, text))
                    break
            else:
                groups.append([(fact_id, text)])
        merged = []
        for group in groups:
            texts = list(dict.fromkeys(text for _, text in sorted(group, key=lambda f: -len(f[1]))))
            distinct = [
                t
                for i, t in enumerate(texts)
                if not any(normalized(t) in normalized(o) for o in texts[:i])
            ]
            merged.append(
                {"text": "; ".join(distinct), "covers": [fact_id for fact_id, _ in group]}
            )
        return json.dumps(merged, ensure_ascii=False)

    # -- remarks --------------------------------------------------------------

    def _remark(self, data: dict) -> str:
        story: MatchStory = data["story"]
        rng = self._rng("remark", story.number, data.get("attempt", 0))
        match = f"{story.team1} {story.score} {story.team2}"
        exact, blanks = story.exact(), story.blanks()
        if exact:
            options = [
                "{who} called {match} to the goal. Frame it, it won't happen often.",
                "Exact score on {match}: take a bow, {who}.",
                "{match} and {who} saw it coming. Suspicious. Very suspicious.",
                "Ten out of ten for {who} on {match}. The rest of you, take notes.",
            ]
            who = _names(exact, 2)
        elif blanks and len(blanks) == len(story.picks):
            options = [
                "{match}: not one of you saw that. A collective wipe-out, my favourite genre.",
                "Nobody scored on {match}. I'll pretend I didn't see your picks.",
                "{match} left the whole pool on zero. Solidarity, I suppose.",
            ]
            who = "everyone"
        elif blanks:
            options = [
                "{match}. {who}, zero points; the ball is round, your picks less so.",
                "{who} walk away from {match} with nothing. There's always the next one.",
                "Nothing on {match} for {who}. I'm saying it kindly.",
                "{match}: {who}, that pick was brave. Brave is not points.",
            ]
            who = _names(blanks[-2:], 2)
        else:
            options = [
                "{match}: points for everyone. Boring, but fair.",
                "Everyone scored on {match}. Enjoy it while it lasts.",
            ]
            who = "everyone"
        return rng.choice(options).format(match=match, who=who)
