"""The SRD look-ups as embeds: catalogue entries, Specials, curve targets, prices and designs.

One renderer per thing: `entry_page` (an entry with one page of its table, and how
many pages there are), `special_embed`, `curve_embed`, `movement_embed`,
`price_embed`, `design_embed`, `excluded_embed` and `guess_line`. Every embed stays
within Discord's limits; the cog adds the ◀ / ▶ buttons and the "did you mean" menu.

Labels, headings and the bot's own sentences speak the reader's language; what the SRD
says (an entry's summary, its table, a rule's reason) is the SRD's English, which has no
German text, and its keywords (power types, tags, Specials, PP) stay English [001 §0.2].
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
from bot.i18n import N_, _, n_

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
# The catalogue's own labels and fixed values (bot.catalogue.views): translated when shown;
# a label the SRD's data gives (a reference table's) is shown as the SRD writes it.
LABELS = {
    "Type": N_("Type"),
    "Cap": N_("Cap"),
    "Path": N_("Path"),
    "Cost": N_("Cost"),
    "Per level": N_("Per level"),
    "Tags allowed": N_("Tags allowed"),
    "Group": N_("Group"),
    "Duration": N_("Duration"),
    "Cleanse/Dispel": N_("Cleanse/Dispel"),
    "Template group": N_("Template group"),
    "Minimum X": N_("Minimum X"),
    "Eligible for": N_("Eligible for"),
}
VALUES = {"Yes": N_("Yes"), "No": N_("No"), "not allowed": N_("not allowed"), "none": N_("none")}
# Kinds of look-up that are no SRD keyword: their name is the reader's.
KIND_WORDS = {
    "power_type": N_("Power Type"),
    "rule": N_("Rule"),
    "table": N_("Table"),
    "example": N_("Example"),
}
KIND_TITLES = {
    "power_type": N_("Power Type: {name}"),
    "rule": N_("Rule: {name}"),
    "table": N_("Table: {name}"),
    "example": N_("Example: {name}"),
}


def clip(text: str, limit: int) -> str:
    """Cut text to a limit, ending in an ellipsis when something was cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def signed_pct(value: float) -> str:
    """Render a deviation in percent with its sign: '+25 %', '−8.1 %', '0 %'."""
    if value == 0:
        return "0 %"
    sign = "+" if value > 0 else "−"
    return f"{sign}{abs(value):g} %"


def _label(label: str) -> str:
    """Return a fact's label in the reader's language (the SRD's own labels as written)."""
    known = LABELS.get(label)  # Charged and X are SRD keywords: as they are
    return _(known) if known else label


def _value(value: str) -> str:
    known = VALUES.get(value)
    return _(known) if known else value


def title_of(view: PowerEntryView) -> str:
    """Return an entry's title: 'Reaction: Armor' (a keyword), 'Regel: …' in German."""
    template = KIND_TITLES.get(view.kind)
    if template is None or view.display_name != f"{view.kind_label}: {view.name}":
        return view.display_name
    return _(template, name=view.name)


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
    # The row-label column is the bot's "Level" (or X, MR); the other columns are the SRD's.
    header = [_("Level") if table.header == "Level" else table.header, *table.columns]
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
    note = f"\n*{_escape(str(table.note))}*" if table.note else ""
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
        return _("Cost by X")
    if table.header == "Level":
        return _("Level {level}", level=view.level) if view.level is not None else _("Level table")
    if table.header == "MR":
        return _("By Mastery Rank")
    return " · ".join([table.header, *table.columns])  # the SRD's own column names


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
        parts.append(_("See also: {names}", names=", ".join(view.see_also)))
    colour = KIND_COLOURS.get(view.kind, PRICE_COLOUR)
    embed = _embed(title_of(view), "\n\n".join(parts), colour)
    if not any(fact.label == "Type" for fact in view.facts) and view.kind != "special":
        _field(embed, _("Type"), _kind_label(view), inline=True)
    for fact in view.facts:
        value = _value(fact.value)
        _field(embed, _label(fact.label), _escape(value), inline=len(value) <= 40)
    if view.category:
        _field(embed, _("Category"), _escape(view.category), inline=True)
    if view.tags:
        _field(embed, _("Tags"), ", ".join(view.tags), inline=True)
    if view.pricing:
        _field(embed, _("Pricing"), _escape(view.pricing), inline=len(view.pricing) <= 40)
    _footer(embed, _("SRD: {section}", section=view.section))
    return embed


def _kind_label(view: PowerEntryView) -> str:
    """Return the kind as the Type field says it: a power type as the SRD names it."""
    word = KIND_WORDS.get(view.kind)
    return _(word) if word else view.kind_label


