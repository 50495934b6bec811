"""How a match looks in Discord: the table message, private messages, replies.

A presenter turns what the rules show (observations, decisions, outcomes) into
message parts — content, embed, files, menus — and nothing else: no game
logic, no I/O. Each game may refine :class:`GamePresenter`; the lobby, the
result and the generic private view are shared by all.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord_parts.limits import MENU_OPTIONS
from bot.discord_parts.replies import Drawing, menu_options, placeholder
from bot.discord_parts.views import (
    SPLIT_FIELDS,
    HandButton,
    LobbyButton,
    OptionPicker,
    PageButton,
    SplitButton,
    choice_menus,
    croupier,
)
from bot.errors import NotSeated, WrongPhase
from bot.i18n import Text, narrate, say, tr, trn
from bot.i18n.options import option_value
from bot.matches.commit import Ack
from bot.matches.hooks import HooksFactory
from bot.matches.levels import computer_named
from bot.matches.live import LiveMatch, PrivateView
from bot.matches.results import place_label, reason_said, verdict
from rules.core import Decision, GameInfo

if TYPE_CHECKING:
    from rich.console import RenderableType

COLOUR = discord.Colour.dark_green()
MENU_SIZE = MENU_OPTIONS
"""Options per select menu (Discord's limit)."""
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def shown(name: str) -> str:
    r"""A display name as Discord text: its markdown escaped, so that it shows as it
    was typed. (Not for select menu labels, which Discord shows as plain text, nor
    for pictures.)

    >>> print(shown("*Ada*_"))
    \*Ada\*\_
    """
    return discord.utils.escape_markdown(name)


def shown_names(names: Sequence[str]) -> list[str]:
    """Every seat's name as Discord text (see :func:`shown`)."""
    return [shown(name) for name in names]


def seat_label(match: LiveMatch, seat: int) -> str:
    """A seat's name, as Discord text, with a robot for computer players (and a
    computer's level)."""
    row = match.seats[seat]
    name = computer_named(shown(row.name), row.level) if row.is_bot else shown(row.name)
    mark = " 🤖" if row.computer_plays else ""
    return f"{name}{mark}"


def channel_match(interaction: discord.Interaction, info: GameInfo) -> LiveMatch:
    """The channel's match, for a game's own command: refused if the channel
    plays another game (or none)."""
    match = croupier(interaction).service.match_in(interaction.channel_id)
    if match.info.name != info.name:
        raise WrongPhase(Text("error.wrong_game", game=match.info.title, wanted=info.title))
    return match


def options_in_group(match: LiveMatch, user_id: int, group: str) -> list[str]:
    """The person's pending options in one group (a tile's places, say)."""
    seat = match.seat_of(user_id)
    if seat is None:
        raise NotSeated()
    decision = match.state.decision_for(seat.seat) if match.playing and match.state else None
    if decision is None:
        return []
    return [o for o in decision.options
            if GamePresenter.option_key(match, decision, o) == group]


def typed_hint(decision: Decision) -> str:
    """How to answer a decision that menus cannot ask (a split, an order, or too
    many options to pick several of), with an example in its notation, in the locale
    spoken.

    >>> typed_hint(Decision(0, "order", "", ("p", "q"), pick="order"))
    '\\nAnswer with `/choose` in the channel, e.g. `p,q` (every one, in your order).'
    """
    options = decision.options
    if decision.pick == "split":
        example = f"{options[0]}={decision.total}"
        how = tr("table.hint.split", total=decision.total, options=", ".join(options[:5]))
    elif decision.pick == "order":
        example, how = ",".join(options[:4]), tr("table.hint.order")
    elif decision.pick == "several" and len(options) > MENU_SIZE:
        example = ",".join(options[:max(decision.least, 1)])
        how = tr("table.hint.several", least=decision.least, most=decision.most)
    else:
        return ""
    return "\n" + tr("table.hint", example=example, how=how)


class GamePresenter:
    """The shared look of every game's table; games override the board parts."""

    filename = "table.png"

    @property
    def private_title(self) -> str:
        """What a seat's DM is called ("your hand", "your tiles" …), in the locale spoken."""
        return tr("table.private_title")

    terminal_notes: str | None = None
    """What the local table's help adds for this game (how its pieces are listed, say)."""

    def __init__(self, *, commands: Sequence[type[app_commands.Group]
                                            | app_commands.Command[Any, ..., Any]] = (),
                 extensions: Sequence[str] = (), hooks: HooksFactory | None = None,
                 local_commands: Sequence[str] = ()) -> None:
        self.commands = tuple(commands)
        """The game's own slash-command groups (each named after its game)."""
        self.extensions = tuple(extensions)
        """The game's own discord.py extensions (cogs with a service of their own,
        such as a card game's collections), loaded with the bot's."""
        self.hooks = hooks
        """Makes the game's :class:`~bot.matches.hooks.MatchHooks` (owned decks, stakes,
        prizes), if it has any."""
        self.local_commands = tuple(local_commands)
        """Modules of the game's own commands at the local table (each module's
        ``LOCAL_COMMANDS``, :class:`~bot.terminal_parts.sitting.LocalCommand` objects),
        imported by the local table only: collections and decks, say, for a card game."""

    # -- parts a game refines ----------------------------------------------
    def board(self, match: LiveMatch) -> tuple[discord.Embed, list[discord.File | Drawing]]:
        """The embed (and picture) of a match in play or finished; a picture may
        be a :class:`~bot.discord_parts.replies.Drawing`, drawn when the table is sent."""
        embed = discord.Embed(title=match.info.title, colour=COLOUR)
        embed.add_field(name=tr("table.players"), value="\n".join(
            seat_label(match, s.seat) for s in match.seats), inline=False)
        return embed, []

    def menu_groups(self, match: LiveMatch, decision: Decision,
                    observation: Any) -> list[tuple[str, list[tuple[str, str]]]]:
        """Menus for a decision: ``[(placeholder, [(label, choice), …]), …]``.

        Options are labelled by the game's own words when it has them (a phrase, said
        in the locale spoken), and split into menus of at most 25 (Discord's limit
        per menu)."""
        describe = match.info.option_text
        entries = [(say(describe(observation, decision, option, match.names), names=match.names)
                    if describe else option, option) for option in decision.options]
        chunks = [entries[i:i + MENU_SIZE] for i in range(0, len(entries), MENU_SIZE)]
        prompt = say(decision.prompt, names=match.names)
        if len(chunks) == 1:
            return [(prompt, chunks[0])]
        return [(placeholder(prompt, f" ({n}/{len(chunks)})"), chunk)
                for n, chunk in enumerate(chunks, start=1)]

    def option_labels(self, match: LiveMatch, view: PrivateView) -> list[str]:
        """Each option of the seat's pending decision in the game's words."""
        decision = view.decision
        if decision is None:
            return []
        describe = match.info.option_text
        return [say(describe(view.observation, decision, option, match.names), names=match.names)
                if describe else option for option in decision.options]

    def terminal(self, observation: Any, names: Sequence[str]) -> RenderableType | None:
        """The local table's view of a seat's observation in :mod:`rich` tables, for
        games that have one (``None``: the game's own words, ``GameInfo.text``)."""
        return None

    def hand_png(self, view: PrivateView) -> bytes | None:
        """A picture of the seat's hand for its DM, in games that draw one."""
        return None

    def table_png(self, observation: Any, names: Sequence[str]) -> bytes | None:
        """The public table's picture of the channel's ``observation`` (the one the
        table's embed shows), in games that draw one. Made from that observation
        alone, so that any side (the web's replays too) can draw what the channel saw."""
        return None

    @staticmethod
    def option_key(match: LiveMatch, decision: Decision, option: str) -> str | None:
        """The group an option belongs to when there are too many for menus (a tile
        of a placement, say), or ``None`` to list it directly: the rules say
        (:attr:`~rules.core.GameInfo.option_group`)."""
        group = match.info.option_group
        return None if group is None else group(decision, option)

    def key_label(self, match: LiveMatch, view: PrivateView, key: str, count: int) -> str:
        """How a group is named in the picker."""
        return trn("table.key_label", count, key=key)

    def decision_items(self, match: LiveMatch, view: PrivateView) -> list[discord.ui.Item[Any]]:
        """Menus for a seat's pending decision: the options themselves, or, when
        there are more than fit, a picker of groups plus the ungrouped options."""
        decision = view.decision
        assert decision is not None
        if decision.pick == "split" and len(decision.options) <= SPLIT_FIELDS:
            return [SplitButton(view.match_id, view.step, tr("table.divide"))]  # or typed
        if decision.pick in ("split", "order"):
            return []  # typed with /choose (see typed_hint)
        if decision.pick == "several":
            if len(decision.options) > MENU_SIZE:
                return []
            return list(choice_menus(view.match_id, view.step,
                                     self.menu_groups(match, decision, view.observation),
                                     secret=True, least=max(decision.least, 1),
                                     most=decision.most))
        keys: dict[str, int] = {}
        loose = []
        for option in decision.options:
            key = self.option_key(match, decision, option)
            if key is None:
                loose.append(option)
            else:
                keys[key] = keys.get(key, 0) + 1
        if len(decision.options) <= MENU_SIZE or not keys or len(keys) > MENU_SIZE:
            return list(choice_menus(view.match_id, view.step,
                                     self.menu_groups(match, decision, view.observation),
                                     secret=True))
        picker = OptionPicker(view.match_id, view.step, menu_options(
            (self.key_label(match, view, key, count), key) for key, count in keys.items()),
            placeholder=placeholder(say(decision.prompt, names=match.names)))
        items: list[discord.ui.Item[Any]] = [picker]
        if loose:
            rest = dataclasses.replace(decision, options=tuple(loose))
            items += choice_menus(view.match_id, view.step,
                                  self.menu_groups(match, rest, view.observation), secret=True)
        return items

    def option_page(self, match: LiveMatch, view: PrivateView, key: str,
                    page: int) -> dict[str, Any]:
        """Page ``page`` of the options in group ``key``: up to four menus of 25,
        with buttons to the other pages."""
        decision = view.decision
        if decision is None:
            return {"content": tr("table.nothing_to_choose"), "view": None}
        mine = tuple(o for o in decision.options if self.option_key(match, decision, o) == key)
        per_page = MENU_SIZE * 4
        pages = max(1, -(-len(mine) // per_page))
        page = min(max(page, 0), pages - 1)
        shown = dataclasses.replace(decision, options=mine[page * per_page:(page + 1) * per_page])
        dm_view = discord.ui.View(timeout=None)
        for item in choice_menus(view.match_id, view.step,
                                 self.menu_groups(match, shown, view.observation), secret=True):
            dm_view.add_item(item)
        if page > 0:
            dm_view.add_item(PageButton(view.match_id, view.step, key, page - 1,
                                        tr("table.page_back")))
        if page + 1 < pages:
            dm_view.add_item(PageButton(view.match_id, view.step, key, page + 1,
                                        tr("table.page_more")))
        label = self.key_label(match, view, key, len(mine))
        return {"content": tr("table.page", label=label, page=page + 1, pages=pages),
                "view": dm_view}

    def private_text(self, match: LiveMatch, view: PrivateView) -> str:
        """A seat's private view as text (games with hands override this)."""
        obs = view.observation
        if dataclasses.is_dataclass(obs):
            lines = [f"**{f.name.replace('_', ' ')}**: {getattr(obs, f.name)}"
                     for f in dataclasses.fields(obs) if f.name != "seat"]
            return "\n".join(lines)
        return str(obs)

    # -- shared ----------------------------------------------------------------
    def table(self, match: LiveMatch, narration: Sequence[str]) -> dict[str, Any]:
        """Message parts of the public table."""
        if match.row.status == "lobby":
            return self.lobby(match)
        if match.row.status in ("cancelled", "abandoned"):
            embed = discord.Embed(title=tr("table.closed", game=match.info.title), colour=COLOUR,
                                  description="\n".join(narration[-3:]) or None)
            return {"content": None, "embed": embed, "attachments": [], "view": None}
        embed, files = self.board(match)
        if narration:
            embed.description = "\n".join(narration[-6:])
        view = discord.ui.View(timeout=None)
        if match.finished:
            self._add_result(match, embed)
        else:
            self._add_turn(match, embed)
            for item in self.table_menus(match):
                view.add_item(item)
            if match.info.has_secrets:
                view.add_item(HandButton(match.id))
        embed.set_footer(text=tr("table.footer", match_id=match.id,
                                 step=match.state.step if match.state else 0))
        return {"content": None, "embed": embed, "attachments": files,
                "view": view if view.children else None}

    def table_menus(self, match: LiveMatch) -> list[discord.ui.Item[Any]]:
        """Menus on the public table: the pending public decision of a person."""
        if match.state is None or match.info.has_secrets:
            return []
        pending = [d for d in match.state.pending() if not match.seats[d.seat].computer_plays]
        if len(pending) != 1:
            return []
        return list(choice_menus(match.id, match.state.step,
                                 self.menu_groups(match, pending[0], match.state.observe(None))))

    def _add_turn(self, match: LiveMatch, embed: discord.Embed) -> None:
        assert match.state is not None
        waiting = []
        for decision in match.state.pending():
            seat = match.seats[decision.seat]
            who = (f"<@{seat.user_id}>" if seat.user_id and not seat.computer_plays
                   else shown(seat.name))
            waiting.append(who)
        chosen = [shown(match.seats[s].name) for s in range(len(match.seats))
                  if match.state.has_chosen(s)]
        value = tr("table.waiting", who=", ".join(waiting)) if waiting else "…"
        if chosen:
            value += "\n" + tr("table.chosen_secret", who=", ".join(chosen))
        if match.row.deadline_at and any(not match.seats[d.seat].computer_plays
                                         for d in match.state.pending()):
            value += "\n" + tr("table.deadline", when=f"<t:{int(match.row.deadline_at)}:R>")
        strikes = [f"{shown(s.name)} {'❌' * s.strikes}" for s in match.seats if s.strikes]
        if strikes:
            value += "\n" + tr("table.strikes", who=", ".join(strikes))
        embed.add_field(name=tr("table.turn"), value=value, inline=False)

    def _add_result(self, match: LiveMatch, embed: discord.Embed) -> None:
        embed.add_field(name=tr("table.result"), value=self.result_text(match), inline=False)

    def result_text(self, match: LiveMatch) -> str:
        """The verdict and the reason, then places, one line per seat, best first:
        a shared place is said as a tie (``=2nd``), several computer winners as
        "Computer players win"."""
        assert match.state is not None
        outcome = match.state.outcome()
        assert outcome is not None
        places = outcome.places
        order = sorted(range(len(match.seats)), key=lambda s: places[s])
        lines = []
        for seat in order:
            place = places[seat]
            score = "" if outcome.scores is None else f" — {outcome.scores[seat]}"
            medal = MEDALS.get(place)
            lines.append(f"{medal + ' ' if medal else ''}{place_label(place, places)} "
                         f"{seat_label(match, seat)}{score}")
        names = shown_names(match.names)
        words = verdict(names, places, match.computer_seats)
        return (tr("table.verdict", verdict=words, reason=reason_said(outcome.reason, names))
                + "\n" + "\n".join(lines))

    def lobby(self, match: LiveMatch) -> dict[str, Any]:
        """The lobby: seats, options and the Join / Leave / Start buttons."""
        embed = discord.Embed(title=tr("lobby.title", game=match.info.title), colour=COLOUR)
        seats = [tr("lobby.seat_host", n=i + 1, name=shown(s.name))
                 if s.user_id == match.row.host_id else f"{i + 1}. {shown(s.name)}"
                 for i, s in enumerate(match.seats)]
        seats += [f"{i + 1}. —" for i in range(len(match.seats), match.row.max_seats)]
        embed.add_field(name=tr("lobby.seats", taken=len(match.seats),
                                most=match.row.max_seats),
                        value="\n".join(seats), inline=False)
        options = match.info.options.parse(match.row.options)
        changed = options.changed()
        game = match.info.name
        embed.add_field(name=tr("lobby.options"), value=", ".join(
            f"{name} {option_value(game, options.spec(name), value)}"
            for name, value in changed.items()) or tr("lobby.usual_options"), inline=False)
        embed.set_footer(text=tr("lobby.footer"))
        view = discord.ui.View(timeout=None)
        for action in ("join", "leave", "start"):
            view.add_item(LobbyButton(action, match.id))
        return {"content": None, "embed": embed, "attachments": [], "view": view}

    def private(self, match: LiveMatch, view: PrivateView) -> dict[str, Any]:
        """A seat's DM (or ephemeral ``/hand`` reply): their view and their menu."""
        embed = discord.Embed(title=tr("table.private", game=match.info.title,
                                       view=self.private_title, match_id=match.id),
                              colour=COLOUR, description=self.private_text(match, view))
        if view.events:
            names = shown_names(view.names)
            embed.add_field(name=tr("table.just_now"), value="\n".join(
                narrate(e, names) for e in view.events), inline=False)
        items: list[discord.ui.Item[Any]] = []
        if view.decision is not None:
            embed.add_field(name=tr("table.your_decision"),
                            value=say(view.decision.prompt, names=shown_names(view.names))
                            + typed_hint(view.decision), inline=False)
            items = self.decision_items(match, view)
        elif match.state is not None and match.state.has_chosen(view.seat):
            embed.add_field(name=tr("table.your_decision"), value=tr("table.chosen_waiting"),
                            inline=False)
        dm_view = discord.ui.View(timeout=None)
        for item in items:
            dm_view.add_item(item)
        attachments = []
        picture = self.hand_png(view)
        if picture is not None:
            filename = f"hand-{view.match_id}-{view.seat}-{view.step}.png"
            embed.set_image(url=f"attachment://{filename}")
            attachments.append(discord.File(io.BytesIO(picture), filename=filename))
        return {"content": None, "embed": embed, "attachments": attachments,
                "view": dm_view if items else None}

    def acknowledge(self, ack: Ack) -> str:
        """The reply to a choice made in a DM or ephemeral menu."""
        if ack.duplicate:
            return tr("table.ack.duplicate")
        if ack.held:
            return tr("table.ack.held", choice=ack.choice)
        return tr("table.ack.chosen", choice=ack.choice)
