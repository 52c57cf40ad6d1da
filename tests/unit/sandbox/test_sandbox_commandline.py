"""Typed slash commands: tokens, options, and interaction data from the synced schema."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.sandbox.commandline import (
    UsageError,
    build_command_data,
    command_specs,
    complete_command,
    find_command,
    parse_line,
    tokenize,
)
from bot.sandbox.world import Guild

SCHEMA = [
    {
        "id": "100",
        "name": "init",
        "description": "Encounters",
        "guild_id": "5",
        "options": [
            {
                "type": 1,
                "name": "start",
                "description": "Start",
                "options": [
                    {
                        "type": 3,
                        "name": "mode",
                        "description": "Mode",
                        "choices": [
                            {"name": "Fortune", "value": "fortune"},
                            {"name": "Finesse", "value": "finesse"},
                        ],
                    },
                ],
            },
            {
                "type": 1,
                "name": "add",
                "description": "Add",
                "options": [
                    {"type": 3, "name": "name", "description": "Name", "required": True},
                    {
                        "type": 4,
                        "name": "count",
                        "description": "Count",
                        "min_value": 1,
                        "max_value": 20,
                    },
                    {"type": 5, "name": "hidden", "description": "Hidden"},
                    {"type": 6, "name": "controller", "description": "Who"},
                ],
            },
        ],
    },
    {
        "id": "200",
        "name": "settings",
        "description": "Settings",
        "options": [
            {
                "type": 2,
                "name": "gm",
                "description": "GM",
                "options": [
                    {
                        "type": 1,
                        "name": "role",
                        "description": "Role",
                        "options": [
                            {"type": 8, "name": "role", "description": "r", "required": True}
                        ],
                    }
                ],
            }
        ],
    },
    {
        "id": "300",
        "name": "roll",
        "description": "Roll",
        "options": [
            {"type": 3, "name": "expression", "description": "e", "required": True},
            {"type": 7, "name": "where", "description": "w", "channel_types": [0]},
            {"type": 10, "name": "scale", "description": "s"},
            {"type": 11, "name": "file", "description": "f"},
            {
                "type": 4,
                "name": "difficulty",
                "description": "d",
                "choices": [{"name": "Fair (9)", "value": 9}, {"name": "Great (15)", "value": 15}],
            },
        ],
    },
]

SPECS = command_specs(SCHEMA)
GUILD = Guild()
GM = GUILD.member_named("gm")


def data_for(line: str, **kw: object) -> dict:
    parsed = parse_line(line)
    spec, words = find_command(SPECS, parsed.words)
    return build_command_data(spec, parsed.options | kw, guild=GUILD, invoker=GM, positional=words)


def test_quotes_keep_spaces_together() -> None:
    """name:"Cave Troll" is one option with a space in its value."""
    assert tokenize('/init add name:"Cave Troll" count:3') == [
        "/init",
        "add",
        "name:Cave Troll",
        "count:3",
    ]


def test_an_apostrophe_is_an_ordinary_character() -> None:
    """name:O'Brien needs no quoting."""
    assert parse_line("/init add name:O'Brien").options == {"name": "O'Brien"}


def test_unbalanced_quotes_are_reported() -> None:
    """An unclosed double quote is a usage error."""
    with pytest.raises(UsageError, match="unbalanced"):
        tokenize('/init add name:"Cave')


