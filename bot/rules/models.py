"""The game's state as pydantic models: combatants, characters, encounters.

These are the shapes the store persists (as JSON) and the rules change. They
know nothing of Discord or SQLite; Discord users appear only as integer ids.
"""

# Annotations are evaluated as each class is made, not postponed: pydantic compiled and
# evaluated every field's annotation string instead (tests/unit/bot/test_startup.py).

from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

Side = Literal["party", "foes"]
InitiativeMode = Literal["fortune", "finesse", "sides", "once"]
Flow = Literal["compact", "full"]
Phase = Literal[
    "start",
    "question",
    "declaration",
    "initiative",
    "reaction",
    "resolution",
    "counter",
    "cleanup",
    "summary",
]
AttackStyle = Literal["melee", "targeted", "ranged", "thrown", "unarmed"]
DefenseStrategy = Literal["block", "dodge", "break_away", "take_cover"]
# "auto" = block against melee, dodge against ranged [GAME.md §1, bot]
DefaultDefense = Literal["auto", "block", "dodge", "break_away", "take_cover"]
SacrificeFor = Literal["attack", "defense", "check"]
LongActionKind = Literal["focused", "cumulative"]
# What a combatant declares for a round [GAME.md §5 Round flow, 000].
DeclarationKind = Literal["primary", "sub", "movement", "fast", "long", "minor"]
ItemKind = Literal["weapon", "armor", "shield"]
RangeKind = Literal["short", "long", "bow"]
# The consumables [002] that stay active on their user; a bomb is thrown, not worn.
EssenceKind = Literal["elixir", "tonic", "salve", "balm"]
GrappleRole = Literal["grappler", "held"]
# The five power types [001 §2] and the Temporal Segments of a limited use [001].
PowerKind = Literal["active", "active_buff", "reaction", "passive", "movement"]
UseLimit = Literal["turn", "round", "combat", "day"]

DEFAULT_MAX_GRIT = 30  # [GAME.md §1, bot]
MAX_ITEM_NAME = 40  # of a weapon, armor, shield or essence [bot]
MAX_ITEMS = 10  # weapons, armor and shields on one sheet or template [bot]
ACTIONS_PER_ROUND = 2  # [GAME.md §5, 003]
MAX_POWERS = 20  # on one sheet [bot]
MAX_POWER_NAME = 60  # as /pp design [bot]


class Model(BaseModel):
    """Base for state models: validate on assignment so a bad write fails where it happens."""

    model_config = ConfigDict(validate_assignment=True, extra="forbid", defer_build=True)

    def model_post_init(self, context: Any, /) -> None:
        """Forget which fields the input named: nothing reads it, and it was most of the memory."""
        # pydantic keeps a set of the field names the input gave, per instance; a stored
        # encounter names every field, so 10 combatants carried 53 of their 86 KiB in these
        # sets. Dumps never exclude unset fields here, and assignment still adds to it.
        self.__pydantic_fields_set__.clear()  # clear() also frees the set's table


class ActiveSpecial(Model):
    """A Special carried by a combatant: Ruin(3), Stunned, Challenge(2) from Mira."""

    name: str
    x: int | None = None  # None for binary Specials (Stunned, Prone, Immovable)
    source: str | None = None  # who applied it; Challenge compares sources


class LongAction(Model):
    """An action that takes several rounds [GAME.md §5 Long actions, 000]."""

    name: str
    kind: LongActionKind
    rounds: int = Field(ge=1)  # the count needed to complete
    progress: int = Field(default=0, ge=0)
    attacked_this_round: bool = False


class PowerSpecial(Model):
    """A Special a power applies on a hit: Ruin(2)."""

    name: str
    x: int | None = None


class KnownPower(Model):
    """A power on a sheet [GAME.md §9]: what it is, what it cost, and the numbers it plays with."""

    name: str = Field(min_length=1, max_length=MAX_POWER_NAME)
    kind: PowerKind
    level: int = Field(ge=1, le=16)
    entry: str | None = None  # the catalogue entry ("active_buff:damage"); None: a custom build
    components: str = ""  # a custom build's components, as /pp price reads them
    pp: float | None = Field(default=None, ge=0)  # None: Movement has no PP curve [001]
    target_pp: float | None = None  # its type's curve at its level (Movement has none)
    over_curve: bool = False  # over its curve, allowed by the GM [001 §10.3]
    spell: bool = False  # Hex adds to its hits, Sundered to the others' [001]
    limit: UseLimit | None = None  # once per Turn / Round / Combat / Day [001]
    effect: str = ""  # what its level gives, in the catalogue's or the build's words
    damage: str | None = None  # dice: an Active's damage; a Buff's or Passive's extra on hits
    range_m: int | None = None  # an Active's range; None: melee
    radius_m: int | None = None  # an Active's area: each target resolved on its own [001]
    specials: list[PowerSpecial] = Field(default_factory=list)  # applied on a hit
    heal_per_turn: int | None = None  # a Buff's or Passive's healing at its turn start
    initiative: int | None = None  # a Passive's initiative bonus [001 Initiative Passive]
    movement_m: int | None = None  # a Movement power's distance at its level
    trigger: str | None = None  # a Reaction's chosen trigger ("attack": being attacked)


