"""Settings come from the environment and .env, and bad ones stop start-up in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import DISCORD_API_BASE, Settings, SettingsError

ROOT = Path(__file__).resolve().parents[2]


def test_the_sample_env_file_loads_with_the_defaults() -> None:
    """The shipped .env.example does not load, or changes a default."""
    settings = Settings.from_env(ROOT / ".env.example", environ={})
    assert settings.discord_token is None
    assert settings.sandbox
    assert settings.db_path == Path("tablehand.db")
    assert settings.guild_ids == []
    assert settings.api_base == DISCORD_API_BASE
    assert settings.log_level == "INFO"


def test_the_environment_wins_over_the_env_file(tmp_path: Path) -> None:
    """A value from .env beat the same value from the environment."""
    env = tmp_path / ".env"
    env.write_text("TABLEHAND_DB=from-file.db\nTABLEHAND_GUILD_IDS=1,2\n")
    settings = Settings.from_env(env, environ={"TABLEHAND_DB": "from-env.db"})
    assert settings.db_path == Path("from-env.db")
    assert settings.guild_ids == [1, 2]


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"TABLEHAND_GUILD_IDS": "12,abc"}, "TABLEHAND_GUILD_IDS"),
        ({"TABLEHAND_GUILD_IDS": "-4"}, "TABLEHAND_GUILD_IDS"),
        ({"TABLEHAND_LOG_LEVEL": "loud"}, "TABLEHAND_LOG_LEVEL"),
        ({"DISCORD_API_BASE": "discord.com"}, "DISCORD_API_BASE"),
    ],
)
def test_a_malformed_setting_is_named_in_one_line(environ: dict[str, str], named: str) -> None:
    """A malformed setting did not produce a one-line error naming the variable."""
    with pytest.raises(SettingsError) as caught:
        Settings.from_env(None, environ=environ)
    assert named in str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_token_is_never_shown() -> None:
    """The token appeared in the settings' text form."""
    settings = Settings.from_env(None, environ={"DISCORD_TOKEN": "very-secret-token"})
    assert "very-secret-token" not in repr(settings)
    assert "very-secret-token" not in str(settings)
    assert not settings.sandbox


def test_a_bad_setting_stops_the_program_with_one_line_and_no_traceback(tmp_path: Path) -> None:
    """`tablehand` with a malformed setting printed a traceback or kept running."""
    env = {**os.environ, "TABLEHAND_GUILD_IDS": "not-a-number", "DISCORD_TOKEN": "secret-xyz"}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0, done.stderr
    assert "TABLEHAND_GUILD_IDS" in done.stderr
    assert "Traceback" not in done.stderr
    assert "secret-xyz" not in done.stderr + done.stdout


def test_database_and_shard_settings_are_read_and_the_url_never_shown() -> None:
    """TABLEHAND_DATABASE_URL or the shard settings were misread, or the URL's password shown."""
    settings = Settings.from_env(
        None,
        environ={
            "TABLEHAND_DATABASE_URL": "postgresql://bot:hunter2@127.0.0.1/tablehand",
            "TABLEHAND_SHARD_COUNT": "4",
            "TABLEHAND_SHARD_IDS": "0-1,3",
        },
    )
    assert settings.postgres and settings.sharded
    assert settings.database == "postgresql://bot:hunter2@127.0.0.1/tablehand"
    assert (settings.shard_count, settings.shard_ids) == (4, [0, 1, 3])
    assert "hunter2" not in repr(settings) and "hunter2" not in str(settings)
    plain = Settings.from_env(None, environ={"TABLEHAND_DB": "here.db"})
    assert (plain.database, plain.postgres, plain.sharded) == ("here.db", False, False)


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"TABLEHAND_SHARD_IDS": "1"}, "TABLEHAND_SHARD_COUNT"),
        ({"TABLEHAND_SHARD_COUNT": "2", "TABLEHAND_SHARD_IDS": "2"}, "TABLEHAND_SHARD_IDS"),
        ({"TABLEHAND_SHARD_COUNT": "0"}, "TABLEHAND_SHARD_COUNT"),
        ({"TABLEHAND_SHARD_COUNT": "2", "TABLEHAND_SHARD_IDS": "a"}, "TABLEHAND_SHARD_IDS"),
        ({"TABLEHAND_DATABASE_URL": "mysql://db/x"}, "TABLEHAND_DATABASE_URL"),
    ],
)
def test_contradicting_shard_settings_stop_start_up_in_one_line(
    environ: dict[str, str], named: str
) -> None:
    """Shard settings that cannot work together were accepted, or the error did not name them."""
    with pytest.raises(SettingsError) as caught:
        Settings.from_env(None, environ=environ)
    assert named in str(caught.value) and "\n" not in str(caught.value)
