"""The sandbox guild: who may do what, channel by channel."""

import discord

from bot.sandbox.world import ALL_PERMISSIONS, Guild


def perms(value: int) -> discord.Permissions:
    return discord.Permissions(value)


def test_the_default_people_are_there() -> None:
    """The guild has gm, alice, bob and admin to act as."""
    assert [m.name for m in Guild().people()] == ["gm", "alice", "bob", "admin"]


def test_gm_has_no_special_rights() -> None:
    """gm is an ordinary member: no Manage Channels, no GM role."""
    guild = Guild()
    gm = guild.member_named("gm")
    assert not perms(guild.base_permissions(gm)).manage_channels
    assert guild.gm_role.id not in gm.roles
    assert perms(guild.base_permissions(gm)).use_application_commands


def test_admin_may_manage_the_server_and_channels() -> None:
    """admin has Manage Server and Manage Channels through the Moderator role."""
    guild = Guild()
    p = perms(guild.base_permissions(guild.member_named("admin")))
    assert p.manage_guild and p.manage_channels and not p.administrator


def test_the_owner_has_every_permission() -> None:
    """The guild owner has all permissions, as on Discord."""
    guild = Guild()
    assert guild.base_permissions(guild.owner) == ALL_PERMISSIONS


def test_a_channel_overwrite_denies_a_role() -> None:
    """A deny overwrite for @everyone removes Send Messages in that channel only."""
    guild = Guild()
    alice = guild.member_named("alice")
    table = guild.channel_named("table-2")
    send = discord.Permissions(send_messages=True).value
    table.overwrites.append({"id": str(guild.id), "type": 0, "allow": "0", "deny": str(send)})
    assert not guild.channel_permissions(alice, table) & send
    assert guild.channel_permissions(alice, guild.channel_named("table-1")) & send


def test_a_thread_uses_its_parents_permissions() -> None:
    """Permissions in a thread are those of its parent channel."""
    guild = Guild()
    thread = guild.threads()[0]
    parent = guild.channels[thread.parent_id]
    bob = guild.member_named("bob")
    assert guild.channel_permissions(bob, thread) == guild.channel_permissions(bob, parent)


def test_more_tables_can_be_added() -> None:
    """add_table numbers channels on from the existing ones (e.g. 100 for a load test)."""
    guild = Guild(tables=2)
    added = [guild.add_table() for _ in range(100)]
    assert added[0].name == "table-3" and added[-1].name == "table-102"
    assert len({c.id for c in guild.channels.values()}) == len(guild.channels)
