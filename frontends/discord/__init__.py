"""The Discord companion: slash commands in (``interactions``), the pool's news out
(``poster``), both over Discord's HTTP API (``api``), on the pool's log and commands."""

# Here, not in ``api``, so the settings can name it without loading an HTTP client:
# `betania standings` reads the settings and needs none.
DISCORD_API_URL = "https://discord.com/api/v10"
