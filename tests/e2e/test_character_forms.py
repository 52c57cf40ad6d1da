"""/character create and edit as forms (Discord modals), beside the typed options."""

from __future__ import annotations

import pytest

from bot.rules.models import Character
from bot.sandbox.client import SandboxTable

pytestmark = pytest.mark.e2e


async def sheet(table: SandboxTable, owner: str, name: str) -> Character | None:
    store = table.bot.store  # type: ignore[attr-defined]
    return await store.get_character(table.server.guild.id, table.user(owner).id, name)


def fields(modal: dict) -> dict[str, str]:
    """Return a modal's text inputs by custom_id, with what they are filled in with."""
    return {
        c["custom_id"]: c.get("value") or ""
        for row in modal["components"]
        for c in row["components"]
    }


async def test_create_without_options_opens_a_form_that_creates_the_character(
    table: SandboxTable,
) -> None:
    """/character create with no options did not open a form, or its answer was not the sheet."""
    alice = table.user("alice")
    opened = await alice.run("/character create")
    assert opened.type == 9
    assert opened.record.modal["title"] == "New character"
    assert fields(opened.record.modal) == {
        "name": "",
        "physical": "0",
        "finesse": "0",
        "grit": "30/30",
        "more": "risk: 0\ninitiative_bonus: 0\nmastery_rank: 1",
    }
    done = await alice.submit_modal(
        opened,
        {"name": "Torv", "physical": "3", "grit": "12", "more": "mastery_rank: 2; risk: 1"},
    )
    assert done.ephemeral and done.content.startswith("Created **Torv**. It is your active")
    torv = await sheet(table, "alice", "Torv")
    assert torv is not None
    assert (torv.physical, torv.finesse, torv.grit, torv.max_grit) == (3, 0, 12, 12)
    assert (torv.risk, torv.initiative_bonus, torv.mastery_rank) == (1, 0, 2)


async def test_a_bad_form_is_refused_in_one_line_and_creates_nothing(table: SandboxTable) -> None:
    """A form with a bad value created a character, or its refusal was not one private line."""
    alice = table.user("alice")
    for typed, refusal in (
        ({"name": "Torv", "physical": "lots"}, "physical takes a whole number from -50 to 100"),
        ({"name": "Torv", "grit": "40/30"}, "Grit 40 is above max_grit 30."),
        ({"name": "Torv", "more": "luck: 3"}, "Write each line as field: value"),
        ({"name": "  "}, "A character needs a name."),
    ):
        opened = await alice.run("/character create")
        refused = await alice.submit_modal(opened, typed)
        assert refused.ephemeral and "\n" not in refused.content
        assert refusal in refused.content, refused.content
    assert await sheet(table, "alice", "Torv") is None


async def test_typed_options_still_create_at_once(table: SandboxTable) -> None:
    """/character create with a name opened a form instead of creating the character."""
    reply = await table.user("alice").run("/character create name:Torv finesse:4")
    assert reply.type == 4 and reply.content.startswith("Created **Torv**.")
    with_stats_only = await table.user("alice").run("/character create finesse:4")
    assert with_stats_only.content == (
        "A new character needs a name (or leave every option out for a form)."
    )


async def test_edit_without_a_field_opens_the_sheet_as_a_form(table: SandboxTable) -> None:
    """/character edit with a name only did not open the sheet, filled in, as a form."""
    alice = table.user("alice")
    await alice.run("/character create name:Torv physical:2 grit:20 max_grit:25")
    opened = await alice.run("/character edit name:Torv")
    shown = fields(opened.record.modal)
    assert opened.record.modal["title"] == "Edit Torv"
    assert (shown["name"], shown["physical"], shown["grit"]) == ("Torv", "2", "20/25")
    assert shown["more"].splitlines()[:3] == ["risk: 0", "crit_range: 1", "perception_m: none"]
    assert "tags: none" in shown["more"]
    done = await alice.submit_modal(
        opened,
        {"name": "Torvald", "finesse": "5", "more": shown["more"].replace("risk: 0", "risk: 2")},
    )
    assert done.content == "**Torvald**: name Torv → Torvald; finesse 0 → 5; risk 0 → 2."
    assert done.ephemeral
    torvald = await sheet(table, "alice", "Torvald")
    assert torvald is not None and (torvald.finesse, torvald.risk, torvald.grit) == (5, 2, 20)


async def test_a_grit_change_in_the_form_is_announced_like_grit(table: SandboxTable) -> None:
    """Lowering Grit in the edit form did not announce the level change to the table."""
    alice = table.user("alice")
    await alice.run("/character create name:Torv")
    opened = await alice.run("/character edit")  # the active character
    done = await alice.submit_modal(opened, {"grit": "10", "physical": "1"})
    assert not done.ephemeral
    assert "Torv" in done.content and "30 → 10" in done.content
    (private,) = await done.wait_followups(1)
    assert private.ephemeral and private.content == "**Torv**: physical 0 → 1."
    torv = await sheet(table, "alice", "Torv")
    assert torv is not None and (torv.grit, torv.max_grit, torv.physical) == (10, 30, 1)


async def test_half_an_edit_is_refused(table: SandboxTable) -> None:
    """/character edit with a field but no value was not refused in one line."""
    alice = table.user("alice")
    await alice.run("/character create name:Torv")
    reply = await alice.run("/character edit name:Torv field:finesse")
    assert reply.content == "Give both field and value, or leave both out to edit in a form."
