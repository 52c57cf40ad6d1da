"""/character end to end: sheets per player per server, the active character, fights, bad input."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.rules.models import Character, Combatant
from bot.sandbox.client import InteractionResult, SandboxTable, SandboxUser
from bot.sandbox.commandline import build_command_data
from bot.sandbox.harness import running_bot
from bot.sandbox.records import APPLICATION_COMMAND, BUTTON, MESSAGE_COMPONENT
from bot.sandbox.server import LoopbackDiscord
from bot.sandbox.snowflake import WORLD_EPOCH_MS, SnowflakeGenerator
from bot.sandbox.world import Guild
from tests.e2e.conftest import tablehand_bot
from tests.e2e.helpers import unmentioned

pytestmark = pytest.mark.e2e

EDITABLE = (
    "name, physical, finesse, grit, max_grit, risk, crit_range, perception_m, "
    "initiative_bonus, default_defense, durability, stamina, mastery_rank, tags"
)


# Helpers ----------------------------------------------------------------------------------


def root_id(table: SandboxTable, name: str) -> str:
    """Return the id Discord gave a synced command (what a mention of it carries)."""
    return next(c["id"] for c in table.server.synced_commands() if c["name"] == name)


async def sheet(table: SandboxTable, owner: str, name: str) -> Character | None:
    """Read a player's character as stored now (None: there is none)."""
    store = table.bot.store  # type: ignore[attr-defined]
    return await store.get_character(table.server.guild.id, table.user(owner).id, name)


async def fighter(table: SandboxTable, name: str) -> Combatant | None:
    """Read a combatant of table-1's encounter as stored now (None: not in the fight)."""
    encounter = await table.bot.store.peek(table.channel().id)  # type: ignore[attr-defined]
    assert encounter is not None
    return next((c for c in encounter.combatants if c.name == name), None)


def assert_refused(reply: InteractionResult, message: str) -> None:
    """The reply is the one-line ephemeral error `message` (its commands shown by name)."""
    assert reply.ephemeral
    assert unmentioned(reply.content) == message
    assert "\n" not in reply.content


def fields(reply: InteractionResult) -> dict[str, str]:
    """Return an embed's fields as name → value."""
    return {f["name"]: f["value"] for f in reply.embed["fields"]}


async def send_raw(
    user: SandboxUser, command: str, options: dict, **replace: str
) -> InteractionResult:
    """Send a command with option values Discord's client would not allow (an outdated client)."""
    table = user.table
    data = build_command_data(
        table.command(command), options, guild=table.server.guild, invoker=user.member
    )
    for option in data["options"][0]["options"]:
        option["value"] = replace.get(option["name"], option["value"])
    record = table.server.dispatch_interaction(
        member=user.member,
        channel=table.server.channel("table-1"),
        type=APPLICATION_COMMAND,
        data=data,
        label=f"/{command} (raw)",
    )
    return await InteractionResult(table, user, record).responded()


async def click_as(user: SandboxUser, reply: InteractionResult, label: str) -> InteractionResult:
    """Click a button on someone else's ephemeral message, as a forged request would."""
    message = reply.find_button_message(label)
    button = message.find_button(label)
    record = user.table.server.dispatch_interaction(
        member=user.member,
        channel=user.table.server.channel(message.channel_id),
        type=MESSAGE_COMPONENT,
        data={"custom_id": button["custom_id"], "component_type": BUTTON},
        label=f"button {label}",
        message=message,
    )
    return await InteractionResult(user.table, user, record).responded()


# Create, show, list, use -------------------------------------------------------------------


async def test_create_makes_the_first_character_active(table: SandboxTable) -> None:
    """The first character is created with the given stats and becomes the active one."""
    reply = await table.user("alice").run(
        "/character create name:Mira physical:3 finesse:2 grit:22 risk:1"
    )
    assert reply.ephemeral
    init = root_id(table, "init")
    assert (
        reply.content
        == f"Created **Mira**. It is your active character: </init join:{init}> plays it."
    )
    mira = await sheet(table, "alice", "Mira")
    assert mira is not None
    # Grit given without a maximum is the maximum too [GAME.md §1, bot]: 22 of 22.
    assert (mira.physical, mira.finesse, mira.grit, mira.max_grit, mira.risk) == (3, 2, 22, 22, 1)


