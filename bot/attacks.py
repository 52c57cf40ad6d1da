"""Attacks at the table: the defense prompt, its buttons, /defend, reactions, the timeout.

The rules (`bot.rules.attack_flow`) declare and settle an attack as data; this module
shows it. An attack whose defender (or an ally) may choose is committed first, then its
prompt is shown (under the channel's lock, so an answer that comes at once finds it
recorded). The prompt never shows the attack's dice: the defender chooses blind, and
the numbers come with the result [GAME.md §10]. Allies protect or support from the
prompt's buttons (or /protect, /support). The defender's button, `/defend`, Resolve or
the defense timeout settles it exactly once.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import BadInput, NotAllowed, NotFound
from bot.i18n import L_, N_, Lazy, Lp_, Text, _, render, speaking
from bot.render.attacks import (
    AUTO_NOTES,
    NO_CHOICE_NOTES,
    STRATEGY_NAMES,
    Prompt,
    Resolution,
    answered_text,
    prompt_content,
    prompt_embed,
    resolution_embed,
    resolution_log,
)
from bot.render.grit import grit_change_text
from bot.render.known_powers import reacted_text
from bot.render.text import name_text
from bot.replies import NETWORK_ERRORS
from bot.rules import encounter as flow
from bot.rules.attack_flow import (
    Declared,
    Settled,
    answer_attack,
    attack_situation,
    counter_attack,
    counter_offer,
    declare_attack,
    find_pending,
    no_choice_reason,
    parse_extra_dice,
    pending_on,
    pending_spec,
    sacrifice_for_defense,
    strategies,
    visible_reactors,
)
from bot.rules.attacks import AttackSpec, default_strategy
from bot.rules.loadout import armed_attack, find_weapon
from bot.rules.models import Combatant, Encounter, PendingAttack
from bot.rules.powers import power_reactions, use_reaction
from bot.rules.reactions import ReactionKind, react, reaction_refusal
from bot.table import Table, at_channel, at_table, encounter_language, mention_allowed
from bot.views import PersistentButton, custom_ids

if TYPE_CHECKING:
    from bot.app import Tablehand

CALLED_OFF = N_("That attack was called off: a combatant in it left the fight.")
PROMPT_SEARCH = 100  # latest messages searched for a prompt the bot did not live to record
DEFENSE_LABELS: dict[str, Lazy] = {
    **{key: L_(name) for key, name in STRATEGY_NAMES.items()},
    "sacrifice": L_("Sacrifice +3"),
    "resolve": L_("Resolve"),
    # Buttons say what the helper does (German: a verb); the result's field names the help.
    "protect": Lp_("defense button", "Protect"),
    "support": Lp_("defense button", "Support"),
}


# Saying a settled attack ------------------------------------------------------------


def how_text(
    settled: Settled,
    *,
    chosen_by: str | None = None,
    timeout: int | None = None,
    protector: Text | None = None,
) -> Text:
    """Return how the defense was decided: "Block, chosen by bob", the default, or why none.

    It is rendered where it is shown: in the table's language in the result, in the
    caller's in an answer to /defend.
    """
    how: Text
    if settled.protected:
        how = L_("protected by {protector}, who must block", protector=protector or L_("an ally"))
    elif settled.no_choice is not None:
        how = L_(NO_CHOICE_NOTES[settled.no_choice])
    else:
        name = L_(STRATEGY_NAMES[settled.strategy]) if settled.strategy else L_("No defense")
        if chosen_by:
            how = L_("{defense}, chosen by {who}", defense=name, who=name_text(chosen_by))
        elif timeout is not None:
            how = L_(
                "{defense}, the default after {seconds} s without an answer",
                defense=name,
                seconds=timeout,
            )
        else:
            how = L_("{defense}, the default", defense=name)
        if settled.sacrificed:
            how = L_("{how}, with a sacrificed action (+3)", how=how)
    if (auto := settled.result.auto_reason) in AUTO_NOTES and not settled.no_choice:
        how = L_("{how} — {automatic}", how=how, automatic=L_(AUTO_NOTES[auto]))
    return how


def how_of(
    encounter: Encounter,
    settled: Settled,
    *,
    chosen_by: str | None = None,
    timeout: int | None = None,
) -> Text:
    """Return how_text with the protector named, when one took the attack."""
    protector = _name(encounter, settled.defender_id) if settled.protected else None
    return how_text(settled, chosen_by=chosen_by, timeout=timeout, protector=protector)


def resolution(
    encounter: Encounter, settled: Settled, how: Text, notes: Sequence[Text]
) -> Resolution:
    """Return a settled attack as the result shows it."""
    return Resolution(
        attacker=_name(encounter, settled.attacker_id),
        defender=_name(encounter, settled.target_id),
        settled=settled,
        how=how,
        notes=notes,
        names={c.id: name_text(c.name) for c in encounter.combatants},
    )


def note_settled(table: Table, shown: Resolution) -> tuple[Combatant, ...]:
    """Log a settled attack and its Grit; return who it was about."""
    encounter = table.encounter
    settled = shown.settled
    about = _present(encounter, settled.attacker_id, settled.target_id, settled.defender_id)
    table.note(lambda gm_view: resolution_log(shown), about=about, kind="attack")
    grit = settled.grit
    if grit is not None:
        table.note(
            lambda gm_view: grit_change_text(grit, gm_view=gm_view), about=about, kind="grit"
        )
    return about


def say_settled(table: Table, settled: Settled, how: Text, notes: Sequence[Text] = ()) -> None:
    """Show a settled attack at the table (with a Counter button after a natural 1)."""
    shown = resolution(table.encounter, settled, how, list(notes))
    about = note_settled(table, shown)
    table.show(lambda gm_view: resolution_embed(shown, gm_view=gm_view), about=about)
    if settled.counter is not None and not table.hidden(about):
        with speaking(table.language):  # the channel reads its label
            table.out.view = counter_view(settled.counter.id)


def settle_declared(
    table: Table, declared: Declared, notes: Sequence[Text]
) -> PendingAttack | None:
    """Show an attack settled as it was made; return the one still waiting for its defender.

    A hidden defender is never prompted in public: it defends at once with its default [bot].
    """
    settled = declared.settled
    pending = declared.pending
    if pending is not None and table.hidden(_present(table.encounter, declared.defender_id)):
        settled = answer_attack(table.encounter, pending.id, None, table.bot.rng)
        pending = None
    if settled is not None:
        say_settled(table, settled, how_of(table.encounter, settled), notes)
    return pending


def _name(encounter: Encounter, combatant_id: int) -> Text:
    """Return a combatant's name as the prompt and the result show it."""
    found = next((c for c in encounter.combatants if c.id == combatant_id), None)
    return name_text(found.name) if found else L_("someone who left")


