"""One `_()` for every renderer: the language spoken now, named placeholders, plurals."""

from __future__ import annotations

import io

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

import bot.i18n as i18n
from bot.errors import BadInput, NotFound
from bot.i18n import L_, Ln_, _, language_of, n_, p_, speak, speaking, spoken
from bot.i18n.commands import server_language, valid_name


@pytest.fixture
def klingon(monkeypatch: pytest.MonkeyPatch) -> str:
    """A made-up language `tlh` with three plural forms (Russian's rule), as gettext reads a .mo."""
    catalog = Catalog(locale="ru")  # its plural rule: 1 → one, 3 → few, 7 → many
    catalog.add("{name} takes {n} damage.", "{n} Schaden für {name}.")
    catalog.add(
        ("{n} combatant", "{n} combatants"), ("ein Kämpfer", "{n} Kämpfer (wenige)", "{n} Kämpfer")
    )
    catalog.add("roll", "würfeln", context="command name")
    catalog.add("broken", "{nope} kaputt")
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    import gettext

    monkeypatch.setitem(i18n.LANGUAGES, "tlh", "Klingon")
    monkeypatch.setitem(i18n._catalogues, "tlh", gettext.GNUTranslations(compiled))
    return "tlh"


def test_discord_locales_fall_back_to_their_language_then_english() -> None:
    """de-AT speaks de; fr (no catalogue) and nothing speak English."""
    assert language_of("de") == "de"
    assert language_of("de-AT") == "de"
    assert language_of("en-GB") == "en"
    assert language_of("fr") == "en"
    assert language_of(None) == "en"


def test_the_table_speaks_its_setting_else_the_servers_discord_language() -> None:
    """/settings language wins; without it the server's preferred locale; English fallback."""
    assert server_language("en", "de") == "en"
    assert server_language(None, "de") == "de"
    assert server_language(None, "ja") == "en"
    assert server_language(None, None) == "en"


def test_placeholders_are_named_and_word_order_is_the_translations(klingon) -> None:
    """The translation puts {n} first; the English text keeps its own order."""
    assert _("{name} takes {n} damage.", name="Ork", n=5) == "Ork takes 5 damage."
    with speaking(klingon):
        assert _("{name} takes {n} damage.", name="Ork", n=5) == "5 Schaden für Ork."


def test_plurals_come_from_the_catalogues_rule(klingon) -> None:
    """Three plural forms by the catalogue's own rule, not English's singular/plural."""
    forms = [n_("{n} combatant", "{n} combatants", n) for n in (1, 3, 7)]
    assert forms == ["1 combatant", "3 combatants", "7 combatants"]
    with speaking(klingon):
        forms = [n_("{n} combatant", "{n} combatants", n) for n in (1, 3, 7)]
    assert forms == ["ein Kämpfer", "3 Kämpfer (wenige)", "7 Kämpfer"]


def test_a_context_keeps_a_command_name_apart(klingon) -> None:
    """`roll` as a command name is translated; `roll` elsewhere is not."""
    with speaking(klingon):
        assert p_("command name", "roll") == "würfeln"
        assert _("roll") == "roll"


def test_a_translation_with_a_wrong_placeholder_falls_back_to_english(klingon) -> None:
    """A broken catalogue entry never breaks a reply: the English text is shown."""
    with speaking(klingon):
        assert _("broken", name="x") == "broken"


def test_speaking_is_per_block_and_speak_per_task(klingon) -> None:
    """`speaking` restores the language after its block."""
    assert spoken() == "en"
    with speaking(klingon):
        assert spoken() == klingon
    assert spoken() == "en"


async def test_each_task_speaks_its_own_language(klingon) -> None:
    """Two interactions at once: each task keeps the language it set."""
    import asyncio

    async def handle(language: str) -> str:
        speak(language)
        await asyncio.sleep(0)
        return _("{name} takes {n} damage.", name="Ork", n=1)

    results = await asyncio.gather(handle(klingon), handle("en"))
    assert results == ["1 Schaden für Ork.", "Ork takes 1 damage."]
    assert spoken() == "en"


def test_lazy_text_renders_in_the_language_spoken_when_shown(klingon) -> None:
    """An L_() made in English is shown in the language spoken at the time."""
    text = L_("{name} takes {n} damage.", name="Ork", n=2)
    plural = Ln_("{n} combatant", "{n} combatants", 1)
    assert str(text) == "Ork takes 2 damage."
    with speaking(klingon):
        assert str(text) == "2 Schaden für Ork."
        assert f"{plural}" == "ein Kämpfer"


def test_an_error_speaks_the_language_of_whoever_reads_it(klingon) -> None:
    """An error raised in English is read in the reader's language, in one line."""
    error = NotFound("{name} takes {n} damage.", name="Ork", n=3)
    assert error.message == "Ork takes 3 damage."
    with speaking(klingon):
        assert error.message == "3 Schaden für Ork."
        assert str(error) == "3 Schaden für Ork."


def test_an_error_is_one_line() -> None:
    """Whitespace and line breaks in a message collapse to single spaces."""
    assert BadInput("a\n  b   c").message == "a b c"


def test_an_error_without_fields_keeps_its_braces() -> None:
    """A message with no fields is not formatted: braces typed by a user stay as they are."""
    assert BadInput("No power named '{x}'.").message == "No power named '{x}'."


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("würfeln", True),
        ("sl_rolle", True),
        ("kämpfer-2", True),
        ("Würfeln", False),
        ("zwei wörter", False),
        ("x" * 33, False),
        ("", False),
    ],
)
def test_discords_naming_rule(name: str, ok: bool) -> None:
    """Lowercase letters, digits, - and _; 1 to 32 of them [Discord, command naming]."""
    assert valid_name(name) is ok


def test_a_sentence_with_an_untranslated_fragment_stays_english() -> None:
    """'Only the GM can {doing}.' is never said half in German, half in English."""
    from bot.i18n import Phrase

    with speaking("de"):
        english = str(Phrase("Only the GM can {doing}.", "doing", "juggle the dice"))
        german = str(Phrase("Only the GM can {doing}.", "doing", "force an out-of-turn action"))
    assert english == "Only the GM can juggle the dice."
    assert german == "Nur die SL kann eine Aktion außerhalb des Zuges erzwingen."
