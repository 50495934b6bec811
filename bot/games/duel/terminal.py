"""Arcane Duel at the local table, in :mod:`rich` tables: the players' counts, each
one's permanents, the stack, the attack and the seat's own hand.

Built from a seat's observation only (never from the state), so it shows exactly
what that seat may see: the other players' hands and every library are counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from bot.i18n import say, tr, trn
from bot.i18n.cards import card_name, card_type_line
from rules.duel.cards import card
from rules.duel.phrasing import card_type, keyword, listed, phase
from rules.duel.state import DuelView
from rules.duel.table_words import ante_line, asking, stage


def duel_view(view: DuelView, names: Sequence[str]) -> RenderableType:
    """A duel as the Discord table shows it, in tables: the players' counts (and
    the ante, in a duel for ante), each one's permanents, the stack, the attack,
    and the seat's own hand."""
    parts: list[RenderableType] = [_duel_heading(view, names), _duel_players(view, names)]
    if any(view.ante):
        parts.append(Text(say(ante_line(view, names))))  # a plain Text: names are no markup
    for seat in range(len(view.players)):
        permanents = _duel_permanents(view, seat)
        if permanents.row_count:
            title = (tr("duel.terminal.your_permanents") if seat == view.seat
                     else tr("duel.terminal.permanents_of", who=names[seat]))
            parts.append(_titled(title, permanents))
    if view.stack:
        parts.append(_titled(tr("duel.terminal.stack"), _duel_stack(view, names)))
    if view.combat is not None:
        now = view.combat.get("stage")
        parts.append(_titled(tr("duel.terminal.attack_stage", stage=say(stage(now))) if now
                             else tr("duel.terminal.attack"), _duel_attack(view)))
    if view.seat is not None:  # a seat's view holds its own hand only
        parts.append(_titled(tr("duel.terminal.your_hand"), _duel_hand(view.hand)) if view.hand
                     else Text(tr("duel.terminal.your_hand_empty")))
    return Group(*parts)


def _duel_heading(view: DuelView, names: Sequence[str]) -> Text:
    line = tr("duel.terminal.heading", turn=view.turn, who=names[view.active],
              phase=say(phase(view.phase)))
    if view.deciding is not None:
        line = tr("duel.terminal.to_act", line=line, who=_who(view, view.deciding, names),
                  doing=say(asking(view)))
    return Text(line, style="bold")


def _who(view: DuelView, seat: int, names: Sequence[str]) -> str:
    return tr("duel.terminal.you", who=names[seat]) if seat == view.seat else names[seat]


def _duel_players(view: DuelView, names: Sequence[str]) -> Table:
    table = _table("", tr("duel.terminal.column.player"), tr("duel.terminal.column.life"),
                   tr("duel.terminal.column.hand"), tr("duel.terminal.column.library"),
                   tr("duel.terminal.column.graveyard"), tr("duel.terminal.column.pool"))
    for column in table.columns[2:6]:
        column.justify = "right"
    for seat, player in enumerate(view.players):
        # ▶ the active player; ● whoever must decide now (often someone else).
        mark = ("▶" if seat == view.active else "") + ("●" if seat == view.deciding else "")
        pool = "".join(colour * n for colour, n in sorted(player["pool"].items()))
        who = _who(view, seat, names)
        if player["lost"]:
            who = tr("duel.terminal.lost", who=who)
        table.add_row(*_cells(mark, who, player["life"], player["hand"], player["library"],
                              len(player["graveyard"]), pool or "-"))
    return table


def _duel_permanents(view: DuelView, seat: int) -> Table:
    """Lands grouped by name (ids, how many, how many untapped), then one row per
    other permanent."""
    table = _table(tr("duel.terminal.column.id"), tr("duel.terminal.column.card"),
                   tr("duel.terminal.column.stats"), tr("duel.terminal.column.keywords"),
                   tr("duel.terminal.column.state"))
    table.columns[1].no_wrap = True  # a card's name reads best whole; its state may wrap
    own = [e for e in view.battlefield if e["controller"] == seat]
    lands: dict[str, list[dict[str, Any]]] = {}
    for entry in own:
        if entry["type"] == "land":
            lands.setdefault(entry["name"], []).append(entry)
    for name, group in lands.items():
        untapped = sum(1 for e in group if not e["tapped"])
        ids = ", ".join(str(i) for i in sorted(e["id"] for e in group))
        table.add_row(*_cells(ids, f"{card_name(name)} ×{len(group)}", "", "",
                              tr("duel.terminal.untapped", untapped=untapped, lands=len(group))))
    for entry in own:
        if entry["type"] != "land":
            table.add_row(*_cells(*_duel_permanent(entry, view.names)))
    return table


