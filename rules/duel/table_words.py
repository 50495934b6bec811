"""A duel's table in words, as phrases (docs/i18n.md): the whole table for the terminal
and the DM, each player's line, the ante, the stack and the attack, what a decision
asks and what each option does. ``bot.i18n.say`` makes them in a reader's language;
players are named by the names given (plain text), cards by :func:`card_named`.

>>> from rules.duel.notation import parse
>>> state = parse("1 p1 main // p1 20 | lib 5 | hand - | gy - | play - "
...               "// p2 20 | lib 5 | hand - | gy - | play -")
>>> asking(state.observe(None))
Phrase(duel.asking.main())
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import Decision
from rules.duel.ante import settled_words
from rules.duel.card_text import ability_phrase, card_text
from rules.duel.cards import CardDef, card
from rules.duel.phrasing import card_named, keyword, listed, phase
from rules.duel.state import DuelView
from rules.phrases import Named, Phrase, Words

Said = Words | Named
"""A piece of a phrase: words, or a card's name."""


def lines_said(lines: Sequence[Said]) -> Said:
    """Lines of words as one text, a line after another (``duel.lines``)."""
    said: Said = lines[-1] if lines else ""
    for line in reversed(lines[:-1]):
        said = Phrase("duel.lines", first=line, rest=said)
    return said


def does(data: CardDef) -> Words:
    """What a card does, the first line of its rules text (the card set's phrases)."""
    lines = card_text(data)
    return lines[0] if lines else ""


def _numbered(cid: int | str, name: str | None) -> Said:
    """A card in play by its number and name (``7 Kindlewhip``)."""
    if name is None:
        return str(cid)
    return Phrase("duel.table.numbered", id=cid, card=card_named(name))


def permanent(entry: dict[str, Any], names: dict[int, str]) -> Said:
    """A permanent with its power and toughness, keywords and state."""
    said: Said = _numbered(entry["id"], entry["name"])
    if "power" in entry:
        stats = f"{entry['power']}/{entry['toughness']}"
        said = (Phrase("duel.table.creature_keywords", card=said, stats=stats,
                       keywords=listed([keyword(k) for k in entry["keywords"]]))
                if entry["keywords"] else
                Phrase("duel.table.creature", card=said, stats=stats))
    flags: list[Said] = []
    if entry["tapped"]:
        flags.append(Phrase("duel.table.tapped"))
    if entry["sick"] and "power" in entry:
        flags.append(Phrase("duel.table.sick"))
    if entry["damage"]:
        flags.append(Phrase("duel.table.damage", amount=entry["damage"]))
    if entry["shields"]:
        flags.append(Phrase("duel.table.shields", count=entry["shields"]))
    if entry["attached"] is not None:
        attached = names.get(entry["attached"])
        flags.append(Phrase("duel.table.on", card=card_named(attached) if attached
                            else str(entry["attached"])))
    return Phrase("duel.table.flagged", what=said, flags=listed(flags)) if flags else said


def render_text(view: DuelView, names: Sequence[str]) -> Said:
    """The whole table as words, with the seat's own hand when the view has one."""
    lines: list[Said] = [Phrase("duel.table.heading", turn=view.turn,
                                who=names[view.active], phase=phase(view.phase))]
    for seat in range(len(view.players)):
        lines += player_lines(view, seat, names)
    if any(view.ante):
        lines.append(ante_line(view, names))
    lines += now_lines(view, names)
    if view.seat is not None:
        lines.append(Phrase("duel.table.your_hand", cards=listed(
            [card_named(name) for name in view.hand])) if view.hand
            else Phrase("duel.table.your_hand_empty"))
    return lines_said(lines)


