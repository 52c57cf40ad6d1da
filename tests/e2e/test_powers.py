"""/power, /special and /pp end to end: look-ups, curve targets, prices, paging, bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.sandbox.client import InteractionResult, SandboxTable, UsageError
from bot.sandbox.harness import running_bot
from bot.sandbox.server import LoopbackDiscord
from tests.e2e.conftest import tablehand_bot
from tests.e2e.helpers import unmentioned

pytestmark = pytest.mark.e2e

DATA = Path(__file__).resolve().parents[2] / "data"
ISSUE_BUILD = "damage:2d8 range:16 radius:3 ruin:2 penetration:2 autofire:1 charged"


def fields(result: InteractionResult) -> dict[str, str]:
    """Return the first embed's fields by name."""
    embed = result.embed
    assert embed is not None, result.text
    return {field["name"]: field["value"] for field in embed.get("fields", [])}


def curve_target(type_key: str, level: int) -> int:
    """Read a power type's target PP at a level straight from data/power_types.json."""
    types = json.loads((DATA / "power_types.json").read_text(encoding="utf-8"))["types"]
    found: dict[str, Any] = next(t for t in types if t["key"] == type_key)
    return found["base_curve"][0] + found["per_level_pp"] * (level - 1)


def assert_one_line_error(reply: InteractionResult, message: str) -> None:
    """The reply is an ephemeral one-line error containing the message."""
    assert reply.ephemeral, reply.text
    assert message in unmentioned(reply.content), reply.content
    assert "\n" not in reply.content
    assert not reply.embeds


# ---------------------------------------------------------------- /power


async def test_power_at_a_level_shows_that_levels_row(table: SandboxTable) -> None:
    """/power teleport level:5 did not show Teleport's 5 m at Level 5 in a public embed."""
    reply = await table.user("alice").run("/power name:teleport level:5")
    assert not reply.ephemeral
    assert reply.embed["title"] == "Movement: Teleport"
    shown = fields(reply)
    assert shown["Type"] == "Movement"
    assert shown["Cap"] == "16 m"
    rows = shown["Level 5"].splitlines()
    assert rows[:4] == ["```", "Level  Distance", "5      5 m", "```"]
    assert "skipping everything between" in reply.embed["description"]
    assert not reply.buttons


async def test_power_without_a_level_shows_the_whole_table(table: SandboxTable) -> None:
    """/power teleport did not show all sixteen levels up to the 16 m cap, on one page."""
    reply = await table.user("alice").run("/power name:teleport")
    rows = fields(reply)["Level table"]
    assert "1      1 m" in rows and "16     16 m" in rows
    assert "Cap: 16 m. Movement has no PP curve." in rows
    assert not reply.buttons


async def test_power_tolerates_typos(table: SandboxTable) -> None:
    """/power telport did not find Teleport."""
    reply = await table.user("alice").run("/power name:telport level:12")
    assert reply.embed["title"] == "Movement: Teleport"
    assert "12 m" in fields(reply)["Level 12"]


async def test_power_shows_a_buffs_tags_and_level_band(table: SandboxTable) -> None:
    """/power on an Active Buff with milestone bands did not show the band holding the level."""
    reply = await table.user("alice").run('/power name:"Active Buff: Critical" level:9')
    assert reply.embed["title"] == "Active Buff: Critical"
    assert "8–11" in fields(reply)["Level 9"]
    assert "Critical(2)" in fields(reply)["Level 9"]


async def test_power_on_a_special_shows_its_cost_table(table: SandboxTable) -> None:
    """/power ruin did not show the Special with its X = 1–10 costs."""
    reply = await table.user("alice").run("/power name:ruin")
    assert reply.embed["title"] == "Ruin(X)"
    assert "10  220" in fields(reply)["Cost by X"]


# ---------------------------------------------------------------- /special


