"""The bot's own start-up work in one process, without the network: for instruction counts.

`python -m tests.bench --parts startup` times a real start against the loopback Discord,
which moves with the machine's load. This does what `python -m bot run` does before it
connects (settings, imports, the bot with its catalogue and store, the translations, every
cog), so that `valgrind --tool=callgrind .venv/bin/python -m tests.bench.startup_cost`
counts its instructions, which do not move. Compile the bot's modules first
(`python -m compileall -q bot cogs`), as installing the package and the bench do.
"""

import asyncio
import gc
import sys
import tempfile
from pathlib import Path


async def set_up(db: Path) -> None:
    """Build the bot as `python -m bot run` does, load its cogs, and close its store."""
    from bot.app import Tablehand
    from bot.config import Settings
    from bot.i18n import load_all
    from bot.i18n.commands import CommandTranslator

    settings = Settings.from_env(env_file=None, environ={"TABLEHAND_DB": str(db)})
    bot = Tablehand(settings, freeze_heap=True)
    async with bot:  # closed at the end: its store, and the jobs its cogs scheduled
        load_all()
        await bot.tree.set_translator(CommandTranslator())
        await bot.store.open()
        for extension in bot.extension_names:
            await bot.load_extension(extension)


def main() -> int:
    gc.disable()  # as bot.__main__.main does for the start-up
    try:  # what `python -m bot` does first (not on a branch from before it did)
        from bot.__main__ import skip_pydantic_plugins
    except ImportError:
        pass
    else:
        skip_pydantic_plugins()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(set_up(Path(folder) / "startup.db"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
