"""The house's architecture, held: the import contracts of pyproject.toml (layers, services
without a transport, games apart, no circles) pass; docs/architecture.md's picture lists
the layers the contracts hold, in their order, and every folder of bot/; no module
imports another's private name. An architectural rule enforced by a test, as
tests/test_rules_purity.py enforces the rules core's purity."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from bot.discord_parts.limits import CHANNEL_NAME
from bot.tournaments.model import NAME_LENGTH

ROOT = Path(__file__).resolve().parent.parent
OURS = ("bot", "commands", "rules", "storage")
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def test_the_import_contracts_hold() -> None:
    # In a process of its own: import-linter configures logging as it starts, which
    # would leave the other tests' log capture blind.
    run = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
         "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, "
         "no_logo=True))"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"Contracts: {len(CONTRACTS['contracts'])} kept, 0 broken." in run.stdout


def test_the_contracts_cover_what_the_house_promises() -> None:
    kinds = {c["type"] for c in CONTRACTS["contracts"]}
    assert {"forbidden", "layers", "independence", "acyclic_siblings"} <= kinds
    acyclic = next(c for c in CONTRACTS["contracts"] if c["type"] == "acyclic_siblings")
    assert set(acyclic["ancestors"]) == set(OURS)
    services = next(c for c in CONTRACTS["contracts"] if "know no transport" in c["name"])
    assert "discord" in services["forbidden_modules"]


def _picture() -> list[str]:
    text = (ROOT / "docs" / "architecture.md").read_text()
    block = re.search(r"<!-- layers:.*?```text\n(.*?)```\s*<!-- /layers -->", text, re.S)
    assert block, "docs/architecture.md has no layers picture"
    # Each line: the layer (modules joined by | or :) then, after two spaces, its words.
    return [re.split(r"\s{2,}", line.strip())[0] for line in block[1].splitlines()
            if line.strip()]


def test_the_picture_is_the_layers_contract() -> None:
    layers = next(c for c in CONTRACTS["contracts"] if c["type"] == "layers")["layers"]
    assert [re.sub(r"\s+", " ", line) for line in _picture()] == \
        [re.sub(r"\s+", " ", layer) for layer in layers]


def test_every_folder_of_bot_is_a_layer_of_the_picture() -> None:
    named = {m for line in _picture() for m in re.split(r"\s*[|:]\s*", line)}
    folders = {f"bot.{p.name}" for p in (ROOT / "bot").iterdir()
               if p.is_dir() and (p / "__init__.py").exists()}
    assert folders <= named, folders - named


def _modules() -> dict[str, Path]:
    found = {}
    for top in OURS:
        for path in (ROOT / top).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def test_no_module_imports_another_modules_private_name() -> None:
    modules = _modules()
    found = []
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                    and node.module.split(".")[0] in OURS and node.module != name:
                found += [f"{name} takes {node.module}.{alias.name}" for alias in node.names
                          if alias.name.startswith("_") and not alias.name.startswith("__")]
            elif isinstance(node, ast.Import):
                found += [f"{name} imports {alias.name}" for alias in node.names
                          if any(part.startswith("_") and not part.startswith("__")
                                 for part in alias.name.split("."))]
    assert not found, found


def test_a_tournaments_name_fits_the_discord_channel_it_names() -> None:
    assert NAME_LENGTH == CHANNEL_NAME
