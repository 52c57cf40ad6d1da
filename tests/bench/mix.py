"""The load's mix: which interactions a table sends, how often, and what counts as an error.

Each kind names the command it needs; a kind whose command the bot does not have (its
cog has not landed) is left out of the mix and reported as missing. Weights are
shares of interactions: an attack counts twice, since its defender clicks a button
(so do an attack with a loadout's weapon and a `/use` of an Active power).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.errors import TABLE_BUSY
from bot.replies import APOLOGY
from bot.sandbox.commandline import CommandSpec, build_command_data, command_specs
from bot.sandbox.records import APPLICATION_COMMAND, AUTOCOMPLETE, BUTTON, InteractionRecord
from bot.sandbox.server import LoopbackDiscord
from bot.sandbox.world import Channel
from tests.bench.world import POWER, WEAPON

ROLLS = ("2d6+3", "1d20+5", "3d6", "2d20kh1+4", "1d10+1d6", "4d6kh3")
COMBATANT_TYPING = ("", "g", "go", "gob", "gu", "gua", "1", "goblin 1")
DEFENSE_CLICK = "bench:defense"  # what the bare bot's defender clicks (it shows no buttons)

# Refusals the rules give under this load and that are answers, not errors.
ATTACK_REFUSALS = ("no actions left", "is Broken", "cannot attack themself")
EXPECTED_REFUSALS: dict[str, tuple[str, ...]] = {
    "attack": ATTACK_REFUSALS,
    "attack weapon": ATTACK_REFUSALS,
    "use power": ATTACK_REFUSALS,
}


@dataclass
class Scene:
    """What the load generator knows of one channel's seeded encounter."""

    channel: Channel
    combatants: list[str]
    attacks: int = 0  # attackers take turns, so no one runs out of actions early


@dataclass(frozen=True)
class Request:
    """One interaction to dispatch."""

    kind: str
    spec: CommandSpec
    values: dict[str, Any]
    user: str = "gm"
    focused: str | None = None


@dataclass
class Kind:
    """One kind of interaction in the mix."""

    name: str
    command: str  # the synced command it needs, e.g. "grit damage"
    share: float  # of all interactions
    make: Callable[[CommandSpec, Scene, random.Random], Request]
    interactions: int = 1  # an attack is followed by its defense click
    ephemeral_ok: bool = False  # an ephemeral first answer is normal for this kind

    @property
    def prompts(self) -> bool:
        """Return whether its answer is a defense prompt, clicked by the defender."""
        return self.interactions > 1


def _attacker_and_target(scene: Scene, rng: random.Random) -> tuple[str, str]:
    names = scene.combatants
    attacker = names[scene.attacks % len(names)]
    scene.attacks += 1
    return attacker, rng.choice([n for n in names if n != attacker])


def _attack(spec: CommandSpec, scene: Scene, rng: random.Random) -> Request:
    attacker, target = _attacker_and_target(scene, rng)
    # The GM plays every attacker, out of turn: forced, as GAME.md §10 lets the GM.
    return Request("attack", spec, {"target": target, "attacker": attacker, "force": True})


def _attack_weapon(spec: CommandSpec, scene: Scene, rng: random.Random) -> Request:
    attacker, target = _attacker_and_target(scene, rng)
    values = {"target": target, "attacker": attacker, "force": True, "weapon": WEAPON.name}
    return Request("attack weapon", spec, values)


def _use_power(spec: CommandSpec, scene: Scene, rng: random.Random) -> Request:
    user, target = _attacker_and_target(scene, rng)
    values = {"power": POWER, "target": target, "combatant": user, "distance": 3, "force": True}
    return Request("use power", spec, values)


def _grit(spec: CommandSpec, scene: Scene, rng: random.Random) -> Request:
    return Request("grit damage", spec, {"combatant": rng.choice(scene.combatants), "amount": "1"})


def _next(spec: CommandSpec, scene: Scene, rng: random.Random) -> Request:
    return Request("init next", spec, {})


def _roll(spec: CommandSpec, scene: Scene, rng: random.Random) -> Request:
    return Request("roll", spec, {"expression": rng.choice(ROLLS)}, user=rng.choice(PLAYERS))


PLAYERS = ("alice", "bob")


@dataclass
class Catalogue:
    """Names to look up and prefixes to type, from the bot's own catalogue."""

    names: list[str] = field(default_factory=list)

    @classmethod
    def load(cls) -> Catalogue:
        from bot.catalogue import Lookup, load_catalogue

        return cls([entry.name for entry in Lookup(load_catalogue()).entries])

    def power(self, spec: CommandSpec, scene: Scene, rng: random.Random) -> Request:
        return Request("power", spec, {"name": rng.choice(self.names)}, user=rng.choice(PLAYERS))

    def typed(self, spec: CommandSpec, scene: Scene, rng: random.Random) -> Request:
        name = rng.choice(self.names)
        typed = name[: rng.randint(1, min(6, len(name)))].lower()
        return Request(
            "autocomplete power", spec, {"name": typed}, user=rng.choice(PLAYERS), focused="name"
        )


