"""The SRD formulas (GAME.md §8), the `/pp price` component parser and the curve verdicts."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.catalogue.build import component_names, price
from bot.catalogue.models import Catalogue, load_catalogue
from bot.catalogue.pricing import (
    curve_target,
    diminishing_cost,
    fitting_level,
    judge,
    movement_progression,
    pp_target,
    resolve_type,
    special_cost,
    special_cost_table,
    upgrade_tokens,
)
from bot.errors import BadInput
from tests.unit.catalogue import srd

CATALOGUE = load_catalogue()  # for Hypothesis, which cannot take function-scoped fixtures
CURVED = ("active", "active_buff", "reaction", "passive")

# GAME.md §8 and the SRD: components → total PP
FORMULAS = [
    ("ruin:3", 24),  # Start PP 4 × T(3)
    ("weaken:4", 80),  # Start PP 8 × T(4)
    ("blight:2", 9),
    ("exorcism:3", 12),
    ("root:2", 18),
    ("cleanse:3", 24),
    ("push:6", 12),  # 2 PP per metre
    ("pull:3", 6),
    ("penetration:2", 15),  # 7.5 PP per point
    ("precision:2", 30),  # 15 PP per d8
    ("precision:2d8", 30),
    ("damage:3d8", 45),  # 15 PP per d8
    ("damage:3", 45),
    ("healing:2d8", 30),
    ("heal:1d8", 15),
    ("brutal:2", 20),
    ("brace:2", 30),
    ("bulwark:2", 40),
    ("prone", 60),
    ("disarm", 60),
    ("immovable", 80),
    ("stunned", 120),
    ("autofire:2", 60),  # 30 PP × X
    ("split", 10),  # Split-Attack +10
    ("control:8", 120),  # Push/Pull control scaling
    ("reach:8", 10),
    ("range:touch", 0),
    ("special_aura:5", 140),  # 80 + 60
    ("health_bar:healthy", 70),
    ("health_bar:wounded", 25),
    ("counter:2d8", 40),
    ("counter_push:4", 40),
    ("mental:2d8", 60),
    ("thorns:1d8", 30),
    ("aura_damage:1d8", 35),
    ("health_level:2", 60),
    ("spell_resistance:3", 45),
    ("raise:1", 10),
    ("temp_hp:10", 40),  # in combat without a type: 4 PP per HP
    ("refresh_hp:5", 20),
    ("regen:5", 20),
    ("armor:2", 15),
    ("evade:3", 15),
    ("rounds:3 radius:2", 20),  # +5 PP per extra round, lasting 2 m radius = 10
    ("persistent range:12 radius:3 ruin:2", 59),  # 5 + (15 + 12) × 2
    ("image:III image_size:human range:12", 95),  # 5 + (35 + 10) × 2
    ("barrier:40 radius:2", 100),  # 0 + (10 + 40) × 2
    ("damage:2d8 discount:minor", 28.5),  # × 0.95
]


@pytest.mark.parametrize(("components", "total"), FORMULAS)
def test_component_prices(catalogue: Catalogue, components: str, total: float) -> None:
    """A build of SRD components does not cost what the SRD's formula gives."""
    assert price(catalogue, components).total_pp == pytest.approx(total)


@pytest.mark.parametrize(("metres", "pp"), list(srd.RANGE.items()))
def test_range_steps(catalogue: Catalogue, metres: int, pp: int) -> None:
    """Range does not cost 8 m +0 / 12 m +5 / 16 m +10 / 20 m +15."""
    assert price(catalogue, f"range:{metres}").total_pp == pp


@pytest.mark.parametrize(("radius", "pp"), list(srd.INSTANT_ATTACK_AOE.items()))
def test_radius_on_an_active_uses_the_instant_attack_table(
    catalogue: Catalogue, radius: int, pp: int
) -> None:
    """`radius` on an Active is not priced by the Instant Attack AoE table (0/20/50/…/280)."""
    breakdown = price(catalogue, f"radius:{radius}", "active", 16)
    assert breakdown.total_pp == pp
    assert "Instant Attack AoE" in breakdown.components[0].rule


@pytest.mark.parametrize(("radius", "pp"), list(srd.AURA_PASSIVE_RADIUS.items()))
def test_aura_uses_the_aura_table(catalogue: Catalogue, radius: int, pp: int) -> None:
    """`aura` is not priced by the Aura Passive radius table."""
    assert price(catalogue, f"aura:{radius}", "passive").total_pp == pp


