"""The pool's terminal front end, played with any SSH client.

``frontend`` is what every connection shares; ``server`` authenticates keys
and admits sessions; ``session`` runs one channel (the prompt or one command);
``terminal`` turns raw channel input into keys for prompt_toolkit.
"""
