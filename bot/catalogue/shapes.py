"""The plain shapes of what look-ups show: tables, facts and the reference entries built from data."""

from typing import Literal

from pydantic import BaseModel, ConfigDict

from bot.i18n import Lazy

KIND_LABELS = {
    "special": "Special",
    "movement": "Movement",
    "active": "Active",
    "active_buff": "Active Buff",
    "reaction": "Reaction",
    "passive": "Passive",
    "power_type": "Power Type",
    "rule": "Rule",
    "table": "Table",
    "example": "Example",
}


def range_label(first: int, last: int) -> str:
    """Render a level or rank range: '4', '4–7'."""
    return str(first) if first == last else f"{first}–{last}"


class View(BaseModel):
    """Base for views: immutable data the cog renders."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class TableRow(View):
    """One row of a rendered table; `levels` is the level range it covers (if any)."""

    label: str
    cells: tuple[str, ...]
    levels: tuple[int, int] | None = None


class LevelTableView(View):
    """A table ready for an embed: a header for the first column, the other columns, rows."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    header: str
    columns: tuple[str, ...]
    rows: tuple[TableRow, ...]
    note: str | Lazy | None = None  # the bot's own sentence is said in the reader's language

    def pages(self, rows_per_page: int = 8) -> "tuple[LevelTableView, ...]":
        """Split the table into pages of at most `rows_per_page` rows."""
        size = max(1, rows_per_page)
        chunks = [self.rows[i : i + size] for i in range(0, len(self.rows), size)] or [()]
        return tuple(self.model_copy(update={"rows": chunk}) for chunk in chunks)


class Fact(View):
    """A labelled line of an entry: 'Start PP: 4', 'Cleanse/Dispel: Yes'."""

    label: str
    value: str


class ReferenceTable(View):
    """A look-up built from the data: an SRD table (Range, Spell Tiers…) or a worked example."""

    key: str
    kind: Literal["table", "example"] = "table"
    name: str
    aliases: tuple[str, ...] = ()
    summary: str
    table: LevelTableView
    facts: tuple[Fact, ...] = ()
    points: tuple[str, ...] = ()
    section: str
    note: str | None = None


class Violation(View):
    """An SRD rule a design breaks: the rule, why, and what would conform."""

    rule: str
    reason: str
    alternative: str
