"""The slash commands: what ``betania discord commands`` registers, and each as a pool line.

Each is made from the one command table (``frontends.commands.SPECS``): its name,
description and options, and the line a player would type over SSH, which goes
through the one command parser: ``/bet match:3 score:2-1`` is ``bet 3 2-1``, with
the same limits and the same one-line errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from frontends.commands import SPECS, CommandError, Option, Slash
from game.addressing import Addressee

STRING, INTEGER = 3, 4  # application command option types
KINDS = {str: STRING, int: INTEGER}
CHAT_INPUT = 1  # a command typed in the chat box

# Discord's name: the Slash's own, else the command's; and the command's name, for the line.
SLASHES: dict[str, tuple[str, Slash]] = {
    spec.slash.name or spec.names[0]: (spec.names[0], spec.slash) for spec in SPECS if spec.slash
}


def _registered(option: Option) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "name": option.name,
        "type": KINDS[option.kind],
        "description": option.description,
        "required": option.required,
    }
    if option.least is not None:
        shown["min_value"] = option.least
    if option.most is not None:
        shown["max_value" if option.kind is int else "max_length"] = option.most
    if option.choices:
        shown["choices"] = [{"name": choice, "value": choice} for choice in option.choices]
    return shown


def _command(name: str, slash: Slash) -> dict[str, Any]:
    options = {"options": [_registered(o) for o in slash.options]} if slash.options else {}
    return {"name": name, "description": slash.description, **options, "type": CHAT_INPUT}


COMMANDS: list[dict[str, Any]] = [_command(name, slash) for name, (_, slash) in SLASHES.items()]


def slash_of(name: str) -> Slash:
    """The registered slash command ``name``; a ``CommandError`` if there is none."""
    if name not in SLASHES:
        raise CommandError("unknown command {name!r}", name=name)
    return SLASHES[name][1]


def options_of(name: str, given: object) -> dict[str, str | int]:
    """The options of command ``name`` as sent, checked against what was registered."""
    known = {option.name: option for option in slash_of(name).options}
    found: dict[str, str | int] = {}
    for sent in given if isinstance(given, list) else []:
        key = sent.get("name") if isinstance(sent, dict) else None
        option = known.get(str(key))
        value = sent.get("value") if isinstance(sent, dict) else None
        if option is None:
            raise CommandError("unknown option {option!r}", option=str(key))
        if type(value) is not option.kind:  # a bool is no number here
            raise CommandError("bad value for {option!r}", option=str(key))
        found[str(key)] = value
    missing = {o.name for o in known.values() if o.required} - found.keys()
    if missing:
        raise CommandError("missing option {option!r}", option=sorted(missing)[0])
    return found


def line_for(name: str, options: Mapping[str, str | int], addressee: Addressee) -> str:
    """The line a player would type over SSH for ``/name options``."""
    command, slash = SLASHES[name]
    words = [slash.starts.format(command=command, mention=addressee.mention)]
    for option in slash.options:
        if option.name in options:
            words += [word for word in (option.word, str(options[option.name])) if word]
    return " ".join(words)