def player_lines(view: DuelView, seat: int, names: Sequence[str]) -> list[Said]:
    """One player's counts, then their lands and other permanents (indented)."""
    player = view.players[seat]
    pool = "".join(c * n for c, n in sorted(player["pool"].items()))
    counts: Said = Phrase("duel.table.counts", life=player["life"], count=player["hand"],
                          library=player["library"], graveyard=len(player["graveyard"]))
    if pool:
        counts = Phrase("duel.table.with_pool", counts=counts, pool=pool)
    if player["lost"]:
        counts = Phrase("duel.table.with_lost", counts=counts)
    who: Said = (Phrase("duel.table.you", who=names[seat]) if seat == view.seat
                 else names[seat])
    lines: list[Said] = [Phrase("duel.table.player", number=seat + 1, who=who,
                                counts=counts)]
    own = [e for e in view.battlefield if e["controller"] == seat]
    lands = [e for e in own if e["type"] == "land"]
    if lands:
        untapped = sum(1 for e in lands if not e["tapped"])
        shown = [Phrase("duel.table.flagged", what=_numbered(e["id"], e["name"]),
                        flags=Phrase("duel.table.tapped")) if e["tapped"]
                 else _numbered(e["id"], e["name"]) for e in lands]
        lines.append(Phrase("duel.table.indented", line=Phrase(
            "duel.table.lands", untapped=untapped, count=len(lands), lands=listed(shown))))
    lines += [Phrase("duel.table.indented", line=permanent(e, view.names))
              for e in own if e["type"] != "land"]
    return lines


def ante_line(view: DuelView, names: Sequence[str]) -> Said:
    """The cards set aside for ante and whose each is (``""`` in a duel without
    ante); once the duel is over, who keeps them (:func:`settled_words`)."""
    if view.ante_settled and any(view.ante):
        return settled_words(view.ante, view.ante_winner, names.__getitem__)
    staked: list[Said] = [Phrase("duel.table.staked", card=card_named(name), who=names[seat])
                          for seat, name in enumerate(view.ante) if name is not None]
    return Phrase("duel.table.ante", cards=listed(staked, last="dot")) if staked else ""


def now_lines(view: DuelView, names: Sequence[str]) -> list[Said]:
    """What is under way: the stack and the attack."""
    lines: list[Said] = []
    if view.stack:
        lines.append(Phrase("duel.table.stack", items=listed(
            [stack_item(item, view, names) for item in view.stack], last="semicolon")))
    if view.combat is not None:
        combat = view.combat
        attackers = listed([_card_of(view, a) for a in combat["attackers"]])
        blocks = [Phrase("duel.table.blocked_by", attacker=_card_of(view, a),
                         blockers=listed([_card_of(view, b) for b in blockers]))
                  for a, blockers in combat["blocks"].items() if blockers]
        lines.append(Phrase("duel.table.attacking_blocked", attackers=attackers,
                            blocks=listed(blocks, last="semicolon")) if blocks
                     else Phrase("duel.table.attacking", attackers=attackers))
    return lines


def _card_of(view: DuelView, cid: int) -> Said:
    name = view.names.get(cid)
    return card_named(name) if name else str(cid)


def stack_item(item: dict[str, Any], view: DuelView, names: Sequence[str]) -> Said:
    """One spell or ability on the stack: its number, name, who played it, its target."""
    said = Phrase("duel.table.stack_item", card=_numbered(item["id"], item["name"]),
                  who=names[item["controller"]])
    if item["target"]:
        return Phrase("duel.table.aimed", what=said, target=target(item["target"], view, names))
    return said


def answering(view: DuelView, names: Sequence[str]) -> Said:
    """What a priority window asks a player to answer: the top of the stack with
    what it does (``""`` when the stack is empty)."""
    if not view.stack:
        return ""
    top = view.stack[-1]
    what = does(card(top["name"]))
    item = stack_item(top, view, names)
    return (Phrase("duel.table.to_answer_does", item=item, does=what) if what
            else Phrase("duel.table.to_answer", item=item))


def target(ref: str, view: DuelView, names: Sequence[str]) -> Said:
    """A target (``p2``, ``7``) in words: a player's name, or a card's number and name."""
    if ref.startswith("p"):
        seat = int(ref[1:]) - 1
        return names[seat] if seat < len(names) else ref
    return _numbered(ref, view.names.get(int(ref)))


