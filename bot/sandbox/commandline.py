"""Slash commands typed as text, resolved against the commands the bot synced.

`/init add name:"Cave Troll" count:3` is split into words and `key:value` options;
the words pick the command (`init add`), and each value is checked and converted
with the synced option's type, choices and limits, as Discord's client would do
before sending the interaction. Users, roles and channels are named (`alice`,
`@GM`, `#table-2`) and become ids plus `data.resolved`.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from bot.sandbox.world import Channel, Guild, Member, Role

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
)
TYPE_NAMES = {
    STRING: "text",
    INTEGER: "integer",
    BOOLEAN: "true/false",
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "user or role",
    NUMBER: "number",
    ATTACHMENT: "file",
}
TRUE_WORDS = {"true", "yes", "y", "on", "1"}
FALSE_WORDS = {"false", "no", "n", "off", "0"}


class UsageError(ValueError):
    """The typed command cannot be sent: unknown command or option, or a bad value."""


@dataclass
class ParsedLine:
    """A typed line: bare words in order, then `key:value` options in order."""

    words: list[str] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)


def tokenize(line: str) -> list[str]:
    """Split on spaces outside double quotes; quotes may start anywhere (`name:"Cave Troll"`).

    Single quotes are ordinary characters, so `name:O'Brien` works.
    """
    tokens: list[str] = []
    current: list[str] = []
    in_quotes = False
    started = False
    i = 0
    while i < len(line):
        ch = line[i]
        if in_quotes:
            if ch == "\\" and i + 1 < len(line) and line[i + 1] in '"\\':
                current.append(line[i + 1])
                i += 1
            elif ch == '"':
                in_quotes = False
            else:
                current.append(ch)
        elif ch == '"':
            in_quotes = started = True
        elif ch.isspace():
            if started:
                tokens.append("".join(current))
                current, started = [], False
        else:
            current.append(ch)
            started = True
        i += 1
    if in_quotes:
        raise UsageError('unbalanced " in the command')
    if started:
        tokens.append("".join(current))
    return tokens


def _is_option(token: str) -> bool:
    key, sep, _ = token.partition(":")
    return (
        bool(sep)
        and bool(key)
        and key.replace("_", "").replace("-", "").isalnum()
        and key[0].isalpha()
    )


def parse_line(line: str) -> ParsedLine:
    """Parse `/group sub word key:value key:"two words"` (the leading slash is optional).

    Bare words after an option continue its value, so `name:Cave Troll count:3` works too.
    """
    line = line.strip()
    if line.startswith("/"):
        line = line[1:]
    parsed = ParsedLine()
    for token in tokenize(line):
        if _is_option(token):
            key, _, value = token.partition(":")
            key = key.lower()
            if key in parsed.options:
                raise UsageError(f"option {key} is given twice")
            parsed.options[key] = value
        elif parsed.options:
            # As in Discord's option box, text runs on until the next option: name:Cave Troll
            last = next(reversed(parsed.options))
            parsed.options[last] = f"{parsed.options[last]} {token}"
        else:
            parsed.words.append(token)
    if not parsed.words:
        raise UsageError("type a command after the slash, e.g. /init start")
    return parsed


@dataclass
class CommandSpec:
    """One invocable slash command (a leaf: a command or a subcommand) from the synced schema."""

    path: tuple[str, ...]
    root: dict[str, Any]
    node: dict[str, Any]

    @property
    def name(self) -> str:
        return " ".join(self.path)

    @property
    def options(self) -> list[dict[str, Any]]:
        return [o for o in self.node.get("options") or [] if o.get("type") not in (1, 2)]

    @property
    def description(self) -> str:
        return self.node.get("description", "")

    def shown_path(self, locale: str | None) -> tuple[str, ...]:
        """Return the command's words as Discord's client shows them in this locale."""
        if locale is None:
            return self.path
        node = self.root
        names = [localized(node, "name", locale)]
        for name in self.path[1:]:
            node = next(o for o in node.get("options") or [] if o["name"] == name)
            names.append(localized(node, "name", locale))
        return tuple(names)

    def option(self, name: str, locale: str | None = None) -> dict[str, Any]:
        """Return the option of this name (or the name the client shows in `locale`)."""
        for option in self.options:
            if option["name"] == name:
                return option
        for option in self.options:
            if locale is not None and localized(option, "name", locale) == name:
                return option
        names = ", ".join(o["name"] for o in self.options) or "none"
        raise UsageError(f"/{self.name} has no option {name!r}; its options: {names}")

    def usage(self) -> str:
        """Return `/init add name:<text> [count:<integer>] …` with choices spelled out."""
        parts = [f"/{self.name}"]
        for o in self.options:
            kind = "|".join(str(c["value"]) for c in o.get("choices") or []) or TYPE_NAMES.get(
                o["type"], "?"
            )
            part = f"{o['name']}:<{kind}>"
            parts.append(part if o.get("required") else f"[{part}]")
        return " ".join(parts)


def command_specs(commands: list[dict[str, Any]]) -> list[CommandSpec]:
    """Flatten synced chat-input commands into their invocable leaves, sorted by name."""
    specs: list[CommandSpec] = []
    for root in commands:
        if root.get("type", 1) != 1:
            continue
        subs = [
            o
            for o in root.get("options") or []
            if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
        ]
        if not subs:
            specs.append(CommandSpec((root["name"],), root, root))
        for sub in subs:
            if sub["type"] == SUB_COMMAND:
                specs.append(CommandSpec((root["name"], sub["name"]), root, sub))
            else:
                for leaf in sub.get("options") or []:
                    specs.append(CommandSpec((root["name"], sub["name"], leaf["name"]), root, leaf))
    return sorted(specs, key=lambda s: s.path)


# Discord's client shows a missing localization of one English the other's [Discord docs,
# Application Commands, "Locale fallbacks"].
LOCALE_FALLBACKS = {"en-US": "en-GB", "en-GB": "en-US", "es-419": "es-ES"}


def localized(node: dict[str, Any], field: str, locale: str | None) -> str:
    """Return a name or description as Discord's client shows it to a user of this locale."""
    default = str(node.get(field) or "")
    if locale is None:
        return default
    found = node.get(f"{field}_localizations") or {}
    for key in (locale, LOCALE_FALLBACKS.get(locale)):
        if key is not None and found.get(key):
            return str(found[key])
    return default