def test_radius_outside_an_active_uses_the_generic_table(catalogue: Catalogue) -> None:
    """`radius` on a non-Active or in a lasting area uses the instant-attack table."""
    assert price(catalogue, "radius:4", "active_buff").total_pp == 20
    assert price(catalogue, "persistent radius:4").total_pp == 40


@pytest.mark.parametrize(
    ("components", "total"),
    [
        ("armor:2", 30),  # unconditional 15 PP
        ("conditional armor:2", 15),  # conditional 7.5 PP
        ("evade:2", 20),
        ("conditional evade:2", 10),
        ("damage:1d6", 40),
        ("conditional damage:2d6", 40),
        ("regen:5", 40),  # 8 PP per HP healed
        ("conditional regen:5", 20),
    ],
)
def test_passive_pricing_modes(catalogue: Catalogue, components: str, total: int) -> None:
    """A Passive component ignores the unconditional ×2 / conditional ×1 pricing."""
    assert price(catalogue, components, "passive").total_pp == total


def test_the_issue_example(catalogue: Catalogue) -> None:
    """The issue's example build is not itemised and judged against the Charged curve."""
    breakdown = price(
        catalogue,
        "damage:2d8 range:16 radius:3 ruin:2 penetration:2 autofire:1 charged",
        "active",
        5,
    )
    assert [(c.name, c.cost_pp) for c in breakdown.components] == [
        ("damage", 30),
        ("range", 10),
        ("radius", 50),
        ("ruin", 12),
        ("penetration", 15),
        ("autofire", 30),
    ]
    assert breakdown.total_pp == 147
    assert breakdown.charged
    check = breakdown.check
    assert check is not None
    assert (check.target_pp, check.verdict, check.unused_pp) == (160, "under", 13)


def test_charged_adds_ten_to_the_curve(catalogue: Catalogue) -> None:
    """Charged does not add +10 PP to the target."""
    assert curve_target(catalogue, "active", 3, charged=True).target_pp == 100
    assert price(catalogue, "damage:7d8", "active", 3).check.verdict == "over"
    assert price(catalogue, "damage:7d8 charged", "active", 3).check.verdict == "on_curve"
    charged = price(catalogue, "damage:6d8 charged", "active", 3).check
    assert (charged.verdict, charged.unused_pp) == ("under", 10)


@pytest.mark.parametrize(
    ("total", "type_key", "level", "verdict", "unused", "over_by", "deviation"),
    [
        (60, "active", 2, "on_curve", 0, 0, 0.0),
        (65, "active", 2, "on_curve", 0, 5, 8.3),
        (66, "active", 2, "over", 0, 6, 10.0),
        (75, "active", 2, "over", 0, 15, 25.0),
        (55, "active", 2, "on_curve", 5, 0, -8.3),
        (54, "active", 2, "under", 6, 0, -10.0),
        (24, "active", 1, "under", 6, 0, -20.0),
        (130, "active_buff", 4, "on_curve", 0, 0, 0.0),
        (100, "passive", 5, "on_curve", 0, 0, 0.0),
        (330, "reaction", 16, "over", 0, 10, 3.1),
    ],
)
def test_curve_verdicts(
    catalogue: Catalogue,
    total: float,
    type_key: str,
    level: int,
    verdict: str,
    unused: float,
    over_by: float,
    deviation: float,
) -> None:
    """A total is judged wrongly: over means more than 5 PP above the target (§10.3)."""
    check = judge(catalogue, total, type_key, level)
    assert (check.verdict, check.unused_pp, check.over_by_pp) == (verdict, unused, over_by)
    assert check.deviation_pct == deviation


@pytest.mark.parametrize(
    ("total", "capstone", "within"),
    [(66, False, True), (67, False, False), (69, True, True), (70, True, False)],
)
def test_design_band(catalogue: Catalogue, total: float, capstone: bool, within: bool) -> None:
    """The ±10 % band (capstones ±15 %) of §0.2 is reported wrongly."""
    check = judge(catalogue, total, "active", 2, capstone=capstone)
    assert check.within_band is within
    assert check.band_pct == (15 if capstone else 10)


