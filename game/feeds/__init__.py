"""Results that arrive by themselves: sources behind one interface, polled with backoff.

A source fetches and applies; the pool decides what may change. A result an
admin entered always wins, a feed that fails leaves the last good state, and a
changed final score becomes a correction event.
"""

# Here, not in ``football_data``, so the settings can name it without loading an HTTP
# client: `betania standings` reads the settings and needs none.
FOOTBALL_DATA_URL = "https://api.football-data.org"