def find_command(
    specs: list[CommandSpec], words: list[str], locale: str | None = None
) -> tuple[CommandSpec, list[str]]:
    """Pick the command named by the leading words (as shown in `locale`); return it and the rest.

    Discord's client offers each user the command names of their language: a German
    user types `/würfeln`, and the interaction carries the registered name `roll`. The
    registered names work too (scripts and Tab completion name commands by them).
    """
    lowered = [w.lower() for w in words]
    for spec in sorted(specs, key=lambda s: -len(s.path)):
        n = len(spec.path)
        if tuple(lowered[:n]) in (spec.shown_path(locale), spec.path):
            return spec, words[n:]
    typed = " ".join(lowered[:3])
    names = [" ".join(s.shown_path(locale)) for s in specs]
    close = difflib.get_close_matches(typed, names, n=3, cutoff=0.5)
    group = [
        " ".join(s.shown_path(locale))
        for s in specs
        if s.shown_path(locale)[0] == (lowered[0] if lowered else "")
    ]
    hint = close or group
    if hint:
        raise UsageError(f"no command /{typed}; did you mean: " + ", ".join(f"/{h}" for h in hint))
    raise UsageError(f"no command /{typed}; type :help to list the commands")


@dataclass
class Resolved:
    """`data.resolved` as Discord builds it for user, role, channel and file options."""

    users: dict[str, Any] = field(default_factory=dict)
    members: dict[str, Any] = field(default_factory=dict)
    roles: dict[str, Any] = field(default_factory=dict)
    channels: dict[str, Any] = field(default_factory=dict)
    attachments: dict[str, Any] = field(default_factory=dict)

    def payload(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if v}


