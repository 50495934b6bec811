"""Flank's game options: table size, stoppers, the stopper zone, cards per player and
black's extra stoppers (how moving first is offset)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from rules.options import GameOptions
from rules.phrases import Phrase

MAX_BOARD = 26
MAX_STOPPERS = 10
MAX_TABLE_CARDS = 100
"""Most cards per player on the unbounded table (the seed's game uses 25)."""
BOARDS = (0, *range(4, MAX_BOARD + 1, 2))

Board = Literal[0, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26]
StopperZone = Literal["none", "orthogonal", "ring"]
"""The values of ``stopper_zone``, the default first."""
MAX_EXTRA = 5
"""Most stoppers black may get beyond white's."""
TABLE_EXTRA = 1
"""Black's extra stoppers, when the option is unset, on the unbounded table with
stoppers: white lays the last card there, and one stopper more brings the first mover
nearest an even score with the strongest computer (measurements in docs/rules/flank.md)."""
SEED_EXTRA = 0
"""The seed's literal rule (stoppers "evenly divided"); the default on a board (so 8×8
without stoppers stays Othello) and with ``stoppers=0``."""

class FlankOptions(GameOptions):
    """The options of one game of Flank.

    >>> FlankOptions.parse({"board": "8", "stoppers": 0})
    FlankOptions(board=8, stoppers=0, stopper_zone='none', cards=32, extra_stoppers=0)
    >>> FlankOptions.parse({"board": "8x8"}).board
    8
    >>> FlankOptions.parse({})
    FlankOptions(board=0, stoppers=5, stopper_zone='none', cards=25, extra_stoppers=1)
    >>> FlankOptions.parse({"board": 7})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rules.errors.BadOptions: options.error.one_of(name='board', ...given='7')
    """

    title: ClassVar[str] = "Flank"

    board: Board = Field(
        0, description="the unbounded table, or an N×N board (8×8 without stoppers is Othello)",
        examples=[8], json_schema_extra={
            "labels": {0: "unbounded", **{n: f"{n}×{n}" for n in BOARDS[1:]}},
            "aliases": {"none": 0, "off": 0, "0x0": 0,
                        **{f"{n}x{n}": n for n in BOARDS[1:]}}})
    stoppers: int = Field(5, ge=0, le=MAX_STOPPERS, description="stopper tiles per player")
    stopper_zone: StopperZone = Field(
        "none", description="where no card may be laid by a stoppered one "
                            "(orthogonal: 4 cells; ring: all 8, the seed's rule)")
    cards: int | None = Field(
        None, ge=2, le=MAX_BOARD * MAX_BOARD // 2,
        description=f"cards each, the 2 opening ones included: 2 to {MAX_TABLE_CARDS} unbounded "
                    f"(25 if unset), N×N/2 on an N×N board", examples=[30])
    extra_stoppers: int | None = Field(
        None, ge=0, le=MAX_EXTRA,
        description=f"stoppers more for black, as white lays the last card ({SEED_EXTRA}: the "
                    f"seed; if unset {TABLE_EXTRA} unbounded)", examples=[SEED_EXTRA])

    @model_validator(mode="before")
    @classmethod
    def _cards_for_the_table(cls, values: Any) -> Any:
        if isinstance(values, dict):
            board = values.get("board", 0)
            if values.get("cards") is None:
                values = {**values, "cards": board * board // 2 if board else 25}
            if values.get("extra_stoppers") is None:
                # Only where stoppers are in play: stoppers=0 still means none at all.
                offset = not board and values.get("stoppers", 5) != 0
                values = {**values, "extra_stoppers": TABLE_EXTRA if offset else SEED_EXTRA}
        return values

    @model_validator(mode="after")
    def _cards_fit(self) -> FlankOptions:
        most = self.board * self.board // 2 if self.board else MAX_TABLE_CARDS
        if self.cards is not None and self.cards > most:
            if self.board:
                raise ValueError(Phrase("flank.error.cards_on_board", most=most, n=self.board,
                                        cards=self.cards))
            raise ValueError(Phrase("flank.error.cards_on_table", most=most, cards=self.cards))
        return self

    @property
    def bounded(self) -> bool:
        """True on an N×N board."""
        return self.board != 0

    @property
    def black_stoppers(self) -> int:
        """Stoppers black (the first player) starts with: white's and the extra ones."""
        assert self.extra_stoppers is not None
        return self.stoppers + self.extra_stoppers

    @property
    def card_count(self) -> int:
        """Cards per player (always set once parsed)."""
        assert self.cards is not None
        return self.cards
