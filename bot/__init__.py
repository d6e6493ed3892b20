"""The commentator agent (``bot.agent``) and the application that wires the pool together
(``bot.app``)."""
