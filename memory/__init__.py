"""The commentator's memory: diary, player facts, working memory, context, bootstrap.

It reads the game's facts (the event log, the standings view) and never writes
game state; its own tables (``memory.schema``), reached only through
``memory.store.MemoryStore``, hold the diary, the facts with their history, and
every model call. ``MemoryKeeper`` reads the log once per event and hands it to
a shelf (``diary_shelf``, ``fact_shelf``); the shelves and ``context`` build what
a model is to be told, and an ``Asker`` (the agent's gateway) does the telling:
memory itself talks to no model. docs/memory.md tells how each shelf forgets on
purpose. Imports go one way: ``bot -> memory -> game``.
"""
