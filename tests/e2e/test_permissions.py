"""Who may do what: every mutating command × {the GM, the target's controller, another player}.

COMMANDS.md "Who may do what": the GM of a channel's encounter is whoever ran /init
start (or has Manage Channels, or the GM role); a player acts for the combatants they
control; anything else needs GM rights. Each row below names one command aimed at
alice's Mira (where it names a combatant) and who may run it. A refusal must be one
ephemeral line with its reason and change nothing anywhere; an allowed command must
change the stored state.

The three roles play in three channels with the same fight, so one bot serves a row:
`gm` ran /init start everywhere, `alice` controls Mira, `bob` controls Brom. For
/settings the roles are a member with Manage Server (`admin`), the encounter's GM and a
player; for /character, the sheet's owner (alice), the GM and another player. Every
GM-only row is also played by the other two kinds of GM: a member with Manage Channels
(`admin`) and a member of the server's GM role (`carol`).

Decisions where COMMANDS.md leaves room (each is the bot's behaviour, asserted here):
- /init remove, /init move: the GM only, even for the caller's own combatant.
- /init next: the GM, or the player of the combatant whose turn it is.
- /defend: the defender's player only; the GM answers only for NPCs ("This is not your
  defense."), so a GM cannot choose a player's defense for them.
- /character edit and delete: the owner only; a character is private, so the GM is
  refused like anyone else ("You have no character named …").
- /settings: Manage Server only; being an encounter's GM gives no server settings.
- /character export: the owner only; /character import: anyone, and the sheet it makes is
  the importer's (a sheet file may be handed from player to player).
- /npc: GM rights as for an encounter's NPCs (the channel's encounter GM, Manage Channels,
  the GM role); a template is the server's, so its name carries the channel's number.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bot.sandbox.client import SandboxTable
from tests.e2e.helpers import script
from tests.e2e.invariants import assert_error_reply, assert_no_internals, stored
from tests.scripted import Face, d20

pytestmark = pytest.mark.e2e

CHANNELS = ("table-1", "table-2", "table-3")
PLAYERS = {"gm": "gm", "controller": "alice", "other": "bob"}
SERVER = {"manager": "admin", "gm": "gm", "player": "alice"}

FIGHT = (
    ("gm", "/init start mode:finesse"),
    ("alice", "/init join character:Mira finesse:5"),
    ("bob", "/init join character:Brom finesse:1"),
    ("gm", "/init add name:Goblin finesse:3"),
)
TURNS = (("gm", "/init next"),)  # the order is set: Mira 5, Goblin 3, Brom 1; Mira acts

NOT_GM = "Only the GM can"
NOT_YOURS = "Mira is another player's combatant; you cannot act for it."
NOT_YOUR_DEFENSE = "This is not your defense."
NOT_MANAGER = "Only members with Manage Server can"
NOT_OWNER = "You have no character named 'Vex"
PRIVATE = ("/character", "/npc")  # sheets and templates are answered privately


@dataclass(frozen=True)
class Row:
    """One command, who may run it, and how everyone else is refused."""

    command: str  # `{n}` is the channel's number (a sheet per channel)
    allowed: tuple[str, ...]
    refusal: str
    prep: tuple[tuple[str, str], ...] = ()
    roles: dict[str, str] | None = None  # default PLAYERS
    confirm: bool = False  # allowed: asks to confirm; Confirm carries it out
    dice: tuple[Face, ...] = ()  # every face the row draws, in order, all channels together

    @property
    def id(self) -> str:
        """The command's name: `/init add`, `/grit heal`."""
        return " ".join(w for w in self.command.split() if ":" not in w)


GM_ONLY = ("gm",)
ACTS_FOR = ("gm", "controller")

