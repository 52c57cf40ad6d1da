"""The rules tests' scripted dice must all be drawn, as the end-to-end tests' are."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.scripted import ScriptedRandom


@pytest.fixture(autouse=True)
def every_scripted_face_is_drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail a test whose ScriptedRandom was left with faces nobody drew."""
    made: list[ScriptedRandom] = []
    original = ScriptedRandom.__init__

    def recording(self: ScriptedRandom, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        made.append(self)

    monkeypatch.setattr(ScriptedRandom, "__init__", recording)
    yield
    for dice in made:
        dice.done()
