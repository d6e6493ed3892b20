"""Every setting the application reads, from flags and the environment, in one place.

Nothing below the application reads the environment: ``Settings.read`` is
called once by the command line and what it holds is passed down.

Environment: ``BETANIA_DB`` (a database URL), ``XDG_DATA_HOME`` (where the
data directory goes), ``BETANIA_HANDLE`` and ``BETANIA_NAME`` (who the
commentator is), the chosen provider's API key and URL variables (each provider's
entry in ``bot.agent.providers.registry`` names them: ``ANTHROPIC_API_KEY``,
``BETANIA_MODEL_API_KEY``, ...), ``FOOTBALL_DATA_TOKEN`` and ``FOOTBALL_DATA_URL`` (a results feed),
``BETANIA_MODEL_TIMEOUT`` (seconds one model call may take), ``BETANIA_LOG_LEVEL``, ``BETANIA_DEBUG`` and ``BETANIA_KEEP_CALLS_DAYS`` (how long
model calls are kept whole), and the Discord companion's ``DISCORD_PUBLIC_KEY``,
``DISCORD_APPLICATION_ID``, ``DISCORD_BOT_TOKEN``, ``DISCORD_WEBHOOK_URL`` and
``DISCORD_API_URL`` (docs/discord.md). A flag, where there is one, wins.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from bot.agent.providers.registry import AUTO, ConfigError, ModelConfig, read_by
from frontends.discord import DISCORD_API_URL
from game.addressing import DEFAULT_HANDLE, DEFAULT_NAME, Addressee
from game.errors import UserError
from game.feeds import FOOTBALL_DATA_URL
from game.rules import check_handle

if TYPE_CHECKING:
    from bot.app.redaction import Redactor

# Every command reads this module, `betania --version` too, before it knows what it will
# need: the database engine and the log's redaction (which reads the pool) are imported
# by the setting that uses them, when it is used, and no HTTP client at all.

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
LOG_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"


@dataclass(frozen=True)
class DiscordSettings:
    """The Discord application the companion answers for, and the channel it posts to."""

    public_key: str | None = None  # verifies interactions; without it the endpoint is off
    application_id: str | None = None
    bot_token: str | None = None  # only to register the slash commands
    webhook_url: str | None = None  # the channel's webhook; without it nothing is posted
    api_url: str = DISCORD_API_URL

    @classmethod
    def read(cls, environ: Mapping[str, str]) -> DiscordSettings:
        def value(name: str) -> str | None:
            return environ.get(name, "").strip() or None

        return cls(
            value("DISCORD_PUBLIC_KEY"),
            value("DISCORD_APPLICATION_ID"),
            value("DISCORD_BOT_TOKEN"),
            value("DISCORD_WEBHOOK_URL"),
            value("DISCORD_API_URL") or DISCORD_API_URL,
        )


@dataclass(frozen=True)
class Settings:
    data_dir: Path
    database: str | None = None  # a URL; None: SQLite in the data directory
    addressee: Addressee = field(default_factory=Addressee)
    model: ModelConfig = field(default_factory=ModelConfig)
    football_data_token: str | None = None
    football_data_url: str = FOOTBALL_DATA_URL
    log_level: str = "WARNING"
    debug: bool = False
    keep_calls_days: int | None = None  # model calls kept whole this long; None: always
    discord: DiscordSettings = field(default_factory=DiscordSettings)

    @classmethod
    def read(cls, args: argparse.Namespace, environ: Mapping[str, str]) -> Settings:
        def flag(name: str) -> object:
            return getattr(args, name, None)

        base = environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
        data_dir = Path(str(flag("data_dir"))) if flag("data_dir") else Path(base) / "betania"
        handle = environ.get("BETANIA_HANDLE", DEFAULT_HANDLE)
        try:
            check_handle(handle)
        except UserError as error:
            raise ConfigError(f"BETANIA_HANDLE: {error}") from None
        level = str(flag("log_level") or environ.get("BETANIA_LOG_LEVEL", "WARNING")).upper()
        if level not in LOG_LEVELS:
            raise ConfigError(f"unknown log level {level!r} (one of {', '.join(LOG_LEVELS)})")
        keep = environ.get("BETANIA_KEEP_CALLS_DAYS", "").strip()
        if keep and not (keep.isdigit() and int(keep) > 0):
            raise ConfigError(f"BETANIA_KEEP_CALLS_DAYS: a number of days, not {keep!r}")
        return cls(
            keep_calls_days=int(keep) if keep else None,
            data_dir=data_dir,
            database=str(flag("db") or "") or environ.get("BETANIA_DB") or None,
            addressee=Addressee(handle, environ.get("BETANIA_NAME", DEFAULT_NAME)),
            model=_model(args, environ),
            football_data_token=environ.get("FOOTBALL_DATA_TOKEN") or None,
            football_data_url=environ.get("FOOTBALL_DATA_URL") or FOOTBALL_DATA_URL,
            log_level=level,
            debug=bool(flag("debug")) or environ.get("BETANIA_DEBUG", "") not in ("", "0"),
            discord=DiscordSettings.read(environ),
        )

    def database_url(self) -> str:
        from game.db.engine import database_url

        return database_url(self.database, self.data_dir)

    def secrets(self) -> list[str]:
        """What this process was given that no log may show (``bot.app.redaction``)."""
        held = [self.model.api_key, self.football_data_token, self.discord.bot_token]
        held.append(webhook_token(self.discord.webhook_url))
        if self.database:
            from sqlalchemy.engine import make_url
            from sqlalchemy.exc import ArgumentError

            with contextlib.suppress(ArgumentError):  # not a URL: opening it will say so
                held.append(make_url(self.database).password)
        return [secret for secret in held if secret]

    def start_logging(self) -> Redactor:
        """The one logging set-up: to stderr, at the configured level, every line redacted.

        Returns the redactor, for what is said on stderr outside the log."""
        from bot.app.redaction import RedactingFormatter, Redactor

        redact = Redactor(self.secrets())
        handler = logging.StreamHandler()
        handler.setFormatter(RedactingFormatter(LOG_FORMAT, redact))
        logging.basicConfig(level=self.log_level, handlers=[handler])
        # A dependency's warnings (deprecations, mostly) speak to its developers, not to
        # who runs a pool: they go to the log, shown at DEBUG only, never before the banner.
        logging.captureWarnings(True)
        shown = logging.WARNING if self.log_level == "DEBUG" else logging.ERROR
        logging.getLogger("py.warnings").setLevel(shown)
        return redact


def webhook_token(url: str | None) -> str | None:
    """The token of a Discord webhook's URL (``.../webhooks/ID/TOKEN``): who holds it posts."""
    parts = urlsplit(url or "").path.strip("/").split("/")
    if "webhooks" not in parts:
        return None
    after = parts[parts.index("webhooks") + 1 :]
    return after[1] if len(after) >= 2 else None


