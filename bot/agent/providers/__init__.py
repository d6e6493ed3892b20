"""Model providers behind one interface (``base.Model``), side by side, chosen by configuration.

``registry.PROVIDERS`` names every provider, how it is built and what it needs: a new
one is its module here and one entry there. ``offline`` (the default: no key, no
network) is ``bot.agent.providers.offline.OfflineModel``; ``anthropic`` uses the
official SDK; ``openai-compatible`` speaks the chat completions API over httpx to a
local server. After a provider's own retries, a failed call raises ``ModelError``; the
gateway (``bot.agent.gateway``) answers it with the offline writer and records both
(one fallback path), so the pool never waits on a model.
"""
