"""A time zone as a person names it: ``America/Sao_Paulo``, or nothing."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def time_zone(name: str) -> ZoneInfo | None:
    """The zone ``name`` names, or None for anything else: an unknown name, a path, or
    a folder of the zone database ("America" raised IsADirectoryError, a traceback
    per call)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None
