"""The blind prompt and the result's reactions, in words [GAME.md §10, 000, 002]."""

from __future__ import annotations

import random

from bot.render.attacks import Prompt, Resolution, prompt_embed, resolution_embed
from bot.rules import encounter as flow
from bot.rules.attack_flow import answer_attack, declare_attack
from bot.rules.attacks import AttackSpec
from bot.rules.models import Combatant, Encounter
from bot.rules.reactions import react
from tests.scripted import ScriptedRandom, d20


def test_the_prompt_shows_the_situation_but_no_number() -> None:
    """The prompt showed the attack's dice, or not its range and cover."""
    spec = AttackSpec(style="ranged", distance=8, cover=2)
    prompt = Prompt(
        attack_id="1",
        attacker="Archer",
        defender="Mira",
        spec=spec,
        strategies=["block", "dodge", "take_cover"],
        default="dodge",
        due_at=100.0,
        ping=None,
        can_protect=True,
    )
    embed = prompt_embed(prompt)
    assert embed.fields == []
    assert embed.description.splitlines() == [
        "Ranged · 8 spaces · cover 2. Its dice are rolled and shown with the result.",
        "Mira, choose a defense: Block, Dodge or Take Cover.",
        "Without an answer by <t:100:T> (<t:100:R>), Mira uses **Dodge**.",
        "Allies may **Protect** Mira (an action; the protector must block).",
    ]


def test_two_protectors_show_both_blocks_and_which_applies() -> None:
    """Of two protectors' blocks, the result did not show both and mark the highest [002]."""
    encounter = Encounter(channel_id=1, gm_id=9, mode="finesse")
    for name, side, physical, finesse in (
        ("Goblin", "foes", 3, 9),
        ("Mira", "party", 4, 1),
        ("Brom", "party", 6, 0),
        ("Tor", "party", 1, 0),
    ):
        flow.add_combatant(
            encounter,
            Combatant(id=0, name=name, side=side, physical=physical, finesse=finesse),
            random.Random(0),
        )
    flow.advance(encounter, random.Random(0))
    goblin, mira = flow.by_name(encounter, "Goblin"), flow.by_name(encounter, "Mira")
    declared = declare_attack(
        encounter,
        goblin,
        mira,
        AttackSpec(),
        ScriptedRandom([d20(12)]),
        attack_id="a",
        now=0,
        timeout=1,
    )
    assert declared.pending is not None
    for ally in ("Brom", "Tor"):
        react(encounter, flow.by_name(encounter, ally), declared.pending, "protect")
    settled = answer_attack(encounter, "a", None, ScriptedRandom([d20(5), d20(15)]))
    assert settled is not None
    shown = Resolution(
        attacker="Goblin",
        defender="Mira",
        settled=settled,
        how="protected by Tor, who must block",
        names={c.id: c.name for c in encounter.combatants},
    )
    fields = {f.name: f.value for f in resolution_embed(shown, gm_view=False).fields}
    assert fields["Defense"] == (
        "Brom protects — Block · d20 **5** · Physical +6 → **11**\nRisk 1 · Critical 20\n"
        "Tor protects — Block · d20 **15** · Physical +1 → **16** (the highest: it applies)\n"
        "Risk 1 · Critical 20"
    )
    assert fields["Outcome"] == "**15** vs **16** — **miss**"
