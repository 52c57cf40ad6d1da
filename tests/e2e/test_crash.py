"""Crash safety: the bot process is killed with SIGKILL and started again on the same database.

The loopback Discord stays in this process; the bot runs as `python -m bot run`. What a
user was told succeeded must be stored, nothing may be half-applied, the trackers must
be brought back to the stored state, and attacks waiting for a defense must still
resolve, by button or by their timer.
"""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.rules.models import Encounter, LogEntry
from bot.sandbox.client import InteractionResult, SandboxTable
from bot.sandbox.harness import BotProcess
from bot.sandbox.records import StoredMessage
from bot.sandbox.server import LoopbackDiscord
from tests.e2e.helpers import offers_defense, unmentioned
from tests.e2e.invariants import tracker_shows

pytestmark = pytest.mark.e2e

CHANNELS = ("table-1", "table-2", "table-3")


def read_encounters(db: Path, channels: dict[str, int]) -> dict[str, Encounter | None]:
    """Read each channel's stored encounter straight from the database file (read-only)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = dict(conn.execute("SELECT channel_id, data FROM encounters").fetchall())
    return {
        name: Encounter.model_validate_json(rows[cid]) if cid in rows else None
        for name, cid in channels.items()
    }


def read_log(db: Path, channel_id: int) -> list[str]:
    """Read a channel's whole action log, in the order it was written."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute(
            "SELECT text FROM encounter_log WHERE channel_id = ? ORDER BY id", (channel_id,)
        ).fetchall()
    return [as_read(LogEntry(round=0, text=row[0]).line) for row in rows]  # without its kind


def as_read(line: str) -> str:
    """Return a line as a reader sees it: commands by name (a reply makes them mentions)."""
    return unmentioned(line).replace("`", "")


def kill_on_answer(
    server: LoopbackDiscord, proc: BotProcess, reply: InteractionResult
) -> asyncio.Task[bool]:
    """SIGKILL the bot the moment Discord has the interaction's answer, before the bot hears back.

    The server re-checks its waiters inside its handling of each REST call, so the kill
    happens before the callback's HTTP response is even written: no timing luck involved.
    """

    def answered() -> bool:
        if not reply.record.callbacks:
            return False
        if proc.process.returncode is None:
            proc.process.kill()
        return True

    return asyncio.create_task(server.wait_until(answered, timeout=30))


async def test_a_prompt_the_defender_saw_survives_a_kill_at_that_moment(
    server: LoopbackDiscord, tmp_path: Path
) -> None:
    """The bot died just after showing a defense prompt, and the attack it showed was lost."""
    db = tmp_path / "crash.db"
    table = SandboxTable(server, timeout=10)
    gm, alice = table.user("gm"), table.user("alice")
    proc = await BotProcess.start(server, db_path=db)
    try:
        await gm.run("/init start mode:finesse")
        await gm.run("/init add name:Goblin")
        await alice.run("/init join character:Striker finesse:1")
        await gm.run("/init next")  # the Striker's turn
        # Every attack on a defender who may choose shows a prompt, whatever its dice: the
        # defender chooses blind [GAME.md §10].
        doomed = alice.send_command("/attack target:Goblin attacker:Striker")
        killed = kill_on_answer(server, proc, doomed)
        await doomed.responded()
        assert await killed
        assert await proc.process.wait() != 0
        assert any(b.get("label") == "Dodge" for b in doomed.buttons), doomed.text
        stored = read_encounters(db, {"t": table.channel().id})["t"]
        assert stored is not None
        pending = {p.id: p for p in stored.pending_attacks}
        assert str(doomed.record.id) in pending, "the prompt was shown but its attack was lost"
        striker = next(c for c in stored.combatants if c.name == "Striker")
        assert striker.actions_left == 1  # the action it spent is stored with it

        proc = await BotProcess.start(server, db_path=db)
        resolved = await doomed.click("Dodge", as_user="gm")
        assert not resolved.ephemeral and resolved.embed is not None
        assert resolved.embed["title"].startswith("Striker attacks Goblin")
        prompt = doomed.message
        assert prompt is not None
        await table.channel().wait_for(
            lambda ch: not offers_defense(prompt), what="the prompt closed"
        )
    finally:
        await proc.stop()


# The burst: hundreds of mixed commands, SIGKILL at seeded random points, then checks. ----