def test_level_is_inferred_from_the_total(catalogue: Catalogue) -> None:
    """Without a level, the build is not judged at the lowest level that holds it."""
    breakdown = price(catalogue, "damage:4d8", "active")
    assert (breakdown.level, breakdown.level_inferred, breakdown.check.verdict) == (
        2,
        True,
        "on_curve",
    )
    assert fitting_level(catalogue, 1000, "active") == 16


def test_without_a_type_the_fits_are_listed(catalogue: Catalogue) -> None:
    """A build without a type does not list the lowest fitting level of each curve that takes it.

    4d8 damage is an Active's or an Active Buff's (15 PP per d8); a Reaction deals no attack
    damage and a Passive's damage is priced per d6, so neither is offered.
    """
    breakdown = price(catalogue, "damage:4d8")
    assert breakdown.check is None
    assert {(fit.type, fit.level, fit.total_pp) for fit in breakdown.fits} == {
        ("active", 2, 60),
        ("active_buff", 2, 60),
    }
    armor = price(catalogue, "armor:2")  # 7.5 PP per +1, but 15 PP on an unconditional Passive
    assert {(fit.type, fit.total_pp) for fit in armor.fits} == {
        ("active", 15),
        ("active_buff", 15),
        ("reaction", 15),
        ("passive", 30),
    }


def test_components_cite_their_rule(catalogue: Catalogue) -> None:
    """A priced component does not say which SRD rule priced it."""
    breakdown = price(catalogue, "ruin:2 range:12 persistent radius:2")
    ruin = next(c for c in breakdown.components if c.name == "ruin")
    assert ruin.rule == "(Ruin(2) = Start PP 4 × T(2) = 4 × 3) × 2 persistent"
    assert ruin.multiplier == 2 and ruin.cost_pp == 24
    assert all(c.source for c in breakdown.components)


BAD = [
    ("damage:2d8 fireball:3", "Unknown component 'fireball'. Valid components: armor, aura,"),
    ("radius:9", "Instant Attack AoE radius must be one of 1 m, 2 m"),
    ("range:10", "range must be one of 8 m, 12 m, 16 m, 20 m; not 10."),
    ("ruin:100", "X for Ruin must be 1–99, not 100."),
    ("ruin:101", "ruin must be 1–100, not 101."),
    ("root:1", "X for Root must be 2–99, not 1."),
    ("ruin", "ruin needs a value, like ruin:2."),
    ("prone:1", "Prone takes no value."),
    ("damage:2d6", "damage is priced per d8, not d6."),
    ("damage:two", "damage:two is not a whole number."),
    ("ruin:1 ruin:2", "Component 'ruin' is given twice."),
    ("", "Give at least one component"),
    ("charged", "Give at least one priced component."),
    ("persistent radius:2 rounds:3", "rounds cannot be combined with a persistent area"),
    ("counter_push:10", "counter_push is bought per 2 m up to 8 m; not 10 m."),
    ("dispel", "Unknown component 'dispel'."),
    ("damage:1d8 discount:huge", "discount must be one of minor, dual_minor, synergy, complex"),
    ("image:IX", "image must be a tier I, II, III, IV, V, VI, VII; not ix."),
    ("control:3", "Push/Pull control distance must be one of 2 m, 4 m"),
    ("split:2", "split takes no value."),
]


@pytest.mark.parametrize(("components", "message"), BAD)
def test_bad_components(catalogue: Catalogue, components: str, message: str) -> None:
    """A bad component is not refused with a clear one-line message."""
    with pytest.raises(BadInput) as raised:
        price(catalogue, components)
    assert message in raised.value.message
    assert "\n" not in raised.value.message


@pytest.mark.parametrize(
    ("components", "type_key", "level", "message"),
    [
        ("damage:1d8", "active", 17, "Level must be 1–16, not 17."),
        ("damage:1d8", "active", 0, "Level must be 1–16, not 0."),
        ("damage:1d8", "movement", 3, "Movement powers have no PP curve"),
        ("damage:1d8", "spell", 3, "Unknown power type 'spell'."),
        ("armor:1 charged", "passive", 3, "Passives cannot be Charged."),
        ("damage:1d8", "passive", 3, "damage is priced per d6, not d8."),
        ("damage:1d8", None, 3, "Give a power type together with the level."),
    ],
)
def test_bad_type_or_level(
    catalogue: Catalogue, components: str, type_key: str | None, level: int, message: str
) -> None:
    """A bad type or level is not refused with a clear message."""
    with pytest.raises(BadInput, match=message.replace(".", r"\.")):
        price(catalogue, components, type_key, level)


