"""Model providers behind one interface (``base.Model``), side by side, chosen by configuration.

``offline`` (the default: no key, no network) is ``bot.agent.providers.offline.OfflineModel``;
``anthropic`` uses the official SDK; ``openai-compatible`` speaks the chat
completions API over httpx to a local server. After a provider's own retries, a
failed call raises ``ModelError``; the gateway (``bot.agent.gateway``) answers it
with the offline writer and records both (one fallback path), so the pool never waits on a model.
"""
