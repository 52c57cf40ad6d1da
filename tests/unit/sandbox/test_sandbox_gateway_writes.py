"""The loopback's gateway writes: a frame goes to the socket as it is sent, in order."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from aiohttp import web

from bot.sandbox.server import _Connection


class _Socket:
    """A websocket whose writes land in a list; `hold()` makes writes wait for a drain."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.closed = False
        self.drained: asyncio.Future[None] | None = None

    def hold(self) -> asyncio.Future[None]:
        self.drained = asyncio.get_running_loop().create_future()
        return self.drained

    async def send_str(self, text: str) -> None:
        self.written.append(text)  # the bytes reach the transport first, as aiohttp's do
        if self.drained is not None and not self.drained.done():
            await self.drained


def _connection() -> tuple[_Connection, _Socket]:
    socket = _Socket()
    return _Connection(cast(web.WebSocketResponse, socket), None), socket


async def test_a_frame_is_written_before_send_returns() -> None:
    """Nothing waits for another turn of the loop: the frame is on the socket at once."""
    conn, socket = _connection()
    conn.send({"op": 11})
    assert socket.written == ['{"op": 11}']
    assert conn.draining is None


async def test_frames_sent_while_a_write_waits_for_a_drain_follow_it_in_order() -> None:
    """A write waiting for the transport holds the later frames back until it has drained."""
    conn, socket = _connection()
    drained = socket.hold()
    conn.send("first")
    conn.send("second")
    conn.send("third")
    assert socket.written == ["first"]
    assert conn.draining is not None
    drained.set_result(None)
    await conn.draining
    assert socket.written == ["first", "second", "third"]
    assert conn.draining is None and not conn.pending


async def test_nothing_is_written_after_the_connection_closes() -> None:
    """A closed connection drops frames (a RESUME replays them from the session's log)."""
    conn, socket = _connection()
    drained = socket.hold()
    conn.send("first")
    conn.send("second")
    conn.close()
    conn.send("third")
    await asyncio.sleep(0)
    assert socket.written == ["first"]
    assert not drained.done() or drained.cancelled()
    assert conn.closed and not conn.pending


async def test_an_interaction_is_stamped_when_its_frame_goes_to_the_socket() -> None:
    """The record's `sent` is taken as the frame is written, not after a later turn."""
    conn, socket = _connection()
    record: Any = type("Record", (), {"sent": None})()
    loop = asyncio.get_running_loop()
    before = loop.time()
    conn.send("frame", record)
    assert socket.written == ["frame"]
    assert before <= record.sent <= loop.time()
