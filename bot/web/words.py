"""The few words the web's Python chooses (the rest live in the templates): a game's
title and a finishing place, both from the modules Discord uses too (the place in the
locale spoken), so the two sides never name a thing two ways."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.matches.results import place_label
from rules.registry import games


class Placed(Protocol):
    """Anything with a seat and a place (a finished match's seat)."""

    seat: int
    place: int


def game_titles() -> dict[str, str]:
    """Every game's title by its key, in the registry's order."""
    return {name: info.title for name, info in games().items()}


def places(seats: Sequence[Placed]) -> dict[int, str]:
    """Each seat's place as a ranking says it (``=2nd`` when shared), by seat."""
    all_places = [s.place for s in seats]
    return {s.seat: place_label(s.place, all_places) for s in seats}
