"""Who may act now: on its own turn, or out of turn only as the rules allow [GAME.md §10, 003].

A combatant acts on its turn (or after `/act`, when a waiting combatant steps in). Out of
turn it acts only through a reaction, a counter-attack or a defense, which their own
flows allow; everything else is refused here with the way to do it — unless the GM
forces it, and then the result says so [GAME.md §10]. A Broken combatant performs
nothing; a fixed object never acts; a grappling combatant can only break away [000].
"""

from __future__ import annotations

from bot.errors import RuleViolation
from bot.i18n import L_, Lazy, Lp_
from bot.rules import state as flow
from bot.rules.models import Combatant, Encounter

FORCE_HINT = L_("the GM may force it (force:true)")
# What a refusal says one may not do now ("… to {doing} now"): every caller's, for the catalogue.
DOINGS = (
    Lp_("doing", "attack"),
    Lp_("doing", "use an essence"),
    Lp_("doing", "hide"),
    Lp_("doing", "move"),
    Lp_("doing", "stand up"),
    Lp_("doing", "use a power"),
    Lp_("doing", "engage"),
    Lp_("doing", "break away"),
    Lp_("doing", "take full cover"),
    Lp_("doing", "guard"),
    Lp_("doing", "haste"),
    Lp_("doing", "wait"),
    Lp_("doing", "act"),
    Lp_("doing", "hold"),
    Lp_("doing", "sacrifice an action"),
    Lp_("doing", "declare"),
)


def doing_text(doing: str) -> Lazy:
    """Return what a refusal says one may not do ("attack"), in the reader's language."""
    return Lp_("doing", doing)


def on_turn(encounter: Encounter, combatant: Combatant) -> bool:
    """Return whether it is the combatant's turn now (its own, or its /act inside another's)."""
    actor = flow.current_actor(encounter)
    return actor is not None and actor.id == combatant.id


def require_able(
    encounter: Encounter, combatant: Combatant, *, breaking_away: bool = False
) -> None:
    """Refuse anything from a combatant that cannot act at all: an object, Broken, surprised, held."""
    name = combatant.name
    if combatant.fixed_object:
        raise RuleViolation("{name} is a fixed object; it takes no actions.", name=name)
    if flow.is_broken(combatant):
        raise RuleViolation("{name} is Broken and cannot act until Grit is restored.", name=name)
    if flow.surprised(encounter, combatant):
        raise RuleViolation("{name} is surprised: in round zero only the ambushers act.", name=name)
    if combatant.grapple is not None and not breaking_away:
        partner = _name(encounter, combatant.grapple.partner_id)
        raise RuleViolation(
            "{name} is locked in a grapple with {partner}: Break Away is "
            "the only action it can take (/breakaway).",
            name=name,
            partner=partner,
        )


def require_turn(
    encounter: Encounter,
    combatant: Combatant,
    doing: str,
    *,
    forced: bool = False,
    breaking_away: bool = False,
) -> bool:
    """Refuse an action outside the combatant's turn unless the GM forces it; return whether forced.

    `doing` completes "… to {doing} now": "attack", "move", "stand up".
    """
    require_able(encounter, combatant, breaking_away=breaking_away)
    if on_turn(encounter, combatant):
        return False
    if forced:
        return True
    name = combatant.name
    if not flow.turns_running(encounter):
        raise RuleViolation(
            "It is not {name}'s turn: round {round}'s turns have not "
            "begun (the GM's /init next starts them); {force_hint}.",
            name=name,
            round=encounter.round,
            force_hint=FORCE_HINT,
        )
    if combatant.waiting:
        raise RuleViolation(
            "{name} is waiting: /act first to {doing} now.", name=name, doing=doing_text(doing)
        )
    if combatant.acted_this_round or combatant.acted_out_of_turn or combatant.holding:
        raise RuleViolation(
            "It is not {name}'s turn, and its turn this round is over; {force_hint}.",
            name=name,
            force_hint=FORCE_HINT,
        )
    raise RuleViolation(
        "It is not {name}'s turn: {doing} when it comes, or /wait "
        "and then /act to {doing} sooner; {force_hint}.",
        name=name,
        doing=doing_text(doing),
        force_hint=FORCE_HINT,
    )


def _name(encounter: Encounter, combatant_id: int) -> str | Lazy:
    found = next((c for c in encounter.combatants if c.id == combatant_id), None)
    return found.name if found is not None else L_("someone who left")
