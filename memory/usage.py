"""What each model call cost, kept in memory's own record rather than the game's log.

The pool's log holds what happened in the game; what it cost her to talk
about it is memory's business. Providers report a ``ModelUsage`` per call;
``record`` keeps it, ``totals`` sums it for ``betania memory stats``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, case, func, insert, select

from memory.schema import model_calls


@dataclass(frozen=True)
class ModelUsage:
    """One call to a language model: what it cost, how long it took, whether it failed."""

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


def record(connection: Connection, usage: ModelUsage, at: datetime) -> None:
    connection.execute(insert(model_calls).values(at=at, **asdict(usage)))


def recorded(connection: Connection) -> list[ModelUsage]:
    """Every call kept, oldest first."""
    columns = [model_calls.c[name] for name in ModelUsage.__dataclass_fields__]
    rows = connection.execute(select(*columns).order_by(model_calls.c.id))
    return [ModelUsage(**row._mapping) for row in rows]


def totals(connection: Connection) -> dict[str, Any]:
    c = model_calls.c
    row = connection.execute(
        select(
            func.count(),
            func.coalesce(func.sum(c.input_tokens), 0),
            func.coalesce(func.sum(c.output_tokens), 0),
            func.coalesce(func.sum(c.cache_read_tokens), 0),
            func.coalesce(func.sum(case((c.error.is_not(None), 1), else_=0)), 0),
            func.coalesce(func.sum(case((c.fallback, 1), else_=0)), 0),
        )
    ).one()
    names = ("calls", "input_tokens", "output_tokens", "cache_read_tokens", "errors", "fallbacks")
    return {name: int(value) for name, value in zip(names, row, strict=True)}
