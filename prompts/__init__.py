"""The immutable layer: the persona and every prompt template, kept as text files.

Nothing here is built by code; a template is read as written, so the stable
prefix of every model call is byte-identical from call to call.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from string import Template


@cache
def load(name: str) -> str:
    """The text of ``prompts/<name>.txt``, exactly as stored."""
    return resources.files(__name__).joinpath(f"{name}.txt").read_text(encoding="utf-8")


def render(name: str, **values: object) -> str:
    """Fill ``$placeholders`` in a template; a missing value is an error, not a blank."""
    return Template(load(name)).substitute({key: str(value) for key, value in values.items()})
