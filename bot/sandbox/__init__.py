"""The loopback Discord: a local server, a test client and the terminal sandbox (README.md here)."""

from bot.sandbox.client import ChannelView, InteractionResult, SandboxTable, SandboxUser
from bot.sandbox.commandline import UsageError
from bot.sandbox.harness import BotProcess, running_bot
from bot.sandbox.server import (
    LoopbackDiscord,
    RateLimitConfig,
    SandboxError,
    SandboxTimeout,
)

__all__ = [
    "BotProcess",
    "ChannelView",
    "InteractionResult",
    "LoopbackDiscord",
    "RateLimitConfig",
    "SandboxError",
    "SandboxTable",
    "SandboxTimeout",
    "SandboxUser",
    "UsageError",
    "running_bot",
]