async def test_special_at_x_shows_its_cost(table: SandboxTable) -> None:
    """/special ruin x:3 did not price Ruin(3) at Start PP 4 × 3·4/2 = 24 PP."""
    reply = await table.user("bob").run("/special name:ruin x:3")
    assert not reply.ephemeral
    assert reply.embed["title"] == "Ruin(3)"
    shown = fields(reply)
    assert shown["Cost at X = 3"] == "Ruin(3) = Start PP 4 × T(3) = 4 × 6 = **24 PP**"
    assert 4 * 3 * 4 // 2 == 24
    assert shown["Group"] == "Diminishing"
    assert shown["Cleanse/Dispel"] == "Yes"
    assert shown["Pricing"] == "Start PP 4 × T(X)"
    assert "Each Tick deals X damage." in reply.embed["description"]


async def test_special_without_x_shows_its_cost_table(table: SandboxTable) -> None:
    """/special ruin did not list its cost for X = 1–10 (Start PP 4 × T(X))."""
    reply = await table.user("bob").run("/special name:ruin")
    assert reply.embed["title"] == "Ruin(X)"
    costs = fields(reply)["Cost by X"]
    lines = [line.split() for line in costs.strip("`\n").splitlines()[1:]]
    assert lines == [[str(x), f"{4 * x * (x + 1) // 2}"] for x in range(1, 11)]


async def test_special_per_x_and_fixed_prices(table: SandboxTable) -> None:
    """Push(4) was not 2 PP × 4, or Prone did not show its fixed 60 PP."""
    alice = table.user("alice")
    push = await alice.run("/special name:push x:4")
    assert fields(push)["Cost at X = 4"] == "Push(4) = 2 PP × 4 = **8 PP**"
    prone = await alice.run("/special name:prone")
    assert fields(prone)["Pricing"] == "60 PP (fixed)"


# ---------------------------------------------------------------- /pp


async def test_pp_target_gives_the_curve_target(table: SandboxTable) -> None:
    """/pp target active 7 did not give the Active curve's Level 7 target and tolerance."""
    target = curve_target("active", 7)
    reply = await table.user("alice").run("/pp target type:active level:7")
    assert not reply.ephemeral
    assert reply.embed["title"] == "Active · Level 7"
    assert reply.embed["description"] == f"Target: **{target} PP**"
    shown = fields(reply)
    assert shown["On curve"] == f"{target - 5}–{target + 5} PP"
    assert shown["Over curve"].startswith(f"above {target + 5} PP")
    assert shown["Per level"] == "+30 PP"


async def test_pp_target_charged_adds_ten(table: SandboxTable) -> None:
    """/pp target charged did not add +10 PP to the Active Buff target."""
    target = curve_target("active_buff", 5)
    reply = await table.user("alice").run("/pp target type:active_buff level:5 charged:true")
    assert reply.embed["description"] == f"Target: **{target + 10} PP**"


async def test_pp_target_for_a_movement_type_gives_its_progression(table: SandboxTable) -> None:
    """/pp target teleport 5 did not give 5 m at Level 5, the 16 m cap and the progression."""
    reply = await table.user("alice").run("/pp target type:teleport level:5")
    assert reply.embed["title"] == "Movement: Teleport · Level 5"
    assert "At Level 5: Distance **5 m**" in reply.embed["description"]
    assert "no PP curve" in reply.embed["description"]
    shown = fields(reply)
    assert shown["Cap"] == "16 m"
    marked = [line.split() for line in shown["Progression"].splitlines() if "▶" in line]
    assert marked == [["▶", "5", "5", "m"]]
    assert "16      16 m" in shown["Progression"]


async def test_pp_price_itemises_and_judges_the_build(table: SandboxTable) -> None:
    """The issue's build was not itemised, priced at 147 PP and judged under its 160 PP target."""
    reply = await table.user("alice").run(
        "/pp price", components=ISSUE_BUILD, type="active", level=5
    )
    assert not reply.ephemeral
    assert reply.embed["title"] == "Build: 147 PP"
    assert reply.embed["description"].startswith(
        "**Under curve** for Active Level 5 (Charged): 147 PP of 160 PP, 13 PP unused (−8.1 %)."
    )
    components = fields(reply)["Components"].splitlines()
    assert components == [
        "`damage:2d8` **30 PP** — 15 PP × 2",
        "`range:16` **10 PP** — 16 m = 10 PP (Range)",
        "`radius:3` **50 PP** — 3 m = 50 PP (Instant Attack AoE)",
        "`ruin:2` **12 PP** — Ruin(2) = Start PP 4 × T(2) = 4 × 3",
        "`penetration:2` **15 PP** — Penetration(2) = 7.5 PP × 2",
        "`autofire:1` **30 PP** — 30 PP × 1",
    ]
    assert fields(reply)["Total"] == "**147 PP**"
    assert fields(reply)["Target"] == "160 PP"


