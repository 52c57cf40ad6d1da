"""`tablehand sandbox`: the loopback Discord, the bot, and a table in your terminal.

Type slash commands as you would in Discord (`/init start mode:fortune`), become
someone else (`:as alice`), click buttons by number (`:click 2`) and read what the
bot posted, with the pinned tracker on top. `:help` lists everything. In a terminal the
line is edited with prompt_toolkit (history, Tab completion of commands, options and
names); from a pipe or file it is read plainly. The channels' messages are kept beside
the database (`bot.sandbox.persist`), so they and their buttons survive a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import signal
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bot.sandbox.client import InteractionResult, SandboxTable, SandboxUser
from bot.sandbox.commandline import (
    Completing,
    UsageError,
    complete_command,
    parse_line,
    quoted,
    tokenize,
)
from bot.sandbox.harness import SANDBOX_TOKEN, running_bot
from bot.sandbox.persist import load_world, save_world, world_file
from bot.sandbox.records import StoredMessage
from bot.sandbox.server import LoopbackDiscord, SandboxError, SandboxTimeout

if TYPE_CHECKING:
    import discord

    from bot.config import Settings

DEFAULT_DB = Path("tablehand-sandbox.db")

HELP = """\
Type a slash command as in Discord; options are name:value, quote spaces: name:"Cave Troll".
  /COMMAND [name:value ...]  run a command as you, in this channel
  :as NAME              become someone else ({people})
  :channel NAME         move to another channel ({channels}); :channel dm for your
                        direct messages with the bot (/roll, /power, /help work there)
  :click N | LABEL      click button N of the newest message with buttons, or the button
                        with that label on the newest message that has one (:click Next)
  :select N VALUE[,VALUE]  choose in menu N of the newest message with a menu
  :complete /COMMAND OPTION TEXT  see what the bot suggests while you type an option
  :form name:value ...  fill in and send the form (modal) the bot just opened
  :pins                 show the pinned messages of this channel
  :file [N]             show the newest file a message here carries (N: the Nth newest)
  :log [N]              show the last N messages you can see here (default 10)
  :say TEXT             post a plain chat message
  :unpin                unpin the newest pinned message, as you (the bot should cope)
  :help [COMMAND]       this help, or the options of one command (:help init add)
  :quit                 stop the bot and leave (Ctrl-D works too)
  (an empty line shows anything new since the last look)"""


class LineReader:
    """Read stdin lines without blocking the event loop, so the bot keeps running meanwhile.

    Uses the loop's reader on the stdin descriptor (no thread to leave behind); where the
    loop cannot watch stdin (Windows, a regular file) a daemon thread reads instead.
    """

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self._stdin, self._stdout = stdin, stdout
        self._loop = asyncio.get_running_loop()
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._buffer = bytearray()
        self._fd: int | None = None
        self._requests: queue.Queue[bool] | None = None
        try:
            fd = stdin.fileno()
            self._loop.add_reader(fd, self._readable)
            self._fd = fd
        except (AttributeError, OSError, ValueError, NotImplementedError, PermissionError):
            self._requests = queue.Queue()
            threading.Thread(target=self._thread, name="sandbox-stdin", daemon=True).start()

    def _readable(self) -> None:
        assert self._fd is not None
        try:
            data = os.read(self._fd, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._loop.remove_reader(self._fd)
            if self._buffer:
                self._lines.put_nowait(self._buffer.decode(errors="replace"))
            self._lines.put_nowait(None)
            return
        self._buffer += data
        while b"\n" in self._buffer:
            line, _, rest = bytes(self._buffer).partition(b"\n")
            self._buffer = bytearray(rest)
            self._lines.put_nowait(line.decode(errors="replace").rstrip("\r"))

    def _thread(self) -> None:
        assert self._requests is not None
        while self._requests.get():
            try:
                line = self._stdin.readline()
            except (OSError, ValueError):
                line = ""
            self._loop.call_soon_threadsafe(
                self._lines.put_nowait, line.rstrip("\n") if line else None
            )
            if not line:
                return

    async def readline(self, prompt: str) -> str | None:
        """Print the prompt and return the next line, or None at end of input (Ctrl-D)."""
        self._stdout.write(prompt)
        self._stdout.flush()
        if self._requests is not None:
            self._requests.put(True)
        return await self._lines.get()

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(Exception):
                self._loop.remove_reader(self._fd)
        if self._requests is not None:
            self._requests.put(False)


CONTROLS = (
    ":as", ":channel", ":click", ":select", ":complete", ":form", ":pins", ":log", ":say",
    ":unpin", ":help", ":quit",
)  # fmt: skip


class PromptReader:
    """Read lines in a terminal with prompt_toolkit: editing, history, Tab completion."""

    def __init__(self, terminal: TerminalTable, history: Path | None) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, InMemoryHistory

        self._session: Any = PromptSession(
            history=FileHistory(str(history)) if history else InMemoryHistory(),
            completer=_completer(terminal),
            complete_while_typing=False,
        )

    async def readline(self, prompt: str) -> str | None:
        """Return the next line, or None when the user is done (Ctrl-D, Ctrl-C)."""
        try:
            return await self._session.prompt_async(prompt)
        except (EOFError, KeyboardInterrupt):
            return None

    def close(self) -> None:
        """Nothing to release: prompt_toolkit restores the terminal after each line."""


def _completer(terminal: TerminalTable) -> Any:
    """Return a prompt_toolkit completer that asks the terminal (and the bot) what fits."""
    from prompt_toolkit.completion import Completer, Completion

    class TerminalCompleter(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Any:
            found = terminal.completing(document.text_before_cursor)
            for candidate in found.candidates:
                yield Completion(candidate, start_position=-len(found.word))

        async def get_completions_async(self, document: Any, complete_event: Any) -> Any:
            found = terminal.completing(document.text_before_cursor)
            candidates = [(c, c) for c in found.candidates]
            if found.ask is not None:
                candidates = await terminal.suggested(found)
            for candidate, shown in candidates:
                yield Completion(candidate, start_position=-len(found.word), display=shown)

    return TerminalCompleter()


class TerminalTable:
    """The REPL: who you are, where you are, and what the bot shows you."""

    def __init__(
        self,
        server: LoopbackDiscord,
        *,
        out: TextIO,
        user: str = "gm",
        channel: str = "table-1",
        timeout: float = 10.0,
        paths: dict[str, Path] | None = None,
    ) -> None:
        self.server = server
        self.table = SandboxTable(server, channel=channel, timeout=timeout)
        self.out = out
        self.me: SandboxUser = self.table.user(user)
        self.channel = server.channel(channel)
        self.paths = paths or {}
        self.seen: dict[int, int] = {}  # message id -> edits seen, for "what is new"
        self.last_result: InteractionResult | None = None
        self.notes: list[str] = []  # shown under the banner (line editing, restored messages)
        # The bot's "pending tracker edits are done" (Tablehand coalesces them to 1 a second):
        # what prints after a command is the tracker as it now stands, not one step behind.
        self.trackers_settled: Callable[[int], Awaitable[None]] | None = None
        self._mark_seen()

    # output

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    @property
    def prompt(self) -> str:
        where = "dm" if self.channel.is_dm else self.channel.name
        return f"{self.me.name}@{where}> "

    @property
    def offered(self) -> list[Any]:
        """Return the commands Discord would offer you here."""
        return self.table.commands_in(self.channel, self.me.member)

    def completing(self, text: str) -> Completing:
        """Return what Tab would complete in the line typed so far."""
        if text.startswith("/"):
            return complete_command(text, self.offered, self.server.guild)
        word, space, rest = text.partition(" ")
        if not space:
            return Completing(text, [f"{c} " for c in CONTROLS if c.startswith(text.lower())])
        choices = {
            ":as": [m.name for m in self.server.guild.people()],
            ":channel": ["dm", *(c.split(" ")[0] for c in self._channel_names())],
            ":help": [s.name for s in self.offered],
        }.get(word.lower(), [])
        return Completing(rest, [c for c in choices if c.startswith(rest.lower())])

    async def suggested(self, found: Completing) -> list[tuple[str, str]]:
        """Ask the bot what an autocomplete option suggests (as Discord's client does)."""
        assert found.ask is not None
        spec, option, typed, others = found.ask
        try:
            choices = await self.me.autocomplete(
                spec.name, option["name"], typed, channel=self.channel, options=others
            )
        except (UsageError, SandboxError, SandboxTimeout):
            return []
        key = found.word.partition(":")[0]
        return [(f"{key}:{quoted(str(c['value']))}", str(c["name"])) for c in choices]

    def render(self, msg: StoredMessage) -> str:
        return self.table.render(msg)

    def banner(self) -> None:
        people = ", ".join(m.name for m in self.server.guild.people())
        channels = ", ".join(self._channel_names())
        example = self._example()
        self.say(
            "Tablehand sandbox: a pretend Discord server on this computer, with the bot in it."
        )
        self.say(f"  People you can be: {people}.  Channels: {channels}.")
        self.say(f"  Run a command by typing it, e.g.  {example}")
        self.say(
            '  Options are name:value; quote spaces: name:"Cave Troll".  :help lists everything.'
        )
        self.say("  :as alice switches who you are; :click 1 clicks a button; :quit leaves.")
        if self.paths:
            self.say("  " + "   ".join(f"{k}: {v}" for k, v in self.paths.items()))
        for note in self.notes:
            self.say(f"  {note}")
        self.say(f"You are {self.me.name} in #{self.channel.name}.")

    def _example(self) -> str:
        names = [s.name for s in self.table.commands]
        for wanted in ("init start", "roll", "probe ping"):
            if wanted in names:
                return "/init start mode:fortune" if wanted == "init start" else f"/{wanted}"
        return f"/{names[0]}" if names else "(the bot registered no commands)"

    def _channel_names(self) -> list[str]:
        out = []
        for c in self.server.guild.channels.values():
            if c.type == 4:
                continue
            out.append(f"{c.name} (thread)" if c.is_thread else c.name)
        return out

    # what changed

    def _visible(self) -> list[StoredMessage]:
        return [m for m in self.server.channel_log(self.channel) if m.visible_to_user(self.me.id)]

    def _mark_seen(self) -> None:
        for msg in self.server.messages.values():
            self.seen[msg.id] = len(msg.edits)

    def show_changes(self, *, always_pins: bool = True, quiet: bool = False) -> None:
        """Print the pinned messages, then what is new or edited since the last look."""
        pinned = [m for m in self.server.pinned(self.channel) if m.visible_to_user(self.me.id)]
        pinned_ids = {p.id for p in pinned}
        fresh = [
            m for m in self._visible() if m.id not in self.seen or len(m.edits) > self.seen[m.id]
        ]
        changed_pins = any(m.id in pinned_ids for m in fresh)
        shown_pins = pinned[:3] if pinned and (always_pins or changed_pins) else []
        rest = [m for m in fresh if m.id not in pinned_ids]
        # When several shown messages have buttons, say which ones `:click N` presses.
        target = self._newest_with(lambda m: bool(m.buttons))
        with_buttons = [m for m in [*shown_pins, *rest] if m.buttons]
        hint = (
            target
            if target is not None and len(with_buttons) > 1 and target in with_buttons
            else None
        )
        if shown_pins:
            self.say(f"== pinned in #{self.channel.name} ==")
            for msg in shown_pins:
                self._show(msg, hint)
        if rest:
            self.say("== new ==")
            for msg in rest:
                self._show(msg, hint)
        elif not (pinned and changed_pins) and not quiet:
            self.say("(nothing new)")
        self._mark_seen()

    def _show(self, msg: StoredMessage, hint: StoredMessage | None) -> None:
        self.say(self.render(msg))
        if msg is hint:
            self.say("  ^ :click N presses these buttons (others: :click LABEL)")

    # actions

    async def settle(self, result: InteractionResult) -> None:
        """Wait for a deferred reply to be filled in and for the bot to go quiet."""
        if result.deferred:
            with contextlib.suppress(SandboxTimeout):
                await result.final(timeout=self.table.timeout)
        await self.server.wait_idle(quiet=0.2, timeout=3.0)
        if self.trackers_settled is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.trackers_settled(self.channel.id), timeout=3.0)
        if result.record.modal is not None:
            modal = result.record.modal
            fields = [
                c.get("custom_id")
                for row in modal.get("components") or []
                for c in row.get("components") or [row.get("component") or {}]
                if c.get("custom_id")
            ]
            self.say(
                f"The bot opened a form: {modal.get('title')}. Fill it in with :form "
                + " ".join(f"{f}:..." for f in fields)
            )
        if result.type == 8:
            self.say("Suggestions: " + (", ".join(c["name"] for c in result.choices) or "(none)"))

    async def run_command(self, line: str) -> None:
        try:
            result = await self.me.run(line, channel=self.channel)
        except UsageError as error:
            self.say(f"! {error}")
            return
        except SandboxTimeout:
            self.say("! the bot did not answer in time (see the bot log)")
            self.show_changes()
            return
        self.last_result = result
        await self.settle(result)
        self.show_changes()

    def _newest_with(self, has: Callable[[StoredMessage], bool]) -> StoredMessage | None:
        for msg in reversed(self._visible()):
            if has(msg):
                return msg
        return None

    async def click(self, which: str) -> None:
        which = which.strip()
        if not which:
            self.say("! say which button: :click 1 or :click Next")
            return
        if which.isdigit():
            msg = self._newest_with(
                lambda m: any(not b.get("disabled") for b in m.buttons) or bool(m.buttons)
            )
        else:
            msg = self._newest_with(lambda m: _has_button(m, which))
        if msg is None:
            self.say(f"! no message here has a button {which!r}")
            return
        try:
            result = await self.me.click(msg, which)
        except (SandboxError, LookupError) as error:
            self.say(f"! {error}")
            return
        except SandboxTimeout:
            self.say("! the bot did not answer the click in time (see the bot log)")
            return
        await self.settle(result)
        self.show_changes()

    async def select(self, args: str) -> None:
        parts = args.split(maxsplit=1)
        if len(parts) != 2 or not parts[0].isdigit():
            self.say("! usage: :select N value[,value]")
            return
        msg = self._newest_with(lambda m: bool(m.selects))
        if msg is None:
            self.say("! no message here has a menu")
            return
        values = [v.strip() for v in parts[1].split(",") if v.strip()]
        try:
            result = await self.me.select(msg, values, menu=int(parts[0]))
        except (SandboxError, SandboxTimeout) as error:
            self.say(f"! {error}")
            return
        await self.settle(result)
        self.show_changes()

    async def complete(self, args: str) -> None:
        words = tokenize(args)
        if len(words) < 2:
            self.say("! usage: :complete /COMMAND OPTION TEXT   e.g. :complete /power name tele")
            return
        specs = self.table.commands
        command_words = [w for w in words if not w.startswith(":")]
        for n in (3, 2, 1):
            name = " ".join(command_words[:n]).lstrip("/")
            if any(s.name == name for s in specs) and len(command_words) > n:
                option, typed = command_words[n], " ".join(command_words[n + 1 :])
                try:
                    choices = await self.me.autocomplete(name, option, typed, channel=self.channel)
                except (UsageError, SandboxError, SandboxTimeout) as error:
                    self.say(f"! {error}")
                    return
                self.say("Suggestions: " + (", ".join(c["name"] for c in choices) or "(none)"))
                return
        self.say("! usage: :complete /COMMAND OPTION TEXT   e.g. :complete /power name tele")

    async def form(self, args: str) -> None:
        result = self.last_result
        if result is None or result.record.modal is None:
            self.say("! no form is open")
            return
        try:
            values = parse_line("/form " + args).options
            submitted = await self.me.submit_modal(result, values)
        except (UsageError, SandboxError, SandboxTimeout) as error:
            self.say(f"! {error}")
            return
        await self.settle(submitted)
        self.show_changes()

    def help(self, args: str) -> None:
        people = ", ".join(m.name for m in self.server.guild.people())
        channels = ", ".join(self._channel_names())
        specs = self.offered
        if args.strip():
            wanted = args.strip().lstrip("/").lower()
            matching = [s for s in specs if s.name == wanted or s.name.startswith(wanted + " ")]
            if not matching:
                self.say(f"! no command /{wanted}")
                return
            for spec in matching:
                self.say(f"{spec.usage()}\n    {spec.description}")
                for o in spec.options:
                    extra = " (suggests as you type)" if o.get("autocomplete") else ""
                    self.say(f"      {o['name']}: {o.get('description', '')}{extra}")
            return
        self.say(HELP.format(people=people, channels=channels))
        self.say("The bot's commands ([...] is optional; :help COMMAND for details):")
        for spec in specs:
            self.say(f"  {spec.usage()}")
        if not specs:
            self.say("  (none registered)")

    def switch_user(self, name: str) -> None:
        name = name.strip()
        if not name:
            self.say("People: " + ", ".join(m.name for m in self.server.guild.people()))
            return
        try:
            self.me = self.table.user(name)
        except SandboxError as error:
            self.say(f"! {error}")
            return
        if self.channel.is_dm:  # one's direct messages are one's own
            self.channel = self.server.dm_channel(self.me.member)
        self.say(f"You are now {self.me.name}.")

    def switch_channel(self, name: str) -> None:
        name = name.strip()
        if not name:
            self.say("Channels: " + ", ".join(self._channel_names()))
            return
        try:
            if name.lower() in ("dm", "@dm", "direct"):
                self.channel = self.server.dm_channel(self.me.member)
            else:
                self.channel = self.server.channel(name)
        except SandboxError as error:
            self.say(f"! {error}")
            return
        if self.channel.is_dm:
            self.say("You are now in your direct messages with the bot.")
        else:
            self.say(f"You are now in #{self.channel.name}.")
        self.show_changes()

    def log(self, args: str) -> None:
        n = int(args) if args.strip().isdigit() else 10
        msgs = self._visible()[-n:]
        if not msgs:
            self.say(f"(#{self.channel.name} is empty)")
        for msg in msgs:
            self.say(self.render(msg))
        self._mark_seen()

    def show_file(self, args: str) -> None:
        """Print the newest file attached here (`:file`), or the Nth newest (`:file 2`)."""
        n = int(args) if args.strip().isdigit() else 1
        files = [a for m in self._visible() for a in m.attachments]
        if not 1 <= n <= len(files):
            self.say("(no such file in this channel)")
            return
        found = files[-n]
        body = self.server.attachment_bodies.get(str(found.get("id")))
        if body is None:
            self.say(f"({found.get('filename')} was sent before a restart; files are not kept)")
            return
        self.say(f"== {found.get('filename')} ==\n{body.decode(errors='replace').rstrip()}")

    async def handle(self, line: str) -> bool:
        """Act on one input line; return False to quit."""
        line = line.strip()
        if not line:
            self.show_changes(always_pins=False)
            return True
        if line.startswith("/"):
            await self.run_command(line)
            return True
        if not line.startswith(":"):
            self.say("! commands start with / (like /init start); sandbox controls with : (:help)")
            return True
        word, _, args = line[1:].partition(" ")
        word = word.lower()
        if word in ("quit", "q", "exit"):
            return False
        if word in ("help", "h", "?"):
            self.help(args)
        elif word == "as":
            self.switch_user(args)
        elif word in ("channel", "ch", "cd"):
            self.switch_channel(args)
        elif word == "click":
            await self.click(args)
        elif word == "select":
            await self.select(args)
        elif word == "complete":
            await self.complete(args)
        elif word == "form":
            await self.form(args)
        elif word == "file":
            self.show_file(args)
        elif word == "pins":
            pinned = self.server.pinned(self.channel)
            self.say("\n".join(self.render(m) for m in pinned) or "(nothing pinned)")
        elif word in ("log", "history"):
            self.log(args)
        elif word == "say":
            self.me.say(args, channel=self.channel)
            self.say(f"{self.me.name}: {args}")
            self._mark_seen()
        elif word == "unpin":
            pinned = self.server.pinned(self.channel)
            if not pinned:
                self.say("(nothing pinned)")
            else:
                self.me.unpin(pinned[0])
                self.say(f"{self.me.name} unpinned message {pinned[0].id}.")
        else:
            self.say(f"! unknown control :{word}; :help lists them")
        return True

    def keep(self) -> None:
        """Save the channels and messages beside the database, when the sandbox has one."""
        path = self.paths.get("channels")
        if path is None:
            return
        try:
            save_world(self.server, path)
        except OSError as error:
            logging.getLogger("bot.sandbox.terminal").warning("cannot save %s: %s", path, error)

    async def repl(self, reader: LineReader | PromptReader, stop: asyncio.Event) -> None:
        self.banner()
        self.show_changes(always_pins=True, quiet=True)
        while not stop.is_set():
            read = asyncio.ensure_future(reader.readline(self.prompt))
            stopped = asyncio.ensure_future(stop.wait())
            done, _ = await asyncio.wait({read, stopped}, return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if read not in done:
                read.cancel()
                break
            line = read.result()
            if line is None:
                self.say("")
                break
            try:
                if not await self.handle(line):
                    break
            except Exception as error:  # the REPL survives a bug in one command's display
                logging.getLogger("bot.sandbox.terminal").exception(
                    "sandbox command failed: %s", line
                )
                self.say(f"! that failed inside the sandbox: {error!r} (details in the bot log)")
            finally:
                self.keep()
        self.say("Stopping the bot. Bye.")


def _has_button(msg: StoredMessage, which: str) -> bool:
    try:
        msg.find_button(which)
    except LookupError:
        return False
    return True


def _terminal(
    server: LoopbackDiscord, out: TextIO, user: str, channel: str, db_path: Path, log_path: Path
) -> TerminalTable:
    """Bring back last time's channels (before the bot connects) and seat the user."""
    channels = world_file(db_path)
    restored = load_world(server, channels)
    terminal = TerminalTable(
        server,
        out=out,
        user=user,
        channel=channel,
        paths={"database": db_path, "bot log": log_path, "channels": channels},
    )
    if restored:
        terminal.notes.append(
            f"{restored} messages are back from last time, buttons and all (:log shows them)."
        )
    return terminal


def _reader(
    terminal: TerminalTable, stdin: TextIO, stdout: TextIO, db_path: Path
) -> LineReader | PromptReader:
    """Edit lines with prompt_toolkit in a terminal; read a pipe or a file plainly."""
    if stdin.isatty() and stdout.isatty():
        terminal.notes.append("Tab completes commands, options and names; Up recalls a line.")
        return PromptReader(terminal, db_path.with_name(db_path.stem + ".history"))
    return LineReader(stdin, stdout)


def _make_bot(settings: Settings, extensions: list[str]) -> discord.Client:
    from bot.app import Tablehand, cog_extensions

    # The sandbox's Discord is new on every start: the bot registers its commands there.
    return Tablehand(
        settings,
        extensions=[*cog_extensions(), *extensions] if extensions else None,
        sync_on_start=True,
    )


async def _main(
    settings: Settings,
    *,
    extensions: list[str],
    db_path: Path,
    log_path: Path,
    user: str,
    channel: str,
    stdin: TextIO,
    stdout: TextIO,
    locale: str | None = None,
) -> int:
    from pydantic import SecretStr

    async with LoopbackDiscord() as server:
        if locale is not None:
            server.speak(locale)
        bot_settings = settings.model_copy(
            update={
                "discord_token": SecretStr(SANDBOX_TOKEN),
                "api_base": server.api_base,
                "gateway_url": server.gateway_url,
                # Registered globally, as in production: DMs then offer /roll, /power, /help.
                "guild_ids": [],
                "db_path": db_path,
            }
        )
        stdout.write("Starting the sandbox Discord and the bot...\n")
        stdout.flush()
        try:
            terminal = _terminal(server, stdout, user, channel, db_path, log_path)
        except SandboxError as error:
            stdout.write(f"tablehand sandbox: {error}\n")
            return 2
        bot = _make_bot(bot_settings, extensions)
        trackers = getattr(bot, "trackers", None)
        terminal.trackers_settled = trackers.settled if trackers is not None else None
        async with running_bot(server, bot):
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signal.SIGINT, stop.set)
                loop.add_signal_handler(signal.SIGTERM, stop.set)
            reader = _reader(terminal, stdin, stdout, db_path)
            try:
                await terminal.repl(reader, stop)
            finally:
                reader.close()
                terminal.keep()
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.remove_signal_handler(signal.SIGINT)
                    loop.remove_signal_handler(signal.SIGTERM)
    return 0


