"""What each command does and who may use it: for /help, the README and command mentions.

One source: the command tree's own descriptions (what Discord shows beside each command
and option) and `RIGHTS` below (who may use a command, in COMMANDS.md's words). /help,
the README's command table (`python -m bot.help` prints it; a test compares the two) and
the clickable mentions replies use (`</init next:ID>`) are all read from here.
"""

from __future__ import annotations

import asyncio
import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from discord import app_commands

from bot.errors import NotFound
from bot.i18n import N_, _, p_

GM = N_("GM")
ANYONE = N_("anyone")
THEIR_OWN = N_("GM for any; a player for their own")
ATTACKERS = N_("the attacker's player (GM for NPCs)")

# Who may use a command: its full name, else its group's entry [COMMANDS.md]. English
# message ids: /help shows them in the reader's language, the README in English.
RIGHTS: dict[str, str] = {
    "init": GM,
    "init start": N_("anyone (becomes GM)"),
    "init join": N_("player"),
    "init next": N_("GM, or the current actor's player"),
    "init list": ANYONE,
    "attack": ATTACKERS,
    "defend": N_("the defender's player (GM for NPCs)"),
    "roll": ANYONE,
    "check": ANYONE,
    "grit": THEIR_OWN,
    "grit show": ANYONE,
    **dict.fromkeys(
        ("haste", "wait", "act", "hold", "sacrifice", "declare", "undeclare"), THEIR_OWN
    ),
    "effect": THEIR_OWN,
    "effect list": ANYONE,
    "move": THEIR_OWN,
    "grapple": ATTACKERS,
    "use": N_("the user's player (GM for NPCs)"),
    **dict.fromkeys(
        ("protect", "support", "hide", "cover", "engage", "breakaway", "guard", "essence"),
        THEIR_OWN,
    ),
    "power": ANYONE,
    "special": ANYONE,
    "pp": ANYONE,
    "character": N_("you, for your own characters"),
    "npc": GM,
    "settings": N_("Manage Server"),
    "help": ANYONE,
}

EMBED_LIMIT = 4096  # characters of an embed's description
Mention = Callable[[str], str]


def who_may(name: str) -> str | None:
    """Return who may use a command (`init next`), from its own entry or its group's."""
    words = name.split()
    while words:
        found = RIGHTS.get(" ".join(words))
        if found is not None:
            return found
        words.pop()
    return None


@dataclass(frozen=True)
class OptionHelp:
    """One option of a command, as Discord shows it."""

    name: str
    description: str
    required: bool


@dataclass(frozen=True)
class CommandHelp:
    """One invocable command (`init next`): what it does, its options, who may use it."""

    name: str
    description: str
    options: tuple[OptionHelp, ...]
    who: str | None
    in_dms: bool  # offered in direct messages (and to a user who installed the app)

    @property
    def group(self) -> str:
        return self.name.split()[0]

    @property
    def arguments(self) -> str:
        """Return the options as `name [physical] [finesse]` (optional ones bracketed)."""
        return " ".join(o.name if o.required else f"[{o.name}]" for o in self.options)

    @property
    def usage(self) -> str:
        """Return `/init add name [physical] …`."""
        return " ".join(part for part in (f"/{self.name}", self.arguments) if part)


def commands_of(tree: app_commands.CommandTree) -> list[CommandHelp]:
    """Return every slash command of the tree (subcommands by full name), sorted by name."""
    found = []
    for command in tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        root = command.root_parent or command
        contexts = root.allowed_contexts
        options = tuple(
            OptionHelp(p.display_name, p.description, p.required) for p in command.parameters
        )
        found.append(
            CommandHelp(
                name=command.qualified_name,
                description=command.description,
                options=options,
                who=who_may(command.qualified_name),
                in_dms=contexts is None or contexts.dm_channel,
            )
        )
    return sorted(found, key=lambda c: c.name)


class CommandIds:
    """The ids Discord gave the bot's commands, per server (None: global), for mentions."""

    def __init__(self) -> None:
        self._ids: dict[tuple[int | None, str], int] = {}
        self._names: set[str] = set()  # every invocable name: `init next`, `roll`
        self._named: tuple[re.Pattern[str], re.Pattern[str]] | None = None

    @property
    def known(self) -> bool:
        return bool(self._ids)

    def learn(self, commands: Iterable[app_commands.AppCommand], guild_id: int | None) -> None:
        """Remember the ids of registered commands (from a sync or a fetch)."""
        for command in commands:
            self._ids[(guild_id, command.name)] = command.id
            self._names.update(_invocable(command.name, command.options))
        self._named = None

    def linked(self, text: str, guild_id: int | None = None) -> str:
        """Return text with each command it names (`/init next`, `` `/init join name:X` ``) clickable."""
        if not self._ids or "/" not in text:
            return text
        in_code, bare = self.patterns()

        def code(found: re.Match[str]) -> str:
            rest = found[2].strip()
            return self.mention(found[1], guild_id) + (f" `{rest}`" if rest else "")

        text = in_code.sub(code, text)
        return bare.sub(lambda found: self.mention(found[1], guild_id), text)

    def patterns(self) -> tuple[re.Pattern[str], re.Pattern[str]]:
        """Return the patterns `linked` finds command names by (compiled on first need)."""
        # The bot's warm-up compiles them in a thread once ready (5 ms for 99 names):
        # otherwise the first reply that names a command paid for it.
        if self._named is None:
            names = "|".join(re.escape(n) for n in sorted(self._names, key=len, reverse=True))
            self._named = (
                re.compile(rf"`/({names})((?: [^`\n]*)?)`"),  # a command in code, with options
                re.compile(rf"(?<![\w/<`:])/({names})(?![\w-])"),
            )
        return self._named

    def mention(self, name: str, guild_id: int | None = None) -> str:
        """Return a clickable `</init next:ID>`, or `/init next` as code when no id is known."""
        name = " ".join(name.strip().lstrip("/").split())
        root = name.split(" ", 1)[0]
        command_id = self._ids.get((guild_id, root)) or self._ids.get((None, root))
        return f"</{name}:{command_id}>" if command_id else f"`/{name}`"


