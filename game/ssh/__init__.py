"""The pool's terminal front end, played with any SSH client.

``commands`` is the one parser both modes share (interactive sessions and
``ssh host COMMAND``); ``server`` and ``session`` speak SSH through asyncssh
and draw the prompt with prompt_toolkit; ``hub`` carries live events to every
connected session; ``limits`` keeps one client from crowding out the others.
"""
