"""Discord's limits live in one place (bot/discord_parts/limits.py, fitted by
bot/discord_parts/replies.py):
no module of the bot or its commands clips text or a list by a number of Discord's own
(``[:100]``, ``[:25]``, ``[:4000]`` …) where the text is made. An architectural rule,
enforced here as ``test_rules_purity`` enforces the rules core's."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DISCORDS_NUMBERS = {25, 45, 80, 90, 100, 150, 256, 1000, 1024, 2000, 2048, 4000, 4096, 6000}
"""Discord's limits and the round numbers hand-written clips used for them."""
PLACES = ("bot", "commands")
NOT_DISCORD = ("bot/pictures/", "bot/local")
"""Pictures and the terminal have limits of their own."""


def clips(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            upper = node.slice.upper
            if (node.slice.lower is None and isinstance(upper, ast.Constant)
                    and upper.value in DISCORDS_NUMBERS):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} [:{upper.value}]")
    return found


def test_no_hand_written_clip_of_discords_limits() -> None:
    files = [f for place in PLACES for f in (ROOT / place).rglob("*.py")
             if not str(f.relative_to(ROOT)).startswith(NOT_DISCORD)]
    assert len(files) > 50
    assert [c for f in files for c in clips(f)] == []
