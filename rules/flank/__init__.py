"""Flank: the boardless outflanking game of seed 001, with stopper tiles.

``GAME`` describes the game to the platform (see :mod:`rules.registry`).
"""

from __future__ import annotations

from rules.cells import cell_name, column_name, parse_cell, row_name
from rules.core import GameInfo
from rules.flank import easy, hard
from rules.flank.bot import choose
from rules.flank.options import FlankOptions
from rules.flank.perft import main_perft
from rules.flank.rules_text import rules_text
from rules.flank.state import FlankState, FlankView
from rules.flank.text import render_text
from rules.phrases import Phrase

GAME = GameInfo(
    name="flank",
    title="Flank",
    min_seats=2,
    max_seats=2,
    new_state=FlankState.new,
    bot=choose,
    rules_text=rules_text,
    default_turn_seconds=300,
    options=FlankOptions,
    text=render_text,
    notation_help=Phrase("flank.notation_help"),
    perft=main_perft,
    levels={"easy": easy.choose, "hard": hard.choose},
)

__all__ = [
    "GAME",
    "FlankOptions",
    "FlankState",
    "FlankView",
    "cell_name",
    "choose",
    "column_name",
    "parse_cell",
    "row_name",
]
