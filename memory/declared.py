"""Claims a model declares beside its text, checked exactly against the log.

The grammar of ``memory.claims`` reads a line and guesses whose each number is: the
nearest name before it, "you" the player she speaks to, a gap when "clear" or
"behind" is near. A capable model knows whose number it writes; asked for
structured output (``SCHEMA``: the text and its claims), it says so, and this
module checks each claim exactly, with its moment:

- ``total``: ``who``'s points in the table (after match ``after_match``, else now);
- ``gap``: the difference between ``who``'s total and ``other``'s (``other`` null:
  the leader, or the second when ``who`` leads);
- ``match_points``: what ``who``'s pick earned on match ``match``;
- ``exact_count``: how many exact scores ``who`` called (by the moment);
- ``first_points``: match ``match`` was the first that gave ``who`` points;
- ``scoring_run``: ``who`` scored on each of their last ``value`` picked matches (up to
  ``match``, else the last finished), ``blank_run`` the same without a point;
- ``leader``: ``who`` is at the top of the table (at the moment);
- ``result``: match ``match`` ended ``score`` (or, in play, stands at it);
- ``pick``: ``who`` picked ``score`` for match ``match`` (told only once it kicked off,
  unless the pick is her own or theirs whom the text answers by name).

A true claim vouches for its figure: the grammar does not guess whose it is
(``memory.contract``). A false one refuses the line with the claim and the truth.
What a model does not declare, the grammar reads as before.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from game.model import Score
from game.pool import Pool
from game.scoring import scored_score
from game.standings import StandingRow, played_by, top_of
from memory.claims import Records
from prompts import load

KINDS = (
    "total", "gap", "match_points", "exact_count", "first_points", "scoring_run",
    "blank_run", "leader", "result", "pick",
)  # fmt: skip
FIELDS = ("who", "other", "value", "score", "match", "after_match")


def _nullable(kind: str) -> dict[str, Any]:
    return {"type": [kind, "null"]}


SCHEMA: dict[str, Any] = {
    "type": "object",
    # what to declare, said where a provider caches it (a tool's schema, before the
    # context): prompts/declare.txt
    "description": load("declare").strip(),
    "properties": {
        "text": {"type": "string"},
        "claims": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "kind": {"type": "string", "enum": list(KINDS)},
                    "who": _nullable("string"),
                    "other": _nullable("string"),
                    "value": _nullable("integer"),
                    "score": _nullable("string"),
                    "match": _nullable("integer"),
                    "after_match": _nullable("integer"),
                },
                "required": ["kind", *FIELDS],
                "additionalProperties": False,
            },
        },
    },
    "required": ["text", "claims"],
    "additionalProperties": False,
}


@dataclass(frozen=True)
class Declared:
    """One claim a text makes, as its writer declared it."""

    kind: str
    who: str | None = None
    other: str | None = None
    value: int | None = None
    score: str | None = None
    match: int | None = None
    after_match: int | None = None  # the moment: the table after this match; None, now

    def __str__(self) -> str:
        said = [self.kind] + [
            f"{f}={getattr(self, f)}" for f in FIELDS if getattr(self, f) is not None
        ]
        return " ".join(said)


@dataclass(frozen=True)
class Declaration:
    """A model's answer read as a text and the claims it declares."""

    text: str
    claims: tuple[Declared, ...] = ()


def parse(answer: str) -> Declaration:
    """``answer`` as a declaration: its "text" and "claims" when it is the JSON asked for,
    else all of it as the text with nothing declared (a model that wrote plain text, the
    offline voice). A claim of an unknown kind or shape is dropped, not trusted."""
    try:
        raw = json.loads(answer)
    except ValueError:
        return Declaration(answer)
    if not isinstance(raw, dict) or not isinstance(raw.get("text"), str):
        return Declaration(answer)
    claims = []
    for item in raw.get("claims") or []:
        claim = _claim(item)
        if claim is not None:
            claims.append(claim)
    return Declaration(raw["text"].strip(), tuple(claims))


