"""The project's exceptions: every message is safe to show a user, in one line.

This module imports nothing but the standard library, so `bot.rules` may use it
and stay pure.
"""

from __future__ import annotations

from collections.abc import Sequence


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


class Ambiguous(BadInput):
    """The caller must say which one: a name fits several, or none but some nearly.

    `choices` are the candidates' names; `option` is the command option a choice fills
    (None: the option the caller typed `typed` into); `notes` may describe a choice.
    Where the command can be run again, the caller gets a menu of the choices.
    """

    def __init__(
        self,
        message: str,
        choices: Sequence[str],
        *,
        option: str | None = None,
        typed: str | None = None,
        notes: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.choices = tuple(choices)
        self.option = option
        self.typed = typed
        self.notes = dict(notes or {})


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
