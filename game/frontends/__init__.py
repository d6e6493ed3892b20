"""The wing where players come in: every front end, beside each other, below nothing.

``commands`` is the one parser every front end uses, so a command means the
same everywhere; ``limits`` keeps one player from crowding out the others;
``hub`` follows the log and turns live events into one-line notices;
``waiting`` keeps an event loop from ever waiting on the database. ``ssh`` is
the terminal front end; a new front end is a sibling package that builds on
these four and nothing above them.
"""
