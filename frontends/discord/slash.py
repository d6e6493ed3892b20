"""The slash commands: what ``betania discord commands`` registers, and each as a pool line.

A slash command becomes the line a player would type over SSH, and that line
goes through the one command parser: ``/bet match:3 score:2-1`` is ``bet 3 2-1``,
with the same limits and the same one-line errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from frontends.commands import CommandError
from game.addressing import Addressee
from game.bonus import NAME_LONGEST

STRING, INTEGER = 3, 4  # application command option types
CHAT_INPUT = 1  # a command typed in the chat box
ASK_LONGEST = 500  # characters in a question to her
SCORE_LONGEST = 20


def _option(
    name: str,
    kind: int,
    description: str,
    required: bool = True,
    bounds: dict[str, int] | None = None,
) -> dict[str, Any]:
    return {
        "name": name,
        "type": kind,
        "description": description,
        "required": required,
        **(bounds or {}),
    }


MATCH_NUMBER: dict[str, int] = {"min_value": 1, "max_value": 10_000}
COMMANDS: list[dict[str, Any]] = [
    {
        "name": "bet",
        "description": "Predict a match's score (until kick-off)",
        "options": [
            _option("match", INTEGER, "The match number, as in /matches", bounds=MATCH_NUMBER),
            _option("score", STRING, "Home-away, like 2-1", bounds={"max_length": SCORE_LONGEST}),
        ],
    },
    {
        "name": "joker",
        "description": "Your pick on a match counts double (a few per stage, until kick-off)",
        "options": [_option("match", INTEGER, "The match number", bounds=MATCH_NUMBER)],
    },
    {
        "name": "bonus",
        "description": "Bonus picks (champion, top scorer) until the first kick-off; all: /bonus",
        "options": [
            {
                **_option("kind", STRING, "What you pick", required=False),
                "choices": [{"name": k, "value": k} for k in ("champion", "scorer")],
            },
            _option("name", STRING, "The team or the player", False, {"max_length": NAME_LONGEST}),
        ],
    },
    {"name": "matches", "description": "Upcoming, live and finished matches, with your picks"},
    {"name": "mybets", "description": "Your picks and their points"},
    {
        "name": "standings",
        "description": "The table, computed now (live while a match is on)",
        "options": [
            _option(
                "after",
                INTEGER,
                "The table as it stood after match N",
                required=False,
                bounds=MATCH_NUMBER,
            ),
            _option(
                "day",
                STRING,
                "The points scored on a day (2026-06-14) and who won it",
                False,
                {"max_length": 10},
            ),
            _option(
                "round",
                INTEGER,
                "The points scored in round N and who won it",
                False,
                MATCH_NUMBER,
            ),
        ],
    },
    {
        "name": "match",
        "description": "One match: goals, and everyone's picks once it kicks off",
        "options": [_option("number", INTEGER, "The match number", bounds=MATCH_NUMBER)],
    },
    {
        "name": "ask",
        "description": "Ask the commentator something",
        "options": [_option("text", STRING, "Your question", bounds={"max_length": ASK_LONGEST})],
    },
    {
        "name": "link",
        "description": "Play as your pool handle: the code from 'link discord' over SSH",
        "options": [_option("code", STRING, "The one-time code", bounds={"max_length": 20})],
    },
    {"name": "unlink", "description": "Stop playing as your pool handle from this account"},
    {
        "name": "remind",
        "description": "Reminders of matches closing without your pick: on, off, or how they are",
        "options": [
            {
                **_option("state", STRING, "on or off", required=False),
                "choices": [{"name": "on", "value": "on"}, {"name": "off", "value": "off"}],
            }
        ],
    },
]
for _command in COMMANDS:
    _command["type"] = CHAT_INPUT
OPTIONS = {c["name"]: {o["name"]: o["type"] for o in c.get("options", [])} for c in COMMANDS}
REQUIRED = {c["name"]: {o["name"] for o in c.get("options", []) if o["required"]} for c in COMMANDS}


def options_of(name: str, given: object) -> dict[str, str | int]:
    """The options of command ``name`` as sent, checked against what was registered."""
    if name not in OPTIONS:
        raise CommandError("unknown command {name!r}", name=name)
    found: dict[str, str | int] = {}
    for option in given if isinstance(given, list) else []:
        key = option.get("name") if isinstance(option, dict) else None
        kind = OPTIONS[name].get(str(key))
        value = option.get("value") if isinstance(option, dict) else None
        if kind is None:
            raise CommandError("unknown option {option!r}", option=str(key))
        if (kind == INTEGER and (type(value) is not int)) or (
            kind == STRING and not isinstance(value, str)
        ):
            raise CommandError("bad value for {option!r}", option=str(key))
        found[str(key)] = value  # type: ignore[assignment]  # checked just above
    missing = REQUIRED[name] - found.keys()
    if missing:
        raise CommandError("missing option {option!r}", option=sorted(missing)[0])
    return found


def line_for(name: str, options: Mapping[str, str | int], addressee: Addressee) -> str:
    """The line a player would type over SSH for ``/name options``."""
    if name == "bet":
        return f"bet {options['match']} {options['score']}"
    if name == "joker":
        return f"joker {options['match']}"
    if name == "bonus":  # one of kind and name without the other: the usage, told
        return f"bonus {options.get('kind', '')} {options.get('name', '')}".rstrip()
    if name == "standings":
        if "day" in options:
            return f"standings day {options['day']}"
        if "round" in options:
            return f"standings round {options['round']}"
        return f"standings after {options['after']}" if "after" in options else "standings"
    if name == "match":
        return f"match {options['number']}"
    if name == "ask":
        return f"{addressee.mention} {options['text']}"
    if name == "unlink":
        return "unlink discord"
    if name == "remind":
        return f"remind {options['state']}" if "state" in options else "remind"
    return name
