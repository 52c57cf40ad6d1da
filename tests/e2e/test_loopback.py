"""An unmodified discord.py bot through the loopback Discord: login, sync, commands, buttons."""

from __future__ import annotations

import asyncio
import io
import logging

import aiohttp
import discord
import pytest

from bot.sandbox.client import SandboxTable, SandboxTimeout, UsageError
from bot.sandbox.server import LoopbackDiscord, RateLimitConfig


def tree_command_names(bot: discord.Client, guild_id: int) -> set[str]:
    tree = bot.tree  # type: ignore[attr-defined]
    guild = discord.Object(id=guild_id)
    names = set()
    for command in [*tree.walk_commands(guild=guild), *tree.walk_commands()]:
        if isinstance(command, discord.app_commands.Command):
            names.add(command.qualified_name)
    return names


async def test_the_bot_logs_in_and_receives_the_guild(table: SandboxTable) -> None:
    """The bot identifies once, and sees the guild with its channels, thread and members."""
    bot = table.bot  # type: ignore[attr-defined]
    server = table.server
    assert server.stats.identifies == 1
    guild = bot.get_guild(server.guild.id)
    assert guild is not None
    assert {"table-1", "table-2", "table-3"} <= {c.name for c in guild.text_channels}
    assert [t.name for t in guild.threads] == ["table-1-side"]
    assert guild.get_role(server.guild.gm_role.id).name == "GM"
    assert bot.user.id == server.bot_user.id


async def test_sync_registers_every_command_of_the_tree(table: SandboxTable) -> None:
    """Every command in the bot's tree is registered with the server, with its options."""
    bot = table.bot  # type: ignore[attr-defined]
    synced = {spec.name for spec in table.commands}
    assert synced == tree_command_names(bot, table.server.guild.id)
    assert "probe echo" in synced
    echo = table.command("probe echo")
    assert [o["name"] for o in echo.options][:2] == ["text", "who"]


async def test_a_slash_command_is_answered_in_the_channel(table: SandboxTable) -> None:
    """/probe ping gets a public reply from the bot in the invoking channel."""
    reply = await table.user("alice").run("/probe ping", channel="table-2")
    assert reply.content == "pong"
    assert not reply.ephemeral
    assert reply.message in table.channel("table-2").messages
    assert reply.message.interaction_user.username == "alice"


async def test_an_error_reply_is_ephemeral(table: SandboxTable) -> None:
    """A TablehandError becomes a one-line reply only the invoker sees."""
    reply = await table.user("bob").run("/probe fail")
    assert reply.ephemeral
    assert reply.content == "The probe failed on purpose."
    assert table.channel("table-1").public_messages == []
    assert reply.message not in table.channel("table-1").visible_to("alice")


async def test_typed_options_reach_the_command(table: SandboxTable) -> None:
    """String, integer, number, boolean, choice, user, role and channel options arrive typed."""
    reply = await table.user("gm").run(
        '/probe echo text:"hi there" times:2 scale:1.5 loud:yes mode:finesse',
        who="alice",
        role="GM",
        where="#table-1-side",
    )
    assert reply.content == (
        "hi there hi there scale=1.5 loud=True mode=finesse who=alice role=GM where=table-1-side"
    )


async def test_an_option_out_of_range_is_refused_before_sending(table: SandboxTable) -> None:
    """As in Discord's client, a value outside the synced limits is never sent to the bot."""
    with pytest.raises(UsageError, match="times must be between 1 and 5"):
        await table.user("gm").run("/probe echo text:x times:9")
    assert not table.server.interactions


async def test_a_button_click_round_trips(table: SandboxTable) -> None:
    """A click edits the message (type 7); another user's click is seen as theirs."""
    gm, alice = table.user("gm"), table.user("alice")
    reply = await gm.run("/probe counter")
    assert [b["label"] for b in reply.buttons] == ["Add", "Done"]
    first = await reply.click("Add")
    assert first.type == 7
    second = await reply.click(1, as_user=alice)
    assert reply.content == "Count: 2 (last: alice)"
    assert second.message is reply.message
    assert len(reply.message.edits) == 2


async def test_a_deferred_click_then_edit_disables_the_buttons(table: SandboxTable) -> None:
    """Done defers the update (type 6) and then edits the original: buttons are disabled."""
    reply = await table.user("gm").run("/probe counter")
    done = await reply.click("Done")
    await done.final()
    assert done.type == 6
    assert reply.content == "Final count: 0"
    assert all(b["disabled"] for b in reply.buttons)