class MaintainedBuff(Model):
    """The one Active Buff a combatant maintains [001 §2]: until which round it lasts."""

    name: str
    until_round: int  # it ends at its user's turn start in this round
    damage: str | None = None  # extra dice on the user's own attacks while it lasts
    heal_per_turn: int | None = None
    effect: str = ""


class Weapon(Model):
    """A weapon as a loadout carries it [GAME.md §9]: the attack options it stands for."""

    kind: Literal["weapon"] = "weapon"
    name: str = Field(min_length=1, max_length=MAX_ITEM_NAME)
    damage: str | None = None  # a dice expression: "1d10+2"
    style: AttackStyle = "melee"
    base_risk: int = Field(default=1, ge=1, le=20)  # a Great Axe has 3 [002]
    penetration: int | None = Field(default=None, ge=0)
    weight: float | None = Field(default=None, gt=0)  # a thrown weapon's [000]
    range_kind: RangeKind | None = None
    reach: int = Field(default=1, ge=0, le=10)  # longer reach wins Reach Advantage [000]
    braced: bool = False  # can be set against a charge: a spear, a pike [003]


class Armor(Model):
    """Worn armor [002 "absorbs damage, lowers critical hit chance"]."""

    kind: Literal["armor"] = "armor"
    name: str = Field(min_length=1, max_length=MAX_ITEM_NAME)
    absorb: int = Field(default=0, ge=0, le=100)  # taken off each hit's damage [bot]
    crit_guard: int = Field(default=0, ge=0, le=10)  # narrows the attacker's crit range [bot]


class Shield(Model):
    """A held shield [002 "block reactions and guard actions"; 000 durability]."""

    kind: Literal["shield"] = "shield"
    name: str = Field(min_length=1, max_length=MAX_ITEM_NAME)
    block: int = Field(default=0, ge=0, le=100)  # added to every Block [bot]
    guard: int = Field(default=0, ge=0, le=100)  # added to every defense while guarding [bot]
    durability: int | None = Field(default=None, ge=0, le=999)  # against penetration [000]


Item = Annotated[Weapon | Armor | Shield, Field(discriminator="kind")]


class ActiveEssence(Model):
    """The one essence active on a combatant [002 "Only one active essence at a time"]."""

    name: str = Field(min_length=1, max_length=MAX_ITEM_NAME)
    kind: EssenceKind
    rounds_left: int | None = Field(default=None, ge=1)  # None: until ended
    attacks_left: int | None = Field(default=None, ge=1)  # a balm lasts some attacks [002]


class GrappleHold(Model):
    """One side of a grapple [000 Grappling]: who holds whom, and an item if that is held."""

    partner_id: int
    role: GrappleRole
    item: str | None = None  # grappling an item: it cannot be used while held [000]


class Declaration(Model):
    """What a combatant declared it will do this round: "Attack the goblin" (primary)."""

    text: str = Field(min_length=1, max_length=100)
    kind: DeclarationKind = "primary"


# What a sheet may hold [bot]: the one source of these bounds. The model enforces them and
# every command option for a sheet field is built from them (`bot.options`).
SHEET_BOUNDS: dict[str, tuple[int, int]] = {
    "physical": (-50, 100),
    "finesse": (-50, 100),
    "grit": (0, 999),
    "max_grit": (1, 999),
    "risk": (-20, 20),
    "crit_range": (1, 10),
    "perception_m": (0, 1000),
    "initiative_bonus": (-50, 50),
    "durability": (0, 999),
    "stamina": (0, 999),
    "mastery_rank": (1, 10),
}
MAX_TAGS = 10
MAX_NAME_LENGTH = 32  # of a combatant, a character or a tag [bot]


def _bounded(name: str, default: int | None) -> Any:
    low, high = SHEET_BOUNDS[name]
    return Field(default=default, ge=low, le=high)


