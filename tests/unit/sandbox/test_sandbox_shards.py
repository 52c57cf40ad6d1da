"""The loopback Discord routes like Discord: several guilds, sharded sessions, at once."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from bot.sandbox.harness import SANDBOX_TOKEN
from bot.sandbox.records import APPLICATION_COMMAND
from bot.sandbox.server import LoopbackDiscord, shard_of


async def identify(
    http: aiohttp.ClientSession, server: LoopbackDiscord, shard: list[int]
) -> tuple[aiohttp.ClientWebSocketResponse, list[dict[str, Any]]]:
    """Connect a session for one shard; return it and its READY and GUILD_CREATE events."""
    ws = await http.ws_connect(server.gateway_url)
    hello = json.loads((await ws.receive()).data)
    assert hello["op"] == 10
    await ws.send_json({"op": 2, "d": {"token": SANDBOX_TOKEN, "intents": 1, "shard": shard}})
    ready = json.loads((await ws.receive()).data)
    events = [ready]
    for _ in ready["d"]["guilds"]:
        events.append(json.loads((await ws.receive()).data))
    return ws, events


async def test_each_shard_session_gets_its_guilds_and_their_events_only() -> None:
    """A sharded session got another shard's guilds or events, or sessions could not coexist."""
    async with LoopbackDiscord(guilds=4) as server, aiohttp.ClientSession() as http:
        guilds = list(server.guilds.values())
        assert [shard_of(g.id, 2) for g in guilds] == [0, 1, 0, 1]  # spread round-robin
        assert len({u.id for g in guilds for u in (m.user for m in g.members.values())}) == len(
            guilds[0].members
        )  # the same people in every guild
        sessions = {}
        for shard in (0, 1):
            ws, events = await identify(http, server, [shard, 2])
            ready, creates = events[0], events[1:]
            mine = [g.id for g in guilds if shard_of(g.id, 2) == shard]
            assert [int(g["id"]) for g in ready["d"]["guilds"]] == mine
            assert [int(e["d"]["id"]) for e in creates] == mine
            assert ready["d"]["shard"] == [shard, 2]
            sessions[shard] = ws
        assert server.connected_shards() == {0: 1, 1: 1}

        gm = server.member("gm")
        for guild in guilds:
            channel = guild.text_channels()[0]
            record = server.dispatch_interaction(
                member=gm,
                channel=channel,
                type=APPLICATION_COMMAND,
                data={"id": "1", "name": "ping", "type": 1},
                label="/ping",
            )
            event = json.loads((await sessions[shard_of(guild.id, 2)].receive()).data)
            assert event["t"] == "INTERACTION_CREATE"
            assert event["d"]["id"] == str(record.id) and event["d"]["guild_id"] == str(guild.id)
            assert event["d"]["member"]["user"]["id"] == str(gm.id)
        for ws in sessions.values():
            await ws.close()