def entry_page(view: PowerEntryView, page: int = 0) -> EntryPage:
    """Render an entry with one page of its level table (the page is clamped to the table)."""
    embed = _entry_embed(view)
    if view.table is None or not view.table.rows:
        return EntryPage(_fit(embed), 0, 1)
    pages = table_pages(view.table)
    page = max(0, min(page, len(pages) - 1))
    title = _table_title(view, view.table)
    if len(pages) > 1:
        title = _("{title} (page {page}/{pages})", title=title, page=page + 1, pages=len(pages))
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
    _field(embed, _("Cost at X = {x}", x=cost.x), line)
    return _fit(embed)


# ---------------------------------------------------------------- /pp target


def curve_embed(target: CurveTarget) -> discord.Embed:
    """Render a power type's target PP at a level, with the tolerances that judge a build."""
    pp = target.target_pp
    tolerance = target.tolerance_pp
    embed = _embed(
        _level_title(target.type_name, target.level, charged=target.charged),
        _("Target: **{pp} PP**", pp=format_pp(pp)),
        KIND_COLOURS.get(target.type, PRICE_COLOUR),
    )
    if target.charged:
        _field(
            embed,
            _("Curve"),
            _(
                "{base} PP + {bonus} PP Charged",
                base=target.base_pp,
                bonus=format_pp(target.charged_bonus_pp),
            ),
            inline=True,
        )
    _field(embed, _("Per level"), f"+{target.per_level_pp} PP", inline=True)
    low, high = format_pp(pp - tolerance), format_pp(pp + tolerance)
    _field(embed, _("On curve"), f"{low}–{high} PP", inline=True)
    _field(
        embed,
        _("Over curve"),
        _(
            "above {high} PP (more than {tolerance} PP over)",
            high=high,
            tolerance=format_pp(tolerance),
        ),
        inline=True,
    )
    _field(
        embed,
        _("Under curve"),
        _("below {low} PP: allowed, the rest is unused PP", low=low),
        inline=True,
    )
    band, capstone = target.band_pct, target.capstone_band_pct
    _field(
        embed,
        _("Design band"),
        _(
            "±{band} % = {low}–{high} PP; capstones ±{capstone} %",
            band=format(band, "g"),
            low=format_pp(pp * (1 - band / 100)),
            high=format_pp(pp * (1 + band / 100)),
            capstone=format(capstone, "g"),
        ),
        inline=False,
    )
    _footer(embed, _("SRD §2 target curves; over curve per §10.3, design band per §0.2"))
    return embed


def _level_title(type_name: str, level: int, *, charged: bool = False) -> str:
    """Return "Active · Level 3 (Charged)": the type as the SRD names it."""
    if charged:
        return _("{type} · Level {level} (Charged)", type=type_name, level=level)
    return _("{type} · Level {level}", type=type_name, level=level)


def _against(type_name: str, level: int, *, charged: bool = False) -> str:
    """Return "Active Level 3 (Charged)": the curve a verdict judges against."""
    if charged:
        return _("{type} Level {level} (Charged)", type=type_name, level=level)
    return _("{type} Level {level}", type=type_name, level=level)


def movement_embed(progression: MovementProgression) -> discord.Embed:
    """Render a movement type's distance at a level, its cap and its whole progression."""
    title = f"Movement: {progression.name}"  # a power type and a name: SRD keywords
    if progression.level is not None:
        title = _level_title(title, progression.level)
    lines = []
    if progression.at_level is not None:
        at = " · ".join(
            f"{row.label} **{cell}**"
            for row, cell in zip(progression.rows, progression.at_level, strict=True)
        )
        lines.append(_("At Level {level}: {distances}", level=progression.level, distances=at))
    lines.append(_("Movement has no PP curve: it is priced by movement quality and capped."))
    embed = _embed(title, "\n".join(lines), KIND_COLOURS["movement"])
    _field(embed, _("Cap"), _escape(progression.cap), inline=True)
    _field(embed, _("Pricing"), _escape(progression.pricing_logic), inline=True)
    _field(embed, _("Path"), _escape(progression.path_notes), inline=False)
    header = [_("Level"), *(row.label for row in progression.rows)]
    body = [
        [str(level), *(row.cells[level - 1] for row in progression.rows)]
        for level in range(1, len(progression.rows[0].cells) + 1)
    ]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    grid = []
    for line in [header, *body]:
        marker = "▶" if line[0] == str(progression.level) else " "
        grid.append(marker + " " + "  ".join(c.rjust(w) for c, w in zip(line, widths, strict=True)))
    _field(embed, _("Progression"), f"{FENCE}\n" + "\n".join(grid) + f"\n{FENCE}")
    if progression.note:
        _field(embed, _("Note"), _escape(progression.note))
    _footer(embed, _("SRD: Movement Type Pricing and Caps; Movement Distance Progressions"))
    return _fit(embed)


