"""The commentator's memory: diary, player facts, working memory, context, bootstrap.

It reads the game's facts (the event log, the standings view) and never writes
game state. See docs/memory.md once the memory issue lands; until then this
package holds nothing but this promise of direction: ``bot -> memory -> game``.
"""
