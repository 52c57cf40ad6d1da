"""The message catalogues: what the code says (extracted), and what each language has of it.

Two sources make the template: Babel's extractor over `bot/` and `cogs/` (every `_()`,
`n_()`, `p_()`, their lazy forms, and the first argument of the project's errors, which
render their message when shown), and the command tree (every command's name and
description, option names and descriptions, and choice names, each with the translator's
context). `python -m bot.i18n update` merges the template into every language's `.po`;
`python -m bot.i18n check` (and a unit test in `make test`) fails while a message has no
translation or a catalogue keeps one the code no longer says.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator
from contextlib import redirect_stderr
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.i18n import DOMAIN, LANGUAGES, SOURCE, catalogue_path, placeholders
from bot.i18n.commands import COMMAND_CONTEXTS

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("bot", "cogs")
# bot/sandbox is the developers' loopback Discord and its terminal: it speaks English only.
SKIPPED = ("bot/sandbox/**",)

# Every errors' constructor renders its first argument as a message id (bot.errors).
ERRORS = (
    "TablehandError",
    "BadInput",
    "DiceError",
    "NotFound",
    "NoEncounter",
    "NotAllowed",
    "RuleViolation",
    "StoreError",
    "SettingsError",
    "CatalogueError",
)
GETTEXT: dict[str, object] = {
    "_": None,
    "N_": None,
    "L_": None,
    "n_": (1, 2),
    "Ln_": (1, 2),
    "p_": ((1, "c"), 2),
    "Lp_": ((1, "c"), 2),
}
ERROR_KEYWORDS: dict[str, object] = dict.fromkeys(ERRORS, None)

# Modules whose texts are not wrapped yet (issue 23 goes on): they speak English to everyone,
# and their commands keep English names. The check holds every other module to the rules;
# take a module off this list when it is wrapped and translated.
NOT_YET_WRAPPED = (
    "bot/__main__.py",
    "bot/config.py",
    "bot/shards.py",
)
# Of those, the cogs whose commands are translated all the same (names, descriptions,
# options, choices: Discord's menus speak German while the replies are still English).
COMMANDS_TRANSLATED: tuple[str, ...] = ()


@dataclass(frozen=True)
class Found:
    """One message the code says: its id (and plural), context, and where."""

    id: str
    plural: str | None
    context: str | None
    where: str

    @property
    def key(self) -> tuple[str, str | None]:
        return (self.id, self.context)


def not_yet_wrapped(path: str) -> bool:
    """Return whether a module (`cogs/grit.py`) is still on the list of unwrapped ones."""
    return any(fnmatch(path, pattern) for pattern in NOT_YET_WRAPPED)


def code_messages(root: Path = ROOT) -> tuple[list[Found], list[str]]:
    """Return every message marked in the code, and where a wrapped module uses an f-string.

    In a module not yet wrapped only explicit `_()`-family calls count: its errors are
    still English for everyone. In a wrapped one an error's message must be a literal
    with named placeholders (Babel skips an f-string: it could never be translated).
    """
    found: list[Found] = []
    skipped: list[str] = []
    for directory in SOURCES:
        for keywords, ignored in (
            (GETTEXT, SKIPPED),
            (ERROR_KEYWORDS, (*SKIPPED, *NOT_YET_WRAPPED)),
        ):
            base = f"{directory}/"
            method_map = [
                (pattern.removeprefix(base), "ignore")
                for pattern in ignored
                if pattern.startswith(base)
            ] + [("**.py", "python")]
            warnings = io.StringIO()
            with redirect_stderr(warnings):
                extracted = list(
                    extract_from_dir(
                        root / directory, method_map=method_map, keywords=keywords, comment_tags=()
                    )
                )
            for filename, line, message, _comments, context in extracted:
                singular, plural = message if isinstance(message, tuple) else (message, None)
                if singular:
                    found.append(Found(singular, plural, context, f"{base}{filename}:{line}"))
            skipped.extend(_fstrings(warnings.getvalue(), root))
    return found, sorted(set(skipped))


def _fstrings(warnings: str, root: Path) -> Iterator[str]:
    """Yield `path:line` of every f-string Babel skipped in a wrapped module."""
    for warning in warnings.splitlines():
        if "Skipping f-string" not in warning:
            continue
        where = warning.split(": warning:", 1)[0]
        filename, line = where.rsplit(":", 1)
        path = Path(filename).resolve().relative_to(root).as_posix()
        if not not_yet_wrapped(path):
            yield f"{path}:{line}"


def tree_messages(tree: object) -> Iterator[Found]:
    """Yield every name, description and choice name of a command tree, in its context."""
    from discord import app_commands

    assert isinstance(tree, app_commands.CommandTree)
    for command in tree.walk_commands():
        module = (getattr(command, "module", None) or "").replace(".", "/") + ".py"
        if not_yet_wrapped(module) and module not in COMMANDS_TRANSLATED:
            continue
        where = f"/{command.qualified_name}"
        group = isinstance(command, app_commands.Group)
        yield Found(command.name, None, COMMAND_CONTEXTS["command_name"], where)
        yield Found(command.description, None, COMMAND_CONTEXTS["command_description"], where)
        if group or not isinstance(command, app_commands.Command):
            continue
        for parameter in command.parameters:
            yield Found(parameter.display_name, None, COMMAND_CONTEXTS["parameter_name"], where)
            yield Found(
                parameter.description, None, COMMAND_CONTEXTS["parameter_description"], where
            )
            for choice in parameter.choices:
                yield Found(choice.name, None, COMMAND_CONTEXTS["choice_name"], where)


async def offline_tree_messages() -> list[Found]:
    """Load every cog into a bot that never connects, and return its command tree's messages."""
    from bot.app import Tablehand
    from bot.config import Settings
    from bot.store import MemoryStore

    bot = Tablehand(Settings(), store=MemoryStore())
    async with bot:
        for extension in bot.extension_names:
            await bot.load_extension(extension)
        await asyncio.sleep(0)  # background jobs the cogs scheduled start, to be cancelled
        # Read before leaving the block: closing the bot unloads its cogs.
        return list(tree_messages(bot.tree))