# ---------------------------------------------------------------- /pp price


def _component_line(name: str, value: str, cost_pp: float, rule: str) -> str:
    label = f"{name}:{value}" if value else name
    return f"`{label}` **{format_pp(cost_pp)} PP** — {_escape(rule)}"


def _no_type(breakdown: PriceBreakdown) -> list[str]:
    total = format_pp(breakdown.total_pp)
    lines = [
        _(
            "**{total} PP** in all. Give a `type` (and `level`) to judge it against a curve.",
            total=total,
        )
    ]
    if not breakdown.fits:
        lines.append(
            _(
                "No power type takes this build without breaking an SRD rule; give a `type` "
                "to see which."
            )
        )
        return lines
    fits = ", ".join(
        _(
            "{type} Level {level} ({total} of {target} PP)",
            type=fit.type_name,
            level=fit.level,
            total=format_pp(fit.total_pp),
            target=format_pp(fit.target_pp),
        )
        for fit in breakdown.fits
    )
    if breakdown.charged:
        lines.append(
            _(
                "Lowest level whose target holds it, priced as each type (Charged targets): "
                "{fits}.",
                fits=fits,
            )
        )
    else:
        lines.append(
            _("Lowest level whose target holds it, priced as each type: {fits}.", fits=fits)
        )
    return lines


def _verdict(breakdown: PriceBreakdown) -> list[str]:
    check = breakdown.check
    if check is None:
        return _no_type(breakdown)
    fields = {
        "against": _against(check.type_name, check.level, charged=check.charged),
        "total": format_pp(breakdown.total_pp),
        "target": format_pp(check.target_pp),
        "deviation": signed_pct(check.deviation_pct),
        "over": format_pp(check.over_by_pp),
    }
    if check.verdict == "over":
        line = _(
            "**Over curve** for {against}: {total} PP is {over} PP above the {target} PP target "
            "({deviation}); over means more than {tolerance} PP above.",
            tolerance=format_pp(check.tolerance_pp),
            **fields,
        )
    elif check.verdict == "capstone":
        line = _(
            "**Capstone over curve** for {against}: {total} PP is {over} PP above the {target} "
            "PP target ({deviation}), inside the ±{band} % capstone band.",
            band=format(check.band_pct, "g"),
            **fields,
        )
    elif check.verdict == "under":
        line = _(
            "**Under curve** for {against}: {total} PP of {target} PP, {unused} PP unused "
            "({deviation}).",
            unused=format_pp(check.unused_pp),
            **fields,
        )
    else:
        line = _(
            "**On curve** for {against}: {total} PP against {target} PP ({deviation}).", **fields
        )
    lines = [line]
    if check.decided_by:
        lines.append(check.decided_by)
    else:
        lines.append(_band_line(check.capstone, check.within_band, check.band_pct))
    if breakdown.level_inferred:
        lines.append(
            _(
                "Level {level} is the lowest whose target holds it; give `level` to judge another.",
                level=check.level,
            )
        )
    if breakdown.violations:
        lines.append(
            n_(
                "**Breaks {n} SRD rule** (below).",
                "**Breaks {n} SRD rules** (below).",
                len(breakdown.violations),
            )
        )
    return lines


def _band_line(capstone: bool, within: bool, band_pct: float) -> str:
    band = f"{band_pct:g}"
    if capstone:
        if within:
            return _("Within the ±{band} % capstone band too.", band=band)
        return _("Outside the ±{band} % capstone band too.", band=band)
    if within:
        return _("Within the ±{band} % design band too.", band=band)
    return _("Outside the ±{band} % design band too.", band=band)


def _violation_line(violation: Violation) -> str:
    return _(
        "**{rule}** — {reason} Instead: {alternative}.",
        rule=_escape(violation.rule),
        reason=_escape(violation.reason),
        alternative=_escape(violation.alternative),
    )


def _violations_field(embed: discord.Embed, violations: tuple[Violation, ...]) -> None:
    if not violations:
        return
    lines = [_violation_line(v) for v in violations]
    _field(embed, _("SRD rules broken"), clip("\n".join(lines), FIELD_VALUE_LIMIT))


