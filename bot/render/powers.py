"""The SRD look-ups as embeds: catalogue entries, Specials, curve targets, prices and designs.

One renderer per thing: `entry_page` (an entry with one page of its table, and how
many pages there are), `special_embed`, `curve_embed`, `movement_embed`,
`price_embed`, `design_embed`, `excluded_embed` and `guess_line`. Every embed stays
within Discord's limits; the cog adds the ◀ / ▶ buttons and the "did you mean" menu.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import discord

from bot.catalogue import (
    CurveTarget,
    MovementProgression,
    PowerEntryView,
    PriceBreakdown,
    SpecialCost,
)
from bot.catalogue.design import PowerDesign
from bot.catalogue.models import Exclusion
from bot.catalogue.pricing import format_pp
from bot.catalogue.shapes import Violation
from bot.catalogue.views import LevelTableView, TableRow

# Discord's embed limits.
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FOOTER_LIMIT = 2048
FIELD_COUNT_LIMIT = 25
EMBED_LIMIT = 6000

CODE_WIDTH = 64  # wider tables are listed row by row instead of as a monospace grid
ROWS_PER_PAGE = 16  # a page never holds more rows than a full level table
FENCE = "```"

KIND_COLOURS = {
    "special": discord.Colour.purple(),
    "movement": discord.Colour.teal(),
    "active": discord.Colour.red(),
    "active_buff": discord.Colour.orange(),
    "reaction": discord.Colour.blue(),
    "passive": discord.Colour.green(),
    "power_type": discord.Colour.gold(),
    "rule": discord.Colour.greyple(),
    "table": discord.Colour.dark_grey(),
    "example": discord.Colour.dark_teal(),
}
VERDICT_COLOURS = {
    "on_curve": discord.Colour.green(),
    "under": discord.Colour.blue(),
    "over": discord.Colour.red(),
    "capstone": discord.Colour.gold(),
}
BROKEN_COLOUR = discord.Colour.dark_red()
QUERY_LIMIT = 60  # how much of a typed name an answer echoes
PRICE_COLOUR = discord.Colour.dark_grey()
_NUMBER = re.compile(r"^[+−-]?\d+(\.\d+)?$")


def clip(text: str, limit: int) -> str:
    """Cut text to a limit, ending in an ellipsis when something was cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def signed_pct(value: float) -> str:
    """Render a deviation in percent with its sign: '+25 %', '−8.1 %', '0 %'."""
    if value == 0:
        return "0 %"
    sign = "+" if value > 0 else "−"
    return f"{sign}{abs(value):g} %"


def _escape(text: str) -> str:
    return discord.utils.escape_markdown(text)


def _embed(title: str, description: str, colour: discord.Colour) -> discord.Embed:
    return discord.Embed(
        title=clip(title, TITLE_LIMIT),
        description=clip(description, DESCRIPTION_LIMIT) or None,
        colour=colour,
    )


def _field(embed: discord.Embed, name: str, value: str, *, inline: bool = False) -> None:
    if len(embed.fields) >= FIELD_COUNT_LIMIT or not value:
        return
    embed.add_field(
        name=clip(name, FIELD_NAME_LIMIT), value=clip(value, FIELD_VALUE_LIMIT), inline=inline
    )


def _footer(embed: discord.Embed, text: str) -> None:
    embed.set_footer(text=clip(text, FOOTER_LIMIT))


def _fit(embed: discord.Embed) -> discord.Embed:
    """Shorten the description so that the whole embed is within Discord's 6000 characters."""
    excess = len(embed) - EMBED_LIMIT
    if excess > 0 and embed.description:
        embed.description = clip(embed.description, max(1, len(embed.description) - excess))
    return embed


# ---------------------------------------------------------------- tables


def _grid(table: LevelTableView) -> list[str] | None:
    """Return the table as aligned monospace lines (header first), or None when too wide."""
    header = [table.header, *table.columns]
    rows = [[row.label, *row.cells] for row in table.rows]
    cells = [[cell.replace("`", "ˋ") for cell in line] for line in [header, *rows]]
    widths = [max(len(line[i]) for line in cells) for i in range(len(header))]
    if sum(widths) + 2 * (len(widths) - 1) > CODE_WIDTH:
        return None
    numeric = [
        i > 0 and all(_NUMBER.match(line[i]) for line in cells[1:]) for i in range(len(widths))
    ]
    lines = []
    for line in cells:
        parts = [
            cell.rjust(width) if right else cell.ljust(width)
            for cell, width, right in zip(line, widths, numeric, strict=True)
        ]
        lines.append("  ".join(parts).rstrip())
    return lines


