"""Eclipse: the elimination game of seed 000, with secret simultaneous choices.

``GAME`` describes the game to the platform (see :mod:`rules.registry`).
"""

from __future__ import annotations

from rules.core import GameInfo
from rules.eclipse import easy, hard
from rules.eclipse.bot import choose
from rules.eclipse.cards import DECKS, Card, Deck, parse_deck, standard_deck
from rules.eclipse.judge import Verdict, judge, settle
from rules.eclipse.options import EclipseOptions
from rules.eclipse.rules_text import rules_text
from rules.eclipse.state import EclipseState
from rules.eclipse.text import option_text, render_text
from rules.eclipse.unseen import unseen
from rules.eclipse.view import EclipseView, Reveal, SubsetView
from rules.phrases import Phrase

GAME = GameInfo(
    name="eclipse",
    title="Eclipse",
    min_seats=2,
    max_seats=6,
    new_state=EclipseState.new,
    bot=choose,
    rules_text=rules_text,
    default_seats=3,
    default_turn_seconds=180,
    options=EclipseOptions,
    has_secrets=True,
    text=render_text,
    option_text=option_text,
    notation_help=Phrase("eclipse.notation_help", examples="S13f, 3, keep, new, 2:new"),
    unseen=unseen,
    levels={"easy": easy.choose, "hard": hard.choose},
)

__all__ = [
    "DECKS",
    "GAME",
    "Card",
    "Deck",
    "EclipseOptions",
    "EclipseState",
    "EclipseView",
    "Reveal",
    "SubsetView",
    "Verdict",
    "choose",
    "judge",
    "parse_deck",
    "settle",
    "standard_deck",
    "unseen",
]