def price_embed(breakdown: PriceBreakdown) -> discord.Embed:
    """Render a priced build: each component's cost and rule, the total and the verdict."""
    check = breakdown.check
    colour = VERDICT_COLOURS[check.verdict] if check else PRICE_COLOUR
    if breakdown.violations:
        colour = BROKEN_COLOUR
    embed = _embed(
        _("Build: {total} PP", total=format_pp(breakdown.total_pp)),
        "\n".join(_verdict(breakdown)),
        colour,
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
        name = _("Components") if index == 0 else _("Components (continued)")
        if len(value) + len(name) > budget:
            left = sum(len(c) for c in chunks[index:])
            _field(
                embed,
                name,
                n_(
                    "… and {n} more (counted in the total)",
                    "… and {n} more (counted in the total)",
                    left,
                ),
            )
            break
        _field(embed, name, value)
        budget -= len(value) + len(name)
    if breakdown.discount is not None:
        _field(
            embed,
            _("Discount"),
            f"{format_pp(breakdown.subtotal_pp)} PP × {breakdown.discount_multiplier:g} "
            f"({_escape(breakdown.discount)})",
            inline=True,
        )
    _field(embed, _("Total"), f"**{format_pp(breakdown.total_pp)} PP**", inline=True)
    if check is not None:
        _field(embed, _("Target"), f"{format_pp(check.target_pp)} PP", inline=True)
    flags = [
        name
        for name, on in (
            ("Charged", breakdown.charged),  # an SRD tag [001 §0.2]
            (_("capstone"), breakdown.capstone),
            (_("persistent (lasting parts × 2)"), breakdown.persistent),
        )
        if on
    ]
    if flags:
        _field(embed, _("Flags"), ", ".join(flags), inline=True)
    _violations_field(embed, breakdown.violations)
    _footer(embed, _("Over curve = more than 5 PP above the target (SRD §10.3); band per §0.2"))
    return _fit(embed)


# ---------------------------------------------------------------- guesses and exclusions


def quoted(query: str) -> str:
    """Echo what a user typed: shortened, escaped, inside quotes."""
    return f"'{_escape(clip(query.strip(), QUERY_LIMIT))}'"


def guess_line(query: str, shown: str, alternatives: int) -> str:
    """Say that a look-up is a guess: what was typed, what is shown, that others can be picked."""
    if alternatives:
        return n_(
            "No exact match for {query}: showing **{shown}**, a guess. Pick the other one "
            "below if you meant something else.",
            "No exact match for {query}: showing **{shown}**, a guess. Pick one of {n} others "
            "below if you meant something else.",
            alternatives,
            query=quoted(query),
            shown=_escape(shown),
        )
    return _(
        "No exact match for {query}: showing **{shown}**, a guess.",
        query=quoted(query),
        shown=_escape(shown),
    )


def excluded_embed(query: str, exclusion: Exclusion) -> discord.Embed:
    """Say that the SRD excludes a name (or Tablehand leaves a section out), and why."""
    if exclusion.by == "srd":
        title = _("Excluded by the SRD: {name}", name=exclusion.name)
    else:
        title = _("Not in Tablehand's catalogue: {name}", name=exclusion.name)
    embed = _embed(title, _escape(exclusion.reason), discord.Colour.light_grey())
    if query.strip().casefold() != exclusion.name.casefold():
        _field(embed, _("You looked up"), quoted(query), inline=True)
    _footer(embed, _("SRD: {section}", section=exclusion.section))
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
    flavour = f"*{_escape(design.flavour)}*" if design.flavour else _("*(no flavour line)*")
    table = "\n".join(_design_row(design, i) for i in range(len(design.rows)))
    # The SRD's power card keeps its English table head [001 §0.2, §8.2].
    header = "Level · Type · Range · AoE · Duration · Special · Effect"
    colour = KIND_COLOURS.get(design.type, PRICE_COLOUR) if design.conforms else BROKEN_COLOUR
    embed = _embed(design.title, f"{flavour}\n\n{header}\n{table}", colour)
    _field(embed, "BASELINES", _lines(design.baselines))
    _field(embed, "CALCULATION", _lines(design.calculation))
    if design.notes:
        _field(embed, "NOTES", _lines(design.notes))
    verdict = _("Conforms to the SRD.") if design.conforms else _not_conforming(design)
    _field(embed, _("SRD check"), verdict)
    _footer(embed, _('SRD §8.2 power card; governance per §2, §9–§11; /power name:"Power Card"'))
    return _fit(embed)


def _not_conforming(design: PowerDesign) -> str:
    over = [
        r.level
        for r in design.rows
        if r.breakdown and r.breakdown.check and r.breakdown.check.verdict == "over"
    ]
    count = len(design.violations)
    levels = ", ".join(map(str, over))
    if count and over:
        return n_(
            "Does not conform: breaks {n} SRD rule and over curve at Level {levels}.",
            "Does not conform: breaks {n} SRD rules and over curve at Level {levels}.",
            count,
            levels=levels,
        )
    if count:
        return n_(
            "Does not conform: breaks {n} SRD rule.",
            "Does not conform: breaks {n} SRD rules.",
            count,
        )
    return _("Does not conform: over curve at Level {levels}.", levels=levels)


def _lines(lines: tuple[str, ...]) -> str:
    return clip("\n".join(_escape(line) for line in lines), FIELD_VALUE_LIMIT)
