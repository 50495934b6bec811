"""Eclipse's table and hands: a picture of every player's subsets, the safe set
and the last reveal in the channel; each hand, as a picture and as text, with
the pending decision's menu in the player's DM. Every word comes from the
``eclipse`` catalog, in the language being spoken (docs/i18n.md)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord
from rich.text import Text as RichText

from bot.games.eclipse.pictures import render_hand, render_table
from bot.games.presenter import COLOUR, GamePresenter, seat_label, shown_names
from bot.i18n import say, tr, trn
from bot.matches.live import LiveMatch, PrivateView
from rules.eclipse.placement import COMPLETE
from rules.eclipse.text import cards_text, render_text, reveal_text, role, subset_text
from rules.eclipse.view import EclipseView

ROLE_MARK = {"attacker": "⚔️ ", "defender": "🛡️ ", "out": "💀 ", "": ""}


class EclipsePresenter(GamePresenter):
    """Eclipse in Discord."""

    @property
    def private_title(self) -> str:  # type: ignore[override]
        """What a seat's DM is called, in the language being spoken."""
        return tr("eclipse.table.private_title")

    def board(self, match: LiveMatch) -> tuple[discord.Embed, list[discord.File]]:
        assert match.state is not None
        view: EclipseView = match.state.observe(None)
        names, text_names = list(match.names), shown_names(match.names)
        hand_no = min(view.hands_played + 1, view.hand_cap)
        title = tr("eclipse.table.title", hand=hand_no) if view.outcome is None \
            else tr("eclipse.table.title_over")
        embed = discord.Embed(title=title, colour=COLOUR)
        if view.outcome is None:
            embed.add_field(name=tr("eclipse.table.this_hand"),
                            value=tr("eclipse.table.attacks", attacker=text_names[view.attacker],
                                     defender=text_names[view.defender]), inline=False)
        for seat in range(view.seats):
            mark = ROLE_MARK[role(view, seat)]
            if view.out[seat]:
                value = tr("eclipse.table.out_of_game")
            else:
                lines = [trn("eclipse.table.seat", view.hand_sizes[seat],
                             front=view.cards_in_front(seat))]
                lines += [say(subset_text(subset)) for subset in view.subsets[seat]]
                value = "\n".join(lines)
            embed.add_field(name=f"{mark}{seat_label(match, seat)}", value=value, inline=True)
        safe = view.safe_set
        embed.add_field(
            name=tr("eclipse.table.safe_set", size=safe.size if safe else 0, complete=COMPLETE),
            value=tr("eclipse.table.safe_cards", label=safe.shown, cards=cards_text(safe.cards))
            if safe else tr("eclipse.table.empty"), inline=True)
        embed.add_field(name=tr("eclipse.table.deck"),
                        value=trn("eclipse.table.cards", view.deck_size), inline=True)
        last = reveal_text(view, text_names)
        if last:
            embed.add_field(name=tr("eclipse.table.last_reveal"), value=say(last), inline=False)
        filename = f"eclipse-{match.id}-{view.step}.png"
        embed.set_image(url=f"attachment://{filename}")
        picture = discord.File(io.BytesIO(self.table_png(view, names)), filename=filename)
        return embed, [picture]

    def table_png(self, observation: Any, names: Sequence[str]) -> bytes:
        return render_table(observation, names)

    def terminal(self, observation: Any, names: Sequence[str]) -> RichText:
        """The local table's view: the table in words, in the language being spoken
        (as plain text: a seat's ``[attacker]`` tag is no markup)."""
        return RichText(say(render_text(observation, names)))

    def private_text(self, match: LiveMatch, view: PrivateView) -> str:
        obs: EclipseView = view.observation
        names = shown_names(view.names)
        me = view.seat
        if obs.out[me]:
            situation = tr("eclipse.dm.out_over") if obs.outcome is not None \
                else tr("eclipse.dm.out")
        elif obs.outcome is not None:
            situation = tr("eclipse.dm.over")
        elif me == obs.attacker:
            situation = tr("eclipse.dm.you_attack", defender=names[obs.defender])
        elif me == obs.defender:
            situation = tr("eclipse.dm.attacks_you", attacker=names[obs.attacker])
        else:
            situation = tr("eclipse.dm.you_watch", attacker=names[obs.attacker],
                           defender=names[obs.defender])
        lines = [situation]
        hand = obs.hand or ()
        if not obs.out[me]:  # a seat that is out holds nothing: no hand to show
            symbols = [f"{card.label} `{card.code}`" for card in hand if not card.follower]
            followers = sum(card.follower for card in hand)
            lines += ["", trn("eclipse.dm.your_hand", len(hand))]
            lines.append(" · ".join(symbols) if symbols else tr("eclipse.text.no_symbol_cards"))
            if followers:
                lines.append(trn("eclipse.dm.followers", followers))
        mine = obs.subsets[me]
        if mine:
            lines += ["", tr("eclipse.dm.in_front")] + [say(subset_text(s)) for s in mine]
        last = reveal_text(obs, names)
        if last:
            lines += ["", tr("eclipse.text.last_reveal", reveal=say(last))]
        return "\n".join(lines)

    def hand_png(self, view: PrivateView) -> bytes:
        obs: EclipseView = view.observation
        return render_hand(obs.hand or ())
