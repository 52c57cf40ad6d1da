"""The rules stay pure: no Discord, no database, no global random state."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE_PACKAGES = [ROOT / "bot" / "rules", ROOT / "bot" / "catalogue"]
FORBIDDEN = {"discord", "aiosqlite", "asyncpg", "sqlite3", "aiohttp"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _modules() -> list[Path]:
    return sorted(p for pkg in PURE_PACKAGES if pkg.exists() for p in pkg.rglob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_module_imports_neither_discord_nor_a_database(path: Path) -> None:
    """A module of bot/rules imports discord or a database driver."""
    assert not (_imports(path) & FORBIDDEN), f"{path.name} imports {_imports(path) & FORBIDDEN}"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_module_uses_no_global_random_state(path: Path) -> None:
    """A module of bot/rules calls the random module's global functions instead of an injected Random."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            pytest.fail(f"{path.name}:{node.lineno} uses random.{node.attr}")


def test_the_purity_check_sees_modules() -> None:
    """The purity check found no modules to inspect, so it proves nothing."""
    assert len(_modules()) >= 2
