"""Every model call, kept in memory's own record rather than the game's log.

The pool's log holds what happened in the game; what she asked a model, what
came back, what it cost and what became of it is memory's business. A
provider reports a ``ModelUsage`` per request to a ``UsageMeter``; the agent's
gateway writes one ``CallRecord`` row per call (``record``), settles its outcome
when it is known (``settle``: posted, refused by which check, fallen back),
and prunes rows older than the retention it is given. ``betania memory
calls`` reads them; ``totals`` sums them for ``betania memory stats``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, case, delete, func, insert, select, update

from memory.schema import model_calls
from memory.tokens import estimate_tokens


@dataclass(frozen=True)
class ModelUsage:
    """What one request to a model cost, as its provider reports it."""

    provider: str
    model: str
    task: str
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    latency_ms: int = 0
    error: str | None = None
    fallback: bool = False  # the offline writer answered instead
    sources: str = ""  # what a web search looked up and what the answer cited


class UsageMeter:
    """Where providers report usage; the keeper reads what one call reported."""

    def __init__(self) -> None:
        self._reports: list[ModelUsage] = []

    def report(self, usage: ModelUsage) -> None:
        self._reports.append(usage)

    def take(self) -> list[ModelUsage]:
        """The reports since the last take (the call just made), and forget them."""
        taken, self._reports = self._reports, []
        return taken


@dataclass(frozen=True)
class CallRecord:
    """One model call as memory keeps it: what was asked, what came back, what it became."""

    at: datetime
    task: str
    provider: str
    model: str
    system: str
    prompt: str
    response: str
    outcome: str  # "answered", "fallen back: <why>", then e.g. "posted", "refused: repeat"
    match_number: int | None = None
    event_id: int | None = None  # the log event that caused it
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    latency_ms: int = 0
    error: str | None = None
    fallback: bool = False
    sources: str = ""  # "searched 'Brazil injuries'; cited https://...": a web search's trail
    id: int | None = None

    @property
    def tokens(self) -> int:
        """The call's size as memory budgets it (about four characters a token)."""
        return estimate_tokens(self.system) + estimate_tokens(self.prompt)

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "at": self.at.isoformat()}


def record(connection: Connection, call: CallRecord) -> int:
    values = {k: v for k, v in asdict(call).items() if k != "id"}
    result = connection.execute(insert(model_calls).values(**values))
    return int(result.inserted_primary_key[0])  # type: ignore[index]  # one key, never None


def settle(connection: Connection, call_id: int, outcome: str) -> None:
    connection.execute(
        update(model_calls).where(model_calls.c.id == call_id).values(outcome=outcome)
    )


_TEXTS = (
    "system",
    "prompt",
    "response",
    "outcome",
    "sources",
)  # empty in rows kept before they were


def recorded(
    connection: Connection, match: int | None = None, last: int | None = None
) -> list[CallRecord]:
    """The calls kept, oldest first: all, those about ``match``, or the ``last`` few."""
    names = [f.name for f in fields(CallRecord)]
    query = select(*(model_calls.c[name] for name in names)).order_by(model_calls.c.id.desc())
    if match is not None:
        query = query.where(model_calls.c.match_number == match)
    if last is not None:
        query = query.limit(last)
    rows = connection.execute(query).all()
    return [
        CallRecord(**{**row._mapping, **{k: row._mapping[k] or "" for k in _TEXTS}})
        for row in reversed(rows)
    ]


def prune(connection: Connection, before: datetime) -> int:
    """Forget the calls made before ``before``; returns how many."""
    return connection.execute(delete(model_calls).where(model_calls.c.at < before)).rowcount


# Anthropic's published prices for the default model (claude-sonnet-5), in USD per
# million tokens, as its model page gives them (read in November 2026): base input,
# 1-hour cache writes (the lifetime the provider asks for), cache hits, output.
PRICED_MODEL = "claude-sonnet-5"
PRICES = {"input": 2.00, "cache_write": 4.00, "cache_read": 0.20, "output": 10.00}


def totals(connection: Connection) -> dict[str, Any]:
    """Calls and tokens by kind, and what they would cost at ``PRICES``, with and without
    the cache (the same tokens all billed as base input)."""
    c = model_calls.c
    row = connection.execute(
        select(
            func.count(),
            func.coalesce(func.sum(c.input_tokens), 0),
            func.coalesce(func.sum(c.output_tokens), 0),
            func.coalesce(func.sum(c.cache_read_tokens), 0),
            func.coalesce(func.sum(c.cache_write_tokens), 0),
            func.coalesce(func.sum(case((c.error.is_not(None), 1), else_=0)), 0),
            func.coalesce(func.sum(case((c.fallback, 1), else_=0)), 0),
        )
    ).one()
    names = (
        "calls",
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_tokens",
        "errors",
        "fallbacks",
    )
    figures: dict[str, Any] = {name: int(v) for name, v in zip(names, row, strict=True)}
    # Texts the output contract refused, by rule ("length", "echo", "name", "score", ...).
    refused: dict[str, int] = {}
    for (outcome,) in connection.execute(
        select(c.outcome).where(c.outcome.like("%refused: contract %"))
    ):
        rule = outcome.split("refused: contract ", 1)[1].split()[0]
        refused[rule] = refused.get(rule, 0) + 1
    figures["refused_by_rule"] = refused
    # Calls a circuit breaker answered at once while their provider was down.
    figures["skipped_provider_down"] = connection.execute(
        select(func.count()).where(c.error.like("%circuit open%"))
    ).scalar_one()
    figures["replaced_offline"] = connection.execute(
        select(func.count()).where(c.outcome.like("replaced by the offline voice%"))
    ).scalar_one()
    read, written = figures["cache_read_tokens"], figures["cache_write_tokens"]
    all_input = figures["input_tokens"] + read + written
    figures["cache_read_share"] = read / all_input if all_input else 0.0
    figures["cost_usd"] = (
        figures["input_tokens"] * PRICES["input"]
        + written * PRICES["cache_write"]
        + read * PRICES["cache_read"]
        + figures["output_tokens"] * PRICES["output"]
    ) / 1e6
    figures["cost_without_cache_usd"] = (
        all_input * PRICES["input"] + figures["output_tokens"] * PRICES["output"]
    ) / 1e6
    return figures
