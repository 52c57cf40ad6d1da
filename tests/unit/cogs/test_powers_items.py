"""The components of /power and /special: paging buttons and the "did you mean" menu.

Both keep their state in their custom_id (so they work after a restart) and must fit
Discord's limits: custom_ids of at most 100 characters, at most 25 menu options.
"""

from __future__ import annotations

import re

import discord
import pytest

from bot.catalogue import Lookup, load_catalogue
from bot.catalogue.views import all_entries, entry_id
from bot.render.powers import EntryPage
from bot.views import PersistentButton
from cogs.powers import EntryPageButton, EntryPick, component_view, pager_items

CATALOGUE = load_catalogue()
LOOKUP = Lookup(CATALOGUE)
IDS = [entry_id(entry) for entry in all_entries(CATALOGUE)]


def page(pages: int, at: int) -> EntryPage:
    """Return an EntryPage with an empty embed: only its page numbers matter to the pager."""
    return EntryPage(discord.Embed(), at, pages)


def buttons(items: list) -> list[tuple[str, bool, str]]:
    """Return each button's label, disabled flag and custom_id."""
    return [(b.item.label or "", b.item.disabled, b.custom_id) for b in items]


@pytest.mark.parametrize("ident", IDS)
def test_every_pager_id_fits_its_template(ident: str) -> None:
    """A page button's custom_id is too long for Discord or does not match its own template."""
    for level in (None, 16):
        for button in pager_items(ident, level, page(3, 1)):
            assert len(button.custom_id) <= 100
            match = re.fullmatch(EntryPageButton.__discord_ui_compiled_template__, button.custom_id)
            assert match and match["entry"] == ident


def test_the_pager_disables_its_ends_and_is_absent_for_one_page() -> None:
    """◀ is enabled on the first page, ▶ on the last, or a one-page entry got buttons."""
    assert pager_items("table:movement_types", None, page(1, 0)) == []
    assert component_view() is None
    assert buttons(pager_items("table:movement_types", None, page(2, 0))) == [
        ("◀", True, "th:page:table:movement_types:0:0:p"),
        ("▶", False, "th:page:table:movement_types:0:1:n"),
    ]
    assert buttons(pager_items("table:movement_types", 7, page(2, 1))) == [
        ("◀", False, "th:page:table:movement_types:7:0:p"),
        ("▶", True, "th:page:table:movement_types:7:1:n"),
    ]


def test_the_page_button_owns_its_handler() -> None:
    """The page button still routes through a cog handler named by strings (CogButton)."""
    assert issubclass(EntryPageButton, PersistentButton)
    assert EntryPageButton.pressed is not PersistentButton.pressed


def test_the_pick_menu_round_trips_through_its_custom_id() -> None:
    """A "did you mean" menu rebuilt from a message loses its level or options."""
    options = [discord.SelectOption(label="Movement: Leap", value="movement:leap")]
    menu = EntryPick("p", 12, options)
    assert menu.custom_id == "th:pick:p:12"
    component = discord.SelectMenu._raw_construct(
        custom_id=menu.custom_id, options=options, placeholder=None
    )
    again = EntryPick.from_message(component)
    assert (again.mode, again.arg, [o.value for o in again.item.options]) == (
        "p",
        12,
        ["movement:leap"],
    )


@pytest.mark.parametrize("query", ["tele", "teleprot", "instant aoe", "Design Rule", "Core Rule"])
def test_a_guess_menu_fits_discords_limits(query: str) -> None:
    """A guess offers more than 25 options, a label or value over 100 characters, or a repeat."""
    found = LOOKUP.match(query)
    assert found.guessed
    values = [entry_id(e) for e in found.alternatives]
    assert 1 <= len(values) <= 25 and len(set(values)) == len(values)
    assert all(
        len(v) <= 100 and len(LOOKUP.name_of(e)) <= 100
        for v, e in zip(values, found.alternatives, strict=True)
    )
