"""Arcane Duel's game options: starting life, automatic passing, the ante and how
the first player's head start is offset."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from rules.options import GameOptions

HeadStart = Literal["no-draw", "draw", "card", "life"]
"""The values of ``head_start``: how the first player's head start is offset.

- ``no-draw``: the first player skips the draw of their first turn (the default:
  it brings the first mover nearest an even score, see ``docs/rules/duel.md``);
- ``draw``: nothing offsets it, the first player draws too (the seed read literally);
- ``card``: every other player opens with one card more;
- ``life``: every other player starts with one life more.
"""
DEFAULT_HEAD_START: HeadStart = "no-draw"
SEED_HEAD_START: HeadStart = "draw"
"""The seed's literal rule, and what a match stored before ``head_start`` existed
played by (it had no such key; a storage migration writes it into such a match)."""


class DuelOptions(GameOptions):
    """The options of one duel.

    >>> DuelOptions.parse({})
    DuelOptions(life=20, auto_pass=True, ante=False, head_start='no-draw')
    >>> DuelOptions.parse({"life": "7", "auto_pass": "no", "ante": "yes",
    ...                    "head_start": "draw"})
    DuelOptions(life=7, auto_pass=False, ante=True, head_start='draw')
    """

    title: ClassVar[str] = "Arcane Duel"

    life: int = Field(20, ge=1, le=99, description="life each player starts with")
    auto_pass: bool = Field(
        True, description="pass a priority window at once for a player who can play "
                          "nothing in it")
    ante: bool = Field(
        False, description="set each player's top library card aside for ante: the winner "
                           "keeps both")
    head_start: HeadStart = Field(
        DEFAULT_HEAD_START,
        description="how moving first is offset (no-draw: the first player skips their first "
                    "draw; draw: the seed's rule)",
        json_schema_extra={"labels": {
            "no-draw": "first player skips their first draw",
            "draw": "first player draws too (the seed)",
            "card": "a card more for the others",
            "life": "a life more for the others"}})
