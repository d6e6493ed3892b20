"""BETanIA the agent: she picks, comments and answers, through the game's own API.

``commentator`` reacts to the log, ``predictor`` rates teams for her picks,
``scheduler`` drives her on a clock, ``providers`` are the language models she
can speak through.
"""