ROWS = [
    Row("/init add name:Orc", GM_ONLY, NOT_GM),
    Row("/init remove combatant:Mira", GM_ONLY, NOT_GM),
    Row("/init next", ACTS_FOR, "It is Mira's turn; only its player or the GM", TURNS),
    Row("/init prev", GM_ONLY, NOT_GM, (*TURNS, ("gm", "/init next"))),
    Row("/init round", GM_ONLY, NOT_GM, TURNS),
    # Brom, still to act, moves before the Goblin (Mira, acting, may not be moved).
    Row("/init move combatant:Brom position:2", GM_ONLY, NOT_GM, TURNS),
    Row(
        "/init reveal combatant:Lurker",
        GM_ONLY,
        NOT_GM,
        (("gm", "/init add name:Lurker hidden:true"),),
    ),
    Row("/init end", GM_ONLY, NOT_GM, confirm=True),
    Row("/haste combatant:Mira", ACTS_FOR, NOT_YOURS),
    Row("/wait combatant:Mira", ACTS_FOR, NOT_YOURS, TURNS),
    Row("/act combatant:Mira", ACTS_FOR, NOT_YOURS, (*TURNS, ("alice", "/wait"))),
    Row("/hold combatant:Mira", ACTS_FOR, NOT_YOURS, (*TURNS, ("alice", "/wait"))),
    Row("/sacrifice combatant:Mira", ACTS_FOR, NOT_YOURS, TURNS),
    Row("/declare action:Strike combatant:Mira", ACTS_FOR, NOT_YOURS),
    Row(
        "/undeclare combatant:Mira",
        ACTS_FOR,
        NOT_YOURS,
        (("alice", "/declare action:Strike"),),
    ),
    Row(
        "/attack target:Goblin attacker:Mira",
        ACTS_FOR,
        NOT_YOURS,
        TURNS,
        dice=(d20(15), d20(4)),  # Mira's attack, made by the GM, then by alice
    ),
    Row(
        "/defend strategy:dodge combatant:Mira",
        ("controller",),
        NOT_YOUR_DEFENSE,
        (*TURNS, ("gm", "/attack target:Mira attacker:Goblin force:true")),
        # The Goblin's attack in each channel: a plain one that waits for a defense; then
        # alice's dodge.
        dice=(d20(10), d20(10), d20(10), d20(3)),
    ),
    Row("/grit damage combatant:Mira amount:3", ACTS_FOR, NOT_YOURS),
    Row(
        "/grit heal combatant:Mira amount:2",
        ACTS_FOR,
        NOT_YOURS,
        (("gm", "/grit damage combatant:Mira amount:5"),),
    ),
    Row("/grit set combatant:Mira value:12", ACTS_FOR, NOT_YOURS),
    Row("/grit modifier combatant:Mira levels:1", ACTS_FOR, NOT_YOURS),
    Row("/effect apply combatant:Mira special:Ruin x:2", ACTS_FOR, NOT_YOURS),
    Row(
        "/effect cleanse combatant:Mira special:Ruin x:1",
        ACTS_FOR,
        NOT_YOURS,
        (("gm", "/effect apply combatant:Mira special:Ruin x:2"),),
    ),
    Row(
        "/effect remove combatant:Mira special:Ruin",
        ACTS_FOR,
        NOT_YOURS,
        (("gm", "/effect apply combatant:Mira special:Ruin x:2"),),
    ),
    Row("/move distance:4 combatant:Mira", ACTS_FOR, NOT_YOURS, TURNS),
    Row("/init edit combatant:Mira perception:12", GM_ONLY, NOT_GM),
    Row("/hide combatant:Mira", ACTS_FOR, NOT_YOURS, TURNS, dice=(d20(10), d20(10))),
    Row("/cover combatant:Mira", ACTS_FOR, NOT_YOURS, TURNS),
    Row("/engage target:Goblin combatant:Mira", ACTS_FOR, NOT_YOURS, TURNS),
    Row(
        "/breakaway combatant:Mira",
        ACTS_FOR,
        NOT_YOURS,
        (*TURNS, ("alice", "/engage target:Goblin")),
        dice=(d20(10), d20(5), d20(10), d20(5)),  # Mira's roll, the Goblin's hold; twice
    ),
    Row(
        "/grapple target:Goblin attacker:Mira",
        ACTS_FOR,
        NOT_YOURS,
        TURNS,
        dice=(d20(10), d20(10)),  # the grapple roll, made by the GM, then by alice
    ),
    Row(
        "/protect ally:Brom combatant:Mira",
        ACTS_FOR,
        NOT_YOURS,
        (*TURNS, ("gm", "/attack target:Brom attacker:Goblin force:true")),
        dice=(d20(10), d20(10), d20(10)),  # the Goblin's attack in each channel
    ),
    Row(
        "/support ally:Brom combatant:Mira",
        ACTS_FOR,
        NOT_YOURS,
        (*TURNS, ("gm", "/attack target:Goblin attacker:Brom force:true")),
        dice=(d20(10), d20(10), d20(10)),  # Brom's attack in each channel
    ),
    Row("/essence use name:Tonic kind:tonic combatant:Mira", ACTS_FOR, NOT_YOURS, TURNS),
    Row(
        "/essence end combatant:Mira",
        ACTS_FOR,
        NOT_YOURS,
        (*TURNS, ("alice", "/essence use name:Tonic kind:tonic")),
    ),
    Row(
        "/character edit name:Vex{n} field:finesse value:4",
        ("controller",),
        NOT_OWNER,
        (("alice", "/character create name:Vex{n}"),),
    ),
    Row(
        "/character delete name:Vex{n}",
        ("controller",),
        NOT_OWNER,
        (("alice", "/character create name:Vex{n}"),),
        confirm=True,
    ),
    *(
        Row(line, ("controller",), NOT_OWNER, (("alice", "/character create name:Vex{n}"),))
        for line in (
            "/character weapon add name:Axe damage:1d8 character:Vex{n}",
            "/character armor name:Chain absorb:2 character:Vex{n}",
            "/character shield name:Buckler block:1 character:Vex{n}",
        )
    ),
    Row(
        "/character weapon remove name:Axe character:Vex{n}",
        ("controller",),
        NOT_OWNER,
        (
            ("alice", "/character create name:Vex{n}"),
            ("alice", "/character weapon add name:Axe damage:1d8 character:Vex{n}"),
        ),
    ),
    Row("/npc create name:Orc{n}", GM_ONLY, NOT_GM),
    *(
        Row(line, GM_ONLY, NOT_GM, (("gm", "/npc create name:Orc{n}"),))
        for line in (
            "/npc edit name:Orc{n} physical:2",
            "/npc delete name:Orc{n}",
            "/npc weapon add npc:Orc{n} name:Axe damage:1d8",
            "/npc armor npc:Orc{n} name:Hide absorb:1",
            "/npc shield npc:Orc{n} name:Buckler block:1",
            "/npc power add npc:Orc{n} name:active_buff:damage",
            "/npc power build npc:Orc{n} name:Zap type:active level:1 components:damage:2d8",
        )
    ),
    Row(
        "/npc power remove npc:Orc{n} name:Damage",
        GM_ONLY,
        NOT_GM,
        (
            ("gm", "/npc create name:Orc{n}"),
            ("gm", "/npc power add npc:Orc{n} name:active_buff:damage"),
        ),
    ),
    Row(
        "/npc weapon remove npc:Orc{n} name:Axe",
        GM_ONLY,
        NOT_GM,
        (
            ("gm", "/npc create name:Orc{n}"),
            ("gm", "/npc weapon add npc:Orc{n} name:Axe damage:1d8"),
        ),
    ),
    Row(
        "/character power add name:active_buff:damage character:Vex{n}",
        ("controller",),
        NOT_OWNER,
        (("alice", "/character create name:Vex{n}"),),
    ),
    Row(
        "/character power build name:Zap type:active level:1 components:damage:2d8 "
        "character:Vex{n}",
        ("controller",),
        NOT_OWNER,
        (("alice", "/character create name:Vex{n}"),),
    ),
    Row(
        "/character power remove name:Damage character:Vex{n}",
        ("controller",),
        NOT_OWNER,
        (
            ("alice", "/character create name:Vex{n}"),
            ("alice", "/character power add name:active_buff:damage character:Vex{n}"),
        ),
    ),
    # alice's second combatant, from a sheet with a buff, acts first (Finesse 9).
    Row(
        "/use power:Damage combatant:Vex{n}",
        ACTS_FOR,
        "Vex{n} is another player's combatant; you cannot act for it.",
        (
            ("alice", "/character create name:Vex{n} finesse:9"),
            ("alice", "/character power add name:active_buff:damage character:Vex{n}"),
            ("alice", "/init join character:Vex{n}"),
            *TURNS,
        ),
    ),
    Row("/settings gm_role role:GM", ("manager",), NOT_MANAGER, roles=SERVER),
    Row("/settings defense_timeout seconds:30", ("manager",), NOT_MANAGER, roles=SERVER),
]


