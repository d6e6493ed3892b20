"""Player text is data, never instruction: it reaches the model quoted and delimited.

``quote_player_text`` is the one way a player's words enter a prompt. What she
wrote herself (remarks, diary entries) can echo a player's words, so it enters
``inert``: no angle bracket survives to open or close a delimiter.
"""

from __future__ import annotations


def inert(text: str) -> str:
    """``text`` on one line, with no angle bracket that could close a delimiter."""
    return " ".join(text.replace("<", "&lt;").replace(">", "&gt;").split())


def quote_player_text(player: str, text: str, about: str | None = None) -> str:
    """``text`` as ``player`` wrote it; ``about`` names whom it is about, when that matters."""
    subject = f' about="{inert(about)}"' if about is not None else ""
    return f'<player_text author="{inert(player)}"{subject}>{inert(text)}</player_text>'