def _listed(row: TableRow) -> str:
    cells = " · ".join(_escape(cell) for cell in row.cells if cell)
    return clip(f"**{_escape(row.label)}** — {cells}", FIELD_VALUE_LIMIT - 40)


def table_pages(table: LevelTableView) -> list[str]:
    """Split a table into field values of at most 1024 characters (and 16 rows) each."""
    note = f"\n*{_escape(table.note)}*" if table.note else ""
    grid = _grid(table)
    if grid is not None:
        head, lines = grid[0], grid[1:]
        overhead = len(FENCE) * 2 + len(head) + 3 + len(note)  # fences and newlines
    else:
        head, lines = "", [_listed(row) for row in table.rows]
        overhead = len(note)
    chunks: list[list[str]] = [[]]
    size = overhead
    for line in lines:
        if chunks[-1] and (
            size + len(line) + 1 > FIELD_VALUE_LIMIT or len(chunks[-1]) >= ROWS_PER_PAGE
        ):
            chunks.append([])
            size = overhead
        chunks[-1].append(line)
        size += len(line) + 1
    pages = []
    for chunk in chunks:
        body = "\n".join(chunk)
        value = f"{FENCE}\n{head}\n{body}\n{FENCE}" if grid is not None else body
        pages.append(clip(value + note, FIELD_VALUE_LIMIT))
    return pages


def _table_title(view: PowerEntryView, table: LevelTableView) -> str:
    if table.header == "X":
        return "Cost by X"
    if table.header == "Level":
        return f"Level {view.level}" if view.level is not None else "Level table"
    if table.header == "MR":
        return "By Mastery Rank"
    return " · ".join([table.header, *table.columns])


# ---------------------------------------------------------------- entries


@dataclass(frozen=True)
class EntryPage:
    """One page of an entry's embed, and how many pages its table has."""

    embed: discord.Embed
    page: int
    pages: int


def _entry_embed(view: PowerEntryView) -> discord.Embed:
    """Return an entry's embed without its table: what it does, its facts and its source."""
    parts = [_escape(view.summary)]
    if view.points:
        parts.append("\n".join(f"• {_escape(point)}" for point in view.points))
    if view.note:
        parts.append(f"*{_escape(view.note)}*")
    if view.see_also:
        parts.append("See also: " + ", ".join(view.see_also))
    embed = _embed(view.display_name, "\n\n".join(parts), KIND_COLOURS.get(view.kind, PRICE_COLOUR))
    if not any(fact.label == "Type" for fact in view.facts) and view.kind != "special":
        _field(embed, "Type", view.kind_label, inline=True)
    for fact in view.facts:
        _field(embed, fact.label, _escape(fact.value), inline=len(fact.value) <= 40)
    if view.category:
        _field(embed, "Category", _escape(view.category), inline=True)
    if view.tags:
        _field(embed, "Tags", ", ".join(view.tags), inline=True)
    if view.pricing:
        _field(embed, "Pricing", _escape(view.pricing), inline=len(view.pricing) <= 40)
    _footer(embed, f"SRD: {view.section}")
    return embed


def entry_page(view: PowerEntryView, page: int = 0) -> EntryPage:
    """Render an entry with one page of its level table (the page is clamped to the table)."""
    embed = _entry_embed(view)
    if view.table is None or not view.table.rows:
        return EntryPage(_fit(embed), 0, 1)
    pages = table_pages(view.table)
    page = max(0, min(page, len(pages) - 1))
    title = _table_title(view, view.table)
    if len(pages) > 1:
        title += f" (page {page + 1}/{len(pages)})"
    _field(embed, title, pages[page])
    return EntryPage(_fit(embed), page, len(pages))