def _present(encounter: Encounter, *ids: int) -> tuple[Combatant, ...]:
    return tuple(c for c in encounter.combatants if c.id in ids)


# Making an attack --------------------------------------------------------------------


def declared_notes(striker: Combatant, declared: Declared) -> list[Text]:
    """Return what making the attack did to the attacker, for the prompt or the result."""
    notes: list[Text] = []
    name = name_text(striker.name)
    if declared.revealed:
        notes.append(L_("{name} attacks from hiding and is revealed.", name=name))
    if declared.exposed:
        notes.append(L_("{name} leaves full cover to attack.", name=name))
    if declared.essence_ended is not None:
        essence = name_text(declared.essence_ended.essence.name)
        notes.append(L_("{name}'s {essence} is used up.", name=name, essence=essence))
    return notes


async def attack(
    interaction: discord.Interaction,
    target: str,
    attacker: str | None,
    options: dict[str, Any],
    *,
    bonus: str | None = None,
    spell: bool = False,
    force: bool = False,
    weapon: str | None = None,
) -> None:
    """Make an attack (/attack, /grapple): settle it at once, or show its prompt.

    With `weapon`, the attacker's weapon of that name gives the options not typed [§9].
    """
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    bonus_dice, penalty_dice = parse_extra_dice(bonus)
    async with at_table(interaction) as table:
        striker = table.pick(attacker, "act", option="attacker")
        defender = table.named(target)
        forced = table.forcing(force)
        situation = attack_situation(table.encounter, striker, defender)
        armed = find_weapon(striker, weapon) if weapon else None
        fields = {**situation, **armed_attack(armed, options)}
        if fields.get("stealth") is None:
            fields["stealth"] = situation["stealth"]
        spec = AttackSpec(**fields, bonus_dice=bonus_dice, penalty_dice=penalty_dice)
        declared = declare_attack(
            table.encounter,
            striker,
            defender,
            spec,
            bot.rng,
            attack_id=str(interaction.id),  # unique, and the same after a restart
            now=bot.scheduler.clock(),
            timeout=table.settings.defense_timeout * bot.scheduler.time_scale,
            spell=spell,
            forced=forced,
        )
        notes = declared_notes(striker, declared)
        for note in notes:
            table.note(note, kind="attack")
        pending = settle_declared(table, declared, notes)
        if pending is not None:
            prompt = prompt_of(table.encounter, pending, notes, interaction.user.id)
    if pending is not None:
        arm(bot, table.channel_id, pending)
        await show_prompt(interaction, table.channel_id, prompt)