async def snapshot(table: SandboxTable) -> tuple:
    """Return everything a command could change: each channel's encounter, sheets, settings."""
    store = table.bot.store  # type: ignore[attr-defined]
    guild = table.server.guild.id
    encounters = [await stored(store, table.channel(ch).id) for ch in CHANNELS]
    sheets = await store.list_characters(guild, table.user("alice").id)
    templates = await store.list_npcs(guild)
    settings = await store.get_settings(guild)
    return (
        [e.model_dump() if e else None for e in encounters],
        [c.model_dump() for c in sheets],
        [t.model_dump() for t in templates],
        settings.model_dump(),
    )


async def prepare(table: SandboxTable, row: Row) -> None:
    """Set up the same fight, and the row's preparation, in every channel."""
    # Discord hides /settings from members without Manage Server; shown to everyone (as a
    # server admin may), the matrix tests the bot's own refusal.
    table.server.set_command_permission("settings", "@everyone", allowed=True)
    for n, channel in enumerate(CHANNELS, start=1):
        for who, line in (*FIGHT, *row.prep):
            ready = await table.user(who).run(line.format(n=n), channel=channel)
            private = "hidden:true" in line or line.startswith(PRIVATE)
            assert not ready.ephemeral or private, (channel, line, ready.text)


async def play(table: SandboxTable, row: Row, role: str, user: str, channel: str) -> None:
    """Run the row's command as one role; check it was allowed or refused as it should be."""
    n = CHANNELS.index(channel) + 1
    before = await snapshot(table)
    reply = await table.user(user).run(row.command.format(n=n), channel=channel)
    cell = f"{row.command} by the {role} ({user})"
    if role not in row.allowed:
        assert_error_reply(reply)
        assert row.refusal.format(n=n) in reply.content, (cell, reply.content)
        assert await snapshot(table) == before, f"{cell}: the refusal changed state"
        return
    assert_no_internals(reply.text, cell)
    if row.confirm:
        assert reply.ephemeral and [b["label"] for b in reply.buttons] == ["Confirm", "Cancel"]
        reply = await reply.click("Confirm")
        assert_no_internals(reply.text, cell)
    elif not row.id.startswith((*PRIVATE, "/defend")):  # these are answered privately
        assert not reply.ephemeral, (cell, reply.text)
    assert await snapshot(table) != before, f"{cell} was allowed but changed nothing"


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
async def test_each_role_is_allowed_or_refused_as_commands_md_says(fast, row: Row) -> None:
    """A role ran a command it may not, or was refused one it may; or a refusal changed state."""
    table = fast
    roles = row.roles or PLAYERS
    assert set(row.allowed) <= set(roles)
    script(table, *row.dice)
    await prepare(table, row)
    cells = list(zip(roles.items(), CHANNELS, strict=True))  # each role in its own channel
    cells.sort(key=lambda cell: cell[0][0] in row.allowed)  # refusals first: they change nothing
    for (role, user), channel in cells:
        await play(table, row, role, user, channel)


