"""The warm-up builds the validators pydantic deferred for the fights' models."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tests.unit.test_purity import ROOT

BUILD = textwrap.dedent(
    """
    import importlib, pkgutil
    import bot.rules, bot.store
    from pydantic import BaseModel
    from bot.warm import _subclasses, build_models

    for module in pkgutil.iter_modules(bot.rules.__path__):
        importlib.import_module(f"bot.rules.{module.name}")
    ours = ("bot.rules.", "bot.store.")
    fights = [m for m in _subclasses(BaseModel) if m.__module__.startswith(ours)]
    deferred = {m for m in fights if not m.__pydantic_complete__}
    built = build_models()
    print(len(deferred) > 20, set(built) == deferred, len(set(built)) == len(built))
    print([m.__name__ for m in fights if not m.__pydantic_complete__], build_models())
    """
)


def test_the_warm_up_builds_every_deferred_rules_and_store_model_once() -> None:
    """A rules or store model was left for a command's first use, built twice, or built again later.

    In a fresh interpreter: this test process may have built any of them already.
    """
    done = subprocess.run(
        [sys.executable, "-c", BUILD],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    assert done.stdout.splitlines() == ["True True True", "[] []"]


async def test_the_bots_warm_up_compiles_the_command_links_too() -> None:
    """The first reply naming a command compiled the look-up of command names (5 ms)."""
    import bot.app as app
    from bot.config import Settings
    from bot.store import MemoryStore

    bot = app.Tablehand(Settings(), store=MemoryStore())
    await bot._warm()
    assert bot.help._named is not None and bot.help.patterns() is bot.help._named


@pytest.mark.parametrize("fails", [False, True])
async def test_the_store_hears_when_the_warm_up_thread_is_done(
    fails: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store never heard the warm-up end: SQLite's writes stayed off the loop for good."""
    import bot.app as app
    from bot.config import Settings
    from bot.store import MemoryStore

    heard: list[str] = []

    class Listening(MemoryStore):
        def warmed_up(self) -> None:
            heard.append("warmed up")

    if fails:

        def broken(modules: tuple[str, ...]) -> None:
            raise ImportError("no such module")

        monkeypatch.setattr(app, "warm_up", broken)
    bot = app.Tablehand(Settings(), store=Listening())
    await bot._warm()
    assert heard == ["warmed up"]
