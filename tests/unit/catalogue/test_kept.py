"""The catalogue kept between starts: the same as a fresh one, and never stale."""

from __future__ import annotations

import io
import json
import pickle
import shutil
import sys
from pathlib import Path

import pytest

from bot.catalogue import kept
from bot.catalogue.lookup import Lookup
from bot.catalogue.models import DATA_DIR, CatalogueError, load_catalogue
from bot.catalogue.views import entry_id
from bot.errors import NotFound

QUERIES = ("armor", "rüstung", "ruestung", "bolt", "stun", "telport", "9.1", "zzz")


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target, ignore=shutil.ignore_patterns("catalogue-*.pickle"))
    return target


def _kept_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("catalogue-*.pickle"))


def _answers(lookup: Lookup) -> list[object]:
    """What users see of the index: suggestions and finds for a spread of queries."""
    found: list[object] = [len(lookup)]
    for query in QUERIES:
        found.append([(c.name, c.value) for c in lookup.suggest(query)])
        try:
            match = lookup.match(query)
        except NotFound as missing:
            found.append(str(missing))
        else:
            found.append((match.how, match.entry, match.alternatives, match.exclusion))
    return found


def _refuse_building(monkeypatch: pytest.MonkeyPatch) -> None:
    def built(path: Path) -> None:
        raise AssertionError(f"built {path} again instead of reading the kept copy")

    monkeypatch.setattr(kept, "_built", built)


def test_the_kept_catalogue_is_the_one_loading_builds(
    data_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start read a kept catalogue or index that differs from validating and indexing anew."""
    kept.load_indexed(data_copy)
    assert [p.name for p in _kept_files(data_copy)] == [
        f"catalogue-{kept.digest(data_copy)}.pickle"
    ]
    _refuse_building(monkeypatch)
    catalogue, lookup = kept.load_indexed(data_copy)
    fresh = load_catalogue(data_copy)
    assert catalogue == fresh
    assert _answers(lookup) == _answers(Lookup(fresh))


def test_an_edited_data_file_is_noticed(data_copy: Path) -> None:
    """A kept catalogue was read after its data file changed (a stale name, or none)."""
    kept.load_indexed(data_copy)
    before = _kept_files(data_copy)
    path = data_copy / "catalogue.json"
    data = json.loads(path.read_text("utf-8"))
    assert data["entries"][0]["name"] == "Armor"
    data["entries"][0]["name"] = "Plating"
    path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    catalogue, lookup = kept.load_indexed(data_copy)
    assert catalogue.entry("active_buff", "armor").name == "Plating"
    assert entry_id(lookup.find("plating")) == "active_buff:armor"
    after = _kept_files(data_copy)
    assert len(after) == 1 and after != before  # the old copy is gone, the new one kept


def test_a_malformed_edit_after_keeping_still_stops_loading(data_copy: Path) -> None:
    """A kept copy hid a data file broken since: start-up must stop, naming file and field."""
    kept.load_indexed(data_copy)
    path = data_copy / "summons.json"
    data = json.loads(path.read_text("utf-8"))
    data["base"]["mana"] = 3
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(CatalogueError) as raised:
        kept.load_indexed(data_copy)
    assert raised.value.message == ("data/summons.json: base.mana: Extra inputs are not permitted")


def test_a_missing_data_file_is_named_as_before(data_copy: Path) -> None:
    """Hashing the files first turned a missing file into an OSError instead of its message."""
    kept.load_indexed(data_copy)
    (data_copy / "headings.json").unlink()
    with pytest.raises(CatalogueError) as raised:
        kept.load_indexed(data_copy)
    assert raised.value.message.startswith("data/headings.json: cannot be read")


def test_changed_code_gives_another_name(
    data_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kept copy's name ignored the code that builds it: an upgrade read the old build."""
    source = tmp_path / "models.py"
    source.write_text("A = 1\n")
    monkeypatch.setattr(kept, "SOURCES", (source,))
    before = kept.digest(data_copy)
    source.write_text("A = 2\n")
    assert kept.digest(data_copy) != before


def test_every_module_the_kept_copy_names_is_hashed(data_copy: Path) -> None:
    """A class of the kept objects came from a module whose changes the name ignores."""
    kept.load_indexed(data_copy)
    (path,) = _kept_files(data_copy)
    named: set[str] = set()

    class Reader(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> object:
            named.add(module)
            return super().find_class(module, name)

    Reader(io.BytesIO(path.read_bytes())).load()
    ours = {m for m in named if m.split(".")[0] in ("bot", "cogs")}
    assert "bot.catalogue.models" in ours
    hashed = {source.resolve() for source in kept.SOURCES}
    assert {m: Path(sys.modules[m].__file__).resolve() in hashed for m in ours} == dict.fromkeys(
        ours, True
    )


def test_a_torn_kept_file_is_built_again(data_copy: Path) -> None:
    """A half-written or foreign kept file stopped start-up or was believed."""
    target = kept.kept_path(data_copy, kept.digest(data_copy))
    fresh = load_catalogue(data_copy)
    for junk in (b"\x80\x05 torn", pickle.dumps(("another key", fresh, None))):
        target.write_bytes(junk)
        catalogue, lookup = kept.load_indexed(data_copy)
        assert catalogue == fresh
        assert _answers(lookup) == _answers(Lookup(fresh))
        assert pickle.loads(target.read_bytes())[0] == kept.digest(data_copy)
