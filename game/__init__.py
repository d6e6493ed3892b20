"""The pool itself: tournament, matches, predictions, scoring, standings, the event log.

Knows nothing of the commentator. The modules at the top level are plain rules
that tests drive without a database; ``game.db`` is the persistence behind them
and ``game.pool`` the one way in that writes.
"""