def special_embed(view: PowerEntryView, cost: SpecialCost | None) -> discord.Embed:
    """Render a Special: its effect and facts, with its cost at X or its cost table 1–10.

    Without an X (`cost` None, or a Special that takes none) this is the entry itself:
    its X = 1–10 cost table, or its fixed price (or that it has none) under Pricing.
    """
    if cost is None or cost.x is None:
        return entry_page(view).embed
    embed = _entry_embed(view)
    embed.title = clip(f"{view.name}({cost.x})", TITLE_LIMIT)
    line = _escape(cost.formula)
    if cost.cost_pp is not None:
        line += f" = **{format_pp(cost.cost_pp)} PP**"
    _field(embed, f"Cost at X = {cost.x}", line)
    return _fit(embed)


# ---------------------------------------------------------------- /pp target


def curve_embed(target: CurveTarget) -> discord.Embed:
    """Render a power type's target PP at a level, with the tolerances that judge a build."""
    pp = target.target_pp
    tolerance = target.tolerance_pp
    charged = " (Charged)" if target.charged else ""
    embed = _embed(
        f"{target.type_name} · Level {target.level}{charged}",
        f"Target: **{format_pp(pp)} PP**",
        KIND_COLOURS.get(target.type, PRICE_COLOUR),
    )
    if target.charged:
        _field(
            embed,
            "Curve",
            f"{target.base_pp} PP + {format_pp(target.charged_bonus_pp)} PP Charged",
            inline=True,
        )
    _field(embed, "Per level", f"+{target.per_level_pp} PP", inline=True)
    _field(
        embed,
        "On curve",
        f"{format_pp(pp - tolerance)}–{format_pp(pp + tolerance)} PP",
        inline=True,
    )
    _field(
        embed,
        "Over curve",
        f"above {format_pp(pp + tolerance)} PP (more than {format_pp(tolerance)} PP over)",
        inline=True,
    )
    _field(
        embed,
        "Under curve",
        f"below {format_pp(pp - tolerance)} PP: allowed, the rest is unused PP",
        inline=True,
    )
    band, capstone = target.band_pct, target.capstone_band_pct
    _field(
        embed,
        "Design band",
        f"±{band:g} % = {format_pp(pp * (1 - band / 100))}–{format_pp(pp * (1 + band / 100))} PP; "
        f"capstones ±{capstone:g} %",
        inline=False,
    )
    _footer(embed, "SRD §2 target curves; over curve per §10.3, design band per §0.2")
    return embed


def movement_embed(progression: MovementProgression) -> discord.Embed:
    """Render a movement type's distance at a level, its cap and its whole progression."""
    title = f"Movement: {progression.name}"
    if progression.level is not None:
        title += f" · Level {progression.level}"
    lines = []
    if progression.at_level is not None:
        at = " · ".join(
            f"{row.label} **{cell}**"
            for row, cell in zip(progression.rows, progression.at_level, strict=True)
        )
        lines.append(f"At Level {progression.level}: {at}")
    lines.append("Movement has no PP curve: it is priced by movement quality and capped.")
    embed = _embed(title, "\n".join(lines), KIND_COLOURS["movement"])
    _field(embed, "Cap", _escape(progression.cap), inline=True)
    _field(embed, "Pricing", _escape(progression.pricing_logic), inline=True)
    _field(embed, "Path", _escape(progression.path_notes), inline=False)
    header = ["Level", *(row.label for row in progression.rows)]
    body = [
        [str(level), *(row.cells[level - 1] for row in progression.rows)]
        for level in range(1, len(progression.rows[0].cells) + 1)
    ]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    grid = []
    for line in [header, *body]:
        marker = "▶" if line[0] == str(progression.level) else " "
        grid.append(marker + " " + "  ".join(c.rjust(w) for c, w in zip(line, widths, strict=True)))
    _field(embed, "Progression", f"{FENCE}\n" + "\n".join(grid) + f"\n{FENCE}")
    if progression.note:
        _field(embed, "Note", _escape(progression.note))
    _footer(embed, "SRD: Movement Type Pricing and Caps; Movement Distance Progressions")
    return _fit(embed)


# ---------------------------------------------------------------- /pp price


def _component_line(name: str, value: str, cost_pp: float, rule: str) -> str:
    label = f"{name}:{value}" if value else name
    return f"`{label}` **{format_pp(cost_pp)} PP** — {_escape(rule)}"