async def test_pp_price_over_curve_gives_the_deviation(table: SandboxTable) -> None:
    """5d8 at Active Level 2 was not over curve by 15 PP (+25 %)."""
    reply = await table.user("alice").run(
        "/pp price", components="damage:5d8", type="active", level=2
    )
    description = reply.embed["description"]
    assert description.startswith(
        "**Over curve** for Active Level 2: 75 PP is 15 PP above the 60 PP target (+25 %)"
    )
    assert "Outside the ±10 % design band too." in description


async def test_pp_price_on_curve_within_five(table: SandboxTable) -> None:
    """A build 5 PP over its target was not on curve."""
    reply = await table.user("alice").run(
        "/pp price", components="damage:4d8 push:2", type="Active", level=2
    )
    assert reply.embed["description"].startswith(
        "**On curve** for Active Level 2: 64 PP against 60 PP (+6.7 %)."
    )


async def test_pp_price_aura_uses_the_aura_table(table: SandboxTable) -> None:
    """aura:3 on a Passive was not priced from the aura table."""
    reply = await table.user("alice").run(
        "/pp price", components="aura:3 armor:2", type="passive", level=1
    )
    assert "`aura:3` **15 PP** — 3 m = 15 PP (Aura Passive Radius)" in fields(reply)["Components"]


async def test_pp_price_without_a_type_lists_the_fitting_levels(table: SandboxTable) -> None:
    """A build without a type did not give the lowest level of each curve that takes it.

    4d8 damage is 60 PP on an Active (Level 2, 60 PP) or an Active Buff (Level 2, 70 PP);
    a Reaction deals no attack damage and a Passive prices damage per d6.
    """
    reply = await table.user("alice").run("/pp price", components="damage:4d8")
    description = reply.embed["description"]
    assert "Active Level 2 (60 of 60 PP), Active Buff Level 2 (60 of 70 PP)." in description
    assert "Reaction" not in description and "Passive" not in description
    assert "Target" not in fields(reply)


# ---------------------------------------------------------------- autocomplete


async def test_autocomplete_offers_the_best_names(table: SandboxTable) -> None:
    """Typing 'telep' did not offer Teleport first, with ids Discord accepts."""
    alice = table.user("alice")
    choices = await alice.autocomplete("power", "name", "telep")
    assert choices[0] == {"name": "Movement: Teleport", "value": "movement:teleport"}
    assert "Movement: Teleport with Ally" in [c["name"] for c in choices]
    picked = await alice.run("/power", name=choices[0]["value"], level=5)
    assert picked.embed["title"] == "Movement: Teleport"


async def test_autocomplete_answers_as_the_look_up_ranks(table: SandboxTable) -> None:
    """The offered choices differed from the look-up's ranking, or a repeated typing's did."""
    alice = table.user("alice")
    lookup = table.bot.lookup  # type: ignore[attr-defined]
    for typed in ("tele", "telep", "Telep ", "e", "crit", "", "telep"):
        choices = await alice.autocomplete("power", "name", typed)
        ranked = lookup.suggest(typed.strip().casefold())
        assert choices == [{"name": c.name, "value": c.value} for c in ranked]


async def test_autocomplete_stays_within_discords_limits(table: SandboxTable) -> None:
    """An empty or one-letter query gave more than 25 choices or names over 100 characters."""
    alice = table.user("alice")
    for typed in ("", "a", "e"):
        choices = await alice.autocomplete("power", "name", typed)
        assert 1 <= len(choices) <= 25
        assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in choices)


