"""A duel in words: the table for the terminal, and what each option means."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import Decision
from rules.duel.ante import settled_text
from rules.duel.cards import CardDef, card, card_set, keyword_words
from rules.duel.state import DuelView
from rules.words import clip, plural

OPTION_TEXT = 100
"""Longest option description (Discord's menu limit)."""


def _permanent(entry: dict[str, Any], names: dict[int, str]) -> str:
    parts = [f"{entry['id']} {entry['name']}"]
    if "power" in entry:
        parts.append(f"{entry['power']}/{entry['toughness']}")
        if entry["keywords"]:
            parts.append(", ".join(keyword_words(k) for k in entry["keywords"]))
    flags = [flag for flag, on in (("tapped", entry["tapped"]),
                                   ("sick", entry["sick"] and "power" in entry),
                                   (f"{entry['damage']} damage", entry["damage"]),
                                   (f"{plural(entry['shields'], 'shield')}", entry["shields"]))
             if on]
    if entry["attached"] is not None:
        flags.append(f"on {names.get(entry['attached'], entry['attached'])}")
    return " ".join(parts) + (f" ({', '.join(flags)})" if flags else "")


def render_text(view: DuelView, names: Sequence[str]) -> str:
    """The whole table as text, with the seat's own hand when the view has one."""
    lines = [f"Arcane Duel — turn {view.turn}, {names[view.active]}'s {view.phase} phase"]
    for seat in range(len(view.players)):
        lines += player_lines(view, seat, names)
    if any(view.ante):
        lines.append(ante_line(view, names))
    lines += now_lines(view, names)
    if view.seat is not None:
        lines.append("Your hand: " + (", ".join(view.hand) or "empty"))
    return "\n".join(lines)


def player_lines(view: DuelView, seat: int, names: Sequence[str]) -> list[str]:
    """One player's counts, then their lands and other permanents (indented)."""
    player = view.players[seat]
    you = " (you)" if seat == view.seat else ""
    pool = "".join(c * n for c, n in sorted(player["pool"].items()))
    lines = [f"{seat + 1}. {names[seat]}{you} — {player['life']} life · "
             f"{plural(player['hand'], 'card')} in hand · library {player['library']}"
             f" · graveyard {len(player['graveyard'])}"
             + (f" · pool {pool}" if pool else "") + (" · lost" if player["lost"] else "")]
    own = [e for e in view.battlefield if e["controller"] == seat]
    lands = [e for e in own if e["type"] == "land"]
    if lands:
        untapped = sum(1 for e in lands if not e["tapped"])
        lines.append(f"   lands ({untapped} of {len(lands)} untapped): "
                     + ", ".join(f"{e['id']} {e['name']}" + (" (tapped)" if e["tapped"] else "")
                                 for e in lands))
    lines += ["   " + _permanent(e, view.names) for e in own if e["type"] != "land"]
    return lines


def ante_line(view: DuelView, names: Sequence[str]) -> str:
    """The cards set aside for ante and whose each is (``""`` in a duel without
    ante): everyone sees them.

    >>> from rules.duel.notation import parse
    >>> state = parse("1 p1 main // p1 20 | lib 5 | hand - | gy - | play - | ante Burrtusk Boar "
    ...               "// p2 20 | lib 5 | hand - | gy - | play - | ante Kindlewhip")
    >>> ante_line(state.observe(None), ["Ada", "Bo"])
    'Ante: Burrtusk Boar (Ada) · Kindlewhip (Bo)'

    Once the duel is over it says who keeps them (:func:`~rules.duel.ante.settled_text`).
    """
    if view.ante_settled and any(view.ante):
        return settled_text(view.ante, view.ante_winner, names.__getitem__)
    staked = [f"{name} ({names[seat]})" for seat, name in enumerate(view.ante)
              if name is not None]
    return "Ante: " + " · ".join(staked) if staked else ""


def now_lines(view: DuelView, names: Sequence[str]) -> list[str]:
    """What is under way: the stack and the attack."""
    lines = []
    if view.stack:
        lines.append("Stack (top last): " + "; ".join(
            stack_item_text(item, view, names) for item in view.stack))
    if view.combat is not None:
        combat = view.combat
        blocks = "; ".join(
            f"{view.names.get(a, a)} blocked by "
            + ", ".join(str(view.names.get(b, b)) for b in blockers)
            for a, blockers in combat["blocks"].items() if blockers)
        lines.append("Attacking: " + ", ".join(str(view.names.get(a, a))
                                               for a in combat["attackers"])
                     + (f" — {blocks}" if blocks else ""))
    return lines


def stack_item_text(item: dict[str, Any], view: DuelView, names: Sequence[str]) -> str:
    """One spell or ability on the stack: its number, name, who played it, its target."""
    return (f"{item['id']} {item['name']} ({names[item['controller']]})"
            + (f" → {_ref(item['target'], view, names)}" if item["target"] else ""))


def answering_text(view: DuelView, names: Sequence[str]) -> str:
    """What a priority window asks a player to answer: the top of the stack with
    what it does (``""`` when the stack is empty).

    >>> from rules.duel.notation import act, parse
    >>> state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
    ...               "// p2 20 | lib 5 | hand - | gy - | play -")
    >>> _ = act(state, "cast Kindlewhip @p2")
    >>> answering_text(state.observe(1), ["Ada", "Bo"])
    'To answer: 7 Kindlewhip (Ada) → Bo — Deal 2 damage to any target.'
    """
    if not view.stack:
        return ""
    top = view.stack[-1]
    words = card(top["name"]).text().splitlines()
    return (f"To answer: {stack_item_text(top, view, names)}"
            + (f" — {words[0]}" if words else ""))


def _ref(ref: str, view: DuelView, names: Sequence[str]) -> str:
    if ref.startswith("p"):
        seat = int(ref[1:]) - 1
        return names[seat] if seat < len(names) else ref
    return f"{ref} {view.names.get(int(ref), '')}".strip()


ASKING = {"main": "main phase", "priority": "may respond", "x": "choosing X",
          "target": "choosing a target", "attack": "declaring attackers",
          "band": "forming a band", "block": "declaring blockers",
          "assign": "dividing damage", "discard": "discarding",
          "defender": "choosing whom to attack"}
"""What each kind of decision is, said after the name of who decides."""


def asking_words(view: DuelView) -> str:
    """What the player deciding now is doing, in words (``""`` when nobody decides).

    >>> from rules.duel.notation import parse
    >>> asking_words(parse("1 p1 main // p1 20 | lib 5 | hand - | gy - | play - "
    ...                    "// p2 20 | lib 5 | hand - | gy - | play -").observe(None))
    'main phase'
    """
    if view.deciding is None or view.asking is None:
        return ""
    return ASKING.get(view.asking, view.asking)


def option_text(view: DuelView, decision: Decision, option: str,
                names: Sequence[str]) -> str:
    """What choosing ``option`` does, in words (at most 100 characters).

    >>> from rules.duel.notation import parse
    >>> state = parse("1 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
    ...               "// p2 20 | lib 5 | hand - | gy - | play -")
    >>> decision = state.decision_for(0)
    >>> option_text(state.observe(0), decision, "cast Kindlewhip", ["Ada", "Bo"])
    'Cast Kindlewhip (R): Deal 2 damage to any target.'
    """
    words = {"pass": "Pass", "end": "End your turn", "attack": "Attack",
             "cancel": "Cancel", "none": "None"}
    if option == "none" and decision.kind in ("block", "band"):
        return "No blockers" if decision.kind == "block" else "No band"
    if option in words:
        return words[option]
    if decision.kind == "x":
        return f"X = {option}"
    verb, _, rest = option.partition(" ")
    if verb in {"cast", "land"}:
        data = card(rest)
        cost = f" ({data.cost})" if data.cost else ""
        return clip(f"{verb.capitalize()} {rest}{cost}: {data.text().splitlines()[0]}"
                    if data.text() else f"{verb.capitalize()} {rest}", OPTION_TEXT)
    if verb in {"use", "boost"}:
        pid_text, _, detail = rest.partition(".")
        name = view.names.get(int(pid_text), pid_text)
        if verb == "boost":
            return clip(f"Pay {detail} to boost {name}", OPTION_TEXT)
        data = card(name)
        return clip(f"Use {name}: {data.abilities[int(detail) - 1].text()}", OPTION_TEXT)
    if decision.kind in {"target", "assign"} or (option.startswith("p") and option[1:].isdigit()):
        return clip(_ref(option, view, names), OPTION_TEXT)
    if decision.kind == "attack" and option.isdigit():
        return clip(f"{option} {view.names.get(int(option), '')}", OPTION_TEXT)
    if decision.kind == "block":
        blocker, _, attacker = option.partition(">")
        return clip(f"{view.names.get(int(blocker), blocker)} blocks "
                    f"{view.names.get(int(attacker), attacker)}", OPTION_TEXT)
    return option


def card_words(data: CardDef) -> str:
    """A card as its face says it: name and cost, type line (with power and
    toughness), rules text, rarity.

    >>> print(card_words(card("Kindlewhip")))
    Kindlewhip  R
    Instant · common
    Deal 2 damage to any target.
    """
    body = "\n".join(filter(None, [data.text(), f"“{data.flavor}”" if data.flavor else ""]))
    stats = f" · {data.power}/{data.toughness}" if data.is_creature else ""
    head = f"{data.name}  {data.cost}".rstrip()
    return "\n".join(filter(None, [head, f"{data.type_line()}{stats} · {data.rarity}", body]))


def catalogue(search: str) -> list[str]:
    """Every card whose name holds ``search`` (any case), as :func:`card_words` says it."""
    wanted = search.strip().casefold()
    return [card_words(c) for c in card_set().values() if wanted in c.name.casefold()]
