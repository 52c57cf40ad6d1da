"""A whole fight in German: everything the table and each player reads, with no English left.

The done-criterion of issue 23: a German server whose players' clients speak German
plays a fight from the sheets to the log file, and every message, embed, button, private
reply and file of it is German (the glossary's English keywords aside). The transcript
goes through `tests.e2e.english`, which knows every English text of the catalogue.
"""

from __future__ import annotations

import pytest

from bot.sandbox.client import InteractionResult, SandboxTable, SandboxUser
from bot.sandbox.records import StoredMessage
from tests.e2e.english import english_in
from tests.e2e.helpers import script
from tests.scripted import d8, d12, d20

pytestmark = pytest.mark.e2e

BOLT = '"damage:1d8 range:16 ruin:2"'  # 37 PP: Active L2 (60) [001]
# What the players typed and the SRD keywords the glossary keeps English.
TYPED = ("Mira", "Goblin", "Bolt", "Langschwert", "Kettenhemd", "Ruin", "Active", "Spell")


def shown(table: SandboxTable, message: StoredMessage) -> str:
    """Return what a message shows a reader: text, embeds, buttons, menus and files."""
    texts = [message.content]
    for embed in message.embeds:
        texts += [(embed.get(k) or {}).get("text", "") for k in ("author", "footer")]
        texts += [embed.get("title") or "", embed.get("description") or ""]
        texts += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in embed.get("fields", [])]
    for row in message.components:
        for item in row.get("components", []):
            texts += [item.get("label") or "", item.get("placeholder") or ""]
            texts += [o.get("label", "") for o in item.get("options", [])]
    for attachment in message.attachments:
        texts.append(table.server.attachment_bodies[attachment["id"]].decode())
    return "\n".join(t for t in texts if t)


class Transcript:
    """Everything anyone at the table read, including what was later edited away."""

    def __init__(self, table: SandboxTable) -> None:
        self.table = table
        self.texts: list[str] = []

    def saw(self, reply: InteractionResult) -> InteractionResult:
        """Keep what a reply's messages show now (a prompt is edited into a result later)."""
        self.texts += [shown(self.table, m) for m in reply.messages]
        return reply

    def text(self) -> str:
        """Return the kept texts and every message of the channel as it stands now."""
        now = [shown(self.table, m) for m in self.table.channel().all_messages]
        return "\n".join([*self.texts, *now])


async def play(table: SandboxTable, server: str = "de") -> Transcript:
    """Play two rounds as German players: sheets, loadout, a power, attacks, a Special, the end.

    `server` is the server's preferred locale: what the channel reads follows it.
    """
    table.server.set_preferred_locale(server)
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    seen = Transcript(table)
    gm, alice = table.user("gm", locale="de"), table.user("alice", locale="de")

    async def run(user: SandboxUser, command: str) -> InteractionResult:
        return seen.saw(await user.run(command))

    await run(alice, "/charakter erstellen name:Mira physis:4 finesse:3 mastery_rank:4")
    await run(alice, "/charakter waffe hinzufügen name:Langschwert schaden:1d8+2")
    await run(alice, "/charakter rüstung name:Kettenhemd dämpfung:2")
    await run(alice, f"/charakter power bauen name:Bolt typ:active stufe:2 bausteine:{BOLT}")
    await run(alice, "/charakter anzeigen")
    await run(gm, "/init starten modus:finesse")
    await run(gm, "/init hinzufügen name:Goblin physis:3 finesse:2")
    await run(alice, "/init beitreten")
    await run(gm, "/init weiter")  # Mira
    script(table, d20(12), d20(4), d8(5))
    prompt = await run(alice, "/angriff ziel:Goblin waffe:Langschwert")
    assert not prompt.ephemeral, prompt.text
    seen.saw(await prompt.click(1, as_user="gm"))  # the first defense
    script(table, d20(15), d20(3), d8(6))
    prompt = await run(alice, "/nutzen power:Bolt ziel:Goblin entfernung:3")
    assert not prompt.ephemeral, prompt.text
    seen.saw(await prompt.click(1, as_user="gm"))
    await run(gm, "/effekt anwenden kämpfer:Mira special:Lacerate x:1")
    await run(alice, "/effekt liste")
    await run(alice, "/init weiter")  # the Goblin
    script(table, d12(9), d20(11))
    await run(gm, "/angriff ziel:Mira angreifer:Goblin stil:melee schaden:1d6")
    await run(alice, "/verteidigen strategie:dodge")
    await run(gm, "/grit schaden kämpfer:Mira menge:3")
    await run(gm, "/init weiter")  # round 2: Lacerate ticks on Mira
    await run(gm, "/init protokoll")
    asked = await run(gm, "/init beenden")
    final = seen.saw(await asked.click(1))
    await final.wait_followups(1)
    await table.wait_idle()
    return seen


async def test_a_whole_fight_reads_german_to_everyone(make_table) -> None:
    """Some text of a German table's fight reached a German reader in English."""
    table = await make_table()
    text = (await play(table)).text()
    assert "Runde 2" in text and "Langschwert" in text
    leaks = english_in(text, allowed=TYPED)
    assert not leaks, "\n".join(leaks)


async def test_the_same_fight_at_an_english_server_is_caught_as_english(make_table) -> None:
    """The net found no English in an English server's fight: it could not catch a leak either."""
    table = await make_table()
    leaks = english_in((await play(table, server="en-US")).text(), allowed=TYPED)
    assert "untranslated: 'joins the fight'" in leaks
    assert "untranslated: 'Sacrifice an action first for +3 defense this round'" in leaks
    assert len(leaks) > 30