class Stats(Model):
    """What a character and a combatant share: the sheet [GAME.md §1]."""

    physical: int = _bounded("physical", 0)
    finesse: int = _bounded("finesse", 0)
    grit: int = _bounded("grit", DEFAULT_MAX_GRIT)
    max_grit: int = _bounded("max_grit", DEFAULT_MAX_GRIT)
    risk: int = _bounded("risk", 0)  # standing Risk modifier added to every action's Risk [002]
    crit_range: int = _bounded("crit_range", 1)  # 1 = only the die's top face [bot]
    perception_m: int | None = _bounded(
        "perception_m", None
    )  # from the Grit table unless set [002]
    initiative_bonus: int = _bounded("initiative_bonus", 0)
    default_defense: DefaultDefense = "auto"
    durability: int | None = _bounded("durability", None)  # of a held shield or item [000]
    stamina: int | None = _bounded("stamina", None)  # spent by ranged dodge where tracked [000]
    mastery_rank: int = _bounded("mastery_rank", 1)
    tags: list[str] = Field(default_factory=list, max_length=MAX_TAGS)  # Fiend, Undead, Stealth…


class Sheet(Stats):
    """What is kept between fights: the stats, a name, a loadout and powers [GAME.md §1, §9]."""

    name: str
    items: list[Item] = Field(default_factory=list, max_length=MAX_ITEMS)
    powers: list[KnownPower] = Field(default_factory=list, max_length=MAX_POWERS)  # [§9]


class Character(Sheet):
    """A player's character on one server, reused across fights."""

    id: int | None = None  # assigned by the store
    guild_id: int
    owner_id: int
    injuries: int = 0


class NpcTemplate(Sheet):
    """A server's NPC template: `/init add name:Goblin` brings its stats, loadout and powers."""

    id: int | None = None  # assigned by the store
    guild_id: int


class Combatant(Stats):
    """A character or an NPC inside one channel's encounter."""

    # Built as the module is imported, not when first used as the other models are: the
    # first read of a stored encounter then reuses it inside Encounter's validator, where
    # it was built twice (inside Encounter's, and again for each combatant's own text).
    model_config = ConfigDict(defer_build=False)

    id: int  # unique within the encounter; stable across restarts (button custom_ids)
    name: str  # unique in the encounter, case-insensitive
    controller_id: int | None = None  # None: the GM controls it
    is_npc: bool = True
    side: Side = "foes"
    hidden: bool = False  # an NPC not shown to players until revealed [bot]
    character_id: int | None = None  # the Character this combatant plays, if any

    die_shift: int = Field(default=0, ge=0)  # /grit modifier: situational levels down
    specials: list[ActiveSpecial] = Field(default_factory=list)
    prone: bool = False
    long_action: LongAction | None = None
    stress: int = 0  # recorded by Blight [001]
    injuries: int = 0  # recorded on reaching 0 Grit [002]
    leg_injury: bool = False  # an injury to the legs: no jumping at all [000]

    # The fight's situation, set by the GM (/init edit) or by the combatant's own moves.
    fixed_object: bool = False  # a door, a wall: defense 3 + range, never takes a turn [003]
    reach: int = Field(default=1, ge=0, le=10)  # its melee weapon's reach [000]
    directions_blocked: int = Field(default=0, ge=0, le=6)  # for Break Away and dodging [000]
    stealth: bool = False  # hidden status: +4 to its actions until it attacks or is spotted
    full_cover: bool = False  # took Full Cover: cover 4 against ranged until it attacks [002]
    engaged_with: list[int] = Field(default_factory=list)  # sharing a space, locked [000]
    grapple: GrappleHold | None = None  # grappling or held: Break Away is its only action
    items: list[Item] = Field(default_factory=list)  # what it carries into this fight [§9]
    essence: ActiveEssence | None = None
    guarding: bool = False  # raised its shield: +guard to every defense until its turn
    powers: list[KnownPower] = Field(default_factory=list, max_length=MAX_POWERS)  # [§9]
    power_uses: dict[str, int] = Field(default_factory=dict)  # a limited power's last use
    buff: MaintainedBuff | None = None  # the one maintained Active Buff [001 §2]
    reacted_round: int | None = None  # a power Reaction was used in this round [001]

    # State of the current round.
    initiative: int | None = None
    actions_left: int = ACTIONS_PER_ROUND
    hasted: bool = False
    waiting: bool = False
    holding: bool = False  # carries the Hold bonus into the next round
    acted_out_of_turn: bool = False  # a waiting combatant that used /act: its own place passes
    declaration: Declaration | None = None  # this round's /declare [GAME.md §5]
    minor_acts: int = 0  # minor acts declared before its turn: −2 initiative each
    sacrifices: dict[SacrificeFor, int] = Field(default_factory=dict)  # +3 per sacrificed action
    moved_m: int = 0  # voluntary movement this turn, for Slow and Lacerate
    move_actions: int = 0  # actions spent on moving this round: Mobility each [003]
    charged_spaces: int = 0  # charged this round: enemy melee hits take its momentum [003]
    free_tries: dict[str, int] = Field(default_factory=dict)  # a free try's round: close_in…
    acted_this_round: bool = False
    turn_started_round: int | None = None  # turn-start effects ran in this round already
    turn_ended_round: int | None = None  # turn-end effects ran in this round already


