"""Settings from the environment and `.env`, validated once at start-up."""

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, ClassVar, Self

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


def _shard_ids(value: object) -> object:
    """Accept `0,1` and ranges `0-3` (the environment's forms) as well as a list."""
    if not isinstance(value, str):
        return value
    ids: list[object] = []
    for part in (p.strip() for p in value.replace(";", ",").split(",")):
        first, dash, last = part.partition("-")
        if dash and first.strip().isdigit() and last.strip().isdigit():
            ids.extend(range(int(first), int(last) + 1))
        elif part:
            ids.append(part)
    return ids


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
    # postgresql://user:password@host/db — may hold a password, so it is never shown either.
    database_url: Annotated[SecretStr | None, BeforeValidator(_blank_is_none)] = None
    shard_count: Annotated[int | None, BeforeValidator(_blank_is_none), Field(ge=1)] = None
    shard_ids: Annotated[
        list[Annotated[int, Field(ge=0)]] | None,
        BeforeValidator(_blank_is_none),
        BeforeValidator(_shard_ids),
    ] = None
    shard_lease_seconds: Annotated[float, Field(ge=1, le=600)] = 15.0

    # Environment variable → field. The token has no default and is never logged.
    ENVIRONMENT: ClassVar[Mapping[str, str]] = {
        "DISCORD_TOKEN": "discord_token",
        "TABLEHAND_DATABASE_URL": "database_url",
        "TABLEHAND_DB": "db_path",
        "TABLEHAND_SHARD_COUNT": "shard_count",
        "TABLEHAND_SHARD_IDS": "shard_ids",
        "TABLEHAND_SHARD_LEASE_SECONDS": "shard_lease_seconds",
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
    def database(self) -> str:
        """Return where state is kept: the PostgreSQL URL if set, else the SQLite file."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return str(self.db_path)

    @property
    def postgres(self) -> bool:
        return self.database.startswith(("postgres://", "postgresql://"))

    @property
    def sharded(self) -> bool:
        """Return whether the bot runs over gateway shards (AutoShardedBot)."""
        return self.shard_count is not None

    @property
    def log_level_number(self) -> int:
        return logging.getLevelName(self.log_level)

    @classmethod
    def from_env(
        cls,
        env_file: str | os.PathLike[str] | None = ".env",
        environ: Mapping[str, str] | None = None,
    ) -> Self:
        """Read settings from `.env` and the environment (the environment wins)."""
        values: dict[str, str] = {}
        if env_file is not None and Path(env_file).is_file():
            from dotenv import dotenv_values  # only then: its parser compiles a dozen patterns

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
        _check_shards(settings)
        for name in ("api_base", "gateway_url"):
            url = getattr(settings, name)
            if not url.startswith(("http://", "https://", "ws://", "wss://")):
                env = next(k for k, v in cls.ENVIRONMENT.items() if v == name)
                raise SettingsError(f"{env} must be an http(s):// or ws(s):// URL, not {url!r}.")
        return settings


def _check_shards(settings: Settings) -> None:
    """Refuse shard settings that contradict each other, or a database URL of no known kind."""
    url = settings.database_url.get_secret_value() if settings.database_url else None
    if url is not None and not url.startswith(("postgres://", "postgresql://", "sqlite:")):
        raise SettingsError(
            "TABLEHAND_DATABASE_URL must be a postgresql:// URL (or sqlite:///path)."
        )
    if settings.shard_ids is None:
        return
    if settings.shard_count is None:
        raise SettingsError("TABLEHAND_SHARD_IDS needs TABLEHAND_SHARD_COUNT as well.")
    beyond = [i for i in settings.shard_ids if i >= settings.shard_count]
    if beyond or not settings.shard_ids:
        raise SettingsError(
            f"TABLEHAND_SHARD_IDS must name shards 0 to {settings.shard_count - 1} "
            f"(TABLEHAND_SHARD_COUNT is {settings.shard_count})."
        )


def _describe(error: ValidationError) -> str:
    """Turn pydantic's report into one line naming the environment variable, never its value."""
    first = error.errors()[0]
    field = str(first["loc"][0]) if first["loc"] else "?"
    env = next((k for k, v in Settings.ENVIRONMENT.items() if v == field), field)
    return f"Setting {env} is invalid: {first['msg']}."