# The prompt -------------------------------------------------------------------------


def prompt_of(
    encounter: Encounter, pending: PendingAttack, notes: Sequence[Text], caller: int | None
) -> Prompt:
    """Describe a pending attack's prompt; it pings the defender's controller (not the caller)."""
    attacker = flow.by_id(encounter, pending.attacker_id)
    defender = flow.by_id(encounter, pending.defender_id)
    spec = pending_spec(pending)
    ping = defender.controller_id if defender.controller_id is not None else encounter.gm_id
    reason = no_choice_reason(defender, spec)
    shown = {c.id: name_text(c.name) for c in encounter.combatants if not c.hidden}
    return Prompt(
        attack_id=pending.id,
        attacker=name_text(attacker.name),
        defender=name_text(defender.name),
        spec=spec,
        strategies=strategies(defender, spec),
        default=default_strategy(defender, spec) if reason is None else None,
        due_at=pending.due_at,
        ping=None if ping == caller else ping,
        no_choice=reason,
        sacrifice_offered=pending.sacrifice_offered and not pending.protectors,
        sacrificed=pending.sacrificed,
        protectors=[shown[i] for i in pending.protectors if i in shown],
        supporters=[shown[i] for i in pending.supporters if i in shown],
        can_protect=bool(visible_reactors(encounter, pending, "protect")),
        can_support=bool(visible_reactors(encounter, pending, "support")),
        forced=pending.forced,
        notes=notes,
        power_reactions=[] if defender.hidden else power_reactions(encounter, defender),
        reactions=pending.reactions,
    )


def prompt_view(prompt: Prompt) -> discord.ui.View:
    """Return the prompt's buttons: the strategies (or Resolve), Sacrifice, Protect, Support."""
    view = discord.ui.View(timeout=None)
    if prompt.resolvable:
        view.add_item(DefenseButton(prompt.attack_id, "resolve"))
    else:
        for strategy in prompt.strategies:
            view.add_item(DefenseButton(prompt.attack_id, strategy))
        if prompt.sacrifice_offered and not prompt.sacrificed:
            view.add_item(DefenseButton(prompt.attack_id, "sacrifice"))
    if prompt.can_protect:
        view.add_item(DefenseButton(prompt.attack_id, "protect"))
    if prompt.can_support:
        view.add_item(DefenseButton(prompt.attack_id, "support"))
    for index, name in prompt.power_reactions:
        view.add_item(PowerReactionButton(prompt.attack_id, index, name))
    return view


