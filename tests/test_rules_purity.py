"""The rules core stays pure: no Discord, database, asyncio, network or other I/O
imports anywhere under rules/, so that games replay anywhere, synchronously."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parent.parent / "rules"
FORBIDDEN = {
    "discord", "aiosqlite", "asyncio", "sqlite3", "aiohttp",
    "socket", "subprocess", "urllib", "http", "requests", "threading",
}


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, by its top-level name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "__import__" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names.add(node.args[0].value.split(".")[0])
    return names


SOURCES = sorted(RULES.rglob("*.py"))


def test_there_are_rules_to_check() -> None:
    assert RULES / "core.py" in SOURCES and len(SOURCES) > 3


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(RULES)))
def test_rules_import_nothing_impure(path: Path) -> None:
    bad = imported_modules(path) & FORBIDDEN
    assert not bad, f"{path.relative_to(RULES.parent)} imports {', '.join(sorted(bad))}"


def test_the_scanner_catches_forbidden_imports(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom discord.ext import commands\nimport asyncio as aio\n"
                      "def f():\n    import sqlite3\n")
    assert imported_modules(sample) & FORBIDDEN == {"discord", "asyncio", "sqlite3"}
