"""Start-up imports only what answering needs; the rest waits for first use or the warm-up."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.unit.test_purity import ROOT

# Each of these builds something slow when imported (d20: its parser; Babel: only needed
# to compile a catalogue, which start-up reads compiled; dotenv: only with a .env file).
LEFT_FOR_LATER = ("d20", "lark", "babel", "dotenv")

SET_UP = textwrap.dedent(
    """
    import asyncio, sys
    from bot.app import Tablehand, warm_up
    from bot.config import Settings
    from bot.i18n import load_all
    from bot.store import MemoryStore

    async def set_up():
        bot = Tablehand(Settings(), store=MemoryStore())
        async with bot:
            load_all()
            for extension in bot.extension_names:
                await bot.load_extension(extension)
            print(loaded())
        warm_up()  # as the bot does in a thread once ready
        print(loaded())

    def loaded():
        return " ".join(sorted({n.split(".")[0] for n in sys.modules} & set(sys.argv[1:])))

    asyncio.run(set_up())
    """
)


def test_setting_the_bot_up_leaves_d20_and_babel_to_the_warm_up() -> None:
    """Loading every cog and the catalogues imported d20, lark, Babel or dotenv again; or the
    warm-up missed d20.

    As every start after the first: the catalogues are compiled and kept beforehand (a
    fresh clone's first start compiles them with Babel, whichever test runs first).
    """
    from bot.i18n import load_all

    load_all()
    done = subprocess.run(
        [sys.executable, "-c", SET_UP, *LEFT_FOR_LATER],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    assert done.stdout.splitlines() == ["", "d20 lark"]


async def test_a_failed_warm_up_is_logged_not_lost(monkeypatch, caplog) -> None:
    """A module the warm-up could not import vanished into an unretrieved task exception."""
    import bot.app as app
    from bot.config import Settings
    from bot.store import MemoryStore

    monkeypatch.setattr(app, "WARM_UP", ("bot.no_such_module",))
    bot = app.Tablehand(Settings(), store=MemoryStore())
    await bot._warm()
    assert [r.getMessage() for r in caplog.records if r.name == "tablehand"] == [
        "warming up bot.no_such_module failed"
    ]


async def test_a_finished_warm_up_says_so(caplog) -> None:
    """The bench waited for a warm-up it could not see end (under callgrind it outlasts any quiet)."""
    import logging

    import bot.app as app
    from bot.config import Settings
    from bot.store import MemoryStore

    caplog.set_level(logging.INFO, logger="tablehand")
    bot = app.Tablehand(Settings(), store=MemoryStore())
    await bot._warm()
    assert [r.getMessage() for r in caplog.records if r.name == "tablehand"] == [
        "warmed up bot.rules.expressions"
    ]


PLUGINS = textwrap.dedent(
    """
    import sys
    from bot.__main__ import main
    import pydantic.plugin._loader as loader

    print(main(["sync-commands"]), loader._plugins)
    """
)


def _plugins_after_main(tmp_path, **env: str) -> str:
    """Run `tablehand sync-commands` without a token: it builds Settings' validator and stops."""
    import os

    environ = dict(os.environ)
    for name in ("DISCORD_TOKEN", "PYDANTIC_DISABLE_PLUGINS"):
        environ.pop(name, None)
    environ.update(env, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", PLUGINS],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # no .env here
        env=environ,
        timeout=120,
        check=True,
    )
    return done.stdout.strip()


def test_the_bot_does_not_scan_for_pydantic_plugins(tmp_path) -> None:
    """pydantic's first validator scanned every installed distribution's entry points."""
    assert _plugins_after_main(tmp_path) == "2 None"  # never scanned: no plugin table


def test_an_operator_can_still_ask_for_pydantic_plugins(tmp_path) -> None:
    """PYDANTIC_DISABLE_PLUGINS set by the operator wins: "" loads every plugin there is."""
    assert _plugins_after_main(tmp_path, PYDANTIC_DISABLE_PLUGINS="") == "2 {}"


def _fresh(code: str, cwd) -> list[str]:
    """Run code in a new interpreter (nothing imported yet) and return its printed lines."""
    import os

    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=True,
    )
    return done.stdout.splitlines()


def test_settings_without_a_dotenv_file_leave_dotenv_unimported(tmp_path) -> None:
    """Reading settings imported python-dotenv (a dozen patterns compiled) with no .env to read."""
    code = """
        import sys
        from bot.config import Settings
        Settings.from_env(environ={})
        print("dotenv" in sys.modules)
        (__import__("pathlib").Path(".env")).write_text("TABLEHAND_LOG_LEVEL=DEBUG\\n")
        print(Settings.from_env(environ={}).log_level, "dotenv" in sys.modules)
    """
    assert _fresh(code, tmp_path) == ["False", "DEBUG True"]


def test_modules_with_pydantic_models_do_not_postpone_annotations(tmp_path) -> None:
    """A module of the bot's models went back to `from __future__ import annotations`.

    pydantic then compiles and evaluates every field's annotation string as it makes each
    class (some 170 at start-up): a third of the time those modules took to import.
    """
    code = """
        import importlib, sys, pydantic
        import bot.app
        for name in bot.app.cog_extensions():
            importlib.import_module(name)
        def models(cls):
            for sub in cls.__subclasses__():
                yield sub
                yield from models(sub)
        modules = {m.__module__ for m in models(pydantic.BaseModel)}
        ours = sorted(m for m in modules if m.split(".")[0] in ("bot", "cogs"))
        print(len(ours))
        for name in ours:
            if "from __future__ import annotations" in open(sys.modules[name].__file__).read():
                print(name)
    """
    found = _fresh(code, tmp_path)
    assert int(found[0]) >= 30, found  # every module with models was looked at
    assert found[1:] == []


def test_combatants_are_built_before_the_first_encounter_is_read(tmp_path) -> None:
    """Combatant waited for first use: the first stored encounter read built it twice.

    Once inside Encounter's validator and once more for the combatants' own texts (the
    store writes each combatant's JSON apart): twice the first command's model building.
    """
    code = """
        from bot.rules.models import Combatant, Encounter
        print(Combatant.__pydantic_complete__, Encounter.__pydantic_complete__)
    """
    assert _fresh(code, tmp_path) == ["True False"]
