"""The Discord companion: slash commands in (``interactions``), the pool's news out
(``poster``), both over Discord's HTTP API (``api``), on the pool's log and commands."""