def test_unknown_component_lists_every_valid_name(catalogue: Catalogue) -> None:
    """The unknown-component message leaves out a valid component name."""
    with pytest.raises(BadInput) as raised:
        price(catalogue, "nonsense:1")
    for name in component_names(catalogue):
        assert name in raised.value.message


@pytest.mark.parametrize(
    ("key", "x", "message"),
    [
        ("ruin", 0, "X for Ruin must be 1–99, not 0."),
        ("ruin", None, "Ruin needs an X (1–99)."),
        ("stunned", 2, "Stunned takes no X."),
        ("push", 100, "X for Push must be 1–99, not 100."),
        ("brutal_impact", 9, "X for Brutal Impact must be 1–8, not 9."),
    ],
)
def test_special_x_out_of_range(
    catalogue: Catalogue, key: str, x: int | None, message: str
) -> None:
    """An X outside the Special's range is not refused clearly."""
    with pytest.raises(BadInput, match=message.replace("(", r"\(").replace(")", r"\)")):
        special_cost(catalogue.special(key), x)


def test_special_cost_table_runs_one_to_ten(catalogue: Catalogue) -> None:
    """A Special's cost table is not X = 1–10 (or its single fixed price)."""
    assert [c.cost_pp for c in special_cost_table(catalogue.special("ruin"))] == [
        4 * x * (x + 1) / 2 for x in range(1, 11)
    ]
    assert [c.cost_pp for c in special_cost_table(catalogue.special("prone"))] == [60]


def test_curve_target_rejects_movement(catalogue: Catalogue) -> None:
    """`/pp movement` gives a curve instead of pointing to the progressions."""
    with pytest.raises(BadInput, match="no PP curve"):
        curve_target(catalogue, "movement", 4)


def test_movement_progression_at_a_level(catalogue: Catalogue) -> None:
    """A movement progression at a level does not give that level's distances and the cap."""
    leap = movement_progression(catalogue, "leap", 14)
    assert leap.at_level == ("28 m", "14 m")
    assert leap.cap == "28 m horizontal / 14 m vertical"
    with pytest.raises(BadInput, match="Unknown movement type 'glide'"):
        movement_progression(catalogue, "glide")
    with pytest.raises(BadInput, match="Level must be 1–16"):
        movement_progression(catalogue, "leap", 20)


def test_summon_upgrades_are_bought_in_steps(catalogue: Catalogue) -> None:
    """A Summon upgrade off its step size is priced instead of refused."""
    assert upgrade_tokens(catalogue, "hp", 40) == 2
    with pytest.raises(BadInput, match="HP is bought in steps of 20 HP"):
        upgrade_tokens(catalogue, "hp", 30)


@given(start_pp=st.sampled_from([2, 3, 4, 6, 8]), x=st.integers(min_value=1, max_value=10))
def test_diminishing_cost_is_start_pp_times_triangular(start_pp: int, x: int) -> None:
    """Diminishing cost is not Start PP × X(X+1)/2 or does not rise with X."""
    assert diminishing_cost(start_pp, x) == start_pp * x * (x + 1) / 2
    assert diminishing_cost(start_pp, x + 1) > diminishing_cost(start_pp, x)


@given(
    total=st.floats(min_value=0, max_value=600, allow_nan=False),
    type_key=st.sampled_from(["active", "active_buff", "reaction", "passive"]),
    level=st.integers(min_value=1, max_value=16),
)
def test_verdict_follows_the_tolerance(total: float, type_key: str, level: int) -> None:
    """A verdict disagrees with 'over = more than 5 PP above, under = more than 5 PP below'."""
    check = judge(CATALOGUE, total, type_key, level)
    target = curve_target(CATALOGUE, type_key, level).target_pp
    assert (check.verdict == "over") == (total > target + 5)
    assert (check.verdict == "under") == (total < target - 5)
    assert check.unused_pp == max(0.0, target - total)


