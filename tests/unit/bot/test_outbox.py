"""What a command says is split to fit Discord's limits, never cut."""

from __future__ import annotations

from bot.outbox import CONTENT_LIMIT, split_text


def test_a_long_list_is_split_between_its_names() -> None:
    """A 100-name list was split inside a name ("Xyloquendar the | Unforgiving 57")."""
    names = [f"Xyloquendar the Unforgiving {n}" for n in range(1, 101)]
    text = "Added " + ", ".join(names) + "."
    pieces = split_text(text)
    assert len(pieces) >= 2 and all(len(piece) <= CONTENT_LIMIT for piece in pieces)
    assert all(piece.endswith((",", ".")) for piece in pieces)
    assert " ".join(pieces) == text


def test_a_line_without_commas_is_split_at_spaces() -> None:
    """A long line with no list in it was cut in the middle of a word."""
    text = "word " * 1000
    pieces = split_text(text)
    assert all(len(piece) <= CONTENT_LIMIT for piece in pieces)
    assert " ".join(pieces).split() == text.split()
