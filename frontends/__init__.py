"""Where players come in: every front end, beside each other, above the domain.

The front ends import ``game`` and nothing above it; only the application
(``bot.app``, which wires the pool, the agent and the front ends together)
imports them.

``commands`` is the one parser every front end uses, so a command means the
same everywhere; ``limits`` keeps one player from crowding out the others;
``hub`` follows the log and turns live events into one-line notices. ``ssh``,
``discord`` and ``scoreboard`` are the front ends; a new front end is a sibling
package that builds on these and nothing above them.
"""