async def test_someone_elses_button_gets_an_ephemeral_refusal(table: SandboxTable) -> None:
    """A player clicking the GM's Done button is told privately it is not theirs."""
    reply = await table.user("gm").run("/probe counter")
    refusal = await reply.click("Done", as_user="bob")
    assert refusal.ephemeral and refusal.content == "This is not for you."
    assert refusal.message.visible_to == table.user("bob").id


async def test_a_deferred_command_is_completed_by_its_followup(table: SandboxTable) -> None:
    """After defer(thinking), the first followup replaces the thinking message."""
    reply = await table.user("alice").run("/probe slow private:true")
    assert reply.type == 5
    await reply.final()
    assert reply.ephemeral
    assert reply.content == "done after thinking"
    assert not reply.message.loading
    assert reply.followups == []


async def test_autocomplete_returns_the_bots_choices(table: SandboxTable) -> None:
    """Typing into an autocomplete option gets the bot's filtered choices."""
    choices = await table.user("alice").autocomplete("probe pick", "name", "tele")
    assert [c["value"] for c in choices] == ["telekinesis", "telepathy", "teleport"]


async def test_a_tracker_is_pinned_and_then_edited_in_place(table: SandboxTable) -> None:
    """The first /probe tracker posts and pins; the second edits the same pinned message."""
    gm = table.user("gm")
    channel = table.channel("table-1")
    first = await gm.run("/probe tracker text:Round 1")
    assert first.content == "1 pinned"
    pinned = await channel.wait_for_pin()
    assert pinned.embed["description"] == "Round 1"
    await gm.run('/probe tracker text:"Round 2"')
    assert channel.pins == [pinned.id]
    assert pinned.embed["description"] == "Round 2"
    assert table.server.count_calls("POST", "/channels/{channel_id}/messages") == 1


async def test_a_deleted_tracker_is_reposted(table: SandboxTable) -> None:
    """After a user deletes the pinned tracker, fetching it is a 404 and the bot posts anew."""
    gm = table.user("gm")
    channel = table.channel("table-2")
    await gm.run("/probe tracker", channel=channel)
    old = await channel.wait_for_pin()
    gm.delete(old)
    await gm.run("/probe tracker text:again", channel=channel)
    new = await channel.wait_for_pin()
    assert new.id != old.id and old.deleted
    assert channel.pins == [new.id]


async def test_threads_work_as_channels(table: SandboxTable) -> None:
    """A command in a thread is answered and pinned there."""
    reply = await table.user("alice").run("/probe tracker", channel="table-1-side")
    assert reply.content == "1 pinned"
    assert table.channel("table-1-side").pinned_messages


async def test_mentions_are_recorded_as_sent(table: SandboxTable) -> None:
    """A message naming a user with mentions disabled pings no one."""
    reply = await table.user("gm").run("/probe mention who:alice")
    assert reply.content == f"<@{table.user('alice').id}> was named"
    assert reply.message.allowed_mentions == {"parse": []}
    assert reply.message.mentions == []
    assert "@alice was named" in table.render(reply.message)


async def test_the_bot_resumes_after_the_websocket_drops(table: SandboxTable) -> None:
    """After a 4000 close the bot RESUMEs (no new IDENTIFY) and keeps answering."""
    server = table.server
    await server.drop_gateway(code=4000)
    reply = await table.user("alice").run("/probe ping")  # dispatched while reconnecting
    assert reply.content == "pong"
    await server.wait_resumed(after=0)
    assert (server.stats.identifies, server.stats.resumes) == (1, 1)


async def test_the_bot_resumes_after_an_abrupt_disconnect(table: SandboxTable) -> None:
    """After the connection is cut without a close frame (1006), the bot resumes."""
    server = table.server
    await server.drop_gateway(abrupt=True)
    await server.wait_resumed(after=0)
    reply = await table.user("bob").run("/probe ping")
    assert reply.content == "pong"
    assert server.stats.identifies == 1


async def test_an_unknown_route_is_a_logged_404(
    table: SandboxTable, caplog: pytest.LogCaptureFixture
) -> None:
    """A route the server lacks answers Discord's 404 shape and logs a warning naming it."""
    with caplog.at_level(logging.WARNING, logger="bot.sandbox.server"):
        reply = await table.user("gm").run("/probe unknown")
    assert reply.content == "404 0 404: Not Found"
    assert [c.path for c in table.server.unknown_routes] == ["/probe/no-such-route"]
    assert "unknown route GET /api/v10/probe/no-such-route" in caplog.text


