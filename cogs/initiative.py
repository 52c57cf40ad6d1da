"""/init: the encounter, its turn order and the pinned tracker [COMMANDS.md /init]."""

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import choices, combatant_edit, options, turns
from bot.combatant_edit import edited_text
from bot.errors import Ambiguous, BadInput, NotAllowed, RuleViolation
from bot.i18n import L_, N_, Lazy, Lp_, _, n_, p_, speaking
from bot.outbox import Outbox
from bot.render.log import fight_log, log_files, rounds_text
from bot.render.text import name_list, name_text
from bot.render.tracker import actor_page, ended_embed, standings_lines, tracker_pages
from bot.render.turns import announce, first_turn_text, opening_text, summary_embeds
from bot.rules import encounter as flow
from bot.rules.combatant_edit import edit_combatant
from bot.rules.grit import require_grit_within, starting_grit
from bot.rules.loadout import fight_fields, take_into_fight
from bot.rules.models import (
    MAX_TAGS,
    Character,
    Combatant,
    DefaultDefense,
    Encounter,
    Flow,
    InitiativeMode,
    LogEntry,
    NpcTemplate,
    Side,
)
from bot.rules.names import clean_name
from bot.sheets import character_choices, no_active_character, own_named, own_near
from bot.store import Store
from bot.store.copies import copy_state
from bot.table import Table, at_table, combatant_choices
from bot.views import ConfirmButton, PersistentButton, confirm_template

if TYPE_CHECKING:
    from bot.app import Tablehand

THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)
ADD_HELP = {
    "name": "Name (an NPC template's brings its stats and loadout); with count, numbered",
    "count": "How many (numbered)",
    "hidden": "Hidden from players until /init reveal",
    "controller": "The player who controls it (it becomes a player character)",
    "tags": "Comma-separated tags, e.g. Undead, Stealth",
    "default_defense": "Used when the defender does not choose in time",
    "side": "party or foes (default: foes; party with a controller)",
    **options.STAT_HELP,
}
JOIN_HELP = {
    "character": "Your character (default: your active one); a new name uses the stats given here",
    **{
        stat: f"{options.STAT_HELP[stat].split(' (')[0]}, for this fight (default: your sheet's)"
        for stat in ("physical", "finesse", "grit", "max_grit", "initiative_bonus")
    },
}


def _tags(text: str | None) -> list[str]:
    return [tag.strip() for tag in (text or "").split(",") if tag.strip()][:MAX_TAGS]


def _write_back(table: Table, combatant: Combatant) -> None:
    """Write a character's fight Grit back to its sheet when it leaves or the fight ends."""
    if combatant.character_id is not None:
        table.state.write_back(
            combatant.character_id, combatant.grit, combatant.max_grit, combatant.injuries
        )


def _joining(
    sheet: Character | None, name: str, user_id: int, typed: dict[str, int | None]
) -> Combatant:
    """Return the player's combatant: their sheet (stats typed here override it), or a new one."""
    inline = {key: value for key, value in typed.items() if value is not None}
    if sheet is not None:
        # Its stats, injuries and a copy of its loadout; the fight writes Grit back.
        fields = {**fight_fields(sheet), "injuries": sheet.injuries, **inline}
        combatant = Combatant(id=0, name=sheet.name, character_id=sheet.id, **fields)
        take_into_fight(combatant)
    else:
        inline["grit"], inline["max_grit"] = starting_grit(
            inline.get("grit"), inline.get("max_grit")
        )
        combatant = Combatant(id=0, name=name, **inline)
    require_grit_within(combatant.grit, combatant.max_grit)
    combatant.controller_id = user_id
    combatant.is_npc = False
    combatant.side = "party"
    return combatant


JOIN_WITHOUT_SHEET = N_(", or join without one: a name (`character:`) and stats")


async def _refuse_near_sheet(store: Store, guild_id: int, user_id: int, typed: str) -> None:
    """Ask "did you mean Torv?" for a name close to one of the caller's sheets [bot]."""
    near = await own_near(store, guild_id, user_id, typed)
    if near:
        name = clean_name(typed)
        raise Ambiguous(
            L_(
                "You have no character named {name!r}. Did you mean {names}? "
                "(Choose {choice} to join without a sheet.)",
                name=name,
                names=name_list(near, _("or"), translated=True),
                choice=name_text(name),
            ),
            [*near, name],
            typed=typed,
            notes={name: _("join without a sheet, as typed")},
        )