async def test_a_new_sheet_takes_30_of_30_or_the_grit_or_maximum_given(table: SandboxTable) -> None:
    """/character create gave 12/30 for grit:12, or refused grit above an unstated maximum."""
    alice = table.user("alice")
    for line, expected in (
        ("/character create name:Ash", (30, 30)),  # [GAME.md §1, bot]: 30 of 30
        ("/character create name:Bea grit:12", (12, 12)),
        ("/character create name:Cid max_grit:20", (20, 20)),
        ("/character create name:Dov grit:12 max_grit:20", (12, 20)),
        ("/character create name:Eve grit:40", (40, 40)),
    ):
        await alice.run(line)
        made = await sheet(table, "alice", line.split("name:")[1].split()[0])
        assert made is not None and (made.grit, made.max_grit) == expected, line


async def test_a_second_character_leaves_the_active_one(table: SandboxTable) -> None:
    """Creating another character keeps the active one and says which it is."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    reply = await alice.run("/character create name:Tamsin")
    assert reply.content == (
        "Created **Tamsin**. Your active character is still Mira "
        f"(</character use:{root_id(table, 'character')}> changes it)."
    )


async def test_show_renders_the_sheet_with_the_grit_table_row(table: SandboxTable) -> None:
    """/character show gives the stats, Grit bar, level, die and the Grit table's row."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira physical:3 finesse:-1 grit:12 mastery_rank:2")
    reply = await alice.run("/character show")
    assert reply.ephemeral
    assert reply.embed["title"] == "Mira"
    assert reply.embed["description"] == "Your active character (`/init join` uses it)."
    assert fields(reply) == {
        "Grit": "`██████████` 12/12\n**Reduced** — rolls d12",
        "Grit table (Reduced)": "Threat 10 m · Mobility 4 m · Vigor 8 m · Perception 8 m",
        "Physical": "+3",
        "Finesse": "-1",
        "Risk": "0",
        "Initiative bonus": "0",
        "Mastery Rank": "2",
        "Crit range": "1",
        "Default defense": "auto",
    }


async def test_list_shows_only_the_callers_characters(table: SandboxTable) -> None:
    """/character list lists the caller's characters, the active one marked, nobody else's."""
    alice = table.user("alice")
    await alice.run("/character create name:Tamsin grit:5")
    await alice.run("/character create name:Mira")
    await table.user("bob").run("/character create name:Brom")
    reply = await alice.run("/character list")
    assert reply.embed["description"] == (
        "▫ **Mira** · Grit 30/30 Prime d20\n▶ **Tamsin** · Grit 5/5 Frail d10 · active"
    )


async def test_use_switches_the_character_init_join_plays(table: SandboxTable) -> None:
    """After /character use, /init join brings that character with its stats."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    await alice.run("/character create name:Tamsin finesse:4 grit:14")
    reply = await alice.run("/character use name:tamsin")
    init = root_id(table, "init")
    assert reply.content == f"**Tamsin** is your active character: </init join:{init}> plays it."
    await table.user("gm").run("/init start")
    await alice.run("/init join")
    tamsin = await fighter(table, "Tamsin")
    assert tamsin is not None
    assert (tamsin.finesse, tamsin.grit, tamsin.controller_id) == (4, 14, alice.id)


async def test_autocomplete_offers_only_the_callers_names(table: SandboxTable) -> None:
    """The name option autocompletes the caller's own characters only."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    await alice.run("/character create name:Mirabel")
    await table.user("bob").run("/character create name:Miro")
    choices = await alice.autocomplete("character show", "name", "mir")
    assert [c["value"] for c in choices] == ["Mira", "Mirabel"]


# Grit across fights ------------------------------------------------------------------------


