"""Results that arrive by themselves: sources behind one interface, polled with backoff.

A source fetches and applies; the pool decides what may change. A result an
admin entered always wins, a feed that fails leaves the last good state, and a
changed final score becomes a correction event.
"""