async def test_special_autocomplete_offers_only_specials(table: SandboxTable) -> None:
    """/special's autocomplete offered something that is not a Special."""
    choices = await table.user("alice").autocomplete("special", "name", "r")
    assert choices and all(c["value"].startswith("special:") for c in choices)
    assert "Ruin(X)" in [c["name"] for c in choices]


async def test_pp_type_autocomplete(table: SandboxTable) -> None:
    """/pp target's type did not offer power and movement types; /pp price only curves."""
    alice = table.user("alice")
    every = await alice.autocomplete("pp target", "type", "")
    assert [c["value"] for c in every][:4] == ["active", "active_buff", "reaction", "passive"]
    assert {"name": "Movement: Teleport", "value": "teleport"} in every
    priced = await alice.autocomplete("pp price", "type", "")
    assert [c["value"] for c in priced] == ["active", "active_buff", "reaction", "passive"]
    assert [c["value"] for c in await alice.autocomplete("pp target", "type", "tele")] == [
        "teleport",
        "teleport_with_ally",
    ]


# ---------------------------------------------------------------- paging


async def test_a_long_table_is_paged_with_buttons(table: SandboxTable) -> None:
    """The Movement Types table was not split into pages that ◀ / ▶ step through in place."""
    alice = table.user("alice")
    reply = await alice.run('/power name:"Table: Movement Types"')
    assert [b["label"] for b in reply.buttons] == ["◀", "▶"]
    assert [b.get("disabled", False) for b in reply.buttons] == [True, False]
    first = next(name for name in fields(reply) if name.startswith("Type · Pricing"))
    assert first.endswith("(page 1/2)")
    assert "**Ground Dash**" in fields(reply)[first]
    assert "Trample" not in reply.text

    turned = await reply.click("▶")
    assert turned.type == 7 and turned.message is reply.message
    second = fields(reply)["Type · Pricing · Cap · Path (page 2/2)"]
    assert "**Trample** — offensive path movement" in second
    assert "24 m path / 8d8 contact damage" in second
    assert "Ground Dash" not in second
    assert [b.get("disabled", False) for b in reply.buttons] == [False, True]

    back = await reply.click("◀", as_user="bob")  # anyone may page a public look-up
    assert not back.ephemeral
    assert "**Ground Dash**" in fields(reply)[first]


async def test_paging_buttons_work_after_a_restart(tmp_path: Path) -> None:
    """A ◀ / ▶ button on a message from before a restart no longer turned the page."""
    async with LoopbackDiscord() as server:
        table = SandboxTable(server)
        alice = table.user("alice")
        async with running_bot(server, tablehand_bot(server, tmp_path)):
            reply = await alice.run('/power name:"Table: Movement Types"')
        message = reply.message
        assert message is not None
        async with running_bot(server, tablehand_bot(server, tmp_path)):
            await alice.click(message, "▶")
            assert "(page 2/2)" in table.render(message)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (
            "/special name:wekan",
            "No Special named 'wekan'; did you mean Weaken(X) or Bulwark(X)?",
        ),
        ("/power name:blite", "No entry named 'blite'; did you mean Blight(X), "),
        ("/special name:brutal x:9", "X for Brutal Impact must be 1–8, not 9."),
        ("/special name:root x:1", "X for Root must be 2–99, not 1."),
        ("/special name:prone x:2", "Prone takes no X."),
        ("/power name:ruin level:3", "Ruin(X) has no levels; see its cost by X with /special"),
        ('/power name:"Root Canon" level:3', "Rule: Root Canon has no level table"),
        ("/pp target type:spell level:3", "Unknown power type 'spell'."),
        ("/pp target type:movement level:3", "name a movement type: Ground Dash"),
    ],
)
async def test_bad_input_gets_one_ephemeral_line(
    table: SandboxTable, command: str, message: str
) -> None:
    """Bad input to a look-up was not refused in one clear ephemeral line."""
    assert_one_line_error(await table.user("alice").run(command), message)
    assert table.channel("table-1").public_messages == []


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"components": "damage:2d8 fireball:3"}, "Unknown component 'fireball'."),
        ({"components": "radius:9", "type": "active"}, "Instant Attack AoE radius must be one"),
        ({"components": "ruin:100"}, "X for Ruin must be 1–99, not 100."),
        ({"components": "damage:1d8", "level": 3}, "Give a power type together with the level."),
        ({"components": "damage:1d8", "type": "teleport"}, "Movement powers have no PP curve"),
    ],
)
async def test_bad_builds_get_one_ephemeral_line(
    table: SandboxTable, options: dict[str, Any], message: str
) -> None:
    """A bad /pp price build was not refused in one clear ephemeral line."""
    assert_one_line_error(await table.user("alice").run("/pp price", **options), message)