async def show_prompt(interaction: discord.Interaction, channel_id: int, prompt: Prompt) -> None:
    """Show a stored attack's prompt and record its message, under the channel's lock.

    The attack is committed before its prompt is shown, so a prompt the defender sees is
    never lost to a crash; the lock is held while it is shown, so an answer that comes
    at once waits until the prompt's message is recorded, and closes it. An attack
    answered in between (by /defend) is shown without buttons.
    """
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    # Only the prompt's message id is written: the committed encounter is amended, not
    # parsed again, and the tracker (which does not show it) is not refreshed for it.
    async with bot.store.amend(channel_id) as amendment:
        encounter = amendment.encounter
        pending = next(
            (
                p
                for p in (encounter.pending_attacks if encounter else [])
                if p.id == prompt.attack_id
            ),
            None,
        )
        _, language = await encounter_language(bot, encounter)
        with speaking(language):  # the channel reads it, whoever attacked
            buttons = {"view": prompt_view(prompt)} if pending is not None else {}
            shown = {
                "content": prompt_content(prompt),
                "embed": prompt_embed(prompt),
                "allowed_mentions": mention_allowed(prompt.ping),
                **buttons,
            }
        if interaction.response.is_done():  # an area power's second prompt, or after a result
            message_id = (await interaction.followup.send(**shown, wait=True)).id
        else:
            sent = await interaction.response.send_message(**shown)
            if pending is None:
                return
            # The callback's answer names the message: no second call to ask for it.
            message_id = sent.message_id or (await interaction.original_response()).id
        if encounter is not None and pending is not None:
            amendment.replace(with_prompt_message(encounter, pending.id, message_id))


def with_prompt_message(encounter: Encounter, attack_id: str, message_id: int) -> Encounter:
    """Return a copy of the encounter whose attack names its prompt's message (it shares the rest)."""
    attacks = [
        p.model_copy(update={"prompt_message_id": message_id}) if p.id == attack_id else p
        for p in encounter.pending_attacks
    ]
    return encounter.model_copy(update={"pending_attacks": attacks})


def result_message(shown: Resolution) -> dict[str, Any]:
    """Return what a prompt becomes once settled, however it was answered: the result."""
    counter = shown.settled.counter
    return {
        "content": None,  # the result's title and how it was defended say it all, once
        "embed": resolution_embed(shown, gm_view=False),
        "view": counter_view(counter.id) if counter is not None else None,
    }


async def show_result(
    bot: Tablehand, channel_id: int, pending: PendingAttack, shown: Resolution, language: str
) -> None:
    """Turn an answered attack's prompt into its result (/defend, the timeout), as a click does.

    A prompt deleted meanwhile (or never found) leaves the result posted below instead. The
    result speaks the table's `language`, whoever answered.
    """
    with speaking(language):
        result = result_message(shown)
    message = None
    with contextlib.suppress(discord.HTTPException, *NETWORK_ERRORS):
        message = await _prompt_message(bot, channel_id, pending)
    if message is not None:
        try:
            await message.edit(**result)
            return
        except discord.NotFound:
            pass  # deleted: the table still gets the result, below
        except (discord.HTTPException, *NETWORK_ERRORS):
            return  # refused, or Discord is out of reach: the log and /init log have it
    if not bot.is_closed():
        with contextlib.suppress(discord.HTTPException, *NETWORK_ERRORS):
            await bot.get_partial_messageable(channel_id).send(**result)


async def close_prompt(
    bot: Tablehand, channel_id: int, pending: PendingAttack, text: str, language: str
) -> None:
    """Take the buttons off an answered prompt and say how it was answered (in `language`)."""
    with speaking(language):
        text = _(text)
    # The defender has its answer already; a failed tidy-up of the prompt is no error.
    with contextlib.suppress(discord.HTTPException, *NETWORK_ERRORS):
        message = await _prompt_message(bot, channel_id, pending)
        if message is not None:
            await message.edit(content=text, view=None)


