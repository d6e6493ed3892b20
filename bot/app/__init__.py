"""The application: the command line, its configuration, and how the parts are wired
for ``serve``, the demo, replays and simulations."""
