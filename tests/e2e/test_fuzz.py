"""Bad input, fuzzed: every slash command's options from the synced schema, with Hypothesis.

Values come from each option's type, choices and limits, and beyond them: numbers at,
past and far past the limits, empty, blank, 2,000-character and unicode strings,
`@everyone`, role and user mentions, markdown, dice bombs (`1000000d1000000`),
selector-heavy dice (`1000d1000k>0k>0…`) and `((((…` nesting, and the names in play (so
commands get past "not found"). What Discord's own client refuses (`UsageError`: types,
choices, min/max, lengths; integers beyond ±2^53) never reaches the bot and is counted
apart. For the rest:

- the bot answers every interaction, never with the apology for a bug, and logs
  nothing unhandled;
- an ephemeral reply without embeds is one clear line;
- no message the bot sends shows a traceback or an exception's internals;
- no message the bot sends allows @everyone, roles or parsed user mentions, or pings
  anyone but the players and GMs of a fight; `owner` (never in one) is never pinged;
- every stored encounter still loads, and its tracker shows it once the edits settle.

A loop-lag monitor runs on the bot's loop; the run reports its worst stall, and the most
CPU the loop spent in one (timings move with the machine, so nothing asserts them: the
dice's work bound is asserted, counted, in the unit tests). The dice-bomb test throws
each of `tests/e2e/bombs.py` at /roll, /grit damage and /attack (damage, then the
defender's click; bonus) and reports the worst stall any of them caused.

The bot and the loopback Discord run in their own event loop on a thread, so
Hypothesis drives plain examples and the whole run can be checked at its end.
`TABLEHAND_FUZZ_EXAMPLES` sets the budget (the soak test runs a bigger, random one).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import threading
from collections import Counter
from collections.abc import Coroutine, Iterator
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import Tablehand, cog_extensions
from bot.replies import APOLOGY
from bot.sandbox.client import SandboxTable, UsageError
from bot.sandbox.commandline import (
    ATTACHMENT,
    BOOLEAN,
    CHANNEL,
    INTEGER,
    NUMBER,
    ROLE,
    STRING,
    USER,
    CommandSpec,
)
from bot.sandbox.harness import running_bot
from bot.sandbox.lag import LoopLag, Stall
from bot.sandbox.server import LoopbackDiscord
from tests.e2e.bombs import (
    BONUS_BOMBS,
    DICE_BOMBS,
    FIGHT,
    SELECTOR_BOMBS,
    bomb_cases,
)
from tests.e2e.conftest import tablehand_bot
from tests.e2e.invariants import (
    INTERNALS,
    mention_problems,
    message_text,
    payload_problems,
    pinned_tracker,
    refused_calls,
    stored,
    tracker_shows,
    unhandled,
)

pytestmark = pytest.mark.e2e

T = TypeVar("T")

EXAMPLES = int(os.environ.get("TABLEHAND_FUZZ_EXAMPLES", "600"))
MAX_INTEGER = 2**53 - 1  # Discord's client sends no integer beyond this
MAX_STRING = 6000  # nor a longer string option
CHANNELS = ("table-1", "table-2", "table-1-side")
CALLERS = ("gm", "alice", "bob", "admin")
PLAYERS = ("gm", "alice", "bob")  # who a user option names (owner never plays)

CROWDED = 60

IN_PLAY = [
    "Mira", "Brom", "Goblin 1", "goblin 2", "Lurker", "Vex", "Ruin", "Stunned", "Prone",
    "Root", "Lacerate", "Challenge", "Telepathy", "Teleport", "Active", "Movement", "core",
    "damage:2d8 range:16 radius:3 ruin:2", "charged", "block", "2d6", "1d20+3",
]  # fmt: skip
HOSTILE = [
    "", " ", "   ", "\t", "\n", "a\nb", "@everyone", "@here", "@everyone @here",
    "**bold** __under__ *it* ~~s~~", "`code`", "```py\nprint(1)\n```", "||spoiler||",
    "> quote", "# Heading", "[link](http://127.0.0.1/)", "<t:0:R>", "<:emoji:1>",
    "\\", '"', "'", "<", ">", "&amp;", "%s %d {0} {}", "${x}", "../../etc/passwd",
    "Ünïcødé", "🐉" * 20, "\u202eevil", "\u200b", "e\u0301\u0301\u0301", "ｆｕｌｌ",
    "\x00", "\x07", "A" * 2000, "x" * 6000, "🐉" * 1000,
]  # fmt: skip


@dataclass
class Tally:
    """What the run did, for the issue's report."""

    examples: int = 0
    refused_by_client: int = 0
    answered: int = 0
    autocompleted: int = 0
    clicked: int = 0
    nothing_to_press: int = 0
    commands: Counter[str] = field(default_factory=Counter)
    worst_stall: Stall = field(default_factory=Stall)  # the loop held by one case, at worst
    worst_stall_by: str = ""
    worst_busy: Stall = field(default_factory=Stall)  # the loop's own CPU in one stall
    worst_busy_by: str = ""

    def stalled(self, stall: Stall, by: str) -> None:
        if stall.late > self.worst_stall.late:
            self.worst_stall, self.worst_stall_by = stall, by
        if stall.busy > self.worst_busy.busy:
            self.worst_busy, self.worst_busy_by = stall, by

    def stall_line(self) -> str:
        return (
            f"worst event-loop stall {self.worst_stall.late * 1000:.1f} ms "
            f"({self.worst_stall_by[:100]}); most of the loop's own CPU in one stall "
            f"{self.worst_busy.busy * 1000:.1f} ms ({self.worst_busy_by[:100]})"
        )

    def line(self) -> str:
        return (
            f"fuzz: {self.examples} cases — {self.refused_by_client} refused by Discord's "
            f"client, {self.answered} commands, {self.autocompleted} autocompletes and "
            f"{self.clicked} clicks answered by the bot ({len(self.commands)} commands; "
            f"{self.nothing_to_press} clicks found no button); {self.stall_line()}"
        )