def test_words_after_an_option_continue_its_value() -> None:
    """As in Discord's option box, name:Cave Troll count:3 gives name 'Cave Troll'."""
    assert parse_line("/init add name:Cave Troll count:3").options == {
        "name": "Cave Troll",
        "count": "3",
    }


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=30))
def test_any_quoted_value_parses_back_to_itself(value: str) -> None:
    """A value written as name:"…" with \\ and \" escaped reads back unchanged."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    assert parse_line(f'/init add name:"{escaped}"').options["name"] == value


def test_the_specs_are_the_invocable_leaves() -> None:
    """Groups and subcommands flatten to full names."""
    assert [s.name for s in SPECS] == ["init add", "init start", "roll", "settings gm role"]


def test_a_subcommand_is_nested_under_its_group() -> None:
    """/init start mode:fortune nests the option under the subcommand, with data.guild_id."""
    data = data_for("/init start mode:fortune")
    assert data["id"] == "100" and data["guild_id"] == "5"
    assert data["options"] == [
        {"type": 1, "name": "start", "options": [{"name": "mode", "type": 3, "value": "fortune"}]}
    ]


def test_a_subcommand_group_nests_two_levels() -> None:
    """/settings gm role nests group then subcommand, and resolves the role."""
    data = data_for("/settings gm role role:GM")
    group = data["options"][0]
    assert (group["type"], group["name"]) == (2, "gm")
    assert group["options"][0]["options"][0]["value"] == str(GUILD.gm_role.id)
    assert str(GUILD.gm_role.id) in data["resolved"]["roles"]


def test_a_choice_may_be_typed_by_its_name() -> None:
    """mode:Finesse sends the choice's value."""
    assert data_for("/init start mode:Finesse")["options"][0]["options"][0]["value"] == "finesse"


@pytest.mark.parametrize("typed", ["Great", "great", "Great (15)", "15"])
def test_a_number_choice_may_be_typed_by_its_name_or_value(typed: str) -> None:
    """difficulty:Great (as the README writes it) did not send the choice's value 15."""
    options = data_for(f"/roll expression:1d20 difficulty:{typed}")["options"]
    assert {"name": "difficulty", "type": 4, "value": 15} in options


def test_a_value_outside_the_choices_is_refused() -> None:
    """mode:chaos is not one of the choices."""
    with pytest.raises(UsageError, match="mode must be one of: fortune, finesse"):
        data_for("/init start mode:chaos")


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("count:0", "between 1 and 20"),
        ("count:2.5", "whole number"),
        ("count:lots", "whole number"),
    ],
)
def test_a_bad_integer_is_refused(typed: str, message: str) -> None:
    """Integers are checked for form and range as Discord's client does."""
    with pytest.raises(UsageError, match=message):
        data_for(f"/init add name:Goblin {typed}")


def test_typed_values_are_converted() -> None:
    """Integers, booleans and numbers arrive as JSON numbers and booleans."""
    options = data_for("/init add name:Goblin count:3 hidden:yes")["options"][0]["options"]
    assert {o["name"]: o["value"] for o in options} == {
        "name": "Goblin",
        "count": 3,
        "hidden": True,
    }
    assert data_for("/roll expression:d20 scale:1.5")["options"][1]["value"] == 1.5


def test_a_user_option_carries_resolved_user_and_member() -> None:
    """controller:alice sends alice's id and her user and member in data.resolved."""
    alice = GUILD.member_named("alice")
    data = data_for("/init add name:Mira controller:@alice")
    resolved = data["resolved"]
    assert resolved["users"][str(alice.id)]["username"] == "alice"
    assert "roles" in resolved["members"][str(alice.id)]


def test_a_file_option_carries_the_uploaded_attachment_in_resolved() -> None:
    """file: sent no attachment id, or no attachment in data.resolved; a typed word was taken."""
    upload = {"id": "77", "filename": "sheet.json", "size": 2, "url": "http://127.0.0.1/a/77"}
    data = data_for("/roll expression:1d6", file=upload)
    assert {"name": "file", "type": 11, "value": "77"} in data["options"]
    assert data["resolved"]["attachments"] == {"77": upload}
    with pytest.raises(UsageError, match=r"takes a file uploaded with server\.host_file"):
        data_for("/roll expression:1d6 file:sheet.json")


def test_an_unknown_user_is_refused_with_the_members_listed() -> None:
    """controller:zed names the members one can use."""
    with pytest.raises(UsageError, match="members: gm, alice, bob, admin"):
        data_for("/init add name:Mira controller:zed")


