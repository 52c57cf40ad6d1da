"""Turns at the table: ending a turn, Wait and Hold — for the commands and the tracker's buttons.

`/init next`, `/wait` and `/hold` and the pinned tracker's **Next**, **Wait** and **Hold**
run the same flows here. A button carries the moment it was shown for, so a double
click or a button racing a command is refused instead of ending two turns; `/init next`
carries only when it was sent, and is refused if that was before the turn it would end
was announced (`bot.table.Moments`).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence

import discord

from bot.errors import NotAllowed, RuleViolation
from bot.i18n import N_, _, n_, speaking, spoken
from bot.permissions import controls
from bot.render.fortune import hold_text, wait_text
from bot.render.text import name_list, name_text
from bot.render.tracker import tracker_embed
from bot.render.turns import announce
from bot.replies import NETWORK_ERRORS
from bot.rules import encounter as flow
from bot.rules import fortune
from bot.rules.models import Combatant, Encounter, PendingAttack
from bot.table import Table, at_table, moment_of
from bot.tracker import TrackerContent
from bot.views import ConfirmButton, PersistentButton, confirm_template


def next_turn(table: Table) -> None:
    """Do /init next: end the current turn, unless it was announced after the command was sent."""
    table.require_sent_for_now()
    end_turn(table)


def end_turn(table: Table, *, confirmed: bool = False) -> None:
    """End the current turn (or phase) and start what follows: /init next and Next.

    While an attack still waits for its defense, ask first (unless `confirmed`).
    """
    encounter = table.encounter
    actor = flow.current_actor(encounter)
    if not table.is_gm and (actor is None or not controls(table.caller, actor)):
        if actor is None or actor.hidden:
            raise NotAllowed("Only the GM can start the turns or step the phase.")
        raise NotAllowed(
            "It is {actor}'s turn; only its player or the GM can end it.", actor=actor.name
        )
    waiting = [p for p in encounter.pending_attacks if table.may(_defender(encounter, p), "look")]
    if waiting and not confirmed:
        ref = moment_of(encounter)
        table.tell(
            defense_waiting_text(encounter, waiting),
            view=NextConfirm.view(table.caller.user_id, ref),
        )
        return
    step = flow.advance(encounter, table.bot.rng, table.bot.hooks)
    table.announce(announce(encounter, step))


def _defender(encounter: Encounter, pending: PendingAttack) -> Combatant:
    return flow.by_id(encounter, pending.defender_id)


def defense_waiting_text(encounter: Encounter, waiting: list[PendingAttack]) -> str:
    """Return the question before ending a turn while defenses are still open."""
    defenders: dict[str, int] = {}
    for pending in waiting:
        name = _defender(encounter, pending).name
        defenders[name] = defenders.get(name, 0) + 1
    if len(defenders) == 1:
        [(name, count)] = defenders.items()
        who = n_(
            "{name} still has an attack to answer.",
            "{name} still has {n} attacks to answer.",
            count,
            name=name_text(name),
        )
    else:
        who = _(
            "{names} still have attacks to answer.",
            names=name_list(list(defenders), _("and"), translated=True),
        )
    return _(
        "{who} End the turn anyway? An open attack stays open: its defender may still "
        "answer, or its default defense is used when its time runs out.",
        who=who,
    )


class NextConfirm(ConfirmButton, template=confirm_template("next")):
    """Confirm of ending a turn while a defense is still open; it ends the turn it was asked for."""

    what = "next"
    cancelled = N_("The turn goes on.")

    async def confirmed(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # the turn's announcement follows, in public
        ended = False
        try:
            async with at_table(interaction) as table:
                if moment_of(table.encounter) != self.ref:
                    raise RuleViolation(STALE)
                end_turn(table, confirmed=True)
            ended = True
        finally:
            text = _("Turn ended; the open attack waits for its answer.") if ended else None
            with contextlib.suppress(discord.HTTPException, *NETWORK_ERRORS):
                await interaction.edit_original_response(
                    **({"content": text} if text else {}), view=None
                )


def wait(table: Table, name: str | None) -> None:
    """Wait: pass over the combatant's turn; on its own turn the order moves on at once."""
    combatant = table.pick(name, "act")
    encounter = table.encounter
    round_number = encounter.round  # the last wait of a round ends it
    waited = fortune.wait(encounter, combatant, table.bot.hooks)
    table.say(
        lambda gm_view: wait_text(combatant), about=combatant, round=round_number, kind="turn"
    )
    if waited.own_turn:
        table.announce(announce(encounter, waited.step))  # the next turn