START_GRIT, MAX_GRIT = 500, 999  # far from both ends: every change is exactly its amount
FIGHTERS = {"Ogre": "gm", "Mira": "alice", "Brom": "bob"}  # name → who controls it
SETUP = [
    ("admin", "/settings defense_timeout seconds:5"),
    ("gm", "/init start mode:finesse"),
    ("gm", f"/init add name:Ogre physical:2 finesse:2 grit:{START_GRIT} max_grit:{MAX_GRIT}"),
    ("alice", f"/init join character:Mira physical:3 finesse:3 grit:{START_GRIT} max_grit:{MAX_GRIT}"),
    ("bob", f"/init join character:Brom finesse:1 grit:{START_GRIT} max_grit:{MAX_GRIT}"),
]  # fmt: skip
# An NPC's line shows its level, not its numbers (the log is the players'): its Grit is
# followed through the amounts alone, which are exact so far from both ends.
GRIT_LINE = re.compile(
    r"^(?P<name>.+?) (?:takes (?P<damage>\d+) damage|heals (?P<heal>\d+))"
    r"(?: \(Grit (?P<before>\d+) → (?P<after>\d+)\))?"
)
HIT_LINE = re.compile(r"^(?P<attacker>\S+) attacks (?P<defender>\S+) \(\w+\): .* for (?P<n>\d+)\.$")
ATTACK_LINE = re.compile(r"^\S+ attacks \S+ \(\w+\): ")
PING = re.compile(r" <@\d+>$")


@dataclass
class Sent:
    """One dispatched command and what it would do."""

    reply: InteractionResult
    kind: str  # add, grit, next, attack, defend
    channel: str
    names: tuple[str, ...] = ()  # add: the names it makes
    killed_in_flight: bool = False

    @property
    def answered(self) -> bool:
        return bool(self.reply.record.callbacks)

    @property
    def succeeded(self) -> bool:
        return self.answered and self.reply.message is not None and not self.reply.ephemeral


@dataclass
class Run:
    """A burst's commands, its kills, and what the checks found."""

    sent: list[Sent] = field(default_factory=list)
    kills: int = 0
    stale_trackers_at_kill: int = 0
    resolved_by_button: int = 0
    resolved_by_timer: int = 0


def command(rng: random.Random, k: int, adds: float) -> tuple[str, str, str, tuple[str, ...]]:
    """Return (who, kind, line, names added) for the k-th command of the seeded mix."""
    roll = rng.random()
    if roll < adds:
        count = rng.randint(1, 3)
        names = (f"Imp{k}",) if count == 1 else tuple(f"Imp{k} {i}" for i in range(1, count + 1))
        return "gm", "add", f"/init add name:Imp{k} count:{count}", names
    if roll < 0.60:
        target = rng.choice(list(FIGHTERS))
        who = rng.choice([FIGHTERS[target], "gm"])
        verb = "damage" if roll < 0.38 else "heal"
        return who, "grit", f"/grit {verb} combatant:{target} amount:{rng.randint(1, 3)}", ()
    if roll < 0.72:
        return "gm", "next", "/init next", ()
    if roll < 0.86:
        if rng.random() < 0.5:
            return "alice", "attack", "/attack target:Ogre attacker:Mira", ()
        return "gm", "attack", "/attack target:Brom attacker:Ogre force:true", ()
    if rng.random() < 0.5:
        return "gm", "defend", "/defend strategy:block combatant:Ogre", ()
    return "bob", "defend", "/defend strategy:dodge", ()


def expected_lines(sent: Sent) -> list[str]:
    """Return the log lines a succeeded command must have written."""
    reply = sent.reply
    if sent.kind == "add":
        return [f"{name} joins the fight." for name in sent.names]
    if sent.kind == "grit":
        return [reply.content]
    if sent.kind == "next":
        return [as_read(PING.sub("", line)) for line in reply.content.splitlines()]
    fields = {f["name"]: f["value"] for f in (reply.embed or {}).get("fields", [])}
    return [fields["Grit"]] if "Grit" in fields else []


async def settle_inflight(active: list[Sent], limit: int) -> None:
    """Wait until fewer than `limit` commands are in flight."""
    while len([s for s in active if not s.answered]) >= limit:
        waiting = [asyncio.shield(s.reply.record.responded) for s in active if not s.answered]
        await asyncio.wait(waiting, timeout=10, return_when=asyncio.FIRST_COMPLETED)  # type: ignore[arg-type]
        if all(not s.answered for s in active):
            raise AssertionError("a live bot left every command in flight unanswered")
    active[:] = [s for s in active if not s.answered]


async def kill(
    server: LoopbackDiscord,
    table: SandboxTable,
    proc: BotProcess,
    run: Run,
    db: Path,
    active: list[Sent],
) -> None:
    """SIGKILL the bot with commands in flight; note how many trackers it left behind."""
    await proc.kill()
    run.kills += 1
    for sent in active:
        sent.killed_in_flight = True
    active.clear()
    stored = read_encounters(db, {ch: table.channel(ch).id for ch in CHANNELS})
    for channel, encounter in stored.items():
        pinned = table.channel(channel).pinned_messages
        if encounter is not None and not (pinned and tracker_shows(pinned[0], encounter)):
            run.stale_trackers_at_kill += 1