class OptionConverter:
    """Turn typed or Python values into option payloads, checking what Discord's client checks."""

    def __init__(self, guild: Guild, invoker: Member) -> None:
        self.guild = guild
        self.invoker = invoker
        self.resolved = Resolved()

    def convert(
        self, option: dict[str, Any], value: Any, *, focused: bool = False
    ) -> dict[str, Any]:
        """Return `{"name", "type", "value"}` for one option (a focused one stays raw text)."""
        kind = option["type"]
        name = option["name"]
        if focused:
            return {
                "name": name,
                "type": kind,
                "value": "" if value is None else str(value),
                "focused": True,
            }
        converted = self._value(option, value)
        return {"name": name, "type": kind, "value": converted}

    def _value(self, option: dict[str, Any], value: Any) -> Any:
        kind, name = option["type"], option["name"]
        if kind == STRING:
            text = str(value)
            text = self._choice(option, text, str)
            low, high = option.get("min_length"), option.get("max_length")
            if (low is not None and len(text) < low) or (high is not None and len(text) > high):
                raise UsageError(f"{name} must be {low or 0} to {high or 6000} characters long")
            return text
        if kind in (INTEGER, NUMBER):
            picked = self._picked(option, value, self.invoker.user.locale)
            if picked is not None:
                return picked
            number = self._number(name, value, integer=kind == INTEGER)
            number = self._choice(option, number, type(number))
            low, high = option.get("min_value"), option.get("max_value")
            if (low is not None and number < low) or (high is not None and number > high):
                bounds = (
                    f"between {low} and {high}"
                    if low is not None and high is not None
                    else (f"at least {low}" if low is not None else f"at most {high}")
                )
                raise UsageError(f"{name} must be {bounds}, not {number}")
            return number
        if kind == BOOLEAN:
            if isinstance(value, bool):
                return value
            word = str(value).strip().lower()
            if word in TRUE_WORDS:
                return True
            if word in FALSE_WORDS:
                return False
            raise UsageError(f"{name} must be true or false, not {value!r}")
        if kind == USER:
            return str(self._user(name, value).id)
        if kind == ROLE:
            return str(self._role(name, value).id)
        if kind == MENTIONABLE:
            try:
                return str(self._user(name, value).id)
            except UsageError:
                return str(self._role(name, value).id)
        if kind == CHANNEL:
            channel = self._channel(name, value)
            allowed = option.get("channel_types")
            if allowed and channel.type not in allowed:
                raise UsageError(f"{name} cannot be #{channel.name}")
            return str(channel.id)
        if kind == ATTACHMENT:
            # A file the user uploaded: the server's attachment object (`server.host_file`).
            if not isinstance(value, dict) or "id" not in value or "url" not in value:
                raise UsageError(f"{name} takes a file uploaded with server.host_file()")
            self.resolved.attachments[str(value["id"])] = value
            return str(value["id"])
        raise UsageError(
            f"option {name} ({TYPE_NAMES.get(kind, kind)}) is not supported by the sandbox"
        )

    @staticmethod
    def _number(name: str, value: Any, *, integer: bool) -> int | float:
        if isinstance(value, bool):
            raise UsageError(f"{name} must be a number, not {value!r}")
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise UsageError(
                f"{name} must be {'a whole number' if integer else 'a number'}, not {value!r}"
            ) from None
        if integer:
            if not number.is_integer():
                raise UsageError(f"{name} must be a whole number, not {value!r}")
            return int(number)
        return number

    @staticmethod
    def _picked(option: dict[str, Any], value: Any, locale: str | None = None) -> Any:
        """Return the choice a typed name picks, as Discord's picker would, or None.

        The picker filters choices as you type, so a unique start of a name picks it:
        `difficulty:Fair` picks "Fair (9)".
        """
        typed = str(value).strip().lower()
        if not typed or not option.get("choices"):
            return None
        names = [(str(c["name"]).lower(), c["value"]) for c in option["choices"]]
        if locale is not None:  # the picker lists the names of the user's language
            names = [(localized(c, "name", locale).lower(), c["value"]) for c in option["choices"]]
        exact = [v for n, v in names if n == typed]
        starts = [v for n, v in names if n.startswith(typed)]
        found = exact or starts
        return found[0] if len(found) == 1 else None

    @staticmethod
    def _choice(option: dict[str, Any], value: Any, kind: type) -> Any:
        choices = option.get("choices")
        if not choices:
            return value
        for c in choices:
            if c["value"] == value:
                return c["value"]
        for c in choices:
            if (
                str(c["name"]).lower() == str(value).lower()
                or str(c["value"]).lower() == str(value).lower()
            ):
                return c["value"]
        listed = ", ".join(str(c["value"]) for c in choices)
        raise UsageError(f"{option['name']} must be one of: {listed} (not {value!r})")

    @staticmethod
    def _id(value: str, prefixes: tuple[str, ...]) -> int | None:
        text = value.strip()
        for p in prefixes:
            if text.startswith(p) and text.endswith(">"):
                text = text[len(p) : -1]
        return int(text) if text.isdigit() else None

    def _user(self, name: str, value: Any) -> Member:
        member = getattr(value, "member", value)
        if not isinstance(member, Member):
            text = str(member)
            member_id = self._id(text, ("<@!", "<@"))
            found = (
                self.guild.members.get(member_id) if member_id else self.guild.member_named(text)
            )
            if found is None:
                people = ", ".join(m.name for m in self.guild.people())
                raise UsageError(f"{name}: no member {text!r} (members: {people})")
            member = found
        key = str(member.id)
        self.resolved.users[key] = member.user.payload()
        self.resolved.members[key] = member.payload(with_user=False) | {
            "permissions": str(self.guild.base_permissions(member))
        }
        return member

    def _role(self, name: str, value: Any) -> Role:
        role = value
        if not isinstance(role, Role):
            text = str(value)
            role_id = self._id(text, ("<@&",))
            found = self.guild.roles.get(role_id) if role_id else self.guild.role_named(text)
            if found is None:
                roles = ", ".join(r.name for r in self.guild.roles.values())
                raise UsageError(f"{name}: no role {text!r} (roles: {roles})")
            role = found
        self.resolved.roles[str(role.id)] = role.payload()
        return role

    def _channel(self, name: str, value: Any) -> Channel:
        channel = getattr(value, "channel", value)
        if not isinstance(channel, Channel):
            text = str(channel)
            channel_id = self._id(text, ("<#",))
            found = (
                self.guild.channels.get(channel_id)
                if channel_id
                else self.guild.channel_named(text)
            )
            if found is None:
                names = ", ".join(c.name for c in self.guild.channels.values() if c.type != 4)
                raise UsageError(f"{name}: no channel {text!r} (channels: {names})")
            channel = found
        self.resolved.channels[str(channel.id)] = self.guild.channel_payload_for(
            self.invoker, channel
        )
        return channel


