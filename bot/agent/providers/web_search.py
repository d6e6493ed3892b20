"""Team news for her picks: the Messages API's web search server tool, capped.

Off unless asked for (``--web-search``). When on, a pick's request carries the
tool as Anthropic documents it (``{"type": "web_search_20250305", "name":
"web_search", "max_uses": N}``), ``N`` the searches a pick may make, never more
than the day has left; the API runs the searches and answers with
``server_tool_use`` blocks (the queries), ``web_search_tool_result`` blocks (the
pages found) and text whose ``citations`` name the pages it used. What was
searched and cited goes into the call record; the rating model's plausibility
rule still stands guard over the pick that comes back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

TOOL_TYPE = "web_search_20250305"
TOOL_NAME = "web_search"


def _today() -> date:
    return datetime.now(UTC).date()


@dataclass
class WebSearch:
    """The caps: searches per pick and per day (UTC), counted as the API reports them."""

    per_pick: int = 3
    per_day: int = 20
    today: Callable[[], date] = _today
    used: dict[date, int] = field(default_factory=dict)  # this process's count, by day

    def tool(self) -> dict[str, Any] | None:
        """The tool for the next pick, or None when the day's searches are spent."""
        uses = min(self.per_pick, self.per_day - self.used.get(self.today(), 0))
        return {"type": TOOL_TYPE, "name": TOOL_NAME, "max_uses": uses} if uses > 0 else None

    def spent(self, searches: int) -> None:
        day = self.today()
        self.used[day] = self.used.get(day, 0) + searches


@dataclass(frozen=True)
class Sources:
    """What one answer searched for and which pages its text cited."""

    searches: tuple[str, ...] = ()
    cited: tuple[str, ...] = ()

    def __str__(self) -> str:
        said = [f"searched {query!r}" for query in self.searches]
        said += [f"cited {url}" for url in self.cited]
        return "; ".join(said)


def sources(blocks: Iterable[Any]) -> Sources:
    """The queries of ``server_tool_use`` blocks and the URLs text blocks cite, in order."""
    searches: list[str] = []
    cited: list[str] = []
    for block in blocks:
        kind = getattr(block, "type", "")
        if kind == "server_tool_use" and getattr(block, "name", "") == TOOL_NAME:
            query = (getattr(block, "input", None) or {}).get("query")
            if isinstance(query, str):
                searches.append(query)
        elif kind == "text":
            for citation in getattr(block, "citations", None) or ():
                url = getattr(citation, "url", None)
                if isinstance(url, str) and url not in cited:
                    cited.append(url)
    return Sources(tuple(searches), tuple(cited))