async def _prompt_message(
    bot: Tablehand, channel_id: int, pending: PendingAttack
) -> discord.Message | discord.PartialMessage | None:
    """Return an attack's prompt: as recorded, or found among the channel's latest messages.

    A prompt shown just before the bot was killed was never recorded; its buttons name the
    attack, so the channel's history still tells which message it is.
    """
    channel = bot.get_partial_messageable(channel_id)
    if pending.prompt_message_id is not None:
        return channel.get_partial_message(pending.prompt_message_id)
    buttons = f"th:defend:{pending.id}:"
    async for message in channel.history(limit=PROMPT_SEARCH):
        if any(cid.startswith(buttons) for cid in custom_ids(message.components)):
            return message
    return None


async def refresh_prompt(
    bot: Tablehand, channel_id: int, prompt: Prompt, message_id: int | None, language: str
) -> None:
    """Show a waiting attack's prompt as it stands now (a reaction joined it), in `language`."""
    if message_id is None:
        return
    message = bot.get_partial_messageable(channel_id).get_partial_message(message_id)
    with speaking(language):
        shown = {"embed": prompt_embed(prompt), "view": prompt_view(prompt)}
    with contextlib.suppress(discord.HTTPException, *NETWORK_ERRORS):
        await message.edit(**shown)


# Answering: /defend, the buttons, the timeout ----------------------------------------


def waiting_for(table: Table, name: str | None) -> PendingAttack:
    """Return the oldest attack waiting on the caller's (or the named) defender."""
    encounter = table.encounter
    if name:
        defender = table.pick(name, "defend")
        waiting = pending_on(encounter, {defender.id})
        if not waiting:
            raise NotFound(
                "No attack on {name} is waiting for a defense.", name=name_text(defender.name)
            )
    else:
        mine = {c.id for c in encounter.combatants if table.may(c, "defend")}
        waiting = pending_on(encounter, mine)
        if not waiting:
            raise NotFound("No attack is waiting for your defense.")
    return waiting[0]


async def defend(
    interaction: discord.Interaction, strategy: str, name: str | None, sacrifice: bool
) -> None:
    """Answer a waiting attack without buttons (/defend); the result goes below the prompt."""
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    async with at_table(interaction) as table:
        pending = waiting_for(table, name)
        if sacrifice:
            sacrifice_for_defense(table.encounter, pending)
        settled = answer_attack(table.encounter, pending.id, strategy, bot.rng)  # type: ignore[arg-type]
        if settled is None:
            table.tell(_(CALLED_OFF))
        else:
            how = how_of(table.encounter, settled, chosen_by=interaction.user.display_name)
            shown = resolution(table.encounter, settled, how, [])
            note_settled(table, shown)
            table.tell(answered_text(shown.defender, how))
    bot.scheduler.cancel(("defense", pending.id))
    if settled is None:
        await close_prompt(bot, table.channel_id, pending, CALLED_OFF, table.language)
    else:
        await show_result(bot, table.channel_id, pending, shown, table.language)


def reactor(
    table: Table, pending: PendingAttack, kind: ReactionKind, name: str | None
) -> Combatant:
    """Return the caller's combatant that makes this reaction: the named one, else the one that can.

    Unnamed, a hidden NPC is never picked: reacting would reveal it [bot].
    """
    encounter = table.encounter
    chosen = table.pick(
        name,
        "act",
        wanted=lambda c: not c.hidden and reaction_refusal(encounter, c, pending, kind) is None,
    )
    if chosen.hidden and not name:
        raise BadInput(
            "Name the combatant that reacts (`/{command} combatant:…`): it is revealed.",
            command=kind,
        )
    return chosen


