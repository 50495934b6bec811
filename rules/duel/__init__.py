"""Arcane Duel: the trading card game of seed 003.

``GAME`` describes the game to the platform (see :mod:`rules.registry`). Each
seat may bring a deck as its setup (``{"deck": "ember-and-grove"}`` or
``{"deck": [card names]}``), and ``"auto_pass": false`` to be asked in every
window; a seat that brings no deck is dealt a starter deck drawn from the
match's seed. With the option ``ante``, each player's top card is set aside
before the opening hand (:attr:`DuelState.ante`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.core import GameInfo, SeatSetup
from rules.duel import easy, hard
from rules.duel.bot import choose
from rules.duel.cards import CardDef, card_set
from rules.duel.decks import STARTERS, starter
from rules.duel.options import DuelOptions
from rules.duel.rules_text import rules_text
from rules.duel.state import DuelState, DuelView
from rules.duel.table_words import option_words, render_text
from rules.duel.text import catalogue
from rules.duel.unseen import unseen
from rules.errors import BadOptions, shown
from rules.phrases import Phrase

SETUP_KEYS = frozenset({"deck", "auto_pass", "saved"})
"""``saved``: the name of the owner's saved deck the card list came from (the bot
checks such a deck against what its owner owns; the rules only carry the name)."""
MIN_DECK = 40
MAX_DECK = 250


def deck_of(setup: SeatSetup, fallback: str) -> tuple[str, ...]:
    """The deck a seat's setup names, or the starter ``fallback``; :class:`BadOptions`
    names what is wrong with a deck given.

    >>> len(deck_of({"deck": "tide-and-night"}, "dawn-and-tide"))
    40
    >>> deck_of({"deck": ["Ashpeak"] * 3}, "dawn-and-tide")
    Traceback (most recent call last):
    ...
    rules.errors.BadOptions: duel.error.deck_too_small(least=40, given=3)
    """
    given = (setup or {}).get("deck")
    if given is None:
        return starter(fallback)
    if isinstance(given, str):
        if given not in STARTERS:
            raise BadOptions(Phrase("duel.error.no_starter", given=shown(given),
                                    starters=", ".join(STARTERS)))
        return starter(given)
    if not isinstance(given, Sequence) or not all(isinstance(n, str) for n in given):
        raise BadOptions(Phrase("duel.error.deck_kind"))
    if not MIN_DECK <= len(given) <= MAX_DECK:
        raise BadOptions(Phrase("duel.error.deck_too_small", least=MIN_DECK, given=len(given))
                         if len(given) < MIN_DECK else
                         Phrase("duel.error.deck_too_big", most=MAX_DECK))
    known = card_set()
    unknown = [n for n in given if n not in known]
    if unknown:
        raise BadOptions(Phrase("duel.error.no_card", given=shown(unknown[0])))
    return tuple(given)


def new_duel(options: DuelOptions, seats: int, seed: int,
             setup: tuple[SeatSetup, ...]) -> DuelState:
    """A new duel: the decks the seats bring, else two different starters."""
    for given in setup:
        unknown = sorted(set(given or {}) - SETUP_KEYS)
        if unknown:
            raise BadOptions(Phrase("duel.error.setup_keys", keys=", ".join(sorted(SETUP_KEYS)),
                                    given=shown(unknown[0])))
    starters = random.Random(f"duel-decks:{seed}").sample(list(STARTERS), seats)
    decks = [deck_of(s, starters[i]) for i, s in enumerate(setup)]
    if not all(isinstance((s or {}).get("saved", ""), str) for s in setup):
        raise BadOptions(Phrase("duel.error.saved"))
    auto_pass = [(s or {}).get("auto_pass", options.auto_pass) for s in setup]
    if not all(isinstance(a, bool) for a in auto_pass):
        raise BadOptions(Phrase("duel.error.auto_pass"))
    return DuelState(decks, seed, life=options.life, auto_pass=auto_pass, ante=options.ante,
                     head_start=options.head_start)


GAME = GameInfo(
    name="duel",
    title="Arcane Duel",
    min_seats=2,
    max_seats=4,
    new_state=new_duel,
    bot=choose,
    rules_text=rules_text,
    default_seats=2,
    default_turn_seconds=120,
    options=DuelOptions,
    has_secrets=True,
    text=render_text,
    option_text=option_words,
    setup=Phrase("duel.setup", starters=", ".join(STARTERS), least=MIN_DECK),
    catalogue=catalogue,
    decks=tuple(STARTERS),
    levels={"easy": easy.choose, "hard": hard.choose},
    unseen=unseen,
    notation_help=Phrase("duel.notation_help"),
)

__all__ = ["GAME", "CardDef", "DuelOptions", "DuelState", "DuelView", "choose", "deck_of",
           "new_duel"]
