"""/help, command mentions, where each command is offered, and the synced command tree."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.app import Tablehand, cog_extensions
from bot.config import Settings
from bot.sandbox.client import SandboxTable, UsageError
from bot.sandbox.commandline import build_command_data
from bot.sandbox.harness import SANDBOX_TOKEN, running_bot
from bot.sandbox.records import APPLICATION_COMMAND
from bot.sandbox.server import LoopbackDiscord
from bot.sandbox.validate import COMMAND_SIZE_LIMIT, command_size
from tests.e2e.helpers import unmentioned

pytestmark = pytest.mark.e2e

DM_COMMANDS = {"roll", "power", "special", "pp", "help"}


def real_bot(server: LoopbackDiscord, tmp_path: Path, *, guilds: bool = True) -> Tablehand:
    """Tablehand with its own cogs only; `guilds=False` registers commands globally."""
    settings = Settings(
        discord_token=SANDBOX_TOKEN,
        db_path=tmp_path / "tablehand.db",
        api_base=server.api_base,
        gateway_url=server.gateway_url,
        guild_ids=[server.guild.id] if guilds else [],
    )
    # Each test's loopback Discord is new: the bot registers its commands as it starts.
    return Tablehand(
        settings, rng=random.Random(7), extensions=cog_extensions(), sync_on_start=True
    )


def root_ids(server: LoopbackDiscord) -> dict[str, str]:
    return {c["name"]: c["id"] for c in server.synced_commands()}


def help_text(reply: Any) -> str:
    return "\n".join(e.get("description", "") for e in reply.embeds)


async def test_help_for_one_command_mentions_it_with_its_id_and_says_who(table) -> None:
    """/help init next did not show a clickable mention, what it does or who may use it."""
    reply = await table.user("alice").run("/help command:init next")
    assert reply.ephemeral
    init = root_ids(table.server)["init"]
    assert reply.embed["title"] == "/init next"
    assert help_text(reply).splitlines()[:4] == [
        f"</init next:{init}>",
        "End the current turn (or phase) and start the next",
        "**Who:** GM, or the current actor's player",
        "**Where:** server channels",
    ]
    # The sandbox renders a mention as Discord shows it: the command's name, no id.
    assert "  | /init next\n" in reply.text and "</init" not in reply.text


async def test_help_lists_every_group_with_mentions(table) -> None:
    """/help without a command left out a group, or named commands without their ids."""
    reply = await table.user("gm").run("/help")
    text = help_text(reply)
    ids = root_ids(table.server)
    for name in ("roll", "power", "special", "check"):
        assert f"</{name}:{ids[name]}>" in text
    for name in ("init start", "init next", "grit damage", "character create", "pp price"):
        assert f"</{name}:{ids[name.split()[0]]}>" in text
    group = help_text(await table.user("gm").run("/help command:grit"))
    assert f"</grit damage:{ids['grit']}> `combatant amount` — " in group
    assert group.count("\n") == 4  # show, damage, heal, set, modifier


async def test_help_for_an_unknown_command_is_one_private_line(table) -> None:
    """/help with a typo did not answer in one private line with a suggestion."""
    reply = await table.user("bob").run("/help command:init nxt")
    assert reply.ephemeral and "\n" not in reply.content
    assert unmentioned(reply.content).startswith(
        "There is no command /init nxt. Did you mean /init next"
    )
    choices = await table.user("bob").autocomplete("help", "command", "init n")
    assert [c["value"] for c in choices] == ["init next"]


async def test_mentions_come_from_discord_when_the_bot_did_not_sync(
    server: LoopbackDiscord, tmp_path: Path
) -> None:
    """A start without a sync (as after `tablehand sync-commands`) had no command ids."""
    async with running_bot(server, real_bot(server, tmp_path)):
        pass  # registers the commands, as the sync step would
    ids = root_ids(server)
    bot = real_bot(server, tmp_path)

    async def no_sync() -> list[Any]:
        return []

    bot.sync_commands = no_sync  # type: ignore[method-assign]
    mark = len(server.calls)
    async with running_bot(server, bot):
        reply = await SandboxTable(server).user("gm").run("/help command:init next")
    assert help_text(reply).startswith(f"</init next:{ids['init']}>")
    assert root_ids(server) == ids
    fetched = [c.key for c in server.calls[mark:] if "commands" in c.route]
    assert "PUT /applications/{application_id}/guilds/{guild_id}/commands" not in fetched
    assert "GET /applications/{application_id}/guilds/{guild_id}/commands" in fetched


async def test_the_synced_tree_declares_where_and_for_whom(server, tmp_path) -> None:
    """A command was registered without contexts, or settings without Manage Server."""
    async with running_bot(server, real_bot(server, tmp_path, guilds=False)):
        roots = {c["name"]: c for c in server.commands[None].values()}
    assert {n for n, c in roots.items() if c["contexts"] == [0, 1, 2]} == DM_COMMANDS
    assert {n for n, c in roots.items() if c["contexts"] == [0]} == set(roots) - DM_COMMANDS
    assert {n for n, c in roots.items() if c["integration_types"] == [0, 1]} == DM_COMMANDS
    assert {n for n, c in roots.items() if c["default_member_permissions"] is not None} == {
        "settings"
    }
    assert int(roots["settings"]["default_member_permissions"]) == 1 << 5  # Manage Server


async def test_every_option_has_a_description_and_commands_fit_discord(server, tmp_path) -> None:
    """An option shows Discord's "…" instead of a description, or a command is too large."""
    async with running_bot(server, real_bot(server, tmp_path)):
        roots = server.synced_commands()
    missing, sizes = [], {}

    def walk(node: dict[str, Any], path: str) -> None:
        for option in node.get("options") or []:
            if option["type"] in (1, 2):
                walk(option, f"{path} {option['name']}")
                continue
            assert len(node["options"]) <= 25, path
            if option.get("description", "…") in ("", "…"):
                missing.append(f"/{path} {option['name']}")

    for root in roots:
        walk(root, root["name"])
        sizes[root["name"]] = command_size(root)
    assert missing == []
    assert max(sizes.values()) <= COMMAND_SIZE_LIMIT, sizes
    assert len(roots) >= 20


