"""The offline writer: BETanIA's voice and memory work done by rules, with no model.

It answers the same ``ModelCall`` a language model would, reading the
structured ``data`` instead of the prompt, and it honours every memory
contract: one entry per match, a recency-weighted narrative whose size stays
flat, fact merges that cover every source id. Its phrasings live in
``prompts/voice_<language>.txt``; a generator seeded from what it describes
picks among them, so a replay is reproducible and a demo is not repetitive.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import Any

from memory.guard import normalized
from memory.model import ModelCall, ModelError
from memory.stories import MatchStory
from prompts import voice

RECENT_IN_DETAIL = 4  # the newest matches a fused narrative tells one by one
PERIODS_IN_DETAIL = 2  # the latest rounds that keep a clause each; older ones share one
SIMILAR = 0.8


class OfflineModel:
    name = "offline"

    def __init__(self, seed: int = 0, language: str = "en") -> None:
        self.seed = seed
        self.language = language
        self.voice = voice(language)

    def complete(self, call: ModelCall) -> str:
        handler = getattr(self, f"_{call.task}", None)
        if handler is None:
            raise ModelError(f"the offline writer has no rules for {call.task!r}")
        return handler(call.data)

    # -- phrasing -------------------------------------------------------------

    def _rng(self, *salt: object) -> random.Random:
        return random.Random(f"{self.seed}:{':'.join(map(str, salt))}")

    def say(self, section: str, rng: random.Random | None = None, **values: object) -> str:
        lines = self.voice[section]
        line = rng.choice(lines) if rng is not None else lines[0]
        return line.format(**values)

    def names(self, players: Sequence[str], limit: int = 4) -> str:
        players = list(players)
        if not players:
            return self.say("word.nobody")
        and_ = self.say("word.and")
        if len(players) > limit:
            more = self.say("word.more", n=len(players) - limit)
            return f"{', '.join(players[:limit])} {and_} {more}"
        return (
            players[0] if len(players) == 1 else f"{', '.join(players[:-1])} {and_} {players[-1]}"
        )

    def _period(self, stage: str) -> str:
        if stage.startswith(("Group", "Matchday")):
            return self.say("fusion.group_stage")
        return self.say("fusion.stage", stage=stage.lower())

    # -- the diary ------------------------------------------------------------

    def _diary_entry(self, data: dict[str, Any]) -> str:
        """A notebook line: score, scorers, who called it, who blanked, the best live line."""
        story: MatchStory = data["story"]
        rng = self._rng("entry", story.number)
        label = f"{story.team1} {story.score} {story.team2}"
        parts = [self.say("entry.opener", rng, label=label, stage=story.stage)]
        if story.scorers_by_team:
            parts.append(self.say("entry.scorers", scorers=story.scorer_summary()))
        exact, scorers, blanks = story.exact(), story.scorers(), story.blanks()
        if not story.picks:
            parts.append(self.say("entry.nopicks"))
        elif exact:
            parts.append(self.say("entry.exact", rng, who=self.names(exact, 3)))
        elif scorers:
            best = story.picks[0]
            parts.append(
                self.say("entry.best", who=best.player, pick=best.pick, points=best.points)
            )
        if story.picks and not scorers:
            parts.append(self.say("entry.wipeout", rng, n=len(blanks)))
        elif blanks:
            parts.append(
                self.say(
                    "entry.blanks", n=len(blanks), total=len(story.picks), who=self.names(blanks, 2)
                )
            )
        for line in story.lines[:1]:
            parts.append(self.say("entry.line", who=line.player, text=line.text))
        return " ".join(parts)

    def _diary_fusion(self, data: dict[str, Any]) -> str:
        """Weighted by recency: the oldest rounds in one clause, the last rounds in one
        clause each, the newest matches one by one. The size stays flat however long
        the tournament runs."""
        stories: list[MatchStory] = sorted(data["stories"], key=lambda s: s.number)
        if not stories:
            raise ModelError("nothing to fuse")
        older, recent = stories[:-RECENT_IN_DETAIL], stories[-RECENT_IN_DETAIL:]
        periods: dict[str, list[MatchStory]] = {}
        for story in older:
            periods.setdefault(self._period(story.stage), []).append(story)
        names = list(periods)
        sentences = []
        if len(names) > PERIODS_IN_DETAIL:
            oldest = names[: len(names) - PERIODS_IN_DETAIL]
            fused = [story for name in oldest for story in periods[name]]
            sentences.append(
                self._period_clause(self.names(oldest, limit=len(oldest)), fused, brief=True)
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
        if best:
            who = self.names([self.say("fusion.best", who=p, n=n) for p, n in best])
            clause = self.say("fusion.period", span=span, period=period, n=len(group), best=who)
        else:
            clause = self.say("fusion.period_none", span=span, period=period, n=len(group))
        if wipeouts:
            matches = self.names(
                [f"{s.team1} {s.score} {s.team2} [{s.day:%d %b}]" for s in wipeouts]
            )
            clause += " " + self.say("fusion.wipeouts", matches=matches)
        return clause

    def _detail_clause(self, story: MatchStory) -> str:
        day, match = f"[{story.day:%d %b}]", f"{story.team1} {story.score} {story.team2}"
        if story.exact():
            return self.say(
                "fusion.detail_exact", day=day, match=match, who=self.names(story.exact())
            )
        if story.scorers():
            return self.say(
                "fusion.detail_points", day=day, match=match, who=self.names(story.scorers(), 3)
            )
        return self.say("fusion.detail_zero", day=day, match=match)

    # -- player facts ---------------------------------------------------------

    def _fact_merge(self, data: dict[str, Any]) -> str:
        """Duplicates become one fact; similar ones are grouped; every id is listed."""
        groups: list[list[tuple[int, str]]] = []
        for fact_id, text in data["facts"]:
            for group in groups:
                if any(
                    SequenceMatcher(None, normalized(text), normalized(o)).ratio() >= SIMILAR
                    for _, o in group
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

    # -- remarks and answers ----------------------------------------------------

    def _remark(self, data: dict[str, Any]) -> str:
        """A remark of ``data["kind"]``: final_whistle, kickoff, goal, leader, jump, digest."""
        kind = data["kind"]
        rng = self._rng("remark", kind, data.get("key", ""), data.get("attempt", 0))
        if kind == "final_whistle":
            return self._final_whistle(data["story"], rng)
        if kind == "kickoff":
            return self.say(
                "kickoff",
                rng,
                match=data["match"],
                pick=data["pick"],
                agree=data["agree"],
                disagree=data["disagree"],
            )
        if kind == "goal":
            if not data["alive"]:
                return self.say(
                    "goal.nobody_alive",
                    rng,
                    team=data["team"],
                    match=data["match"],
                    score=data["score"],
                )
            return self.say(
                "goal",
                rng,
                team=data["team"],
                match=data["match"],
                score=data["score"],
                alive=self.names(data["alive"], 3),
            )
        if kind == "leader":
            return self.say(
                "leader.new", rng, who=data["who"], points=data["points"], previous=data["previous"]
            )
        if kind == "jump":
            return self.say(
                "jump.big", rng, who=data["who"], before=data["before"], after=data["after"]
            )
        if kind == "correction":
            return self.say("correction", rng, match=data["match"], previous=data["previous"])
        if kind == "welcome":
            section = "welcome.leader" if data.get("leader") else "welcome"
            return self.say(
                section,
                rng,
                who=data["who"],
                leader=data.get("leader"),
                points=data.get("points"),
                next=data.get("next") or "-",
            )
        if kind == "digest":
            if not data["results"]:
                return self.say("digest.none", rng)
            quiet = self.say("digest.quiet", who=data["quiet"]) if data.get("quiet") else ""
            return self.say(
                "digest",
                rng,
                day=data["day"],
                results="; ".join(data["results"]),
                leader=data["leader"],
                points=data["points"],
                quiet=quiet,
            ).strip()
        raise ModelError(f"no rules for a {kind!r} remark")

    def _final_whistle(self, story: MatchStory, rng: random.Random) -> str:
        match = f"{story.team1} {story.score} {story.team2}"
        exact, blanks = story.exact(), story.blanks()
        if exact:
            return self.say("final.exact", rng, match=match, who=self.names(exact, 2))
        if blanks and len(blanks) == len(story.picks):
            return self.say("final.wipeout", rng, match=match)
        if blanks:
            return self.say("final.blanks", rng, match=match, who=self.names(blanks[-2:], 2))
        return self.say("final.all_scored", rng, match=match)

    def _answer(self, data: dict[str, Any]) -> str:
        """An answer to ``@betania ...``; ``data["intent"]`` says which question it was."""
        intent = data["intent"]
        rng = self._rng("answer", data.get("key", ""))
        who = data.get("who", "")
        if intent == "standing":
            row = data.get("row")
            if row is None:
                return self.say("answer.nostanding", rng, who=who)
            place = (
                "top"
                if row["rank"] <= max(1, data["of"] // 4)
                else "bottom"
                if row["rank"] > data["of"] * 3 // 4
                else "middle"
            )
            mood = self.say(f"answer.mood.{place}")
            return self.say(
                "answer.standing",
                rng,
                who=who,
                rank=row["rank"],
                of=data["of"],
                points=row["points"],
                exact=row["exact"],
                mood=mood,
            )
        if intent == "facts":
            if not data["facts"]:
                return self.say("answer.nofacts", rng, who=who)
            return self.say("answer.facts", rng, who=who, facts="; ".join(data["facts"]))
        if intent == "called":
            if data.get("match") is None:
                return self.say("answer.nomatch", team=data["team"])
            if not data["exact"]:
                return self.say("answer.called_nobody", match=data["match"])
            return self.say("answer.called", match=data["match"], who=self.names(data["exact"]))
        if intent == "unknown":
            close = (
                self.say("answer.close", names=self.names(data["close"])) if data["close"] else ""
            )
            return self.say("answer.unknown", name=data["name"], close=close)
        if intent == "remembered":
            return self.say("answer.remembered", rng, who=who, fact=data["fact"])
        if intent == "not_yours":
            return self.say("answer.not_yours", rng, who=who, others=data["others"])
        return self.say("answer.fallback", team=data.get("team") or "Brazil")

    # -- picks and free chat ----------------------------------------------------

    def _prediction(self, data: dict[str, Any]) -> str:
        """Her pick: the rating model's suggestion, as it stands."""
        return str(data["suggestion"])

    def _fact_extraction(self, _data: dict[str, Any]) -> str:
        """Rules do not read free chat for facts; only ``@betania remember`` teaches them."""
        return "[]"