class World:
    """The loopback Discord and the real bot (every cog, no probe) on their own loop."""

    fight = FIGHT  # the fight `ensure_fight` starts (the big-fight fuzz starts bigger ones)
    crowded = CROWDED

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.stack = AsyncExitStack()
        self.table: SandboxTable
        self.lag: LoopLag

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _start(self) -> None:
        server = await self.stack.enter_async_context(LoopbackDiscord())
        bot = tablehand_bot(server, self.tmp_path, seed=99)
        bot._extensions = cog_extensions()  # type: ignore[attr-defined] # the real cogs only
        await self.stack.enter_async_context(running_bot(server, bot))
        bot.trackers.interval = 0  # type: ignore[attr-defined]
        self.table = SandboxTable(server, timeout=10)
        self.table.bot = bot  # type: ignore[attr-defined]
        # The loopback Discord shares the loop, so its own work counts in the stalls too.
        self.lag = await self.stack.enter_async_context(LoopLag())

    def stall_of(self, coro: Coroutine[Any, Any, T]) -> tuple[T, Stall]:
        """Run `coro` on the loop; return its result and the loop's worst stall meanwhile."""
        self.run(self.lag.take())
        result = self.run(coro)
        return result, self.run(self.lag.take())

    def __enter__(self) -> World:
        self.thread.start()
        self.run(self._start())
        # As `python -m bot` does (freeze_heap): full collections skip what start-up made,
        # here the test process's too, so the stalls measured are more nearly the bot's.
        gc.collect()
        gc.freeze()
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.run(self.stack.aclose())
            self.run(_cancel_leftovers())  # or they are destroyed pending, logging errors later
        finally:
            gc.unfreeze()
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()

    @property
    def bot(self) -> Tablehand:
        return self.table.bot  # type: ignore[attr-defined, no-any-return]


async def _cancel_leftovers() -> None:
    """Cancel what the bot left running on the loop (views' timeouts) and let it finish."""
    tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    with World(tmp_path) as w:
        yield w


# Strategies ----------------------------------------------------------------------------


def _clean(text: str) -> bool:
    return INTERNALS.search(text) is None  # so internals found in a reply are the bot's own


def dice() -> st.SearchStrategy[str]:
    counts = st.sampled_from([0, 1, 2, 6, 20, 100, 1000, 1001, 10**6, 10**12])
    part = st.builds(lambda n, s: f"{n}d{s}", counts, counts)
    joined = st.lists(part | st.integers(-(10**6), 10**6).map(str), min_size=1, max_size=6)
    ops = st.sampled_from(["+", "-", "*", "/", " + ", "kh1+", "!+"])
    nested = st.integers(1, 120).map(lambda k: "(" * k + "1d6" + ")" * k)
    return st.one_of(
        st.sampled_from(DICE_BOMBS),
        st.sampled_from(SELECTOR_BOMBS),
        st.sampled_from(BONUS_BOMBS),
        nested,
        st.builds(lambda ps, op: op.join(ps), joined, ops),
        selector_chains(),
    )


