"""A fight's moment, and what a command sent at some instant was sent for."""

from __future__ import annotations

from bot.rules.models import Encounter
from bot.table import Moments, moment_of

CHANNEL = 7


def fight(**fields: object) -> Encounter:
    return Encounter(**{"channel_id": CHANNEL, "gm_id": 1, "order": [4, 9, 2], **fields})


def test_the_moment_names_the_turns_owner_not_its_place() -> None:
    """Two turns at the same place in the order (after a removal) had the same moment."""
    assert moment_of(fight(phase="initiative", turn=1)) == "1.ini.9.0"
    assert moment_of(fight(phase="initiative", turn=1, order=[4, 2])) == "1.ini.2.0"


def test_the_moment_tells_an_act_declaration_and_rounds_apart() -> None:
    """An /act, a phase or a new round did not change the moment."""
    assert moment_of(fight(phase="initiative", turn=0, acting_now=9)) == "1.ini.4.9"
    assert moment_of(fight()) == "1.dec.-.0"
    assert moment_of(fight(round=2)) == "2.dec.-.0"


def test_a_command_sent_before_the_moment_was_shown_was_sent_for_the_one_before() -> None:
    """A command sent before the new turn's announcement (or while it was on its way) counted."""
    moments = Moments()
    moments.began(CHANNEL, "1.ini.9.0")
    assert moments.sent_before(CHANNEL, "1.ini.9.0", 500)  # announcement on its way
    moments.announced(CHANNEL, "1.ini.9.0", 1000)
    moments.announced(CHANNEL, "1.ini.9.0", 2000)  # a later message of it: the first one counts
    assert moments.sent_before(CHANNEL, "1.ini.9.0", 999)
    assert not moments.sent_before(CHANNEL, "1.ini.9.0", 1001)


def test_only_the_current_moment_is_raced() -> None:
    """A moment the bot knows nothing of (older, or from before a restart) refused a command."""
    moments = Moments()
    assert not moments.sent_before(CHANNEL, "1.ini.9.0", 1)
    moments.began(CHANNEL, "1.ini.9.0")
    moments.began(CHANNEL, "1.ini.2.0")
    moments.announced(CHANNEL, "1.ini.9.0", 1000)  # late news of the older one: ignored
    assert moments.sent_before(CHANNEL, "1.ini.2.0", 5000)
    assert not moments.sent_before(CHANNEL, "1.ini.9.0", 1)