@pytest.mark.parametrize(
    "command",
    [
        "/power name:teleport level:17",
        "/power name:teleport level:0",
        "/pp target type:active level:17",
        "/special name:ruin x:0",
    ],
)
async def test_levels_outside_one_to_sixteen_are_refused_by_discord(
    table: SandboxTable, command: str
) -> None:
    """A level outside 1–16 (or X below 1) reached the bot instead of Discord refusing it."""
    with pytest.raises(UsageError, match="must be between 1 and"):
        await table.user("alice").run(command)
    assert not table.server.interactions


# ---------------------------------------------------------------- honest look-ups (issue 19)


def menu_values(message: Any) -> list[str]:
    """Return the option values of the message's one select menu."""
    (menu,) = message.selects
    return [option["value"] for option in menu["options"]]


async def test_a_heading_finds_its_section_without_guessing(table: SandboxTable) -> None:
    """/power "Image Size Costs" showed Passive DR Costs, or hedged, instead of the image sizes."""
    reply = await table.user("alice").run('/power name:"Image Size Costs"')
    assert reply.embed["title"] == "Table: Image Size"
    assert reply.content == "" and not reply.message.selects
    rows = fields(reply)["Size · PP · Notes"]
    assert "r5     140" in rows  # "Radius 5 m | 140 PP"


async def test_a_guess_says_so_and_offers_the_others(table: SandboxTable) -> None:
    """/power tele showed Teleport as if asked for it, with no way to pick what was meant."""
    reply = await table.user("alice").run("/power name:tele level:5")
    assert not reply.ephemeral
    assert reply.content.startswith(
        "No exact match for 'tele': showing **Movement: Teleport**, a guess."
    )
    assert reply.embed["title"] == "Movement: Teleport"
    values = menu_values(reply.message)
    assert "movement:teleport_with_ally" in values and "movement:teleport" not in values
    assert reply.message.selects[0]["placeholder"] == "Did you mean…"


async def test_picking_from_the_guess_shows_that_entry_in_place(table: SandboxTable) -> None:
    """Picking Teleport with Ally did not replace the guess (at the asked level) in place."""
    alice = table.user("alice")
    reply = await alice.run("/power name:tele level:5")
    picked = await table.user("bob").select(reply.message, ["movement:teleport_with_ally"])
    assert picked.type == 7 and picked.message is reply.message  # anyone may pick on a look-up
    assert reply.message.embed["title"] == "Movement: Teleport with Ally"
    assert "5      4 m" in fields(reply)["Level 5"]  # Teleport with Ally: Level 5 = 4 m
    assert reply.message.content == "" and not reply.message.selects


async def test_a_special_guess_keeps_its_x(table: SandboxTable) -> None:
    """/special with a guessed name lost its X when another Special was picked."""
    alice = table.user("alice")
    reply = await alice.run("/special name:ex x:3")  # Expose and Exorcism both start so
    assert reply.content.startswith("No exact match for 'ex': showing **Expose(X)**")
    assert reply.embed["title"] == "Expose(3)"
    assert menu_values(reply.message) == ["special:exorcism"]
    await alice.select(reply.message, ["special:exorcism"])
    assert reply.message.embed["title"] == "Exorcism(3)"
    # Exorcism(X) is Start PP 2 × T(X) (§11.11): 2 × 6 = 12
    assert fields(reply)["Cost at X = 3"] == "Exorcism(3) = Start PP 2 × T(3) = 2 × 6 = **12 PP**"