@given(text=st.text(max_size=60))
def test_the_parser_prices_or_refuses(text: str) -> None:
    """Some input makes the component parser fail with something other than BadInput."""
    try:
        breakdown = price(CATALOGUE, text)
    except BadInput as error:
        assert "\n" not in error.message
    else:
        assert breakdown.total_pp >= 0


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Active Buff", "active_buff"),
        ("buff", "active_buff"),
        ("active-buff", "active_buff"),
        ("REACTION", "reaction"),
        ("Passiv", "passive"),
        ("teleport", "teleport"),
        ("Flug", "flight"),
        ("Wall Walk", "wall_walk"),
    ],
)
def test_resolve_type(catalogue: Catalogue, text: str, key: str) -> None:
    """A power or movement type typed loosely is not recognised."""
    assert resolve_type(catalogue, text) == key


def test_pp_target_for_a_power_type(catalogue: Catalogue) -> None:
    """`/pp type level` does not give the curve target for a power type."""
    target = pp_target(catalogue, "Active Buff", 5, charged=True)
    assert (target.base_pp, target.target_pp, target.tolerance_pp) == (160, 170, 5)


def test_pp_target_for_a_movement_type(catalogue: Catalogue) -> None:
    """`/pp type level` does not give a movement type's progression and cap."""
    progression = pp_target(catalogue, "Ground Dash", 13)
    assert progression.at_level == ("34 m",)
    assert progression.cap == "34 m"


def test_pp_target_for_movement_names_the_types(catalogue: Catalogue) -> None:
    """`/pp movement` does not say to name a movement type."""
    with pytest.raises(BadInput, match="no PP curve; name a movement type: Ground Dash"):
        pp_target(catalogue, "movement", 4)


def test_pricing_against_a_movement_type_is_refused(catalogue: Catalogue) -> None:
    """A build priced against a movement type gets a curve instead of an explanation."""
    with pytest.raises(BadInput, match="Movement powers have no PP curve"):
        price(catalogue, "damage:1d8", "teleport", 2)


def test_price_accepts_loose_type_names(catalogue: Catalogue) -> None:
    """`/pp price` does not accept 'Active Buff' as the type."""
    assert price(catalogue, "armor:5", "Active Buff", 1).check.verdict == "on_curve"


# ---------------------------------------------------------------- SRD pricing fixes (issue 19)


@pytest.mark.parametrize(
    ("type_key", "pp"),
    [("passive", 20), ("active", 40), ("active_buff", 40), ("reaction", 40), (None, 40)],
)
def test_temporary_hp_is_priced_by_when_it_comes(
    catalogue: Catalogue, type_key: str | None, pp: int
) -> None:
    """Temporary HP ignores the SRD's context: 10 at Start of Combat = 20 PP (a Passive's
    buffer), 4 PP per HP when granted or refreshed during combat (everything else)."""
    breakdown = price(catalogue, "temp_hp:10", type_key, 1 if type_key else None)
    assert breakdown.total_pp == pp
    assert ("at start of combat" in breakdown.components[0].rule) is (type_key == "passive")


def test_refreshing_temporary_hp_is_four_pp_on_every_type(catalogue: Catalogue) -> None:
    """'gain 5 Temporary HP at the start of your turn = 20 PP' is not priced so on each type."""
    for type_key in CURVED:
        assert price(catalogue, "refresh_hp:5", type_key, 1).total_pp == 20


def test_a_charged_build_without_a_type_skips_passives_and_uses_charged_targets(
    catalogue: Catalogue,
) -> None:
    """A Charged build offers a Passive fit, or is measured against uncharged targets."""
    breakdown = price(catalogue, "armor:8 charged")  # 8 × 7.5 = 60 PP
    assert "passive" not in {fit.type for fit in breakdown.fits}
    active = next(fit for fit in breakdown.fits if fit.type == "active")
    assert (active.level, active.target_pp) == (2, 70)  # 60 + 10 Charged


def test_a_lasting_radius_is_not_an_instant_attack_aoe(catalogue: Catalogue) -> None:
    """A radius that lasts for rounds is priced on the Instant Attack AoE table (2 m = 20)."""
    instant = price(catalogue, "radius:2", "active", 2)
    lasting = price(catalogue, "radius:2 rounds:2", "active", 2)
    assert instant.components[0].cost_pp == 20  # Instant Attack AoE Pricing
    radius = next(c for c in lasting.components if c.name == "radius")
    assert radius.cost_pp == 10  # 4) AoE (Radius): 2 m = 10 PP
    assert "AoE Radius" in radius.rule