def _typed_combatant(spec: CommandSpec, scene: Scene, rng: random.Random) -> Request:
    return Request(
        "autocomplete combatant",
        spec,
        {"combatant": rng.choice(COMBATANT_TYPING)},
        focused="combatant",
    )


def kinds(catalogue: Catalogue) -> list[Kind]:
    """Return every kind the mix wants, with its share of interactions."""
    return [
        Kind("attack", "attack", 0.10, _attack, interactions=2),
        Kind("attack weapon", "attack", 0.05, _attack_weapon, interactions=2),
        Kind("use power", "use", 0.05, _use_power, interactions=2),
        Kind("grit damage", "grit damage", 0.15, _grit),
        Kind("init next", "init next", 0.10, _next, ephemeral_ok=True),
        Kind("power", "power", 0.10, catalogue.power),
        Kind("autocomplete power", "power", 0.15, catalogue.typed),
        Kind("autocomplete combatant", "grit damage", 0.10, _typed_combatant),
        Kind("roll", "roll", 0.20, _roll),
    ]


@dataclass
class Mix:
    """The kinds present in the bot, with their specs, and those left out."""

    present: list[tuple[Kind, CommandSpec]]
    missing: list[Kind]

    @classmethod
    def build(cls, schema: list[dict[str, Any]], catalogue: Catalogue) -> Mix:
        specs = {spec.name: spec for spec in command_specs(schema)}
        present, missing = [], []
        for kind in kinds(catalogue):
            spec = specs.get(kind.command)
            if spec is None:
                missing.append(kind)
            else:
                present.append((kind, spec))
        if not present:
            raise RuntimeError("the bot has none of the mix's commands")
        return cls(present, missing)

    def synced(self, server: LoopbackDiscord) -> Mix:
        """Return the mix with the commands as the bot synced them (with their ids)."""
        specs = {spec.name: spec for spec in command_specs(server.synced_commands())}
        missing = [kind.name for kind, _ in self.present if kind.command not in specs]
        if missing:
            raise RuntimeError(f"the bot did not sync the commands of: {', '.join(missing)}")
        return Mix([(kind, specs[kind.command]) for kind, _ in self.present], self.missing)

    def picker(self, rng: random.Random) -> Callable[[Scene], Request]:
        """Return a function choosing the next action's request for a table.

        An attack is chosen half as often as its share: its defense click is the other half.
        """
        kinds_ = [(kind, spec) for kind, spec in self.present]
        weights = [kind.share / kind.interactions for kind, _ in kinds_]

        def pick(scene: Scene) -> Request:
            kind, spec = rng.choices(kinds_, weights)[0]
            return kind.make(spec, scene, rng)

        return pick

    def kind(self, name: str) -> Kind:
        return next(k for k, _ in self.present if k.name == name)


def dispatch(server: LoopbackDiscord, request: Request, channel: Channel) -> InteractionRecord:
    """Send one request's INTERACTION_CREATE and return its record."""
    member = server.member(request.user)
    data = build_command_data(
        request.spec, request.values, guild=server.guild, invoker=member, focused=request.focused
    )
    return server.dispatch_interaction(
        member=member,
        channel=channel,
        type=AUTOCOMPLETE if request.focused else APPLICATION_COMMAND,
        data=data,
        label=request.kind,
    )


def defense_click(
    server: LoopbackDiscord, attack: InteractionRecord, *, bare: bool
) -> InteractionRecord | None:
    """Click the first strategy on an attack's prompt (the bare bot's reply gets a stand-in)."""
    message = server.messages.get(attack.original_message_id or 0)
    if message is None:
        return None
    button = next(
        (
            b
            for b in message.buttons
            if str(b.get("custom_id", "")).startswith("th:defend:")
            and not str(b["custom_id"]).endswith(":sacrifice")
        ),
        None,
    )
    if button is None and not bare:
        return None  # no choice to make: a critical, a Risk failure, a Broken defender, a refusal
    custom_id = button["custom_id"] if button else DEFENSE_CLICK
    return server.dispatch_interaction(
        member=attack.member,
        channel=attack.channel,
        type=3,
        data={"custom_id": custom_id, "component_type": BUTTON},
        label="defense click",
        message=message,
    )


def gave_up(server: LoopbackDiscord, record: InteractionRecord) -> bool:
    """Return whether the bot answered that the command waited too long and changed nothing."""
    messages = server.interaction_messages(record) if record.callbacks else []
    return bool(messages) and messages[0].ephemeral and messages[0].content == TABLE_BUSY


def problem(server: LoopbackDiscord, record: InteractionRecord, kind: Kind | None) -> str | None:
    """Return what is wrong with an interaction's answer, or None."""
    if not record.callbacks:
        return "no answer"
    messages = server.interaction_messages(record)
    if any(m.content == APOLOGY for m in messages):
        return "apology (an unexpected error in the bot)"
    first = messages[0] if messages else None
    if first is None or not first.ephemeral or kind is None or kind.ephemeral_ok:
        return None
    if first.embeds or first.components:
        return None
    expected = EXPECTED_REFUSALS.get(kind.name, ())
    if any(phrase in first.content for phrase in expected):
        return None
    return f"refused: {first.content[:100]}"
