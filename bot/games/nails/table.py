"""Hammer & Nails in Discord: a picture of the build stack on the table; each
hand as tile pictures in the player's DM, where a placement is chosen by tile,
then from that tile's legal places (a page of menus at a time)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord
from rich.console import RenderableType

from bot.games.nails.pictures import render_hand, render_stack
from bot.games.nails.terminal import NOTES, nails_view
from bot.games.presenter import COLOUR, GamePresenter, seat_label, shown, shown_names
from bot.matches.live import LiveMatch, PrivateView
from rules.nails.stack import PLACING
from rules.nails.state import NailsView
from rules.nails.text import count_text, tile_text
from rules.words import plural


class NailsPresenter(GamePresenter):
    """Hammer & Nails."""

    private_title = "your tiles"
    terminal_notes = NOTES

    def board(self, match: LiveMatch) -> tuple[discord.Embed, list[discord.File]]:
        assert match.state is not None
        view: NailsView = match.state.observe(None)
        names = list(match.names)
        embed = discord.Embed(title=f"Hammer & Nails — {view.deck} deck", colour=COLOUR)
        word = view.nail_word
        for seat in range(view.seats):
            turn = "▶ " if view.outcome is None and seat == view.turn else ""
            embed.add_field(
                name=f"{turn}{seat_label(match, seat)} — {view.colours[seat]}",
                value=f"{count_text(view, seat)} · {plural(view.hand_sizes[seat], 'tile')}"
                      + (f" · {view.penalties[seat]} penalty" if view.penalties[seat] else ""),
                inline=True)
        goal = "most" if view.most_wins else "fewest"
        state_line = f"Deck {view.deck_size} · discards {view.discard_size} · {goal} {word}s win"
        if view.final_round and view.outcome is None:
            state_line += " · **final round**"
        if view.obligation and view.outcome is None:
            colour, by = view.obligation
            state_line += f"\nMust cover a **{colour} {word}** (fired by {shown(names[by])})"
        embed.add_field(name="Table", value=state_line, inline=False)
        filename = f"nails-{match.id}-{view.step}.png"
        embed.set_image(url=f"attachment://{filename}")
        picture = discord.File(io.BytesIO(self.table_png(view, names)), filename=filename)
        return embed, [picture]

    def table_png(self, observation: Any, names: Sequence[str]) -> bytes:
        return render_stack(observation, names)

    def key_label(self, match: LiveMatch, view: PrivateView, key: str, count: int) -> str:
        return f"Tile {key}: {count} place{'s' if count != 1 else ''} it can go"

    def private_text(self, match: LiveMatch, view: PrivateView) -> str:
        obs: NailsView = view.observation
        names = shown_names(view.names)
        me = view.seat
        if obs.outcome is not None:
            situation = "The game is over."
        elif obs.turn == me:
            situation = "It is your turn."
        else:
            situation = f"{names[obs.turn]} is playing."
        goal = f"{'most' if obs.most_wins else 'fewest'} {obs.nail_word}s win"
        if obs.in_hand is None:
            count = f"Your count: {obs.showing[me]}, hands included ({goal})."
        elif obs.colours.count(obs.colours[me]) > 1:  # a teammate's hand is unseen
            count = (f"Your team's count: {obs.showing[me]} (your colour showing and "
                     f"penalties) + {obs.in_hand} in your hand + your teammate's hand "
                     f"at the end ({goal}).")
        else:
            count = (f"Your count: {obs.showing[me]} (your colour showing and penalties) "
                     f"+ {obs.in_hand} in your hand = {obs.showing[me] + obs.in_hand} "
                     f"if the game ended now ({goal}).")
        lines = [f"You play **{obs.colours[me]}** {obs.nail_word}s. {situation}", count, "",
                 f"**Your hand** ({plural(len(obs.hand or ()), 'tile')}):"]
        lines += [tile_text(tile, obs.nail_word, obs.hammer_word) for tile in obs.hand or ()]
        if obs.revealed is not None:
            lines += ["", "**Shown to you** (the challenger's hand):"]
            lines += [tile_text(tile, obs.nail_word, obs.hammer_word) for tile in obs.revealed]
        if view.decision is not None and view.decision.kind in PLACING:
            lines += ["", "Pick a tile below to see where it can go, or type "
                          "`/nails place tile at rotate` in the channel."]
        return "\n".join(lines)

    def hand_png(self, view: PrivateView) -> bytes:
        obs: NailsView = view.observation
        return render_hand(obs.hand or ())

    def terminal(self, observation: Any, names: Sequence[str]) -> RenderableType:
        """The text view, the zones' order said (:func:`.terminal.nails_view`)."""
        return nails_view(observation, names)
