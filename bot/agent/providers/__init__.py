"""Model providers behind one interface (``memory.model.Model``), chosen by configuration.

``offline`` (the default: no key, no network) is ``memory.offline.OfflineModel``;
``anthropic`` uses the official SDK; ``openai-compatible`` speaks the chat
completions API over httpx to a local server. Every real provider is wrapped in
``Resilient``: after its own retries, a failed call is logged and answered by
the offline writer, so the pool never waits on a model.
"""
