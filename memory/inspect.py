"""What the commentator remembers, for people: the diary, the facts, per-shelf health."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from game.addressing import DEFAULT_NAME
from game.events import ResultRecorded
from game.model import MatchStatus
from game.pool import Pool
from memory import diary, facts, usage
from memory.diary_shelf import LAST_DIARY_COMPACTION
from memory.progress import CURSOR, RESOLVED, STARTED_AFTER
from memory.store import MEMORY_STATE, MemoryStore
from memory.tokens import estimate_tokens
from prompts import persona


def diary_text(store: MemoryStore) -> str:
    with store.read() as connection:
        narrative, entries = diary.read(connection)
    if narrative is None and not entries:
        return "The diary is empty."
    parts = []
    if narrative is not None:
        parts.append(
            f"Narrative {narrative.dates}, covering {len(narrative.covers)} matches:\n{narrative.text}"
        )
    for entry in entries:
        parts.append(f"{entry.dates} #{entry.covers[0]}: {entry.text}")
    return "\n\n".join(parts)


def diary_json(store: MemoryStore) -> dict[str, Any]:
    """The diary as data: the narrative and the entries, each with its dates and matches."""
    with store.read() as connection:
        narrative, entries = diary.read(connection)

    def told(entry: diary.DiaryEntry) -> dict[str, Any]:
        return {
            "kind": entry.kind,
            "first_date": entry.first_date.isoformat(),
            "last_date": entry.last_date.isoformat(),
            "covers": list(entry.covers),
            "text": entry.text,
            "written_at": entry.written_at.isoformat(),
        }

    return {
        "narrative": None if narrative is None else told(narrative),
        "entries": [told(entry) for entry in entries],
    }


def facts_json(store: MemoryStore, today: date, handle: str | None = None) -> list[dict[str, Any]]:
    """Every fact ever stored (merged-away and withdrawn ones too) with its whole story:
    where it came from, when it was told and confirmed, until when, and what became of it."""
    with store.read() as connection:
        known = facts.stored(connection)

    def day(value: date | None) -> str | None:
        return None if value is None else value.isoformat()

    return [
        {
            "id": fact.id,
            "player": fact.handle,
            "text": fact.text,
            "source": fact.source,
            "first_told": fact.learned_on.isoformat(),
            "last_confirmed": day(fact.confirmed_on),
            "valid_until": day(fact.expires_on),
            "expired": fact.expired(today),
            "merged_from": list(fact.covers),
            "superseded_by": fact.superseded_by,
            "withdrawn_on": day(fact.withdrawn_on),
            "withdrawn_by": fact.withdrawn_by,
            "current": fact.superseded_by is None and fact.withdrawn_on is None,
        }
        for fact in known
        if handle is None or fact.handle == handle
    ]


def facts_text(store: MemoryStore, today: date, handle: str | None = None) -> str:
    with store.read() as connection:
        known = facts.current(connection, handle)
    if not known:
        return f"No facts about {handle}." if handle else "No facts yet."
    lines = []
    for fact in known:
        status = f" (expired {fact.expires_on:%d %b})" if fact.expired(today) else ""
        status = status or (f" (until {fact.expires_on:%d %b})" if fact.expires_on else "")
        merged = f" [merged from {', '.join(map(str, fact.covers))}]" if fact.covers else ""
        again = f" (told again {fact.confirmed_on:%d %b})" if fact.confirmed_on else ""
        lines.append(
            f"{fact.handle}  #{fact.id} [{fact.learned_on:%d %b}] {fact.text}{again}{status}{merged}"
        )
    return "\n".join(lines)


def stats(store: MemoryStore, today: date) -> dict[str, Any]:
    with store.read() as connection:
        narrative, entries = diary.read(connection)
        current = facts.current(connection)
        stored = facts.stored(connection)
        rejected = facts.rejected_count(connection)
        calls = usage.totals(connection)
        state = {
            key: MEMORY_STATE.get(connection, key)
            for key in (CURSOR, STARTED_AFTER, LAST_DIARY_COMPACTION, RESOLVED)
        }
    kept = [*([narrative] if narrative else []), *entries]
    covered = {n for e in kept for n in e.covers}
    pool = store.pool
    finished = sum(1 for m in pool.matches() if m.status is MatchStatus.FINISHED)
    calls["cost_per_match_usd"] = calls["cost_usd"] / finished if finished else 0.0
    return {
        "enabled": state[CURSOR] is not None,
        "last_handled_event": int(state[CURSOR] or 0),
        "started_after_event": int(state[STARTED_AFTER] or 0),
        "immutable": {"tokens": estimate_tokens(persona(DEFAULT_NAME))},
        "diary": {
            "entries": len(kept),
            "narrative": narrative is not None,
            "covers_matches": len(covered),
            "missing_matches": sorted(_passed_results(pool, state) - covered),
            "tokens": sum(estimate_tokens(e.text) for e in kept),
            "last_compaction": state[LAST_DIARY_COMPACTION],
        },
        "facts": {
            "current": len(current),
            "in_prompt": sum(1 for f in current if not f.expired(today)),
            "expired": sum(1 for f in current if f.expired(today)),
            "stored": len(stored),
            "tokens": sum(estimate_tokens(f.text) for f in current if not f.expired(today)),
            "rejected_compactions": rejected,
        },
        "model_calls": calls,
    }


def _passed_results(pool: Pool, state: dict[str, str | None]) -> set[int]:
    """The finished matches whose result memory has handled: each should have its story."""
    started, cursor = int(state[STARTED_AFTER] or 0), int(state[CURSOR] or 0)
    adopted = set(json.loads(state[RESOLVED] or "[]"))
    finished = {m.number for m in pool.matches() if m.status is MatchStatus.FINISHED}
    results = pool.events_of(ResultRecorded, after_id=started, up_to_id=cursor)
    return {item.event.match for item in results} & finished - adopted


def stats_text(report: dict[str, Any]) -> str:
    if not report["enabled"]:
        return "Memory is off: it starts with the commentator (or `betania replay`)."
    d, f, c = report["diary"], report["facts"], report["model_calls"]
    missing = d["missing_matches"]
    warning = (
        [
            f"WARNING: the diary has no story for {len(missing)} finished match(es) it has passed: "
            + ", ".join(f"#{n}" for n in missing)
            + " (betania memory rebuild writes them again)"
        ]
        if missing
        else []
    )
    return "\n".join(
        [
            f"log: handled up to event {report['last_handled_event']} (memory started after {report['started_after_event']})",
            f"immutable: {report['immutable']['tokens']} tokens",
            f"diary: {d['entries']} entries ({'a narrative + ' if d['narrative'] else ''}match entries), "
            f"covering {d['covers_matches']} matches, {d['tokens']} tokens; last compaction {d['last_compaction'] or 'never'}",
            f"facts: {f['in_prompt']} in the prompt ({f['tokens']} tokens), {f['expired']} expired, "
            f"{f['stored']} stored in all, {f['rejected_compactions']} rejected compactions",
            f"model calls: {c['calls']}: {c['input_tokens']} input tokens, {c['cache_write_tokens']} "
            f"written to the cache, {c['cache_read_tokens']} read from it "
            f"({c['cache_read_share']:.0%} of all input), {c['output_tokens']} out; "
            f"{c['errors']} failed, {c['fallbacks']} answered by the offline writer",
            "texts refused by the output contract, by rule: "
            + (
                ", ".join(f"{kind} {n}" for kind, n in sorted(c["refused_by_rule"].items()))
                or "none"
            )
            + f"; {c['replaced_offline']} lines replaced by the offline voice",
            f"calls sent straight to the offline voice while the provider was down (circuit "
            f"open): {c['skipped_provider_down']}",
            f"estimated cost at {usage.PRICED_MODEL}'s published prices: ${c['cost_usd']:.2f} "
            f"(${c['cost_without_cache_usd']:.2f} without the cache), "
            f"${c['cost_per_match_usd']:.3f} per finished match",
            *warning,
        ]
    )


def calls_text(call: usage.CallRecord) -> str:
    """One recorded call for an operator: what it was, what it cost, what was sent and said."""
    about = f" #{call.match_number}" if call.match_number else ""
    cause = f", for event {call.event_id}" if call.event_id else ""
    cache = f", {call.cache_read_tokens} read from the cache" if call.cache_read_tokens else ""
    head = (
        f"call {call.id} [{call.at:%d %b %H:%M}] {call.task}{about}{cause}: "
        f"{call.provider} {call.model}, {call.input_tokens} tokens in{cache}, "
        f"{call.output_tokens} out, {call.latency_ms} ms; {call.outcome}"
    )
    searched = ["--- web search", call.sources] if call.sources else []
    return "\n".join([head, "--- prompt", call.prompt, *searched, "--- answer", call.response])
