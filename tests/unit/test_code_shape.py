"""The code's shape as issue 15 set it: short functions, cogs that stand alone, wiring by objects.

A reader should find every command's work in short functions, and a renamed handler
should break at import, not when someone clicks a button.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LONGEST = 62  # "about 60" lines, from `def` to the last line
# The loopback Discord's route table: one line per REST route, read as a table.
TABLES = {("bot/sandbox/server.py", "_install_routes")}


def sources(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def test_no_function_in_bot_or_cogs_is_longer_than_about_60_lines() -> None:
    long = []
    for path in sources("bot", "cogs"):
        name = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if lines > LONGEST and (name, node.name) not in TABLES:
                    long.append(f"{name}:{node.lineno} {node.name} ({lines} lines)")
    assert long == []


def test_no_cog_imports_another_cog() -> None:
    found = []
    for path in sources("cogs"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
            found += [f"{path.name}: {m}" for m in modules if m.split(".")[0] == "cogs"]
    assert found == []


def test_no_string_names_a_handler() -> None:
    # The wiring issue 15 removed: buttons naming their cog and method by strings.
    patterns = [r"\bcog\s*=\s*[\"']", r"\bhandler\s*=\s*[\"']", r"getattr\([^)]*f[\"']"]
    found = [
        f"{path.relative_to(ROOT).as_posix()}: {pattern}"
        for path in sources("bot", "cogs")
        for pattern in patterns
        if re.search(pattern, path.read_text(encoding="utf-8"))
    ]
    assert found == []