def selector_chains() -> st.SearchStrategy[str]:
    """Big pools under many keep/drop/reroll/explode conditions, cut to 200 characters."""
    pools = st.sampled_from(["1000d1000", "999d2", "500d6", "1d1", "(1000d6,1)", "(500d6,9)kh1"])
    condition = st.builds(
        "{}{}{}".format,
        st.sampled_from(["k", "p", "rr", "ro", "ra", "e", "mi", "ma"]),
        st.sampled_from(["", "h", "l", "<", ">"]),
        st.sampled_from([0, 1, 2, 6, 999, 1000]),
    )
    return st.builds(lambda pool, ops: (pool + "".join(ops))[:200], pools, st.lists(condition))


def text_values() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(IN_PLAY),
        st.sampled_from(HOSTILE),
        dice(),
        st.text(max_size=40).filter(_clean),
        st.text(min_size=1900, max_size=2100, alphabet="ab🐉 @<>#*_`\n").filter(_clean),
        st.builds(lambda a, b: f"{a} {b}", st.sampled_from(IN_PLAY), st.sampled_from(HOSTILE)),
    )


def integer_values(option: dict[str, Any]) -> st.SearchStrategy[int]:
    low, high = option.get("min_value"), option.get("max_value")
    edges = [0, -1, 1, 2, MAX_INTEGER, -MAX_INTEGER, MAX_INTEGER + 1, 2**63, -(2**63), 10**18]
    edges += [low, low - 1] if low is not None else []
    edges += [high, high + 1] if high is not None else []
    inside = st.integers(
        int(low) if low is not None else -MAX_INTEGER,
        int(high) if high is not None else MAX_INTEGER,
    )
    # Mostly values the client sends, so the bot sees them; the rest test the client's limits.
    return st.one_of(
        inside, inside, inside, st.sampled_from([int(e) for e in edges]), st.integers()
    )


# Files a user may upload: a valid sheet, nearly valid ones, too big, not JSON at all.
FILES = [
    b'{"format": "tablehand-sheet", "version": 1, "sheet": {"name": "Vex"}}',
    b'{"format": "tablehand-sheet", "version": 1, "sheet": {"name": "@everyone"}}',
    b'{"format": "tablehand-sheet", "version": 2, "sheet": {"name": "Vex"}}',
    b'{"format": "tablehand-sheet", "version": 1, "sheet": {"name": "Vex", "items": [1]}}',
    b'{"format": "tablehand-sheet", "version": 1, "sheet": {"name": "' + b"x" * 40 + b'"}}',
    b" " * (70 * 1024),
    b"\xff\xfe\x00",
]


def number_values(option: dict[str, Any]) -> st.SearchStrategy[float]:
    low, high = option.get("min_value"), option.get("max_value")
    edges = [0.0, -1.0, 1e300, -1e300, 0.1, 1000.0, 0.0999, 1000.0001]
    inside = st.floats(low, high, allow_nan=False, allow_infinity=False)
    return st.one_of(
        inside,
        inside,
        inside,
        st.sampled_from(edges),
        st.floats(allow_nan=False, allow_infinity=False),
    )


def option_value(world: World, option: dict[str, Any]) -> st.SearchStrategy[Any]:
    kind = option["type"]
    if option.get("choices"):
        chosen = st.sampled_from([c["value"] for c in option["choices"]])
        return st.one_of(chosen, chosen, chosen, chosen, text_values())  # off-list: refused
    if kind == STRING:
        high = option.get("max_length")
        if high is None:
            return text_values()
        fitted = text_values().map(lambda text: text[:high])  # mostly what the client sends
        return st.one_of(fitted, fitted, text_values())
    if kind == INTEGER:
        return integer_values(option)
    if kind == NUMBER:
        return number_values(option)
    if kind == BOOLEAN:
        return st.booleans()
    guild = world.table.server.guild
    if kind == USER:
        return st.sampled_from([world.table.server.member(n) for n in PLAYERS])
    if kind == ROLE:
        return st.sampled_from(list(guild.roles.values()))
    if kind == CHANNEL:
        return st.sampled_from([world.table.server.channel(c) for c in CHANNELS])
    if kind == ATTACHMENT:
        contents = st.one_of(st.sampled_from(FILES), st.binary(max_size=300))
        return contents.map(lambda content: world.table.server.host_file("sheet.json", content))
    raise AssertionError(f"an option type the fuzz does not know: {kind}")