@pytest.fixture
async def global_table(server: LoopbackDiscord, tmp_path: Path) -> Any:
    """The real bot with its commands registered globally, so DMs have some."""
    async with running_bot(server, real_bot(server, tmp_path, guilds=False)):
        yield SandboxTable(server)


async def test_roll_works_in_a_direct_message(global_table: SandboxTable) -> None:
    """/roll in a DM with the bot did not answer there."""
    dm = global_table.dm("alice")
    reply = await global_table.user("alice").run("/roll expression:3d1+2", channel=dm)
    assert reply.content == "🎲 **Alice** rolls 3d1 (**1**, **1**, **1**) + 2 = `5`"
    assert reply.message is not None and reply.message.guild_id is None
    assert dm.public_messages == [reply.message]
    looked_up = await global_table.user("alice").run("/power name:teleport", channel=dm)
    assert looked_up.embed and not looked_up.ephemeral


async def test_table_commands_are_not_offered_in_a_dm(global_table: SandboxTable) -> None:
    """/init or /character was offered in a DM, where it would work without a server."""
    alice, dm = global_table.user("alice"), global_table.dm("alice")
    for line in ("/init start", "/character list", "/attack target:Goblin", "/settings show"):
        with pytest.raises(UsageError, match="not offered in direct messages"):
            await alice.run(line, channel=dm)
    offered = {spec.path[0] for spec in global_table.commands_in(dm.channel, alice.member)}
    assert offered == DM_COMMANDS
    listed = help_text(await alice.run("/help", channel=dm))
    assert "</roll:" in listed and "</init" not in listed and "/help pp price" in listed


async def test_a_table_command_sent_from_a_dm_anyway_is_refused(global_table) -> None:
    """A stale registration offering /init in a DM made the bot open an encounter there."""
    server, alice = global_table.server, global_table.user("alice")
    dm = global_table.dm("alice").channel
    spec = global_table.command("init start")
    data = build_command_data(spec, {}, guild=server.guild, invoker=alice.member)
    record = server.dispatch_interaction(
        member=alice.member, channel=dm, type=APPLICATION_COMMAND, data=data, label="/init start"
    )
    await record.responded
    (message,) = server.interaction_messages(record)
    assert message.ephemeral
    assert message.content == "/init works in a server channel, not in direct messages."
    assert not server.pinned(dm)


async def test_guild_commands_are_not_in_dms_and_settings_only_for_managers(table) -> None:
    """Guild-registered commands appeared in a DM, or /settings was offered to a player."""
    with pytest.raises(UsageError, match="no command /roll"):
        await table.user("alice").run("/roll expression:1d6", channel=table.dm("alice"))
    channel = table.channel("table-1").channel
    for who, sees in (("alice", False), ("gm", False), ("admin", True)):
        names = {s.path[0] for s in table.commands_in(channel, table.user(who).member)}
        assert ("settings" in names) is sees, who


async def test_an_error_names_its_command_as_a_mention_to_click(table) -> None:
    """An error that tells which command to use named it as plain text, not a clickable mention."""
    ids = root_ids(table.server)
    reply = await table.user("bob").run("/init next")
    assert reply.ephemeral
    assert reply.content == (
        f"This channel has no encounter. Start one with </init start:{ids['init']}>."
    )
