"""The project's exceptions: every message is safe to show a user, in one line.

This module imports nothing but the standard library, so `bot.rules` may use it
and stay pure.
"""

from __future__ import annotations


class TablehandError(Exception):
    """An error whose message is written for the user who caused it."""

    def __init__(self, message: str) -> None:
        # One line, always: the error handler sends it as-is, ephemerally.
        super().__init__(" ".join(message.split()))

    @property
    def message(self) -> str:
        return str(self)


class BadInput(TablehandError):
    """An option's value cannot be used (out of range, malformed, contradictory)."""


class DiceError(BadInput):
    """A dice expression is malformed or beyond the limits."""


class NotFound(TablehandError):
    """A named thing (combatant, character, power, Special) does not exist."""


class NoEncounter(NotFound):
    """The channel has no encounter running."""

    def __init__(
        self, message: str = "This channel has no encounter. Start one with /init start."
    ) -> None:
        super().__init__(message)


class NotAllowed(TablehandError):
    """The caller lacks the rights for this action."""


class RuleViolation(TablehandError):
    """The game's rules forbid this action right now (no actions left, Broken, wrong phase)."""


class StoreError(TablehandError):
    """The stored state cannot be read or written (corrupt row, newer schema)."""
