"""The catalogue and its look-up index, built once and kept beside data/ until either changes.

Validating every data file (pydantic building each model's validator first) and indexing
every name took a tenth of a second of each start. The first start keeps both, pickled, in
`data/catalogue-<digest>.pickle`, named by the hash of everything they are made from: the
data files, the catalogue's code, and Python's and pydantic's versions. An edited file or
upgraded code gives another name, so a kept copy is never read stale: the catalogue is
validated and kept again (a malformed file still stops start-up, naming the file). Where
data/ cannot be written, it is built each start. (The copy is read with pickle: whoever may
write data/ may already change the bot's code beside it.)
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import sys
from pathlib import Path

import pydantic
import pydantic_core

from bot.catalogue.lookup import Lookup
from bot.catalogue.models import DATA_DIR, FILE_NAMES, Catalogue, load_catalogue

log = logging.getLogger("tablehand")

FORMAT = 1  # raise when what is kept changes shape without its code changing
_BOT = Path(__file__).resolve().parents[1]
# The code the kept objects are made by and made of: a change to any of it builds them again.
# (tests/unit/catalogue/test_kept.py checks every module the pickle names is here.)
SOURCES = (
    *sorted(Path(__file__).resolve().parent.glob("*.py")),
    _BOT / "errors.py",
    _BOT / "i18n" / "__init__.py",
)


def digest(path: Path = DATA_DIR) -> str:
    """Return the hash of the data files, the catalogue's code and the versions it ran on."""
    made = hashlib.sha256(
        f"{FORMAT} {sys.version} {pydantic.VERSION} {pydantic_core.__version__}".encode()
    )
    for name in sorted(FILE_NAMES.values()):
        made.update(f"\0{name}\0".encode())
        made.update((path / name).read_bytes())
    for source in SOURCES:
        made.update(f"\0{source.name}\0".encode())
        made.update(source.read_bytes())
    return made.hexdigest()[:16]


def kept_path(path: Path, key: str) -> Path:
    """Return where the catalogue built from these files is kept."""
    return path / f"catalogue-{key}.pickle"


def load_indexed(path: Path = DATA_DIR) -> tuple[Catalogue, Lookup]:
    """Return the validated catalogue and its look-up index, from the kept copy if current."""
    try:
        key = digest(path)
    except OSError:  # a file is missing: loading says which, as a CatalogueError
        return _built(path)
    kept = kept_path(path, key)
    found = _read(kept, key)
    if found is not None:
        return found
    catalogue, lookup = _built(path)
    _keep(kept, pickle.dumps((key, catalogue, lookup), protocol=pickle.HIGHEST_PROTOCOL))
    return catalogue, lookup


def _built(path: Path) -> tuple[Catalogue, Lookup]:
    catalogue = load_catalogue(path)
    return catalogue, Lookup(catalogue)


def _read(kept: Path, key: str) -> tuple[Catalogue, Lookup] | None:
    """Return the kept catalogue and index, or None when there is none (or it is unreadable)."""
    try:
        data = kept.read_bytes()
    except OSError:
        return None
    try:
        found = pickle.loads(data)
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError) as error:
        log.info("the kept catalogue %s is unreadable (%s): building it again", kept.name, error)
        return None
    match found:
        case (str() as kept_key, Catalogue() as catalogue, Lookup() as lookup) if kept_key == key:
            return catalogue, lookup
    log.info("the kept catalogue %s is not this catalogue: building it again", kept.name)
    return None


def _keep(kept: Path, data: bytes) -> None:
    """Write the kept copy whole or not at all, and remove copies of older files (best effort)."""
    partial = kept.with_name(f".{kept.name}.{os.getpid()}")
    try:
        partial.write_bytes(data)
        os.replace(partial, kept)  # whoever else starts at once reads a whole file or none
    except OSError as error:
        partial.unlink(missing_ok=True)
        log.info("could not keep the catalogue in %s: %s", kept.parent, error)
        return
    for old in kept.parent.glob("catalogue-*.pickle"):
        if old != kept:
            old.unlink(missing_ok=True)
