"""Persistence behind the game's rules: schema, migrations, the log, read views."""
