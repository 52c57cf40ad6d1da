"""Validators pydantic left for first use (`defer_build`), built once the bot is ready.

Start-up leaves them (bot/rules/models.py: only what answering needs is built), and the
first command to touch a model paid for its validator: a fresh bot's first fight held
its loop 10-15 ms longer per command (the encounter's alone is 13 ms). The warm-up
builds them in a worker thread instead (pydantic's rebuild takes a lock of its own).
"""

from __future__ import annotations

import time

from pydantic import BaseModel

# The state models, every rule's result and the server's settings (read by every table
# command): the fights use them from the first command. The catalogue's views are left
# to first use (a look-up's, not a fight's; memory).
FIGHT_MODULES = ("bot.rules.", "bot.store.")


def build_models(prefixes: tuple[str, ...] = FIGHT_MODULES) -> list[type[BaseModel]]:
    """Build the deferred validators of the models defined in these modules; return those."""
    built = []
    for model in _subclasses(BaseModel):
        if model.__module__.startswith(prefixes) and not model.__pydantic_complete__:
            model.model_rebuild()
            built.append(model)
            time.sleep(0)  # in a thread: the event loop may take the GIL between models
    return built


def _subclasses(cls: type[BaseModel]) -> list[type[BaseModel]]:
    """Return every subclass of a class, each once, parents before their children."""
    found: dict[type[BaseModel], None] = {}
    todo = [cls]
    while todo:
        for sub in todo.pop(0).__subclasses__():
            if sub not in found:
                found[sub] = None
                todo.append(sub)
    return list(found)