async def test_a_fight_starts_from_the_sheets_current_grit(table: SandboxTable) -> None:
    """Grit lost outside combat is kept, and /init join starts the fight from it."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    await alice.run("/grit damage combatant:Mira amount:7")
    await table.user("gm").run("/init start")
    await alice.run("/init join")
    mira = await fighter(table, "Mira")
    assert mira is not None and mira.grit == 23


async def test_leaving_the_fight_writes_its_grit_back(table: SandboxTable) -> None:
    """/init remove writes the fight's Grit and Injuries back to the sheet."""
    alice, gm = table.user("alice"), table.user("gm")
    await alice.run("/character create name:Mira grit:6")
    await gm.run("/init start")
    await alice.run("/init join")
    await gm.run("/grit damage combatant:Mira amount:9")
    assert (await sheet(table, "alice", "Mira")).grit == 6  # type: ignore[union-attr]
    await gm.run("/init remove combatant:Mira")
    mira = await sheet(table, "alice", "Mira")
    assert mira is not None and (mira.grit, mira.injuries) == (0, 1)


async def test_ending_the_fight_writes_its_grit_back(table: SandboxTable) -> None:
    """/init end writes each character's fight Grit back to its sheet."""
    alice, gm = table.user("alice"), table.user("gm")
    await alice.run("/character create name:Mira")
    await gm.run("/init start")
    await alice.run("/init join")
    await gm.run("/grit set combatant:Mira value:17 max:35")
    ending = await gm.run("/init end")
    await ending.click("Confirm")
    mira = await sheet(table, "alice", "Mira")
    assert mira is not None and (mira.grit, mira.max_grit) == (17, 35)


async def test_editing_a_character_in_a_fight_leaves_the_fights_copy(table: SandboxTable) -> None:
    """An edit during a fight changes the sheet; the fight keeps its copy until it ends."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira physical:2")
    await table.user("gm").run("/init start")
    await alice.run("/init join")
    reply = await alice.run("/character edit name:Mira field:physical value:6")
    assert reply.content == "**Mira**: physical 2 → 6."
    assert (await sheet(table, "alice", "Mira")).physical == 6  # type: ignore[union-attr]
    assert (await fighter(table, "Mira")).physical == 2  # type: ignore[union-attr]


async def test_editing_grit_in_a_fight_is_refused(table: SandboxTable) -> None:
    """A sheet's Grit cannot be edited while a fight holds the character's copy."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    await table.user("gm").run("/init start")
    await alice.run("/init join")
    reply = await alice.run("/character edit name:Mira field:grit value:3")
    assert_refused(
        reply,
        f"Mira is in the fight in <#{table.channel().id}>: change their Grit there with /grit; "
        "the fight writes it back when they leave or it ends.",
    )
    assert (await sheet(table, "alice", "Mira")).grit == 30  # type: ignore[union-attr]


# Edit ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "stored", "said"),
    [
        ("physical", "-4", -4, "physical 0 → -4"),
        ("perception_m", "12", 12, "perception m none → 12"),
        ("default_defense", "Break Away", "break_away", "default defense auto → break away"),
        ("tags", "Fiend, Stealth", ["Fiend", "Stealth"], "tags none → Fiend, Stealth"),
        ("name", "Mira Vell", "Mira Vell", "name Mira → Mira Vell"),
    ],
)
async def test_edit_parses_the_value_as_the_fields_type(
    table: SandboxTable, field: str, value: str, stored: object, said: str
) -> None:
    """/character edit reads the text value as the field's type and stores it."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    reply = await alice.run(f"/character edit name:Mira field:{field}", value=value)
    new_name = "Mira Vell" if field == "name" else "Mira"
    assert reply.content == f"**{new_name}**: {said}."
    assert getattr(await sheet(table, "alice", new_name), field) == stored


async def test_editing_grit_announces_the_level_change(table: SandboxTable) -> None:
    """Editing grit goes through the Grit path: public, with the level line."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    reply = await alice.run("/character edit name:Mira field:grit value:10")
    assert not reply.ephemeral
    assert reply.content == (
        "Mira's Grit is set to 10 (Grit 30 → 10). Mira drops to Frail Grit — now rolls d10."
    )


