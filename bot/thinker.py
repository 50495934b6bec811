"""Where computer players think: off the event loop, so a search never stalls the bot.

The match service asks :meth:`Thinker.choose` for a computer seat's choice. The
choice is worked out on a copy of the state, away from the event loop, with the
computer's own random numbers, so the game it thinks about is never the one in
play.
"""

from __future__ import annotations

import asyncio
import random

from rules.core import GameInfo, GameState


class Thinker:
    """Runs computer players' decisions off the event loop."""

    async def choose(self, info: GameInfo, level: str, state: GameState, seat: int,
                     rng: random.Random) -> str:
        """The ``level`` computer's choice for ``seat`` in ``state`` (left untouched)."""
        player = info.computer(level)
        return await asyncio.to_thread(player, state.copy(), seat, rng)

    def close(self) -> None:
        """Stop thinking: nothing is left running after this."""