@pytest.mark.parametrize(("metres", "pp"), [(12, 0), (16, 5), (20, 10), (24, 15)])
def test_range_from_a_twelve_metre_baseline(catalogue: Catalogue, metres: int, pp: int) -> None:
    """'If a Power starts at 12 m baseline, treat 12 m as +0, then 16/20/24 m as +5/+10/+15 PP.'"""
    breakdown = price(catalogue, f"range:{metres} range_base:12")
    assert breakdown.total_pp == pp
    assert "12 m baseline" in breakdown.components[0].rule


@pytest.mark.parametrize(
    ("components", "message"),
    [
        (
            "range:8 range_base:12",
            "range from a 12 m baseline must be one of 12 m, 16 m, 20 m, 24 m; not 8.",
        ),
        (
            "range:28 range_base:12",
            "range from a 12 m baseline must be one of 12 m, 16 m, 20 m, 24 m; not 28.",
        ),
        ("range:16 range_base:10", "range_base must be 8 or 12 m, not 10 m."),
        ("range_base:12 damage:1d8", "range_base sets the baseline of a range"),
    ],
)
def test_bad_range_baselines(catalogue: Catalogue, components: str, message: str) -> None:
    """A range below its baseline, past the SRD's steps or from another baseline is priced."""
    with pytest.raises(BadInput, match=re.escape(message)):
        price(catalogue, components)


@pytest.mark.parametrize(
    ("key", "x", "pp"), [("ruin", 11, 264), ("weaken", 12, 624), ("push", 40, 80)]
)
def test_no_cap_of_ten_where_the_srd_states_none(
    catalogue: Catalogue, key: str, x: int, pp: int
) -> None:
    """A Special is capped at X 10 (or Push at 32 m) though the SRD gives no cap."""
    assert special_cost(catalogue.special(key), x).cost_pp == pp


def test_the_caps_the_srd_does_state(catalogue: Catalogue) -> None:
    """Root's minimum of 2 (§11.12) or Counter Push's 8 m cap was lost."""
    assert catalogue.special("root").min_x == 2
    assert catalogue.rate("counter_push_2m").cap == 8


@pytest.mark.parametrize(
    ("components", "type_key", "rule"),
    [
        ("special_aura:3", "active", "Passive Special Aura"),
        ("aura:3 armor:1", "active_buff", "Aura Passives"),
        ("counter:1d8", "active", "Counter Effect Rules"),
        ("autofire:1 armor:2", "active_buff", "Multi-Target Attack Structures"),
        ("damage:1d8", "reaction", "Reaction Governance"),
        ("ruin:2 armor:1", "active_buff", "Active Buff Special Rules"),
        ("ruin:2", "passive", "Passive Restrictions and Explicit Exceptions"),
        ("slow:1 evade:1", "reaction", "Reaction Governance"),
        (
            "armor:2 damage:1d8",
            "active_buff",
            "Active Buff Governance — Canonical Catalogue Decisions",
        ),
        (
            "armor:1 evade:1 temp_hp:2",
            "active_buff",
            "Active Buff Governance — Canonical Catalogue Decisions",
        ),
        ("armor:1 counter:1d8", "reaction", "§9.2 Reaction Catalogue"),
        ("armor:1 evade:1 damage:1d6", "passive", "Combined Passives; Two-Axis Rule"),
        ("special_aura:2 armor:1", "passive", "Combined Passives"),
        ("damage:1d8 ruin:1 slow:1 lacerate:1", "active", "Special Limit Per Power (Level)"),
        ("stunned weaken:1", "active", "§10.18 Hard Control / Stunned Governance"),
        ("prone", "active", "§10.16 Fixed Control Add-ons"),
        ("critical damage:1d8", "active", "Critical Restriction"),
        ("wall:6x2x0.5", "active_buff", "§10.1 Active Template Families"),
    ],
)
def test_components_are_checked_against_the_power_type(
    catalogue: Catalogue, components: str, type_key: str, rule: str
) -> None:
    """A component the power type may not use is priced without naming the SRD rule it breaks."""
    breakdown = price(catalogue, components, type_key, 4)
    assert rule in [v.rule for v in breakdown.violations]
    assert all(v.reason and v.alternative for v in breakdown.violations)


