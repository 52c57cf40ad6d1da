"""Inputs meant to hurt: dice that are too big, too deep, or too much work to roll.

The fuzz throws them at every text option; `test_fuzz` throws each one at the options
that roll dice, and `make bench` (its `stall` part) reports the worst event-loop stall
they cause in the bot's own process.
"""

from __future__ import annotations

# The fight the fuzz starts from (and every attack bomb, afresh): who, what they type.
FIGHT = [
    ("gm", "/init start mode:finesse"),
    ("gm", "/init add name:Goblin physical:2 finesse:2 count:2"),
    ("gm", "/init add name:Lurker hidden:true"),
    ("alice", "/init join character:Mira physical:4 finesse:3"),
    ("bob", "/init join character:Brom finesse:1"),
    ("gm", "/init next"),
]

DICE_BOMBS = [
    "1000000d1000000", "1d1000000", "1000000d6", "1001d6", "1000d1000", "999999999999d2",
    "1d6" + "+1d6" * 39, "2d20kh1+3", "4d6kh3", "1d6!", "1d0", "0d6", "d", "d%", "1d-1",
    "-5", "0", "+3", "99999999999999999999", "1e9", "core", "corecore", "1dcore", "2d6*1000",
    "10000/0", "1d6/0", "((((((((((1))))))))))", "(" * 99 + "1" + ")" * 99, "(" * 100,
    ")" * 100, "1" + "+1" * 99, "1d6" + "*1d6" * 30, "--1", "1d6 # comment", "NaN", "inf",
]  # fmt: skip

# Keep/drop/reroll/explode conditions, each of which d20 made look at whole pools again
# and again: within 200 characters and 1000 dice, the ones that cost most, refused or not.
SELECTOR_BOMBS = [
    "1000d1000" + "k>0" * 63,  # the issue's: 63,000 checks, ~20 s with d20's own keep
    "1000d1000" + "kh999" * 38,
    "1000d1000" + "kl1p<0" * 31,
    "1000d1000" + "k>0" * 10,  # exactly the bound: 10,000 checks
    "1000d1000" + "kl999" * 10,
    "1000d1000" + "mi2ma999" * 5,
    "1000d1000kh1",
    "1000d6kh3",
    "(1000d1000,1)" + "kh1" * 9,
    "((((1000d1000,1)kh1,1)kh1,1)kh1,1)kh1" + "kh1" * 5,
    "1d1000e>0",  # explodes on every face: 1,000 passes
    "1d1rr1",  # rerolls forever: 1,000 passes
    "500d1000rrh1",  # rereads the whole pool on every pass
    "4d6eh1000",
    "500d6" + "k>0" * 9 + "+1d1rr1",  # 4,500 checks, then 499 reroll passes
    "+".join(["1d6e6"] * 33),
    "+".join(["1d20e20"] * 10),
    "990d2e2" + "p<0" * 10,
    "2d20kh1e20ro1mi2ma19p<0",
]
DICE_WEAPONS = DICE_BOMBS + SELECTOR_BOMBS

# Bonus and penalty dice are plain terms (+1d10 -1d6), at most ten of them.
BONUS_BOMBS = [
    "+1000d1000" * 10,
    "+1000d1000",
    "+100d1000" * 5 + "-100d1000" * 5,
    "+1001d6",
    "+1d1001",
    "-1000d1000" * 10,
    "+1d6kh1",
    "+" + "1d6" * 60,
    "+1d6" * 11,
]


def bomb_cases() -> list[tuple[str, str, dict[str, str]]]:
    """Return (who, command, options): each bomb at each option that rolls dice."""
    cases = []
    for weapon in DICE_WEAPONS:
        cases.append(("bob", "roll", {"expression": weapon}))
        cases.append(("gm", "grit damage", {"combatant": "Goblin 1", "amount": weapon}))
        cases.append(("alice", "attack", {"target": "Goblin 1", "damage": weapon}))
    cases += [("alice", "attack", {"target": "Goblin 1", "bonus": b}) for b in BONUS_BOMBS]
    return cases