async def test_lowering_max_grit_lowers_grit_with_it(table: SandboxTable) -> None:
    """Editing max_grit below the current Grit brings Grit down to it."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    reply = await alice.run("/character edit name:Mira field:max_grit value:20")
    assert reply.content == (
        "Mira's maximum Grit is now 20 (Grit 30 → 20, max 30 → 20). "
        "Mira drops to Reduced Grit — now rolls d12."
    )


BAD_EDITS = [
    pytest.param(
        "physical",
        "strong",
        "physical takes a whole number from -50 to 100, not 'strong'.",
        id="wrong-type",
    ),
    pytest.param("physical", "500", "physical must be from -50 to 100 (got 500).", id="too-large"),
    pytest.param(
        "stamina",
        "lots",
        "stamina takes a whole number from 0 to 999 (or none), not 'lots'.",
        id="wrong-type-clearable",
    ),
    pytest.param(
        "default_defense",
        "parry",
        "default_defense is one of auto, block, dodge, break_away, take_cover, not 'parry'.",
        id="not-a-choice",
    ),
    pytest.param("grit", "31", "Grit 31 is above max_grit 30.", id="grit-above-max"),
    pytest.param("name", "Tamsin", "You already have a character named Tamsin.", id="name-taken"),
]


@pytest.mark.parametrize(("field", "value", "message"), BAD_EDITS)
async def test_a_bad_edit_is_refused_and_changes_nothing(
    table: SandboxTable, field: str, value: str, message: str
) -> None:
    """A value of the wrong type or out of range is a one-line ephemeral error; the sheet stays."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    await alice.run("/character create name:Tamsin")
    before = await sheet(table, "alice", "Mira")
    reply = await alice.run(f"/character edit name:Mira field:{field}", value=value)
    assert_refused(reply, message)
    assert await sheet(table, "alice", "Mira") == before


async def test_editing_an_unknown_field_is_refused(table: SandboxTable) -> None:
    """A field outside the choices (an outdated client) is refused; the sheet stays."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    before = await sheet(table, "alice", "Mira")
    reply = await send_raw(
        alice,
        "character edit",
        {"name": "Mira", "field": "physical", "value": "5"},
        field="strength",
    )
    assert_refused(reply, f"There is no field 'strength'; editable: {EDITABLE}.")
    assert await sheet(table, "alice", "Mira") == before


async def test_an_unknown_character_is_refused(table: SandboxTable) -> None:
    """Editing a character you do not have is a clear error."""
    reply = await table.user("alice").run("/character edit name:Nobody field:physical value:1")
    assert_refused(reply, "You have no character named 'Nobody' on this server.")


async def test_a_duplicate_name_is_refused_whatever_its_case(table: SandboxTable) -> None:
    """Names are unique per player per server, case-insensitively."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    reply = await alice.run("/character create name:MIRA physical:5")
    assert_refused(reply, "You already have a character named Mira.")
    assert (await sheet(table, "alice", "Mira")).physical == 0  # type: ignore[union-attr]


async def test_grit_above_max_on_create_is_refused(table: SandboxTable) -> None:
    """Creating with grit above max_grit is refused and creates nothing."""
    reply = await table.user("alice").run("/character create name:Mira grit:40 max_grit:30")
    assert_refused(reply, "Grit 40 is above max_grit 30.")
    assert await sheet(table, "alice", "Mira") is None


# Other players ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "/character show name:Mira",
        "/character edit name:Mira field:physical value:9",
        "/character use name:Mira",
        "/character delete name:Mira",
    ],
)
async def test_a_player_cannot_reach_another_players_character(
    table: SandboxTable, line: str
) -> None:
    """Bob cannot show, edit, use or delete Alice's character: to him it does not exist."""
    await table.user("alice").run("/character create name:Mira physical:1")
    reply = await table.user("bob").run(line)
    assert_refused(reply, "You have no character named 'Mira' on this server.")
    assert (await sheet(table, "alice", "Mira")).physical == 1  # type: ignore[union-attr]


async def test_two_players_may_have_characters_of_the_same_name(table: SandboxTable) -> None:
    """Alice's Mira and Bob's Mira are two characters; editing one leaves the other."""
    await table.user("alice").run("/character create name:Mira physical:1")
    await table.user("bob").run("/character create name:Mira physical:2")
    await table.user("bob").run("/character edit name:Mira field:physical value:7")
    assert (await sheet(table, "alice", "Mira")).physical == 1  # type: ignore[union-attr]
    assert (await sheet(table, "bob", "Mira")).physical == 7  # type: ignore[union-attr]