@pytest.mark.parametrize("row", [r for r in ROWS if r.allowed == GM_ONLY], ids=lambda r: r.id)
async def test_manage_channels_and_the_gm_role_give_gm_rights_too(fast, row: Row) -> None:
    """A member with Manage Channels, or of the server's GM role, was refused the GM's part."""
    table = fast
    table.server.add_member("carol", roles=["GM"])
    set_role = await table.user("admin").run("/settings gm_role role:GM")
    assert not set_role.ephemeral, set_role.text
    await prepare(table, row)
    for user, channel in (("admin", "table-1"), ("carol", "table-2")):
        await play(table, row, "gm", user, channel)


def test_the_matrix_covers_every_mutating_command() -> None:
    """A mutating command of COMMANDS.md has no row in the permission matrix."""
    mutating = {
        *(f"/init {sub}" for sub in ("add", "remove", "next", "prev", "round", "move")),
        *("/init reveal", "/init end", "/haste", "/wait", "/act", "/hold", "/sacrifice"),
        *("/declare", "/undeclare", "/attack", "/defend", "/move"),
        *("/init edit", "/hide", "/cover", "/engage", "/breakaway", "/grapple"),
        *("/protect", "/support", "/essence use", "/essence end"),
        *(f"/grit {sub}" for sub in ("damage", "heal", "set", "modifier")),
        *(f"/effect {sub}" for sub in ("apply", "cleanse", "remove")),
        *("/character edit", "/character delete", "/settings gm_role"),
        *("/character weapon add", "/character weapon remove"),
        *("/character armor", "/character shield"),
        *(f"/npc {sub}" for sub in ("create", "edit", "delete", "armor", "shield")),
        *("/npc weapon add", "/npc weapon remove"),
        "/settings defense_timeout",
        *(f"/character power {sub}" for sub in ("add", "build", "remove")),
        *(f"/npc power {sub}" for sub in ("add", "build", "remove")),
        "/use",
    }
    assert mutating == {row.id for row in ROWS}


async def test_a_sheet_is_exported_by_its_owner_and_imported_as_the_importers_own(fast) -> None:
    """The GM or another player exported alice's sheet, or an import changed someone else's sheets."""
    table = fast
    store = table.bot.store  # type: ignore[attr-defined]
    guild = table.server.guild.id
    await table.user("alice").run("/character create name:Vex physical:2")
    for user in ("gm", "bob"):
        reply = await table.user(user).run("/character export character:Vex")
        assert_error_reply(reply)
        assert reply.content.startswith(NOT_OWNER), reply.content
    exported = await table.user("alice").run("/character export")
    (attachment,) = exported.message.attachments
    content = table.server.file_content(attachment)
    alices = await store.list_characters(guild, table.user("alice").id)
    upload = table.server.host_file("vex.json", content, "application/json")
    imported = await table.user("bob").run("/character import", file=upload)
    assert imported.ephemeral and imported.content.startswith("Created **Vex**.")
    bobs = await store.list_characters(guild, table.user("bob").id)
    assert [(c.name, c.physical) for c in bobs] == [("Vex", 2)]  # bob's own copy
    assert await store.list_characters(guild, table.user("alice").id) == alices