def _added(template: NpcTemplate | None, name: str, typed: dict[str, Any]) -> Combatant:
    """Return the combatant /init add makes: the template's (typed stats win), or the stats typed."""
    given = {key: value for key, value in typed.items() if value is not None}
    base = fight_fields(template) if template is not None else {}
    fields = {**base, **given}
    if template is None or ("max_grit" in given and "grit" not in given):
        # A new NPC as a new sheet: one of Grit and max alone is both [bot].
        fields["grit"], fields["max_grit"] = starting_grit(given.get("grit"), given.get("max_grit"))
    combatant = Combatant(id=0, name=name, **fields)
    require_grit_within(combatant.grit, combatant.max_grit)
    return take_into_fight(combatant)


def _added_text(added: list[Combatant], *, hidden: bool) -> Lazy:
    """Return what /init add says it added, in the language the table speaks."""
    names = ", ".join(name_text(c.name) for c in added)
    if hidden:
        return L_(
            "Added hidden: {names}. Players do not see them until `/init reveal`.", names=names
        )
    return L_("Added {names}.", names=names)


def _from_template(template: NpcTemplate) -> str:
    """Return what /init add took from an NPC template (told to the GM)."""
    return n_(
        "From the NPC template {name}: its stats (those typed here win) and its {n} item.",
        "From the NPC template {name}: its stats (those typed here win) and its {n} items.",
        len(template.items),
        name=name_text(template.name),
    )


def _require_posting(interaction: discord.Interaction) -> None:
    """Refuse to open an encounter where the bot may not post its tracker."""
    allowed = interaction.app_permissions
    in_thread = getattr(interaction.channel, "type", None) in THREADS
    send = allowed.send_messages_in_threads if in_thread else allowed.send_messages
    if not (allowed.view_channel and send and allowed.embed_links):
        raise NotAllowed(
            "I may not post in this channel: give Tablehand Send Messages, Embed Links "
            "and Manage Messages here."
        )


class ListPage(PersistentButton, template=r"th:list:(?P<page>\d+):(?P<way>[pn])"):
    """◀ / ▶ on /init list: another page of the whole tracker, as it is now."""

    def __init__(self, page: int, way: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label="◀" if way == "p" else "▶",
                style=discord.ButtonStyle.secondary,
                custom_id=f"th:list:{page}:{way}",
                disabled=disabled,
            )
        )
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> "ListPage":
        return cls(int(match["page"]), match["way"])

    @classmethod
    def pager(cls, page: int, pages: int) -> discord.ui.View | None:
        """Return ◀ / ▶ around `page` of `pages`, or None for a single page."""
        if pages <= 1:
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(cls(max(page - 1, 0), "p", disabled=page == 0))
        view.add_item(cls(min(page + 1, pages - 1), "n", disabled=page == pages - 1))
        return view

    async def pressed(self, interaction: discord.Interaction) -> None:
        """Show the page asked for, of the tracker as it is now (it may have grown or shrunk)."""
        async with at_table(interaction) as table:
            pages = tracker_pages(table.encounter, gm_view=table.is_gm)
        page = min(self.page, len(pages) - 1)
        await interaction.response.edit_message(
            embed=pages[page], view=self.pager(page, len(pages))
        )


def _started(encounter: Encounter) -> str:
    """Return the line that opens an encounter, in the language spoken now."""
    return _(
        "Encounter started — mode **{mode}**, flow **{flow}**; the tracker is pinned in this "
        "channel. The GM adds foes with `/init add`, players `/init join`. {opening}",
        mode=p_("choice", encounter.mode),
        flow=p_("choice", encounter.flow),
        opening=opening_text(encounter),
    )


def _with_first_turns(
    text: Lazy, encounter: Encounter, newcomers: list[Combatant]
) -> Callable[[bool], str]:
    """Return a line saying when each newcomer first acts, rendered in the table's language."""
    return lambda gm_view: " ".join(
        [str(text), *filter(None, (first_turn_text(encounter, c) for c in newcomers))]
    )


