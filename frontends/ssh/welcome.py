"""What a player reads as they arrive: the next match, and the picks about to close."""

from __future__ import annotations

from frontends.commands import Caller
from frontends.ssh.frontend import Frontend
from game.reminders import LOGIN_WINDOW


def welcome(frontend: Frontend, caller: Caller) -> str:
    words = frontend.words
    lines = [
        words("Welcome to the pool, {handle}! Type help for the commands.", handle=caller.handle)
    ]
    nxt = frontend.pool.next_match()
    if nxt is not None:
        lines.append(
            words(
                "Next: #{number} {match}, {when} ({zone}).",
                number=nxt.number,
                match=f"{nxt.team1} v {nxt.team2}",
                when=words.when(nxt.kickoff, caller.zone),
                zone=caller.zone,
            )
        )
    lines.extend(reminders(frontend, caller))
    return "\n".join(lines)


def reminders(frontend: Frontend, caller: Caller) -> list[str]:
    """The matches closing within a day without the caller's pick, in their zone;
    nothing when they have picked them all or turned reminders off."""
    closing = frontend.pool.members.closing_unpicked(caller.handle)
    if not closing:
        return []
    words = frontend.words
    shown = ", ".join(f"{m.label} ({words.when(m.kickoff, caller.zone)})" for m in closing)
    return [
        words(
            "No pick yet, closing within {hours} hours ({zone}): {matches}. "
            "bet N 2-1 picks; remind off stops these",
            hours=round(LOGIN_WINDOW.total_seconds() / 3600),
            zone=caller.zone,
            matches=shown,
        )
    ]