async def test_paging_a_guess_keeps_its_menu(table: SandboxTable) -> None:
    """Turning the page of a guessed entry dropped its "did you mean" menu."""
    alice = table.user("alice")
    reply = await alice.run('/power name:"Movment Types"')
    assert reply.content.startswith("No exact match for 'Movment Types'")
    assert [b["label"] for b in reply.buttons] == ["◀", "▶"]
    before = menu_values(reply.message)
    await reply.click("▶")
    assert menu_values(reply.message) == before
    assert any(name.endswith("(page 2/2)") for name in fields(reply))


async def test_the_guess_menu_works_after_a_restart(tmp_path: Path) -> None:
    """A "did you mean" menu on a message from before a restart no longer picked anything."""
    async with LoopbackDiscord() as server:
        table = SandboxTable(server)
        alice = table.user("alice")
        async with running_bot(server, tablehand_bot(server, tmp_path)):
            reply = await alice.run("/power name:tele")
        message = reply.message
        async with running_bot(server, tablehand_bot(server, tmp_path)):
            await alice.select(message, ["passive:telepathy"])
            assert message.embed["title"] == "Passive: Telepathy"


@pytest.mark.parametrize(
    ("command", "title"),
    [
        ("/power name:Glide", "Excluded by the SRD: Movement: Glide"),
        ('/power name:"Damage + Critical"', "Excluded by the SRD: Damage + Critical"),
        ("/power name:Frightened", "Excluded by the SRD: Frightened"),
        ("/special name:Pounce", "Excluded by the SRD: Pounce"),
    ],
)
async def test_an_excluded_name_says_the_srd_excludes_it(
    table: SandboxTable, command: str, title: str
) -> None:
    """A name the SRD keeps out of the catalogue was answered with a different entry."""
    reply = await table.user("alice").run(command)
    assert not reply.ephemeral
    assert reply.embed["title"] == title
    assert reply.embed["footer"]["text"].startswith("SRD: ")


# ---------------------------------------------------------------- reachable SRD content


async def test_the_active_curve_reference(table: SandboxTable) -> None:
    """The Start PP 8 Active-Curve Reference's Level 12 row (360 PP: X 9, 360, 0) is unreachable."""
    reply = await table.user("alice").run(
        '/power name:"Start PP 8 Active-Curve Reference" level:12'
    )
    (value,) = (v for name, v in fields(reply).items() if name == "Level 12")
    assert value.splitlines()[2].split() == ["12", "360", "9", "360", "0"]


@pytest.mark.parametrize(
    ("name", "lines", "total"),
    [
        (
            "Scout Owl",
            [
                ("Shared Sight", 2),
                ("Shared Hearing", 2),
                ("4 Summon Skill Dice", 2),
                ("+4 m Movement", 2),
            ],
            8,
        ),
        (
            "Skeleton Warband",
            [
                ("6 Additional Bodies", 12),
                ("2 Extra Attacks", 16),
                ("+2d8 Attack", 2),
                ("+1d8 Damage", 2),
            ],
            32,
        ),
    ],
)
async def test_summon_examples_come_out_exactly(
    table: SandboxTable, name: str, lines: list[tuple[str, int]], total: int
) -> None:
    """A Summon example's token breakdown is not shown exactly as the SRD's purchase table."""
    reply = await table.user("alice").run(f'/power name:"{name}"')
    assert reply.embed["title"] == f"Example: {name}"
    rows = fields(reply)["Purchase · Cost"].strip("`\n").splitlines()[1:]
    parsed = [re.split(r"\s{2,}", row.strip()) for row in rows]
    assert parsed == [[label, f"{tokens} Tokens"] for label, tokens in lines] + [
        ["Total", f"{total} of {total} Tokens"]
    ]