def _stepped_back(actor: Combatant | None, round_now: int, round_before: int) -> Lazy:
    """Return what /init prev says: whose turn it is again, and in which round."""
    name = name_text(actor.name) if actor else None
    if round_now != round_before:
        if name is None:
            return L_(
                "Back into round {round}: it is nobody's turn again. Round {next} opens again "
                "when this round ends.",
                round=round_now,
                next=round_before,
            )
        return L_(
            "Back into round {round}: it is **{name}**'s turn again. Round {next} opens again "
            "when this round ends.",
            round=round_now,
            next=round_before,
            name=name,
        )
    if name is None:
        return L_("Stepped back: it is nobody's turn again.")
    return L_("Stepped back: it is **{name}**'s turn again.", name=name)


async def whole_log(table: Table) -> dict[int, list[LogEntry]]:
    """Return the fight's log so far, round by round (what players may read of it)."""
    encounter = table.encounter
    first = 0 if encounter.ambush is not None else 1
    return {n: await table.state.round_log(n) for n in range(first, encounter.round + 1)}


class EndConfirm(ConfirmButton, template=confirm_template("end")):
    """Confirm of /init end: the fight's Grit goes back to the sheets, the tracker retires."""

    what = "end"
    cancelled = N_("The encounter goes on.")

    async def confirmed(self, interaction: discord.Interaction) -> None:
        async with at_table(interaction) as table:
            table.require_gm(N_("end the encounter"))
            ended = None if table.state.damaged else table.encounter
            if ended is not None:
                if str(ended.opened_id) != self.ref:
                    raise RuleViolation("That encounter is already over.")
                for combatant in ended.combatants:
                    _write_back(table, combatant)
                rounds = await whole_log(table)  # read before the log goes with the encounter
            table.state.encounter = None
        if ended is None:
            await interaction.response.edit_message(
                content=_("The damaged encounter is cleared."), view=None
            )
            return
        # Answer first: the tracker's edit and unpin are slow calls.
        await interaction.response.edit_message(content=_("Encounter ended."), view=None)
        bot: Tablehand = interaction.client  # type: ignore[assignment]
        # The channel reads the end in the table's language, whoever confirmed it.
        with speaking(table.language):
            retired = ended_embed(ended)
            # The last round's summary only when something happened in it (the log has the rest).
            entries = [e for e in rounds.get(ended.round, []) if e.kind != "detail"]
            heading = _("The fight's log, {rounds}", rounds=rounds_text(min(rounds), ended.round))
            log = fight_log(rounds, heading=heading)
            standings = standings_lines(ended)
            summary = summary_embeds(ended.round, entries) if entries else []
            over = _(
                "**The encounter is over** after round {round}. The whole fight's log is attached.",
                round=ended.round,
            )
            files = log_files(log, interaction.filesize_limit)
        if ended.tracker_message_id is not None:
            await bot.trackers.retire(table.channel_id, ended.tracker_message_id, retired)
        final = Outbox(public=[over, *standings], embeds=summary, files=files)
        await final.answer(interaction, gm=False)  # split into as many messages as it takes