def all_messages() -> tuple[list[Found], list[str]]:
    """Return every message the bot says (its code's, its commands'), and untranslatable f-strings."""
    found, fstrings = code_messages()
    return [*found, *asyncio.run(offline_tree_messages())], fstrings


def template(found: list[Found]) -> Catalog:
    """Build the `.pot` template: each message once, with every place it is used."""
    catalog = Catalog(domain=DOMAIN, project="Tablehand", charset="utf-8")
    for item in found:
        key = (item.id, item.plural) if item.plural else item.id
        existing = catalog.get(item.id, context=item.context)
        locations = [(item.where.rsplit(":", 1)[0], _line(item.where))]
        if existing is not None:
            existing.locations.extend(locations)
            continue
        catalog.add(key, locations=locations, context=item.context, flags=_flags(item.id))
    return catalog


def _line(where: str) -> int | None:
    tail = where.rsplit(":", 1)
    return int(tail[1]) if len(tail) == 2 and tail[1].isdigit() else None


def _flags(message: str) -> tuple[str, ...]:
    return ("python-brace-format",) if placeholders(message) else ()


def read(language: str) -> Catalog:
    """Read a language's catalogue (an empty one if it has none yet)."""
    path = catalogue_path(language)
    if not path.exists():
        return Catalog(locale=language, domain=DOMAIN)
    with path.open("rb") as source:
        return read_po(source, locale=language, domain=DOMAIN)


def write(language: str, catalog: Catalog) -> None:
    """Write a language's catalogue, sorted, without line numbers (stable diffs)."""
    path = catalogue_path(language)
    path.parent.mkdir(parents=True, exist_ok=True)
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, include_lineno=False, ignore_obsolete=True)
    path.write_bytes(out.getvalue())


def update(found: list[Found]) -> dict[str, int]:
    """Merge the code's messages into every language's catalogue; return how many are missing."""
    pot = template(found)
    missing = {}
    for language in LANGUAGES:
        if language == SOURCE:
            continue
        catalog = read(language)
        catalog.update(pot, no_fuzzy_matching=True, update_header_comment=False)
        write(language, catalog)
        missing[language] = len(problems(language, found))
    return missing


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return bool(strings) and all(strings) and not message.fuzzy


def problems(language: str, found: list[Found]) -> list[str]:
    """Return what is wrong with a language's catalogue, one line each (nothing: complete)."""
    catalog = read(language)
    wanted = {item.key: item for item in found}
    out = []
    for key, item in sorted(wanted.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        message = catalog.get(key[0], context=key[1])
        if message is None or not _translated(message):
            out.append(f"untranslated: {item.id!r} ({item.context or 'text'}; {item.where})")
            continue
        ids = [item.id, *([item.plural] if item.plural else [])]
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        expected = set().union(*(placeholders(i) for i in ids))
        for string in strings:
            if placeholders(string) - expected:
                out.append(f"unknown placeholder in the translation of {item.id!r}: {string!r}")
    for message in catalog:
        if (
            message.id
            and (message.id if isinstance(message.id, str) else message.id[0], message.context)
            not in wanted
        ):
            out.append(f"stale: {message.id!r} ({message.context or 'text'}) is said nowhere")
    for message in catalog.obsolete.values():
        out.append(f"stale: {message.id!r} is kept as obsolete (#~); delete it")
    return out
