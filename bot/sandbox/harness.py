"""Start a bot against the loopback Discord: in this process, or as a separate one.

In-process (functional tests, the terminal sandbox):

    async with running_bot(server, bot):
        ...

As a subprocess (restarts, SIGKILL, honest load numbers; the server stays here):

    proc = await BotProcess.start(server, db_path=tmp_path / "t.db")
    ...
    await proc.stop()
"""

# Waits take a `timeout=`: it is the API tests read (`await ch.wait_for(pred, timeout=2)`).
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import BinaryIO, TypeVar

import discord
import yarl

from bot.sandbox.server import LoopbackDiscord, SandboxError

SANDBOX_TOKEN = "sandbox-token"
BARE_BOT = ("-m", "bot.sandbox.bare")
REPO_ROOT = Path(__file__).resolve().parents[2]
BotT = TypeVar("BotT", bound=discord.Client)


def point_discord_at(api_base: str, gateway_url: str) -> None:
    """Send discord.py's REST calls and gateway connection to these addresses."""
    try:
        from bot.app import point_discord_at as app_point
    except ImportError:  # the sandbox also runs without the bot package's app
        discord.http.Route.BASE = api_base.rstrip("/")
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    else:
        app_point(api_base, gateway_url)


@contextlib.contextmanager
def pointed_at(server: LoopbackDiscord) -> Iterator[None]:
    """Point discord.py at the server for the duration, then restore the real Discord."""
    base = discord.http.Route.BASE
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    point_discord_at(server.api_base, server.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


def make_ready_fast(bot: discord.Client, seconds: float = 0.05) -> None:
    """Shorten discord.py's wait for more GUILD_CREATEs before on_ready (default 2 s)."""
    # ConnectionState reads this when READY arrives; the constructor option is not
    # reachable through every Bot subclass's __init__, so set the attribute.
    bot._connection.guild_ready_timeout = seconds


async def start_bot(
    bot: BotT, *, token: str = SANDBOX_TOKEN, timeout: float = 15.0
) -> asyncio.Task[None]:
    """Log the bot in and wait until it is ready; return the task running it.

    Errors during login or setup_hook (a failed sync, a bad extension) are raised here
    rather than waited out.
    """
    make_ready_fast(bot)
    runner = asyncio.create_task(bot.start(token), name=f"bot-{type(bot).__name__}")
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait(
        {runner, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
    )
    if ready in done:
        return runner
    ready.cancel()
    if runner in done:
        with contextlib.suppress(Exception):
            await bot.close()
        runner.result()  # raises what stopped the bot
        raise SandboxError("the bot stopped before it was ready")
    await stop_bot(bot, runner)
    raise SandboxError(f"the bot was not ready after {timeout:.0f}s")


async def stop_bot(bot: discord.Client, runner: asyncio.Task[None]) -> None:
    """Close the bot and wait for its task, so no session or task is left behind."""
    with contextlib.suppress(Exception):
        await bot.close()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await asyncio.wait_for(runner, 5.0)


@contextlib.asynccontextmanager
async def running_bot(
    server: LoopbackDiscord, bot: BotT, *, token: str = SANDBOX_TOKEN, timeout: float = 15.0
) -> AsyncIterator[BotT]:
    """Run the bot in this event loop against the server until the block ends."""
    with pointed_at(server):
        runner = await start_bot(bot, token=token, timeout=timeout)
        try:
            yield bot
        finally:
            await stop_bot(bot, runner)


def bot_environment(
    server: LoopbackDiscord,
    *,
    db_path: Path | str | None = None,
    token: str = SANDBOX_TOKEN,
    extra: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Return the environment that points `python -m bot` at the server."""
    env = dict(os.environ)
    env.update(
        {
            "DISCORD_TOKEN": token,
            "DISCORD_API_BASE": server.api_base,
            "DISCORD_GATEWAY_URL": server.gateway_url,
            "TABLEHAND_GUILD_IDS": ",".join(str(g) for g in server.guilds),
            "PYTHONUNBUFFERED": "1",
        }
    )
    if db_path is not None:
        env["TABLEHAND_DB"] = str(db_path)
    env.update(extra or {})
    return env


async def sync_commands(
    server: LoopbackDiscord,
    *,
    db_path: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    log_path: Path | str = "bot-process.log",
    cwd: Path | str | None = None,
    timeout: float = 60.0,
) -> None:
    """Run `python -m bot sync-commands` against the server and wait for it to succeed."""
    log_file = _append(Path(log_path))
    try:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "sync-commands",
            env=bot_environment(server, db_path=db_path, extra=env),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log_file,
            stderr=log_file,
            cwd=str(cwd or REPO_ROOT),
        )
    finally:
        log_file.close()
    code = await asyncio.wait_for(process.wait(), timeout)
    if code != 0:
        raise SandboxError(f"`python -m bot sync-commands` failed; its log: {log_path}")


def _append(path: Path) -> BinaryIO:
    """Open the bot process's log for appending (its stdout and stderr go there)."""
    return path.open("ab")


class BotProcess:
    """A bot running as its own process (`python -m bot` by default) against the server."""

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        server: LoopbackDiscord,
        log_path: Path,
        log_start: int = 0,
    ) -> None:
        self.process = process
        self.server = server
        self.log_path = log_path
        # The log is appended to across runs: this process's lines begin here.
        self.log_start = log_start

    @classmethod
    async def start(
        cls,
        server: LoopbackDiscord,
        *,
        db_path: Path | str | None = None,
        args: Sequence[str] = ("-m", "bot", "run"),
        env: Mapping[str, str] | None = None,
        log_path: Path | str | None = None,
        cwd: Path | str | None = None,
        timeout: float = 30.0,
        connect: bool = True,
    ) -> BotProcess:
        """Spawn the bot and wait until it has connected to the server's gateway.

        `connect=False`: return once it runs (a standby process waiting for a shard lease).
        """
        log_path = Path(
            log_path or (Path(db_path).with_suffix(".log") if db_path else "bot-process.log")
        )
        if tuple(args[:2]) != BARE_BOT and not server.commands:
            # Tablehand (`python -m bot run`, or a wrapper of it) no longer registers its
            # commands on start: a new Discord gets them the way a deploy does, from
            # `tablehand sync-commands` (once per server, not per start). The bare bot
            # registers its own.
            await sync_commands(server, db_path=db_path, env=env, log_path=log_path, cwd=cwd)
        before = server.stats.identifies + server.stats.resumes
        log_file = _append(log_path)
        log_start = log_file.tell()
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                *args,
                env=bot_environment(server, db_path=db_path, extra=env),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log_file,
                stderr=log_file,
                cwd=str(cwd or REPO_ROOT),
            )
        finally:
            log_file.close()
        self = cls(process, server, log_path, log_start)
        if not connect:
            return self
        exited = asyncio.create_task(process.wait())
        connected = asyncio.create_task(
            server.wait_until(
                lambda: (
                    server.stats.identifies + server.stats.resumes > before and server.bot_connected
                ),
                timeout=timeout,
            )
        )
        done, _ = await asyncio.wait({exited, connected}, return_when=asyncio.FIRST_COMPLETED)
        if connected in done and connected.exception() is None:
            exited.cancel()
            return self
        connected.cancel()
        if exited not in done:
            await self.kill()
        exited.cancel()
        raise SandboxError(f"the bot process did not connect; its log:\n{self.log_tail()}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def log_tail(self, lines: int = 40) -> str:
        """The last `lines` this process wrote to its log (not an earlier run's)."""
        try:
            with self.log_path.open("rb") as log:
                log.seek(self.log_start)
                text = log.read().decode(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    async def stop(self, sig: signal.Signals = signal.SIGINT, timeout: float = 10.0) -> int:
        """Ask the bot to stop as Ctrl-C (or `sig`) would, and wait (SIGKILL after `timeout`).

        A second SIGINT follows after a moment: on Python 3.11 the first one, which only
        cancels the main task, can be lost in discord.py's start-up (`wait_for` swallows a
        cancellation racing its result); asyncio turns the second into KeyboardInterrupt.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        for grace in (2.0, timeout):
            if self.process.returncode is not None:
                break
            self.process.send_signal(sig)
            try:
                await asyncio.wait_for(
                    self.process.wait(), max(0.0, min(grace, deadline - loop.time()))
                )
            except TimeoutError:
                continue
        if self.process.returncode is None:
            await self.kill()
        return self.process.returncode if self.process.returncode is not None else -1

    async def kill(self) -> int:
        """Kill the bot at once (SIGKILL), as a crash would."""
        if self.process.returncode is None:
            self.process.kill()
        return await self.process.wait()