@st.composite
def invocations(draw: st.DrawFn, world: World, specs: list[CommandSpec]) -> dict[str, Any]:
    """Draw one user action: a command with options, typing into an autocomplete, or a click."""
    spec = draw(st.sampled_from(specs))
    values: dict[str, Any] = {}
    for option in spec.options:
        if option.get("required") or draw(st.sampled_from([True, False, False])):
            values[option["name"]] = draw(option_value(world, option))
    complete = [o["name"] for o in spec.options if o.get("autocomplete")]
    typing = complete and draw(st.booleans()) and draw(st.booleans())
    focused = draw(st.sampled_from(complete)) if typing else None
    return {
        "spec": spec,
        "values": values,
        "focused": focused,
        "user": draw(st.sampled_from(CALLERS)),
        "channel": draw(st.sampled_from(["table-1", "table-1", "table-1", *CHANNELS])),
        # Now and then a button instead: which one of those the user can see, by number.
        "click": draw(st.integers(0, 10**6)) if draw(st.integers(0, 7)) == 7 else None,
    }


def refused_by_client(spec: CommandSpec, values: dict[str, Any]) -> dict[str, Any] | None:
    """Apply what Discord's client checks and the sandbox does not; None if it is refused.

    Integers beyond ±(2^53 − 1) and strings over 6,000 characters cannot be sent; an empty
    string option is not sent at all (so an empty required one cannot be).
    """
    sent = {}
    for name, value in values.items():
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INTEGER:
            return None
        if isinstance(value, str) and len(value) > MAX_STRING:
            return None
        if value == "":
            if spec.option(name).get("required"):
                return None
            continue
        sent[name] = value
    return sent


# One example, in the bot's loop ----------------------------------------------------------


async def ensure_fight(world: World) -> None:
    """Start #table-1's fight again when it is gone or crowded (so most commands reach it)."""
    table = world.table
    encounter = await stored(world.bot.store, table.channel("table-1").id)
    if encounter is not None and len(encounter.combatants) < world.crowded:
        return
    if encounter is not None:
        end = await table.user("gm").run("/init end", channel="table-1")
        await end.click("Confirm")
    for who, line in world.fight:
        await table.user(who).run(line, channel="table-1")


async def attempt(world: World, action: dict[str, Any], tally: Tally) -> list[str]:
    """Run one action; return what broke a promise (empty if nothing did)."""
    table = world.table
    await ensure_fight(world)
    spec: CommandSpec = action["spec"]
    user = table.user(action["user"])
    if action["click"] is not None:
        return await click(world, action, tally)
    sent = refused_by_client(spec, action["values"])
    label = f"/{spec.name} {action['values']!r} by {action['user']} in #{action['channel']}"
    if sent is None:
        tally.refused_by_client += 1
        return []
    if action["focused"] is not None:
        typed = sent.pop(action["focused"], "")
        try:
            choices = await user.autocomplete(
                spec.name, action["focused"], typed, channel=action["channel"], options=sent
            )
        except UsageError:
            tally.refused_by_client += 1
            return []
        tally.autocompleted += 1
        # The server refuses (400) more than 25 choices or bad names; a bot error is logged.
        return [] if len(choices) <= 25 else [f"{label}: {len(choices)} autocomplete choices"]
    try:
        reply = await user.command(spec.name, channel=action["channel"], options=sent)
    except UsageError:
        tally.refused_by_client += 1
        return []
    tally.answered += 1
    tally.commands[spec.name] += 1
    problems = []
    typed = sorted((v for v in sent.values() if isinstance(v, str)), key=len, reverse=True)
    for message in reply.messages:
        text = message_text(message)
        for value in typed:  # what the user typed may say anything; the bot's words may not
            text = text.replace(value, "")
        found = INTERNALS.search(text)
        if found:
            problems.append(f"{label}: internals {found.group(0)!r} in {message.content[:200]!r}")
    if reply.content == APOLOGY:
        problems.append(f"{label}: answered with the apology for a bug")
    if reply.ephemeral and not reply.embeds and not reply.components:
        if not reply.content.strip() or (
            # Lists are read line by line: a loadout's items are one a line, as Specials are.
            "\n" in reply.content
            and not spec.name.startswith(("settings", "effect list", "character weapon list"))
        ):
            problems.append(f"{label}: an unclear private reply {reply.content[:200]!r}")
    return problems


