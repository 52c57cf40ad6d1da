"""Settings from the environment and `.env`, validated once at start-up."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, ClassVar

from dotenv import dotenv_values
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, SecretStr, ValidationError

from bot.errors import TablehandError

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(TablehandError):
    """A setting is missing or malformed; start-up stops with this one line."""


def _guild_ids(value: object) -> object:
    """Accept `123,456` (the environment's form) as well as a list."""
    if isinstance(value, str):
        return [part.strip() for part in value.replace(";", ",").split(",") if part.strip()]
    return value


def _blank_is_none(value: object) -> object:
    return None if isinstance(value, str) and not value.strip() else value


def _upper(value: object) -> object:
    return value.strip().upper() if isinstance(value, str) else value


class Settings(BaseModel):
    """Everything the bot reads from its environment."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    discord_token: Annotated[SecretStr | None, BeforeValidator(_blank_is_none)] = None
    db_path: Path = Path("tablehand.db")
    api_base: Annotated[str, BeforeValidator(_blank_is_none)] = DISCORD_API_BASE
    gateway_url: Annotated[str, BeforeValidator(_blank_is_none)] = DISCORD_GATEWAY_URL
    guild_ids: Annotated[list[Annotated[int, Field(gt=0)]], BeforeValidator(_guild_ids)] = Field(
        default_factory=list
    )
    log_level: Annotated[str, BeforeValidator(_upper)] = "INFO"

    # Environment variable → field. The token has no default and is never logged.
    ENVIRONMENT: ClassVar[Mapping[str, str]] = {
        "DISCORD_TOKEN": "discord_token",
        "TABLEHAND_DB": "db_path",
        "DISCORD_API_BASE": "api_base",
        "DISCORD_GATEWAY_URL": "gateway_url",
        "TABLEHAND_GUILD_IDS": "guild_ids",
        "TABLEHAND_LOG_LEVEL": "log_level",
    }

    @property
    def sandbox(self) -> bool:
        """Return whether no token is configured, so the bot runs against the loopback Discord."""
        return self.discord_token is None

    @property
    def log_level_number(self) -> int:
        return logging.getLevelName(self.log_level)

    @classmethod
    def from_env(
        cls,
        env_file: str | os.PathLike[str] | None = ".env",
        environ: Mapping[str, str] | None = None,
    ) -> Settings:
        """Read settings from `.env` and the environment (the environment wins)."""
        values: dict[str, str] = {}
        if env_file is not None and Path(env_file).is_file():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ if environ is None else environ)
        fields = {field: values[name] for name, field in cls.ENVIRONMENT.items() if name in values}
        try:
            settings = cls(**fields)
        except ValidationError as error:
            raise SettingsError(_describe(error)) from None
        if settings.log_level not in LOG_LEVELS:
            raise SettingsError(
                f"TABLEHAND_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, "
                f"not {settings.log_level!r}."
            )
        for name in ("api_base", "gateway_url"):
            url = getattr(settings, name)
            if not url.startswith(("http://", "https://", "ws://", "wss://")):
                env = next(k for k, v in cls.ENVIRONMENT.items() if v == name)
                raise SettingsError(f"{env} must be an http(s):// or ws(s):// URL, not {url!r}.")
        return settings


def _describe(error: ValidationError) -> str:
    """Turn pydantic's report into one line naming the environment variable, never its value."""
    first = error.errors()[0]
    field = str(first["loc"][0]) if first["loc"] else "?"
    env = next((k for k, v in Settings.ENVIRONMENT.items() if v == field), field)
    return f"Setting {env} is invalid: {first['msg']}."