def _no_type(breakdown: PriceBreakdown) -> list[str]:
    total = format_pp(breakdown.total_pp)
    lines = [f"**{total} PP** in all. Give a `type` (and `level`) to judge it against a curve."]
    if not breakdown.fits:
        lines.append(
            "No power type takes this build without breaking an SRD rule; give a `type` to see which."
        )
        return lines
    fits = ", ".join(
        f"{fit.type_name} Level {fit.level} ({format_pp(fit.total_pp)} of {format_pp(fit.target_pp)} PP)"
        for fit in breakdown.fits
    )
    charged = " (Charged targets)" if breakdown.charged else ""
    lines.append(f"Lowest level whose target holds it, priced as each type{charged}: {fits}.")
    return lines


def _verdict(breakdown: PriceBreakdown) -> list[str]:
    check = breakdown.check
    if check is None:
        return _no_type(breakdown)
    total = format_pp(breakdown.total_pp)
    charged = " (Charged)" if check.charged else ""
    against = f"{check.type_name} Level {check.level}{charged}"
    target = format_pp(check.target_pp)
    deviation = signed_pct(check.deviation_pct)
    over = format_pp(check.over_by_pp)
    if check.verdict == "over":
        line = (
            f"**Over curve** for {against}: {total} PP is {over} PP above the {target} PP target "
            f"({deviation}); over means more than {format_pp(check.tolerance_pp)} PP above."
        )
    elif check.verdict == "capstone":
        line = (
            f"**Capstone over curve** for {against}: {total} PP is {over} PP above the {target} PP "
            f"target ({deviation}), inside the ±{check.band_pct:g} % capstone band."
        )
    elif check.verdict == "under":
        line = (
            f"**Under curve** for {against}: {total} PP of {target} PP, "
            f"{format_pp(check.unused_pp)} PP unused ({deviation})."
        )
    else:
        line = f"**On curve** for {against}: {total} PP against {target} PP ({deviation})."
    lines = [line]
    if check.decided_by:
        lines.append(check.decided_by)
    else:
        band = "capstone band" if check.capstone else "design band"
        inside = "Within" if check.within_band else "Outside"
        lines.append(f"{inside} the ±{check.band_pct:g} % {band} too.")
    if breakdown.level_inferred:
        lines.append(
            f"Level {check.level} is the lowest whose target holds it; give `level` to judge "
            "another."
        )
    if breakdown.violations:
        count = len(breakdown.violations)
        lines.append(f"**Breaks {count} SRD rule{'s' * (count > 1)}** (below).")
    return lines


def _violation_line(violation: Violation) -> str:
    return (
        f"**{_escape(violation.rule)}** — {_escape(violation.reason)} "
        f"Instead: {_escape(violation.alternative)}."
    )


def _violations_field(embed: discord.Embed, violations: tuple[Violation, ...]) -> None:
    if not violations:
        return
    lines = [_violation_line(v) for v in violations]
    _field(embed, "SRD rules broken", clip("\n".join(lines), FIELD_VALUE_LIMIT))


def price_embed(breakdown: PriceBreakdown) -> discord.Embed:
    """Render a priced build: each component's cost and rule, the total and the verdict."""
    check = breakdown.check
    colour = VERDICT_COLOURS[check.verdict] if check else PRICE_COLOUR
    if breakdown.violations:
        colour = BROKEN_COLOUR
    embed = _embed(
        f"Build: {format_pp(breakdown.total_pp)} PP", "\n".join(_verdict(breakdown)), colour
    )
    lines = [_component_line(c.name, c.value, c.cost_pp, c.rule) for c in breakdown.components]
    chunks: list[list[str]] = [[]]
    for line in lines:
        if chunks[-1] and len("\n".join([*chunks[-1], line])) > FIELD_VALUE_LIMIT:
            chunks.append([])
        chunks[-1].append(line)
    budget = EMBED_LIMIT - len(embed) - 600  # room for the totals and the footer
    for index, chunk in enumerate(chunks):
        value = "\n".join(chunk)
        name = "Components" if index == 0 else "Components (continued)"
        if len(value) + len(name) > budget:
            left = sum(len(c) for c in chunks[index:])
            _field(embed, name, f"… and {left} more (counted in the total)")
            break
        _field(embed, name, value)
        budget -= len(value) + len(name)
    if breakdown.discount is not None:
        _field(
            embed,
            "Discount",
            f"{format_pp(breakdown.subtotal_pp)} PP × {breakdown.discount_multiplier:g} "
            f"({_escape(breakdown.discount)})",
            inline=True,
        )
    _field(embed, "Total", f"**{format_pp(breakdown.total_pp)} PP**", inline=True)
    if check is not None:
        _field(embed, "Target", f"{format_pp(check.target_pp)} PP", inline=True)
    flags = [
        name
        for name, on in (
            ("Charged", breakdown.charged),
            ("capstone", breakdown.capstone),
            ("persistent (lasting parts × 2)", breakdown.persistent),
        )
        if on
    ]
    if flags:
        _field(embed, "Flags", ", ".join(flags), inline=True)
    _violations_field(embed, breakdown.violations)
    _footer(embed, "Over curve = more than 5 PP above the target (SRD §10.3); band per §0.2")
    return _fit(embed)