def hold(table: Table, name: str | None) -> None:
    """Hold: a waiting combatant carries into the next round."""
    combatant = table.pick(name, "act", wanted=lambda c: c.waiting)
    held = fortune.hold(table.encounter, combatant)
    table.say(lambda gm_view: hold_text(combatant, held), about=combatant, kind="turn")


TRACKER_ACTIONS = {
    "next": (N_("Next"), discord.ButtonStyle.primary, "⏭"),
    "wait": (N_("Wait"), discord.ButtonStyle.secondary, "⏸"),
    "hold": (N_("Hold"), discord.ButtonStyle.secondary, "⏩"),
}
STALE = N_("That turn is already over; the tracker shows where the fight is now.")


class TrackerButton(
    PersistentButton,
    template=r"th:tracker:(?P<action>next|wait|hold)(?::(?P<key>[\w.-]+))?",
):
    """Next / Wait / Hold on the pinned tracker, pressed for the moment it showed."""

    gone = STALE  # pressed on a tracker that has moved on since it was drawn

    def __init__(self, action: str, key: str | None = None) -> None:
        label, style, emoji = TRACKER_ACTIONS[action]
        custom_id = f"th:tracker:{action}" + (f":{key}" if key else "")
        super().__init__(
            discord.ui.Button(label=_(label), style=style, emoji=emoji, custom_id=custom_id)
        )
        self.action = action
        self.key = key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> TrackerButton:
        return cls(match["action"], match["key"])

    async def pressed(self, interaction: discord.Interaction) -> None:
        """Run the button's flow with the commands' rights, unless its moment has passed."""
        if not await self._current(interaction):
            return
        async with at_table(interaction) as table:
            if self.key is not None and self.key != moment_of(table.encounter):
                raise RuleViolation(STALE)
            if self.key is None:  # drawn before buttons carried their moment: as a command
                table.require_sent_for_now()
            if self.action == "next":
                end_turn(table)
            elif self.action == "wait":
                wait(table, None)
            else:
                hold(table, None)

    async def _current(self, interaction: discord.Interaction) -> bool:
        """Return whether the clicked tracker is its encounter's; else retire its buttons."""
        bot = interaction.client
        encounter = await bot.store.peek(interaction.channel_id or 0)  # type: ignore[attr-defined]
        message = interaction.message
        if encounter is not None and message is not None:
            if encounter.tracker_message_id == message.id:
                return True
        await interaction.response.edit_message(view=None)
        await interaction.followup.send(
            _("This encounter is over; its buttons no longer do anything."), ephemeral=True
        )
        return False


def tracker_view(encounter: Encounter) -> discord.ui.View:
    """Return the tracker's buttons, each carrying the moment it is shown for."""
    view = discord.ui.View(timeout=None)
    key = moment_of(encounter)
    for action in TRACKER_ACTIONS:
        view.add_item(TrackerButton(action, key))
    return view


def render_tracker(encounter: Encounter, parts: Sequence[str] | None = None) -> TrackerContent:
    """Render the pinned tracker message with its Next / Wait / Hold buttons.

    `parts`: each combatant's part of the stored text, when known (`Store.glimpsed_parts`).
    """
    # The buttons show their labels (in the language spoken now) and the moment they are
    # for; they are built only if the tracker is to change.
    language = spoken()
    shown = ["tracker buttons", language, moment_of(encounter)]

    def buttons() -> discord.ui.View:
        with speaking(language):
            return tracker_view(encounter)

    return TrackerContent(tracker_embed(encounter, parts=parts), buttons=(shown, buttons))
