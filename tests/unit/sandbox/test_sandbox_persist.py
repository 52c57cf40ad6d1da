"""The sandbox's channels and messages, saved beside its database and read back."""

from __future__ import annotations

from pathlib import Path

from bot.sandbox.persist import load_world, save_world, world_file
from bot.sandbox.server import LoopbackDiscord


def test_messages_pins_and_dms_come_back_as_they_were(tmp_path: Path) -> None:
    """A restarted sandbox lost a message, its buttons, its pin or its edit."""
    before = LoopbackDiscord()
    table = before.channel("table-1")
    button = {"type": 2, "style": 1, "label": "Next", "custom_id": "tracker:next:1"}
    tracker = before.create_message(
        table,
        before.bot_user,
        {"embeds": [{"title": "Round 1"}], "components": [{"type": 1, "components": [button]}]},
    )
    before.edit_message(tracker, {"embeds": [{"title": "Round 2"}]})
    before.pin_message(tracker)
    said = before.post_user_message("alice", "table-2", "hello <@1>")
    dm = before.create_message(before.dm_channel("bob"), before.bot_user, {"content": "psst"})
    path = world_file(tmp_path / "sandbox.db")
    assert path.name == "sandbox.discord.json"
    save_world(before, path)

    after = LoopbackDiscord()
    assert load_world(after, path) == 4  # the tracker, its pin notice, alice's line, the DM
    kept = after.messages[tracker.id]
    assert kept.payload() == tracker.payload()
    assert kept.pinned and after.pinned("table-1") == [kept] and kept.buttons == [button]
    assert after.messages[said.id].content == "hello <@1>"
    assert after.channel_log(after.dm_channel("bob")) == [after.messages[dm.id]]
    assert after.ids.next() > max(after.messages)


def test_ephemeral_and_deleted_messages_are_forgotten(tmp_path: Path) -> None:
    """A message deleted came back after a restart."""
    before = LoopbackDiscord()
    gone = before.post_user_message("alice", "table-1", "oops")
    before.delete_message(gone)
    path = tmp_path / "w.json"
    save_world(before, path)
    after = LoopbackDiscord()
    assert load_world(after, path) == 0 and after.messages == {}


def test_a_damaged_file_leaves_the_channels_empty(tmp_path: Path) -> None:
    """A broken channels file stopped the sandbox instead of starting it empty."""
    path = tmp_path / "w.json"
    path.write_text("{not json", encoding="utf-8")
    assert load_world(LoopbackDiscord(), path) == 0
    assert load_world(LoopbackDiscord(), tmp_path / "missing.json") == 0
