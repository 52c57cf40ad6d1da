"""Discord's limits on what a bot sends, answered with Discord's error bodies.

Only the limits a table bot can plausibly hit: message and embed lengths, counts of
embeds, fields, rows and buttons, select menus, duplicate custom ids, autocomplete choices.
"""

from __future__ import annotations

import re
from typing import Any

from bot.sandbox.records import (
    ACTION_ROW,
    BUTTON,
    COMPONENTS_V2,
    SELECT_TYPES,
    STRING_SELECT,
    walk_components,
)

Path = tuple[str | int, ...]

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024  # bytes per file, a server without boosts [Discord]
FILES_PER_MESSAGE = 10  # [Discord]


class FormErrors:
    """Collect field errors and build Discord's nested `errors` object."""

    def __init__(self) -> None:
        self.items: list[tuple[Path, str, str]] = []

    def add(self, path: Path, code: str, message: str) -> None:
        self.items.append((path, code, message))

    def max_length(self, path: Path, value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def body(self) -> dict[str, Any] | None:
        """Return the 400 body, or None when nothing was wrong."""
        if not self.items:
            return None
        errors: dict[str, Any] = {}
        for path, code, message in self.items:
            node = errors
            for part in path:
                node = node.setdefault(str(part), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return {"message": "Invalid Form Body", "code": 50035, "errors": errors}


def check_files(files: list[dict[str, Any]], limit: int) -> tuple[int, dict[str, Any]] | None:
    """Return Discord's status and body refusing uploaded files, or None if they may be sent."""
    if any(int(f.get("size", 0)) > limit for f in files):
        return 413, {"message": "Request entity too large", "code": 40005}
    if len(files) > FILES_PER_MESSAGE:
        errors = FormErrors()
        errors.add(("attachments",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        return 400, errors.body() or {}
    return None


def check_message(payload: dict[str, Any], *, creating: bool) -> dict[str, Any] | None:
    """Return Discord's 400 body for a message create/edit payload, or None if it is valid."""
    errors = FormErrors()
    content = payload.get("content")
    embeds = payload.get("embeds") or []
    components = payload.get("components") or []
    v2 = bool((payload.get("flags") or 0) & COMPONENTS_V2)
    errors.max_length(("content",), content, 2000)
    if len(embeds) > 10:
        errors.add(("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        total += _check_embed(errors, ("embeds", i), embed)
    if total > 6000:
        errors.add(
            ("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
        )
    _check_components(errors, components, v2=v2)
    body = errors.body()
    if body:
        return body
    if creating and not (
        content or embeds or components or payload.get("attachments") or payload.get("sticker_ids")
    ):
        return {"message": "Cannot send an empty message", "code": 50006}
    return None


def _check_embed(errors: FormErrors, path: Path, embed: dict[str, Any]) -> int:
    size = 0
    for key, limit in (("title", 256), ("description", 4096)):
        value = embed.get(key)
        errors.max_length((*path, key), value, limit)
        size += len(value or "")
    fields = embed.get("fields") or []
    if len(fields) > 25:
        errors.add((*path, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for j, f in enumerate(fields):
        for key, limit in (("name", 256), ("value", 1024)):
            value = f.get(key)
            if value is None or value == "":
                errors.add(
                    (*path, "fields", j, key), "BASE_TYPE_REQUIRED", "This field is required"
                )
            errors.max_length((*path, "fields", j, key), value, limit)
            size += len(value or "")
    footer = (embed.get("footer") or {}).get("text")
    errors.max_length((*path, "footer", "text"), footer, 2048)
    author = (embed.get("author") or {}).get("name")
    errors.max_length((*path, "author", "name"), author, 256)
    return size + len(footer or "") + len(author or "")


def _check_components(errors: FormErrors, components: list[dict[str, Any]], *, v2: bool) -> None:
    if not v2 and len(components) > 5:
        errors.add(("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    seen: set[str] = set()
    for i, row in enumerate(components):
        if not v2 and row.get("type") != ACTION_ROW:
            errors.add(
                ("components", i, "type"),
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (1,).',
            )
            continue
        children = row.get("components") or []
        if row.get("type") == ACTION_ROW and len(children) > 5:
            errors.add(
                ("components", i, "components"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 5 or fewer in length.",
            )
        for j, c in enumerate(children):
            errors.max_length(("components", i, "components", j, "label"), c.get("label"), 80)
            errors.max_length(
                ("components", i, "components", j, "custom_id"), c.get("custom_id"), 100
            )
            if c.get("type") in SELECT_TYPES:
                _check_select(errors, ("components", i, "components", j), c, len(children))
            if c.get("type") == BUTTON and not (
                c.get("custom_id") or c.get("url") or c.get("sku_id")
            ):
                errors.add(
                    ("components", i, "components", j, "custom_id"),
                    "BASE_TYPE_REQUIRED",
                    "This field is required",
                )
    for c in walk_components(components):
        custom_id = c.get("custom_id")
        if custom_id is None:
            continue
        if custom_id in seen:
            errors.add(
                ("components",),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(custom_id)


def _check_select(errors: FormErrors, path: Path, select: dict[str, Any], in_row: int) -> None:
    """A select fills its action row alone; 25 options at most; Discord's lengths and counts."""
    if in_row > 1:
        errors.add(
            path,
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    errors.max_length((*path, "placeholder"), select.get("placeholder"), 150)
    for bound in ("min_values", "max_values"):
        value = select.get(bound)
        if value is not None and not 0 <= value <= 25:
            errors.add(
                (*path, bound), "NUMBER_TYPE_MAX", "int value should be less than or equal to 25."
            )
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    if not 1 <= len(options) <= 25:
        errors.add(
            (*path, "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."
        )
    values = [o.get("value") for o in options]
    if len(set(values)) != len(values):
        errors.add(
            (*path, "options"),
            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
            "Component option values must be unique",
        )
    for k, option in enumerate(options):
        for name in ("label", "value", "description"):
            errors.max_length((*path, "options", k, name), option.get(name), 100)


def check_modal(modal: dict[str, Any]) -> dict[str, Any] | None:
    """Return Discord's 400 body for a modal (title, 1–5 rows, text inputs), or None."""
    errors = FormErrors()
    errors.max_length(("data", "title"), modal.get("title"), 45)
    errors.max_length(("data", "custom_id"), modal.get("custom_id"), 100)
    rows = modal.get("components") or []
    if not 1 <= len(rows) <= 5:
        errors.add(
            ("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    for i, row in enumerate(rows):
        for j, c in enumerate(row.get("components") or [row.get("component") or {}]):
            path = ("data", "components", i, "components", j)
            for key, limit in (("label", 45), ("placeholder", 100), ("value", 4000)):
                errors.max_length((*path, key), c.get(key), limit)
            if c.get("type") == 4 and not 1 <= len(c.get("label") or "x") <= 45:
                errors.add((*path, "label"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45.")
    return errors.body()


def check_choices(choices: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Return Discord's 400 body for an autocomplete result, or None if it is valid."""
    errors = FormErrors()
    if len(choices) > 25:
        errors.add(("data", "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for i, choice in enumerate(choices):
        name = choice.get("name")
        if not name:
            errors.add(
                ("data", "choices", i, "name"), "BASE_TYPE_REQUIRED", "This field is required"
            )
        errors.max_length(("data", "choices", i, "name"), name, 100)
        errors.max_length(("data", "choices", i, "value"), choice.get("value"), 100)
    return errors.body()


def check_commands(commands: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Return Discord's 400 body for a bulk command overwrite, or None if it is valid."""
    errors = FormErrors()
    if len(commands) > 100:
        errors.add((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    names: set[tuple[str, int]] = set()
    for i, cmd in enumerate(commands):
        key = (cmd.get("name", ""), cmd.get("type", 1))
        if key in names:
            errors.add(
                (i, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique",
            )
        names.add(key)
        _check_command(errors, (i,), cmd)
    return errors.body()


COMMAND_SIZE_LIMIT = 4000  # names, descriptions and choice values of one command [Discord]
CONTEXTS = {0, 1, 2}  # GUILD, BOT_DM, PRIVATE_CHANNEL
INTEGRATION_TYPES = {0, 1}  # GUILD_INSTALL, USER_INSTALL
# The locales Discord's clients speak: a localization under any other key is refused
# [Discord docs, Reference, "Locales"].
LOCALES = frozenset(
    "id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi tr cs "
    "el bg ru uk hi th zh-CN ja zh-TW ko".split()
)
# A chat command's or option's name, in any language [Discord docs, Application Command
# Naming: `^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$`, lowercase where a letter has one].
# Python's Unicode `\w` covers letters, digits, marks and `_`: Devanagari and Thai included.
NAME_RULE = re.compile(r"[-\w]{1,32}")


def _longest(node: dict[str, Any], field: str) -> int:
    """Return the longest of a field and its localizations: Discord counts only that one."""
    values = [node.get(field) or "", *(node.get(f"{field}_localizations") or {}).values()]
    return max(len(str(value or "")) for value in values)


def command_size(node: dict[str, Any]) -> int:
    """Count what Discord's 4,000-character limit counts: names, descriptions, choice values.

    With localizations, only the longest version of each field counts, the default
    included [Discord docs, Application Commands, "Slash Commands"].
    """
    size = _longest(node, "name") + _longest(node, "description")
    for choice in node.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size + sum(command_size(option) for option in node.get("options") or [])


def valid_name(name: object, *, chat: bool = True) -> bool:
    """Return whether Discord takes this as a command or option name (chat: lowercase too)."""
    return (
        isinstance(name, str)
        and NAME_RULE.fullmatch(name) is not None
        and (not chat or name == name.lower())
    )


def _check_localizations(
    errors: FormErrors, path: Path, node: dict[str, Any], *, chat: bool = True
) -> None:
    """Check a node's name and description localizations as Discord does its defaults."""
    for field in ("name", "description"):
        localizations = node.get(f"{field}_localizations")
        if localizations is None:
            continue
        where = (*path, f"{field}_localizations")
        if not isinstance(localizations, dict):
            errors.add(where, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        for locale, value in localizations.items():
            if locale not in LOCALES:
                errors.add((*where, locale), "LOCALE_INVALID", f'Invalid locale "{locale}"')
            elif field == "name" and not valid_name(value, chat=chat):
                errors.add(
                    (*where, locale),
                    "APPLICATION_COMMAND_INVALID_NAME",
                    "Command name is invalid",
                )
            elif field == "description" and not 1 <= len(str(value or "")) <= 100:
                errors.add(
                    (*where, locale),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                )


def _check_top_level(errors: FormErrors, path: Path, cmd: dict[str, Any]) -> None:
    """Check what only a top-level command has: where it is offered, and to whom."""
    for key, allowed in (("contexts", CONTEXTS), ("integration_types", INTEGRATION_TYPES)):
        values = cmd.get(key)
        if values is None:
            continue
        if not isinstance(values, list):
            errors.add(
                (*path, key), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType"
            )
            continue
        for k, value in enumerate(values):
            if value not in allowed:
                errors.add(
                    (*path, key, k),
                    "ENUM_TYPE_COERCE",
                    f'Value "{value}" is not a valid enum value.',
                )
    permissions = cmd.get("default_member_permissions")
    if permissions is not None and not (
        (isinstance(permissions, int) and not isinstance(permissions, bool) and permissions >= 0)
        or (isinstance(permissions, str) and permissions.isdigit())
    ):
        errors.add(
            (*path, "default_member_permissions"),
            "NUMBER_TYPE_COERCE",
            f'Value "{permissions}" is not snowflake.',
        )
    if command_size(cmd) > COMMAND_SIZE_LIMIT:
        errors.add(
            path,
            "APPLICATION_COMMAND_TOO_LARGE",
            f"Command exceeds maximum size ({COMMAND_SIZE_LIMIT})",
        )


def _check_option(errors: FormErrors, path: Path, option: dict[str, Any]) -> None:
    """Check an option's name, its description (Discord requires one) and its choices."""
    if not valid_name(option.get("name")):
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    if not 1 <= len(option.get("description") or "") <= 100:
        errors.add(
            (*path, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
        )
    _check_localizations(errors, path, option)
    for c, choice in enumerate(option.get("choices") or []):
        if not 1 <= len(str(choice.get("name") or "")) <= 100:
            errors.add(
                (*path, "choices", c, "name"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )
        for locale, value in (choice.get("name_localizations") or {}).items():
            where = (*path, "choices", c, "name_localizations", locale)
            if locale not in LOCALES:
                errors.add(where, "LOCALE_INVALID", f'Invalid locale "{locale}"')
            elif not 1 <= len(str(value or "")) <= 100:
                errors.add(where, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        errors.max_length((*path, "choices", c, "value"), choice.get("value"), 100)


def _check_command(errors: FormErrors, path: Path, cmd: dict[str, Any]) -> None:
    if len(path) == 1:
        _check_top_level(errors, path, cmd)
    name = cmd.get("name") or ""
    chat = cmd.get("type", 1) == 1
    if not name or len(name) > 32 or (chat and not valid_name(name)):
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    _check_localizations(errors, path, cmd, chat=chat)
    if cmd.get("type", 1) == 1 or "type" not in cmd:
        description = cmd.get("description") or ""
        if not 1 <= len(description) <= 100:
            errors.add(
                (*path, "description"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )
    options = cmd.get("options") or []
    if len(options) > 25:
        errors.add((*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    optional_seen = False
    for k, option in enumerate(options):
        if option.get("type") in (1, 2):
            _check_command(errors, (*path, "options", k), option | {"type": 1})
            continue
        if option.get("required"):
            if optional_seen:
                errors.add(
                    (*path, "options", k, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            optional_seen = True
        _check_option(errors, (*path, "options", k), option)
        if len(option.get("choices") or []) > 25:
            errors.add(
                (*path, "options", k, "choices"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 25 or fewer in length.",
            )
