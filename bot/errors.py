"""The project's exceptions: every message is safe to show a user, in one line.

A message is an English message id with named placeholders, rendered when it is shown:
`raise RuleViolation("{name} is Broken and cannot act.", name=combatant.name)` reaches
its user in their language, however deep in the rules it was raised (the error handler
renders it in the language of the user who caused it). This module imports nothing but
the standard library and `bot.i18n`, so `bot.rules` may use it and stay pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import N_, Lazy, _


class TablehandError(Exception):
    """An error whose message is written for the user who caused it."""

    def __init__(self, message: str | Lazy, /, **fields: Any) -> None:
        self.template = message
        self.fields = fields
        super().__init__(message)

    @property
    def message(self) -> str:
        """Return the message in the language spoken now, in one line."""
        if isinstance(self.template, Lazy):
            text = str(self.template)
        else:
            text = _(self.template, **self.fields)
        # One line, always: the error handler sends it as-is, ephemerally.
        return " ".join(text.split())

    def __str__(self) -> str:
        return self.message


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
        message: str | Lazy,
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


NO_ENCOUNTER = N_("This channel has no encounter. Start one with /init start.")


class NoEncounter(NotFound):
    """The channel has no encounter running."""

    def __init__(self, message: str | Lazy = NO_ENCOUNTER, /, **fields: Any) -> None:
        super().__init__(message, **fields)


class NotAllowed(TablehandError):
    """The caller lacks the rights for this action."""


class RuleViolation(TablehandError):
    """The game's rules forbid this action right now (no actions left, Broken, wrong phase)."""


TABLE_BUSY = N_(
    "The table was busy with other commands for too long: yours changed nothing. Send it again."
)


class TableBusy(TablehandError):
    """The channel stayed busy with other commands for longer than Discord waits for an answer."""

    def __init__(self) -> None:
        super().__init__(TABLE_BUSY)


class StoreError(TablehandError):
    """The stored state cannot be read or written (corrupt row, newer schema)."""
