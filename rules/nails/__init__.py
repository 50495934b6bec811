"""Hammer & Nails: the card-tile build-stack game of seed 002.

``GAME`` describes the game to the platform (see :mod:`rules.registry`).
"""

from __future__ import annotations

from rules.core import GameInfo
from rules.nails import easy, hard
from rules.nails.bot import choose
from rules.nails.decks import DECKS
from rules.nails.options import NailsOptions
from rules.nails.rules_text import rules_text
from rules.nails.stack import BuildStack, Placement, placement_group, placement_notation
from rules.nails.state import NailsState, NailsView
from rules.nails.text import option_text, render_text
from rules.nails.tiles import Deck, Tile, Zone, parse_deck
from rules.nails.unseen import unseen
from rules.phrases import Phrase

GAME = GameInfo(
    name="nails",
    title="Hammer & Nails",
    min_seats=2,
    max_seats=4,
    new_state=NailsState.new,
    bot=choose,
    levels={"easy": easy.choose, "hard": hard.choose},
    unseen=unseen,
    rules_text=rules_text,
    default_seats=2,
    default_turn_seconds=180,
    options=NailsOptions,
    has_secrets=True,
    text=render_text,
    option_text=option_text,
    option_group=placement_group,
    notation_help=Phrase("nails.notation_help", words="yes, no, cannot"),
)

__all__ = [
    "DECKS",
    "GAME",
    "BuildStack",
    "Deck",
    "NailsOptions",
    "NailsState",
    "NailsView",
    "Placement",
    "Tile",
    "Zone",
    "choose",
    "parse_deck",
    "placement_group",
    "placement_notation",
]