def build_command_data(
    spec: CommandSpec,
    values: dict[str, Any],
    *,
    guild: Guild,
    invoker: Member,
    positional: list[str] | None = None,
    focused: str | None = None,
) -> dict[str, Any]:
    """Return the interaction `data` for a command with these option values.

    Bare words fill the required options, then the optional ones, in the schema's order.
    With `focused`, that option is sent as typed text for an autocomplete request.
    """
    locale = invoker.user.locale
    values = {
        spec.option(k.rstrip("_").lower(), locale)["name"]: v
        for k, v in values.items()
        if v is not None
    }
    if focused is not None:
        focused = spec.option(focused, locale)["name"]
    for word in positional or []:
        free = [o for o in spec.options if o["name"] not in values]
        free.sort(key=lambda o: not o.get("required"))
        if not free:
            raise UsageError(f"/{spec.name} takes no more options; extra word {word!r}")
        values[free[0]["name"]] = word
    converter = OptionConverter(guild, invoker)
    options: list[dict[str, Any]] = []
    for key, value in values.items():
        option = spec.option(key)
        options.append(converter.convert(option, value, focused=key == focused))
    if focused is not None and focused not in values:
        options.append(converter.convert(spec.option(focused), "", focused=True))
    if focused is None:
        missing = [o["name"] for o in spec.options if o.get("required") and o["name"] not in values]
        if missing:
            raise UsageError(f"/{spec.name} needs {', '.join(missing)}; usage: {spec.usage()}")
    nested: list[dict[str, Any]] = options
    if len(spec.path) == 3:
        nested = [
            {
                "type": SUB_COMMAND_GROUP,
                "name": spec.path[1],
                "options": [{"type": SUB_COMMAND, "name": spec.path[2], "options": options}],
            }
        ]
    elif len(spec.path) == 2:
        nested = [{"type": SUB_COMMAND, "name": spec.path[1], "options": options}]
    data: dict[str, Any] = {
        "id": spec.root["id"],
        "name": spec.root["name"],
        "type": 1,
        "options": nested,
    }
    if spec.root.get("guild_id"):
        data["guild_id"] = spec.root["guild_id"]
    resolved = converter.resolved.payload()
    if resolved:
        data["resolved"] = resolved
    return data