def _duel_permanent(entry: dict[str, Any], names: dict[int, str]) -> tuple[Any, ...]:
    creature = "power" in entry
    stats = f"{entry['power']}/{entry['toughness']}" if creature else ""
    # Only creatures have keywords in the view; the others say what they are there.
    keywords = (say(listed([keyword(k) for k in entry["keywords"]])) if creature
                else say(card_type(entry["type"])))
    state = [flag for flag, on in ((tr("duel.table.tapped"), entry["tapped"]),
                                   (tr("duel.table.sick"), entry["sick"] and creature),
                                   (tr("duel.table.damage", amount=entry["damage"]),
                                    entry["damage"]),
                                   (trn("duel.table.shields", entry["shields"]),
                                    entry["shields"]))
             if on]
    if entry["attached"] is not None:
        state.append(tr("duel.table.on", card=_card_ref(entry["attached"], names)))
    return entry["id"], card_name(entry["name"]), stats, keywords, ", ".join(state)


def _duel_stack(view: DuelView, names: Sequence[str]) -> Table:
    table = _table(tr("duel.terminal.column.id"), tr("duel.terminal.column.spell"),
                   tr("duel.terminal.column.controller"), tr("duel.terminal.column.target"), "X")
    for item in reversed(view.stack):  # the view lists it bottom first
        name = (tr("duel.picture.interrupt", item=card_name(item["name"])) if item["interrupt"]
                else card_name(item["name"]))
        target = _target(item["target"], view, names) if item["target"] else ""
        table.add_row(*_cells(item["id"], name, names[item["controller"]], target,
                              item["x"] or ""))
    return table


def _duel_attack(view: DuelView) -> Table:
    """One row per attacker: its P/T, whether it is in the band, what blocks it
    (a band's blockers are listed on its first member, as the rules key them)."""
    combat = view.combat
    assert combat is not None
    table = _table(tr("duel.terminal.column.id"), tr("duel.terminal.column.attacker"),
                   tr("duel.terminal.column.stats"), tr("duel.terminal.column.band"),
                   tr("duel.terminal.column.blocked_by"))
    perms = {e["id"]: e for e in view.battlefield}
    for attacker in combat["attackers"]:
        entry = perms.get(attacker, {})
        stats = f"{entry['power']}/{entry['toughness']}" if "power" in entry else ""
        blockers = ", ".join(_card_ref(b, view.names)
                             for b in combat["blocks"].get(attacker, ()))
        name = view.names.get(attacker)
        table.add_row(*_cells(attacker, card_name(name) if name else "?", stats,
                              tr("duel.terminal.in_band") if attacker in combat["band"] else "",
                              blockers or "-"))
    return table


def _duel_hand(hand: Sequence[str]) -> Table:
    table = _table(tr("duel.terminal.column.card"), tr("duel.terminal.column.cost"),
                   tr("duel.terminal.column.type"))
    for name, copies in Counter(hand).items():
        data = card(name)
        stats = f" · {data.power}/{data.toughness}" if data.is_creature else ""
        table.add_row(*_cells(card_name(name) + (f" ×{copies}" if copies > 1 else ""),
                              data.cost or "", card_type_line(name) + stats))
    return table


def _card_ref(cid: int, names: dict[int, str]) -> str:
    return f"{cid} {card_name(names[cid])}" if cid in names else str(cid)


def _target(ref: str, view: DuelView, names: Sequence[str]) -> str:
    """``p2`` → the player's name; ``12`` → ``12 Fenrot Ghoul``."""
    if ref.startswith("p") and ref[1:].isdigit() and 0 < int(ref[1:]) <= len(names):
        return names[int(ref[1:]) - 1]
    return _card_ref(int(ref), view.names) if ref.isdigit() else ref


# -- shared table parts --------------------------------------------------------------------
def _table(*columns: str) -> Table:
    table = Table(box=None, padding=(0, 2, 0, 0), header_style="dim")
    for column in columns:
        table.add_column(column)
    return table


def _cells(*values: object) -> list[Text]:
    """Cells as plain text: names typed by people are never read as markup."""
    return [Text(str(value)) for value in values]


def _titled(title: str, table: Table) -> RenderableType:
    return Group(Text(title, style="bold"), Padding(table, (0, 0, 0, 2)))
