"""Which brain she runs on, in which language, and how it is wired to the pool's log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.errors import UserError
from game.words import LANGUAGES

if TYPE_CHECKING:
    from bot.agent.providers.base import Model
    from bot.agent.providers.usage import UsageSink

PROVIDERS = ("auto", "offline", "anthropic", "openai-compatible")


class ConfigError(UserError, ValueError):
    """A setting that cannot work; the message says which and why."""


@dataclass(frozen=True)
class ModelConfig:
    provider: str = "auto"  # auto: anthropic when there is an API key, else offline
    model: str | None = None
    base_url: str | None = None
    api_key: str | None = None
    language: str = "en"
    timeout: float = 30.0
    max_retries: int = 3
    seed: int = 0
    web_search: bool = False  # her picks may search the web for team news (anthropic only)
    searches_per_pick: int = 3
    searches_per_day: int = 20

    def slowness(self) -> float:
        """How much longer than the default 30 s a call may take: the breaker's cool-down
        and the retries' waits are scaled by it, never below their defaults."""
        return max(1.0, self.timeout / 30.0)

    def chosen(self) -> str:
        if self.provider not in PROVIDERS:
            raise ConfigError(f"unknown provider {self.provider!r} (one of {', '.join(PROVIDERS)})")
        if self.language not in LANGUAGES:
            raise ConfigError(f"unknown language {self.language!r} (one of {', '.join(LANGUAGES)})")
        if self.provider == "auto":
            return "anthropic" if self.api_key else "offline"
        return self.provider


def make_model(config: ModelConfig, on_usage: UsageSink) -> Model:
    """The configured provider; ``on_usage`` hears what each request cost.

    A failed call is answered by the offline writer in one place, the agent's
    gateway (``bot.agent.gateway``), which also records it: there is no second
    fallback here.
    """
    # The providers (their base alone reaches the whole of memory, and anthropic's SDK
    # takes seconds to import) are loaded only by the command that talks to one: the
    # command line reads this module for its settings, and `betania standings` never
    # pays for them.
    from bot.agent.providers.breaker import CircuitBreaker
    from bot.agent.providers.offline import OfflineModel
    from bot.agent.providers.web_search import WebSearch

    provider = config.chosen()
    if provider == "offline":
        return OfflineModel(seed=config.seed, language=config.language)
    if provider == "anthropic":
        from bot.agent.providers.anthropic_model import DEFAULT_MODEL, AnthropicModel

        primary: Model = AnthropicModel(
            config.model or DEFAULT_MODEL,
            api_key=config.api_key,
            base_url=config.base_url,
            timeout=config.timeout,
            max_retries=config.max_retries,
            on_usage=on_usage,
            web_search=WebSearch(config.searches_per_pick, config.searches_per_day)
            if config.web_search
            else None,
        )
    else:
        if config.web_search:
            raise ConfigError("--web-search needs the anthropic provider (its server tool)")
        if not config.base_url or not config.model:
            raise ConfigError("the openai-compatible provider needs --base-url and --model")
        from bot.agent.providers.openai_compatible import OpenAICompatibleModel

        primary = OpenAICompatibleModel(
            config.base_url,
            config.model,
            api_key=config.api_key,
            timeout=config.timeout,
            max_retries=config.max_retries,
            backoff=0.5 * config.slowness(),
            on_usage=on_usage,
        )
    # A provider that is down is not asked again and again, each call waiting out retries;
    # a slow one (a local model given minutes) rests in proportion before it is probed.
    slow = config.slowness()
    return CircuitBreaker(primary, cooldown=30.0 * slow, longest=600.0 * slow)