@pytest.mark.parametrize(
    ("components", "total", "lines"),
    [
        (
            "wall:6x2x0.5 los",
            40,
            [
                "`wall placement` **10 PP**",
                "`wall length` **10 PP**",
                "`los` **5 PP**",
                "`wall duration` **15 PP**",
            ],
        ),
        (
            "wall:8x4x1 los resilience",
            70,
            [
                "`wall placement` **10 PP**",
                "`wall length` **15 PP**",
                "`wall height` **3 PP**",
                "`wall thickness` **2 PP**",
                "`los` **5 PP**",
                "`wall duration` **15 PP**",
                "`resilience` **20 PP**",
            ],
        ),
    ],
)
async def test_the_wall_examples_are_priced_by_pp_price(
    table: SandboxTable, components: str, total: int, lines: list[str]
) -> None:
    """Bark Barricade (40 PP) or Stone Rampart (70 PP) does not come out of /pp price exactly."""
    reply = await table.user("alice").run("/pp price", components=components)
    assert reply.embed["title"] == f"Build: {total} PP"
    shown = [line.split(" — ")[0] for line in fields(reply)["Components"].splitlines()]
    assert shown == lines


async def test_a_build_names_the_rules_it_breaks(table: SandboxTable) -> None:
    """A Passive-only part on an Active was priced without the SRD's reason."""
    reply = await table.user("alice").run(
        "/pp price", components="special_aura:3", type="active", level=4
    )
    broken = fields(reply)["SRD rules broken"]
    assert broken.startswith(
        "**Passive Special Aura** — special\\_aura belongs to Passive, not Active"
    )


# ---------------------------------------------------------------- /pp design


async def test_pp_design_answers_with_the_power_card(table: SandboxTable) -> None:
    """/pp design did not answer with the title, flavour, power table and PP arithmetic."""
    reply = await table.user("alice").run(
        "/pp design",
        name="Firebolt",
        type="active",
        components="damage:2d8 range:16 ruin:2",
        level=3,
        tags="Spell",
        flavour="A bolt of living flame.",
    )
    assert not reply.ephemeral
    embed = reply.embed
    assert embed["title"] == "Firebolt (Active, Spell)"
    assert embed["description"].splitlines()[0] == "*A bolt of living flame.*"
    assert "**L3** · Active · 16 m · — · Instant · **Ruin(2)** · 2d8 damage" in embed["description"]
    shown = fields(reply)
    assert shown["CALCULATION"] == (
        "L3 → damage:2d8 30 + range:16 10 + ruin:2 12 = 52 PP of 90 (under curve, 38 PP unused)"
    )
    assert shown["SRD check"] == "Conforms to the SRD."


async def test_pp_design_names_each_violation_with_an_alternative(table: SandboxTable) -> None:
    """A design breaking the SRD was not told which rules and what would conform."""
    reply = await table.user("alice").run(
        "/pp design",
        name="Storm Step",
        type="teleport",
        components="L2 damage:2d8 L6 damage:2d8",
        tags="Spell",
    )
    shown = fields(reply)
    assert shown["SRD check"] == "Does not conform: breaks 2 SRD rules."
    assert "// SRD: Movement Restrictions — damage: Movement Powers may not grant" in shown["NOTES"]
    assert (
        "// SRD: §8.7 Validation Rule; Tag: Spell — Spell is used only on Actives" in shown["NOTES"]
    )
    assert "Instead: " in shown["NOTES"]
    assert "L2 → 2 m (the SRD's progression)" in shown["CALCULATION"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"name": "X", "type": "active", "components": "damage:1d8"},
            "Give the level, or write each level's parts",
        ),
        ({"name": "X", "type": "spell", "level": 2}, "Unknown power type 'spell'."),
        (
            {"name": "X", "type": "active", "components": "fireball:2", "level": 2},
            "Unknown component 'fireball'.",
        ),
    ],
)
async def test_bad_designs_get_one_ephemeral_line(
    table: SandboxTable, options: dict[str, Any], message: str
) -> None:
    """A bad /pp design was not refused in one clear ephemeral line."""
    assert_one_line_error(await table.user("alice").run("/pp design", **options), message)
