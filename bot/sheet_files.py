"""Sheets that travel: a character as a JSON file (/character export) and back (/character import).

The file holds the sheet — name, stats, injuries, loadout (`bot.rules.models.Sheet`, so
whatever a sheet gains later travels too) — and a format tag and version, so that a file
from another program, or a later Tablehand, is refused in one clear line rather than
read wrongly. Who owns it and where is not in the file: the importer's server and
player are.
"""

import re
from typing import Any, Literal

from pydantic import Field, ValidationError

from bot.errors import BadInput
from bot.i18n import L_, N_, Lazy
from bot.rules.loadout import check_loadout
from bot.rules.models import MAX_NAME_LENGTH, Character, Model, Sheet
from bot.rules.names import clean_name

FORMAT = "tablehand-sheet"
VERSION = 1
MAX_FILE_BYTES = 64 * 1024  # a sheet is a few kilobytes; more is not one [bot]
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
# Pydantic's own words for what is wrong with a file, by its error type: the message ids
# are pydantic's English, so English readers read what they always did and German ones
# read German; a problem of another type is said as pydantic says it.
PROBLEMS = {
    "missing": N_("Field required"),
    "json_invalid": N_("Invalid JSON: {error}"),
    "literal_error": N_("Input should be {expected}"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_type": N_("Input should be a valid integer"),
    "string_type": N_("Input should be a valid string"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
}


class TravellingSheet(Sheet):
    """A sheet as a file carries it: the sheet, and the injuries it has taken [002]."""

    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    injuries: int = Field(default=0, ge=0, le=999)


class SheetFile(Model):
    """The whole file: what it is, its version, and the sheet."""

    format: Literal["tablehand-sheet"]
    version: Literal[1]
    sheet: TravellingSheet


def sheet_file(character: Character) -> bytes:
    """Return a character's sheet as the file /character export attaches."""
    sheet = TravellingSheet.model_validate(
        character.model_dump(include={*TravellingSheet.model_fields})
    )
    return SheetFile(format=FORMAT, version=VERSION, sheet=sheet).model_dump_json(indent=2).encode()


def file_name(name: str) -> str:
    """Return a safe file name for a character's sheet: `Brom.tablehand.json`."""
    stem = _UNSAFE.sub("_", name).strip("_") or "character"
    return f"{stem}.tablehand.json"


def read_sheet_file(content: bytes) -> dict[str, Any]:
    """Return the sheet fields a file holds, or refuse it in one line saying what is wrong."""
    try:
        loaded = SheetFile.model_validate_json(content)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"])
        if where:
            raise BadInput(
                "That file is not a Tablehand sheet ({where}: {problem}).",
                where=where,
                problem=_problem(problem),
            ) from None
        raise BadInput(
            "That file is not a Tablehand sheet ({problem}).", problem=_problem(problem)
        ) from None
    sheet = loaded.sheet
    if sheet.grit > sheet.max_grit:
        raise BadInput(
            "That sheet's Grit {grit} is above its max_grit {max_grit}.",
            grit=sheet.grit,
            max_grit=sheet.max_grit,
        )
    check_loadout(list(sheet.items))
    fields = sheet.model_dump()
    fields["name"] = clean_name(sheet.name)
    if not fields["name"]:
        raise BadInput("That sheet's name is empty.")
    return fields


def _problem(problem: Any) -> str | Lazy:
    """Return what pydantic found wrong, in the reader's language where the catalogue has it."""
    message = PROBLEMS.get(problem["type"])
    if message is None:
        return str(problem["msg"])
    return L_(message, **{k: str(v) for k, v in (problem.get("ctx") or {}).items()})
