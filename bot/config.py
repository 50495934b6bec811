"""Settings from the environment and ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import os

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything Croupier reads from its environment."""

    model_config = SettingsConfigDict(env_prefix="CROUPIER_", env_file=".env",
                                      env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("DISCORD_TOKEN", "CROUPIER_DISCORD_TOKEN"))
    database: str = "data/croupier.sqlite3"
    """A SQLite file's path (the default), or a ``postgresql://`` URL
    (``CROUPIER_DATABASE``; see :mod:`storage.engine`)."""
    log_level: str = "INFO"
    turn_seconds: int | None = Field(default=None, ge=10)
    warn_seconds: int = Field(default=60, ge=0)
    dev_guild_id: int | None = None
    web_url: str | None = None
    """The web companion's public address (``CROUPIER_WEB_URL``, e.g.
    ``https://cards.example.org``): Discord's link buttons point there; none without it."""
    web_host: str = "127.0.0.1"
    """Where ``croupier web`` listens (``CROUPIER_WEB_HOST``): this machine alone by
    default, behind a reverse proxy (README)."""
    web_port: int | None = Field(default=None, ge=1, le=65535)
    """The web companion's port (``CROUPIER_WEB_PORT``); set, ``croupier run`` serves the
    pages in-process too."""

    @field_validator("web_url", "web_port", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        # .env.example leaves them empty: empty means unset.
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("database", mode="before")
    @classmethod
    def _path_as_text(cls, value: object) -> object:
        # Kept as text: a URL read as a Path would lose the "//" of "postgresql://".
        return os.fspath(value) if isinstance(value, os.PathLike) else value

    @property
    def token(self) -> str | None:
        """The bot token, or ``None`` when absent or blank."""
        if self.discord_token is None:
            return None
        value = self.discord_token.get_secret_value().strip()
        return value or None
