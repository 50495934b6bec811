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
from bot.i18n import say, tr, trn
from bot.matches.live import LiveMatch, PrivateView
from rules.core import NOTHING, Decision
from rules.duel.phrasing import phase
from rules.duel.state import DuelView
from rules.duel.table_words import (
    answering,
    ante_line,
    asking,
    now_lines,
    option_words,
    render_text,
)
from rules.words import clip

OPTION_TEXT = 100
"""Longest option label (Discord's menu limit)."""

MENU_ROWS = 4
"""Select menus a DM holds: a message has five rows, and the buttons take one."""

BUTTONS: dict[str, discord.ButtonStyle] = {
    "attack": discord.ButtonStyle.danger, "end": discord.ButtonStyle.secondary,
    "pass": discord.ButtonStyle.secondary, "cancel": discord.ButtonStyle.secondary,
    NOTHING: discord.ButtonStyle.secondary,
}
"""The choices that are buttons rather than menu entries, with their styles."""
PLAY_MENUS = ("land", "cast", "use", "boost")
"""How the plays of a main phase or a priority window are grouped into menus."""


def button_label(word: str) -> str:
    """A one-word choice's button label, in the locale spoken."""
    labels = {"attack": tr("duel.button.attack"), "end": tr("duel.button.end"),
              "pass": tr("duel.button.pass"), "cancel": tr("duel.button.cancel")}
    return labels.get(word, tr("duel.button.none"))


def menu_placeholder(verb: str) -> str:
    """The placeholder of the menu of one kind of play, in the locale spoken."""
    placeholders = {"land": tr("duel.menu.land"), "cast": tr("duel.menu.cast"),
                    "use": tr("duel.menu.use")}
    return placeholders.get(verb, tr("duel.menu.boost"))


def option_label(view: DuelView, decision: Decision, option: str,
                 names: Sequence[str]) -> str:
    """What choosing ``option`` does, in the locale spoken, as a menu holds it."""
    return clip(say(option_words(view, decision, option, names)), OPTION_TEXT)


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
    line = tr("duel.board.whose_phase", who=names[view.active], phase=say(phase(view.phase)))
    if view.deciding is not None and view.asking != "main":
        line = tr("duel.board.deciding", line=line, who=names[view.deciding],
                  doing=say(asking(view)))
    return line


class DuelPresenter(GamePresenter):
    """Arcane Duel in Discord."""

    @property
    def private_title(self) -> str:  # type: ignore[override]
        """What a seat's DM is called, in the locale spoken."""
        return tr("duel.table.private_title")

    def menu_groups(self, match: LiveMatch, decision: Decision,
                    observation: Any) -> list[tuple[str, list[tuple[str, str]]]]:
        # An option's words may be long (a card's whole effect): cut to the menu's room.
        return [(prompt, [(clip(label, OPTION_TEXT), option) for label, option in entries])
                for prompt, entries in super().menu_groups(match, decision, observation)]

    def option_labels(self, match: LiveMatch, view: PrivateView) -> list[str]:
        """Each option of the seat's pending decision in the duel's words."""
        return [clip(label, OPTION_TEXT) for label in super().option_labels(match, view)]

    def board(self, match: LiveMatch) -> tuple[discord.Embed, list[discord.File | Drawing]]:
        """The battlefield picture; each player's counts (and the ante, which the
        picture leaves out), the stack and the attack in words (what the picture
        shows, for those who cannot see it)."""
        assert match.state is not None
        view: DuelView = match.state.observe(None)
        names = shown_names(match.names)
        embed = discord.Embed(title=tr("duel.board.title", game=match.info.title,
                                       turn=view.turn), colour=COLOUR)
        if view.deciding is not None:
            embed.add_field(name=tr("duel.board.phase"), value=whose_move(view, names),
                            inline=False)
        counts = []
        for seat, player in enumerate(view.players):
            lands = [e for e in view.battlefield if e["controller"] == seat
                     and e["type"] == "land"]
            untapped = sum(not e["tapped"] for e in lands)
            line = trn("duel.board.counts", player["hand"], who=seat_label(match, seat),
                       life=player["life"], library=player["library"], untapped=untapped,
                       lands=len(lands))
            counts.append(tr("duel.board.out", line=line) if player["lost"] else line)
        if any(view.ante):
            counts.append(say(ante_line(view, names)))
        embed.add_field(name=tr("duel.board.players"), value=clip("\n".join(counts), FIELD_VALUE),
                        inline=False)
        under_way = [say(line) for line in now_lines(view, names)]
        if under_way:
            embed.add_field(name=tr("duel.board.under_way"),
                            value=clip("\n".join(under_way), FIELD_VALUE), inline=False)
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
            parts["embed"].add_field(name=tr("duel.lobby.ante"),
                                     value=tr("duel.lobby.ante_terms"), inline=False)
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
        text = say(render_text(observation, names))
        decision = view.decision
        if decision is not None and decision.kind == "priority" and observation.stack:
            text = f"**{say(answering(observation, names))}**\n\n{text}"
        if decision is not None and decision.kind in ("main", "priority") and \
                len(self._play_groups(match, view, decision)) > MENU_ROWS:
            text += "\n" + tr("duel.dm.more_plays")
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
        label = button_label(word)
        if word == NOTHING:  # what choosing nothing means depends on the decision
            label = option_label(view.observation, decision, word, view.names)
        return ChoiceButton(view.match_id, view.step, word, label, BUTTONS[word])

    @staticmethod
    def _play_groups(match: LiveMatch, view: PrivateView, decision: Decision
                     ) -> list[tuple[str, list[tuple[str, str]]]]:
        """The plays of a window as menus of one kind each, 25 at most a menu."""
        groups = []
        for verb in PLAY_MENUS:
            entries = [(option_label(view.observation, decision, o, match.names), o)
                       for o in decision.options if o.startswith(verb + " ")]
            chunks = [entries[i:i + MENU_SIZE] for i in range(0, len(entries), MENU_SIZE)]
            placeholder = menu_placeholder(verb)
            for n, chunk in enumerate(chunks, start=1):
                groups.append((tr("duel.menu.part", menu=placeholder, part=n, parts=len(chunks))
                               if len(chunks) > 1 else placeholder, chunk))
        return groups


def view_step(match: LiveMatch) -> int:
    """The match's step (a picture's name changes with it, so Discord shows the new one)."""
    return match.state.step if match.state is not None else 0
