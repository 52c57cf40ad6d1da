"""Discord's limits on what the bot sends, with Discord's error bodies."""

import pytest

from bot.sandbox.validate import check_choices, check_commands, check_message, command_size


def test_a_valid_message_passes() -> None:
    """Content, an embed and a row of buttons within limits is accepted."""
    payload = {
        "content": "hi",
        "embeds": [{"title": "t", "fields": [{"name": "a", "value": "b"}]}],
        "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "Next", "custom_id": "n"}]}
        ],
    }
    assert check_message(payload, creating=True) is None


def test_content_over_2000_characters_is_refused() -> None:
    """Too long content gets 50035 with the field path."""
    body = check_message({"content": "x" * 2001}, creating=True)
    assert body["code"] == 50035
    assert body["errors"]["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"


def test_an_empty_message_is_refused() -> None:
    """A message with nothing in it gets 50006."""
    assert check_message({"content": ""}, creating=True)["code"] == 50006


def test_an_edit_may_leave_content_out() -> None:
    """An edit with no fields is not an empty message."""
    assert check_message({}, creating=False) is None


def test_a_long_embed_field_is_refused_with_its_path() -> None:
    """A field value over 1024 characters names embeds.0.fields.0.value."""
    body = check_message(
        {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, creating=True
    )
    assert "_errors" in body["errors"]["embeds"]["0"]["fields"]["0"]["value"]


def test_duplicate_custom_ids_are_refused() -> None:
    """Two buttons with one custom_id are refused."""
    button = {"type": 2, "style": 1, "label": "A", "custom_id": "same"}
    payload = {"components": [{"type": 1, "components": [button, dict(button)]}]}
    assert check_message(payload, creating=True)["code"] == 50035


def test_six_buttons_in_a_row_are_refused() -> None:
    """An action row holds at most five buttons."""
    row = [{"type": 2, "style": 1, "label": str(i), "custom_id": str(i)} for i in range(6)]
    assert check_message({"components": [{"type": 1, "components": row}]}, creating=True)


def test_more_than_25_choices_are_refused() -> None:
    """Autocomplete answers at most 25 choices."""
    assert check_choices([{"name": str(i), "value": str(i)} for i in range(26)])


def test_a_required_option_after_an_optional_one_is_refused() -> None:
    """Command sync rejects required options placed after optional ones."""
    command = {
        "name": "x",
        "description": "d",
        "options": [
            {"type": 3, "name": "a", "description": "a"},
            {"type": 3, "name": "b", "description": "b", "required": True},
        ],
    }
    assert check_commands([command])["code"] == 50035


def _select(**fields: object) -> dict:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(3)]
    return {"type": 3, "custom_id": "menu", "options": options} | fields


def _row_errors(body: dict) -> dict:
    return body["errors"]["components"]["0"]["components"]["0"]


def test_a_select_menu_within_limits_passes() -> None:
    """A select menu with three options alone in its row is refused."""
    payload = {"content": "x", "components": [{"type": 1, "components": [_select()]}]}
    assert check_message(payload, creating=True) is None


def test_a_select_shares_no_row() -> None:
    """A select menu beside a button in one row is accepted, which Discord refuses."""
    button = {"type": 2, "style": 1, "label": "b", "custom_id": "b"}
    payload = {"components": [{"type": 1, "components": [_select(), button]}]}
    body = check_message(payload, creating=True)
    assert _row_errors(body)["_errors"][0]["code"] == "COMPONENT_LAYOUT_WIDTH_EXCEEDED"


def test_a_select_has_at_most_25_options() -> None:
    """A select menu with 26 options is accepted, which Discord refuses."""
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(26)]
    payload = {"components": [{"type": 1, "components": [_select(options=options)]}]}
    body = check_message(payload, creating=True)
    assert _row_errors(body)["options"]["_errors"][0]["code"] == "BASE_TYPE_BAD_LENGTH"