@pytest.mark.parametrize(
    ("components", "type_key"),
    [
        ("armor:2 temp_hp:4", "active_buff"),  # approved: Armor + Temporary HP
        ("evade:2 refresh_hp:4", "active_buff"),
        ("refresh_hp:4 regen:2", "active_buff"),
        ("armor:2 evade:2", "active_buff"),
        ("damage:2d8 penetration:2", "active_buff"),
        ("armor:2 temp_hp:4", "reaction"),
        ("counter:1d8 counter_push:2", "reaction"),
        ("armor:1 temp_hp:5", "passive"),
        ("conditional armor:2 evade:2", "passive"),
        ("damage:2d8 range:16 radius:3 ruin:2 penetration:2 autofire:1 charged", "active"),
        ("stunned damage:1d8", "active"),
        ("prone damage:2d8", "active"),
    ],
)
def test_conforming_builds_break_nothing(
    catalogue: Catalogue, components: str, type_key: str
) -> None:
    """An SRD-approved build (one of §9's combinations, one Special and a rider) is flagged."""
    assert price(catalogue, components, type_key, 8).violations == ()


@pytest.mark.parametrize(
    ("total", "type_key", "level", "capstone", "verdict", "decided"),
    [
        (
            500,
            "active",
            16,
            False,
            "over",
            "§10.3 decides: more than ±5 PP over the target, although +4.2 % is inside §0.2's ±10 % design band.",
        ),
        (
            34,
            "active",
            1,
            False,
            "on_curve",
            "§10.3 decides: within ±5 PP is on curve, although +13.3 % is outside §0.2's ±10 % design band.",
        ),
        (
            460,
            "active",
            16,
            False,
            "under",
            "§10.3 decides: more than ±5 PP under the target, although −4.2 % is inside §0.2's ±10 % design band.",
        ),
        (
            69,
            "active",
            2,
            True,
            "capstone",
            "§6 and §0.2 decide: a capstone may sit above the curve within the ±15 % capstone band.",
        ),
        (75, "active", 2, False, "over", None),  # +15 PP and +25 %: both say over
        (60, "active", 2, False, "on_curve", None),
    ],
)
def test_one_verdict_names_the_deciding_rule(
    catalogue: Catalogue,
    total: float,
    type_key: str,
    level: int,
    capstone: bool,
    verdict: str,
    decided: str | None,
) -> None:
    """When ±5 PP (§10.3) and ±10 % (§0.2) disagree there is no one verdict naming its rule."""
    check = judge(catalogue, total, type_key, level, capstone=capstone)
    assert (check.verdict, check.decided_by) == (verdict, decided)


@pytest.mark.parametrize(
    ("components", "total", "lines"),
    [
        # "Placement 10 + Length (2 steps × 5 = 10) + LoS 5 + Duration 15 = 40 PP"
        (
            "wall:6x2x0.5 los",
            40,
            [("wall placement", 10), ("wall length", 10), ("los", 5), ("wall duration", 15)],
        ),
        # "Placement 10 + Length 15 + Height 3 + Thickness 2 + LoS 5 + Duration 15
        #  + Resilience (5 × 4 segments = 20) = 70 PP"
        (
            "wall:8x4x1 los resilience",
            70,
            [
                ("wall placement", 10),
                ("wall length", 15),
                ("wall height", 3),
                ("wall thickness", 2),
                ("los", 5),
                ("wall duration", 15),
                ("resilience", 20),
            ],
        ),
    ],
)
def test_the_wall_examples_come_out_of_pp_price(
    catalogue: Catalogue, components: str, total: int, lines: list[tuple[str, int]]
) -> None:
    """Bark Barricade (40 PP) or Stone Rampart (70 PP) is not priced exactly by its components."""
    breakdown = price(catalogue, components)
    assert [(c.name, c.cost_pp) for c in breakdown.components] == lines
    assert breakdown.total_pp == total


@pytest.mark.parametrize(
    ("components", "message"),
    [
        ("los", "los describes a wall"),
        ("wall:6x2", "wall takes its size in metres as LENGTHxHEIGHTxTHICKNESS"),
        ("wall:0x2x1", "must be above 0"),
        ("wall:6x2x0.5 barrier:20", "A wall is priced as a terrain construct"),
    ],
)
def test_bad_walls(catalogue: Catalogue, components: str, message: str) -> None:
    """A malformed wall is priced instead of refused in one line."""
    with pytest.raises(BadInput, match=re.escape(message)):
        price(catalogue, components)