def test_a_channel_option_respects_channel_types() -> None:
    """A text-only channel option refuses a thread."""
    assert data_for("/roll expression:d6 where:#table-2")["resolved"]["channels"]
    with pytest.raises(UsageError, match="cannot be #table-1-side"):
        data_for("/roll expression:d6 where:table-1-side")


def test_bare_words_fill_the_required_options() -> None:
    """/roll 2d6 fills the required expression."""
    assert data_for("/roll 2d6")["options"][0] == {"name": "expression", "type": 3, "value": "2d6"}


def test_a_missing_required_option_shows_the_usage() -> None:
    """/init add without a name names the option and the usage."""
    with pytest.raises(
        UsageError, match=r"needs name; usage: /init add name:<text> \[count:<integer>\]"
    ):
        data_for("/init add count:2")


def test_an_unknown_option_lists_the_real_ones() -> None:
    """A misspelt option lists the command's options."""
    with pytest.raises(UsageError, match="its options: name, count, hidden, controller"):
        data_for("/init add name:x cuont:2")


def test_an_unknown_command_suggests_close_ones() -> None:
    """/init strat suggests /init start."""
    with pytest.raises(UsageError, match="did you mean: /init start"):
        find_command(SPECS, ["init", "strat"])


def test_a_focused_option_is_sent_as_typed_text() -> None:
    """For autocomplete the focused option is raw text with focused: true, and required ones may be absent."""
    spec = next(s for s in SPECS if s.name == "init add")
    data = build_command_data(spec, {"count": "x"}, guild=GUILD, invoker=GM, focused="count")
    assert data["options"][0]["options"] == [
        {"name": "count", "type": 4, "value": "x", "focused": True}
    ]


def test_python_keyword_options_take_a_trailing_underscore() -> None:
    """expression_="d4" is the option expression (for names like `for`)."""
    spec = next(s for s in SPECS if s.name == "roll")
    data = build_command_data(spec, {"expression_": "d4"}, guild=GUILD, invoker=GM)
    assert data["options"][0]["value"] == "d4"


@pytest.mark.parametrize(
    ("typed", "word", "candidates"),
    [
        ("/in", "/in", ["/init add ", "/init start "]),
        ("/init st", "/init st", ["/init start "]),
        ("/init start ", "", ["mode:"]),
        ("/init start mode:f", "mode:f", ["mode:fortune", "mode:finesse"]),
        ("/init add name:Goblin h", "h", ["hidden:"]),
        ("/init add name:Goblin hidden:", "hidden:", ["hidden:true", "hidden:false"]),
        (
            "/init add name:Goblin controller:a",
            "controller:a",
            ["controller:alice", "controller:admin"],
        ),
        ("/init add name:Goblin count:", "count:", []),
    ],
)
def test_tab_completes_commands_options_and_values(
    typed: str, word: str, candidates: list[str]
) -> None:
    """Tab offered the wrong command names, option names, choices or people."""
    found = complete_command(typed, command_specs(SCHEMA), Guild())
    assert (found.word, sorted(found.candidates), found.ask) == (word, sorted(candidates), None)


def test_an_autocomplete_option_is_asked_of_the_bot() -> None:
    """An option the bot suggests for was completed locally instead of asking the bot."""
    schema = [{"id": "1", "name": "pick", "description": "Pick", "options": [
        {"type": 3, "name": "name", "description": "Name", "autocomplete": True},
        {"type": 4, "name": "times", "description": "Times"},
    ]}]  # fmt: skip
    found = complete_command('/pick times:2 name:"Cave T', command_specs(schema), Guild())
    assert found.word == 'name:"Cave T' and found.candidates == []
    assert found.ask is not None
    spec, option, typed, others = found.ask
    assert (spec.name, option["name"], typed, others) == ("pick", "name", "Cave T", {"times": "2"})