async def burst(
    server: LoopbackDiscord,
    tmp_path: Path,
    *,
    seed: int,
    commands: int,
    kills: int,
    inflight: int = 6,
    args: tuple[str, ...] = ("-m", "bot", "run"),
) -> Run:
    """Drive the burst with `kills` seeded SIGKILLs in it and one at its end; check everything."""
    db = tmp_path / f"crash-{seed}.db"
    table = SandboxTable(server, timeout=10)
    rng = random.Random(seed)
    kill_after = sorted(rng.sample(range(commands // 10, commands - commands // 10), kills))
    run = Run()
    proc = await BotProcess.start(server, db_path=db, args=args)
    try:
        for channel in CHANNELS:
            for who, line in SETUP:
                ready = await table.user(who).run(line, channel=channel)
                assert not ready.ephemeral, ready.text
        active: list[Sent] = []
        volley_at = commands - 20
        adds = min(0.10, 60 / commands)  # about 40 Imps a channel: the cap of 100 stays far
        for k in range(commands):
            if k == volley_at:
                await volley(table, run, active)
            await settle_inflight(active, inflight)
            if kill_after and k >= kill_after[0]:
                kill_after.pop(0)
                await kill(server, table, proc, run, db, active)
                proc = await BotProcess.start(server, db_path=db, args=args)
            who, kind, line, names = command(rng, k, adds)
            channel = rng.choice(CHANNELS)
            sent = Sent(table.user(who).send_command(line, channel=channel), kind, channel, names)
            run.sent.append(sent)
            active.append(sent)
        await kill(server, table, proc, run, db, active)  # the last kill: mid-flight, at the end
        proc = await BotProcess.start(server, db_path=db, args=args)
        await check(server, table, db, run)
    finally:
        await proc.stop()
    log = proc.log_path.read_text(errors="replace")
    assert "Traceback" not in log and " ERROR " not in log, proc.log_tail(60)
    return run


async def volley(table: SandboxTable, run: Run, active: list[Sent]) -> None:
    """Just before the end, an archer in every channel attacks both players' combatants.

    So attacks are waiting for a defense when the last kill comes (and the random mix
    goes on around them): after the restart they must still resolve.
    """
    for channel in CHANNELS:
        for kind, line in (
            ("add", "/init add name:Archer physical:1"),
            ("attack", "/attack target:Mira attacker:Archer force:true"),  # the GM's, out of turn
            ("attack", "/attack target:Brom attacker:Archer force:true"),
        ):
            names = ("Archer",) if kind == "add" else ()
            sent = Sent(table.user("gm").send_command(line, channel=channel), kind, channel, names)
            run.sent.append(sent)
            await sent.reply.responded()


async def resolve_pending(table: SandboxTable, db: Path, run: Run) -> None:
    """Answer half the waiting attacks by their buttons; the rest must resolve by their timers."""
    channels = {ch: table.channel(ch).id for ch in CHANNELS}
    waiting = [
        (channel, pending)
        for channel, encounter in read_encounters(db, channels).items()
        if encounter is not None
        for pending in encounter.pending_attacks
    ]
    for channel, pending in waiting[::2]:
        prompt = _prompt_of(table, channel, pending.id)
        # Stored, but the bot died before showing it (its command was in flight): the timer.
        # Or closed already: an overdue attack resolves at start-up.
        if prompt is None or not offers_defense(prompt):
            continue
        encounter = read_encounters(db, channels)[channel]
        assert encounter is not None
        defender = next(c for c in encounter.combatants if c.id == pending.defender_id)
        clicked = await table.user(FIGHTERS[defender.name]).click(prompt, 1)
        if clicked.ephemeral:  # its timer came first (overdue attacks resolve at start-up)
            assert clicked.content == "That attack has already been resolved.", clicked.text
        else:
            run.resolved_by_button += 1
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20
    while any(e and e.pending_attacks for e in read_encounters(db, channels).values()):
        assert loop.time() < deadline, "attacks waiting for a defense never resolved"
        await asyncio.sleep(0.2)  # another process's database: nothing to wait on but time
    run.resolved_by_timer = len(waiting) - run.resolved_by_button


def _prompt_of(table: SandboxTable, channel: str, attack_id: str) -> StoredMessage | None:
    """Return the prompt message whose buttons answer this attack, if it was shown."""
    for message in table.channel(channel).messages:
        if any(attack_id in str(b.get("custom_id")) for b in message.buttons):
            return message
    return None


async def check(server: LoopbackDiscord, table: SandboxTable, db: Path, run: Run) -> None:
    """Every acknowledged command is stored, none half-applied; trackers and defenses recover."""
    # A live bot answered everything it got; only commands in flight at a kill may be lost.
    for sent in run.sent:
        if not sent.killed_in_flight:
            await sent.reply.responded(timeout=10)
        elif sent.answered:
            sent.killed_in_flight = False  # answered just before the kill: it counts
    await resolve_pending(table, db, run)
    channels = {ch: table.channel(ch).id for ch in CHANNELS}
    stored = read_encounters(db, channels)
    for channel, channel_id in channels.items():
        encounter = stored[channel]
        assert encounter is not None
        log = read_log(db, channel_id)
        mine = [s for s in run.sent if s.channel == channel]
        # Every acknowledged command's lines are in the log (a multiset: lines repeat).
        wanted = Counter(line for s in mine if s.succeeded for line in expected_lines(s))
        missing = wanted - Counter(log)
        assert not missing, f"#{channel}: acknowledged but not stored: {list(missing)[:5]}"
        # /init add made all of its combatants or none.
        names = {c.name for c in encounter.combatants}
        for sent in (s for s in mine if s.kind == "add"):
            made = len(names & set(sent.names))
            assert made in (0, len(sent.names)), f"#{channel}: half of {sent.names} stored"
            assert made or not sent.succeeded, f"#{channel}: acknowledged {sent.names} lost"
        # Grit and its log move together: each change starts where the last one ended, and
        # the stored Grit is where the last one ended.
        for name in FIGHTERS:
            grit = START_GRIT
            for line in log:
                found = GRIT_LINE.match(line)
                if found is None or found["name"] != name:
                    continue
                amount = int(found["damage"] or found["heal"])
                after = grit - amount if found["damage"] else grit + amount
                if found["before"] is not None:
                    assert int(found["before"]) == grit, f"#{channel}: {name}'s log jumps: {line}"
                    assert int(found["after"]) == after, line
                grit = after
            fighter = next(c for c in encounter.combatants if c.name == name)
            assert fighter.grit == grit, f"#{channel}: {name} has {fighter.grit}, log says {grit}"
        # An attack that hit changed Grit and logged both, or neither.
        for i, line in enumerate(log):
            hit = HIT_LINE.match(line)
            if hit:
                follows = GRIT_LINE.match(log[i + 1]) if i + 1 < len(log) else None
                assert follows and follows["name"] == hit["defender"], (channel, line)
                assert int(follows["damage"]) == int(hit["n"]), (channel, line)
        # Every attack made resolved exactly once (waiting ones by button or timer).
        attacks = [s for s in mine if s.kind == "attack" and s.answered and not s.reply.ephemeral]
        unsure = [s for s in mine if s.kind == "attack" and s.killed_in_flight]
        resolved = sum(1 for line in log if ATTACK_LINE.match(line))
        assert len(attacks) <= resolved <= len(attacks) + len(unsure), (channel, resolved)
        assert encounter.pending_attacks == []
    # The trackers come back to the stored state, each the one pinned message of its channel.
    for channel in CHANNELS:
        encounter = read_encounters(db, channels)[channel]
        assert encounter is not None
        await table.channel(channel).wait_for(
            lambda ch, e=encounter: (
                len(ch.pinned_messages) == 1
                and ch.pinned_messages[0].id == e.tracker_message_id
                and tracker_shows(ch.pinned_messages[0], e)
            ),
            timeout=15,
            what=f"#{channel}'s tracker reconciled to the stored encounter",
        )
    # Refusals along the way were one private line each.
    for sent in run.sent:
        if sent.answered and sent.reply.ephemeral:
            assert "\n" not in sent.reply.content and "Traceback" not in sent.reply.content


def report(run: Run, seed: int) -> str:
    answered = sum(s.answered for s in run.sent)
    return (
        f"crash seed {seed}: {len(run.sent)} commands ({sum(s.succeeded for s in run.sent)} "
        f"succeeded, {answered - sum(s.succeeded for s in run.sent)} refused, "
        f"{sum(s.killed_in_flight for s in run.sent)} in flight at a kill), {run.kills} kills "
        f"survived, {run.stale_trackers_at_kill} trackers stale at a kill, waiting attacks "
        f"resolved: {run.resolved_by_button} by button, {run.resolved_by_timer} by timer"
    )


async def test_a_burst_killed_at_random_points_loses_nothing_it_acknowledged(
    server: LoopbackDiscord, tmp_path: Path
) -> None:
    """A command acknowledged before a SIGKILL was lost or half-applied, a tracker stayed stale
    after the restart, or an attack waiting for a defense never resolved."""
    run = await burst(server, tmp_path, seed=12, commands=500, kills=1)
    print(report(run, 12))
    assert run.kills == 2


@pytest.mark.soak
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_long_burst_survives_many_kills(
    server: LoopbackDiscord, tmp_path: Path, seed: int
) -> None:
    """A long burst with many SIGKILLs lost or half-applied an acknowledged command."""
    run = await burst(server, tmp_path, seed=seed, commands=3000, kills=12)
    print(report(run, seed))
    assert run.kills == 13
