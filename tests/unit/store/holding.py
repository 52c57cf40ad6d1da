"""A call that holds the database thread until the test lets it go."""

from __future__ import annotations

import asyncio
import threading


class HoldingCall:
    """Hand it to the thread as a call: it runs until `release`, then notes "slow" in `ran`."""

    def __init__(self, ran: list[str] | None = None) -> None:
        self.ran = ran
        self._started = threading.Event()
        self._go_on = threading.Event()

    def __call__(self) -> None:
        self._started.set()
        self._go_on.wait(5)
        if self.ran is not None:
            self.ran.append("slow")

    async def started(self) -> None:
        """Wait (off the loop) until the thread is running it."""
        await asyncio.to_thread(self._started.wait, 5)

    def release(self) -> None:
        self._go_on.set()
