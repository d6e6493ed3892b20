"""The commentator agent and the application: the command line that wires the pool together."""