# Completion --------------------------------------------------------------------------------


@dataclass
class Completing:
    """What Tab completes: the word before the cursor and its candidates (whole replacements).

    `ask` names an autocomplete option whose suggestions only the bot knows: (the command,
    the option, what was typed, the other options so far).
    """

    word: str
    candidates: list[str] = field(default_factory=list)
    ask: tuple[CommandSpec, dict[str, Any], str, dict[str, str]] | None = None


def quoted(value: str) -> str:
    """Return a value as the command line reads it back: quoted when it has spaces."""
    return f'"{value}"' if any(ch.isspace() for ch in value) or not value else value


def _last_word(text: str) -> str:
    """Return the text after the last space outside double quotes."""
    in_quotes, start = False, 0
    for i, ch in enumerate(text):
        if ch == '"':
            in_quotes = not in_quotes
        elif ch.isspace() and not in_quotes:
            start = i + 1
    return text[start:]


def _names_for(option: dict[str, Any], guild: Guild) -> list[str]:
    """Return what a user, role, channel, boolean or choice option may be set to."""
    kind = option["type"]
    if option.get("choices"):
        return [str(c["value"]) for c in option["choices"]]
    if kind == BOOLEAN:
        return ["true", "false"]
    if kind in (USER, MENTIONABLE):
        return [m.name for m in guild.people()]
    if kind == ROLE:
        return [r.name for r in guild.roles.values() if r.id != guild.id]
    if kind == CHANNEL:
        return [c.name for c in guild.channels.values() if c.type != 4]
    return []


def complete_command(text: str, specs: list[CommandSpec], guild: Guild) -> Completing:
    """Complete a slash command typed so far: its name, an option name, or an option's value."""
    typed_words = text.lstrip("/").split()
    spec = None
    for candidate in sorted(specs, key=lambda s: -len(s.path)):
        n = len(candidate.path)
        if [w.lower() for w in typed_words[:n]] == list(candidate.path) and (
            len(typed_words) > n or text.endswith(" ")
        ):
            spec = candidate
            break
    if spec is None:  # still naming the command: complete the whole line so far
        names = [f"/{s.name} " for s in specs]
        return Completing(text, [n for n in names if n.startswith("/" + text.lstrip("/"))])
    word = _last_word(text)
    key, colon, value = word.partition(":")
    if not colon:
        given = set(parse_line(text[: len(text) - len(word)] or "/x").options)
        names = [f"{o['name']}:" for o in spec.options if o["name"] not in given]
        return Completing(word, [n for n in names if n.startswith(word.lower())])
    try:
        option = spec.option(key.lower())
    except UsageError:
        return Completing(word)
    value = value.strip('"')
    if option.get("autocomplete"):
        try:
            others = parse_line(text[: len(text) - len(word)] or "/x").options
        except UsageError:
            others = {}
        return Completing(word, ask=(spec, option, value, others))
    values = [v for v in _names_for(option, guild) if v.lower().startswith(value.lower())]
    return Completing(word, [f"{key}:{quoted(v)}" for v in values])