# ---------------------------------------------------------------- guesses and exclusions


def quoted(query: str) -> str:
    """Echo what a user typed: shortened, escaped, inside quotes."""
    return f"'{_escape(clip(query.strip(), QUERY_LIMIT))}'"


def guess_line(query: str, shown: str, alternatives: int) -> str:
    """Say that a look-up is a guess: what was typed, what is shown, that others can be picked."""
    others = (
        f" Pick one of {alternatives} others below if you meant something else."
        if alternatives
        else ""
    )
    return f"No exact match for {quoted(query)}: showing **{_escape(shown)}**, a guess.{others}"


def excluded_embed(query: str, exclusion: Exclusion) -> discord.Embed:
    """Say that the SRD excludes a name (or Tablehand leaves a section out), and why."""
    who = "Excluded by the SRD" if exclusion.by == "srd" else "Not in Tablehand's catalogue"
    embed = _embed(
        f"{who}: {exclusion.name}", _escape(exclusion.reason), discord.Colour.light_grey()
    )
    if query.strip().casefold() != exclusion.name.casefold():
        _field(embed, "You looked up", quoted(query), inline=True)
    _footer(embed, f"SRD: {exclusion.section}")
    return _fit(embed)


# ---------------------------------------------------------------- /pp design


def _design_row(design: PowerDesign, index: int) -> str:
    row = design.rows[index]
    special = ", ".join(f"**{_escape(s)}**" for s in row.specials) or "—"
    cells = [design.type_name, row.range, row.aoe, row.duration]
    return (
        f"**L{row.level}** · "
        + " · ".join(_escape(c) for c in cells)
        + f" · {special} · {_escape(row.effect)}"
    )


def design_embed(design: PowerDesign) -> discord.Embed:
    """Render a designed Power as the SRD's card: title, flavour, power table, tooltip, checks."""
    flavour = f"*{_escape(design.flavour)}*" if design.flavour else "*(no flavour line)*"
    table = "\n".join(_design_row(design, i) for i in range(len(design.rows)))
    header = "Level · Type · Range · AoE · Duration · Special · Effect"
    colour = KIND_COLOURS.get(design.type, PRICE_COLOUR) if design.conforms else BROKEN_COLOUR
    embed = _embed(design.title, f"{flavour}\n\n{header}\n{table}", colour)
    _field(embed, "BASELINES", _lines(design.baselines))
    _field(embed, "CALCULATION", _lines(design.calculation))
    if design.notes:
        _field(embed, "NOTES", _lines(design.notes))
    verdict = "Conforms to the SRD." if design.conforms else _not_conforming(design)
    _field(embed, "SRD check", verdict)
    _footer(embed, 'SRD §8.2 power card; governance per §2, §9–§11; /power name:"Power Card"')
    return _fit(embed)


def _not_conforming(design: PowerDesign) -> str:
    over = [
        r.level
        for r in design.rows
        if r.breakdown and r.breakdown.check and r.breakdown.check.verdict == "over"
    ]
    parts = []
    if design.violations:
        count = len(design.violations)
        parts.append(f"breaks {count} SRD rule{'s' * (count > 1)}")
    if over:
        parts.append("over curve at Level " + ", ".join(map(str, over)))
    return "Does not conform: " + " and ".join(parts) + "."


def _lines(lines: tuple[str, ...]) -> str:
    return clip("\n".join(_escape(line) for line in lines), FIELD_VALUE_LIMIT)