def second_server(first: Guild) -> Guild:
    """Return another server with its own ids, where alice and bob are the same users."""
    ticks = iter(range(1 << 62))
    guild = Guild(
        name="Second Server",
        ids=SnowflakeGenerator(lambda: (WORLD_EPOCH_MS + 10**9 + next(ticks)) / 1000, worker=3),
    )
    for name in ("alice", "bob"):
        member = guild.member_named(name)
        assert member is not None
        del guild.members[member.id]
        member.user = first.member_named(name).user  # type: ignore[union-attr]
        guild.members[member.id] = member
    return guild


async def at_server(
    guild: Guild, tmp_path: Path, play: Callable[[SandboxTable], Awaitable[None]]
) -> None:
    """Run the bot on one server (the database in tmp_path is shared across calls)."""
    async with LoopbackDiscord(guild=guild) as server:
        bot = tablehand_bot(server, tmp_path)
        async with running_bot(server, bot):
            table = SandboxTable(server)
            table.bot = bot  # type: ignore[attr-defined]
            await play(table)


async def test_characters_stay_separate_across_servers(tmp_path: Path) -> None:
    """The same two players' characters on one server are not those on another."""
    first = Guild()
    other = second_server(first)
    assert other.id != first.id
    assert other.member_named("alice").id == first.member_named("alice").id  # type: ignore[union-attr]

    async def on_first(table: SandboxTable) -> None:
        await table.user("alice").run("/character create name:Mira physical:3")
        await table.user("bob").run("/character create name:Brom")

    async def on_other(table: SandboxTable) -> None:
        alice, bob = table.user("alice"), table.user("bob")
        listed = await alice.run("/character list")
        assert listed.embed["description"] == "None yet: `/character create name`."
        refused = await bob.run("/character show name:Brom")
        assert_refused(refused, "You have no character named 'Brom' on this server.")
        await alice.run("/character create name:Mira physical:8")

    async def back_on_first(table: SandboxTable) -> None:
        shown = await table.user("alice").run("/character show")
        assert fields(shown)["Physical"] == "+3"
        listed = await table.user("bob").run("/character list")
        assert listed.embed["description"] == "▶ **Brom** · Grit 30/30 Prime d20 · active"

    await at_server(first, tmp_path, on_first)
    await at_server(other, tmp_path, on_other)
    await at_server(first, tmp_path, back_on_first)


# Delete ----------------------------------------------------------------------------------------


async def test_delete_asks_and_confirm_deletes(table: SandboxTable) -> None:
    """/character delete asks first; Confirm deletes the character."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    asked = await alice.run("/character delete name:mira")
    assert asked.ephemeral
    assert asked.content == "Delete **Mira** for good?"
    assert [b["label"] for b in asked.buttons] == ["Confirm", "Cancel"]
    await asked.click("Confirm")
    assert asked.content == "**Mira** is deleted."
    assert asked.buttons == []
    assert await sheet(table, "alice", "Mira") is None


async def test_cancel_keeps_the_character(table: SandboxTable) -> None:
    """Cancel on the delete question keeps the character."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    asked = await alice.run("/character delete name:Mira")
    await asked.click("Cancel")
    assert asked.content == "Nothing was deleted."
    assert await sheet(table, "alice", "Mira") is not None


async def test_only_the_author_can_confirm_a_delete(table: SandboxTable) -> None:
    """Someone else pressing Confirm is told it is not theirs; nothing is deleted."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    asked = await alice.run("/character delete name:Mira")
    refusal = await click_as(table.user("bob"), asked, "Confirm")
    assert_refused(refusal, "This is not for you.")
    assert await sheet(table, "alice", "Mira") is not None


async def test_deleting_the_only_character_leaves_none_active(table: SandboxTable) -> None:
    """After the only character is deleted, /init join did not say how to make or join one."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    asked = await alice.run("/character delete name:Mira")
    assert (await asked.click("Confirm")).content == "**Mira** is deleted."
    await table.user("gm").run("/init start")
    reply = await alice.run("/init join")
    assert_refused(
        reply,
        "You have no character on this server: /character create makes one, or join without "
        "one: a name (`character:`) and stats.",
    )


