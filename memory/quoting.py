"""Player text is data, never instruction: it reaches the model quoted and delimited."""

from __future__ import annotations


def _defused(text: str) -> str:
    # Angle brackets could close the delimiter and smuggle text outside it.
    return " ".join(text.replace("<", "&lt;").replace(">", "&gt;").split())


def quote_player_text(player: str, text: str) -> str:
    return f'<player_text author="{_defused(player)}">{_defused(text)}</player_text>'