def say_reaction(table: Table, who: Combatant, kind: ReactionKind, pending: PendingAttack) -> None:
    """Log a reaction: "Brom protects Mira." (the prompt itself shows it to the table)."""
    names = {"name": name_text(who.name)}
    if kind == "protect":
        line = L_(
            "{name} protects {ally}.", ally=_name(table.encounter, pending.defender_id), **names
        )
    else:
        attacker = _name(table.encounter, pending.attacker_id)
        line = L_("{name} supports {ally}'s attack.", ally=attacker, **names)
    table.note(line, about=who)


async def react_to_attack(
    interaction: discord.Interaction, kind: ReactionKind, ally: str | None, name: str | None
) -> None:
    """Protect or support through a command (/protect, /support): the prompt shows it."""
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    async with at_table(interaction) as table:
        pending = _reacted_attack(table, kind, ally, name)
        who = reactor(table, pending, kind, name)
        react(table.encounter, who, pending, kind)
        prompt = prompt_of(table.encounter, pending, [], None)
        names = {"name": name_text(who.name)}
        if kind == "protect":
            said = L_(
                "{name} protects {ally}: its dice are rolled when the attack settles.",
                ally=prompt.defender,
                **names,
            )
            logged = L_("{name} protects {ally}.", ally=prompt.defender, **names)
        else:
            said = L_(
                "{name} supports {ally}'s attack: its dice are rolled when the attack settles.",
                ally=prompt.attacker,
                **names,
            )
            logged = L_("{name} supports {ally}'s attack.", ally=prompt.attacker, **names)
        table.say(said, about=who, log=logged)
    await refresh_prompt(bot, table.channel_id, prompt, pending.prompt_message_id, table.language)


def _reacted_attack(
    table: Table, kind: ReactionKind, ally: str | None, name: str | None
) -> PendingAttack:
    """Return the waiting attack a /protect or /support means: on (or by) the named ally, or the only one."""
    encounter = table.encounter
    if ally:
        named = table.named(ally)
        side = "defender_id" if kind == "protect" else "attacker_id"
        waiting = [p for p in encounter.pending_attacks if getattr(p, side) == named.id]
        if not waiting and kind == "protect":
            raise NotFound("No attack on {name} is waiting.", name=name_text(named.name))
        if not waiting:
            raise NotFound("No attack by {name} is waiting.", name=name_text(named.name))
        return min(waiting, key=lambda p: p.created_at)
    waiting = sorted(encounter.pending_attacks, key=lambda p: p.created_at)
    if len(waiting) == 1:
        return waiting[0]
    if not waiting:
        raise NotFound("No attack is waiting.")
    if kind == "protect":
        raise BadInput("Several attacks are waiting; name the ally (ally:).")
    raise BadInput("Several attacks are waiting; name the ally (ally: the attacker).")