async def test_deleting_the_active_character_makes_another_active(table: SandboxTable) -> None:
    """Deleting the active character left none active though another was there to play."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    await alice.run("/character create name:Tamsin finesse:4")
    asked = await alice.run("/character delete name:Mira")
    deleted = await asked.click("Confirm")
    assert deleted.content == "**Mira** is deleted. **Tamsin** is your active character now."
    await table.user("gm").run("/init start")
    joined = await alice.run("/init join")
    assert joined.content == "**Tamsin** joins the fight."


async def test_without_an_active_character_join_offers_the_players_sheets(
    table: SandboxTable,
) -> None:
    """/init join with sheets but none active told the player to create one."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    await alice.run("/character create name:Tamsin")
    # A sheet deleted before another was made active (as older versions did) leaves none.
    with sqlite3.connect(table.bot.settings.db_path) as db:  # type: ignore[attr-defined]
        db.execute("DELETE FROM active_characters")
    await table.user("gm").run("/init start")
    asked = await alice.run("/init join")
    assert asked.ephemeral
    assert unmentioned(asked.content) == (
        "You have no active character: name one (`character`), or make one active with "
        "/character use `name:Mira` (yours: Mira and Tamsin), or join without one: a name "
        "(`character:`) and stats."
    )
    joined = await alice.select(asked.message, ["Tamsin"])
    assert joined.content == "**Tamsin** joins the fight."


async def test_a_name_close_to_a_sheet_asks_did_you_mean(table: SandboxTable) -> None:
    """/init join character:Trov with a sheet named Torv made a blank combatant named Trov."""
    alice = table.user("alice")
    await alice.run("/character create name:Torv physical:3 grit:22")
    await table.user("gm").run("/init start")
    asked = await alice.run("/init join character:Trov")
    assert asked.ephemeral
    assert asked.content == (
        "You have no character named 'Trov'. Did you mean Torv? "
        "(Choose Trov to join without a sheet.)"
    )
    menu = asked.message.components[0]["components"][0]
    assert [(o["value"], o.get("description")) for o in menu["options"]] == [
        ("Torv", None),
        ("Trov", "join without a sheet, as typed"),
    ]
    joined = await alice.select(asked.message, ["Torv"])
    assert joined.content == "**Torv** joins the fight."
    played = await fighter(table, "Torv")
    assert played is not None and played.character_id is not None and played.physical == 3


async def test_the_typed_name_from_the_menu_joins_without_a_sheet(table: SandboxTable) -> None:
    """Choosing the typed name in the "did you mean" menu asked again instead of joining."""
    alice = table.user("alice")
    await alice.run("/character create name:Torv")
    await table.user("gm").run("/init start")
    asked = await alice.run("/init join character:Trov finesse:4")
    joined = await alice.select(asked.message, ["Trov"])
    assert joined.content == "**Trov** joins the fight."
    played = await fighter(table, "Trov")
    assert played is not None and played.character_id is None and played.finesse == 4


async def test_a_character_in_a_fight_cannot_be_deleted(table: SandboxTable) -> None:
    """Deleting a character a fight is playing is refused until it leaves."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    await table.user("gm").run("/init start")
    await alice.run("/init join")
    reply = await alice.run("/character delete name:Mira")
    assert_refused(
        reply, f"Mira is in the fight in <#{table.channel().id}>; delete them after they leave it."
    )
    assert await sheet(table, "alice", "Mira") is not None


async def test_init_join_autocompletes_the_callers_characters(table: SandboxTable) -> None:
    """/init join's character option offers the caller's own characters."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    await alice.run("/character create name:Tamsin")
    await table.user("bob").run("/character create name:Brom")
    choices = await alice.autocomplete("init join", "character", "")
    assert [c["value"] for c in choices] == ["Mira", "Tamsin"]
