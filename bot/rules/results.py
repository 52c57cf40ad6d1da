"""Building blocks shared by the rules' result models."""

from pydantic import BaseModel, ConfigDict


class Result(BaseModel):
    """Base for what a rule returns: immutable data the cogs render and the store may log."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Modifier(Result):
    """One named number that went into a total: "Stealth +4", "Range +2", "Limbs −5"."""

    name: str
    value: int


def total_of(modifiers: list[Modifier] | tuple[Modifier, ...]) -> int:
    """Add up a list of modifiers."""
    return sum(m.value for m in modifiers)
