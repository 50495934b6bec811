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

from rules.duel.cards import card, keyword_words
from rules.duel.state import DuelView
from rules.duel.text import ante_line, asking_words
from rules.words import plural


def duel_view(view: DuelView, names: Sequence[str]) -> RenderableType:
    """A duel as the Discord table shows it, in tables: the players' counts (and
    the ante, in a duel for ante), each one's permanents, the stack, the attack,
    and the seat's own hand."""
    parts: list[RenderableType] = [_duel_heading(view, names), _duel_players(view, names)]
    if any(view.ante):
        parts.append(Text(ante_line(view, names)))  # a plain Text: names are never markup
    for seat in range(len(view.players)):
        permanents = _duel_permanents(view, seat)
        if permanents.row_count:
            owner = "Your" if seat == view.seat else f"{names[seat]}'s"
            parts.append(_titled(f"{owner} permanents", permanents))
    if view.stack:
        parts.append(_titled("Stack (top first)", _duel_stack(view, names)))
    if view.combat is not None:
        stage = view.combat.get("stage")
        parts.append(_titled(f"Attack ({stage})" if stage else "Attack",
                             _duel_attack(view)))
    if view.seat is not None:  # a seat's view holds its own hand only
        parts.append(_titled("Your hand:", _duel_hand(view.hand)) if view.hand
                     else Text("Your hand: empty"))
    return Group(*parts)


def _duel_heading(view: DuelView, names: Sequence[str]) -> Text:
    line = f"Arcane Duel — turn {view.turn}, {names[view.active]}'s {view.phase} phase"
    if view.deciding is not None:
        line += f" · {_who(view, view.deciding, names)} to act: {asking_words(view)}"
    return Text(line, style="bold")


def _who(view: DuelView, seat: int, names: Sequence[str]) -> str:
    return names[seat] + (" (you)" if seat == view.seat else "")


def _duel_players(view: DuelView, names: Sequence[str]) -> Table:
    table = _table("", "player", "life", "hand", "library", "graveyard", "pool")
    for column in table.columns[2:6]:
        column.justify = "right"
    for seat, player in enumerate(view.players):
        # ▶ the active player; ● whoever must decide now (often someone else).
        mark = ("▶" if seat == view.active else "") + ("●" if seat == view.deciding else "")
        pool = "".join(colour * n for colour, n in sorted(player["pool"].items()))
        who = _who(view, seat, names) + (" — lost" if player["lost"] else "")
        table.add_row(*_cells(mark, who, player["life"], player["hand"], player["library"],
                              len(player["graveyard"]), pool or "-"))
    return table


def _duel_permanents(view: DuelView, seat: int) -> Table:
    """Lands grouped by name (ids, how many, how many untapped), then one row per
    other permanent."""
    table = _table("id", "card", "P/T", "keywords / type", "state")
    table.columns[1].no_wrap = True  # a card's name reads best whole; its state may wrap
    own = [e for e in view.battlefield if e["controller"] == seat]
    lands: dict[str, list[dict[str, Any]]] = {}
    for entry in own:
        if entry["type"] == "land":
            lands.setdefault(entry["name"], []).append(entry)
    for name, group in lands.items():
        untapped = sum(1 for e in group if not e["tapped"])
        ids = ", ".join(str(i) for i in sorted(e["id"] for e in group))
        table.add_row(*_cells(ids, f"{name} ×{len(group)}", "", "",
                              f"{untapped} of {len(group)} untapped"))
    for entry in own:
        if entry["type"] != "land":
            table.add_row(*_cells(*_duel_permanent(entry, view.names)))
    return table


def _duel_permanent(entry: dict[str, Any], names: dict[int, str]) -> tuple[Any, ...]:
    creature = "power" in entry
    stats = f"{entry['power']}/{entry['toughness']}" if creature else ""
    # Only creatures have keywords in the view; the others say what they are there.
    keywords = (", ".join(keyword_words(k) for k in entry["keywords"]) if creature
                else entry["type"])
    state = [flag for flag, on in (("tapped", entry["tapped"]),
                                   ("sick", entry["sick"] and creature),
                                   (f"{entry['damage']} damage", entry["damage"]),
                                   (plural(entry["shields"], "shield"), entry["shields"]))
             if on]
    if entry["attached"] is not None:
        state.append(f"on {_card_ref(entry['attached'], names)}")
    return entry["id"], entry["name"], stats, keywords, ", ".join(state)


def _duel_stack(view: DuelView, names: Sequence[str]) -> Table:
    table = _table("id", "spell or ability", "controller", "target", "X")
    for item in reversed(view.stack):  # the view lists it bottom first
        name = item["name"] + (" (interrupt)" if item["interrupt"] else "")
        target = _target(item["target"], view, names) if item["target"] else ""
        table.add_row(*_cells(item["id"], name, names[item["controller"]], target,
                              item["x"] or ""))
    return table


def _duel_attack(view: DuelView) -> Table:
    """One row per attacker: its P/T, whether it is in the band, what blocks it
    (a band's blockers are listed on its first member, as the rules key them)."""
    combat = view.combat
    assert combat is not None
    table = _table("id", "attacker", "P/T", "band", "blocked by")
    perms = {e["id"]: e for e in view.battlefield}
    for attacker in combat["attackers"]:
        entry = perms.get(attacker, {})
        stats = f"{entry['power']}/{entry['toughness']}" if "power" in entry else ""
        blockers = ", ".join(_card_ref(b, view.names)
                             for b in combat["blocks"].get(attacker, ()))
        table.add_row(*_cells(attacker, view.names.get(attacker, "?"), stats,
                              "band" if attacker in combat["band"] else "", blockers or "-"))
    return table


def _duel_hand(hand: Sequence[str]) -> Table:
    table = _table("card", "cost", "type")
    for name, copies in Counter(hand).items():
        data = card(name)
        stats = f" · {data.power}/{data.toughness}" if data.is_creature else ""
        table.add_row(*_cells(name + (f" ×{copies}" if copies > 1 else ""), data.cost or "",
                              data.type_line() + stats))
    return table


def _card_ref(cid: int, names: dict[int, str]) -> str:
    return f"{cid} {names[cid]}" if cid in names else str(cid)


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