class DefenseButton(
    PersistentButton,
    template=(
        r"th:defend:(?P<attack>[\w-]+):"
        r"(?P<choice>block|dodge|break_away|take_cover|sacrifice|resolve|protect|support)"
    ),
):
    """One choice on an attack prompt: a strategy, Sacrifice +3, Resolve, Protect or Support."""

    def __init__(self, attack_id: str, choice: str) -> None:
        styles = {
            "sacrifice": discord.ButtonStyle.success,
            "protect": discord.ButtonStyle.secondary,
            "support": discord.ButtonStyle.secondary,
        }
        super().__init__(
            discord.ui.Button(
                label=render(DEFENSE_LABELS[choice]),
                style=styles.get(choice, discord.ButtonStyle.primary),
                custom_id=f"th:defend:{attack_id}:{choice}",
            )
        )
        self.attack_id = attack_id
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> DefenseButton:
        return cls(match["attack"], match["choice"])

    async def pressed(self, interaction: discord.Interaction) -> None:
        """Answer, sacrifice, resolve, or react; the prompt shows what happened."""
        if self.choice in ("protect", "support"):
            await self._react(interaction)
        elif self.choice == "sacrifice":
            await self._sacrifice(interaction)
        else:
            await self._answer(interaction)

    async def _react(self, interaction: discord.Interaction) -> None:
        kind: ReactionKind = self.choice  # type: ignore[assignment]
        async with at_table(interaction) as table:
            pending = self._pending(table, interaction)
            who = reactor(table, pending, kind, None)
            react(table.encounter, who, pending, kind)
            say_reaction(table, who, kind, pending)
            prompt = prompt_of(table.encounter, pending, [], None)
        await _show_prompt_again(interaction, prompt, table.language)

    async def _sacrifice(self, interaction: discord.Interaction) -> None:
        async with at_table(interaction) as table:
            pending = self._pending(table, interaction)
            defender = flow.by_id(table.encounter, pending.defender_id)
            table.require(defender, "defend")
            sacrifice_for_defense(table.encounter, pending)
            prompt = prompt_of(table.encounter, pending, [], None)
        await _show_prompt_again(interaction, prompt, table.language)

    async def _answer(self, interaction: discord.Interaction) -> None:
        bot: Tablehand = interaction.client  # type: ignore[assignment]
        async with at_table(interaction) as table:
            encounter = table.encounter
            pending = self._pending(table, interaction)
            defender = next((c for c in encounter.combatants if c.id == pending.defender_id), None)
            if defender is not None and not table.may(defender, "defend") and not table.is_gm:
                raise NotAllowed("This is not your defense.")
            if defender is not None and self.choice != "resolve":
                table.require(defender, "defend")
            # A defender who left the fight calls the attack off, whoever pressed.
            strategy = None if self.choice == "resolve" else self.choice
            settled = answer_attack(encounter, pending.id, strategy, bot.rng)  # type: ignore[arg-type]
            if settled is not None:
                how = how_of(encounter, settled, chosen_by=interaction.user.display_name)
                shown = resolution(encounter, settled, how, [])
                note_settled(table, shown)
        bot.scheduler.cancel(("defense", pending.id))
        if settled is None:
            await interaction.response.send_message(_(CALLED_OFF), ephemeral=True)
            await close_prompt(bot, table.channel_id, pending, CALLED_OFF, table.language)
            return
        # The prompt becomes the result, through the click's own answer: no channel edit is
        # spent, so the tracker keeps the channel's edit budget.
        with speaking(table.language):  # the channel reads it, whoever clicked
            result = result_message(shown)
        await interaction.response.edit_message(**result)

    def _pending(self, table: Table, interaction: discord.Interaction) -> PendingAttack:
        pending = find_pending(table.encounter, self.attack_id)
        if pending.prompt_message_id is None and interaction.message is not None:
            pending.prompt_message_id = interaction.message.id  # shown, then the bot died
        return pending