async def test_a_deleted_message_is_unknown(table: SandboxTable) -> None:
    """GET on a deleted message answers 404 Unknown Message (10008)."""
    bot = table.bot  # type: ignore[attr-defined]
    reply = await table.user("gm").run("/probe ping")
    table.user("gm").delete(reply.message)
    channel = bot.get_channel(table.channel("table-1").id)
    with pytest.raises(discord.NotFound) as caught:
        await channel.fetch_message(reply.message.id)
    assert caught.value.code == 10008


async def test_discord_py_obeys_rate_limit_headers(make_table) -> None:
    """With limits on, 6 edits at 2 per 0.3 s are spaced by discord.py: no 429 is served."""
    limits = RateLimitConfig(message_edit=(2, 0.3))
    table = await make_table(bot="probe", rate_limits=limits)
    loop = asyncio.get_running_loop()
    started = loop.time()
    reply = await table.user("gm").run("/probe edits count:6")
    await reply.final()
    assert reply.content == "edited 6 times"
    assert loop.time() - started >= 0.6  # three windows of 0.3 s
    assert table.server.stats.rate_limited == 0
    edited = table.channel("table-1").public_messages[-1]
    assert edited.content == "edit 6" and len(edited.edits) == 6


async def test_a_429_with_via_is_retried(make_table) -> None:
    """An injected 429 (Retry-After, Via) on message create is retried and succeeds."""
    table = await make_table(bot="probe")
    fault = table.server.inject_fault(
        "/channels/{channel_id}/messages", method="POST", status=429, retry_after=0.05
    )
    reply = await table.user("gm").run("/probe tracker")
    assert reply.content == "1 pinned"
    assert fault.served == 1
    assert table.server.count_calls("POST", "/channels/{channel_id}/messages") == 2


async def test_an_unanswered_command_times_out_with_what_arrived(make_table) -> None:
    """A wait that never completes raises with the label, callbacks and REST calls seen."""
    table = await make_table(bot="bare")
    table.server.inject_fault("/interactions/*", status=404, count=5)
    with pytest.raises(SandboxTimeout, match=r"/ping by alice in #table-1"):
        await table.user("alice").run("/ping", timeout=0.3)


async def test_the_bare_bot_answers_every_command_ephemerally(make_table) -> None:
    """The bare bot registers its schema and answers with a fixed ephemeral reply."""
    table = await make_table(bot="bare")
    reply = await table.user("alice").run("/ping")
    assert reply.ephemeral and reply.content == "ok"
    assert [c.route for c in reply.rest_calls] == [
        "/interactions/{interaction_id}/{interaction_token}/callback"
    ]


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("alice", "alice roles=- manage_channels=False manage_guild=False bot_can_pin=True"),
        ("admin", "admin roles=Moderator manage_channels=True manage_guild=True bot_can_pin=True"),
    ],
)
async def test_interactions_carry_the_members_permissions(
    table: SandboxTable, who: str, expected: str
) -> None:
    """The bot sees the invoker's roles and channel permissions, and its own app permissions."""
    reply = await table.user(who).run("/probe whoami", channel="table-3")
    assert reply.content == f"{expected} channel=table-3 locale=en-US"


async def test_channel_messages_through_discord_py(make_table) -> None:
    """send, fetch, edit, history, pin, pins, unpin and delete work as on Discord."""
    table = await make_table(bot="probe")
    bot = table.bot
    channel = bot.get_channel(table.channel("table-2").id)
    sent = await channel.send("first", embed=discord.Embed(title="T"))
    fetched = await channel.fetch_message(sent.id)
    assert (fetched.content, fetched.embeds[0].title) == ("first", "T")
    edited = await sent.edit(content="second")
    assert edited.content == "second" and edited.edited_at is not None
    assert [m.content async for m in channel.history(limit=5)] == ["second"]
    await sent.pin()
    assert [m.id async for m in channel.pins()] == [sent.id]
    await sent.unpin()
    assert [m async for m in channel.pins()] == []
    await sent.delete()
    stored = table.server.messages[sent.id]
    assert stored.deleted and [r.content for r in stored.edits] == ["first"]
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(sent.id)