def _model(args: argparse.Namespace, environ: Mapping[str, str]) -> ModelConfig:
    provider = getattr(args, "provider", None) or AUTO
    flagged = getattr(args, "timeout", None)
    timeout = (
        _seconds(str(flagged), "--timeout")
        if flagged is not None
        else _seconds(environ.get("BETANIA_MODEL_TIMEOUT", ""), "BETANIA_MODEL_TIMEOUT")
    )
    reads = read_by(provider)  # the variables of its API key and URL, where it has them
    key = environ.get(reads.key_variable) if reads and reads.key_variable else None
    url = environ.get(reads.url_variable) if reads and reads.url_variable else None
    return ModelConfig(
        provider=provider,
        model=getattr(args, "model", None),
        base_url=getattr(args, "base_url", None) or url or None,
        api_key=key or None,
        language=getattr(args, "language", None) or "en",
        timeout=timeout or ModelConfig.timeout,
        seed=getattr(args, "seed", None) or 0,
        web_search=bool(getattr(args, "web_search", False)),
        searches_per_pick=getattr(args, "searches_per_pick", 3),
        searches_per_day=getattr(args, "searches_per_day", 20),
        hearing=getattr(args, "hearing", None) or ModelConfig.hearing,
        claims=getattr(args, "claims", None) or ModelConfig.claims,
    )


def _seconds(value: str, name: str) -> float | None:
    """A model call's time limit: more than nothing, at most a day."""
    if not value.strip():
        return None
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds <= 86400:
        raise ConfigError(f"{name}: a number of seconds up to a day, not {value!r}")
    return seconds