@app_commands.guild_only()
class Initiative(
    commands.GroupCog, group_name="init", group_description="The encounter and its tracker"
):
    """The encounter in this channel: start, combatants, turns, the pinned tracker."""

    def __init__(self, bot: "Tablehand") -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(turns.TrackerButton, turns.NextConfirm, EndConfirm, ListPage)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(turns.TrackerButton, turns.NextConfirm, EndConfirm, ListPage)

    # Commands ------------------------------------------------------------------------

    @app_commands.command(
        name="start", description="Open an encounter in this channel and pin its tracker"
    )
    @app_commands.describe(
        mode="How initiative is found each round (default fortune)",
        flow="compact: the GM only advances turns; full: the GM steps through every phase",
        ambush="The side that ambushes in round zero",
        ambush_roll="Ambushers roll (d20 with Stealth, else d10) against the targets' best Perception",
    )
    async def start(
        self,
        interaction: discord.Interaction,
        mode: InitiativeMode = "fortune",
        flow: Flow = "compact",
        ambush: Side | None = None,
        ambush_roll: bool = False,
    ) -> None:
        if ambush_roll and ambush is None:
            raise BadInput("ambush_roll needs an ambush side (ambush: party or foes).")
        _require_posting(interaction)
        async with at_table(interaction) as table:
            existing = table.state.encounter
            if existing is not None:
                raise RuleViolation(
                    "This channel already has an encounter (round {round}); "
                    "end it with /init end first.",
                    round=existing.round,
                )
            # The tracker is posted and pinned once this is committed and answered: Discord's
            # slow or failing calls must not hold the answer past its deadline.
            table.state.encounter = Encounter(
                channel_id=table.channel_id,
                guild_id=interaction.guild_id,
                gm_id=interaction.user.id,
                opened_id=interaction.id,
                mode=mode,
                flow=flow,
                ambush=ambush,
                ambush_roll=ambush_roll,
                round=0 if ambush else 1,
                phase="start" if flow == "full" else "declaration",
            )
            opener = name_text(interaction.user.display_name)
            table.note(
                L_(
                    "{opener} opens the encounter ({mode}, {flow}).",
                    opener=opener,
                    mode=Lp_("choice", mode),
                    flow=Lp_("choice", flow),
                ),
                kind="detail",
            )
            encounter = table.encounter
            # The opening line is rendered in the table's language, when the table says it.
            table.say(lambda gm_view: _started(encounter), log=False)

    @app_commands.command(
        name="add", description="Add NPCs (or, with controller, a player's combatant)"
    )
    @app_commands.describe(**ADD_HELP)
    async def add(
        self,
        interaction: discord.Interaction,
        name: options.Name,
        physical: options.Physical | None = None,
        finesse: options.Finesse | None = None,
        grit: options.Grit | None = None,
        max_grit: options.MaxGrit | None = None,
        risk: options.Risk | None = None,
        initiative_bonus: options.InitiativeBonus | None = None,
        count: app_commands.Range[int, 1, flow.MAX_COMBATANTS] = 1,
        hidden: bool = False,
        side: Side | None = None,
        controller: discord.Member | None = None,
        mastery_rank: options.MasteryRank | None = None,
        crit_range: options.CritRange | None = None,
        tags: app_commands.Range[str, 0, 200] | None = None,
        default_defense: DefaultDefense | None = None,
    ) -> None:
        if hidden and controller is not None:
            raise BadInput("Only NPCs can be hidden; a combatant with a controller is a player's.")
        typed = {
            "physical": physical,
            "finesse": finesse,
            "grit": grit,
            "max_grit": max_grit,
            "risk": risk,
            "initiative_bonus": initiative_bonus,
            "mastery_rank": mastery_rank,
            "crit_range": crit_range,
            "tags": None if tags is None else _tags(tags),
            "default_defense": default_defense,
        }
        template = await self.bot.store.get_npc(interaction.guild_id or 0, name)
        model = _added(template, name, typed)
        model.hidden = hidden
        model.controller_id = controller.id if controller else None
        model.is_npc = controller is None
        model.side = side or ("party" if controller else "foes")
        async with at_table(interaction) as table:
            encounter = table.gm(N_("add combatants"))
            added = []
            for copy_name in flow.numbered_names(encounter, name, count):
                combatant = copy_state(model)  # as independent as a deep copy, a sixth the work
                combatant.name = copy_name
                flow.add_combatant(encounter, combatant, self.bot.rng)
                added.append(combatant)
                table.note(
                    L_("{name} joins the fight.", name=name_text(combatant.name)),
                    about=combatant,
                    kind="detail",
                )
            text = _added_text(added, hidden=hidden)
            table.say(_with_first_turns(text, encounter, added), about=added, log=False)
            if template is not None:
                table.tell(_from_template(template))

    @app_commands.command(name="join", description="Join the fight with your character")
    @app_commands.describe(**JOIN_HELP)
    @app_commands.autocomplete(character=character_choices)
    async def join(
        self,
        interaction: discord.Interaction,
        character: options.Name | None = None,
        physical: options.Physical | None = None,
        finesse: options.Finesse | None = None,
        grit: options.Grit | None = None,
        max_grit: options.MaxGrit | None = None,
        initiative_bonus: options.InitiativeBonus | None = None,
    ) -> None:
        store = self.bot.store
        user = interaction.user
        guild_id = interaction.guild_id or 0
        if character:
            sheet = await own_named(store, guild_id, user.id, character)
            if sheet is None and not choices.chosen(character):
                await _refuse_near_sheet(store, guild_id, user.id, character)
        else:
            sheet = await store.active_character(guild_id, user.id)
            if sheet is None:
                raise await no_active_character(
                    store, guild_id, user.id, "character", otherwise=JOIN_WITHOUT_SHEET
                )
        typed = {
            "physical": physical,
            "finesse": finesse,
            "grit": grit,
            "max_grit": max_grit,
            "initiative_bonus": initiative_bonus,
        }
        async with at_table(interaction) as table:
            encounter = table.encounter
            if sheet is not None:
                assert sheet.id is not None
                if any(c.character_id == sheet.id for c in encounter.combatants):
                    raise RuleViolation("{name} is already in this fight.", name=sheet.name)
                # The fight holds the sheet from now on (one fight at a time), and plays
                # the sheet as it is at this moment, not as it was looked up above.
                sheet = await table.state.claim_sheet(sheet.id)
            joining = _joining(sheet, character or user.display_name, user.id, typed)
            flow.add_combatant(encounter, joining, self.bot.rng)
            joined = L_("**{name}** joins the fight.", name=name_text(joining.name))
            table.say(
                _with_first_turns(joined, encounter, [joining]),
                about=joining,
                log=joined,
                kind="detail",
            )

    @app_commands.command(name="remove", description="Take a combatant out of the fight")
    @app_commands.describe(
        combatant="Who leaves the fight (a character's Grit goes back to its sheet)"
    )
    @app_commands.autocomplete(combatant=combatant_choices)
    async def remove(self, interaction: discord.Interaction, combatant: str) -> None:
        async with at_table(interaction) as table:
            encounter = table.gm(N_("remove combatants"))
            leaving = table.named(combatant)
            was_acting = flow.current_actor(encounter) is leaving
            step = flow.remove_combatant(encounter, leaving, self.bot.hooks)
            _write_back(table, leaving)
            table.say(L_("{name} leaves the fight.", name=name_text(leaving.name)), about=leaving)
            if was_acting:
                table.announce(announce(encounter, step))

    @app_commands.command(
        name="next", description="End the current turn (or phase) and start the next"
    )
    async def next(self, interaction: discord.Interaction) -> None:
        async with at_table(interaction) as table:
            turns.next_turn(table)

    @app_commands.command(
        name="prev",
        description="Step back one turn, into the last round if need be (nothing ticks again)",
    )
    async def prev(self, interaction: discord.Interaction) -> None:
        async with at_table(interaction) as table:
            encounter = table.gm(N_("step back a turn"))
            round_before = encounter.round
            step = flow.retreat(encounter)
            actor = flow.by_id(encounter, step.current) if step.current else None
            table.say(_stepped_back(actor, encounter.round, round_before), about=actor, log=False)

    @app_commands.command(name="round", description="End the round now")
    async def round(self, interaction: discord.Interaction) -> None:
        async with at_table(interaction) as table:
            encounter = table.gm(N_("end the round"))
            table.announce(announce(encounter, flow.end_round(encounter, self.bot.hooks)))

    @app_commands.command(
        name="move", description="Put a combatant at another place in this round's order"
    )
    @app_commands.describe(
        combatant="Who moves in this round's order",
        position="The place to act at: 1 is first",
    )
    @app_commands.autocomplete(combatant=combatant_choices)
    async def move(
        self,
        interaction: discord.Interaction,
        combatant: str,
        position: app_commands.Range[int, 1, flow.MAX_COMBATANTS],
    ) -> None:
        async with at_table(interaction) as table:
            encounter = table.gm(N_("reorder the turns"))
            moving = table.named(combatant)
            place = flow.move_combatant(encounter, moving, position)
            name = name_text(moving.name)
            text = L_("{name} now acts at place {place}.", name=name, place=place)
            if place != position:
                text = L_(
                    "{name} has not acted this round and place {position} has passed: "
                    "it acts next, at place {place}.",
                    name=name,
                    position=position,
                    place=place,
                )
            moved = L_("The GM moves {name} to place {place}.", name=name, place=place)
            table.say(text, about=moving, log=moved, kind="turn")

    @app_commands.command(name="edit", description="Set a combatant's stats and situation (GM)")
    @app_commands.autocomplete(combatant=combatant_choices)
    @app_commands.describe(**combatant_edit.EDIT_HELP)
    @app_commands.rename(
        perception_m="perception", directions_blocked="blocked", fixed_object="object"
    )
    async def edit(
        self,
        interaction: discord.Interaction,
        combatant: str,
        physical: options.Physical | None = None,
        finesse: options.Finesse | None = None,
        perception_m: options.Perception | None = None,
        durability: options.Durability | None = None,
        stamina: options.Stamina | None = None,
        reach: app_commands.Range[int, 0, 10] | None = None,
        directions_blocked: app_commands.Range[int, 0, 6] | None = None,
        fixed_object: bool | None = None,
        prone: bool | None = None,
        stealth: bool | None = None,
        injuries: app_commands.Range[int, 0, 99] | None = None,
        leg_injury: bool | None = None,
        risk: options.Risk | None = None,
        crit_range: options.CritRange | None = None,
    ) -> None:
        typed = {
            "physical": physical,
            "finesse": finesse,
            "perception_m": perception_m,
            "durability": durability,
            "stamina": stamina,
            "reach": reach,
            "directions_blocked": directions_blocked,
            "fixed_object": fixed_object,
            "prone": prone,
            "stealth": stealth,
            "injuries": injuries,
            "leg_injury": leg_injury,
            "risk": risk,
            "crit_range": crit_range,
        }
        given = {field: value for field, value in typed.items() if value is not None}
        async with at_table(interaction) as table:
            encounter = table.gm(N_("edit combatants"))
            edited = table.named(combatant)
            changes = edit_combatant(encounter, edited, given)
            if edited.is_npc:
                table.tell(edited_text(edited.name, changes))  # an NPC's stats are the GM's
            else:
                table.say(lambda gm_view: edited_text(edited.name, changes), about=edited)

    @app_commands.command(name="list", description="Show the whole tracker (only to you)")
    async def list(self, interaction: discord.Interaction) -> None:
        async with at_table(interaction) as table:
            pages = tracker_pages(table.encounter, gm_view=table.is_gm)
        page = actor_page(pages)
        pager = ListPage.pager(page, len(pages))
        buttons = {"view": pager} if pager is not None else {}
        await interaction.response.send_message(embed=pages[page], ephemeral=True, **buttons)

    @app_commands.command(name="log", description="The fight's log so far as a file (only to you)")
    async def log(self, interaction: discord.Interaction) -> None:
        async with at_table(interaction) as table:
            encounter = table.gm(N_("read the fight's log"))
            rounds = await whole_log(table)
        with speaking(table.language):  # the table's record, in the table's language
            heading = _(
                "The fight's log so far: {rounds}",
                rounds=rounds_text(min(rounds), encounter.round),
            )
            text = fight_log(rounds, heading=heading, written=discord.utils.utcnow())
            files = log_files(text, interaction.filesize_limit)
        await interaction.response.send_message(
            _("The fight's log so far, up to round {round}.", round=encounter.round),
            files=files[:10],
            ephemeral=True,
        )
        for start in range(10, len(files), 10):
            await interaction.followup.send(files=files[start : start + 10], ephemeral=True)

    @app_commands.command(name="reveal", description="Show a hidden NPC to the players")
    @app_commands.describe(combatant="The hidden NPC to show on the tracker")
    @app_commands.autocomplete(combatant=combatant_choices)
    async def reveal(self, interaction: discord.Interaction, combatant: str) -> None:
        async with at_table(interaction) as table:
            table.gm(N_("reveal combatants"))
            shown = table.named(combatant)
            if not shown.hidden:
                raise RuleViolation("{name} is not hidden.", name=shown.name)
            shown.hidden = False
            table.say(L_("**{name}** is revealed!", name=name_text(shown.name)), about=shown)

    @app_commands.command(name="end", description="End the encounter (asks to confirm)")
    async def end(self, interaction: discord.Interaction) -> None:
        async with at_table(interaction) as table:
            if table.state.damaged:  # its GM is unknown: Manage Channels or the GM role clears it
                table.require_gm(N_("clear a damaged encounter"))
                ref = "0"
            else:
                ref = str(table.gm(N_("end the encounter")).opened_id)
        await interaction.response.send_message(
            _(
                "End this encounter? The tracker is unpinned and the fight's Grit is written "
                "back to the characters."
            ),
            view=EndConfirm.view(interaction.user.id, ref),
            ephemeral=True,
        )


async def setup(bot: "Tablehand") -> None:
    await bot.add_cog(Initiative(bot))
