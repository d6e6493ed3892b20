"""Which brain she runs on, in which language, and how it is wired to the pool's log.

The providers, what each needs and the checks live in one registry
(``bot.agent.providers.registry``); this wires the chosen one for the application.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.agent.providers.registry import ConfigError, ModelConfig

if TYPE_CHECKING:
    from bot.agent.providers.base import Model
    from bot.agent.providers.usage import UsageSink

__all__ = ["ConfigError", "ModelConfig", "make_model"]


def make_model(config: ModelConfig, on_usage: UsageSink) -> Model:
    """The configured provider; ``on_usage`` hears what each request cost.

    A failed call is answered by the offline writer in one place, the agent's
    gateway (``bot.agent.gateway``), which also records it: there is no second
    fallback here.
    """
    provider = config.provider_checked()
    primary = provider.build(config, on_usage)
    if not provider.remote:
        return primary
    # The breaker (its base alone reaches the whole of memory) is loaded only by the
    # command that talks to a model: `betania standings` never pays for it.
    from bot.agent.providers.breaker import CircuitBreaker

    # A provider that is down is not asked again and again, each call waiting out retries;
    # a slow one (a local model given minutes) rests in proportion before it is probed.
    slow = config.slowness()
    return CircuitBreaker(primary, cooldown=30.0 * slow, longest=600.0 * slow)