ASKING: dict[str, Phrase] = {
    "main": Phrase("duel.asking.main"), "priority": Phrase("duel.asking.priority"),
    "x": Phrase("duel.asking.x"), "target": Phrase("duel.asking.target"),
    "attack": Phrase("duel.asking.attack"), "band": Phrase("duel.asking.band"),
    "block": Phrase("duel.asking.block"), "assign": Phrase("duel.asking.assign"),
    "discard": Phrase("duel.asking.discard"), "defender": Phrase("duel.asking.defender"),
}
"""What each kind of decision is, said after the name of who decides."""


def asking(view: DuelView) -> Words:
    """What the player deciding now is doing, in words (``""`` when nobody decides)."""
    if view.deciding is None or view.asking is None:
        return ""
    return ASKING.get(view.asking, view.asking)


STAGES: dict[str, Phrase] = {
    "defender": Phrase("duel.stage.defender"), "declare": Phrase("duel.stage.declare"),
    "band": Phrase("duel.stage.band"), "attack window": Phrase("duel.stage.attack_window"),
    "block": Phrase("duel.stage.block"), "block window": Phrase("duel.stage.block_window"),
    "assign": Phrase("duel.stage.assign"), "prevent window": Phrase("duel.stage.prevent_window"),
}
"""Each stage of an attack, in words."""


def stage(name: str | None) -> Words:
    """A stage of the attack in words (``""``: none)."""
    return STAGES.get(name or "", name or "")


WORDS: dict[str, Phrase] = {
    "pass": Phrase("duel.option.pass"), "end": Phrase("duel.option.end"),
    "attack": Phrase("duel.option.attack"), "cancel": Phrase("duel.option.cancel"),
    "none": Phrase("duel.option.none"),
}
"""The one-word options, in words."""


def option_words(view: DuelView, decision: Decision, option: str,
                 names: Sequence[str]) -> Said:
    """What choosing ``option`` does, in words (the caller clips it to a menu's
    100 characters once it is made).

    >>> from rules.duel.notation import parse
    >>> state = parse("1 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
    ...               "// p2 20 | lib 5 | hand - | gy - | play -")
    >>> option_words(state.observe(0), state.decision_for(0), "cast Kindlewhip", ["Ada", "Bo"])
    ... # doctest: +ELLIPSIS
    Phrase(duel.option.cast_does(card=Named(domain='cards', name='Kindlewhip'), cost='R', ...))
    """
    if option == "none" and decision.kind in ("block", "band"):
        return (Phrase("duel.option.no_blockers") if decision.kind == "block"
                else Phrase("duel.option.no_band"))
    if option in WORDS:
        return WORDS[option]
    if decision.kind == "x":
        return f"X = {option}"
    verb, _, rest = option.partition(" ")
    if verb in {"cast", "land"}:
        data = card(rest)
        what = does(data)
        name = card_named(rest)
        if verb == "land":
            return (Phrase("duel.option.land_does", card=name, does=what) if what
                    else Phrase("duel.option.land", card=name))
        if data.cost:
            return (Phrase("duel.option.cast_does", card=name, cost=data.cost, does=what)
                    if what else Phrase("duel.option.cast_cost", card=name, cost=data.cost))
        return (Phrase("duel.option.cast_free_does", card=name, does=what) if what
                else Phrase("duel.option.cast", card=name))
    if verb in {"use", "boost"}:
        pid_text, _, detail = rest.partition(".")
        name = view.names.get(int(pid_text), pid_text)
        if verb == "boost":
            return Phrase("duel.option.boost", mana=detail, card=card_named(name))
        return Phrase("duel.option.use", card=card_named(name),
                      does=ability_phrase(card(name).abilities[int(detail) - 1]))
    if decision.kind in {"target", "assign"} or (option.startswith("p") and option[1:].isdigit()):
        return target(option, view, names)
    if decision.kind == "attack" and option.isdigit():
        return _numbered(option, view.names.get(int(option)))
    if decision.kind == "block":
        blocker, _, attacker = option.partition(">")
        return Phrase("duel.option.block", blocker=_card_of(view, int(blocker)),
                      attacker=_card_of(view, int(attacker)))
    return option
