"""Arcane Duel's table and DMs: a battlefield picture with a short text summary
and the running log on the table; the hand as a picture (castable cards marked)
with the decision's menus and buttons in the player's DM."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import partial
from typing import Any

import discord
from rich.console import RenderableType

from bot.discord_parts.limits import FIELD_VALUE
from bot.discord_parts.replies import Drawing
from bot.discord_parts.views import ChoiceButton, choice_menus
from bot.games.duel.autopass import auto_passing, said
from bot.games.duel.battlefield import render_battlefield
from bot.games.duel.hand import render_hand
from bot.games.duel.terminal import duel_view
from bot.games.duel.views import AutoPassButton
from bot.games.presenter import COLOUR, MENU_SIZE, GamePresenter, seat_label, shown_names
from bot.matches.live import LiveMatch, PrivateView
from rules.core import NOTHING, Decision
from rules.duel.state import DuelView
from rules.duel.text import (
    answering_text,
    ante_line,
    asking_words,
    now_lines,
    option_text,
    render_text,
)
from rules.words import clip, plural

MENU_ROWS = 4
"""Select menus a DM holds: a message has five rows, and the buttons take one."""

BUTTONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "attack": ("⚔️ Attack", discord.ButtonStyle.danger),
    "end": ("End turn", discord.ButtonStyle.secondary),
    "pass": ("Pass", discord.ButtonStyle.secondary),
    "cancel": ("Cancel", discord.ButtonStyle.secondary),
    NOTHING: ("None", discord.ButtonStyle.secondary),
}
"""The choices that are buttons rather than menu entries, with their labels."""
PLAY_MENUS = (("land", "Play a land"), ("cast", "Cast a spell"),
              ("use", "Use an ability"), ("boost", "Boost a creature"))
"""How the plays of a main phase or a priority window are grouped into menus."""


def playable_cards(decision: Decision | None) -> set[str]:
    """The names of the hand's cards that a decision lets the seat play now.

    >>> sorted(playable_cards(Decision(0, "main", "", ("land Ashpeak", "cast Kindlewhip", "end"))))
    ['Ashpeak', 'Kindlewhip']
    """
    if decision is None or decision.kind not in ("main", "priority"):
        return set()
    return {option.split(" ", 1)[1] for option in decision.options
            if option.startswith(("land ", "cast "))}


def whose_move(view: DuelView, names: list[str]) -> str:
    """Whose phase it is and, when someone else decides, who and what: the table's
    "Turn" field says who is waited for, this says for what.

    >>> from rules.duel.notation import parse
    >>> whose_move(parse("1 p1 main // p1 20 | lib 5 | hand - | gy - | play - "
    ...                  "// p2 20 | lib 5 | hand - | gy - | play -").observe(None), ["Ada", "Bo"])
    "Ada's main phase"
    """
    line = f"{names[view.active]}'s {view.phase} phase"
    if view.deciding is not None and view.asking != "main":
        line += f" · {names[view.deciding]}: {asking_words(view)}"
    return line


class DuelPresenter(GamePresenter):
    """Arcane Duel in Discord."""

    private_title = "your hand"

    def board(self, match: LiveMatch) -> tuple[discord.Embed, list[discord.File | Drawing]]:
        """The battlefield picture; each player's counts (and the ante, which the
        picture leaves out), the stack and the attack in words (what the picture
        shows, for those who cannot see it)."""
        assert match.state is not None
        view: DuelView = match.state.observe(None)
        names = shown_names(match.names)
        embed = discord.Embed(title=f"{match.info.title} — turn {view.turn}", colour=COLOUR)
        if view.deciding is not None:
            embed.add_field(name="Phase", value=whose_move(view, names), inline=False)
        counts = []
        for seat, player in enumerate(view.players):
            lands = [e for e in view.battlefield if e["controller"] == seat
                     and e["type"] == "land"]
            untapped = sum(not e["tapped"] for e in lands)
            state = " · **out**" if player["lost"] else ""
            counts.append(f"{seat_label(match, seat)}: **{player['life']}** life · "
                          f"{plural(player['hand'], 'card')} in hand · library "
                          f"{player['library']} · lands {untapped}/{len(lands)}{state}")
        if any(view.ante):
            counts.append(ante_line(view, names))
        embed.add_field(name="Players", value=clip("\n".join(counts), FIELD_VALUE), inline=False)
        under_way = now_lines(view, names)
        if under_way:
            embed.add_field(name="Stack and attack", value=clip("\n".join(under_way), FIELD_VALUE),
                            inline=False)
        filename = f"duel-{match.id}-{view_step(match)}.png"
        embed.set_image(url=f"attachment://{filename}")
        # The view is a snapshot: the picture may be drawn later, off the event loop.
        return embed, [Drawing(filename, partial(self.table_png, view, list(match.names)))]

    def table_png(self, observation: Any, names: Sequence[str]) -> bytes:
        return render_battlefield(observation, names)

    def lobby(self, match: LiveMatch) -> dict[str, Any]:
        """The lobby; a table played for ante says so, and what joining means."""
        parts = super().lobby(match)
        if match.row.options.get("ante"):
            parts["embed"].add_field(name="Played for ante", value=(
                "As the duel starts, the top card of each library is set aside: the "
                "winner keeps them all; a draw or a cancelled duel gives each back. "
                "Taking a seat agrees to it. Bring a deck of your own: "
                "`/join deck:` one of your /deck list."), inline=False)
        return parts

    def private(self, match: LiveMatch, view: PrivateView) -> dict[str, Any]:
        """The seat's DM, with its automatic passing said and a button that turns it
        off or on (the seat's own, shown to it alone) while the duel is played."""
        parts = super().private(match, view)
        if not match.playing:
            return parts
        on = auto_passing(match, view.seat)
        parts["embed"].set_footer(text=said(on))
        buttons = parts["view"] or discord.ui.View(timeout=None)
        try:
            buttons.add_item(AutoPassButton(view.match_id, not on))
        except ValueError:  # a message full of menus: the setting is said, not offered
            return parts
        parts["view"] = buttons
        return parts

    def private_text(self, match: LiveMatch, view: PrivateView) -> str:
        """The whole table as the seat sees it, with its hand."""
        observation: Any = view.observation
        names = shown_names(view.names)
        text = render_text(observation, names)
        decision = view.decision
        if decision is not None and decision.kind == "priority" and observation.stack:
            text = f"**{answering_text(observation, names)}**\n\n{text}"
        if decision is not None and decision.kind in ("main", "priority") and \
                len(self._play_groups(match, view, decision)) > MENU_ROWS:
            text += ("\nMore plays than a message's menus hold: type the others with "
                     "`/choose` in the channel (it suggests them).")
        return text

    def terminal(self, observation: Any, names: Sequence[str]) -> RenderableType:
        """The duel in rich tables (:func:`~bot.games.duel.terminal.duel_view`)."""
        return duel_view(observation, names)

    def hand_png(self, view: PrivateView) -> bytes:
        """The seat's hand, the cards it may play now marked."""
        observation: DuelView = view.observation
        return render_hand(observation.hand, playable_cards(view.decision))

    def decision_items(self, match: LiveMatch, view: PrivateView) -> list[discord.ui.Item[Any]]:
        """Menus by kind of play (lands, spells, abilities, boosts), and buttons
        for the one-word choices (attack, end turn, pass, cancel, no blockers,
        a damage split's form)."""
        decision = view.decision
        assert decision is not None
        if decision.pick == "split":
            return super().decision_items(match, view)  # the form (or typed, when long)
        words = [o for o in decision.options if o in BUTTONS and decision.pick == "one"]
        if decision.takes_nothing:
            words.append(NOTHING)
        buttons = [self._button(view, decision, word) for word in words]
        if decision.kind in ("main", "priority"):
            menus: list[discord.ui.Item[Any]] = list(choice_menus(
                view.match_id, view.step, self._play_groups(match, view, decision)[:MENU_ROWS],
                secret=True))
        else:
            rest = dataclasses.replace(decision, options=tuple(
                o for o in decision.options if o not in BUTTONS or decision.pick != "one"))
            menus = (list(super().decision_items(match, dataclasses.replace(
                view, decision=rest))) if rest.options else [])
        return [*menus[:MENU_ROWS], *buttons]

    @staticmethod
    def _button(view: PrivateView, decision: Decision, word: str) -> ChoiceButton:
        label, style = BUTTONS[word]
        if word == NOTHING:  # what choosing nothing means depends on the decision
            label = option_text(view.observation, decision, word, view.names)
        return ChoiceButton(view.match_id, view.step, word, label, style)

    @staticmethod
    def _play_groups(match: LiveMatch, view: PrivateView, decision: Decision
                     ) -> list[tuple[str, list[tuple[str, str]]]]:
        """The plays of a window as menus of one kind each, 25 at most a menu."""
        groups = []
        for verb, placeholder in PLAY_MENUS:
            entries = [(option_text(view.observation, decision, o, match.names), o)
                       for o in decision.options if o.startswith(verb + " ")]
            chunks = [entries[i:i + MENU_SIZE] for i in range(0, len(entries), MENU_SIZE)]
            for n, chunk in enumerate(chunks, start=1):
                more = f" ({n}/{len(chunks)})" if len(chunks) > 1 else ""
                groups.append((placeholder + more, chunk))
        return groups


def view_step(match: LiveMatch) -> int:
    """The match's step (a picture's name changes with it, so Discord shows the new one)."""
    return match.state.step if match.state is not None else 0
