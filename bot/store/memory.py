"""An in-memory store with the SQLite store's semantics, for tests and as a second backend.

It keeps what SQLite keeps — JSON text — so a model changed inside a failed block
can never leak into the stored state.
"""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

from bot.rules.models import Character, LogEntry, NpcTemplate
from bot.store.base import (
    FIGHT_FIELDS,
    ChannelChanges,
    GuildFilter,
    GuildSettings,
    LoadedChannel,
    LoadedSheet,
    Store,
    StoreConflict,
    character_key,
    character_taken,
    npc_taken,
)


class MemoryStore(Store):
    """Encounters, characters and settings in dictionaries."""

    def __init__(self) -> None:
        super().__init__()
        self._encounters: dict[int, str] = {}
        self._versions: dict[int, int] = {}
        self._guilds: dict[int, int | None] = {}
        self._updated: dict[int, float] = {}
        self._logs: dict[int, list[LogEntry]] = {}
        self._characters: dict[int, str] = {}
        self._fights: dict[int, int] = {}  # character id → the channel whose fight holds it
        self._active: dict[tuple[int, int], int] = {}
        self._settings: dict[int, str] = {}
        self._npcs: dict[int, str] = {}
        self._ids = itertools.count(1)

    async def _load(
        self, channel_id: int, *, locked: bool = True, transaction: object = None
    ) -> LoadedChannel:
        return LoadedChannel(
            encounter_json=self._encounters.get(channel_id),
            version=self._versions.get(channel_id, 0),
        )

    async def _commit(self, changes: ChannelChanges, *, transaction: object = None) -> None:
        # No await in here: the whole commit happens at once, like a transaction; what
        # could refuse it is checked before anything is written.
        channel_id = changes.channel_id
        if changes.write_encounter and self._versions.get(channel_id, 0) != changes.version:
            raise StoreConflict()
        if any(c not in self._characters or c in self._fights for c in changes.claims):
            raise StoreConflict()
        if changes.write_encounter:
            if changes.encounter_json is None:
                self._encounters.pop(channel_id, None)
                self._versions.pop(channel_id, None)
                self._guilds.pop(channel_id, None)
                self._logs.pop(channel_id, None)
            else:
                self._encounters[channel_id] = changes.encounter_json
                self._versions[channel_id] = changes.version + 1
                self._guilds[channel_id] = changes.guild_id
                self._updated[channel_id] = time.time()
        if changes.log:
            self._logs.setdefault(changes.channel_id, []).extend(changes.log)
        for character_id in changes.claims:
            self._fights[character_id] = channel_id
        for write in changes.character_grit:
            held_by = self._fights.get(write.character_id, channel_id)
            if write.character_id in self._characters and held_by == channel_id:
                self._patch(
                    write.character_id,
                    {"grit": write.grit, "max_grit": write.max_grit, "injuries": write.injuries},
                )
        released = (
            [c for c, fight in self._fights.items() if fight == channel_id]
            if changes.release_all
            else changes.released
        )
        for character_id in released:
            if self._fights.get(character_id) == channel_id:
                del self._fights[character_id]

    def _patch(self, character_id: int, changed: dict[str, Any]) -> None:
        """Write these fields of a stored sheet, and nothing else of it."""
        data = json.loads(self._characters[character_id])
        data.update(changed)
        self._characters[character_id] = Character.model_validate(data).model_dump_json()

    async def _round_log(self, channel_id: int, round: int) -> list[LogEntry]:
        return [entry for entry in self._logs.get(channel_id, []) if entry.round == round]

    def _in(self, channel_id: int, guild_ids: GuildFilter) -> bool:
        return guild_ids is None or self._guilds.get(channel_id) in guild_ids

    async def encounter_channels(self, guild_ids: GuildFilter = None) -> list[int]:
        return sorted(c for c in self._encounters if self._in(c, guild_ids))

    async def pending_attack_channels(self, guild_ids: GuildFilter = None) -> list[int]:
        found = []
        for channel_id, data in sorted(self._encounters.items()):
            if not self._in(channel_id, guild_ids):
                continue
            try:
                pending = json.loads(data).get("pending_attacks")
            except (ValueError, AttributeError):
                continue  # a damaged encounter, as SQLite's json_valid skips it
            if pending:
                found.append(channel_id)
        return found

    async def character_fight(self, character_id: int) -> int | None:
        return self._fights.get(character_id)

    async def recent_encounter_channels(
        self, since: float, guild_ids: GuildFilter = None
    ) -> list[int]:
        recent = [
            (at, cid)
            for cid, at in self._updated.items()
            if at >= since and cid in self._encounters and self._in(cid, guild_ids)
        ]
        return [cid for _, cid in sorted(recent, reverse=True)]

    def _all_characters(self) -> list[Character]:
        return [Character.model_validate_json(data) for data in self._characters.values()]

    async def create_character(self, character: Character) -> Character:
        if character.id is not None:
            raise ValueError("a new character has no id yet")
        if await self.get_character(character.guild_id, character.owner_id, character.name):
            raise character_taken(character.name)
        character = character.model_copy(update={"id": next(self._ids)})
        self._characters[character.id] = character.model_dump_json()  # type: ignore[index]
        return character

    async def _load_sheet(
        self, character_id: int, *, transaction: object = None
    ) -> LoadedSheet | None:
        character = await self.character_by_id(character_id)
        if character is None:
            return None
        return LoadedSheet(character, self._fights.get(character_id))

    async def _write_sheet(
        self, character_id: int, changed: dict[str, Any], *, transaction: object = None
    ) -> None:
        stored = await self.character_by_id(character_id)
        if stored is None or (changed.keys() & FIGHT_FIELDS and character_id in self._fights):
            raise StoreConflict()  # gone, or taken by a fight: not under the sheet's lock
        if "name" in changed:
            clash = await self.get_character(stored.guild_id, stored.owner_id, changed["name"])
            if clash is not None and clash.id != character_id:
                raise character_taken(changed["name"])
        self._patch(character_id, changed)

    async def _delete_sheet(self, character_id: int, *, transaction: object = None) -> None:
        if character_id in self._fights:
            raise StoreConflict()
        self._characters.pop(character_id, None)
        self._active = {k: v for k, v in self._active.items() if v != character_id}

    async def get_character(self, guild_id: int, owner_id: int, name: str) -> Character | None:
        for character in self._all_characters():
            if (character.guild_id, character.owner_id) == (guild_id, owner_id) and (
                character_key(character.name) == character_key(name)
            ):
                return character
        return None

    async def character_by_id(self, character_id: int) -> Character | None:
        data = self._characters.get(character_id)
        return None if data is None else Character.model_validate_json(data)

    async def list_characters(self, guild_id: int, owner_id: int) -> list[Character]:
        mine = [
            c for c in self._all_characters() if (c.guild_id, c.owner_id) == (guild_id, owner_id)
        ]
        return sorted(mine, key=lambda c: character_key(c.name))

    async def set_active_character(self, guild_id: int, owner_id: int, character_id: int) -> None:
        self._active[(guild_id, owner_id)] = character_id

    async def active_character(self, guild_id: int, owner_id: int) -> Character | None:
        character_id = self._active.get((guild_id, owner_id))
        return None if character_id is None else await self.character_by_id(character_id)

    async def get_settings(self, guild_id: int) -> GuildSettings:
        return self._stored_settings(guild_id, self._settings.get(guild_id))

    async def save_settings(self, settings: GuildSettings) -> None:
        self._settings[settings.guild_id] = settings.model_dump_json()

    # NPC templates
    async def create_npc(self, template: NpcTemplate) -> NpcTemplate:
        if template.id is not None:
            raise ValueError("a new template has no id yet")
        if await self.get_npc(template.guild_id, template.name) is not None:
            raise npc_taken(template.name)
        template = template.model_copy(update={"id": next(self._ids)})
        self._npcs[template.id] = template.model_dump_json()  # type: ignore[index]
        return template

    def _all_npcs(self) -> list[NpcTemplate]:
        return [NpcTemplate.model_validate_json(data) for data in self._npcs.values()]

    async def get_npc(self, guild_id: int, name: str) -> NpcTemplate | None:
        key = character_key(name)
        return next(
            (
                t
                for t in self._all_npcs()
                if t.guild_id == guild_id and character_key(t.name) == key
            ),
            None,
        )

    async def list_npcs(self, guild_id: int) -> list[NpcTemplate]:
        found = [t for t in self._all_npcs() if t.guild_id == guild_id]
        return sorted(found, key=lambda t: character_key(t.name))

    async def _load_npc(self, npc_id: int, *, transaction: object = None) -> NpcTemplate | None:
        data = self._npcs.get(npc_id)
        return None if data is None else NpcTemplate.model_validate_json(data)

    async def _write_npc(self, template: NpcTemplate, *, transaction: object = None) -> None:
        assert template.id is not None
        clash = await self.get_npc(template.guild_id, template.name)
        if clash is not None and clash.id != template.id:
            raise npc_taken(template.name)
        if template.id not in self._npcs:
            raise StoreConflict()
        self._npcs[template.id] = template.model_dump_json()

    async def _delete_npc(self, npc_id: int, *, transaction: object = None) -> None:
        self._npcs.pop(npc_id, None)
