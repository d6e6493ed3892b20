"""Facts she no longer holds (or holds in confidence), kept out of every prompt by every path.

A withdrawn fact, or one a newer fact on its subject replaced, stays stored (and the
log stays as it was); what leaves is every sentence that still states it where a prompt
would quote it: her own remarks and replies, the live chat, the diary. A sentence that
states one is masked, not the whole text: the rest of a remark still tells her what not
to say again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import Connection

from memory import facts
from memory.facts import Fact

SENTENCE = re.compile(r"(?<=[.!?;])\s+")
WORD = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True)
class RetiredFacts:
    """The facts no longer held, each with the handle whose words count for nothing."""

    gone: tuple[Fact, ...]

    def states(self, sentence: str) -> bool:
        """Whether ``sentence`` says what a retired fact said ("you are allergic to
        peanuts" for "diego is allergic to peanuts"), as ``facts.keeps`` reads a merge."""
        return any(
            facts.keeps(fact.text.replace(fact.handle, " "), sentence, (fact.handle,))
            for fact in self.gone
        )

    def words(self) -> set[str]:
        """Every word the retired facts hold, lowercased: none is hers to say again."""
        return {w.lower() for fact in self.gone for w in WORD.findall(fact.text)}

    def masked(self, text: str, mark: str) -> str | None:
        """``text`` with each sentence stating a retired fact replaced by ``mark``; None
        when every sentence did (nothing of it is worth quoting)."""
        if not self.gone:
            return text
        sentences = SENTENCE.split(text)
        kept = [mark if self.states(s) else s for s in sentences]
        if all(s == mark for s in kept):
            return None
        return " ".join(kept)


def retired(connection: Connection) -> RetiredFacts:
    """Every withdrawn or replaced fact, and those a withdrawn merge stood for; none that
    a current fact still says (told again since, it is held again); and every private one."""
    stored = facts.stored(connection)
    current = [f for f in stored if f.superseded_by is None and f.withdrawn_on is None]
    withdrawn = {f.id for f in stored if f.withdrawn_on is not None}
    gone = [
        f
        for f in stored
        if f.id in withdrawn
        or f.replaced_on is not None
        or (f.superseded_by in withdrawn and f.withdrawn_on is None)
    ]
    still = [
        f
        for f in gone
        if not any(
            c.handle == f.handle and facts.keeps(f.text, c.text, (f.handle,)) for c in current
        )
    ]
    # A private fact is held, and still no prompt quotes it: her reply to its owner said
    # it in the open chat, and a remark about someone else must not say it again.
    private = [f for f in current if f.private]
    return RetiredFacts(tuple(still + private))