# What a line of the fight's log is about: round summaries group by it, and leave out the
# details (joins, initiative rolls, turn starts, phases), which the log file keeps [bot].
LogKind = Literal["detail", "attack", "grit", "effect", "turn", "declare", "event"]
_KIND_MARK = "\x1f"  # between a line's kind and its text: names never hold control characters


def log_text(kind: LogKind, line: str) -> str:
    """Return a log line as stored: its kind in front of its text (`attack\x1fMira hits …`)."""
    return line if kind == "event" else f"{kind}{_KIND_MARK}{line}"


class LogEntry(Model):
    """One line of the encounter's action log; round summaries and the log file are built from these.

    Every store keeps a line as one text (`log_text`); one stored without a kind is an event.
    """

    round: int
    text: str

    @property
    def kind(self) -> LogKind:
        """Return what the line is about."""
        kind, mark, _line = self.text.partition(_KIND_MARK)
        return kind if mark and kind in get_args(LogKind) else "event"  # type: ignore[return-value]

    @property
    def line(self) -> str:
        """Return the line as it reads."""
        kind, mark, line = self.text.partition(_KIND_MARK)
        return line if mark and kind in get_args(LogKind) else self.text


class PendingAttack(Model):
    """An attack waiting for its defender's strategy; saved with the encounter [GAME.md §4].

    `spec` and `roll` hold an `AttackSpec` and an `AttackRoll` as JSON (`bot.rules.attacks`
    imports this module, so it cannot be imported back); `bot.rules.attack_flow` reads them.
    """

    id: str  # in the defense buttons' custom_id: unique across encounters and restarts
    attacker_id: int
    defender_id: int
    spec: dict[str, Any]
    roll: dict[str, Any]
    spell: bool = False  # Hex adds to Spell hits, Sundered to the others [001]
    created_at: float  # Unix time
    due_at: float  # Unix time the defender's default strategy is used
    prompt_message_id: int | None = None
    sacrifice_offered: bool = False  # the defender may give up an action for +3 [003]
    sacrificed: bool = False
    protectors: list[int] = Field(default_factory=list)  # take the attack in its place [000]
    supporters: list[int] = Field(default_factory=list)  # roll to enhance the attack [002]
    forced: bool = False  # made out of turn because the GM said so [GAME.md §10]
    power: str | None = None  # the power it plays [GAME.md §9]
    # The power's Specials, applied to whoever takes a hit: each {"special": the catalogue's
    # definition as JSON, "x": X, "source": the user} (as `spec`, so rules need no book).
    on_hit: list[dict[str, Any]] = Field(default_factory=list)
    reactions: list[str] = Field(default_factory=list)  # power Reactions used on it, as said


class CounterOffer(Model):
    """A natural 1's counter-attack, open to the defender until the round ends [000, bot]."""

    id: str  # the fumbled attack's id
    counterer_id: int  # the defender of the fumbled attack
    target_id: int  # the fumbling attacker
    round: int
    style: AttackStyle  # melee, or ranged at the fumbled attack's distance [bot]
    distance: int = 0


class RoundSnapshot(Model):
    """A round as its last turn left it, so `/init prev` can step back into it [bot]."""

    round: int
    order: list[int]
    turn: int | None  # the last turn taken (an index into order)
    combatants: dict[int, dict[str, Any]]  # each one's state of the round, by combatant id


class Encounter(Model):
    """One channel's fight: its combatants, the round, whose turn it is."""

    channel_id: int
    guild_id: int | None = None
    gm_id: int  # who ran /init start
    opened_id: int = 0  # the id of the /init start that opened it: tells encounters apart
    mode: InitiativeMode = "fortune"
    flow: Flow = "compact"
    ambush: Side | None = None  # the side that ambushes in round zero
    ambush_roll: bool = False  # ambushers roll against the targets' Perception [002]
    round: int = 1  # 0 while an ambush's round zero runs
    phase: Phase = "declaration"
    combatants: list[Combatant] = Field(default_factory=list)
    order: list[int] = Field(default_factory=list)  # combatant ids in this round's turn order
    turn: int | None = None  # index into order of the current actor; None before the first turn
    acting_now: int | None = None  # a waiting combatant acting inside the current turn (/act)
    # The current turn's owner left or chose to wait during an /act: no turn to go back to,
    # so the act's end starts the next one [GAME.md §5, bot].
    turn_passed: bool = False
    next_combatant_id: int = 1
    tracker_message_id: int | None = None
    pending_attacks: list[PendingAttack] = Field(default_factory=list)  # awaiting a defense
    counter_offers: list[CounterOffer] = Field(default_factory=list)  # natural 1s, this round
    previous_round: RoundSnapshot | None = None  # the last round's end, for /init prev
    cleaned_round: int | None = None  # the round whose Cleanup ran (never twice)
