"""A catalogue is compiled once and kept beside its `.po`, never read stale."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import bot.i18n as i18n
from bot.i18n import catalogue_path, compile_catalogue, compile_mo, compiled_path

PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "{name} takes {amount} damage."
msgstr "{name} erleidet {amount} Schaden."
"""


@pytest.fixture
def locale_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A locale directory with one German catalogue of one message."""
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    path = catalogue_path("de")
    path.parent.mkdir(parents=True)
    path.write_text(PO, encoding="utf-8")
    return path.parent


def _said(translations: object) -> str:
    return translations.gettext("{name} takes {amount} damage.")  # type: ignore[attr-defined]


def test_the_compiled_catalogue_is_kept_and_read_again(locale_dir, monkeypatch) -> None:
    """The second start compiled the .po again instead of reading the kept .mo."""
    assert _said(compile_catalogue("de")) == "{name} erleidet {amount} Schaden."
    kept = compiled_path("de", catalogue_path("de").read_bytes())
    assert [p.name for p in locale_dir.glob("*.mo")] == [kept.name]

    def refuse(language: str, source: bytes) -> bytes:
        raise AssertionError("compiled again")

    monkeypatch.setattr(i18n, "compile_mo", refuse)
    assert _said(compile_catalogue("de")) == "{name} erleidet {amount} Schaden."


def test_an_edited_catalogue_is_compiled_again(locale_dir) -> None:
    """After the .po changed, the .mo compiled from the old text was still read."""
    compile_catalogue("de")
    path = catalogue_path("de")
    path.write_text(PO.replace("erleidet", "nimmt"), encoding="utf-8")
    assert _said(compile_catalogue("de")) == "{name} nimmt {amount} Schaden."
    assert [p.name for p in locale_dir.glob("*.mo")] == [
        compiled_path("de", path.read_bytes()).name
    ]


def test_a_read_only_catalogue_directory_still_translates(locale_dir, monkeypatch) -> None:
    """Where the .mo cannot be written, the catalogue is compiled in memory each time."""

    def refuse(source: object, target: object) -> None:
        raise PermissionError("read-only")

    monkeypatch.setattr(os, "replace", refuse)
    assert _said(compile_catalogue("de")) == "{name} erleidet {amount} Schaden."
    assert list(locale_dir.iterdir()) == [catalogue_path("de")]


def test_the_german_catalogue_read_is_the_po_as_it_is_now() -> None:
    """The .mo the bot reads for German is byte for byte what the .po compiles to now."""
    source = catalogue_path("de").read_bytes()
    compile_catalogue("de")
    assert compiled_path("de", source).read_bytes() == compile_mo("de", source)
