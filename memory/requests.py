"""What each model call asks, as typed data: the same request its prompt puts in words.

A language model reads the prompt; a rule-based writer (``memory.offline``)
reads these. One small frozen dataclass per kind of request: a new kind of
remark is one class here and one rule in the offline writer's table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from game.standings import StandingRow
from memory.stories import MatchStory


@dataclass(frozen=True)
class Request:
    task: ClassVar[str] = ""  # the task a model call is logged under


# -- memory work ------------------------------------------------------------------


@dataclass(frozen=True)
class DiaryEntry(Request):
    task: ClassVar[str] = "diary_entry"
    story: MatchStory


@dataclass(frozen=True)
class DiaryFusion(Request):
    task: ClassVar[str] = "diary_fusion"
    stories: tuple[MatchStory, ...]


@dataclass(frozen=True)
class FactMerge(Request):
    task: ClassVar[str] = "fact_merge"
    facts: tuple[tuple[int, str], ...]  # (id, text), every id to be covered


@dataclass(frozen=True)
class FactExtraction(Request):
    task: ClassVar[str] = "fact_extraction"
    author: str
    text: str


@dataclass(frozen=True)
class Prediction(Request):
    task: ClassVar[str] = "prediction"
    suggestion: str  # the rating model's pick, as "2-1"


# -- her remarks ------------------------------------------------------------------


@dataclass(frozen=True)
class Remark(Request):
    task: ClassVar[str] = "remark"
    kind: ClassVar[str] = ""  # which remark, for the writer's variety


@dataclass(frozen=True)
class FinalWhistle(Remark):
    kind: ClassVar[str] = "final_whistle"
    story: MatchStory


@dataclass(frozen=True)
class KickOff(Remark):
    kind: ClassVar[str] = "kickoff"
    match: str
    pick: str  # hers
    agree: int
    disagree: int


@dataclass(frozen=True)
class GoalMoment(Remark):
    kind: ClassVar[str] = "goal"
    team: str
    match: str
    score: str
    alive: tuple[str, ...]  # players whose pick can still come true


@dataclass(frozen=True)
class NewLeader(Remark):
    kind: ClassVar[str] = "leader"
    who: str
    points: int
    previous: str


@dataclass(frozen=True)
class BigJump(Remark):
    kind: ClassVar[str] = "jump"
    who: str
    before: int
    after: int


@dataclass(frozen=True)
class Correction(Remark):
    kind: ClassVar[str] = "correction"
    match: str
    previous: str


@dataclass(frozen=True)
class Welcome(Remark):
    kind: ClassVar[str] = "welcome"
    who: str
    leader: str | None
    points: int
    next: str | None


@dataclass(frozen=True)
class Digest(Remark):
    kind: ClassVar[str] = "digest"
    day: str
    results: tuple[str, ...]
    leader: str
    points: int
    quiet: str | None


# -- her answers to "@<her handle> ..." ----------------------------------------------


@dataclass(frozen=True)
class Answer(Request):
    task: ClassVar[str] = "answer"
    who: str  # whom the answer is about: the asker unless the question named someone


@dataclass(frozen=True)
class Standing(Answer):
    row: StandingRow | None  # None before anything has been scored
    of: int


@dataclass(frozen=True)
class KnownFacts(Answer):
    facts: tuple[str, ...]
    mention: str  # how to address her, for a player who has told her nothing yet


@dataclass(frozen=True)
class WhoCalled(Answer):
    team: str
    match: str | None  # the last finished match of ``team``, if any
    exact: tuple[str, ...] = ()


@dataclass(frozen=True)
class UnknownName(Answer):
    name: str
    close: tuple[str, ...]


@dataclass(frozen=True)
class Remembered(Answer):
    fact: str


@dataclass(frozen=True)
class NotYours(Answer):
    others: str  # the players the would-be fact names


@dataclass(frozen=True)
class Fallback(Answer):
    team: str | None = None
