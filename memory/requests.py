"""What each model call asks, as typed data: the same request its prompt puts in words.

A language model reads the prompt; a rule-based writer (``bot.agent.providers.offline``)
reads these. One small frozen dataclass per kind of request. Here: the base every
request shares and the requests memory itself makes (a diary entry, a fusion, a
fact merge, a fact extraction); her picks, remarks and answers are the agent's own
(``bot.agent.requests``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from memory.hearing import SCHEMA
from memory.stories import MatchStory
from prompts import phrase

INTEGER: dict[str, Any] = {"type": "integer", "minimum": 0}


def note(section: str, **values: object) -> str:
    """A line of the records handed to a model (prompts/notes.txt), filled."""
    return phrase("notes", section, **values)


def scored(rows: tuple[tuple[str, int], ...]) -> str:
    """ "ana 12, bia 10": players (or teams) with their points."""
    return ", ".join(f"{who} {n}" for who, n in rows)


def object_schema(properties: dict[str, Any]) -> dict[str, Any]:
    """A JSON schema of an object with exactly these properties, all required."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def listing(key: str, item: dict[str, Any]) -> dict[str, Any]:
    """``{key: [item, ...]}``: APIs want an object at the top, so a list goes inside one."""
    return object_schema({key: {"type": "array", "items": object_schema(item)}})


@dataclass(frozen=True)
class Request:
    task: ClassVar[str] = ""  # the task a model call is logged under
    contract: ClassVar[str] = ""  # the kind memory.contract holds its text to, if not the task
    # The JSON schema of the answer, for a task that wants data, not words: a provider asks
    # for it through the API's own mechanism (tool use, response_format) where it can.
    schema: ClassVar[dict[str, Any] | None] = None

    @property
    def text_kind(self) -> str:
        return self.contract or self.task


# -- memory work ------------------------------------------------------------------


@dataclass(frozen=True)
class MatchEntry(Request):
    task: ClassVar[str] = "diary_entry"
    story: MatchStory


@dataclass(frozen=True)
class DiaryFusion(Request):
    task: ClassVar[str] = "diary_fusion"
    stories: tuple[MatchStory, ...]
    ending: Ending | None = None  # the closing narrative, once the final is told


@dataclass(frozen=True)
class Ending:
    """How the tournament ended, for the closing narrative: from the log."""

    champion: str
    runner_up: str
    winners: tuple[str, ...]
    points: int
    podium: tuple[tuple[str, int], ...]
    league: bool = False  # won at the top of a table, not in a final

    def notes(self) -> str:
        return note(
            "ending.league" if self.league else "ending",
            champion=self.champion,
            runner_up=self.runner_up,
            winners=" & ".join(self.winners),
            points=self.points,
            podium=scored(self.podium),
        )


@dataclass(frozen=True)
class FactMerge(Request):
    task: ClassVar[str] = "fact_merge"
    schema: ClassVar[dict[str, Any] | None] = listing(
        "merged", {"text": {"type": "string"}, "covers": {"type": "array", "items": INTEGER}}
    )
    facts: tuple[tuple[int, str], ...]  # (id, text), every id to be covered


@dataclass(frozen=True)
class FactExtraction(Request):
    task: ClassVar[str] = "fact_extraction"
    schema: ClassVar[dict[str, Any] | None] = listing(
        "facts", {"player": {"type": "string"}, "text": {"type": "string"}}
    )
    author: str
    text: str


@dataclass(frozen=True)
class LineReading(Request):
    """A line to her, read by a model into memory operations and a question
    (``memory.hearing``); the author's current facts as (id, text)."""

    task: ClassVar[str] = "hearing"
    schema: ClassVar[dict[str, Any] | None] = SCHEMA
    author: str
    text: str
    facts: tuple[tuple[int, str], ...]
