"""/settings end to end: Manage Server only, the GM role's rights, the defense timeout."""

from __future__ import annotations

import pytest

from bot.sandbox.client import InteractionResult, SandboxTable, UsageError
from bot.store import GuildSettings
from tests.e2e.helpers import unmentioned

pytestmark = pytest.mark.e2e


async def stored(table: SandboxTable) -> GuildSettings:
    """Read the server's settings as the store has them now (not the cache)."""
    return await table.bot.store.get_settings(table.server.guild.id)  # type: ignore[attr-defined]


def assert_refused(reply: InteractionResult, message: str) -> None:
    """The reply is the one-line ephemeral error `message` (its commands shown by name)."""
    assert reply.ephemeral
    assert unmentioned(reply.content) == message
    assert "\n" not in reply.content


async def test_show_lists_the_defaults(table: SandboxTable) -> None:
    """A member with Manage Server sees the default settings, privately."""
    reply = await table.user("admin").run("/settings show")
    assert reply.ephemeral
    assert reply.content == (
        "GM role: none — GMs are whoever starts an encounter, and members with Manage Channels.\n"
        "Defense timeout: 60 s (default) — then a defender's default defense is used.\n"
        "Language of the table: English (the server's language in Discord)."
    )


async def test_gm_role_is_set_and_shown(table: SandboxTable) -> None:
    """/settings gm_role stores the role and /settings show names it."""
    admin = table.user("admin")
    reply = await admin.run("/settings gm_role", role="GM")
    gm_role = table.server.guild.gm_role.id
    assert not reply.ephemeral
    assert (
        reply.content
        == f"GM role set to <@&{gm_role}>: its members have GM rights in every channel."
    )
    assert reply.message.mention_roles == []
    assert (await stored(table)).gm_role_id == gm_role
    shown = await admin.run("/settings show")
    assert shown.content.splitlines()[0] == (
        f"GM role: <@&{gm_role}> — its members have GM rights in every channel."
    )


async def test_gm_role_without_a_role_clears_it(table: SandboxTable) -> None:
    """/settings gm_role with no role clears the GM role."""
    admin = table.user("admin")
    await admin.run("/settings gm_role", role="GM")
    reply = await admin.run("/settings gm_role")
    assert reply.content == (
        "GM role cleared: GMs are whoever starts an encounter, and members with Manage Channels."
    )
    assert (await stored(table)).gm_role_id is None


async def test_defense_timeout_is_stored(table: SandboxTable) -> None:
    """/settings defense_timeout stores the seconds, and the cached settings follow."""
    reply = await table.user("admin").run("/settings defense_timeout seconds:90")
    assert (
        reply.content == "Defense timeout set to 90 s: then a defender's default defense is used."
    )
    assert (await stored(table)).defense_timeout == 90
    cached = await table.bot.store.settings(table.server.guild.id)  # type: ignore[attr-defined]
    assert cached.defense_timeout == 90


@pytest.mark.parametrize("seconds", [4, 3601])
async def test_defense_timeout_outside_its_range_is_never_sent(
    table: SandboxTable, seconds: int
) -> None:
    """The option's limits (5..3600) are synced, so Discord's client refuses other values."""
    with pytest.raises(UsageError, match="seconds must be between 5 and 3600"):
        await table.user("admin").run(f"/settings defense_timeout seconds:{seconds}")
    assert (await stored(table)).defense_timeout == 60


@pytest.mark.parametrize(
    ("line", "doing"),
    [
        ("/settings gm_role role:GM", "set the GM role"),
        ("/settings defense_timeout seconds:30", "set the defense timeout"),
        ("/settings show", "see the settings"),
    ],
)
async def test_settings_need_manage_server(table: SandboxTable, line: str, doing: str) -> None:
    """Without Manage Server /settings is not offered; shown anyway, the bot refuses in one line."""
    with pytest.raises(UsageError, match="not offered to alice: it needs Manage Server"):
        await table.user("alice").run(line)
    # A server admin may show the command to everyone (Integrations); the bot still checks.
    table.server.set_command_permission("settings", "@everyone", allowed=True)
    reply = await table.user("alice").run(line)
    assert_refused(reply, f"Only members with Manage Server can {doing}.")
    assert await stored(table) == GuildSettings(guild_id=table.server.guild.id)


async def test_the_gm_role_grants_gm_rights(table: SandboxTable) -> None:
    """A member of the GM role set with /settings may do what only the GM may."""
    table.server.give_role("alice", "GM")
    await table.user("gm").run("/init start")
    before = await table.user("alice").run("/init add name:Goblin")
    assert_refused(before, "Only the GM can add combatants.")
    await table.user("admin").run("/settings gm_role", role="GM")
    added = await table.user("alice").run("/init add name:Goblin")
    assert added.content == "Added Goblin."
    damaged = await table.user("alice").run("/grit damage combatant:Goblin amount:4")
    assert damaged.content == "Goblin takes 4 damage (Prime d20)."


async def test_the_gm_role_grants_nothing_to_others(table: SandboxTable) -> None:
    """With a GM role set, a player without it is still refused GM actions."""
    await table.user("admin").run("/settings gm_role", role="GM")
    await table.user("gm").run("/init start")
    await table.user("gm").run("/init add name:Goblin")
    reply = await table.user("bob").run("/grit damage combatant:Goblin amount:4")
    assert_refused(reply, "Goblin is the GM's combatant; you cannot act for it.")
