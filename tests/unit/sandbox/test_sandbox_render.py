"""Plain-text rendering of messages for the terminal and for test failures."""

from datetime import UTC, datetime

import pytest

from bot.sandbox.records import CHANNEL_PINNED_MESSAGE, EPHEMERAL, LOADING, StoredMessage
from bot.sandbox.render import plain, render_message
from bot.sandbox.world import Guild

GUILD = Guild()
BOT = GUILD.bot_user
ALICE = GUILD.member_named("alice")


def message(**kw: object) -> StoredMessage:
    return StoredMessage(id=1 << 40, channel_id=1, guild_id=GUILD.id, author=BOT, **kw)


def names(kind: str, id: int) -> str | None:
    member = GUILD.members.get(id)
    return member.name if kind == "user" and member else None


def button(label: str, custom_id: str, **kw: object) -> dict:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id, **kw}


def test_content_embed_and_numbered_buttons() -> None:
    """A tracker renders its embed lines and its buttons numbered from 1."""
    msg = message(
        embeds=[
            {
                "title": "Round 1",
                "description": "Declaration",
                "fields": [{"name": "Goblin", "value": "Grit 30"}],
                "footer": {"text": "GM: gm"},
            }
        ],
        components=[
            {"type": 1, "components": [button("Next", "n"), button("Wait", "w", disabled=True)]}
        ],
    )
    assert render_message(msg) == (
        "Tablehand\n"
        "  | ** Round 1 **\n"
        "  | Declaration\n"
        "  | Goblin: Grit 30\n"
        "  | -- GM: gm\n"
        "  [1 Next] [2 Wait (off)]"
    )


def test_an_ephemeral_reply_says_only_you_can_see_it() -> None:
    """Ephemeral messages are marked for the reader."""
    text = render_message(message(content="No encounter.", flags=EPHEMERAL))
    assert text.splitlines()[0] == "Tablehand (only you can see this)"


def test_mentions_show_names() -> None:
    """<@id> renders as @name."""
    text = render_message(message(content=f"<@{ALICE.id}> acts"), names=names)
    assert "@alice acts" in text


def test_a_thinking_message_says_so() -> None:
    """A deferred response shows that the bot is thinking."""
    assert "Tablehand is thinking..." in render_message(message(flags=LOADING))


def test_a_pin_notice_is_one_line() -> None:
    """Discord's "pinned a message" notice renders as a single line."""
    assert (
        render_message(message(type=CHANNEL_PINNED_MESSAGE))
        == "* Tablehand pinned a message to this channel."
    )


def test_buttons_are_numbered_across_rows_and_containers() -> None:
    """Numbering continues across action rows and components-v2 containers."""
    msg = message(
        components=[
            {"type": 1, "components": [button("A", "a")]},
            {
                "type": 17,
                "components": [
                    {"type": 10, "content": "Inside"},
                    {"type": 1, "components": [button("B", "b")]},
                ],
            },
        ]
    )
    assert render_message(msg).splitlines()[1:] == ["  [1 A]", "  | Inside", "  | [2 B]"]
    assert [b["label"] for b in msg.buttons] == ["A", "B"]
    assert msg.find_button(2)["custom_id"] == "b"
    assert msg.find_button("a")["label"] == "A"


def test_markdown_is_dropped_for_the_terminal() -> None:
    """Bold, italics and code ticks show as plain words; arithmetic stars stay."""
    text = render_message(message(content="Mode **fortune**, *compact*; roll `2d6` = 2*3"))
    assert text.splitlines()[1] == "  Mode fortune, compact; roll 2d6 = 2*3"


NOW = datetime(2026, 11, 29, 18, 55, 0, tzinfo=UTC)
AT = int(NOW.timestamp())


@pytest.mark.parametrize(
    ("style", "shown"),
    [
        ("t", "18:55"),
        ("T", "18:55:00"),
        ("d", "29/11/2026"),
        ("D", "29 November 2026"),
        (None, "29 November 2026 18:55"),
        ("f", "29 November 2026 18:55"),
        ("F", "Sunday, 29 November 2026 18:55"),
        ("S", "29/11/2026 18:55:00"),
    ],
)
def test_timestamps_show_as_discord_shows_them(style: str | None, shown: str) -> None:
    """<t:…:style> did not read as Discord's English (UK) 24-hour format."""
    tag = f"<t:{AT}>" if style is None else f"<t:{AT}:{style}>"
    assert plain(f"until {tag}.", now=NOW) == f"until {shown}."


@pytest.mark.parametrize(
    ("offset", "shown"),
    [(45, "in 45 seconds"), (60, "in 1 minute"), (-7200, "2 hours ago"), (3 * 86400, "in 3 days")],
)
def test_relative_timestamps_count_from_now(offset: int, shown: str) -> None:
    """<t:…:R> did not say how far from now the moment is."""
    assert plain(f"<t:{AT + offset}:R>", now=NOW) == shown


def test_dropped_dice_are_struck_through_and_mentions_read_as_commands() -> None:
    """d20's ~~dropped~~ dice lost their strike, or a command mention showed its id."""
    text = plain("4d6kh3 (2, 5, 5, ~~2~~) = `12`; see </init next:123> and </roll:9>")
    assert text == "4d6kh3 (2, 5, 5, 2\u0336) = 12; see /init next and /roll"
