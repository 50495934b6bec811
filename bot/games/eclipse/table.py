"""Eclipse's table and hands: a picture of every player's subsets, the safe set
and the last reveal in the channel; each hand, as a picture and as text, with
the pending decision's menu in the player's DM."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord

from bot.games.eclipse.pictures import render_hand, render_table
from bot.games.presenter import COLOUR, GamePresenter, seat_label, shown_names
from bot.matches.live import LiveMatch, PrivateView
from rules.eclipse.placement import COMPLETE
from rules.eclipse.text import cards_text, reveal_text, role, subset_text
from rules.eclipse.view import EclipseView
from rules.words import plural

ROLE_MARK = {"attacker": "⚔️ ", "defender": "🛡️ ", "out": "💀 ", "": ""}


class EclipsePresenter(GamePresenter):
    """Eclipse in Discord."""

    private_title = "your hand"

    def board(self, match: LiveMatch) -> tuple[discord.Embed, list[discord.File]]:
        assert match.state is not None
        view: EclipseView = match.state.observe(None)
        names, text_names = list(match.names), shown_names(match.names)
        hand_no = min(view.hands_played + 1, view.hand_cap)
        title = f"Eclipse — hand {hand_no}" if view.outcome is None else "Eclipse — game over"
        embed = discord.Embed(title=title, colour=COLOUR)
        if view.outcome is None:
            embed.add_field(name="This hand", value=f"**{text_names[view.attacker]}** attacks "
                                                    f"**{text_names[view.defender]}**",
                            inline=False)
        for seat in range(view.seats):
            mark = ROLE_MARK[role(view, seat)]
            if view.out[seat]:
                value = "out of the game"
            else:
                lines = [f"Hand: {plural(view.hand_sizes[seat], 'card')} · in front: "
                         f"{view.cards_in_front(seat)}"]
                lines += [subset_text(subset) for subset in view.subsets[seat]]
                value = "\n".join(lines)
            embed.add_field(name=f"{mark}{seat_label(match, seat)}", value=value, inline=True)
        safe = view.safe_set
        embed.add_field(
            name=f"Safe set {safe.size if safe else 0}/{COMPLETE}",
            value=f"{safe.label}: {cards_text(safe.cards)}" if safe else "empty", inline=True)
        embed.add_field(name="Deck", value=plural(view.deck_size, "card"), inline=True)
        last = reveal_text(view, text_names)
        if last:
            embed.add_field(name="Last reveal", value=last, inline=False)
        filename = f"eclipse-{match.id}-{view.step}.png"
        embed.set_image(url=f"attachment://{filename}")
        picture = discord.File(io.BytesIO(self.table_png(view, names)), filename=filename)
        return embed, [picture]

    def table_png(self, observation: Any, names: Sequence[str]) -> bytes:
        return render_table(observation, names)

    def private_text(self, match: LiveMatch, view: PrivateView) -> str:
        obs: EclipseView = view.observation
        names = shown_names(view.names)
        me = view.seat
        if obs.out[me]:
            situation = "You are out of the game." + (" The game is over."
                                                      if obs.outcome is not None else "")
        elif obs.outcome is not None:
            situation = "The game is over."
        elif me == obs.attacker:
            situation = f"You attack **{names[obs.defender]}** this hand."
        elif me == obs.defender:
            situation = f"**{names[obs.attacker]}** attacks you this hand."
        else:
            situation = f"{names[obs.attacker]} attacks {names[obs.defender]}; you watch."
        lines = [situation]
        hand = obs.hand or ()
        if not obs.out[me]:  # a seat that is out holds nothing: no hand to show
            symbols = [f"{card.label} `{card.code}`" for card in hand if not card.follower]
            followers = sum(card.follower for card in hand)
            lines += ["", f"**Your hand** ({plural(len(hand), 'card')}):"]
            lines.append(" · ".join(symbols) if symbols else "no symbol cards")
            if followers:
                lines.append(f"+ {plural(followers, 'follower')}")
        mine = obs.subsets[me]
        if mine:
            lines += ["", "**In front of you:**"] + [subset_text(s) for s in mine]
        last = reveal_text(obs, names)
        if last:
            lines += ["", f"Last reveal: {last}"]
        return "\n".join(lines)

    def hand_png(self, view: PrivateView) -> bytes:
        obs: EclipseView = view.observation
        return render_hand(obs.hand or ())
