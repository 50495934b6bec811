"""One shape for every game, enforced: the registries live outside the shared core,
every game has a presenter, and nothing shared in bot/ or commands/ names a game
(adding a game touches its own packages and one line in each registry)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.games import PRESENTER_PACKAGES, presenters
from rules.registry import GAME_PACKAGES, games

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = {package.rsplit(".", 1)[1] for package in GAME_PACKAGES}
WORDS = re.compile(r"\b(" + "|".join(sorted(SHIPPED | {"hammer", "duel"})) + r")\b",
                   re.IGNORECASE)
REGISTRIES = {ROOT / "bot" / "games" / "__init__.py"}


def game_owned(path: Path) -> bool:
    """A file of one game's own packages (its presenter, commands or picture)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return any(part == game for part in parts for game in SHIPPED)


SHARED = sorted(p for folder in ("bot", "commands") for p in (ROOT / folder).rglob("*.py")
                if not game_owned(p) and p not in REGISTRIES)


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_shared_core_imports_no_game_and_no_registry():
    core = imports(ROOT / "rules" / "core.py")
    assert not any(name.startswith(("rules.registry", *GAME_PACKAGES)) for name in core)
    for package in GAME_PACKAGES:
        for path in (ROOT / package.replace(".", "/")).rglob("*.py"):
            assert "rules.registry" not in imports(path), path


def test_every_game_has_one_presenter_and_every_presenter_a_game():
    assert set(PRESENTER_PACKAGES) == set(presenters()) == SHIPPED
    assert set(games()) >= SHIPPED


def test_there_are_shared_files_to_check():
    names = {p.relative_to(ROOT).as_posix() for p in SHARED}
    assert {"bot/matches/service.py", "bot/cli.py", "bot/terminal/table.py",
            "commands/lobby.py", "bot/games/presenter.py"} <= names


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_shared_module_names_a_game(path: Path):
    named = [f"{n}: {line.strip()}" for n, line in
             enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if WORDS.search(line)]
    assert not named, "\n".join(named)