async def test_a_modal_is_opened_and_submitted(table: SandboxTable) -> None:
    """A command may answer with a form (type 9); submitting it reaches the modal's handler."""
    alice = table.user("alice")
    opened = await alice.run("/probe form")
    assert opened.type == 9 and opened.record.modal["title"] == "Leave a note"
    submitted = await alice.submit_modal(opened, {"probe:note": "hello"})
    assert submitted.content == "noted hello"


async def test_the_rate_limiter_answers_429_in_discords_shape(server: LoopbackDiscord) -> None:
    """A client that ignores the headers gets a 429 with Retry-After, scope and Via, and it is counted."""
    server.rate_limits = RateLimitConfig(message_edit=(2, 30.0))
    channel = server.channel("table-1")
    msg = server.create_message(channel, server.bot_user, {"content": "x"})
    url = f"{server.api_base}/channels/{channel.id}/messages/{msg.id}"
    headers = {"Authorization": "Bot sandbox-token"}
    async with aiohttp.ClientSession() as http:
        statuses = []
        for n in range(3):
            async with http.patch(url, json={"content": str(n)}, headers=headers) as response:
                statuses.append(response.status)
                last = response
                body = await response.json()
    assert statuses == [200, 200, 429]
    assert last.headers["Content-Type"] == "application/json"
    assert last.headers["Via"] and last.headers["X-RateLimit-Scope"] == "user"
    assert int(last.headers["Retry-After"]) >= 1 and body["retry_after"] > 0
    assert server.stats.rate_limited == 1


async def test_a_rest_call_without_the_bot_token_is_unauthorized(server: LoopbackDiscord) -> None:
    """Bot routes need `Authorization: Bot …`; the answer is Discord's 401 body."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{server.api_base}/users/@me") as response,
    ):
        assert response.status == 401
        assert await response.json() == {"message": "401: Unauthorized", "code": 0}


async def test_a_new_member_can_act_at_once(table: SandboxTable) -> None:
    """A person added during the test runs commands with their roles."""
    table.server.add_member("carol", roles=["GM"])
    reply = await table.user("carol").run("/probe whoami")
    assert reply.content.startswith("carol roles=GM ")


async def test_an_oversized_file_is_refused_as_discord_does(server: LoopbackDiscord) -> None:
    """A file over the upload limit (10 MiB without boosts), or an 11th file, was stored."""
    server.attachment_size_limit = 1000
    channel = server.channel("table-1")
    url = f"{server.api_base}/channels/{channel.id}/messages"
    headers = {"Authorization": "Bot sandbox-token"}

    def form(*sizes: int) -> aiohttp.FormData:
        data = aiohttp.FormData()
        data.add_field("payload_json", '{"content": "log"}', content_type="application/json")
        for n, size in enumerate(sizes):
            data.add_field(f"files[{n}]", b"x" * size, filename=f"f{n}.md")
        return data

    async with aiohttp.ClientSession() as http:
        async with http.post(url, data=form(1001), headers=headers) as response:
            assert response.status == 413
            assert await response.json() == {"message": "Request entity too large", "code": 40005}
        async with http.post(url, data=form(*[10] * 11), headers=headers) as response:
            assert response.status == 400
            assert (await response.json())["errors"]["attachments"]["_errors"][0]["code"] == (
                "BASE_TYPE_MAX_LENGTH"
            )
        async with http.post(url, data=form(1000), headers=headers) as response:
            assert response.status == 200
            sent = await response.json()
    [attachment] = sent["attachments"]
    assert attachment["size"] == 1000 and server.attachment_bodies[attachment["id"]] == b"x" * 1000
    assert [m.content for m in server.channel_log(channel)] == ["log"]


async def test_a_bots_file_is_served_at_its_url(make_table) -> None:
    """A bot's file was not kept and served at its url, as Discord's CDN serves it."""
    table = await make_table(bot="probe")
    channel = table.bot.get_channel(table.channel("table-2").id)
    sent = await channel.send(file=discord.File(io.BytesIO(b'{"a": 1}'), filename="a.json"))
    (attachment,) = sent.attachments
    assert (attachment.filename, attachment.size) == ("a.json", 8)
    assert await attachment.read() == b'{"a": 1}'  # fetched from its url, as from the CDN
    assert table.server.file_content({"id": attachment.id}) == b'{"a": 1}'