def run_sandbox(
    settings: Settings,
    *,
    extensions: list[str] | None = None,
    db_path: Path | str | None = None,
    user: str = "gm",
    channel: str = "table-1",
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    locale: str | None = None,
) -> int:
    """Start the loopback Discord and the bot, and run the terminal table until :quit.

    `locale` (`de`): the server prefers it and everyone's Discord client speaks it.
    """
    stdout = stdout or sys.stdout
    stdin = stdin or sys.stdin
    with contextlib.suppress(AttributeError, ValueError):
        stdout.reconfigure(line_buffering=True, errors="replace")  # type: ignore[attr-defined]
    # The sandbox keeps its own database unless one is configured.
    if db_path is None:
        db_path = settings.db_path if "db_path" in settings.model_fields_set else DEFAULT_DB
    db_path = Path(db_path)
    log_path = db_path.with_suffix(".log")
    handler = logging.FileHandler(log_path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level_number)
    try:
        return asyncio.run(
            _main(
                settings,
                extensions=list(extensions or []),
                db_path=db_path,
                log_path=log_path,
                user=user,
                channel=channel,
                stdin=stdin,
                stdout=stdout,
                locale=locale,
            )
        )
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        logging.getLogger("bot.sandbox.terminal").exception("the sandbox failed")
        stdout.write(f"tablehand sandbox: {error} (details in {log_path})\n")
        return 1
