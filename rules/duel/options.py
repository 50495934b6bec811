"""Arcane Duel's game options: starting life, automatic passing and the ante."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from rules.options import GameOptions


class DuelOptions(GameOptions):
    """The options of one duel.

    >>> DuelOptions.parse({})
    DuelOptions(life=20, auto_pass=True, ante=False)
    >>> DuelOptions.parse({"life": "7", "auto_pass": "no", "ante": "yes"})
    DuelOptions(life=7, auto_pass=False, ante=True)
    """

    title: ClassVar[str] = "Arcane Duel"

    life: int = Field(20, ge=1, le=99, description="life each player starts with")
    auto_pass: bool = Field(
        True, description="pass a priority window at once for a player who can play "
                          "nothing in it")
    ante: bool = Field(
        False, description="set each player's top library card aside for ante: the winner "
                           "keeps both")
