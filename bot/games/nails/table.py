"""Hammer & Nails in Discord: a picture of the build stack on the table; each
hand as tile pictures in the player's DM, where a placement is chosen by tile,
then from that tile's legal places (a page of menus at a time). Every word is made
in the locale being spoken (the channel's, or the reader's in a DM)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord
from rich.console import RenderableType

from bot.games.nails.pictures import render_hand, render_stack
from bot.games.nails.terminal import nails_view
from bot.games.presenter import COLOUR, GamePresenter, seat_label, shown, shown_names
from bot.i18n import say, tr, trn
from bot.matches.live import LiveMatch, PrivateView
from rules.nails.stack import PLACING
from rules.nails.state import NailsView
from rules.nails.text import count_text, goal, tile_text
from rules.nails.words import a_piece, colour_name, deck_name


class NailsPresenter(GamePresenter):
    """Hammer & Nails."""

    @property
    def private_title(self) -> str:  # type: ignore[override]
        """What a seat's DM is called, in the locale spoken."""
        return tr("nails.table.private_title")

    @property
    def terminal_notes(self) -> str:  # type: ignore[override]
        """What the local table's help adds, in the locale spoken."""
        return tr("nails.terminal.notes", command="picture hand")

    def board(self, match: LiveMatch) -> tuple[discord.Embed, list[discord.File]]:
        assert match.state is not None
        view: NailsView = match.state.observe(None)
        names = list(match.names)
        embed = discord.Embed(title=tr("nails.text.title", deck=say(deck_name(view.deck))),
                              colour=COLOUR)
        for seat in range(view.seats):
            turn = "▶ " if view.outcome is None and seat == view.turn else ""
            count = say(count_text(view, seat))
            tiles = trn("nails.tiles", view.hand_sizes[seat])
            value = (tr("nails.table.seat_penalty", tally=count, tiles=tiles,
                        penalty=view.penalties[seat]) if view.penalties[seat]
                     else tr("nails.table.seat", tally=count, tiles=tiles))
            embed.add_field(name=tr("nails.table.seat_name", turn=turn,
                                    name=seat_label(match, seat),
                                    colour=say(colour_name(view.colours[seat]))),
                            value=value, inline=True)
        state_line = tr("nails.table.state", deck=view.deck_size, discards=view.discard_size,
                        goal=say(goal(view)))
        if view.final_round and view.outcome is None:
            state_line += tr("nails.table.final_round")
        if view.obligation and view.outcome is None:
            colour, by = view.obligation
            state_line += "\n" + tr("nails.table.must_cover",
                                    nail=say(a_piece(view.nail_word, colour)),
                                    by=shown(names[by]))
        embed.add_field(name=tr("nails.table.table"), value=state_line, inline=False)
        filename = f"nails-{match.id}-{view.step}.png"
        embed.set_image(url=f"attachment://{filename}")
        picture = discord.File(io.BytesIO(self.table_png(view, names)), filename=filename)
        return embed, [picture]

    def table_png(self, observation: Any, names: Sequence[str]) -> bytes:
        return render_stack(observation, names)

    def key_label(self, match: LiveMatch, view: PrivateView, key: str, count: int) -> str:
        return trn("nails.table.key_label", count, tile=key)

    def private_text(self, match: LiveMatch, view: PrivateView) -> str:
        obs: NailsView = view.observation
        names = shown_names(view.names)
        me = view.seat
        if obs.outcome is not None:
            situation = tr("nails.table.over")
        elif obs.turn == me:
            situation = tr("nails.table.your_turn")
        else:
            situation = tr("nails.table.playing", name=names[obs.turn])
        aim = say(goal(obs))
        if obs.in_hand is None:
            count = tr("nails.table.count_final", tally=obs.showing[me], goal=aim)
        elif obs.colours.count(obs.colours[me]) > 1:  # a teammate's hand is unseen
            count = tr("nails.table.count_team", tally=obs.showing[me], hand=obs.in_hand,
                       goal=aim)
        else:
            count = tr("nails.table.count_now", tally=obs.showing[me], hand=obs.in_hand,
                       total=obs.showing[me] + obs.in_hand, goal=aim)
        you_play = (tr("nails.table.you_play.ship", colour=say(colour_name(obs.colours[me])))
                    if obs.nail_word == "ship" else
                    tr("nails.table.you_play.nail", colour=say(colour_name(obs.colours[me]))))
        lines = [f"{you_play} {situation}", count, "",
                 trn("nails.table.your_hand", len(obs.hand or ()))]
        lines += [say(tile_text(tile, obs.nail_word, obs.hammer_word)) for tile in obs.hand or ()]
        if obs.revealed is not None:
            lines += ["", tr("nails.table.shown")]
            lines += [say(tile_text(tile, obs.nail_word, obs.hammer_word))
                      for tile in obs.revealed]
        if view.decision is not None and view.decision.kind in PLACING:
            lines += ["", tr("nails.table.pick_tile")]
        return "\n".join(lines)

    def hand_png(self, view: PrivateView) -> bytes:
        obs: NailsView = view.observation
        return render_hand(obs.hand or ())

    def terminal(self, observation: Any, names: Sequence[str]) -> RenderableType:
        """The text view, the zones' order said (:func:`.terminal.nails_view`)."""
        return nails_view(observation, names)