async def click(world: World, action: dict[str, Any], tally: Tally) -> list[str]:
    """Press a button the user can see in the channel (tracker, prompt, confirm, pager…)."""
    table = world.table
    user = table.user(action["user"])
    pressable = [
        (message, n)
        for message in table.channel(action["channel"]).visible_to(user)
        for n, button in enumerate(message.buttons, start=1)
        if not button.get("disabled") and button.get("style") != 5
    ]
    if not pressable:
        tally.nothing_to_press += 1
        return []
    message, n = pressable[action["click"] % len(pressable)]
    label = f"button {message.buttons[n - 1].get('label')!r} by {action['user']}"
    reply = await user.click(message, n)
    tally.clicked += 1
    problems = [
        f"{label}: answered with the apology" for m in reply.messages if m.content == APOLOGY
    ]
    for shown in reply.messages:
        found = INTERNALS.search(message_text(shown))
        if found:
            problems.append(f"{label}: internals {found.group(0)!r}")
    return problems


async def whole_run_problems(world: World, may_ping: set[int]) -> list[str]:
    """Check every message of the run, and every channel's encounter and tracker."""
    table = world.table
    await world.bot.trackers.settled()
    problems = mention_problems(table.server.messages.values(), may_ping, table.server.bot_user.id)
    problems += payload_problems(table.server.calls, may_ping)
    for channel in CHANNELS:
        encounter = await stored(world.bot.store, table.channel(channel).id)  # loads, or raises
        if encounter is not None and not tracker_shows(pinned_tracker(table, channel), encounter):
            problems.append(f"#{channel}: the tracker does not show the stored encounter")
    return problems


async def fight_people(world: World) -> set[int]:
    """Return the GMs and players of every stored fight: the only people a ping may be for."""
    people = set()
    for channel in CHANNELS:
        encounter = await stored(world.bot.store, world.table.channel(channel).id)
        if encounter is not None:
            people.add(encounter.gm_id)
            people |= {c.controller_id for c in encounter.combatants if c.controller_id}
    return people


# The test ------------------------------------------------------------------------------


def fuzz(
    world: World, examples: int, *, derandomize: bool, caplog: pytest.LogCaptureFixture
) -> Tally:
    """Run `examples` fuzzed actions against the world and check every promise; return counts."""
    specs = world.table.commands
    assert {s.name for s in specs} >= {"init add", "attack", "grit damage", "roll", "pp price"}
    tally = Tally()
    may_ping: set[int] = set()

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=derandomize,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(action=invocations(world, specs))
    def one(action: dict[str, Any]) -> None:
        tally.examples += 1
        seen = len(caplog.records)
        problems, stalled = world.stall_of(attempt(world, action, tally))
        tally.stalled(stalled, f"/{action['spec'].name} {action['values']!r}")
        may_ping.update(world.run(fight_people(world)))
        problems += unhandled(caplog.records[seen:])
        assert problems == [], problems

    one()
    problems = world.run(whole_run_problems(world, may_ping))
    owner = world.table.server.member("owner").id
    assert owner not in may_ping
    assert problems == [], problems
    assert tally.answered > examples // 3, tally.line()  # most cases reach the bot
    return tally


