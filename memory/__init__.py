"""The commentator's memory: diary, player facts, working memory, context, bootstrap.

It reads the game's facts (the event log, the standings view) and never writes
game state; its own tables (``memory.schema``) hold the diary, the facts with
their history, and every model call. docs/memory.md tells how each shelf
forgets on purpose. Imports go one way: ``bot -> memory -> game``.
"""