class PowerReactionButton(
    PersistentButton, template=r"th:preact:(?P<attack>[\w-]+):(?P<index>\d{1,2})"
):
    """A defender's power Reaction whose trigger is being attacked [GAME.md §9, 001 §2]."""

    def __init__(self, attack_id: str, index: int, name: str = "Reaction") -> None:
        super().__init__(
            discord.ui.Button(
                label=_("React: {power}", power=name)[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"th:preact:{attack_id}:{index}",
            )
        )
        self.attack_id = attack_id
        self.index = index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> PowerReactionButton:
        return cls(match["attack"], int(match["index"]))

    async def pressed(self, interaction: discord.Interaction) -> None:
        """Use the Reaction on this attack: once a round; the prompt shows it."""
        async with at_table(interaction) as table:
            pending = find_pending(table.encounter, self.attack_id)
            defender = flow.by_id(table.encounter, pending.defender_id)
            table.require(defender, "defend")
            if self.index >= len(defender.powers):
                raise NotFound("That power is no longer on the defender's sheet.")
            power = defender.powers[self.index]
            reacted = use_reaction(table.encounter, defender, power)
            attacker = _name(table.encounter, pending.attacker_id)
            with speaking(table.language):  # kept in the prompt, which the channel reads
                line = reacted_text(reacted, about=_("{attacker}'s attack", attacker=attacker))
            pending.reactions = [*pending.reactions, line]
            table.note(line, about=defender)
            prompt = prompt_of(table.encounter, pending, [], None)
        await _show_prompt_again(interaction, prompt, table.language)


class CounterButton(PersistentButton, template=r"th:counter:(?P<attack>[\w-]+)"):
    """The counter-attack a natural 1 offers its defender."""

    def __init__(self, attack_id: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Counter"),
                style=discord.ButtonStyle.danger,
                custom_id=f"th:counter:{attack_id}",
            )
        )
        self.attack_id = attack_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> CounterButton:
        return cls(match["attack"])

    async def pressed(self, interaction: discord.Interaction) -> None:
        """The fumbled attack's defender strikes back, free, against no defense."""
        bot: Tablehand = interaction.client  # type: ignore[assignment]
        async with at_table(interaction) as table:
            offer = counter_offer(table.encounter, self.attack_id)
            counterer = flow.by_id(table.encounter, offer.counterer_id)
            if not table.may(counterer, "defend"):
                raise NotAllowed("This is not your counter-attack.")
            settled = counter_attack(table.encounter, self.attack_id, str(interaction.id), bot.rng)
            say_settled(table, settled, how_text(settled))
        if interaction.message is not None:
            with contextlib.suppress(discord.HTTPException):
                await interaction.message.edit(view=None)


async def _show_prompt_again(
    interaction: discord.Interaction, prompt: Prompt, language: str
) -> None:
    """Show the clicked prompt as it stands now, in the table's language (whoever clicked)."""
    with speaking(language):
        shown = {"embed": prompt_embed(prompt), "view": prompt_view(prompt)}
    await interaction.response.edit_message(**shown)


def counter_view(attack_id: str) -> discord.ui.View:
    """Return the Counter button offered after a natural 1."""
    view = discord.ui.View(timeout=None)
    view.add_item(CounterButton(attack_id))
    return view


# The defense timeout ------------------------------------------------------------------


def arm(bot: Tablehand, channel_id: int, pending: PendingAttack) -> None:
    """Settle the attack with the defender's default when its due time comes."""
    bot.scheduler.schedule_at(
        ("defense", pending.id),
        pending.due_at,
        resolve_by_default(bot, channel_id, pending.id),
    )


async def resolve_by_default(bot: Tablehand, channel_id: int, attack_id: str) -> None:
    """Settle an unanswered attack with the defender's default strategy."""
    async with at_channel(bot, channel_id) as table:
        encounter = None if table.state.damaged else table.state.encounter
        pending = next(
            (p for p in (encounter.pending_attacks if encounter else []) if p.id == attack_id),
            None,
        )
        if pending is None:
            return  # answered (or the fight ended) meanwhile
        settled = answer_attack(table.encounter, attack_id, None, bot.rng)
        if settled is not None:
            how = how_of(table.encounter, settled, timeout=table.settings.defense_timeout)
            shown = resolution(table.encounter, settled, how, [])
            note_settled(table, shown)
    if settled is None:
        await close_prompt(bot, channel_id, pending, CALLED_OFF, table.language)
    else:
        await show_result(bot, channel_id, pending, shown, table.language)


async def rearm_after_ready(bot: Tablehand) -> None:
    """Arm the timers of attacks stored before a restart; an overdue one resolves now."""
    await bot.wait_until_ready()
    await rearm(bot, bot.owned_guild_ids())


async def rearm(bot: Tablehand, guild_ids: set[int] | None) -> None:
    """Arm the timers of these guilds' waiting attacks (None: every guild's), e.g. a shard's."""
    for channel_id in await bot.store.pending_attack_channels(guild_ids=guild_ids):
        encounter = await bot.store.peek(channel_id)
        for pending in encounter.pending_attacks if encounter else []:
            arm(bot, channel_id, pending)
