"""Player text is data, never instruction: it reaches the model quoted and delimited."""

from __future__ import annotations


def _defused(text: str) -> str:
    # Angle brackets could close the delimiter and smuggle text outside it.
    return " ".join(text.replace("<", "&lt;").replace(">", "&gt;").split())


def quote_player_text(player: str, text: str, about: str | None = None) -> str:
    """``text`` as ``player`` wrote it; ``about`` names whom it is about, when that matters."""
    subject = f' about="{_defused(about)}"' if about is not None else ""
    return f'<player_text author="{_defused(player)}"{subject}>{_defused(text)}</player_text>'