def _claim(item: Any) -> Declared | None:
    if not isinstance(item, dict) or item.get("kind") not in KINDS:
        return None
    values: dict[str, Any] = {}
    for name in FIELDS:
        value: Any = item.get(name)
        if value is None:
            continue
        if name in ("value", "match", "after_match"):
            if isinstance(value, str) and value.strip().lstrip("#").isdigit():
                value = int(value.strip().lstrip("#"))  # "#12", "12": a number all the same
            if not isinstance(value, int) or isinstance(value, bool):
                return None
        elif not isinstance(value, str):
            return None
        elif name in ("who", "other"):
            value = value.strip().lstrip("@").lower()
        values[name] = value
    return Declared(item["kind"], **values)


def vouched(claims: tuple[Declared, ...]) -> frozenset[int]:
    """The figures true claims stand for: the grammar leaves these to them."""
    return frozenset(c.value for c in claims if c.value is not None)


class DeclaredCheck:
    """Checks declared claims against the pool's log, one text's worth at a time."""

    def __init__(self, pool: Pool, her: str) -> None:
        self.pool = pool
        self.her = her

    def falsehood(
        self, claims: tuple[Declared, ...], records: Records, spoken_to: str = ""
    ) -> str | None:
        """The first false claim, named with the truth ("total who=fabio value=54: fabio
        has 52"), or None when every claim is true; read against ``records`` (now's).
        ``spoken_to``: the player the text answers by name, whose own pick may be told
        them before kick-off, as her answers do."""
        for claim in claims:
            reason = self._false(claim, records, spoken_to)
            if reason is not None:
                return f"{claim}: {reason}"
        return None

    def _false(self, claim: Declared, records: Records, spoken_to: str = "") -> str | None:
        players, matches = set(records.players), records.matches
        for name in (claim.who, claim.other):
            if name is not None and name not in players:
                return f"{name} is no player of this pool"
        for number in (claim.match, claim.after_match):
            if number is not None and number not in matches:
                return f"#{number} is no match of this pool"
        if claim.kind == "pick":
            return self._pick(claim, records, spoken_to)
        check = getattr(self, f"_{claim.kind}")
        reason: str | None = check(claim, records)
        return reason

    # -- the table at a moment --------------------------------------------------------

    def _tables(self, after: int | None) -> list[list[StandingRow]]:
        """The table after match ``after``; now, the final table and, with a match in play,
        the live table every screen shows: a claim true of either is true."""
        if after is not None:
            return [self.pool.standings(up_to_match=after)]
        screen = self.pool.live_table()
        return [self.pool.standings()] + ([screen.rows] if screen.in_play else [])

    def _totals(self, after: int | None) -> list[dict[str, int]]:
        return [{row.player: row.points for row in rows} for rows in self._tables(after)]

    def _record(self, who: str, records: Records, up_to: int | None) -> list[tuple[int, int, bool]]:
        """``who``'s finished picked matches in time order, with points and exactness,
        up to match ``up_to`` (by kick-off) when given."""
        rows, matches = records.record.get(who, []), records.matches
        counted = (
            played_by({n: m.kickoff for n, m in matches.items()}, up_to, inclusive=True)
            if up_to is not None
            else set(matches)
        )
        return [r for r in rows if r[0] in counted]  # in time order already

    def _total(self, claim: Declared, records: Records) -> str | None:
        has = [totals.get(claim.who or "", 0) for totals in self._totals(claim.after_match)]
        return None if claim.value in has else f"{claim.who} has {has[0]}"

    def _gap(self, claim: Declared, records: Records) -> str | None:
        wrong = [self._gap_in(claim, totals) for totals in self._totals(claim.after_match)]
        return None if None in wrong else wrong[0]

    @staticmethod
    def _gap_in(claim: Declared, totals: dict[str, int]) -> str | None:
        who = claim.who or ""
        other = claim.other
        if other is None:  # the one that matters: the leader, or the second to a leader
            ranked = sorted(totals, key=lambda h: -totals[h])
            if len(ranked) < 2:
                return "no two players in the table yet"
            other = ranked[1] if ranked[0] == who else ranked[0]
        gap = abs(totals.get(who, 0) - totals.get(other, 0))
        return None if gap == claim.value else f"{who} and {other} are {gap} apart"

    def _match_points(self, claim: Declared, records: Records) -> str | None:
        earned = {n: p for n, p, _ in self._record(claim.who or "", records, None)}
        if claim.match not in earned:
            return f"{claim.who} has no finished pick on #{claim.match}"
        has = earned[claim.match]
        return None if has == claim.value else f"{claim.who} got {has} on #{claim.match}"

    def _exact_count(self, claim: Declared, records: Records) -> str | None:
        exact = sum(1 for _, _, e in self._record(claim.who or "", records, claim.after_match) if e)
        return None if exact == claim.value else f"{claim.who} has {exact} exact"

    def _first_points(self, claim: Declared, records: Records) -> str | None:
        scored = [n for n, p, _ in self._record(claim.who or "", records, None) if p > 0]
        first = scored[0] if scored else None
        if first == claim.match:
            return None
        return (
            f"{claim.who}'s first points came on #{first}" if first else f"{claim.who} never scored"
        )

    def _run(self, claim: Declared, records: Records, scoring: bool) -> str | None:
        # (up to the match named, else the moment: "three straight blanks" after #3)
        up_to = claim.match if claim.match is not None else claim.after_match
        played = self._record(claim.who or "", records, up_to)
        run = 0
        for _, points, _ in reversed(played):
            if (points > 0) != scoring:
                break
            run += 1
        what = "scoring" if scoring else "blank"
        return None if run == claim.value else f"{claim.who}'s {what} run is {run}"

    def _scoring_run(self, claim: Declared, records: Records) -> str | None:
        return self._run(claim, records, scoring=True)

    def _blank_run(self, claim: Declared, records: Records) -> str | None:
        return self._run(claim, records, scoring=False)

    def _leader(self, claim: Declared, records: Records) -> str | None:
        tops = [top_of(rows) for rows in self._tables(claim.after_match)]
        if any(claim.who in leaders for leaders in tops):
            return None
        return f"the top is {', '.join(tops[0]) or 'nobody yet'}"

    def _result(self, claim: Declared, records: Records) -> str | None:
        match = records.matches.get(claim.match or 0)
        if match is not None and match.result is None and match.status.value == "live":
            # a match in play: its score as it stands ("Argentina 1-0 Australia" on 35')
            now = match.score_at()
            return None if _score(claim.score) == now else f"#{match.number} stands {now}"
        if match is None or match.result is None:
            return f"#{claim.match} has no result"
        _, basis = self.pool.scoring()
        said = _score(claim.score)
        if said is not None and said in (match.result.full_time, scored_score(match.result, basis)):
            return None
        return f"#{match.number} ended {match.result}"

    def _pick(self, claim: Declared, records: Records, spoken_to: str = "") -> str | None:
        match = records.matches.get(claim.match or 0)
        if match is None:
            return "no match named"
        told_before = (self.her, spoken_to)  # hers, and theirs to the one she answers
        if claim.who not in told_before and not match.has_started(self.pool.clock()):
            return f"#{match.number}'s picks are hidden until kick-off"
        picked = {p.handle: p.score for p in self.pool.predictions_on(match.number)}
        said = _score(claim.score)
        if said is not None and picked.get(claim.who or "") == said:
            return None
        has = picked.get(claim.who or "")
        return (
            f"{claim.who} picked {has} for #{match.number}" if has else f"{claim.who} has no pick"
        )


def _score(said: str | None) -> Score | None:
    try:
        return Score.parse(said.replace(" ", "").replace("x", "-")) if said else None
    except ValueError:
        return None