def test_every_command_survives_hostile_options(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Fuzzed options got a traceback, the apology, a silent failure or a ping to a user;
    or they logged an unhandled error, damaged an encounter or left a tracker behind."""
    caplog.set_level(logging.WARNING)
    tally = fuzz(world, EXAMPLES, derandomize=True, caplog=caplog)
    print(tally.line())


@pytest.mark.soak
def test_every_command_survives_a_long_random_fuzz(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A long, random (not derandomized) fuzz run found a broken promise."""
    caplog.set_level(logging.WARNING)
    tally = fuzz(world, 10 * EXAMPLES, derandomize=False, caplog=caplog)
    print(tally.line())


# Every dice bomb where dice are rolled ------------------------------------------------------


async def bomb(world: World, who: str, command: str, options: dict[str, str]) -> list[str]:
    """Throw one bomb; an attack gets a fresh fight first and its defender's click after."""
    table, label = world.table, f"/{command} {options!r}"
    if command == "attack":
        await fresh_fight(world)
    spec = next(s for s in table.commands if s.name == command)
    action = {"spec": spec, "values": options, "focused": None, "user": who}
    problems = await attempt(world, action | {"channel": "table-1", "click": None}, Tally())
    prompt = newest_prompt(world)
    if command == "attack" and prompt is not None:  # the damage is rolled on the click
        reply = await table.user("gm").click(prompt, 1)
        if reply.content == APOLOGY:
            problems.append(f"{label}: the defender's click was answered with the apology")
        problems += [f"{label}: internals in {m.content[:200]!r}" for m in reply.messages
                     if INTERNALS.search(message_text(m))]  # fmt: skip
    return problems


async def fresh_fight(world: World) -> None:
    """End #table-1's fight, if any, and start the fuzz's fight again: everyone can act."""
    gm = world.table.user("gm")
    if await stored(world.bot.store, world.table.channel("table-1").id) is not None:
        await (await gm.run("/init end", channel="table-1")).click("Confirm")
    await ensure_fight(world)


def newest_prompt(world: World) -> Any:
    """Return #table-1's newest message if it is a defense prompt with live buttons."""
    messages = world.table.channel("table-1").public_messages
    last = messages[-1] if messages else None
    buttons = [b.get("label") for b in last.buttons] if last is not None else []
    return last if "Block" in buttons or "Dodge" in buttons else None


def test_every_dice_bomb_is_answered_where_dice_are_rolled(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A dice bomb at /roll, /grit damage or /attack (damage on the click, bonus) was rolled
    into an apology, a traceback, an unclear reply or an unhandled error."""
    caplog.set_level(logging.WARNING)
    world.bot.trackers.interval = 0  # type: ignore[attr-defined]
    tally = Tally()
    problems: list[str] = []
    for who, command, options in bomb_cases():
        seen = len(caplog.records)
        found, stalled = world.stall_of(bomb(world, who, command, options))
        problems += found + unhandled(caplog.records[seen:])
        tally.examples += 1
        tally.stalled(stalled, f"/{command} {options!r}")
    assert problems == [], problems
    print(f"dice bombs: {tally.examples} cases; {tally.stall_line()}")


# Big fights ----------------------------------------------------------------------------
# The same fuzz from fortune fights of 44 combatants with long names, and of 100: whatever
# it does, every message must fit Discord's limits. The loopback Discord refuses one that
# does not (400), which ends its command in the apology `attempt` reports; and no request
# at all may have been refused.

LONG_NAME = "Xyloquendar the Unforgiving"  # with " 40": 30 of the 32 characters allowed
BIG_EXAMPLES = max(EXAMPLES // 3, 20)


def big_fight(size: int) -> list[tuple[str, str]]:
    """Return a fortune fight of `size`: Mira, Brom and two Goblins (the names in play) and
    long-named foes; its first /init next rolls initiative for all of them."""
    return [
        ("gm", "/init start mode:fortune"),
        ("gm", "/init add name:Goblin physical:2 finesse:2 count:2"),
        ("gm", f'/init add name:"{LONG_NAME}" finesse:1 initiative_bonus:2 count:{size - 4}'),
        ("alice", "/init join character:Mira physical:4 finesse:3"),
        ("bob", "/init join character:Brom finesse:1"),
        ("gm", "/init next"),
    ]


@pytest.mark.parametrize("size", [44, 100])
def test_big_fights_survive_hostile_options(
    world: World, caplog: pytest.LogCaptureFixture, size: int
) -> None:
    """Fuzzing a fight of 44 long-named combatants, or of 100, built a message Discord
    refused, or broke any promise of the fuzz above."""
    caplog.set_level(logging.WARNING)
    world.fight, world.crowded = big_fight(size), size + 16
    tally = fuzz(world, BIG_EXAMPLES, derandomize=True, caplog=caplog)
    assert refused_calls(world.table.server.calls) == []
    print(f"big fight of {size}: {tally.line()}")
