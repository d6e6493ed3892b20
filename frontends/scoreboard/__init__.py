"""The office scoreboard: a read-only page of the pool for a TV, updated live."""
