"""The model providers she can run on, by name: one entry each, read by the whole application.

A provider is its module here (a ``base.Model``) and one ``Provider`` in ``PROVIDERS``:
how it is built, the environment variable of its API key (and of its URL), what it
cannot run without and whether her picks may search the web through it. The command
line's ``--provider`` choices and help, the settings' choice of variables, the checks
below and ``bot.app.config.make_model`` all read ``PROVIDERS``; none of them names a
provider.

Each ``build`` imports its provider when it is called: the command line reads this
module for its choices, and ``betania --version`` never loads an SDK (tests/test_cli.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.errors import UserError
from game.words import LANGUAGES

if TYPE_CHECKING:
    from bot.agent.providers.base import Model
    from bot.agent.providers.usage import UsageSink

AUTO = "auto"  # not a provider: the keyed one when its key is set, else the keyless one
AUTO_KEYED, AUTO_KEYLESS = "anthropic", "offline"


class ConfigError(UserError, ValueError):
    """A setting that cannot work; the message says which and why."""


@dataclass(frozen=True)
class ModelConfig:
    provider: str = AUTO
    model: str | None = None
    base_url: str | None = None
    api_key: str | None = None
    language: str = "en"
    timeout: float = 30.0
    max_retries: int = 3
    seed: int = 0
    web_search: bool = False  # her picks may search the web for team news (a server tool)
    searches_per_pick: int = 3
    searches_per_day: int = 20
    # who reads a line to her: "model" (one structured call, memory.hearing), "grammar"
    # (the rules), or "auto": the model for anthropic's, the rules for any other
    hearing: str = AUTO
    # whether her texts come with the claims they make (memory.declared): "declared", "grammar"
    # (her lines read by the rules alone), or "auto": declared for anthropic's, not for any
    # other (a small local model writes better text than JSON)
    claims: str = AUTO

    def model_hears(self) -> bool:
        chosen = self.chosen()
        if self.hearing == AUTO:
            return chosen == AUTO_KEYED
        return self.hearing == "model" and PROVIDERS[chosen].remote

    def declares_claims(self) -> bool:
        chosen = self.chosen()
        if self.claims == AUTO:
            return chosen == AUTO_KEYED
        return self.claims == "declared" and PROVIDERS[chosen].remote

    def slowness(self) -> float:
        """How much longer than the default 30 s a call may take: the breaker's cool-down
        and the retries' waits are scaled by it, never below their defaults."""
        return max(1.0, self.timeout / 30.0)

    def chosen(self) -> str:
        if self.provider != AUTO and self.provider not in PROVIDERS:
            choices = ", ".join(provider_choices())
            raise ConfigError(f"unknown provider {self.provider!r} (one of {choices})")
        if self.language not in LANGUAGES:
            raise ConfigError(f"unknown language {self.language!r} (one of {', '.join(LANGUAGES)})")
        if self.provider == AUTO:
            return AUTO_KEYED if self.api_key else AUTO_KEYLESS
        return self.provider

    def provider_checked(self) -> Provider:
        """The chosen provider, once it has what it needs; a ``ConfigError`` says what not."""
        provider = PROVIDERS[self.chosen()]
        # The offline voice consults nothing, so it refuses no option (and `auto` without a
        # key lands on it whatever else was asked for).
        if not provider.remote:
            return provider
        if self.web_search and not provider.web_search:
            able = " or the ".join(p.name for p in PROVIDERS.values() if p.web_search)
            raise ConfigError(f"--web-search needs the {able} provider (its server tool)")
        if any(not getattr(self, need) for need in provider.needs):
            flags = " and ".join(f"--{need.replace('_', '-')}" for need in provider.needs)
            raise ConfigError(f"the {provider.name} provider needs {flags}")
        return provider


@dataclass(frozen=True)
class Provider:
    name: str
    build: Callable[[ModelConfig, UsageSink], Model]  # imports the provider when called
    key_variable: str | None = None  # the environment variable holding its API key
    url_variable: str | None = None  # the environment variable holding its URL (--base-url wins)
    needs: tuple[str, ...] = ()  # ModelConfig fields it cannot run without, given as flags
    web_search: bool = False  # her picks may search the web through it (a server tool)
    remote: bool = True  # a call may fail or hang: the circuit breaker guards it


def _offline(config: ModelConfig, on_usage: UsageSink) -> Model:
    from bot.agent.providers.offline import OfflineModel

    return OfflineModel(seed=config.seed, language=config.language)


def _anthropic(config: ModelConfig, on_usage: UsageSink) -> Model:
    from bot.agent.providers.anthropic_model import DEFAULT_MODEL, AnthropicModel
    from bot.agent.providers.web_search import WebSearch

    return AnthropicModel(
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


def _openai_compatible(config: ModelConfig, on_usage: UsageSink) -> Model:
    from bot.agent.providers.openai_compatible import OpenAICompatibleModel

    assert config.base_url and config.model  # provider_checked refused it without them
    return OpenAICompatibleModel(
        config.base_url,
        config.model,
        api_key=config.api_key,
        timeout=config.timeout,
        max_retries=config.max_retries,
        backoff=0.5 * config.slowness(),
        on_usage=on_usage,
    )


PROVIDERS: dict[str, Provider] = {
    provider.name: provider
    for provider in (
        Provider("offline", _offline, remote=False),
        Provider(
            "anthropic",
            _anthropic,
            key_variable="ANTHROPIC_API_KEY",
            url_variable="ANTHROPIC_BASE_URL",
            web_search=True,
        ),
        Provider(
            "openai-compatible",
            _openai_compatible,
            key_variable="BETANIA_MODEL_API_KEY",
            needs=("base_url", "model"),
        ),
    )
}


def provider_choices() -> tuple[str, ...]:
    """What ``--provider`` takes: ``auto`` and every provider."""
    return (AUTO, *PROVIDERS)


def read_by(name: str) -> Provider | None:
    """The provider whose variables a ``--provider`` name reads: auto reads the keyed
    one's (its key decides); None for a name no provider has (``chosen`` refuses it)."""
    return PROVIDERS.get(AUTO_KEYED if name == AUTO else name)


def auto_help() -> str:
    """``--provider``'s help: what ``auto`` picks, and when."""
    return f"auto: {AUTO_KEYED} when {PROVIDERS[AUTO_KEYED].key_variable} is set"
