"""The Mastery System SRD as a validated catalogue: data models, pricing and look-up.

Pure: no Discord, no database. The bot loads the catalogue once at start-up
(`load_catalogue`), builds one `Lookup`, and keeps both.

Languages: what the catalogue holds and derives (entries, rules, price lines, power
cards, broken rules' reasons) is the SRD's English for every reader, as the SRD asks
[001 §0.2], and it has no German text of its entries; the renderers put German labels
around it. The bot's own refusals are message ids, said in the reader's language.
"""

from bot.catalogue.build import PriceBreakdown, PricedComponent, price
from bot.catalogue.lookup import Choice, Lookup, Match, normalise
from bot.catalogue.models import Catalogue, CatalogueError, load_catalogue
from bot.catalogue.pricing import (
    CurveCheck,
    CurveTarget,
    MovementProgression,
    SpecialCost,
    curve_target,
    judge,
    movement_progression,
    pp_target,
    resolve_type,
    special_cost,
    special_cost_table,
)
from bot.catalogue.views import Entry, PowerEntryView, entry_view

__all__ = [
    "Catalogue",
    "CatalogueError",
    "Choice",
    "CurveCheck",
    "CurveTarget",
    "Entry",
    "Lookup",
    "Match",
    "MovementProgression",
    "PowerEntryView",
    "PriceBreakdown",
    "PricedComponent",
    "SpecialCost",
    "curve_target",
    "entry_view",
    "judge",
    "load_catalogue",
    "movement_progression",
    "normalise",
    "pp_target",
    "price",
    "resolve_type",
    "special_cost",
    "special_cost_table",
]
