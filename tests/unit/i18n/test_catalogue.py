"""The German catalogue is complete and current; German command names are ones Discord takes."""

from __future__ import annotations

import asyncio
from fnmatch import fnmatch

import pytest

from bot.i18n import LANGUAGES, SOURCE, speaking, translations
from bot.i18n import _ as translate
from bot.i18n.catalogue import (
    NOT_YET_WRAPPED,
    ROOT,
    Found,
    code_messages,
    offline_tree_messages,
    problems,
)
from bot.i18n.commands import valid_name


@pytest.fixture(scope="module")
def found() -> tuple[list[Found], list[str]]:
    code, fstrings = code_messages()
    return [*code, *asyncio.run(offline_tree_messages())], fstrings


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != SOURCE])
def test_every_message_is_translated_and_none_is_stale(found, language) -> None:
    """A text the code says has no translation, or the catalogue keeps one nobody says.

    Run `make messages`, translate what is new in bot/locale/<lang>/LC_MESSAGES/tablehand.po.
    """
    assert problems(language, found[0]) == []


def test_no_wrapped_module_raises_an_untranslatable_f_string(found) -> None:
    """An error raised with an f-string in a wrapped module can never be translated."""
    assert found[1] == []


def test_the_not_yet_wrapped_list_names_real_modules() -> None:
    """An entry of NOT_YET_WRAPPED matches no file: it hides nothing and should go."""
    files = [p.relative_to(ROOT).as_posix() for p in ROOT.glob("*/**/*.py")]
    assert [p for p in NOT_YET_WRAPPED if not any(fnmatch(f, p) for f in files)] == []


def test_german_command_names_are_names_discord_takes(found) -> None:
    """Discord refuses the whole sync over one bad localized name (lowercase, ≤32, letters)."""
    german = translations("de")
    bad = []
    for item in found[0]:
        if item.context in ("command name", "option name"):
            name = german.pgettext(item.context, item.id)
            if not valid_name(name):
                bad.append((item.id, name))
    assert bad == []


def test_german_descriptions_fit_discord(found) -> None:
    """A localized description or choice name is 1 to 100 characters, as Discord demands."""
    german = translations("de")
    long = [
        item.id
        for item in found[0]
        if item.context in ("command description", "option description", "choice")
        and not 1 <= len(german.pgettext(item.context, item.id)) <= 100
    ]
    assert long == []


def test_a_german_command_keeps_its_options_apart(found) -> None:
    """Two options of one command may not share a German name (Discord refuses duplicates)."""
    german = translations("de")
    names: dict[str, list[str]] = {}
    for item in found[0]:
        if item.context == "option name":
            names.setdefault(item.where, []).append(german.pgettext("option name", item.id))
    assert {where: n for where, n in names.items() if len(n) != len(set(n))} == {}


def test_the_glossary_words_are_the_catalogues() -> None:
    """docs/glossary.md and the catalogue agree on the German word of each listed game term."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and not line.startswith("| English")
    ]
    assert rows, "docs/glossary.md has no table of terms"
    with speaking("de"):
        differ = [
            (english, german, translate(english))
            for english, german, *_rest in rows
            if translate(english) not in (english, german)
        ]
    assert differ == []