def test_select_option_lengths_and_duplicates_are_refused() -> None:
    """An option label over 100 characters or a repeated value is accepted."""
    options = [{"label": "l" * 101, "value": "same"}, {"label": "b", "value": "same"}]
    payload = {
        "components": [{"type": 1, "components": [_select(options=options, placeholder="p" * 151)]}]
    }
    errors = _row_errors(check_message(payload, creating=True))
    assert errors["options"]["0"]["label"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert errors["options"]["_errors"][0]["code"] == "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED"
    assert errors["placeholder"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"


def command(**extra: object) -> dict:
    option = {"type": 3, "name": "expression", "description": "What to roll", "required": True}
    return {"name": "roll", "description": "Roll dice", "options": [option], **extra}


def errors_of(body: dict | None) -> dict:
    assert body is not None and body["code"] == 50035, body
    return body["errors"]


def test_contexts_installs_and_default_permissions_are_accepted_as_discord_does() -> None:
    """Discord's own values for where, for whom and for which members were refused."""
    fine = command(contexts=[0, 1, 2], integration_types=[0, 1], default_member_permissions="32")
    assert check_commands([fine, command(name="init", default_member_permissions=32)]) is None
    assert (
        check_commands([command(contexts=None, integration_types=None, dm_permission=False)])
        is None
    )


def test_unknown_contexts_installs_or_permissions_are_refused() -> None:
    """A context or install type Discord does not know, or a non-numeric permission, passed."""
    errors = errors_of(
        check_commands(
            [command(contexts=[0, 3], integration_types=[2], default_member_permissions="x")]
        )
    )
    assert errors["0"]["contexts"]["1"]["_errors"][0]["code"] == "ENUM_TYPE_COERCE"
    assert errors["0"]["integration_types"]["0"]["_errors"][0]["code"] == "ENUM_TYPE_COERCE"
    assert errors["0"]["default_member_permissions"]["_errors"][0]["code"] == "NUMBER_TYPE_COERCE"


def test_an_option_without_a_description_is_refused() -> None:
    """Discord requires 1–100 characters of description on every option."""
    bad = command()
    bad["options"][0]["description"] = ""
    errors = errors_of(check_commands([bad]))
    assert (
        errors["0"]["options"]["0"]["description"]["_errors"][0]["code"] == "BASE_TYPE_BAD_LENGTH"
    )


def test_a_command_over_4000_characters_is_refused() -> None:
    """Names, descriptions and choice values of one command add up to at most 4,000."""
    options = [
        {"type": 3, "name": f"o{n}", "description": "d" * 100, "choices": []} for n in range(25)
    ]
    options[0]["choices"] = [{"name": "n" * 100, "value": "v" * 100} for _ in range(25)]
    big = {"name": "big", "description": "Too much", "options": options}
    # "big" + "Too much", the names o0…o24, their descriptions, 25 choice names and values
    assert command_size(big) == 3 + 8 + (10 * 2 + 15 * 3) + 25 * 100 + 25 * 200
    errors = errors_of(check_commands([big]))
    assert errors["0"]["_errors"][0]["code"] == "APPLICATION_COMMAND_TOO_LARGE"
    options[0]["choices"] = []
    assert check_commands([big]) is None


def _localized(**fields: object) -> dict:
    return {"name": "roll", "description": "Roll dice", "type": 1} | fields


def test_a_german_command_name_is_taken() -> None:
    """Lowercase letters with umlauts are a valid name in any language [Discord naming]."""
    command = _localized(
        name_localizations={"de": "würfeln"},
        description_localizations={"de": "Würfeln, z. B. 2d20"},
        options=[
            {
                "type": 3,
                "name": "expression",
                "description": "A dice expression",
                "name_localizations": {"de": "ausdruck"},
                "required": True,
            }
        ],
    )
    assert check_commands([command]) is None


@pytest.mark.parametrize("name", ["Würfeln", "zwei wörter", "x" * 33, "", "würfeln!"])
def test_a_localized_name_discord_refuses_is_refused(name: str) -> None:
    """Uppercase, spaces, punctuation, over 32 characters: the whole sync gets 50035."""
    body = check_commands([_localized(name_localizations={"de": name})])
    error = body["errors"]["0"]["name_localizations"]["de"]["_errors"][0]
    assert error["code"] == "APPLICATION_COMMAND_INVALID_NAME"


def test_a_localized_option_name_is_checked_too() -> None:
    """An option's German name follows the same rule as the command's."""
    option = {
        "type": 3,
        "name": "expression",
        "description": "d",
        "name_localizations": {"de": "Ausdruck"},
    }
    body = check_commands([_localized(options=[option])])
    assert "name_localizations" in body["errors"]["0"]["options"]["0"]


def test_a_localization_under_an_unknown_locale_is_refused() -> None:
    """Only Discord's locales may carry a localization (`de`, not `de-DE`)."""
    body = check_commands([_localized(name_localizations={"de-DE": "würfeln"})])
    assert (
        body["errors"]["0"]["name_localizations"]["de-DE"]["_errors"][0]["code"] == "LOCALE_INVALID"
    )


def test_a_localized_description_over_100_characters_is_refused() -> None:
    """Descriptions are 1 to 100 characters in every language."""
    body = check_commands([_localized(description_localizations={"de": "x" * 101})])
    assert "description_localizations" in body["errors"]["0"]


def test_a_localized_choice_name_over_100_characters_is_refused() -> None:
    """A choice's name is 1 to 100 characters in every language."""
    option = {
        "type": 3,
        "name": "time",
        "description": "d",
        "choices": [{"name": "half", "value": "half", "name_localizations": {"de": "x" * 101}}],
    }
    body = check_commands([_localized(options=[option])])
    assert "name_localizations" in body["errors"]["0"]["options"]["0"]["choices"]["0"]


def test_the_size_limit_counts_the_longest_version_of_each_field() -> None:
    """With localizations only the longest of each field counts toward 4,000 [Discord docs]."""
    command = _localized(
        name="roll",  # 4
        name_localizations={"de": "würfeln", "fr": "lancer"},  # 7 counts
        description="Roll dice",  # 9
        description_localizations={"de": "Würfeln mit Würfeln"},  # 19 counts
    )
    assert command_size(command) == 7 + 19


def test_localizations_can_push_a_command_over_4000_characters() -> None:
    """A command under the limit in English is refused when its German text is too long."""
    options = [
        {
            "type": 3,
            "name": f"o{i}",
            "description": "d" * 50,
            "description_localizations": {"de": "ä" * 100},
        }
        for i in range(25)
    ]
    choices = [{"name": f"c{i}", "value": "v" * 100} for i in range(25)]
    options[0]["choices"] = choices
    command = _localized(options=options)
    english = {
        **command,
        "options": [
            {k: v for k, v in o.items() if k != "description_localizations"} for o in options
        ],
    }
    assert command_size(english) <= 4000 < command_size(command)
    assert check_commands([english]) is None
    body = check_commands([command])
    assert body["errors"]["0"]["_errors"][0]["code"] == "APPLICATION_COMMAND_TOO_LARGE"
