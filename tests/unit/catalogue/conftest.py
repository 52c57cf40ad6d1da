"""Fixtures: the real catalogue and its look-up index, loaded once per test session."""

from __future__ import annotations

import pytest

from bot.catalogue.lookup import Lookup
from bot.catalogue.models import Catalogue, load_catalogue


@pytest.fixture(scope="session")
def catalogue() -> Catalogue:
    return load_catalogue()


@pytest.fixture(scope="session")
def lookup(catalogue: Catalogue) -> Lookup:
    return Lookup(catalogue)