def _invocable(name: str, options: Iterable[object]) -> Iterable[str]:
    """Yield a registered command's invocable names: itself, or its subcommands."""
    subs = [o for o in options if isinstance(o, app_commands.AppCommandGroup)]
    if not subs:
        yield name
    for sub in subs:
        yield from _invocable(f"{name} {sub.name}", sub.options)


def find(commands: list[CommandHelp], query: str) -> list[CommandHelp]:
    """Return the command named (`init next`), or a group's commands (`init`); else refuse."""
    wanted = " ".join(query.strip().lstrip("/").casefold().split())
    exact = [c for c in commands if c.name == wanted]
    if exact:
        return exact
    grouped = [c for c in commands if c.name.startswith(wanted + " ")]
    if grouped:
        return grouped
    names = sorted({c.name for c in commands} | {c.group for c in commands})
    close = difflib.get_close_matches(wanted, names, n=3, cutoff=0.5)
    if close:
        raise NotFound(
            "There is no command /{command}. Did you mean {commands}? /help lists them all.",
            command=wanted,
            commands=", ".join(f"/{n}" for n in close),
        )
    raise NotFound("There is no command /{command}. /help lists them all.", command=wanted)


# Rendering ------------------------------------------------------------------------------


def _does(command: CommandHelp) -> str:
    return p_("command description", command.description)


def _who(command: CommandHelp) -> str:
    return _(command.who) if command.who else ""


def _arguments(command: CommandHelp) -> str:
    """Return the options as the reader's Discord names them, optional ones bracketed."""
    names = [(p_("option name", o.name), o.required) for o in command.options]
    return " ".join(name if required else f"[{name}]" for name, required in names)


def overview(commands: list[CommandHelp], mention: Mention, *, in_dm: bool = False) -> str:
    """Return every command group on one line each, with mentions to click."""
    shown = [c for c in commands if c.in_dms] if in_dm else commands
    group, command = ("pp", "pp price") if in_dm else ("init", "init next")
    lines = [
        _(
            "`/help {group}` explains a group, `/help {command}` one command.",
            group=group,
            command=command,
        )
    ]
    groups: dict[str, list[CommandHelp]] = {}
    for command in shown:
        groups.setdefault(command.group, []).append(command)
    for group, members in groups.items():
        if len(members) == 1 and members[0].name == group:
            lines.append(f"{mention(group)} — {_does(members[0])}")
        else:
            subs = " ".join(mention(c.name) for c in members)
            lines.append(f"**/{group}** — {subs}")
    if in_dm:
        lines.append(_("The table's commands (/init, /attack, /grit …) work in a server channel."))
    return "\n".join(lines)


def group_page(commands: list[CommandHelp], mention: Mention) -> str:
    """Return a group's commands: mention, options, what each does and who may."""
    lines = []
    for command in commands:
        arguments = f" `{_arguments(command)}`" if command.arguments else ""
        who = f" · *{_who(command)}*" if command.who else ""
        lines.append(f"{mention(command.name)}{arguments} — {_does(command)}{who}")
    return "\n".join(lines)


def command_page(command: CommandHelp, mention: Mention) -> str:
    """Return one command in full: what it does, who may use it, each option."""
    arguments = f" `{_arguments(command)}`" if command.arguments else ""
    lines = [f"{mention(command.name)}{arguments}", _does(command)]
    if command.who:
        lines.append(_("**Who:** {who}", who=_who(command)))
    if command.in_dms:
        lines.append(_("**Where:** servers and direct messages"))
    else:
        lines.append(_("**Where:** server channels"))
    for option in command.options:
        name = p_("option name", option.name)
        does = p_("option description", option.description)
        if option.required:
            lines.append(f"• `{name}` — {does}")
        else:
            lines.append(_("• `{name}` (optional) — {does}", name=name, does=does))
    return "\n".join(lines)


def pages(text: str, limit: int = EMBED_LIMIT) -> list[str]:
    """Split text at line ends into pieces an embed's description holds."""
    out: list[str] = []
    for line in text.splitlines():
        if out and len(out[-1]) + 1 + len(line) <= limit:
            out[-1] += "\n" + line
        else:
            out.append(line[:limit])
    return out


def readme_table(commands: list[CommandHelp]) -> str:
    """Return the README's command table: every command, who may use it, what it does."""
    rows = ["| command | who | does |", "|---|---|---|"]
    for command in commands:
        cells = (f"`{command.usage}`", command.who or "", command.description)
        rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(rows)


async def offline_commands() -> list[CommandHelp]:
    """Load every cog into a bot that never connects, and return its commands."""
    from bot.app import Tablehand
    from bot.config import Settings
    from bot.store import MemoryStore

    bot = Tablehand(Settings(), store=MemoryStore())
    async with bot:
        for extension in bot.extension_names:
            await bot.load_extension(extension)
        await asyncio.sleep(0)  # background jobs the cogs scheduled start, to be cancelled
        return commands_of(bot.tree)


if __name__ == "__main__":
    print(readme_table(asyncio.run(offline_commands())))
