"""Flank: the boardless outflanking game of seed 001, with stopper tiles.

Importing this package registers the game as ``"flank"``.
"""

from __future__ import annotations

from rules.cells import cell_name, column_name, parse_cell, row_name
from rules.core import GameInfo, register
from rules.flank.bot import choose
from rules.flank.options import OPTIONS_HELP, FlankOptions
from rules.flank.rules_text import RULES_TEXT
from rules.flank.state import FlankState, FlankView
from rules.flank.text import render_text

FLANK = register(GameInfo(
    name="flank",
    title="Flank",
    min_seats=2,
    max_seats=2,
    new_state=FlankState.new,
    bot=choose,
    rules_text=RULES_TEXT,
    default_turn_seconds=300,
    options_help=OPTIONS_HELP,
    text=render_text,
))

__all__ = [
    "FLANK",
    "RULES_TEXT",
    "FlankOptions",
    "FlankState",
    "FlankView",
    "cell_name",
    "choose",
    "column_name",
    "parse_cell",
    "row_name",
]
